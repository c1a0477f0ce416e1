/* changepoint.c: see changepoint.h */
#define _GNU_SOURCE
#include "analysis/changepoint.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/stats.h"
#include "core/util.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The median of v[0..n) (sorted in place). */
static double median_of(double *v, size_t n)
{
	if (!n)
		return NAN;
	qsort(v, n, sizeof(double), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* 1.4826 MAD of v[0..n) around its median (v is reordered). */
static double robust_sd(double *v, size_t n)
{
	double m = median_of(v, n);
	for (size_t i = 0; i < n; i++)
		v[i] = fabs(v[i] - m);
	return 1.4826 * median_of(v, n);
}

void cp_night(const double *x, size_t n, double *y, double *w)
{
	double *l = xcalloc(n + 1, sizeof(double));
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (x[i] > 0)
			l[k++] = log(x[i]);
	*y = median_of(l, k);
	*w = 0;
	if (k >= 3) {
		/* the variance of a median of k normal values: (pi / 2) s^2 / k */
		double s = robust_sd(l, k);
		*w = M_PI / 2 * s * s / (double)k;
	}
	free(l);
}

void cp_noise(struct cp_series *s, double floor)
{
	double f2 = floor * floor;
	s->tau2 = f2;
	s->floor = floor;
	if (s->n < 3)
		return;
	size_t m = s->n - 1;
	double *d = xcalloc(m, sizeof(double));
	for (size_t i = 1; i < s->n; i++)
		d[i - 1] = fabs(s->y[i] - s->y[i - 1]);
	/* the mean square of the differences without the largest tenth (the
	 * steps' own differences among them), made unbiased for normal
	 * differences cut at that quantile: E[Z^2 | |Z| < z] = 1 - 2 z phi(z) / q */
	qsort(d, m, sizeof(double), cmp_double);
	size_t k = m - m / 10;
	double ss = 0;
	for (size_t i = 0; i < k; i++)
		ss += d[i] * d[i];
	double q = (double)k / (double)m, factor = 1;
	if (k < m) {
		double z = gsl_cdf_ugaussian_Pinv((1 + q) / 2);
		factor = 1 - 2 * z * exp(-z * z / 2) / sqrt(2 * M_PI) / q;
	}
	/* var(y_i - y_i-1) = 2 V for nights of a typical variance V */
	double v = ss / (double)k / factor / 2;
	s->tau2 = v > f2 ? v : f2;
	s->floor = floor;
	free(d);
}

/* Two-sided p of Student's t. */
static double t_p(double t, double df)
{
	gsl_error_handler_t *old = gsl_set_error_handler_off();
	double p = 2 * gsl_cdf_tdist_Q(fabs(t), df);
	gsl_set_error_handler(old);
	return p;
}

/* Night i's relative variance: its own when its runs say it is noisier
 * than the typical night (cp_noise), else the typical night's: a night
 * is never taken as quieter than the typical one. */
static double night_var(const struct cp_series *s, size_t i)
{
	return s->w[i] > s->tau2 ? s->w[i] : s->tau2;
}

/* Weighted sums of nights [a, b): sum of 1/v, y/v, y^2/v. */
struct sums {
	double w, y, yy;
};

static struct sums sums_of(const struct cp_series *s, size_t a, size_t b)
{
	struct sums r = { 0, 0, 0 };
	for (size_t i = a; i < b; i++) {
		double v = 1 / night_var(s, i);
		r.w += v;
		r.y += v * s->y[i];
		r.yy += v * s->y[i] * s->y[i];
	}
	return r;
}

/* The weighted squares about the segment's mean. */
static double ss_of(struct sums r)
{
	double ss = r.w > 0 ? r.yy - r.y * r.y / r.w : 0;
	return ss > 0 ? ss : 0;
}

/* The best split of nights [a, b) given the other segments' squares
 * (ss_rest, over nights_rest nights in segs_rest segments): its night (0
 * when none may be tried), t, the difference, its se and df; the
 * Bonferroni p.  The weighted two-sample t-test: the nights' variances are
 * sigma^2 times their relative variances, sigma^2 from the squares about
 * every segment's mean (this split's two and the others'). */
static double scan(const struct cp_series *s, size_t a, size_t b, double ss_rest, size_t nights_rest,
		   size_t segs_rest, size_t *at, double *t_out, double *diff_out, double *se_out, double *df_out)
{
	*at = 0;
	size_t lo = a + CP_MIN_SEGMENT, hi = b == s->n ? b - 1 : b - CP_MIN_SEGMENT;
	if (b < a + CP_MIN_SEGMENT + 1 || lo > hi)
		return 1;
	double df = (double)(b - a + nights_rest) - (double)(segs_rest + 2);
	if (df < 1)
		return 1;
	struct sums all = sums_of(s, a, b), left = { 0, 0, 0 };
	double best = -1, floor2 = s->floor * s->floor;
	for (size_t i = a; i < hi; i++) {
		double v = 1 / night_var(s, i);
		left.w += v;
		left.y += v * s->y[i];
		left.yy += v * s->y[i] * s->y[i];
		size_t k = i + 1;
		if (k < lo)
			continue;
		struct sums right = { all.w - left.w, all.y - left.y, all.yy - left.yy };
		double sigma2 = (ss_of(left) + ss_of(right) + ss_rest) / df;
		/* relative variances are in units of the typical night's: sigma^2
		 * near 1 when the nights vary as they typically do */
		double scale = sigma2 * s->tau2 > floor2 ? sigma2 : floor2 / s->tau2;
		double m1 = left.y / left.w, m2 = right.y / right.w;
		double se = sqrt(scale * (1 / left.w + 1 / right.w)), t = (m2 - m1) / se;
		if (fabs(t) > best) {
			best = fabs(t);
			*at = k;
			*t_out = t;
			*diff_out = m2 - m1;
			*se_out = se;
		}
	}
	*df_out = df;
	double p = t_p(*t_out, df) * (double)(hi - lo + 1);
	return p < 1 ? p : 1;
}

double cp_first_p(const struct cp_series *s)
{
	if (s->n < CP_MIN_NIGHTS)
		return 1;
	size_t at;
	double t, d, se, df;
	return scan(s, 0, s->n, 0, 0, 0, &at, &t, &d, &se, &df);
}

static int cmp_point(const void *a, const void *b)
{
	const struct cp_point *x = a, *y = b;
	return (x->at > y->at) - (x->at < y->at);
}

size_t cp_segment(const struct cp_series *s, double cut, struct cp_point **out)
{
	*out = NULL;
	size_t n = 0;
	if (s->n < CP_MIN_NIGHTS || !(cut > 0))
		return 0;
	/* the segments' bounds so far, sorted: 0, the change points, s->n */
	size_t *bound = xmalloc((s->n + 2) * sizeof(size_t)), nb = 2;
	bound[0] = 0;
	bound[1] = s->n;
	/* segments still to search, as [a, b) pairs */
	size_t *stack = xmalloc(2 * (s->n + 1) * sizeof(size_t)), top = 0;
	stack[top++] = 0;
	stack[top++] = s->n;
	while (top) {
		size_t b = stack[--top], a = stack[--top], at;
		double ss_rest = 0, t = 0, d = 0, se = 0, df = 0;
		for (size_t i = 0; i + 1 < nb; i++)
			if (bound[i] != a)
				ss_rest += ss_of(sums_of(s, bound[i], bound[i + 1]));
		double p = scan(s, a, b, ss_rest, s->n - (b - a), nb - 2, &at, &t, &d, &se, &df);
		if (!at || p > cut)
			continue;
		double tc = stats_t_critical(0.95, df);
		*out = xrealloc(*out, (n + 1) * sizeof(**out));
		(*out)[n++] = (struct cp_point){ .at = at, .from = a, .to = b, .ratio = exp(d), .low = exp(d - tc * se),
						 .high = exp(d + tc * se), .t = t, .p = p };
		size_t j = nb++;
		while (j > 0 && bound[j - 1] > at) {
			bound[j] = bound[j - 1];
			j--;
		}
		bound[j] = at;
		stack[top++] = a;
		stack[top++] = at;
		stack[top++] = at;
		stack[top++] = b;
	}
	free(stack);
	free(bound);
	if (n > 1)
		qsort(*out, n, sizeof(**out), cmp_point);
	return n;
}

double cp_bh_cut(const double *p, size_t m, double q)
{
	if (!m)
		return 0;
	double *v = xmalloc(m * sizeof(double));
	memcpy(v, p, m * sizeof(double));
	qsort(v, m, sizeof(double), cmp_double);
	double cut = 0;
	for (size_t i = 0; i < m; i++)
		if (v[i] <= q * (double)(i + 1) / (double)m)
			cut = v[i];
	free(v);
	return cut;
}

void cp_series_free(struct cp_series *s)
{
	free(s->y);
	free(s->w);
	memset(s, 0, sizeof(*s));
}
