/* compare.c: see compare.h */
#define _GNU_SOURCE
#include "cmd/compare.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "driver/compare_confirm.h"
#include "pipeline/executor.h"
#include "pipeline/session.h"
#include "core/options.h"
#include "core/stats.h"
#include "report/compare_writer.h"

struct compare_cli {
	char *metric, *format, *json_out, *baseline, *baselines_dir, *statistic;
	double threshold, timeout, alarm_rate;
	unsigned confirm, resamples, seed;
	struct global_opts g;
	int times_of_same_binary, confirm_changed, record, dry_run;
};

#define CO(f) offsetof(struct compare_cli, f)
static const struct option_def compare_options[] = {
	{ .name = "metric", .short_name = 'm', .type = OPT_STRING, .offset = CO(metric), .metavar = "time|instructions|cycles", .help = "what is compared", .def = "time" },
	{ .name = "threshold", .short_name = 't', .type = OPT_DOUBLE, .offset = CO(threshold), .metavar = "PERCENT", .max = 100, .help = "smallest change that counts", .def = "2" },
	{ .name = "statistic", .type = OPT_STRING, .offset = CO(statistic), .metavar = "median|min|pNN", .help = "the statistic of each side's times (default: the one NEW reports, the median for older runs)" },
	{ .name = "confirm", .short_name = 'c', .type = OPT_UINT, .offset = CO(confirm), .metavar = "N", .min = 2, .max = 1000, .help = "measure suspect cells again, both binaries in N rounds (as many A B as B A, shuffled)" },
	{ .name = "confirm-changed", .type = OPT_FLAG, .offset = CO(confirm_changed), .help = "with --confirm: every cell whose program changed, faster and within the threshold too, not only the suspects" },
	{ .name = "record", .type = OPT_FLAG, .offset = CO(record), .help = "with --confirm: write what was measured again into NEW's results.json (beside: the history's measured steps)" },
	{ .name = "alarm-rate", .type = OPT_DOUBLE, .offset = CO(alarm_rate), .metavar = "PERCENT", .min = 0.01, .max = 20, .help = "chance that --confirm alarms for identical builds in one comparison", .def = "1" },
	{ .name = "format", .short_name = 'f', .type = OPT_STRING, .offset = CO(format), .metavar = "text|md|json", .help = "output on stdout", .def = "text" },
	{ .name = "json-out", .type = OPT_STRING, .offset = CO(json_out), .metavar = "FILE", .help = "also write the comparison as JSON to FILE" },
	{ .name = "baseline", .short_name = 'b', .type = OPT_STRING, .offset = CO(baseline), .metavar = "NAME", .help = "compare with the stored baseline NAME of NEW's cpu profile" },
	{ .name = "baselines-dir", .type = OPT_STRING, .offset = CO(baselines_dir), .metavar = "DIR", .help = "where baselines are stored (default: baselines/ of the project)" },
	/* the limit of each run while confirming */
	OPTION_GROUP(options_timeout, struct compare_cli, timeout),
	/* --confirm's replays through the mock executor: what is measured again, testable without hyperfine */
	OPTION_GROUP(options_dry_run, struct compare_cli, dry_run),
	{ .name = "resamples", .type = OPT_UINT, .offset = CO(resamples), .metavar = "N", .min = 100, .max = 1000000, .help = "bootstrap resamples", .def = "10000" },
	{ .name = "seed", .type = OPT_UINT, .offset = CO(seed), .metavar = "N", .min = 1, .max = 1e9, .help = "bootstrap seed: the same inputs give the same interval", .def = "1" },
	{ .name = "times-of-same-binary", .type = OPT_FLAG, .offset = CO(times_of_same_binary), .help = "compare the times of identical binaries too (A/A checks of the noise)" },
	OPTION_GROUP(options_global, struct compare_cli, g),
	{ .name = NULL },
};

