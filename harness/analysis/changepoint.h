/* changepoint.h: steps in one cell's nights (`flagbench history changes`).
 *
 * Pure: series in, change points out (docs/history.md says what a change
 * point means).  The method, in order:
 *
 * 1. Each night is summarised by the median y of the log of its runs
 *    (seconds per unit, or one instruction count), with the variance w of
 *    that median from the night's own runs: (pi / 2) s^2 / n, s the runs'
 *    robust spread (1.4826 MAD); w 0 with fewer than 3 runs.  So a night of
 *    noisy or few runs weighs less: the test uses each night's runs, not
 *    only its figure.
 * 2. The nights also differ from each other more than their runs say (the
 *    machine's state from night to night).  The typical night's variance V
 *    (cp_series.tau2) comes from the successive differences of the y's,
 *    var(y_i - y_i-1) = 2 V: their mean square without the largest tenth
 *    (a step moves one difference of many), made unbiased for normal
 *    differences cut there; never below floor^2 (a relative floor: counts
 *    that repeat exactly would otherwise make any difference infinite).
 *    Night i's variance is max(V, w_i): a night whose runs are noisier
 *    weighs less, none weighs more than the typical night.  The degrees of
 *    freedom of V: (nights - 1) / 2 (overlapping differences and the trim).
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
#define CP_MIN_NIGHTS 3
/* relative noise floors: time, and exact counts */
#define CP_FLOOR_TIME 0.001
#define CP_FLOOR_COUNT 0.0001

/* One cell's nights, summarised (cp_summarize). */
struct cp_series {
	size_t n;
	double *y;   /* log of the night's median */
	double *w;   /* variance of y from the night's runs (0 unknown) */
	double tau2; /* the typical night's variance V (cp_noise) */
	double floor; /* the relative noise floor it was given */
};

/* One change point: nights [.., at) before, [at, ..) after. */
struct cp_point {
	size_t at;        /* the first night of the new level */
	size_t from, to;  /* the segments' ends: nights [from, at) and [at, to) */
	double ratio, low, high; /* exp(after - before) and its 95 % interval */
	double t, p;      /* the statistic and its p-value, Bonferroni over the splits */
};

/* The night's summary of its values x[0..n) (positive: seconds per unit,
 * or a count): y and w as in the header; NAN y without a value. */
void cp_night(const double *x, size_t n, double *y, double *w);
/* s->tau2 (V) from s->y, at least floor^2; every y finite. */
void cp_noise(struct cp_series *s, double floor);
/* The first scan of the whole series: the p-value (Bonferroni over the
 * splits) of its best split, 1 when it has fewer than CP_MIN_NIGHTS nights. */
double cp_first_p(const struct cp_series *s);
/* The change points at cut (binary segmentation, step 3), sorted by night;
 * their number.  Free *out. */
size_t cp_segment(const struct cp_series *s, double cut, struct cp_point **out);
/* Benjamini-Hochberg: the largest p[i] <= q (rank / m), 0 when none. */
double cp_bh_cut(const double *p, size_t m, double q);
void cp_series_free(struct cp_series *s);

#endif
