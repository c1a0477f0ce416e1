/* changepoint.c: see changepoint.h */
#define _GNU_SOURCE
#include "analysis/changepoint.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_sf_psi.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/stats.h"
#include "core/util.h"

/* 1.4826 MAD of v[0..n) around its median (v is reordered). */
static double robust_sd(double *v, size_t n)
{
	double m = stats_median_sort(v, n);
	for (size_t i = 0; i < n; i++)
		v[i] = fabs(v[i] - m);
	return 1.4826 * stats_median_sort(v, n);
}

/* X(max(1, ceil(q n))) of v[0..n) (sorted in place), the median for q = 0.5. */
static double quantile_of(double *v, size_t n, double q)
{
	if (q == 0.5)
		return stats_median_sort(v, n);
	qsort(v, n, sizeof(double), stats_cmp_double);
	size_t r = (size_t)ceil(q * (double)n);
	return v[r ? r - 1 : 0];
}

void cp_night(const double *x, size_t n, double q, double *y, double *w)
{
	double *l = xcalloc(n + 1, sizeof(double));
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (x[i] > 0)
			l[k++] = log(x[i]);
	*y = k ? quantile_of(l, k, q) : NAN;
	*w = 0;
	if (k >= 3) {
		/* from the runs' own order statistics, whatever their shape (runs
		 * in two modes, a tail): the ranks k q -+ 1.96 sqrt(k q (1 - q))
		 * hold the quantile 95 % of the time, so their distance is 3.92
		 * standard errors (quantile_of left l sorted) */
		double c = (double)k * q, h = 1.96 * sqrt((double)k * q * (1 - q));
		long lo = (long)floor(c - h), hi = (long)ceil(c + h);
		lo = lo < 1 ? 1 : lo;
		hi = hi > (long)k ? (long)k : hi;
		double se = (l[hi - 1] - l[lo - 1]) / 3.92;
		/* and the variance of a sample quantile of k normal values,
		 * q (1 - q) / phi(z_q)^2 s^2 / k (pi/2 s^2 / k for the median):
		 * the larger of the two is the night's (robust_sd reorders l) */
		double s = robust_sd(l, k), z = gsl_cdf_ugaussian_Pinv(q);
		double phi = exp(-z * z / 2) / sqrt(2 * M_PI);
		*w = q * (1 - q) / (phi * phi) * s * s / (double)k;
		*w = se * se > *w ? se * se : *w;
	}
	free(l);
}

/* Night i's variance: its runs' and the excess, at least the floor.  A
 * night's runs' variance is taken at least as large as the cell's typical
 * night's (w_typical, the median): a few runs whose spread happens to be
 * small would otherwise weigh that night many times another. */
static double night_var(const struct cp_series *s, size_t i)
{
	double w = s->w[i] > s->w_typical ? s->w[i] : s->w_typical;
	double v = w + s->tau2, f2 = s->floor * s->floor;
	return v > f2 ? v : f2;
}

/* s->w_typical: the median of the nights' w. */
static void typical_w(struct cp_series *s)
{
	double *v = xcalloc(s->n + 1, sizeof(double));
	memcpy(v, s->w, s->n * sizeof(double));
	s->w_typical = s->n ? stats_median_sort(v, s->n) : 0;
	free(v);
}

/* The successive differences of s appended to d2 and v (their squares
 * and their runs' variances). */
static size_t differences(const struct cp_series *s, double *d2, double *v)
{
	size_t m = 0;
	for (size_t i = 1; i < s->n; i++) {
		double d = s->y[i] - s->y[i - 1];
		d2[m] = d * d;
		v[m++] = s->w[i] + s->w[i - 1];
	}
	return m;
}

void cp_noise(struct cp_series *s, double floor)
{
	typical_w(s);
	s->floor = floor;
	s->tau2 = 0;
	s->prior_s2 = 1;
	s->prior_df = 0;
	if (s->n < 3)
		return;
	double *d2 = xcalloc(s->n, sizeof(double)), *v = xcalloc(s->n, sizeof(double));
	s->tau2 = stats_excess_variance(d2, v, differences(s, d2, v));
	free(d2);
	free(v);
}

