/* changepoint.h: steps in one cell's nights (`flagbench history changes`).
 *
 * Pure: series in, change points out (docs/history.md says what a change
 * point means).  The method, in order:
 *
 * 1. Each night is summarised by the lower quartile y of the log of its
 *    runs (CP_QUANTILE: the tables' default statistic, whatever a run's
 *    tables used, so every night is read alike; a cell whose runs fall
 *    in two modes, a pipe's wake-ups, keeps its fast mode where its median
 *    jumps between them), with the variance w of that quartile from the
 *    night's own runs: the larger of q (1 - q) / phi(z_q)^2 s^2 / n (s the
 *    runs' robust spread, 1.4826 MAD; pi/2 s^2 / n for the median) and
 *    the square of the distance between the order statistics at
 *    n q -+ 1.96 sqrt(n q (1 - q)) over 3.92 (runs in two modes: a
 *    quartile near the slow mode could read either); w 0 with fewer than
 *    3 runs.  So a night of noisy or few runs weighs less: the test uses
 *    each night's runs, not only its figure; none weighs more than the
 *    cell's typical night (w at least the median w: the spread of a few
 *    runs can be small by chance).
 * 2. The nights also differ from each other more than their runs say (the
 *    machine's state from night to night): night i's variance is
 *    w_i + tau^2, never below floor^2 (a relative floor: counts that
 *    repeat exactly would otherwise make any difference infinite).  tau^2
 *    comes from the successive differences, var(y_i - y_i-1) = w_i +
 *    w_i-1 + 2 tau^2, fitted by their median (stats_excess_variance: a
 *    step moves one difference of many): over one cell's nights
 *    (cp_noise), or over every cell of a machine at once (cp_pool), which
 *    is what `flagbench history` does.  cp_pool also gives the cells a
 *    shared scale: each cell's own scale (from its successive differences,
 *    in units of their variances, n - 1 degrees of freedom: a step moves
 *    one difference) is
 *    moderated toward the scale every cell shows, with the prior's degrees
 *    of freedom fitted from how much the cells' scales differ beyond
 *    chance (the empirical Bayes of limma's moderated t, Smyth 2004); a
 *    cell whose own scale exceeds the shared one by an F test at
 *    CP_OWN_SCALE_P keeps its own alone.  A
 *    cell of 8 nights alone has a t-test of 6 degrees of freedom, too few
 *    for an error rate of 1 % across many cells and splits; with the
 *    machine's other cells behind its scale it has the cells' own degrees
 *    of freedom and more, and a cell whose nights scatter more than the
 *    others' keeps its own larger scale in part.
 * 3. Binary segmentation (as E-divisive and Apache Otava do, with a t-test
 *    in place of permutations, so the result is deterministic): in a
 *    segment, every split k gives the weighted means before and after and
 *    t = (after - before) / se; the split of largest |t| is a change point
 *    when its two-sided p-value from Student's t , times
 *    the number of splits tried (Bonferroni over the splits), is at most the
 *    cut (df as in 2); then both halves are searched again.  A segment before a split has
 *    at least CP_MIN_SEGMENT nights and so has one after it, except at the
 *    newest night, where one night may stand alone (the nightly's question;
 *    it is confirmed by measuring).
 * 4. Across cells, the first scan's p-values go through Benjamini-Hochberg
 *    at the alarm rate q (cp_bh_cut): the expected share of false change
 *    points among the cells that have one is at most q, and in a history
 *    where no cell changed, the chance of any change point at all is at
 *    most q.  The cut the cells' tests passed at is the cut of every later
 *    split in them.
 * Each change point has its size: the ratio exp(after - before) (above 1
 * slower, for time), with its 95 % interval from the same se and df.
 */
#ifndef FLAGBENCH_CHANGEPOINT_H
#define FLAGBENCH_CHANGEPOINT_H

#include <stddef.h>

#define CP_MIN_SEGMENT 2
/* a cell keeps its own scale when its nights' scatter exceeds the shared
 * scale at this p (cp_pool) */
#define CP_OWN_SCALE_P 0.05
/* the night's statistic: the lower quartile (core/stats.h's default) */
#define CP_QUANTILE 0.25
#define CP_MIN_NIGHTS 3
/* relative noise floors: time, and exact counts */
#define CP_FLOOR_TIME 0.001
#define CP_FLOOR_COUNT 0.0001

