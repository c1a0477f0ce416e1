/* explain.c: see explain.h */
#define _GNU_SOURCE
#include "cmd/explain.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/explain.h"
#include "core/options.h"
#include "report/explain_writer.h"

/* The settings explain takes, and what only the command line has. */
struct explain_cli {
	struct explain_opts x;
	char *metric;
	int help;
};

#define EO(f) offsetof(struct explain_cli, f)
static const struct option_def explain_options[] = {
	{ "metric", 0, OPT_STRING, EO(metric), "instructions|time", 0, 0, "what to compare (default: instructions for compute families where counters exist, else time)" },
	{ "runs", 'r', OPT_UINT, EO(x.runs), "N", 3, 10000, "timed runs per distinct binary with --metric time (default 5)" },
	{ "warmup", 'w', OPT_UINT, EO(x.warmup), "N", 0, 1000, "untimed runs first (default 1)" },
	{ "top", 0, OPT_UINT, EO(x.top), "K", 1, 20, "name at most K flags in the claim (default 3)" },
	{ "out", 'o', OPT_STRING, EO(x.out), "DIR", 0, 0, "folder of explain.md and results.json (default RUN/explain-<time>)" },
	{ "cache", 0, OPT_STRING, EO(x.cache), "DIR", 0, 0, "build cache (default build/cache)" },
	{ "jobs", 'j', OPT_UINT, EO(x.jobs), "N", 1, 256, "parallel compilers (default: online cpus)" },
	{ "timeout", 0, OPT_DOUBLE, EO(x.timeout), "SECONDS", 0.1, 86400, "limit of one run of a program (default 120)" },
	{ "build-timeout", 0, OPT_DOUBLE, EO(x.build_timeout), "SECONDS", 1, 86400, "limit of one compile (default 300)" },
	{ "help", 'h', OPT_FLAG, EO(help), NULL, 0, 0, "show this help" },
	{ NULL, 0, 0, 0, NULL, 0, 0, NULL },
};

static void explain_usage(FILE *out)
{
	fprintf(out, "usage: flagbench explain RUN_DIR CELL_A CELL_B [options]\n\n"
		     "Builds B one flag closer to A and A one flag closer to B, for every optimizer flag (gcc -O\n"
		     "levels) or ISA extension (-march) in which they differ, and names the flags that carry B's\n"
		     "speedup, checked by building B without them.\n\n");
	options_help(explain_options, out);
}

static const struct explain_view explain_view_md = {
	.report = explain_report,
};

int cmd_explain(int argc, char **argv)
{
	struct explain_cli o;
	memset(&o, 0, sizeof(o));
	unsigned char given[32] = { 0 };
	char *pos[4] = { 0 };
	int npos = options_parse(explain_options, &o, given, argc - 1, argv + 1, pos, 4);
	int code = EXIT_USAGE;
	if (npos < 0)
		return EXIT_USAGE;
	if (o.help) {
		explain_usage(stdout);
		return 0;
	}
	if (!given[option_index(explain_options, option_find(explain_options, "warmup"))])
		o.x.warmup = 1;
	if (npos != 3) {
		error("usage: flagbench explain RUN_DIR CELL_A CELL_B [options] (see --help)");
		goto done;
	}
	if (!o.metric)
		o.x.metric = EXPLAIN_ASK_ANY;
	else if (!strcmp(o.metric, "instructions"))
		o.x.metric = EXPLAIN_ASK_INSTRUCTIONS;
	else if (!strcmp(o.metric, "time"))
		o.x.metric = EXPLAIN_ASK_TIME;
	else {
		error("--metric must be instructions or time, not '%s'", o.metric);
		goto done;
	}
	if (o.x.timeout <= 0)
		o.x.timeout = 120;
	code = explain_main(pos[0], pos[1], pos[2], argc, argv, &o.x, &explain_view_md);
done:
	free(o.x.out);
	free(o.x.cache);
	free(o.metric);
	return code;
}
