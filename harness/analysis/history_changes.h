/* history_changes.h: the change points of a history's nights (`flagbench
 * history show|changes`, the nightly).
 *
 * Pure: typed nights in (results/history.h struct history_data), change
 * points out; nothing here reads a file or prints.  history_analyse_data()
 * summarises each cell's nights (analysis/changepoint.h: time per unit of
 * work by default, instructions per unit where counted), tests every
 * cell, applies Benjamini-Hochberg across all of them at the alarm rate,
 * segments the cells that passed, and names what changed at each change
 * point (analysis/cp_cause.h) in four passes:
 *   1. a night either side: where nothing changed at the step's night, a
 *      change recorded a night before or after it is named, a night off;
 *   2. farther: the nearest recorded change in the step's segment where a
 *      step fits the runs nearly as well (cp_fits_at) becomes its night;
 *   3. across cells: a step named after a change off its night while other
 *      cells of the machine moved alike with nothing recorded changed is
 *      the machine's (HISTORY_SHARED_SHIFT_CELLS);
 *   4. the measurement: a night measured beside the night before's binary
 *      or libraries (HISTORY_MEASURED_STEP, HISTORY_MEASURED_NONE).
 * A night is a run in which the cell is ok and has the metric; the others
 * are left out of its series.  driver/history.h loads a history file into
 * it; report/history_writer.h formats the result.
 */
#ifndef FLAGBENCH_HISTORY_CHANGES_H
#define FLAGBENCH_HISTORY_CHANGES_H

#include "analysis/changepoint.h"
#include "analysis/comparison.h"
#include "analysis/cp_cause.h"
#include "results/history.h"

/* A step named after a change recorded a night off is the machine's when
 * other cells of the machine moved the same way within a night of it with
 * nothing recorded changed: at least HISTORY_SHARED_SHIFT_CELLS of them
 * and a tenth (HISTORY_SHARED_SHIFT_SHARE) of the machine's cells tested
 * (pass 3): a shift of the machine moves a good share of
 * its cells, where in a history of hundreds a few unrelated steps meet by
 * chance. */
#define HISTORY_SHARED_SHIFT_CELLS 2
#define HISTORY_SHARED_SHIFT_SHARE 0.1

/* One night of a cell. */
struct hnight {
	size_t pt;              /* its point in the series (hist_series.pts) */
	double value;           /* the night's statistic (seconds or instructions per unit) */
	size_t runs;            /* its number of runs */
};

/* One change point of a cell. */
struct hchange {
	struct cp_point point;  /* where it stands, after the cause passes */
	struct cp_point found;  /* as the scan found it, before a pass moved it */
	struct cp_cause cause;  /* what changed at it */
	int off;                /* its cause was recorded off the scan's night (pass 1 or 2) */
	int measured;           /* HISTORY_MEASURED_STEP, HISTORY_MEASURED_NONE or 0 (not measured) */
	int alarm;              /* it alarms tonight (history_alarm) */
};

/* One series analysed. */
struct hcell {
	const struct hist_series *s;
	struct hnight *nights;  /* the series' points used as nights, oldest first */
	size_t n;
	struct cp_series cs;
	double p_first;         /* the first scan's p (1: not tested) */
	struct hchange *cps;    /* its change points, oldest first */
	size_t ncps;
	int newest_step;        /* a change point lands on its machine's newest night */
	double step_seen;       /* the smallest step seen within HISTORY_SEEN_NIGHTS (cp_step_seen); NAN none */
	double runs_typical;    /* the median of runs a night */
	double runs_for_step;   /* runs a night for HISTORY_SEEN_STEP to be seen (cp_runs_for_step); INFINITY none */
	/* a stream's nights are read in one state of the host's two CPUs
	 * (system/handoff.h): its level's round trip (NAN: all runs, no
	 * states known), and the nights left out for too few runs in it (a
	 * change of the machine's mix, not of the code) */
	double level_ns;
	size_t other_state;
};

/* The run index (history_data.runs) of night x of c. */
size_t hcell_run_of(const struct hcell *c, size_t x);

/* A quiet history says no step of at least this size landed more than
 * this many nights ago (cp_step_seen): what show and changes say. */
#define HISTORY_SEEN_NIGHTS 3
/* and the runs a night needs for a step of this size to be seen that soon
 * (the nightly's goal: 5 % within 3 nights) */
#define HISTORY_SEEN_STEP 0.05

/* A night whose binary changed may have been measured beside the night
 * before's binary, in interleaved rounds (compare --confirm-changed
 * --record, the nightly: results/beside.h), where the machine's state from
 * one night to the next cannot move the ratio; a night whose same binary
 * loads other libraries, beside itself on the night before's kept
 * libraries (a libc, allocator or libgmp update).  A real difference there
 * (the measured interval excludes 1) is a change point at that night, of
 * that measured size and interval (HISTORY_MEASURED_STEP), whatever the
 * scan found: the scan's steps the same way within HISTORY_MEASURED_NEAR
 * nights of it are that step, found off its night by the nights' noise,
 * and go.  It alarms where the comparison's verdict was slower or faster
 * beyond the recorded threshold, not within it.  No real difference there
 * leaves a scan's step on that night standing but never alarming
 * (HISTORY_MEASURED_NONE): the new binary measured beside the old one did
 * not make it. */
#define HISTORY_MEASURED_STEP 1
#define HISTORY_MEASURED_NONE 2
#define HISTORY_MEASURED_NEAR 3

struct history_analysis {
	struct history_data d;  /* the series (driver/history.h history_analyse's own, else the caller's) */
	int owns;
	enum metric metric;
	double alarm_rate;      /* q, a fraction */
	double cut;             /* the Benjamini-Hochberg cut (0: no cell passed) */
	struct hcell *cells;
	size_t ncells, tested;  /* series, and those with CP_MIN_NIGHTS nights or more */
	size_t nchanges, newest_steps;
	size_t alarms;          /* change points that alarm on the newest night (history_alarm) */
	/* the cells' step_seen: the median cell's, the least and the most (NAN: none) */
	double seen_median, seen_low, seen_high;
	/* the cells' runs_for_step and runs_typical: the median cell's (NAN: none) */
	double runs_for_step_median, runs_typical_median;
};

/* The analysis of series d (loaded: driver/history.h, or made:
 * bench/history_sim.c, the unit tests); d stays the caller's and must
 * outlive out. */
void history_analyse_data(const struct history_data *d, enum metric m, double alarm_rate,
			  struct history_analysis *out);
void history_analysis_free(struct history_analysis *a);
/* Whether run index r is the newest of its machine (profile and host) in d. */
int history_run_is_newest(const struct history_data *d, size_t r);
/* Whether change point k of c alarms tonight, the machine's newest night
 * (what ci/nightly.sh fails on): a step with a recorded cause (a new
 * binary, a library or host fact) on the newest night; a step of the
 * machine (the same binary, nothing recorded changed) once it has held a
 * second night, its first night the one before the newest and the cell
 * measured on the newest.  Two runs cannot tell the machine's state on one
 * night from a step, a second night can: a lone slow night is no segment
 * of its own once a night follows it. */
int history_alarm(const struct history_data *d, const struct hcell *c, size_t k);

#endif