/* The weighted sums of nights [a, b): sum of 1/v, y/v, y^2/v. */
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

/* A cell's own scale from its successive differences, in units of their
 * variances (night_var): sum of d^2 / (v_i + v_i-1) over the n - 1
 * differences, divided by n - 1.  A step moves one difference, so the
 * scale of a cell that changed once stays its noise's, where the squares
 * about its mean would hold the step. */
static double own_scale(const struct cp_series *s)
{
	double sum = 0;
	for (size_t i = 1; i < s->n; i++) {
		double d = s->y[i] - s->y[i - 1];
		sum += d * d / (night_var(s, i) + night_var(s, i - 1));
	}
	return s->n > 1 ? sum / (double)(s->n - 1) : NAN;
}

/* x with trigamma(x) = y (trigamma falls from infinity to 0): bisection in
 * log x; INFINITY where y is below what any x up to 1e12 gives. */
static double trigamma_inverse(double y)
{
	double lo = log(1e-8), hi = log(1e12);
	if (!(y > gsl_sf_psi_1(exp(hi))))
		return INFINITY;
	for (int it = 0; it < 200 && hi - lo > 1e-12; it++) {
		double mid = (lo + hi) / 2;
		if (gsl_sf_psi_1(exp(mid)) > y)
			lo = mid;
		else
			hi = mid;
	}
	return exp((lo + hi) / 2);
}

void cp_pool(struct cp_series *const *s, size_t k, double floor)
{
	size_t total = 0;
	for (size_t c = 0; c < k; c++) {
		total += s[c]->n;
		typical_w(s[c]);
	}
	double *d2 = xcalloc(total + 1, sizeof(double)), *v = xcalloc(total + 1, sizeof(double));
	size_t m = 0;
	for (size_t c = 0; c < k; c++)
		if (s[c]->n >= 2)
			m += differences(s[c], d2 + m, v + m);
	double tau2 = stats_excess_variance(d2, v, m);
	free(d2);
	free(v);
	/* each cell's own scale (own_scale, n - 1 degrees of freedom taken
	 * as a chi-square's, which the differences' overlap makes err toward
	 * calling a cell noisy), log-transformed as limma's fitFDist does:
	 * e = log s^2 - digamma(df/2) + log(df/2) */
	double *e = xcalloc(k + 1, sizeof(double)), *df = xcalloc(k + 1, sizeof(double));
	double *own = xcalloc(k + 1, sizeof(double));
	size_t g = 0;
	for (size_t c = 0; c < k; c++) {
		struct cp_series *x = s[c];
		x->floor = floor;
		x->tau2 = tau2;
		x->prior_s2 = 1;
		x->prior_df = 0;
		if (x->n < 3)
			continue;
		double s2 = own[c] = own_scale(x);
		if (!(s2 > 0) || !isfinite(s2))
			continue; /* counts that never moved say nothing of a scale */
		df[g] = (double)(x->n - 1);
		e[g] = log(s2) - gsl_sf_psi(df[g] / 2) + log(df[g] / 2);
		g++;
	}
	if (g >= 3) {
		double mean = 0, spread = 0, chance = 0;
		for (size_t i = 0; i < g; i++)
			mean += e[i] / (double)g;
		for (size_t i = 0; i < g; i++) {
			spread += (e[i] - mean) * (e[i] - mean) / (double)(g - 1);
			chance += gsl_sf_psi_1(df[i] / 2) / (double)g;
		}
		/* the cells' scales differ beyond their chance by trigamma(d0 / 2) */
		double d0 = spread > chance ? 2 * trigamma_inverse(spread - chance) : INFINITY;
		double s0 = isinf(d0) ? exp(mean) : exp(mean + gsl_sf_psi(d0 / 2) - log(d0 / 2));
		for (size_t c = 0; c < k; c++) {
			struct cp_series *x = s[c];
			x->prior_s2 = s0;
			x->prior_df = d0;
			if (x->n < 3)
				continue;
			/* a cell whose nights scatter more than the shared scale
			 * admits (an F test at CP_OWN_SCALE_P) keeps its own: the
			 * shared one would make its noise a step */
			double df1 = (double)(x->n - 1), ratio = own[c] / s0;
			gsl_error_handler_t *old = gsl_set_error_handler_off();
			double p = isinf(d0) ? gsl_cdf_chisq_Q(ratio * df1, df1) : gsl_cdf_fdist_Q(ratio, df1, d0);
			gsl_set_error_handler(old);
			if (p < CP_OWN_SCALE_P)
				x->prior_df = 0;
		}
	}
	free(e);
	free(df);
	free(own);
}

