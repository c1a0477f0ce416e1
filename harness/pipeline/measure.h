/* measure.h: timing one cell with hyperfine.
 *
 * Per cell: `hyperfine -N --warmup W --runs R --export-json TMP
 * [--prepare "flagbench cooldown ..."] "flagbench meter ... -- PROG ARGS"`;
 * the prepare only where the run's cooldown policy waits between runs
 * (cooldown.h: a sensor and a threshold; cooldown_s is then 0).
 * -N: hyperfine splits the command itself (no shell); every word is
 * single-quoted for its splitter, so paths with spaces or quotes survive.
 * hyperfine has no timeout of its own: it runs in its own process group
 * under a limit of (warmup + runs) x (per-run timeout + cooldown) + slack,
 * and the meter kills a run that exceeds the per-run timeout.
 * The meter's per-run report (bytes, producer status) and the cooldown
 * log (the waits that waited) are read back into the cell's measurement record (plan.h) with the
 * parsers of results.h; the scratch files live in workdir.  Failures map to statuses:
 * meter exit 1 -> wrong_output, 3 -> crashed (the program killed by a
 * signal) or failed (it exited non-zero), 124 -> timeout.
 * This is executor.h's real executor; its mock makes times up instead.
 * Fill struct measure_opts by field name: its order is no interface.
 */
#ifndef FLAGBENCH_MEASURE_H
#define FLAGBENCH_MEASURE_H

#include "pipeline/plan.h"

struct measure_opts {
	const char *hyperfine;   /* path */
	const char *workdir;     /* for temporary files */
	unsigned runs, warmup;
	double run_timeout_s;    /* per run */
	double cooldown_s, cooldown_below_c, cooldown_max_wait_s;
	const char *consumer;    /* splice (default), read, pv */
	const char *consumer_wait; /* auto (NULL), spin, sleep: the meter's --wait (system/meter.h) */
	uint64_t pipe_size;      /* 0: the producer's choice */
	int append;              /* add the new runs to the cell's earlier ones (--precision, interleave);
				  * the first batch replaces the runs, never the cooldown records */
	double quantile;         /* the statistic of the cell's times (stats.h): 0.5 the median */
};

/* Adds one word to a hyperfine -N command line, quoted for its splitter. */
void hyperfine_quote(struct strbuf *cmd, const char *word);
/* The meter command line (words) hyperfine will run for this cell. */
void measure_command(const struct cell *c, const struct measure_opts *o, const char *report_path,
		     struct strvec *out);

/* Replaces the cell's times with the n new runs t, or appends them
 * (o->append), and computes their stats at o->quantile. */
void measure_store_times(struct cell *c, const struct measure_opts *o, const double *t, size_t n);

/* Times the cell; on success fills c->measure (times, user/system time,
 * meter runs, cooldown records) and returns 0; with o->append the new
 * runs join those already there.
 * *cooldown_s receives the seconds spent in cooldown pauses. */
int measure_cell(struct cell *c, const struct measure_opts *o, double *cooldown_s);

#endif
