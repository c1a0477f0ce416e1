/* stats.h: how sure a figure is.
 *
 * Robust summaries of a sample of run times: median, MAD, coefficient of
 * variation, a distribution-free confidence interval of the median, and
 * outliers flagged by the modified z-score (|x - median| / (1.4826 MAD) >
 * 3.5), never dropped.
 *
 * The interval of the median is [X(k), X(n+1-k)] of the sorted runs.  It
 * holds the true median exactly when k <= B <= n-k for B ~ Binomial(n, 1/2)
 * (B counts the runs below the median), whatever the distribution of the
 * runs, so its coverage is known exactly: the narrowest k whose coverage
 * reaches 95 % is taken; where none does (fewer than 6 runs), k = 1, i.e.
 * [min, max], and ci_level says what it reached (3 runs: 75 %, 4: 87.5 %,
 * 5: 93.75 %).  Under 3 runs there is no interval (ci_level 0).  The level
 * holds for runs that are independent and alike: runs of a cell spread over
 * the whole run (run.c's default order) come closest to that.
 *
 * That interval answers "where is the true median?", not "where will a
 * rerun land?": a rerun's median is itself a sample, so even an exact 95 %
 * interval of the median holds the median of an equally long rerun only
 * about 85 % of the time.  The rerun interval answers the second question,
 * and it is the one the tables print and the precision target aims at:
 * [X(k), X(n+1-k)] again, with k chosen so that the median of a rerun of
 * m = n runs falls inside with probability >= 95 %.  The number K of the m
 * new runs below X(k) is beta-binomial(m, k, n+1-k) for any continuous
 * distribution, so this coverage too is exact and distribution-free:
 * 1 - 2 P(K >= ceil(m/2)) (for even m the rerun's median is the mean of its
 * two middle runs, and the bound is conservative).  It needs 9 runs to reach
 * 95 % with [min, max]; below that rerun_level says what it reached.
 *
 * The statistic.  The figure a cell reports need not be the median: on a
 * shared machine interference only ever adds time, and the share of runs
 * it hits changes from one run of the suite to the next, so the median of
 * a cell whose runs are half disturbed jumps between its fast and its slow
 * runs, while a low quantile stays with the undisturbed ones (the minimum
 * is the limit of that argument, as in Chen and Revels, "Robust
 * benchmarking in noisy environments", 2016; it has no usable interval, see
 * below).  A quantile q other than 1/2 is the order statistic X(r),
 * r = max(1, ceil(q n)): p25 is X(5) of 17 runs, min is q = 0.  Both
 * intervals exist for it with exact coverage, by the same arguments: the
 * true quantile lies in [X(a), X(b)] when a <= B < b, B ~ Binomial(n, q);
 * the rerun's X(r') (r' its rank among m runs) lies there unless at least
 * r' of its runs fall below X(a) or fewer than r' below X(b), each count
 * beta-binomial as above.  Ranks: each end takes half the error where it
 * can; an end that cannot (the low end of a low quantile: with few runs,
 * all of them may lie above it) stays at X(1) or X(n) and the other end
 * gets what is left.  A low quantile needs more runs for 95 %: p25 13 for
 * the rerun interval, p10 about 45; the minimum never gets there (a rerun's
 * minimum is below this one's half the time).
 */
#ifndef FLAGBENCH_STATS_H
#define FLAGBENCH_STATS_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

struct stats {
	size_t n;
	double *runs; /* in the order measured (owned) */
	double quantile; /* the statistic: 0.5 the median, 0 the minimum, else X(ceil(q n)) */
	double point;    /* its value: the figure the cell reports */
	double median, mean, stddev, min, max;
	double mad;    /* median absolute deviation (unscaled) */
	double cv;     /* stddev / mean */
	double ci_low, ci_high; /* interval of the statistic; equal to the point when n < 3 */
	double ci_level;        /* its exact coverage, 0..1; 0 when n < 3 */
	double rerun_low, rerun_high; /* where a rerun's statistic falls; the point when n < 3 */
	double rerun_level;           /* the chance that it does, 0..1; 0 when n < 3 */
	size_t outliers;
};

/* qsort's comparison of doubles, ascending: the one every module sorts by */
int stats_cmp_double(const void *a, const void *b);
/* The median of sorted v[0..n): the middle value, or the mean of the two
 * middle ones; NAN when n is 0.  The one median every module takes. */
