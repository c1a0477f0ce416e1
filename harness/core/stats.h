/* stats.h: how sure a figure is.
 *
 * Robust summaries of a sample of run times: median, MAD, coefficient of
 * variation, a distribution-free 95 % confidence interval of the median
 * (order statistics, binomial), and outliers flagged by the modified
 * z-score (|x - median| / (1.4826 MAD) > 3.5), never dropped.
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
	double ci_low, ci_high; /* 95 % CI of the median; equal to the median when n < 3 */
	size_t outliers;
};

/* Computes everything from runs[0..n); copies runs.  n may be 0. */
void stats_compute(struct stats *s, const double *runs, size_t n);
void stats_free(struct stats *s);
/* Half-width of the CI relative to the median, in percent (0 for n < 3). */
double stats_ci_percent(const struct stats *s);
int stats_is_outlier(const struct stats *s, double x);
/* The interval of a ratio of two independent medians, from their half-widths
 * in percent: root sum of squares (harness/tables/model.c calls this). */
double stats_ratio_ci_percent(double a_percent, double b_percent);
/* The ends of value +- ci_percent. */
void stats_bounds(double value, double ci_percent, double *low, double *high);
/* {"median","mean","stddev","min","max","mad","cv","ci95":[lo,hi],"outliers","runs":[]} */
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
 * confidence is 0.95 (the one t table kept).  Returns -1 when n < 2 or a
 * value is not > 0. */
int stats_paired_ratio_t(const double *a, const double *b, size_t n, double confidence, struct ratio_ci *out);

#endif
