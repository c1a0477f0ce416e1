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
 */
#ifndef FLAGBENCH_STATS_H
#define FLAGBENCH_STATS_H

#include <jansson.h>
#include <stddef.h>

struct stats {
	size_t n;
	double *runs; /* in the order measured (owned) */
	double median, mean, stddev, min, max;
	double mad;    /* median absolute deviation (unscaled) */
	double cv;     /* stddev / mean */
	double ci_low, ci_high; /* interval of the median; equal to the median when n < 3 */
	double ci_level;        /* its exact coverage, 0..1; 0 when n < 3 */
	size_t outliers;
};

/* Computes everything from runs[0..n); copies runs.  n may be 0. */
void stats_compute(struct stats *s, const double *runs, size_t n);
void stats_free(struct stats *s);
#define STATS_CI_TARGET 0.95
/* The ranks (1-based) of the interval of the median of n runs: the largest
 * k with coverage >= target, else 1; *level gets its coverage (0 for n < 3). */
size_t stats_median_ci_rank(size_t n, double target, double *level);
/* Exact coverage of [X(k), X(n+1-k)]: P(k <= B <= n-k), B ~ Binomial(n, 1/2). */
double stats_median_coverage(size_t n, size_t k);
/* Half-width of the CI relative to the median, in percent (0 for n < 3). */
double stats_ci_percent(const struct stats *s);
int stats_is_outlier(const struct stats *s, double x);
/* The percentile-bootstrap interval of median(a) / median(b) for two
 * independent samples (the speedup of two cells, from their runs): resamples
 * times, each side resampled with replacement; the generator is seeded with
 * seed, so the same runs always give the same interval.  0 with [*low,
 * *high] at the given level (0.95), -1 when a side has fewer than 2 runs or
 * a median is not positive.  (compare's bootstrap, when it lands, can share
 * this one.) */
int stats_bootstrap_median_ratio(const double *a, size_t na, const double *b, size_t nb, double level,
				 unsigned resamples, unsigned long long seed, double *low, double *high);
#define STATS_BOOTSTRAP_RESAMPLES 1000
/* splitmix64: the next number of a small seedable generator (resampling,
 * run.c's shuffled rounds); *state is the seed, then the state. */
unsigned long long stats_random(unsigned long long *state);
/* Root sum of squares of two half-widths in percent: the old rule for a
 * ratio, kept for callers outside the tables (the tables bootstrap, above). */
double stats_ratio_ci_percent(double a_percent, double b_percent);
/* The ends of value +- ci_percent. */
void stats_bounds(double value, double ci_percent, double *low, double *high);
/* {"median","mean","stddev","min","max","mad","cv","ci":[lo,hi],"ci_level","ci_percent",
 *  "ci95":[lo,hi],"ci95_percent","outliers","runs":[]}: ci95 and ci95_percent
 *  are null unless ci_level reaches 95 %; ci is null under 3 runs. */
json_t *stats_to_json(const struct stats *s);
int stats_from_json(struct stats *s, const json_t *j);

#endif
