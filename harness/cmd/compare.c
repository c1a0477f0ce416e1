/* compare.c: see compare.h */
#define _GNU_SOURCE
#include "cmd/compare.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"
#include "core/options.h"
#include "core/stats.h"
#include "report/compare_writer.h"

struct compare_cli {
	char *metric, *format, *json_out, *baseline, *baselines_dir, *statistic;
	double threshold, timeout, alarm_rate;
	unsigned confirm, resamples, seed;
	int help, times_of_same_binary;
};

#define CO(f) offsetof(struct compare_cli, f)
static const struct option_def compare_options[] = {
	{ "metric", 'm', OPT_STRING, CO(metric), "time|instructions|cycles", 0, 0, "what is compared (default time)" },
	{ "threshold", 't', OPT_DOUBLE, CO(threshold), "PERCENT", 0, 100, "smallest change that counts (default 2)" },
	{ "statistic", 0, OPT_STRING, CO(statistic), "median|min|pNN", 0, 0, "the statistic of each side's times (default: the one NEW reports, the median for older runs)" },
	{ "confirm", 'c', OPT_UINT, CO(confirm), "N", 2, 1000, "measure suspect cells again, both binaries in N rounds (as many A B as B A, shuffled)" },
	{ "alarm-rate", 0, OPT_DOUBLE, CO(alarm_rate), "PERCENT", 0.01, 20, "chance that --confirm alarms for identical builds in one comparison (default 1)" },
	{ "format", 'f', OPT_STRING, CO(format), "text|md|json", 0, 0, "output on stdout (default text)" },
	{ "json-out", 0, OPT_STRING, CO(json_out), "FILE", 0, 0, "also write the comparison as JSON to FILE" },
	{ "baseline", 'b', OPT_STRING, CO(baseline), "NAME", 0, 0, "compare with the stored baseline NAME of NEW's cpu profile" },
	{ "baselines-dir", 0, OPT_STRING, CO(baselines_dir), "DIR", 0, 0, "where baselines are stored (default: baselines/ of the project)" },
	{ "timeout", 0, OPT_DOUBLE, CO(timeout), "SECONDS", 0.1, 86400, "limit of one run while confirming (default 120)" },
	{ "resamples", 0, OPT_UINT, CO(resamples), "N", 100, 1000000, "bootstrap resamples (default 10000)" },
	{ "seed", 0, OPT_UINT, CO(seed), "N", 1, 1e9, "bootstrap seed (default 1): the same inputs give the same interval" },
	{ "times-of-same-binary", 0, OPT_FLAG, CO(times_of_same_binary), NULL, 0, 0, "compare the times of identical binaries too (A/A checks of the noise)" },
	{ "help", 'h', OPT_FLAG, CO(help), NULL, 0, 0, "show this help" },
	{ NULL, 0, 0, 0, NULL, 0, 0, NULL },
};

static void compare_usage(FILE *out)
{
	fprintf(out, "usage: flagbench compare BASE NEW [options]\n"
		     "       flagbench compare --baseline NAME NEW [options]\n\n"
		     "BASE and NEW: run folders or results.json files.  Exit 1 when a cell is slower.\n\n");
	options_help(compare_options, out);
}

/* The option values that need more than the table's range checks: a known
 * metric and format, and as many run folders as --baseline leaves. */
static int check_cli(const struct compare_cli *o, int npos, enum metric *metric, enum compare_format *format)
{
	if (o->metric && metric_parse(o->metric, metric) < 0)
		return error("--metric must be time, instructions or cycles, not '%s'", o->metric);
	double q;
	if (o->statistic && stats_statistic_parse(o->statistic, &q) < 0)
		return error("--statistic must be " STATS_STATISTIC_NAMES ", not '%s'", o->statistic);
	const char *fmt = o->format ? o->format : "text";
	if (!strcmp(fmt, "text"))
		*format = COMPARE_TEXT;
	else if (!strcmp(fmt, "md"))
		*format = COMPARE_MARKDOWN;
	else if (!strcmp(fmt, "json"))
		*format = COMPARE_JSON;
	else
		return error("--format must be text, md or json, not '%s'", fmt);
	if (o->baseline ? npos != 1 : npos != 2)
		return error(o->baseline ? "usage: flagbench compare --baseline NAME NEW"
					 : "usage: flagbench compare BASE NEW");
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	struct compare_cli o;
	memset(&o, 0, sizeof(o));
	o.threshold = 2;
	o.resamples = 10000;
	o.seed = 1;
	o.timeout = 120;
	o.alarm_rate = 1;
	char *pos[3];
	int code = EXIT_USAGE;
	struct comparison cmp;
	memset(&cmp, 0, sizeof(cmp));
	int npos = options_parse(compare_options, &o, NULL, argc - 1, argv + 1, pos, 3);
	if (npos < 0)
		goto out;
	if (o.help) {
		compare_usage(stdout);
		code = 0;
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
		.alarm_rate = o.alarm_rate / 100,
		.timeout_s = o.timeout,
	};
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
