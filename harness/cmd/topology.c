/* topology.c: see topology.h */
#include "cmd/topology.h"

#include <stdlib.h>

#include "system/topology.h"

struct topology_args {
	char *root;
	int json;
	struct global_opts g;
};

static const struct option_def topology_options[] = {
	{ .name = "root", .type = OPT_STRING, .offset = offsetof(struct topology_args, root), .metavar = "DIR", .help = "read sys/ and proc/ under DIR instead of / (fixture trees)" },
	{ .name = "json", .type = OPT_FLAG, .offset = offsetof(struct topology_args, json), .help = "print JSON instead of text" },
	OPTION_GROUP(options_global, struct topology_args, g),
	{ .name = NULL },
};

const struct command_def cmd_topology_def = {
	.name = "topology",
	.summary = "cpus, caches and producer/consumer placement classes",
	.options = topology_options,
	.min_pos = 0,
	.max_pos = 0,
	.order = OPTIONS_ANYWHERE,
};

int cmd_topology(int argc, char **argv)
{
	struct topology_args o = { 0 };
	enum parse_status st = command_parse(&cmd_topology_def, &o, NULL, argc, argv, NULL, NULL);
	struct topology t;
	int rc = st != PARSE_OK ? parse_exit(st) : topology_load(o.root, &t) < 0 ? EXIT_USAGE : EXIT_ALL_OK;
	if (st == PARSE_OK && rc == EXIT_ALL_OK) {
		if (o.json) {
			json_t *j = topology_to_json(&t);
			char *s = json_dumps(j, JSON_INDENT(2) | JSON_SORT_KEYS);
			printf("%s\n", s);
			free(s);
			json_decref(j);
		} else {
			topology_print(&t, stdout);
		}
		topology_free(&t);
	}
	free(o.root);
	return rc;
}
