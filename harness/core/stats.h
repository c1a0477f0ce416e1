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
 */
#ifndef FLAGBENCH_STATS_H
#define FLAGBENCH_STATS_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

struct stats {
	size_t n;
	double *runs; /* in the order measured (owned) */
	double median, mean, stddev, min, max;
	double mad;    /* median absolute deviation (unscaled) */
	double cv;     /* stddev / mean */
	double ci_low, ci_high; /* interval of the median; equal to the median when n < 3 */
	double ci_level;        /* its exact coverage, 0..1; 0 when n < 3 */
	double rerun_low, rerun_high; /* where a rerun's median falls; the median when n < 3 */
	double rerun_level;           /* the chance that it does, 0..1; 0 when n < 3 */
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
/* Exact chance that the median of m new runs lies in [X(k), X(n+1-k)] of
 * n runs (the rerun interval above); 0 when k is out of range. */
double stats_rerun_coverage(size_t n, size_t m, size_t k);
/* The largest k whose rerun coverage (m = n) reaches target, else 1;
 * *level gets its coverage (0 for n < 3). */
size_t stats_rerun_rank(size_t n, double target, double *level);
/* Half-width of the rerun interval relative to the median, in percent. */
double stats_rerun_percent(const struct stats *s);
int stats_is_outlier(const struct stats *s, double x);
/* The percentile-bootstrap interval of median(a) / median(b) for two
 * independent samples (the speedup of two cells, from their runs): resamples
 * times, each side resampled with replacement; the generator is seeded with
 * seed, so the same runs always give the same interval.  0 with [*low,
 * *high] at the given level (0.95), -1 when a side has fewer than 2 runs or
 * a run is not positive.  The same bootstrap as stats_bootstrap_ratio. */
int stats_bootstrap_median_ratio(const double *a, size_t na, const double *b, size_t nb, double level,
				 unsigned resamples, unsigned long long seed, double *low, double *high);
#define STATS_BOOTSTRAP_RESAMPLES 1000
/* splitmix64: the next number of a small seedable generator (resampling,
 * run.c's shuffled rounds); *state is the seed, then the state. */
unsigned long long stats_random(unsigned long long *state);
/* Fisher-Yates with stats_random: the same state, the same order. */
void stats_shuffle(size_t *v, size_t n, unsigned long long *state);
/* Root sum of squares of two half-widths in percent: the old rule for a
 * ratio, kept for callers outside the tables (the tables bootstrap, above). */
double stats_ratio_ci_percent(double a_percent, double b_percent);
/* The ends of value +- ci_percent. */
void stats_bounds(double value, double ci_percent, double *low, double *high);
/* {"median","mean","stddev","min","max","mad","cv","ci":[lo,hi],"ci_level","ci_percent",
 *  "ci95":[lo,hi],"ci95_percent","rerun":[lo,hi],"rerun_level","rerun_percent",
 *  "outliers","runs":[]}: ci95 and ci95_percent are null unless ci_level
 *  reaches 95 %; ci and rerun are null under 3 runs. */
json_t *stats_to_json(const struct stats *s);
int stats_from_json(struct stats *s, const json_t *j);

/* The ratio of two samples, B over A, with a percentile-bootstrap interval
 * (no assumption about the shape of either sample; `flagbench compare`).
 * Resamples are drawn from a fixed-seed generator (xorshift64*), so the
 * same inputs and seed give the same interval on every machine. */
struct ratio_ci {
	double ratio;     /* median(b) / median(a), or the geometric mean of b[i]/a[i] when paired */
	double low, high; /* the interval at the confidence asked (0.95 for 95 %) */
	size_t n_a, n_b;
};

/* Independent samples: each resample draws na values of a and nb values
 * of b with replacement and takes median(b*) / median(a*).  Returns -1
 * when a sample is empty or holds a value that is not > 0 (times, counts). */
int stats_bootstrap_ratio(const double *a, size_t na, const double *b, size_t nb, unsigned resamples,
			  double confidence, uint64_t seed, struct ratio_ci *out);
/* Paired samples (a[i] and b[i] measured back to back, A B, B A, ...):
 * the geometric mean of the ratios b[i]/a[i] with a Student t interval of
 * the mean log ratio (n - 1 degrees of freedom), so drift that moves both
 * members of a pair cancels.  Not a bootstrap: with the 5 pairs of a
 * confirmation a percentile bootstrap of the mean covers about 85 %, not
 * 95 %, and a distribution-free interval of the median spans every pair.
 * confidence is any two-sided level in (0, 1) (compare --confirm asks for
 * more than 0.95 when it confirms several cells: compare.h).  Returns -1
 * when n < 2, a value is not > 0 or confidence is outside (0, 1). */
int stats_paired_ratio_t(const double *a, const double *b, size_t n, double confidence, struct ratio_ci *out);
/* The two-sided critical value of Student's t with df degrees of freedom:
 * the (1 + confidence) / 2 quantile (GSL's gsl_cdf_tdist_Pinv), e.g.
 * 2.776 for 0.95 and 4 df.  NAN when confidence is outside (0, 1) or
 * df <= 0. */
double stats_t_critical(double confidence, double df);

#endif