/* One cell's nights, summarised (cp_summarize). */
struct cp_series {
	size_t n;
	double *y;   /* log of the night's statistic (cp_night) */
	double *w;   /* variance of y from the night's runs (0 unknown) */
	double tau2; /* a night's variance beyond its runs' (cp_noise, cp_pool) */
	double w_typical; /* the median of w: no night weighs more than a typical one */
	double floor; /* the relative noise floor it was given */
	/* the scale the cells share and its degrees of freedom (cp_pool):
	 * prior_df 0 none (the cell's own scale alone), INFINITY exactly */
	double prior_s2, prior_df;
};

/* One change point: nights [.., at) before, [at, ..) after. */
struct cp_point {
	size_t at;        /* the first night of the new level */
	size_t from, to;  /* the segments' ends: nights [from, at) and [at, to) */
	double ratio, low, high; /* exp(after - before) and its 95 % interval */
	double t, p;      /* the statistic and its p-value, Bonferroni over the splits */
};

/* The night's summary of its values x[0..n) (positive: seconds per unit,
 * or a count) at quantile q (CP_QUANTILE; X(max(1, ceil(q n))), the median
 * for q = 0.5): y and w as in the header; NAN y without a value. */
void cp_night(const double *x, size_t n, double q, double *y, double *w);
/* s->tau2 from s's own nights, no shared scale (prior_df 0); every y
 * finite. */
void cp_noise(struct cp_series *s, double floor);
/* tau^2 from the nights of all k series (one machine's cells) and the
 * shared scale, set in each. */
void cp_pool(struct cp_series *const *s, size_t k, double floor);
/* The first scan of the whole series: the p-value (Bonferroni over the
 * splits) of its best split, 1 when it has fewer than CP_MIN_NIGHTS nights. */
double cp_first_p(const struct cp_series *s);
/* The change points at cut (binary segmentation, step 3), sorted by night;
 * their number.  Free *out. */
size_t cp_segment(const struct cp_series *s, double cut, struct cp_point **out);
/* Benjamini-Hochberg: the largest p[i] <= q (rank / m), 0 when none. */
double cp_bh_cut(const double *p, size_t m, double q);
/* A step's night is an estimate: on a noisy machine a step at night x
 * often fits the runs nearly as well as at the night the scan chose.
 * cp_fits_at says whether it does: the same direction, and t(x)^2 at
 * least t(at)^2 - CP_LOCATE_SLACK, both t of the split of p's segment
 * [from, to) with its own scale (a likelihood-ratio set for the night:
 * 2 log LR = t^2 for a known scale).  Then 0 with *moved p at night x, its
 * size and interval from that split (its p-value the scan's: the step
 * was found where it was found); else -1.  x in (from, to). */
#define CP_LOCATE_SLACK 6.0
int cp_fits_at(const struct cp_series *s, const struct cp_point *p, size_t x, struct cp_point *moved);
/* What a quiet history can say: the smallest step (as ratio - 1: 0.09 is
 * 9 %) that a test told the step's night finds with chance CP_SEEN_POWER
 * once `after` nights follow it, against the nights before it (the
 * series' own, CP_MIN_SEGMENT to CP_SEEN_BEFORE of them), one-sided at
 * CP_SEEN_FALSE false alarms a night, for nights of the cell's typical
 * variance (w_typical + tau^2, times the machine's shared scale; never
 * below the floor).  The method must also find the night, so it needs a
 * little more (bench/history_sim.sh prints both): a smaller step may go
 * unseen that long.  NAN without a typical night. */
#define CP_SEEN_BEFORE 20
#define CP_SEEN_FALSE 0.001
#define CP_SEEN_POWER 0.95
double cp_step_seen(const struct cp_series *s, size_t after);
/* The runs a night would need for cp_step_seen(s, after) to come to
 * `step`: the runs' part of a night's variance (w_typical, from
 * runs_now runs a night) shrinks as 1 / runs, the nights' excess tau^2
 * does not.  A floor, not a promise: the quartile of runs in two modes
 * shrinks slower (in bench/history_sim.sh on this project's VM nights,
 * the 195 runs it asked found 5 % steps within 3 nights in 16 of 25
 * cells, the bound 18).  At least 1; INFINITY where no number of runs
 * does it (tau^2 alone is too much); NAN without a typical night. */
double cp_runs_for_step(const struct cp_series *s, double runs_now, double step, size_t after);
void cp_series_free(struct cp_series *s);

#endif
