/* ratio_drift.h: how far a run's paired ratios drift over the run.
 *
 * The ratios the tables print pair each build of a variant with another
 * of the same variant, round by round, so a change of the machine that
 * both builds meet alike cancels.  One that they meet differently does
 * not, and a second run of the same suite then finds other ratios than
 * the first's intervals admit.  This reads a stored run's cells, pairs
 * each ok cell with the first ok cell of its variant (and layout) by pass
 * and round, and gives the drift of those log ratios over the run
 * (core/stats.h: stats_ratio_drift), which the one comparison adds to
 * each ratio's interval (analysis/comparison.h: ratio_drift).
 */
#ifndef FLAGBENCH_RATIO_DRIFT_H
#define FLAGBENCH_RATIO_DRIFT_H

#include <stddef.h>

#include "results/reader.h"

/* The sd of the run's ratio drift (0.01 about 1 %; 0 none seen), or NAN
 * when too few comparisons have rounds enough; *used how many counted. */
double results_ratio_drift(const struct results_run *run, size_t *used);

/* Between runs.  A change of the machine that comes and goes between runs
 * (a pipe's reader woken another way, memory placed elsewhere) may leave
 * a run's halves alike and still move its ratios in the next run: on the
 * 2-vCPU VM here the yes family's vmsplice against its baseline read
 * 433x [427x, 463x] in one run and 592x in the next.  No run can see
 * that inside itself; the machine's earlier runs show it.  So the runs
 * beside this one (the other folders of its parent: results/ for
 * ./run.sh; not those whose name starts with a dot) that ran on the same
 * host (hostname and CPU model) and
 * started before it, the newest BETWEEN_RUNS_BACK of them, are read; each
 * ratio a run measured (a cell against its variant's first build, and
 * against the family's baseline variant built the same way, paired by
 * round: the median log ratio and its noise, (pi/2) s^2 / n) is matched
 * with the same two binaries' ratio in the run before it (cell ids,
 * sizes and sha256), and the shift's variance between runs beyond both
 * noises is fitted as the in-run drift is (core/stats.h:
 * stats_excess_variance: by the median), per variant and per family, of
 * each kind, over every two consecutive runs, this one and the earlier
 * ones.  Only earlier
 * runs: rendering a run again later gives the same tables. */
#define BETWEEN_RUNS_BACK 4
/* fewer matched ratios than this: no figure for the family and kind */
#define BETWEEN_RUNS_MIN_RATIOS 5

enum between_kind {
	BETWEEN_SAME_VARIANT,    /* two builds of one variant: run back to back */
	BETWEEN_ACROSS_VARIANTS, /* a variant against the baseline variant (the speedup tables) */
	BETWEEN_KINDS,
};

/* A figure for the ratios of one variant (against its own first build, or
 * against the baseline variant), and one for all of a family's of a kind:
 * a variant whose ratios alone are too few takes its family's. */
struct between_group {
	char *family, *variant; /* variant NULL: the family's */
	enum between_kind kind;
	double drift;  /* the sd of a ratio's shift from run to run; NAN: too few ratios */
	size_t ratios; /* the matched ratios it was fitted on */
};

struct between_runs {
	char **run_ids; /* the earlier runs read, newest first */
	size_t nruns;
	struct between_group *groups;
	size_t ngroups;
	/* how much slower this run's cells ran than the same binaries (id,
	 * sha256, size) in the newest earlier run: the median over them of
	 * log(this run's time / its time), each run's statistic, exp - 1 (0.3: 30 % slower; negative:
	 * faster); NAN before the run measured, or with fewer than
	 * BETWEEN_LEVEL_MIN_CELLS such cells.  The machine's state between
	 * the runs, which pairing cancels where both builds meet it alike. */
	double level_shift;
	size_t level_cells;
	/* How far one binary's time moves from a run to the next: the root
	 * mean square of log(its time / its time in the run before) over the
	 * same binaries (as level_shift's) of every two consecutive runs read,
	 * this one and the earlier ones (0.05 about 5 %).  What compare widens
	 * a comparison of two runs by where too few programs stayed unchanged
	 * to measure the machine's move (analysis/compare.h); NAN with fewer
	 * than BETWEEN_SPREAD_MIN_CELLS such ratios. */
	double time_spread;
	size_t time_ratios;
	/* 1: the runs of any host of the run's CPU model were read
	 * (--earlier-runs-of cpu, run.earlier_runs_of), not only its own */
	int any_host;
};

/* Fills *out (zeroed first; nruns 0 when no earlier run of this host
 * lies beside the run, or the run was read from a file not named
 * results.json: a saved copy stands alone).  Beside the run: its parent
 * folder's other run folders, and the run folders and *.json files of
 * run.earlier_runs_dir where the run recorded one (--earlier-runs: a
 * nightly's kept nights); one run id found twice is read once.  A folder beside it that is not a run, or not
 * readable, is passed over without a word. */
void results_between_runs(const struct results_run *run, struct between_runs *out);
#define BETWEEN_LEVEL_MIN_CELLS 5
#define BETWEEN_SPREAD_MIN_CELLS 2
/* Said with the run (report/writers.c) from this size on, either way. */
#define BETWEEN_LEVEL_SAID 0.03
/* The same before a run has measured anything (its spare runs go by it:
 * analysis/undecided.h): the earlier runs beside the run folder run_dir
 * (not its own results.json, on a resume) of this host (hostname NULL: of
 * any host with this CPU model) that started before `started`
 * (results.json's format), without the run's own ratios. */
void results_between_before(const char *run_dir, const char *more_dir, const char *hostname, const char *cpu_model,
			    const char *started, struct between_runs *out);
/* The drift between runs of a ratio of two variants of a family (the
 * same variant twice: of its builds): the larger of the two variants'
 * own figures where they have one, else the family's for that kind; 0
 * none seen or unknown. */
double results_between_drift(const struct between_runs *b, const char *family, const char *variant_a,
			     const char *variant_b);
/* The group that moved most (of this family; NULL: of any), a variant's
 * before its family's at the same figure; NULL where none moved. */
const struct between_group *results_between_most(const struct between_runs *b, const char *family);
/* "against the baseline" or "between its builds": a group's kind in words,
 * the same in the run's line and the tables' legend. */
const char *results_between_kind_words(enum between_kind kind);
void results_between_release(struct between_runs *b);

#endif
