/* explain.c: see explain.h */
#define _GNU_SOURCE
#include "cmd/explain.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/explain.h"
#include "core/options.h"
#include "report/explain_writer.h"

/* The settings explain takes, and what only the command line has. */
struct explain_cli {
	struct explain_opts x;
	char *metric;
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
	{ .name = "jobs", .short_name = 'j', .type = OPT_UINT, .offset = EO(x.jobs), .metavar = "N", .min = 1, .max = 256, .help = "parallel compilers (default: online cpus)" },
	OPTION_GROUP(options_timeout, struct explain_cli, x.timeout),
	OPTION_GROUP(options_build_timeout, struct explain_cli, x.build_timeout),
	OPTION_GROUP(options_dry_run, struct explain_cli, x.dry_run),
	OPTION_GROUP(options_global, struct explain_cli, g),
	{ .name = NULL },
};

static void explain_help_more(FILE *out)
{
	fprintf(out, "\nBuilds B one flag closer to A and A one flag closer to B, for every optimizer flag (gcc -O\n"
		     "levels) or ISA extension (-march) in which they differ, and names the flags that carry B's\n"
		     "speedup, checked by building B without them.\n");
}

const struct command_def cmd_explain_def = {
	.name = "explain",
	.synopsis = "RUN_DIR CELL_A CELL_B",
	.summary = "which flags make B faster than A",
	.options = explain_options,
	.min_pos = 3,
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
	return code;
}
