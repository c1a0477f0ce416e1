/* schedule.h: which cell runs next, and when a cell has runs enough.
 *
 * schedule_run() measures a list of cells through an executor
 * (executor.h) under a policy:
 *  - rounds (SCHEDULE_SHUFFLED, _LISTED, _BALANCED): every cell that
 *    wants a run gets one per round.  Shuffled, each round in a new order
 *    (seeded: two runs of one plan use the same orders), so slow drift
 *    (heat, other load) reaches every cell's runs and so its interval,
 *    and no cell always follows the same neighbour.  Listed, in the list's
 *    order.  Balanced, the list's order turned by a different offset each
 *    round, every offset equally often, in shuffled order: for two cells
 *    as many rounds A B as B A, so whatever favours the first (or the
 *    second) of two back-to-back runs falls on both sides equally.
 *  - SCHEDULE_SEQUENTIAL: cell after cell, batches back to back: first
 *    `runs`, then up to the runs a 95 % rerun interval needs, then half
 *    as many again, while the cell wants more.
 * A cell wants another run (schedule_wants_more) until it has `runs`
 * (an emulated one: SCHEDULE_EMULATED_RUNS at most, and no more);
 * with a precision target, then until its 95 % rerun interval is within
 * it, its budget is spent or max_runs is reached; but first the runs its
 * rerun interval needs to reach 95 % at all, while they take at most
 * SCHEDULE_LEVEL_BUDGETS budgets.  A cell whose answer may flip
 * (hooks.undecided) wants runs past that while it has spent less than
 * SCHEDULE_UNDECIDED_BUDGETS budgets, or, short of the runs for 95 %, less
 * than SCHEDULE_LEVEL_BUDGETS + SCHEDULE_UNDECIDED_BUDGETS (within max_runs
 * always).  Counts are of this schedule's runs: a
 * cell that had times keeps them and the new runs join them.
 * The pause (cooldown.h) comes before each cell's first run, or once
 * before the first run of all.  Thermal snapshots around every batch
 * flag a throttled cell.  fb_interrupted stops the schedule at once.
 * Fill the policy by field name; a zero field is its default.
 */
#ifndef FLAGBENCH_SCHEDULE_H
#define FLAGBENCH_SCHEDULE_H

#include "pipeline/executor.h"
#include "system/handoff.h"

enum schedule_order {
	SCHEDULE_SHUFFLED,
	SCHEDULE_LISTED,
	SCHEDULE_BALANCED,
	SCHEDULE_SEQUENTIAL,
};

enum schedule_pause {
	SCHEDULE_PAUSE_NONE,
	SCHEDULE_PAUSE_EACH_CELL, /* recorded as the cell's first cooldown record */
	SCHEDULE_PAUSE_ONCE,      /* counted in tally.cooldown_s only */
};

enum schedule_on_failure {
	SCHEDULE_DROP_CELL, /* a cell whose batch fails gets no more runs; the rest go on */
	SCHEDULE_STOP_ALL,  /* the schedule ends there */
};

/* An emulated cell (a cross build under qemu, plan.h) is timed this many
 * runs at most (fewer when `runs` is fewer), with no precision target: its
 * times say how the emulator runs, and it is compared by the instructions
 * qemu counts (qemucount.h), so more runs would only cost time. */
#define SCHEDULE_EMULATED_RUNS 3

/* A slow cell may overrun its budget this many times to get the runs a
 * 95 % rerun interval needs (13 runs of 0.65 s against a 2.5 s budget). */
#define SCHEDULE_LEVEL_BUDGETS 4
/* A cell whose answer may flip takes this many budgets in all (within
 * max_runs), every one of them once marked.  Three, not two, once ties
 * stopped taking them: the quick suite on the 2-vCPU VM here ran in
 * 164-186 s (two pairs of runs), against 192-222 s with two budgets given
 * to every open answer, ties included.  With the gaps' open questions
 * marked too, 198-235 s (five pairs), against 149-184 s. */
#define SCHEDULE_UNDECIDED_BUDGETS 3
/* A slow cell whose answer may flip may go on to the runs a 95 % rerun
 * interval needs while it has spent less than SCHEDULE_LEVEL_BUDGETS +
 * SCHEDULE_UNDECIDED_BUDGETS budgets: otherwise its open budgets end
 * before its level budgets do and it gets nothing.  lz4's hc compressor
 * (1.25 s a run) stopped at 7-8 runs with its answer open, so its sign
 * interval at 97.7 % was every pair's range. */

struct schedule_policy {
	enum schedule_order order;
	unsigned round_base;     /* the number of the first round, so a second schedule's rounds follow the first's */
	unsigned pass;           /* recorded in each measured cell (plan.h: cell_measurement.pass) */
	unsigned runs;           /* every cell gets this many at least */
	unsigned warmup;         /* untimed runs before a cell's first timed run */
	unsigned max_runs;       /* the most; 0: runs */
	double precision;        /* percent; 0: runs only */
	double cell_budget;      /* seconds a cell's runs may take while precision wants more */
	unsigned runs_for_rerun; /* the fewest runs whose rerun interval can reach 95 % (stats.h) */
	unsigned long long seed; /* of the shuffles */
	enum schedule_pause pause;
	const struct cooldown_policy *cool; /* the pause's; needed unless SCHEDULE_PAUSE_NONE */
	enum schedule_on_failure on_failure;
	const char *thermal_root;   /* snapshots around each batch read under it; NULL: none */
	unsigned progress_every;    /* rounds between progress lines on stderr; 0: none */
};