double stats_median_sorted(const double *v, size_t n);
/* The same of v[0..n) in any order: sorts v in place first. */
double stats_median_sort(double *v, size_t n);
/* The statistic at quantile q of sorted v[0..n), as stats_quantile_rank
 * defines it (the median when q is 0.5). */
double stats_point_sorted(const double *v, size_t n, double quantile);
/* Computes everything from runs[0..n) for the median; copies runs.  n may be 0. */
void stats_compute(struct stats *s, const double *runs, size_t n);
/* The same for the statistic at quantile q (0.5 the median, 0 the minimum). */
void stats_compute_at(struct stats *s, const double *runs, size_t n, double quantile);
/* The statistic the tables report unless --statistic says otherwise. */
#define STATS_DEFAULT_STATISTIC "p25"
/* "median" (0.5), "min" (0) or "pNN" with NN in (0, 100) (NN / 100; p50 is
 * the median): 0 with *quantile set, -1 for anything else. */
int stats_statistic_parse(const char *name, double *quantile);
/* What parse accepts, for the messages of every option that takes one. */
#define STATS_STATISTIC_NAMES "median, min or pNN with 0 < NN < 100 (e.g. p25)"
/* The name of a quantile, as parse reads it: "median", "min", "p25", "p12.5". */
const char *stats_statistic_name(double quantile, char *buf, size_t len);
/* The rank r (1-based) of the order statistic at quantile q of n runs; 0 for
 * the median (not an order statistic when n is even). */
size_t stats_quantile_rank(size_t n, double quantile);
/* The ranks [*a, *b] of the interval of the true quantile q (q != 0.5) of n
 * runs, by the rule above; returns its exact coverage (0 for n < 3). */
double stats_quantile_ci(size_t n, double quantile, double target, size_t *a, size_t *b);
/* The ranks [*a, *b] of the rerun interval of quantile q (q != 0.5): where
 * the same statistic of m new runs falls; returns the exact chance that it
 * does (0 for n < 3). */
double stats_quantile_rerun(size_t n, size_t m, double quantile, double target, size_t *a, size_t *b);
/* The exact chance that the statistic at quantile q of m new runs lies in
 * [X(a), X(b)] of n runs (q != 0.5); 0 when a or b is out of range. */
double stats_quantile_rerun_coverage(size_t n, size_t m, double quantile, size_t a, size_t b);
/* The fewest runs (at least 3) whose rerun interval (m = n) of the
 * statistic reaches target, searched up to limit and STATS_RUNS_SEARCH (a
 * search costs about n log n terms per run count); limit when none does. */
#define STATS_RUNS_SEARCH 300
size_t stats_runs_for_rerun(double quantile, double target, size_t limit);
void stats_free(struct stats *s);
#define STATS_CI_TARGET 0.95
/* The ranks (1-based) of the interval of the median of n runs: the largest
 * k with coverage >= target, else 1; *level gets its coverage (0 for n < 3). */
size_t stats_median_ci_rank(size_t n, double target, double *level);
/* Exact coverage of [X(k), X(n+1-k)]: P(k <= B <= n-k), B ~ Binomial(n, 1/2). */
double stats_median_coverage(size_t n, size_t k);
/* Half-width of the CI relative to the point, in percent (0 for n < 3). */
double stats_ci_percent(const struct stats *s);
/* Exact chance that the median of m new runs lies in [X(k), X(n+1-k)] of
 * n runs (the rerun interval above); 0 when k is out of range. */
double stats_rerun_coverage(size_t n, size_t m, size_t k);
/* The largest k whose rerun coverage (m = n) reaches target, else 1;
 * *level gets its coverage (0 for n < 3). */
size_t stats_rerun_rank(size_t n, double target, double *level);
/* Half-width of the rerun interval relative to the point, in percent. */
double stats_rerun_percent(const struct stats *s);
int stats_is_outlier(const struct stats *s, double x);

/* The machine's drift over a run, which no cell's own runs can show: a
 * rerun meets the machine at another time, and on a shared host every cell
 * of it may run 1-3 % faster or slower together.  The cells' runs taken in
 * rounds (run i of every cell in round i) show it: in each round the median
 * over cells of log(run / the cell's own median run) is the machine's speed
 * then; the spread of that over the rounds is its drift.
 * runs[c][0..n[c]) are the cells' runs in the order measured.  Rounds with
 * fewer than max(10, ncells / 2) cells are left out.  Returns the standard
 * deviation of the rounds' log speeds (a fraction: 0.01 is about 1 %), or
 * NAN with fewer than 5 such rounds; *rounds gets how many counted.
 * Rounds further than MACHINE_DRIFT_OUTLIER robust sds (1.4826 MAD) from
 * the rounds' median are a passing interference, not drift, and are left
 * out of the sd (a Lua run here had 4 of 40 rounds 2x slower in every
 * cell: sd 18 % with them). */
