/* run_options.c: see run_options.h */
#include "driver/run_options.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/options.h"
#include "core/stats.h"
#include "system/meter.h"

#define RO(f) offsetof(struct run_opts, f)
static const struct option_def run_options[] = {
	OPTION_GROUP(options_run_like, struct run_opts, run),
	{ .name = "only", .type = OPT_STRING, .offset = RO(only), .metavar = "GLOB", .help = "run only the cells whose id matches GLOB; the others are left out of the run (no results, progress or tables)" },
	{ .name = "shard", .type = OPT_STRING, .offset = RO(shard), .metavar = "K/N", .help = "run shard K of N of the plan: each variant's cells in one shard, the family's baseline in every shard that holds the family, the rest balanced by expected time (flagbench join makes one run of the N)" },
	{ .name = "jobs", .short_name = 'j', .type = OPT_UINT, .offset = RO(jobs), .metavar = "N", .min = 1, .max = 256, .help = "parallel compilers (default: online cpus)" },
	{ .name = "cooldown", .type = OPT_DOUBLE, .offset = RO(cooldown), .metavar = "SECONDS", .max = 3600, .help = "pause before each cell where no sensor decides (default: the profile's)" },
	{ .name = "verify-timeout", .type = OPT_DOUBLE, .offset = RO(verify_timeout), .metavar = "SECONDS", .min = 0.1, .max = 86400, .help = "limit of the verification run (default: --timeout x 4)" },
	{ .name = "consumer", .type = OPT_STRING, .offset = RO(consumer), .metavar = "splice|read|pv", .help = "what drains a stream (default: the meter's, splice)" },
	{ .name = "consumer-wait", .type = OPT_STRING, .offset = RO(consumer_wait), .metavar = "auto|spin|sleep", .help = "how the meter waits on an empty pipe: spin keeps wake-ups of its CPU out of a stream's figure; auto spins where it has a CPU of its own (default auto)" },
	{ .name = "pipe-size", .type = OPT_SIZE, .offset = RO(pipe_size), .metavar = "BYTES", .min = 4096, .max = 1e10, .help = "set the pipe size of streams (default: the producer's choice)" },
	{ .name = "statistic", .type = OPT_STRING, .offset = RO(statistic), .metavar = "median|min|pNN", .help = "the figure a cell reports, and its intervals: the median, the minimum or a quantile, e.g. p25, the lower quartile, which keeps to the runs no interference slowed", .def = STATS_DEFAULT_STATISTIC },
	{ .name = "precision", .type = OPT_DOUBLE, .offset = RO(precision), .metavar = "PERCENT", .max = 100, .help = "add runs to a cell until its 95 % rerun interval (where a rerun's figure falls) is within PERCENT of its figure (default 3, 0 with --runs; 0: --runs only)" },
	{ .name = "max-runs", .type = OPT_UINT, .offset = RO(max_runs), .metavar = "N", .min = 2, .max = 100000, .help = "the most runs --precision may take (default 10 x --runs, at least 30)" },
	{ .name = "layouts", .type = OPT_UINT, .offset = RO(layouts), .metavar = "K", .min = 1, .max = SUITE_LAYOUTS_MAX, .help = "build and run each configuration under K code and stack layouts, interleaved, so a lead must hold across layouts to count (default: the suite's, else 1)" },
	{ .name = "order", .type = OPT_STRING, .offset = RO(order), .metavar = "interleave|sequential", .help = "the cells' runs in rounds, each round shuffled, so every interval sees the run's drift; or cell after cell, back to back (thermal studies)", .def = "interleave" },
	{ .name = "resume", .type = OPT_STRING, .offset = RO(resume), .metavar = "DIR", .help = "finish an interrupted run: only the cells its journal lacks" },
	{ .name = "family-dir", .type = OPT_LIST, .offset = RO(family_dirs), .metavar = "DIR", .help = "families from DIR too: a family folder (family.json) or a folder of them; repeatable" },
	{ .name = "binaries-from", .type = OPT_STRING, .offset = RO(binaries_from), .metavar = "DIR", .help = "measure the binaries kept in run folder DIR instead of compiling (flagbench rerun)" },
	{ .name = "earlier-runs", .type = OPT_STRING, .offset = RO(earlier_runs), .metavar = "DIR", .help = "read this host's earlier runs in DIR too (run folders or results.json copies: a nightly's kept nights), beside those of the run folder's parent; their ratios' moves widen the intervals" },
	{ .name = "earlier-runs-of", .type = OPT_STRING, .offset = RO(earlier_runs_of), .metavar = "host|cpu", .help = "whose earlier runs count as this machine's: host, the same hostname and CPU model; cpu, any host of the same CPU model (a CI runner fleet, a new VM every night, whose ratios move from VM to VM)", .def = "host" },
	{ .name = "verbose", .short_name = 'v', .type = OPT_FLAG, .offset = RO(verbose), .help = "print every table in the terminal before the answers (they are in the run folder's tables/ and on its page either way)" },
	OPTION_GROUP(options_dry_run, struct run_opts, dry_run),
	{ .name = "pretend-build", .type = OPT_DOUBLE, .offset = RO(pretend_build), .metavar = "SECONDS", .max = 86400, .help = "with --dry-run: each pretend compile takes SECONDS on a pretend clock, so the build's progress lines show what a slow build prints (at once)" },
	OPTION_GROUP(options_global, struct run_opts, g),
	{ .name = NULL },
};

