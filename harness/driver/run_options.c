/* run_options.c: see run_options.h */
#include "driver/run_options.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/options.h"
#include "core/stats.h"

#define RO(f) offsetof(struct run_opts, f)
static const struct option_def run_options[] = {
	{ "cpu", 0, OPT_STRING, RO(cpu), "PROFILE", 0, 0, "cpu profile: a name under configs/cpus, a path, or host (default)" },
	{ "suite", 0, OPT_STRING, RO(suite), "SUITE", 0, 0, "suite: a name under configs/suites or a path (default quick)" },
	{ "out", 'o', OPT_STRING, RO(out), "DIR", 0, 0, "run folder (default results/<id>)" },
	{ "only", 0, OPT_STRING, RO(only), "GLOB", 0, 0, "run only the cells whose id matches GLOB; the rest are skipped" },
	{ "jobs", 'j', OPT_UINT, RO(jobs), "N", 1, 256, "parallel compilers (default: online cpus)" },
	{ "runs", 'r', OPT_UINT, RO(runs), "N", 1, 10000, "timed runs per cell; alone, exactly that many (default: the suite's, else 5, at least, see --precision)" },
	{ "warmup", 'w', OPT_UINT, RO(warmup), "N", 0, 1000, "untimed runs first (default: the suite's, else 1)" },
	{ "cooldown", 0, OPT_DOUBLE, RO(cooldown), "SECONDS", 0, 3600, "pause before each cell where no sensor decides (default: the profile's)" },
	{ "timeout", 0, OPT_DOUBLE, RO(timeout), "SECONDS", 0.1, 86400, "limit of one run of a program (default 120)" },
	{ "verify-timeout", 0, OPT_DOUBLE, RO(verify_timeout), "SECONDS", 0.1, 86400, "limit of the verification run (default: --timeout x 4)" },
	{ "build-timeout", 0, OPT_DOUBLE, RO(build_timeout), "SECONDS", 1, 86400, "limit of one compile (default 300)" },
	{ "consumer", 0, OPT_STRING, RO(consumer), "splice|read|pv", 0, 0, "what drains a stream (default splice)" },
	{ "pipe-size", 0, OPT_SIZE, RO(pipe_size), "BYTES", 4096, 1e10, "set the pipe size of streams (default: the producer's choice)" },
	{ "statistic", 0, OPT_STRING, RO(statistic), "median|min|pNN", 0, 0, "the figure a cell reports, and its intervals: the median, the minimum or a quantile, e.g. p25, the lower quartile (default), which keeps to the runs no interference slowed" },
	{ "precision", 0, OPT_DOUBLE, RO(precision), "PERCENT", 0, 100, "add runs to a cell until its 95 % rerun interval (where a rerun's figure falls) is within PERCENT of its figure (default 3, 0 with --runs; 0: --runs only)" },
	{ "cell-budget", 0, OPT_DOUBLE, RO(cell_budget), "SECONDS", 0.1, 86400, "the time a cell's runs may take while --precision wants more (default 2.5; up to 4 times that for the runs a 95 % interval needs)" },
	{ "max-runs", 0, OPT_UINT, RO(max_runs), "N", 2, 100000, "the most runs --precision may take (default 10 x --runs, at least 30)" },
	{ "layouts", 0, OPT_UINT, RO(layouts), "K", 1, SUITE_LAYOUTS_MAX, "build and run each configuration under K code and stack layouts, interleaved, so a lead must hold across layouts to count (default: the suite's, else 1)" },
	{ "order", 0, OPT_STRING, RO(order), "interleave|sequential", 0, 0, "the cells' runs in rounds, each round shuffled, so every interval sees the run's drift (default); or cell after cell, back to back (thermal studies)" },
	{ "resume", 0, OPT_STRING, RO(resume), "DIR", 0, 0, "finish an interrupted run: only the cells its journal lacks" },
	{ "family-dir", 0, OPT_LIST, RO(family_dirs), "DIR", 0, 0, "families from DIR too: a family folder (family.json) or a folder of them; repeatable" },
	{ "cache", 0, OPT_STRING, RO(cache), "DIR", 0, 0, "build cache (default build/cache)" },
	{ "binaries-from", 0, OPT_STRING, RO(binaries_from), "DIR", 0, 0, "measure the binaries kept in run folder DIR instead of compiling (flagbench rerun)" },
	{ "no-counters", 0, OPT_FLAG, RO(no_counters), NULL, 0, 0, "do not count cycles or instructions of compute cells" },
	{ "no-render", 0, OPT_FLAG, RO(no_render), NULL, 0, 0, "do not render tables, plots and index.html at the end (plots/render.sh)" },
	{ "dry-run", 'n', OPT_FLAG, RO(dry_run), NULL, 0, 0, "plan and write results with a mock executor: no compiler, no hyperfine" },
	{ "help", 'h', OPT_FLAG, RO(help), NULL, 0, 0, "show this help" },
	{ NULL, 0, 0, 0, NULL, 0, 0, NULL },
};