/* Two-sided p of Student's t. */
static double t_p(double t, double df)
{
	gsl_error_handler_t *old = gsl_set_error_handler_off();
	double p = 2 * gsl_cdf_tdist_Q(fabs(t), df);
	gsl_set_error_handler(old);
	return p;
}

/* A split's degrees of freedom: its own (own_df) and the shared scale's
 * (cp_pool; infinite: as good as known). */
static double split_df(const struct cp_series *s, double own_df)
{
	double d0 = s->prior_df;
	return isinf(d0) ? 1e9 : own_df + (d0 > 0 ? d0 : 0);
}

/* The se of a split's difference of weighted means, its sides' sums left
 * and right over nl and nr nights: sigma^2 the cell's own scale from the
 * squares ss about every segment's mean (own_df degrees of freedom),
 * moderated toward the shared one where cp_pool gave it; never finer than
 * the floor (exact counts that repeat). */
static double split_se(const struct cp_series *s, double ss, double own_df, struct sums left, struct sums right,
		       size_t nl, size_t nr)
{
	double d0 = s->prior_df, sigma2;
	if (isinf(d0))
		sigma2 = s->prior_s2;
	else if (d0 > 0)
		sigma2 = (d0 * s->prior_s2 + ss) / (d0 + own_df);
	else
		sigma2 = own_df > 0 ? ss / own_df : NAN;
	double se = sqrt(sigma2 * (1 / left.w + 1 / right.w));
	double fse = s->floor * sqrt(1 / (double)nl + 1 / (double)nr);
	return se > fse ? se : fse;
}

/* The best split of nights [a, b) given the other segments' squares
 * (ss_rest, over nights_rest nights in segs_rest segments): its night (0
 * when none may be tried), t, the difference, its se and df; the
 * Bonferroni p.  The weighted two-sample t-test: the nights' variances are
 * sigma^2 times theirs (night_var), sigma^2 the cell's own scale from the
 * squares about every segment's mean (this split's two and the others'),
 * moderated toward the cells' shared one where cp_pool gave it. */