/* How a cell's runs ended, for the done hook. */
enum schedule_end {
	SCHEDULE_NOT_ADMITTED, /* admit said no: never measured */
	SCHEDULE_MEASURED,     /* content with its runs, or interrupted with `runs` of them */
	SCHEDULE_FAILED,       /* a batch failed: the executor set the cell's status */
	SCHEDULE_INTERRUPTED,  /* cut short of `runs` (Ctrl-C, or SCHEDULE_STOP_ALL), or before its first */
};

/* What the caller is told as the schedule goes; any may be NULL. */
struct schedule_hooks {
	void *ctx;
	/* 0 when cell i is to be measured (the driver verifies it here):
	 * before the rounds, or just before the cell with SCHEDULE_SEQUENTIAL;
	 * NULL: every cell is */
	int (*admit)(void *ctx, size_t i);
	/* 1 when cell i takes part in an answer that may flip: it wants runs
	 * past its precision target while SCHEDULE_UNDECIDED_BUDGETS budgets
	 * last (analysis/undecided.h); asked until it says 1, then no more;
	 * NULL: none is */
	int (*undecided)(void *ctx, size_t i);
	/* cell i is done; spent_s the seconds its runs took */
	void (*done)(void *ctx, size_t i, enum schedule_end end, double spent_s);
	/* after every round (not with SEQUENTIAL) */
	void (*round_done)(void *ctx, unsigned round);
};

/* The caller's totals, added to as time goes (NULL: not kept): the
 * batches' time less their pauses, the pauses, and the wall time of the
 * cells' measuring with their pauses (for an eta). */
struct schedule_tally {
	double *measure_s, *cooldown_s, *wall_s;
};

enum schedule_status {
	SCHEDULE_DONE,
	SCHEDULE_STOPPED,          /* SCHEDULE_STOP_ALL and a batch failed */
	SCHEDULE_WAS_INTERRUPTED,
};

struct schedule {
	const struct schedule_policy *policy;
	const struct executor *x;
	/* hyperfine, workdir, timeout, cooldown between runs, consumer,
	 * pipe size, quantile; runs, warmup and append are the schedule's */
	const struct measure_opts *mo;
	struct cell **cells;
	size_t n;
	struct schedule_hooks hooks;
	struct schedule_tally tally;
	/* SCHEDULE_SHUFFLED only: cell i's block and the group of blocks it
	 * belongs to (any numbers; NULL: none).  A round then runs each
	 * group's blocks back to back and each block's cells back to back:
	 * the groups in a new shuffled order, the blocks shuffled within each
	 * group and the cells within each block.  So the cells one comparison
	 * pairs (the configurations of one variant: a block) run within a
	 * second of each other instead of anywhere in a round, and those of a
	 * family (a group: a variant against the family's baseline) within a
	 * few.  A shared machine's state moves over seconds: in two default
	 * runs here, the paired log ratios of yes/vmsplice builds run within 8
	 * places of each other spread 2.0-2.8 %, and 5.6-9.6 % further apart
	 * (median absolute deviation).  group may be NULL with a block. */
	const unsigned *block, *group;
	/* Before each batch of a stream cell on two CPUs: where the host has
	 * them (system/handoff.h), recorded with the batch's runs in
	 * measure.handoff.  No batch is put off: its runs are figures of the
	 * state it ran in.  Where the pair's readings so far show more than
	 * one state, the cell wants runs (schedule_wants_more's rule, counted
	 * in that state, past `runs` only within SCHEDULE_LEVEL_BUDGETS
	 * budgets and max_runs) until the state most of the readings are in
	 * has them: every cell of a comparison aims at the same one.  One
	 * state (bare metal), a compute cell or made-up times: as without a
	 * gate.  NULL: no probe. */
	struct handoff_gate *handoff;
};

enum schedule_status schedule_run(const struct schedule *s);

/* The schedule of a caller that times a list of its own cells (explain's
 * candidates, tune's batches): hyperfine, `runs` rounds in the listed
 * order, numbered from round_base so that a second schedule's rounds
 * follow the first's, no pause, the median. */
struct schedule_listed {
	const struct executor *x; /* NULL: executor_hyperfine */
	const char *hyperfine, *workdir;
	double run_timeout_s;
	unsigned round_base, runs, warmup;
	struct schedule_hooks hooks;
	struct handoff_gate *handoff; /* schedule.handoff */
};
enum schedule_status schedule_listed_run(struct cell **cells, size_t n, const struct schedule_listed *l);

/* Whether a cell with `taken` runs of this schedule, that took spent_s,
 * wants another. */
int schedule_wants_more(const struct schedule_policy *p, const struct cell *c, unsigned taken, double spent_s);
/* Whether a cell whose answer may flip, with `taken` runs that took
 * spent_s, has its open budgets left (max_runs aside). */
int schedule_open_budget_left(const struct schedule_policy *p, unsigned taken, double spent_s);
/* The runs an emulated cell gets: SCHEDULE_EMULATED_RUNS, or `runs` when fewer. */
unsigned schedule_emulated_runs(const struct schedule_policy *p);
/* Settles the states of every stream batch of cells[0..n) from all their
 * readings at once, per pair of CPUs (core/levels.h): each batch's state,
 * and each record's levels.  The driver calls it once the schedule ends,
 * before the results are written. */
void schedule_settle_states(struct cell *cells, size_t n);
/* What the precision target came to (c->measure.precision, the tables' §). */
void schedule_precision_record(const struct schedule_policy *p, struct cell *c, double spent_s);

#endif
