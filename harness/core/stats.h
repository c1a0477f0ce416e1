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

#endif