static double scan(const struct cp_series *s, size_t a, size_t b, double ss_rest, size_t nights_rest,
		   size_t segs_rest, size_t *at, double *t_out, double *diff_out, double *se_out, double *df_out)
{
	*at = 0;
	size_t lo = a + CP_MIN_SEGMENT, hi = b == s->n ? b - 1 : b - CP_MIN_SEGMENT;
	if (b < a + CP_MIN_SEGMENT + 1 || lo > hi)
		return 1;
	double own_df = (double)(b - a + nights_rest) - (double)(segs_rest + 2);
	if (own_df < 1 && !(s->prior_df > 0))
		return 1;
	own_df = own_df > 0 ? own_df : 0;
	double df = split_df(s, own_df);
	struct sums all = sums_of(s, a, b), left = { 0, 0, 0 };
	double best = -1;
	for (size_t i = a; i < hi; i++) {
		double v = 1 / night_var(s, i);
		left.w += v;
		left.y += v * s->y[i];
		left.yy += v * s->y[i] * s->y[i];
		size_t k = i + 1;
		if (k < lo)
			continue;
		struct sums right = { all.w - left.w, all.y - left.y, all.yy - left.yy };
		double m1 = left.y / left.w, m2 = right.y / right.w;
		double se = split_se(s, ss_of(left) + ss_of(right) + ss_rest, own_df, left, right, k - a, b - k);
		double t = (m2 - m1) / se;
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
	qsort(v, m, sizeof(double), stats_cmp_double);
	double cut = 0;
	for (size_t i = 0; i < m; i++)
		if (v[i] <= q * (double)(i + 1) / (double)m)
			cut = v[i];
	free(v);
	return cut;
}

/* The split of [a, b) at k on its own (no other segment): t, the
 * difference of the weighted means, its se and df, with the scale as scan
 * takes it. */
static void split_at(const struct cp_series *s, size_t a, size_t b, size_t k, double *t, double *d, double *se,
		     double *df)
{
	struct sums left = sums_of(s, a, k), right = sums_of(s, k, b);
	double own_df = (double)(b - a) - 2;
	own_df = own_df > 0 ? own_df : 0;
	*d = right.y / right.w - left.y / left.w;
	*se = split_se(s, ss_of(left) + ss_of(right), own_df, left, right, k - a, b - k);
	*t = *d / *se;
	*df = split_df(s, own_df);
}

int cp_fits_at(const struct cp_series *s, const struct cp_point *p, size_t x, struct cp_point *moved)
{
	if (x <= p->from || x >= p->to || x == p->at || p->at <= p->from || p->at >= p->to || p->to > s->n)
		return -1;
	double t0, d0, se0, df0, t, d, se, df;
	split_at(s, p->from, p->to, p->at, &t0, &d0, &se0, &df0);
	split_at(s, p->from, p->to, x, &t, &d, &se, &df);
	if (!isfinite(t) || !isfinite(t0) || (t > 0) != (t0 > 0) || t * t < t0 * t0 - CP_LOCATE_SLACK)
		return -1;
	double tc = stats_t_critical(0.95, df);
	*moved = *p;
	moved->at = x;
	moved->ratio = exp(d);
	moved->low = exp(d - tc * se);
	moved->high = exp(d + tc * se);
	moved->t = t;
	return 0;
}

/* cp_step_seen's terms: the nights' share of a step's variance (1 /
 * before + 1 / after) and the z it must reach */
static double seen_share(const struct cp_series *s, size_t after)
{
	size_t before = s->n < CP_MIN_SEGMENT ? CP_MIN_SEGMENT : s->n > CP_SEEN_BEFORE ? CP_SEEN_BEFORE : s->n;
	return 1 / (double)before + 1 / (double)after;
}

static double seen_z(void)
{
	return gsl_cdf_ugaussian_Qinv(CP_SEEN_FALSE) + gsl_cdf_ugaussian_Pinv(CP_SEEN_POWER);
}

static double seen_scale(const struct cp_series *s)
{
	return s->prior_df > 0 ? s->prior_s2 : 1;
}

double cp_step_seen(const struct cp_series *s, size_t after)
{
	double v = (s->w_typical + s->tau2) * seen_scale(s);
	if (!(v >= 0) || !isfinite(v) || after < 1)
		return NAN;
	v = v > s->floor * s->floor ? v : s->floor * s->floor;
	return expm1(seen_z() * sqrt(v * seen_share(s, after)));
}

double cp_runs_for_step(const struct cp_series *s, double runs_now, double step, size_t after)
{
	double scale = seen_scale(s);
	if (!(s->w_typical >= 0) || !(s->tau2 >= 0) || !(scale > 0) || !(runs_now >= 1) || !(step > 0) || after < 1)
		return NAN;
	/* the variance of a night at which the step is seen */
	double lz = log1p(step) / seen_z(), target = lz * lz / seen_share(s, after) / scale;
	if (target <= s->tau2 || target < s->floor * s->floor)
		return INFINITY;
	double runs = s->w_typical * runs_now / (target - s->tau2);
	return runs > 1 ? ceil(runs) : 1;
}

void cp_series_free(struct cp_series *s)
{
	free(s->y);
	free(s->w);
	memset(s, 0, sizeof(*s));
}
