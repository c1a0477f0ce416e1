/* eta.h: how long the rest of a run takes, for the progress line.
 *
 * From what is planned and what was measured so far, not from finished
 * cells: in rounds every cell finishes near the end, so the time per
 * finished cell says nothing until then (an eta of hours at the first line
 * of a 3-minute run).  The rest is, per cell still to measure, the runs it
 * is expected to take from here times its seconds per run (its own once
 * it has runs, else the run's so far, else the verification run's, which
 * runs the program once), with the batches' overhead (hyperfine, the
 * meter) as measured so far: per run in rounds (a batch each), in
 * proportion back to back; plus a verification and a pause (cooldown.h)
 * for each cell not yet verified, at their mean so far.
 * The runs follow the stop rules of schedule_wants_more: those the cell
 * must have, then each further run only while it is not content (its
 * precision not reached), to its budget; past the budget only while its
 * answer is open, to its open budgets (schedule_open_budget_left); never past
 * max_runs.  The chance per run of being content and the share of answers
 * open at the budget are learnt from this run's cells so far, the ones
 * still measuring included (eta.c, struct stopping).
 */
#ifndef FLAGBENCH_ETA_H
#define FLAGBENCH_ETA_H

#include <stddef.h>

enum eta_state {
	ETA_TO_VERIFY,  /* not verified yet, so not paused or timed either */
	ETA_MEASURING,  /* verified: timed, or wanting runs */
	ETA_DONE,       /* finished (measured, failed, or never to be timed) */
};

/* One cell of this run, as the estimate sees it. */
struct eta_cell {
	enum eta_state state;
	unsigned runs;   /* timed runs so far in this run */
	double spent_s;  /* their times, summed */
	int emulated;    /* timed SCHEDULE_EMULATED_RUNS at most, no precision target */
};

/* The schedule's policy (schedule.h), as far as it decides the runs. */
struct eta_policy {
	unsigned runs, max_runs, runs_for_rerun, emulated_runs;
	double precision, cell_budget;
	int rounds;      /* one run per batch (rounds), else batches back to back */
};

/* What the run took so far, over the cells of eta_cell. */
struct eta_history {
	double measure_s;      /* the batches' time less their pauses, overhead included */
	double verify_s;       /* verification runs */
	size_t verified;       /* cells verified */
	double cooldown_s;     /* pauses and waits */
	size_t paused;         /* cells that had their pause */
};

/* Seconds left, or a negative number when nothing is known yet to
 * estimate from (no run, no verification). */
double eta_estimate(const struct eta_policy *p, const struct eta_cell *cells, size_t n, const struct eta_history *h);

/* The seconds one cell is expected to take before the run has timed
 * anything (the shards' balance, pipeline/shard.h): a pause of pause_s,
 * its verification (one run) and the runs the stop rules give a cell of
 * run_s seconds a run under the model's priors (one answer in two open,
 * one cell in two content by its budget). */
double eta_cell_planned(const struct eta_policy *p, int emulated, double run_s, double pause_s);

#endif