const struct command_def cmd_run_def = {
	.name = "run",
	.summary = "compile, verify and time a suite on a cpu profile",
	.options = run_options,
	.min_pos = 0,
	.max_pos = 0,
	.order = OPTIONS_ANYWHERE,
};

void run_opts_free(struct run_opts *o)
{
	run_like_opts_free(&o->run);
	free(o->only);
	free(o->shard);
	free(o->resume);
	free(o->consumer);
	free(o->consumer_wait);
	free(o->order);
	free(o->statistic);
	sv_clear(&o->family_dirs);
	free(o->binaries_from);
	free(o->earlier_runs);
	free(o->earlier_runs_of);
}

int run_opts_parse(struct run_opts *o, int argc, char **argv, struct run_settings *s)
{
	enum parse_status st = command_parse(&cmd_run_def, o, o->given, argc, argv, NULL, NULL);
	if (st != PARSE_OK)
		return parse_exit(st);
	if (strcmp(o->order, "sequential") && strcmp(o->order, "interleave")) {
		error("--order must be sequential or interleave, not '%s'", o->order);
		return EXIT_USAGE;
	}
	s->order = !strcmp(o->order, "sequential") ? RUN_ORDER_SEQUENTIAL : RUN_ORDER_INTERLEAVE;
	if (stats_statistic_parse(o->statistic, &s->quantile) < 0) {
		error("--statistic must be " STATS_STATISTIC_NAMES ", not '%s'", o->statistic);
		return EXIT_USAGE;
	}
	if (o->consumer && strcmp(o->consumer, "splice") && strcmp(o->consumer, "read") && strcmp(o->consumer, "pv")) {
		error("--consumer must be splice, read or pv, not '%s'", o->consumer);
		return EXIT_USAGE;
	}
	if (o->pretend_build > 0 && !o->dry_run) {
		error("--pretend-build needs --dry-run: a real build takes the time it takes");
		return EXIT_USAGE;
	}
	char why[256];
	s->shard = (struct shard){ 0, 0 };
	if (o->shard && shard_parse(o->shard, &s->shard, why, sizeof(why)) < 0) {
		error("%s", why);
		return EXIT_USAGE;
	}
	if (meter_wait_parse(o->consumer_wait) < 0) {
		error("--consumer-wait must be auto, spin or sleep, not '%s'", o->consumer_wait);
		return EXIT_USAGE;
	}
	return 0;
}

void run_settings_resolve(const struct run_opts *o, const struct suite *suite, const struct cpu_profile *prof,
			  struct run_settings *s)
{
#define GIVEN(name) option_given(run_options, o->given, name)
	s->cooldown = GIVEN("cooldown") ? o->cooldown : suite->cooldown_s >= 0 ? suite->cooldown_s : prof->cooldown_s;
	/* the suite's keys went through the same rows (options_suite_keys) */
	s->runs = GIVEN("runs") ? o->keys.runs : suite->has_runs ? suite->runs : 5;
	s->warmup = GIVEN("warmup") ? o->keys.warmup : suite->has_warmup ? suite->warmup : 1;
	/* a precision target by default; --runs alone asks for exactly that many */
	s->precision = GIVEN("precision") ? o->precision : GIVEN("runs") ? 0 : 3;
	s->cell_budget = GIVEN("cell-budget") ? o->keys.cell_budget : suite->has_cell_budget ? suite->cell_budget : 2.5;
	struct cooldown_spec cs = { s->cooldown, prof->cooldown_below_c,
				    prof->cooldown_max_wait_s > s->cooldown ? prof->cooldown_max_wait_s : s->cooldown };
	cooldown_policy_init(&s->cool, &cs, GIVEN("cooldown"), "/");
#undef GIVEN
	s->timeout = o->timeout;
	s->verify_timeout = o->verify_timeout; /* 0: the session derives it (session.h) */
	s->build_timeout = o->build_timeout;
	s->max_runs = o->max_runs ? o->max_runs : s->runs * 10 > 30 ? s->runs * 10 : 30;
	if (s->max_runs < s->runs)
		s->max_runs = s->runs;
	s->runs_for_rerun = (unsigned)stats_runs_for_rerun(s->quantile, STATS_CI_TARGET, s->max_runs);
}

int run_opts_given(const struct run_opts *o, const char *name)
{
	return option_given(run_options, o->given, name);
}