void run_opts_free(struct run_opts *o)
{
	free(o->cpu);
	free(o->suite);
	free(o->out);
	free(o->only);
	free(o->resume);
	free(o->cache);
	free(o->consumer);
	free(o->order);
	free(o->statistic);
	sv_clear(&o->family_dirs);
	free(o->binaries_from);
}

static void run_usage(FILE *out)
{
	fprintf(out, "usage: flagbench run [--cpu PROFILE] [--suite SUITE] [options]\n\n");
	options_help(run_options, out);
}

int run_opts_parse(struct run_opts *o, int argc, char **argv, struct run_settings *s)
{
	if (options_parse(run_options, o, o->given, argc - 1, argv + 1, NULL, 0) < 0)
		return EXIT_USAGE;
	if (o->help) {
		run_usage(stdout);
		return 0;
	}
	if (o->order && strcmp(o->order, "sequential") && strcmp(o->order, "interleave")) {
		error("--order must be sequential or interleave, not '%s'", o->order);
		return EXIT_USAGE;
	}
	s->order = o->order && !strcmp(o->order, "sequential") ? RUN_ORDER_SEQUENTIAL : RUN_ORDER_INTERLEAVE;
	if (stats_statistic_parse(o->statistic ? o->statistic : STATS_DEFAULT_STATISTIC, &s->quantile) < 0) {
		error("--statistic must be " STATS_STATISTIC_NAMES ", not '%s'", o->statistic);
		return EXIT_USAGE;
	}
	if (o->consumer && strcmp(o->consumer, "splice") && strcmp(o->consumer, "read") && strcmp(o->consumer, "pv")) {
		error("--consumer must be splice, read or pv, not '%s'", o->consumer);
		return EXIT_USAGE;
	}
	return 0;
}

void run_settings_resolve(const struct run_opts *o, const struct suite *suite, const struct cpu_profile *prof,
			  struct run_settings *s)
{
#define GIVEN(name) o->given[option_index(run_options, option_find(run_options, name))]
	s->cooldown = GIVEN("cooldown") ? o->cooldown : suite->cooldown_s >= 0 ? suite->cooldown_s : prof->cooldown_s;
	s->runs = GIVEN("runs") ? o->runs : suite->has_runs ? suite->runs : 5;
	s->warmup = GIVEN("warmup") ? o->warmup : suite->has_warmup ? suite->warmup : 1;
	/* a precision target by default; --runs alone asks for exactly that many */
	s->precision = GIVEN("precision") ? o->precision : GIVEN("runs") ? 0 : 3;
	s->cell_budget = GIVEN("cell-budget") ? o->cell_budget : 2.5;
	struct cooldown_spec cs = { s->cooldown, prof->cooldown_below_c,
				    prof->cooldown_max_wait_s > s->cooldown ? prof->cooldown_max_wait_s : s->cooldown };
	cooldown_policy_init(&s->cool, &cs, GIVEN("cooldown"), "/");
#undef GIVEN
	s->timeout = o->timeout > 0 ? o->timeout : 120;
	s->verify_timeout = o->verify_timeout > 0 ? o->verify_timeout : s->timeout * 4;
	s->build_timeout = o->build_timeout > 0 ? o->build_timeout : 300;
	s->max_runs = o->max_runs ? o->max_runs : s->runs * 10 > 30 ? s->runs * 10 : 30;
	if (s->max_runs < s->runs)
		s->max_runs = s->runs;
	s->runs_for_rerun = (unsigned)stats_runs_for_rerun(s->quantile, STATS_CI_TARGET, s->max_runs);
}