static void compare_help_more(FILE *out)
{
	fprintf(out, "\nBASE and NEW: run folders or results.json files.  Exit 1 when a cell is slower.\n");
}

const struct command_def cmd_compare_def = {
	.name = "compare",
	.synopsis = "BASE NEW",
	.synopsis_alt = "--baseline NAME NEW",
	.summary = "is NEW slower? per cell ratio, interval and verdict",
	.options = compare_options,
	.min_pos = 1,
	.max_pos = 2,
	.order = OPTIONS_ANYWHERE,
	.help_more = compare_help_more,
};

/* The option values that need more than the table's range checks: a known
 * metric and format, and as many run folders as --baseline leaves. */
static int check_cli(const struct compare_cli *o, int npos, enum metric *metric, enum compare_format *format)
{
	if (metric_parse(o->metric, metric) < 0)
		return error("--metric must be time, instructions or cycles, not '%s'", o->metric);
	double q;
	if (o->statistic && stats_statistic_parse(o->statistic, &q) < 0)
		return error("--statistic must be " STATS_STATISTIC_NAMES ", not '%s'", o->statistic);
	if (!strcmp(o->format, "text"))
		*format = COMPARE_TEXT;
	else if (!strcmp(o->format, "md"))
		*format = COMPARE_MARKDOWN;
	else if (!strcmp(o->format, "json"))
		*format = COMPARE_JSON;
	else
		return error("--format must be text, md or json, not '%s'", o->format);
	if ((o->confirm_changed || o->record) && !o->confirm)
		return error("--%s needs --confirm N: it is about the cells measured again",
			     o->confirm_changed ? "confirm-changed" : "record");
	if (o->baseline ? npos != 1 : npos != 2) {
		command_usage_error(&cmd_compare_def, "%s",
				    o->baseline ? "compare --baseline NAME takes one run, NEW"
						: "compare takes two runs, BASE and NEW");
		return -1;
	}
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	struct compare_cli o;
	memset(&o, 0, sizeof(o));
	char *pos[2];
	int npos = 0, code = EXIT_USAGE;
	struct comparison cmp;
	memset(&cmp, 0, sizeof(cmp));
	enum parse_status st = command_parse(&cmd_compare_def, &o, NULL, argc, argv, pos, &npos);
	if (st != PARSE_OK) {
		code = parse_exit(st);
		goto out;
	}
	enum metric metric = METRIC_TIME;
	enum compare_format format = COMPARE_TEXT;
	if (check_cli(&o, npos, &metric, &format) < 0)
		goto out;
	struct compare_request rq = {
		.base = pos[0],
		.new_run = pos[npos - 1],
		.baseline = o.baseline,
		.baselines_dir = o.baselines_dir,
		.opts = {
			.metric = metric,
			.threshold = o.threshold / 100,
			.resamples = o.resamples,
			.seed = o.seed,
			.statistic = o.statistic,
			.same_binary = o.times_of_same_binary ? COMPARE_TIMES_OF_SAME_BINARY : COMPARE_SAME_BINARY_IS_SAME,
		},
		.confirm = o.confirm,
		.confirm_changed = o.confirm_changed,
		.record = o.record,
		.alarm_rate = o.alarm_rate / 100,
		.executor = o.dry_run ? &executor_mock : NULL,
	};
	/* replays only: nothing is built or prepared, so every limit is the run's */
	session_limits_derive(&rq.lim, o.timeout, o.timeout, 0);
	if (compare_main(&rq, &cmp) < 0)
		goto out;
	int wr = compare_write(&cmp, format, o.json_out);
	code = wr < 0 ? EXIT_USAGE : cmp.count[VERDICT_SLOWER] ? 1 : 0;
out:
	comparison_free(&cmp);
	free(o.metric);
	free(o.statistic);
	free(o.format);
	free(o.json_out);
	free(o.baseline);
	free(o.baselines_dir);
	return code;
}
