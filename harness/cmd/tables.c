/* tables.c: see tables.h */
#include "cmd/tables.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/options.h"
#include "core/util.h"
#include "report/model.h"

struct tables_opts {
	char *format, *family, *table, *against, *out, *out_dir;
	unsigned width;
	struct global_opts g;
};

#define TO(f) offsetof(struct tables_opts, f)
/* what tables, report and merge share; each table adds its --format with its
 * own default */
static const struct option_def tables_common[] = {
	{ .name = "family", .type = OPT_STRING, .offset = TO(family), .metavar = "F", .help = "only family F (its name or file-name slug)" },
	{ .name = "table", .type = OPT_STRING, .offset = TO(table), .metavar = "T", .help = "only table T: throughput, speedup, against, compilers, instructions, cycles" },
	{ .name = "against", .type = OPT_STRING, .offset = TO(against), .metavar = "COMPILER/-OLEVEL", .help = "the configuration ratios are against (default: the first compiler at its first -O level)" },
	{ .name = "out", .type = OPT_STRING, .offset = TO(out), .metavar = "FILE", .help = "write FILE (atomically) instead of stdout" },
	{ .name = "out-dir", .type = OPT_STRING, .offset = TO(out_dir), .metavar = "DIR", .help = "write each table of each family to DIR/SLUG-TABLE.EXT instead (one model for all: the render's way)" },
	{ .name = "width", .type = OPT_UINT, .offset = TO(width), .metavar = "COLUMNS", .max = 100000, .help = "split a terminal table wider than COLUMNS into blocks of columns (0: never)", .def = "120" },
	OPTION_GROUP(options_global, struct tables_opts, g),
	{ .name = NULL },
};

#define FORMAT_OPTION(d) { .name = "format", .type = OPT_STRING, .offset = TO(format), .metavar = "term|md|csv|json|tsv", .help = "output format", .def = (d) }
static const struct option_def tables_options[] = {
	FORMAT_OPTION("term"),
	OPTION_INCLUDE(tables_common),
	{ .name = NULL },
};
static const struct option_def merge_options[] = {
	FORMAT_OPTION("md"),
	OPTION_INCLUDE(tables_common),
	{ .name = NULL },
};

const struct command_def cmd_tables_def = {
	.name = "tables",
	.synopsis = "RUN_DIR...",
	.summary = "the tables of one run, or of several side by side (RUN_DIR or its results.json)",
	.options = tables_options,
	.min_pos = 1,
	.max_pos = -1,
	.order = OPTIONS_ANYWHERE,
};
const struct command_def cmd_report_def = {
	.name = "report",
	.synopsis = "RUN_DIR",
	.summary = "the tables of a run in the terminal (tables)",
	.options = tables_options,
	.min_pos = 1,
	.max_pos = 1,
	.order = OPTIONS_ANYWHERE,
};
const struct command_def cmd_merge_def = {
	.name = "merge",
	.synopsis = "RUN_DIR...",
	.summary = "runs side by side in Markdown (tables --format md)",
	.options = merge_options,
	.min_pos = 1,
	.max_pos = -1,
	.order = OPTIONS_ANYWHERE,
};

int cmd_tables(int argc, char **argv)
{
	static const char *formats[] = { "term", "md", "csv", "json", "tsv", NULL };
	const struct command_def *c = !strcmp(argv[0], "merge")	 ? &cmd_merge_def
				      : !strcmp(argv[0], "report") ? &cmd_report_def
								   : &cmd_tables_def;
	struct tables_opts o = { 0 };
	char **pos = xcalloc((size_t)argc + 1, sizeof(*pos));
	int npos = 0, f = 0, rc = EXIT_USAGE;
	enum parse_status st = command_parse(c, &o, NULL, argc, argv, pos, &npos);
	if (st == PARSE_OK)
		while (formats[f] && strcmp(formats[f], o.format))
			f++;
	if (st != PARSE_OK)
		rc = parse_exit(st);
	else if (!formats[f])
		command_usage_error(c, "%s: unknown format %s (term, md, csv, json or tsv)", c->name, o.format);
	else if (o.out && o.out_dir)
		command_usage_error(c, "%s: --out and --out-dir: one or the other", c->name);
	else if (o.out_dir)
		rc = model_print_each(pos, (size_t)npos, o.against, (enum mformat)f, o.family, o.table, o.out_dir, o.width);
	else
		rc = model_print(c->name, pos, (size_t)npos, o.against, (enum mformat)f, o.family, o.table, o.out, o.width);
	free(pos);
	free(o.format), free(o.family), free(o.table), free(o.against), free(o.out), free(o.out_dir);
	return rc;
}
