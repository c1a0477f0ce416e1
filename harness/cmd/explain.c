/* explain.c: see explain.h */
#define _GNU_SOURCE
#include "cmd/explain.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/explain.h"
#include "driver/tune.h"
#include "core/options.h"
#include "report/explain_writer.h"

/* The settings explain takes, and what only the command line has. */
struct explain_cli {
	struct explain_opts x;
	char *metric, *budget, *resume;
	struct global_opts g;
};

/* the cache's default is under the project: the session (pipeline/session.h) computes it */
#define EO(f) offsetof(struct explain_cli, f)
static const struct option_def explain_options[] = {
	{ .name = "metric", .type = OPT_STRING, .offset = EO(metric), .metavar = "instructions|time", .help = "what to compare (default: instructions for compute families where counters exist, else time)" },
	{ .name = "runs", .short_name = 'r', .type = OPT_UINT, .offset = EO(x.runs), .metavar = "N", .min = 3, .max = 10000, .help = "timed runs per distinct binary with --metric time", .def = "5" },
	{ .name = "warmup", .short_name = 'w', .type = OPT_UINT, .offset = EO(x.warmup), .metavar = "N", .max = 1000, .help = "untimed runs first", .def = "1" },
	{ .name = "top", .type = OPT_UINT, .offset = EO(x.top), .metavar = "K", .min = 1, .max = 20, .help = "name at most K flags in the claim", .def = "3" },
	{ .name = "out", .short_name = 'o', .type = OPT_STRING, .offset = EO(x.out), .metavar = "DIR", .help = "folder of explain.md and results.json (default RUN/explain-<time>)" },
	{ .name = "cache", .type = OPT_STRING, .offset = EO(x.cache), .metavar = "DIR", .help = "build cache (default: build/cache of the project)" },
	{ .name = "budget", .short_name = 'b', .type = OPT_STRING, .offset = EO(budget), .metavar = "TIME|N", .help = "stop when a time (90s, 10m, 1h) is spent or N builds are made: the answer so far is written (default: none)" },
	{ .name = "resume", .type = OPT_STRING, .offset = EO(resume), .metavar = "DIR", .help = "go on with the explain whose folder is DIR (its journal.json names the run and the cells)" },
	{ .name = "jobs", .short_name = 'j', .type = OPT_UINT, .offset = EO(x.jobs), .metavar = "N", .min = 1, .max = 256, .help = "parallel compilers (default: online cpus)" },
	OPTION_GROUP(options_timeout, struct explain_cli, x.timeout),
	OPTION_GROUP(options_build_timeout, struct explain_cli, x.build_timeout),
	OPTION_GROUP(options_dry_run, struct explain_cli, x.dry_run),
	OPTION_GROUP(options_global, struct explain_cli, g),
	{ .name = NULL },
};

static void explain_help_more(FILE *out)
{
	fprintf(out, "\nSearches the optimizer flags (gcc -O levels) or ISA extensions (-march) in which A and B\n"
		     "differ by halves: all of them moved at once (B without the optimizer flags, A with the ISA\n"
		     "extensions), then each half of a group that carries B's speedup, down to the flags that carry it.  Across compilers (gcc/-Os against clang/-Os) it\n"
		     "says what the compiler carries at the same flags and what the flags carry within each.\n"
		     "Every batch's findings are written to the folder (journal.json, explain.md, results.json):\n"
		     "--budget's end or Ctrl-C leaves the answer so far, and --resume DIR goes on from there.\n");
}

const struct command_def cmd_explain_def = {
	.name = "explain",
	.synopsis = "RUN_DIR CELL_A CELL_B",
	.synopsis_alt = "--resume DIR",
	.summary = "which flags make B faster than A",
	.options = explain_options,
	.min_pos = 0,
	.max_pos = 3,
	.order = OPTIONS_ANYWHERE,
	.help_more = explain_help_more,
};

static const struct explain_view explain_view_md = {
	.report = explain_report,
};

int cmd_explain(int argc, char **argv)
{
	struct explain_cli o;
	memset(&o, 0, sizeof(o));
	char *pos[3] = { 0 };
	int code = EXIT_USAGE;
	enum parse_status st = command_parse(&cmd_explain_def, &o, NULL, argc, argv, pos, NULL);
	if (st != PARSE_OK) {
		code = parse_exit(st);
		goto done;
	}
	if (pos[0] ? !pos[2] : !o.resume) {
		code = command_usage_error(&cmd_explain_def, "explain needs RUN_DIR CELL_A CELL_B, or --resume DIR");
		goto done;
	}
	if (o.budget && tune_parse_budget(o.budget, &o.x.budget_s, &o.x.budget_builds) < 0) {
		error("--budget must be a time (90s, 10m, 1h) or a count of builds, not '%s'", o.budget);
		goto done;
	}
	if (o.resume && o.x.out) {
		error("--resume DIR writes to DIR: --out is not for it");
		goto done;
	}
	o.x.resume = o.resume;
	o.x.metric_asked = o.metric != NULL;
	if (!o.metric)
		o.x.metric = METRIC_TIME;
	else if (metric_parse(o.metric, &o.x.metric) < 0 || o.x.metric == METRIC_CYCLES) {
		error("--metric must be instructions or time, not '%s'", o.metric);
		goto done;
	}
	code = explain_main(pos[0], pos[1], pos[2], argc, argv, &o.x, &explain_view_md);
done:
	free(o.x.out);
	free(o.x.cache);
	free(o.metric);
	free(o.budget);
	free(o.resume);
	return code;
}
