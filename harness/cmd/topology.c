/* topology.c: see topology.h */
#include "cmd/topology.h"

#include <stdlib.h>

#include "system/topology.h"

struct topology_args {
	char *root;
	char *synthetic;
	int json;
	struct global_opts g;
};

static const struct option_def topology_options[] = {
	{ .name = "root", .type = OPT_STRING, .offset = offsetof(struct topology_args, root), .metavar = "DIR|FILE", .help = "the machine of DIR/topology.xml or of FILE (hwloc XML, lstopo --of xml) instead of this one (fixtures)" },
	{ .name = "synthetic", .type = OPT_STRING, .offset = offsetof(struct topology_args, synthetic), .metavar = "DESC", .help = "the machine of an hwloc synthetic string, such as \"package:2 l3:1 core:8 pu:2\"" },
	{ .name = "json", .type = OPT_FLAG, .offset = offsetof(struct topology_args, json), .help = "print JSON instead of text" },
	OPTION_GROUP(options_global, struct topology_args, g),
	{ .name = NULL },
};

const struct command_def cmd_topology_def = {
	.name = "topology",
	.summary = "cpus, core kinds, caches and producer/consumer placement classes",
	.options = topology_options,
	.min_pos = 0,
	.max_pos = 0,
	.order = OPTIONS_ANYWHERE,
};

static int load(const struct topology_args *o, struct topology *t)
{
	if (o->root && o->synthetic)
		return error("--root and --synthetic name two machines: give one");
	return o->synthetic ? topology_load_synthetic(o->synthetic, t) : topology_load(o->root, t);
}

int cmd_topology(int argc, char **argv)
{
	struct topology_args o = { 0 };
	enum parse_status st = command_parse(&cmd_topology_def, &o, NULL, argc, argv, NULL, NULL);
	struct topology t;
	int rc = st != PARSE_OK ? parse_exit(st) : load(&o, &t) < 0 ? EXIT_USAGE : EXIT_ALL_OK;
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
	free(o.synthetic);
	return rc;
}
