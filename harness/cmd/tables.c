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
	char *format, *family, *table, *against, *out;
	int help;
};

#define TO(f) offsetof(struct tables_opts, f)
static const struct option_def tables_options[] = {
	{ "format", 0, OPT_STRING, TO(format), "term|md|csv|json|tsv", 0, 0, "output format (default term)" },
	{ "family", 0, OPT_STRING, TO(family), "F", 0, 0, "only family F (its name or file-name slug)" },
	{ "table", 0, OPT_STRING, TO(table), "T", 0, 0, "only table T: throughput, speedup, against, compilers, "
							"instructions, cycles" },
	{ "against", 0, OPT_STRING, TO(against), "COMPILER/-OLEVEL", 0, 0, "the configuration ratios are against "
									  "(default: the first compiler at its first -O level)" },
	{ "out", 0, OPT_STRING, TO(out), "FILE", 0, 0, "write FILE (atomically) instead of stdout" },
	{ "help", 'h', OPT_FLAG, TO(help), NULL, 0, 0, "this help" },
	{ NULL, 0, 0, 0, NULL, 0, 0, NULL },
};

/* argv[0] names the spelling: tables, report (one run) or merge (md by default). */
int cmd_tables(int argc, char **argv)
{
	static const char *formats[] = { "term", "md", "csv", "json", "tsv", NULL };
	const char *name = argv[0];
	struct tables_opts o = { 0 };
	char **pos = xcalloc((size_t)argc + 1, sizeof(*pos));
	int npos = options_parse(tables_options, &o, NULL, argc - 1, argv + 1, pos, argc), f = 0, rc = 0;
	const char *fmt = o.format ? o.format : strcmp(name, "merge") ? "term" : "md";
	while (formats[f] && strcmp(formats[f], fmt))
		f++;
	if (npos >= 0 && !o.help && (npos < 1 || !formats[f] || (!strcmp(name, "report") && npos != 1)))
		npos = !formats[f] ? error("%s: unknown format %s (term, md, csv, json or tsv)", name, fmt)
				   : error("%s: expected %s", name, strcmp(name, "report") ? "RUN_DIR..." : "one RUN_DIR");
	if (npos < 0 || o.help) {
		fprintf(o.help ? stdout : stderr, "usage: flagbench %s [options] RUN_DIR...\n  the tables of one run, "
			"or of several side by side (RUN_DIR or its results.json)\n", name);
		options_help(tables_options, o.help ? stdout : stderr);
		rc = o.help ? 0 : EXIT_USAGE;
	} else {
		rc = model_print(name, pos, (size_t)npos, o.against, (enum mformat)f, o.family, o.table, o.out);
	}
	free(pos);
	free(o.format), free(o.family), free(o.table), free(o.against), free(o.out);
	return rc;
}
