/* executor.h: what builds, proves and times the cells, behind one table.
 *
 * The driver and the scheduler (schedule.h) call a stage through the
 * executor they were given and never ask which one it is:
 *   executor_hyperfine  the real one: build.h's compiles, verify.h's
 *                       check, hyperfine -N through measure.h, the pause as
 *                       a `flagbench cooldown` child, counters.h
 *   executor_mock       `--dry-run`: nothing compiled, verified or counted
 *                       (a build is a pretend binary, named by what a
 *                       compile would read, so identical builds are one;
 *                       with a pretend compile time, the progress lines of
 *                       a slow build on a pretend clock, printed at once);
 *                       deterministic times made from the cell id (so
 *                       planning, results.json and the tables are testable
 *                       without compilers), the pause recorded, not taken,
 *                       a made-up handoff probe (handoff_probe)
 * A stage an executor does not have is NULL.
 */
#ifndef FLAGBENCH_EXECUTOR_H
#define FLAGBENCH_EXECUTOR_H

#include <jansson.h>

#include "pipeline/build.h"
#include "pipeline/counters.h"
#include "pipeline/measure.h"
#include "system/cooldown.h"
#include "system/handoff.h"

/* Whether the times come from this host: only then do its noise and its
 * clocks matter. */
enum executor_times {
	EXECUTOR_TIMES_MEASURED,
	EXECUTOR_TIMES_MADE_UP,
};

struct executor {
	const char *name;
	enum executor_times times;
	const char *tool;    /* the program it drives, looked up on PATH; NULL: none */
	const char *warning; /* for results.json's warnings; NULL: none */
	/* plan_input.probe_march (plan.h); NULL: the compilers are asked */
	int (*probe_march)(struct compiler *c, const char *march, char *why, size_t n);
	/* compiles the pending cells (build.h's build_plan); NULL: nothing is */
	int (*build)(struct plan *p, const struct build_request *rq, struct build_stats *st);
	/* after the build: the families' {input} files (inputs.h); NULL:
	 * none (session.h then prepares nothing else either) */
	void (*prepare)(struct plan *p, const char *cache_dir, double timeout_s);
	/* proves the cell's output (verify.h) and records c->verify; 0 when
	 * it is to be timed, else its status says why */
	int (*verify)(struct cell *c, double timeout_s);
	/* one batch of o->runs runs of the cell (measure_cell's contract);
	 * *cooldown_s the seconds of its pauses between runs, *spent_s the
	 * seconds its runs took (what a cell's budget counts) */
	int (*measure)(struct cell *c, const struct measure_opts *o, double *cooldown_s, double *spent_s);
	/* the pause before a cell (cooldown.h), scratch files in o->workdir:
	 * 1 when it paused (or read the sensor) and *rec says how, else 0 */
	int (*pause)(const struct cooldown_policy *p, const struct measure_opts *o, struct cooldown_record *rec);
	/* cycles or instructions of a compute cell (counters.h); NULL: none */
	json_t *(*count)(const struct cell *c, enum counter_source src, double timeout_s);
	/* the handoff probe (system/handoff.h) of an executor that makes its
	 * times up: the mock's reads FLAGBENCH_MOCK_HANDOFF, a comma-separated
	 * list of round trips in ns ("90*40": 40 probes in a row read 90),
	 * taken in turn and over again, and scales
	 * the next batch's times by 1 + ns / 1000, so that a run's states and
	 * figures per state are testable; unset, it is unavailable.  NULL: the
	 * real probe where the times are measured, none where not. */
	enum handoff_status (*handoff_probe)(int cpu_a, int cpu_b, unsigned trips, double *ns, struct strbuf *why);
};

extern const struct executor executor_hyperfine;
extern const struct executor executor_mock;

#endif