#define MACHINE_DRIFT_OUTLIER 4.0
double stats_machine_drift(const double *const *runs, const size_t *n, size_t ncells, size_t *rounds);
/* The drift of ratios over a run, which pairing cannot cancel: two
 * builds that meet the machine's changes differently (a neighbour that
 * takes memory bandwidth slows a streaming build more than a compute-bound
 * one) move their ratio between runs by more than the run's own interval
 * admits.  Each sequence logr[j][0..n[j]) is one paired comparison's log
 * ratios in the order of its rounds; its first and second halves are two
 * looks at the ratio minutes apart.  Their medians differ by the noise of
 * the runs (estimated from the sequence's own spread: the median of h runs
 * varies as (pi/2) s^2 / h, s the MAD's sd within each half) plus a shift the ratio took
 * between the halves, drawn with variance 2 tau^2.  tau^2 is where the
 * median over the sequences of 8 or more of (difference^2 / its variance)
 * is a chi-square's with one degree of freedom (a random-effects fit by
 * the median, so a few sequences whose noise is larger than their spread
 * says cannot set it).  Returns tau (a fraction of the log ratio: 0.01
 * about 1 %; 0 when the halves agree within their noise), or NAN with
 * fewer than 5 such sequences; *used gets how many counted. */
double stats_ratio_drift(const double *const *logr, const size_t *n, size_t k, size_t *used);
/* The random-effects fit both the ratio drift and the history's night
 * noise use: differences d[j] each with a known noise variance v[j] plus
 * an unknown shared excess of variance 2 tau^2; tau^2 is where the median
 * of d[j]^2 / (v[j] + 2 tau^2) is a one-degree chi-square's median, 0 when
 * it is already below at 0.  v is floored at 1e-12.  Returns tau^2; 0 for
 * k = 0. */
double stats_excess_variance(const double *d2, const double *v, size_t k);
/* The median of v[0..n) in *median, and the variance of such a median:
 * (pi/2) s^2 / n, s the spread as a normal's sd (1.4826 MAD), as the
 * ratio drift reads each half's.  NAN for n < 3. */
double stats_median_noise(const double *v, size_t n, double *median);
/* How far the tables widen each rerun interval on both sides: twice the
 * drift, so a rerun's shift of the machine is inside it 95 % of the time
 * when the shift is like the drift seen over the run (a factor exp(+-2 sd)). */
#define STATS_DRIFT_SIGMAS 2
/* splitmix64: the next number of the harness's one seedable generator
 * (comparison.c's resampling, schedule.c's shuffled rounds, plan.c's
 * layouts); *state is the seed, then the state.  The same seed gives the
 * same numbers on every machine. */
unsigned long long stats_random(unsigned long long *state);
/* The number stats_random gives on its (i + 1)-th call from state seed,
 * without the calls before it (splitmix64 is a counter, mixed): a key per
 * i that is the same for equal i (schedule.c's blocks and groups). */
unsigned long long stats_random_at(unsigned long long seed, unsigned long long i);
/* Fisher-Yates with stats_random: the same state, the same order. */
void stats_shuffle(size_t *v, size_t n, unsigned long long *state);
/* {"statistic","value","median","mean","stddev","min","max","mad","cv","ci":[lo,hi],"ci_level",
 *  "ci_percent","ci95":[lo,hi],"ci95_percent","rerun":[lo,hi],"rerun_level","rerun_percent",
 *  "outliers","runs":[]}: value is the statistic's, and the intervals are
 *  its; ci95 and ci95_percent are null unless ci_level reaches 95 %; ci and
 *  rerun are null under 3 runs.  stats_from_json recomputes from the runs
 *  with the statistic named there (the median where none is: older files). */
json_t *stats_to_json(const struct stats *s);
int stats_from_json(struct stats *s, const json_t *j);

/* The two-sided critical value of Student's t with df degrees of freedom:
 * the (1 + confidence) / 2 quantile (GSL's gsl_cdf_tdist_Pinv), e.g.
 * 2.776 for 0.95 and 4 df.  NAN when confidence is outside (0, 1) or
 * df <= 0. */
double stats_t_critical(double confidence, double df);

#endif
