/* tune_opts.h: the settings of `flagbench tune` (driver/tune.h).
 *
 * Apart from tune.h, which includes it, so that a tune's state
 * (tune_state.h) and its stages can read the settings without including
 * the module that calls them: tune.c includes every stage.
 */
#ifndef FLAGBENCH_TUNE_OPTS_H
#define FLAGBENCH_TUNE_OPTS_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/comparison.h"
#include "analysis/tune_search.h"
#include "core/util.h"

/* The most techniques side by side. */
#define TUNE_TECHNIQUES_MAX 4


/* The settings; the caller fills every field (cmd/tune.c: the table's
 * defaults). */
struct tune_opts {
	/* the start: run + cell, or variant + compiler (+ opt, march) */
	char *run, *cell, *variant, *compiler, *opt, *march, *suite, *cpu;
	struct strvec family_dirs;
	char *out, *cache, *resume;
	enum tune_technique techniques[TUNE_TECHNIQUES_MAX];
	size_t ntechniques;
	double budget_s;          /* per technique; 0 when a count is given */
	unsigned budget_candidates; /* per technique; 0 when a time is given */
	unsigned jobs, batch;     /* parallel compilers; candidates per batch */
	unsigned screen_runs, confirm_runs, warmup, layouts;
	uint64_t seed;
	/* --metric: the screen asked (metric_asked), else instructions for
	 * compute families where counters exist, else time */
	enum metric metric;
	int metric_asked;
	int allow_unsafe, list_space, no_render;
	int dry_run;              /* the mock executor (pipeline/executor.h): made-up figures */
	double timeout, build_timeout;
	int argc;                 /* the command line, for the journal and results.json */
	char **argv;
};

#endif
