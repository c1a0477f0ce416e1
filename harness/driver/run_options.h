/* run_options.h: `flagbench run`'s options and the settings they come to.
 *
 * The options are declared once, in run_options.c's table (also the
 * --help text, cmd_run_def), with what try shares through options_run_like
 * (core/options.h).  A default that is one text is the table's; those that
 * depend on the suite, the profile or another option (runs, warmup,
 * precision, cooldown, ...) run_settings_resolve() settles: an option wins
 * over the suite, the suite over the cpu profile, else a default.
 */
#ifndef FLAGBENCH_RUN_OPTIONS_H
#define FLAGBENCH_RUN_OPTIONS_H

#include <stdint.h>

#include "config/cpu_profile.h"
#include "config/suite.h"
#include "core/options.h"
#include "core/util.h"
#include "pipeline/shard.h"
#include "system/cooldown.h"

/* The groups' structs overlaid with their fields (C11 anonymous members,
 * one common initial sequence): the table fills `run` and `g`, run's code
 * names o->cpu and o->help. */
struct run_opts {
	union {
		struct run_like_opts run;
		struct {
			RUN_LIKE_FIELDS
		};
	};
	union {
		struct global_opts g;
		int help;
	};
	char *shard; /* --shard K/N (pipeline/shard.h) */
	char *only, *resume, *consumer, *consumer_wait, *order, *statistic;
	char *binaries_from; /* rerun.h */
	char *earlier_runs;  /* --earlier-runs DIR: more earlier runs of this host (results/ratio_drift.h) */
	char *earlier_runs_of; /* --earlier-runs-of host|cpu: whose runs count as this machine's */
	unsigned jobs, max_runs, layouts;
	double precision;
	double cooldown, verify_timeout;
	double pretend_build; /* --dry-run's pretend compile seconds (executor.h) */
	uint64_t pipe_size;
	int dry_run, verbose;
	struct strvec family_dirs;
	unsigned char given[OPTIONS_MAX]; /* per option of the table: it was given */
};

extern const struct command_def cmd_run_def;

enum run_order {
	RUN_ORDER_INTERLEAVE,
	RUN_ORDER_SEQUENTIAL,
};

/* What the options, the suite and the profile come to. */
struct run_settings {
	enum run_order order;
	double quantile;         /* --statistic (stats.h) */
	double cooldown, timeout, verify_timeout, build_timeout, precision, cell_budget;
	unsigned runs, warmup, max_runs;
	unsigned runs_for_rerun; /* the fewest runs whose rerun interval can reach 95 % */
	struct cooldown_policy cool;
	struct shard shard;      /* --shard; of 0: the whole plan */
};

/* Parses argv[1..argc) (argv[0] "run") into *o and checks the words of
 * --order, --statistic, --consumer and --consumer-wait; --help prints the usage (o->help
 * set).  0, or EXIT_USAGE after a message. */
int run_opts_parse(struct run_opts *o, int argc, char **argv, struct run_settings *s);
/* The rest of *s from the options, the suite and the profile. */
void run_settings_resolve(const struct run_opts *o, const struct suite *suite, const struct cpu_profile *prof,
			  struct run_settings *s);
void run_opts_free(struct run_opts *o);
/* Whether option name was on the command line (its default does not count). */
int run_opts_given(const struct run_opts *o, const char *name);

#endif
