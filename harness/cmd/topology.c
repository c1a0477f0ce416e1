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
	{ "root", 0, OPT_STRING, offsetof(struct topology_args, root), "DIR", 0, 0,
	  "read sys/ and proc/ under DIR instead of / (fixture trees)" },
	{ "json", 0, OPT_FLAG, offsetof(struct topology_args, json), NULL, 0, 0, "print JSON instead of text" },
	OPTION_GROUP(options_global, struct topology_args, g),
	{ NULL, 0, 0, 0, NULL, 0, 0, NULL },
};

const struct command_def cmd_topology_def = {
	"topology", NULL, "cpus, caches and producer/consumer placement classes",
	topology_options, 0, 0, OPTIONS_ANYWHERE, NULL,
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
