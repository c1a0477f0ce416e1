/* stats.c: see stats.h */
#define _GNU_SOURCE
#include "core/stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>

#include "core/json_util.h"
#include "core/util.h"

int stats_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double stats_median_sorted(const double *v, size_t n)
{
	if (!n)
		return NAN;
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double stats_median_sort(double *v, size_t n)
{
	if (n)
		qsort(v, n, sizeof(double), stats_cmp_double);
	return stats_median_sorted(v, n);
}

size_t stats_quantile_rank(size_t n, double quantile)
{
	if (quantile == 0.5 || !n)
		return 0;
	/* the small slack keeps ceil(0.25 * 20) at 5 despite rounding */
	double x = ceil(quantile * (double)n - 1e-9);
	size_t r = x < 1 ? 1 : (size_t)x;
	return r > n ? n : r;
}

double stats_point_sorted(const double *v, size_t n, double quantile)
{
	size_t r = stats_quantile_rank(n, quantile);
	return r ? v[r - 1] : stats_median_sorted(v, n);
}

/* Sorts v in place: the statistic of a scratch copy. */
static double sample_point(double *v, size_t n, double quantile)
{
	qsort(v, n, sizeof(double), stats_cmp_double);
	return stats_point_sorted(v, n, quantile);
}

/* The exact distributions every interval's coverage is summed from. */
static double log_choose(size_t n, size_t k)
{
	return lgamma((double)n + 1) - lgamma((double)k + 1) - lgamma((double)(n - k) + 1);
}

static double log_beta(double a, double b)
{
	return lgamma(a) + lgamma(b) - lgamma(a + b);
}

/* P(B = i), B ~ Binomial(n, q): how many of n runs lie below the true quantile q. */
static double binom_pmf(size_t n, double q, size_t i)
{
	if (q <= 0)
		return i == 0;
	return exp(log_choose(n, i) + (double)i * log(q) + (double)(n - i) * log1p(-q));
}

/* P(K = j), K ~ beta-binomial(m, k, n + 1 - k): how many of m new runs fall
 * below X(k) of n runs (stats.h). */
static double rerun_below_pmf(size_t n, size_t m, size_t k, size_t j)
{
	return exp(log_choose(m, j) + log_beta((double)(j + k), (double)(m - j + n - k + 1)) -
		   log_beta((double)k, (double)(n - k + 1)));
}

int stats_statistic_parse(const char *name, double *quantile)
{
	if (!name)
		return -1;
	if (!strcmp(name, "median") || !strcmp(name, "min")) {
		*quantile = name[1] == 'e' ? 0.5 : 0;
		return 0;
	}
	/* digits and one point only: no sign, exponent, hex or "inf" for strtod */
	if (name[0] != 'p' || !name[1] || strspn(name + 1, "0123456789.") != strlen(name + 1) ||
	    strchr(name + 1, '.') != strrchr(name + 1, '.'))
		return -1;
	char *end;
	double pct = strtod(name + 1, &end);
	if (*end || !isfinite(pct) || !(pct > 0) || !(pct < 100))
		return -1;
	*quantile = pct / 100;
	return 0;
}

const char *stats_statistic_name(double quantile, char *buf, size_t len)
{
	if (quantile == 0.5)
		snprintf(buf, len, "median");
	else if (quantile == 0)
		snprintf(buf, len, "min");
	else
		snprintf(buf, len, "p%g", quantile * 100);
	return buf;
}

/* The two ways an interval [X(a), X(b)] of a quantile misses (stats.h):
 * low (the target is below X(a)) and high (above X(b)); the first grows
 * with a, the second falls with b.  ci: the target is the true quantile,
 * and B ~ Binomial(n, q) runs lie below it; rerun: the target is X(r') of m
 * new runs, and N_j ~ beta-binomial(m, j, n + 1 - j) of them lie below X(j). */
struct tails {
	size_t n, m, r, r_new;
	double quantile;
	int rerun;
};

static double miss_low(const struct tails *t, size_t a)
{
	double p = 0;
	if (t->rerun)
		for (size_t j = t->r_new; j <= t->m; j++)
			p += rerun_below_pmf(t->n, t->m, a, j);
	else
		for (size_t i = 0; i + 1 <= a; i++)
			p += binom_pmf(t->n, t->quantile, i);
	return p > 1 ? 1 : p;
}

static double miss_high(const struct tails *t, size_t b)
{
	double p = 0;
	if (t->rerun)
		for (size_t j = 0; j < t->r_new; j++)
			p += rerun_below_pmf(t->n, t->m, b, j);
	else
		for (size_t i = b; i <= t->n; i++)
			p += binom_pmf(t->n, t->quantile, i);
	return p > 1 ? 1 : p;
}

/* The largest a in [1, r] that misses low with at most budget, else 1. */
static size_t low_rank(const struct tails *t, double budget)
{
	size_t lo = 1, hi = t->r;
	if (miss_low(t, 1) > budget)
		return 1;
	while (lo < hi) {
		size_t mid = lo + (hi - lo + 1) / 2;
		if (miss_low(t, mid) <= budget)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

/* The smallest b in [r, n] that misses high with at most budget, else n. */
static size_t high_rank(const struct tails *t, double budget)
{
	size_t lo = t->r, hi = t->n;
	if (miss_high(t, t->n) > budget)
		return t->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (miss_high(t, mid) <= budget)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* Half the error to each end; an end that cannot keep to it leaves the
 * other what remains (stats.h).  Returns the coverage. */
static double choose_ranks(const struct tails *t, double target, size_t *a, size_t *b)
{
	double alpha = 1 - target;
	*a = low_rank(t, alpha / 2);
	*b = high_rank(t, alpha / 2);
	double lo = miss_low(t, *a), hi = miss_high(t, *b);
	if (lo > alpha / 2) {
		*b = high_rank(t, alpha - lo);
		hi = miss_high(t, *b);
	} else if (hi > alpha / 2) {
		*a = low_rank(t, alpha - hi);
		lo = miss_low(t, *a);
	}
	double cov = 1 - lo - hi;
	return cov < 0 ? 0 : cov > 1 ? 1 : cov;
}

double stats_quantile_ci(size_t n, double quantile, double target, size_t *a, size_t *b)
{
	*a = *b = stats_quantile_rank(n, quantile);
	if (n < 3 || !*a)
		return 0;
	struct tails t = { n, 0, *a, 0, quantile, 0 };
	return choose_ranks(&t, target, a, b);
}

double stats_quantile_rerun(size_t n, size_t m, double quantile, double target, size_t *a, size_t *b)
{
	*a = *b = stats_quantile_rank(n, quantile);
	if (n < 3 || !m || !*a)
		return 0;
	struct tails t = { n, m, *a, stats_quantile_rank(m, quantile), quantile, 1 };
	return choose_ranks(&t, target, a, b);
}

double stats_quantile_rerun_coverage(size_t n, size_t m, double quantile, size_t a, size_t b)
{
	size_t r = stats_quantile_rank(n, quantile);
	if (!r || !m || a < 1 || b > n || a > b)
		return 0;
	struct tails t = { n, m, r, stats_quantile_rank(m, quantile), quantile, 1 };
	double cov = 1 - miss_low(&t, a) - miss_high(&t, b);
	return cov < 0 ? 0 : cov;
}

size_t stats_runs_for_rerun(double quantile, double target, size_t limit)
{
	/* the minimum never gets there: a rerun's is below this one's half the time */
	if (quantile == 0)
		return limit;
	for (size_t n = 3; n < limit && n <= STATS_RUNS_SEARCH; n++) {
		double level;
		size_t a, b;
		if (quantile == 0.5)
			stats_rerun_rank(n, target, &level);
		else
			level = stats_quantile_rerun(n, n, quantile, target, &a, &b);
		if (level >= target)
			return n;
	}
	return limit;
}

void stats_compute(struct stats *s, const double *runs, size_t n)
{
	stats_compute_at(s, runs, n, 0.5);
}

void stats_compute_at(struct stats *s, const double *runs, size_t n, double quantile)
{
	memset(s, 0, sizeof(*s));
	s->n = n;
	s->quantile = quantile;
	s->runs = xmalloc((n ? n : 1) * sizeof(double));
	if (n)
		memcpy(s->runs, runs, n * sizeof(double));
	if (!n) {
		s->point = s->median = s->mean = s->stddev = s->min = s->max = s->mad = s->cv = NAN;
		s->ci_low = s->ci_high = s->rerun_low = s->rerun_high = NAN;
		return;
	}
	double *v = xmalloc(n * sizeof(double));
	memcpy(v, runs, n * sizeof(double));
	qsort(v, n, sizeof(double), stats_cmp_double);
	s->min = v[0];
	s->max = v[n - 1];
	s->median = stats_median_sorted(v, n);
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	s->mean = sum / (double)n;
	double ss = 0;
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - s->mean) * (v[i] - s->mean);
	s->stddev = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
	s->cv = s->mean > 0 ? s->stddev / s->mean : 0;
	double *dev = xmalloc(n * sizeof(double));
	for (size_t i = 0; i < n; i++)
		dev[i] = fabs(v[i] - s->median);
	qsort(dev, n, sizeof(double), stats_cmp_double);
	s->mad = stats_median_sorted(dev, n);
	free(dev);
	s->point = stats_point_sorted(v, n, quantile);
	/* the order-statistic intervals, with their exact coverage (stats.h) */
	if (quantile == 0.5) {
		size_t k = stats_median_ci_rank(n, STATS_CI_TARGET, &s->ci_level);
		s->ci_low = n >= 3 ? v[k - 1] : s->median;
		s->ci_high = n >= 3 ? v[n - k] : s->median;
		k = stats_rerun_rank(n, STATS_CI_TARGET, &s->rerun_level);
		s->rerun_low = n >= 3 ? v[k - 1] : s->median;
		s->rerun_high = n >= 3 ? v[n - k] : s->median;
	} else {
		size_t a, b;
		s->ci_level = stats_quantile_ci(n, quantile, STATS_CI_TARGET, &a, &b);
		s->ci_low = v[a - 1];
		s->ci_high = v[b - 1];
		s->rerun_level = stats_quantile_rerun(n, n, quantile, STATS_CI_TARGET, &a, &b);
		s->rerun_low = v[a - 1];
		s->rerun_high = v[b - 1];
	}
	for (size_t i = 0; i < n; i++)
		s->outliers += (size_t)stats_is_outlier(s, runs[i]);
	free(v);
}

int stats_is_outlier(const struct stats *s, double x)
{
	if (s->n < 3)
		return 0;
	if (s->mad == 0)
		return x != s->median && fabs(x - s->median) > 0.05 * fabs(s->median);
	return fabs(x - s->median) / (1.4826 * s->mad) > 3.5;
}

double stats_ci_percent(const struct stats *s)
{
	if (s->n < 3 || !(s->point > 0))
		return 0;
	double half = (s->ci_high - s->ci_low) / 2;
	return 100.0 * half / s->point;
}

double stats_rerun_percent(const struct stats *s)
{
	if (s->n < 3 || !(s->point > 0))
		return 0;
	return 100.0 * (s->rerun_high - s->rerun_low) / 2 / s->point;
}

double stats_rerun_coverage(size_t n, size_t m, size_t k)
{
	if (k < 1 || 2 * k > n + 1 || m < 1)
		return 0;
	/* the rerun's median is below X(k) only if ceil(m/2) of its runs are
	 * (for even m, the lower middle run is); by symmetry the same chance
	 * that it is above X(n+1-k) */
	double below = 0;
	for (size_t j = (m + 1) / 2; j <= m; j++)
		below += rerun_below_pmf(n, m, k, j);
	double cov = 1 - 2 * below;
	return cov < 0 ? 0 : cov > 1 ? 1 : cov;
}

size_t stats_rerun_rank(size_t n, double target, double *level)
{
	if (n < 3) {
		*level = 0;
		return 1;
	}
	/* coverage falls as k grows: the largest k that still reaches the
	 * target, by bisection (a coverage costs m terms) */
	size_t lo = 1, hi = (n + 1) / 2;
	double cov = stats_rerun_coverage(n, n, 1);
	if (cov >= target)
		while (lo < hi) {
			size_t mid = lo + (hi - lo + 1) / 2;
			double c = stats_rerun_coverage(n, n, mid);
			if (c >= target) {
				lo = mid;
				cov = c;
			} else {
				hi = mid - 1;
			}
		}
	*level = cov;
	return lo;
}

double stats_median_coverage(size_t n, size_t k)
{
	if (k < 1 || 2 * k > n)
		return 0;
	double sum = 0;
	for (size_t i = k; i <= n - k; i++)
		sum += binom_pmf(n, 0.5, i);
	return sum > 1 ? 1 : sum;
}

size_t stats_median_ci_rank(size_t n, double target, double *level)
{
	if (n < 3) {
		*level = 0;
		return 1;
	}
	/* widen from the middle: coverage(k-1) = coverage(k) + 2 pmf(k-1) */
	size_t k = n / 2;
	double cov = stats_median_coverage(n, k);
	while (cov < target && k > 1) {
		k--;
		cov += 2 * binom_pmf(n, 0.5, k);
	}
	*level = cov > 1 ? 1 : cov;
	return k;
}

/* splitmix64: a counter stepped by the golden ratio, then mixed */
#define SPLITMIX_STEP 0x9e3779b97f4a7c15ULL

static unsigned long long splitmix_mix(unsigned long long z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

unsigned long long stats_random(unsigned long long *state)
{
	return splitmix_mix(*state += SPLITMIX_STEP);
}

unsigned long long stats_random_at(unsigned long long seed, unsigned long long i)
{
	return splitmix_mix(seed + SPLITMIX_STEP * (i + 1));
}

void stats_shuffle(size_t *v, size_t n, unsigned long long *state)
{
	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)(stats_random(state) % i), x = v[i - 1];
		v[i - 1] = v[j];
		v[j] = x;
	}
}

void stats_free(struct stats *s)
{
	free(s->runs);
	memset(s, 0, sizeof(*s));
}

/* the spread of v as a normal's sd: 1.4826 times the median absolute deviation */
static double robust_sd(const double *v, size_t n, double *scratch)
{
	memcpy(scratch, v, n * sizeof(double));
	double med = sample_point(scratch, n, 0.5);
	for (size_t i = 0; i < n; i++)
		scratch[i] = fabs(v[i] - med);
	return 1.4826 * sample_point(scratch, n, 0.5);
}

double stats_machine_drift(const double *const *runs, const size_t *n, size_t ncells, size_t *rounds)
{
	*rounds = 0;
	size_t longest = 0, need = ncells / 2 > 10 ? ncells / 2 : 10;
	double *center = xmalloc((ncells + 1) * sizeof(double)), *v = NULL;
	for (size_t c = 0; c < ncells; c++) {
		v = xrealloc(v, (n[c] + 1) * sizeof(double));
		for (size_t i = 0; i < n[c]; i++)
			v[i] = log(runs[c][i]);
		center[c] = n[c] ? sample_point(v, n[c], 0.5) : NAN;
		longest = n[c] > longest ? n[c] : longest;
	}
	v = xrealloc(v, (ncells + 1) * sizeof(double));
	double *speed = xmalloc((longest + 1) * sizeof(double));
	for (size_t t = 0; t < longest; t++) {
		size_t k = 0;
		for (size_t c = 0; c < ncells; c++)
			if (n[c] > t && runs[c][t] > 0)
				v[k++] = log(runs[c][t]) - center[c];
		if (k >= need)
			speed[(*rounds)++] = sample_point(v, k, 0.5);
	}
	double sd = NAN;
	if (*rounds >= 5) {
		/* a passing interference (a few rounds where every cell ran far
		 * slower: a neighbour's burst) is not the machine's drift: rounds
		 * beyond MACHINE_DRIFT_OUTLIER robust sds of the rounds' median are
		 * left out, as the cells' statistic leaves their runs out */
		double *scratch = xmalloc((*rounds + 1) * sizeof(double));
		memcpy(scratch, speed, *rounds * sizeof(double));
		double mid = sample_point(scratch, *rounds, 0.5), spread = robust_sd(speed, *rounds, scratch);
		size_t kept = 0;
		for (size_t t = 0; t < *rounds; t++)
			if (!(spread > 0) || fabs(speed[t] - mid) <= MACHINE_DRIFT_OUTLIER * spread)
				speed[kept++] = speed[t];
		free(scratch);
		double mean = 0, ss = 0;
		for (size_t t = 0; t < kept; t++)
			mean += speed[t] / (double)kept;
		for (size_t t = 0; t < kept; t++)
			ss += (speed[t] - mean) * (speed[t] - mean);
		sd = kept > 1 ? sqrt(ss / (double)(kept - 1)) : 0;
	}
	free(center);
	free(v);
	free(speed);
	return sd;
}


/* The median of a chi-square with one degree of freedom: what the median
 * of d^2 / (its variance) is when the variance is right. */
#define CHI2_1_MEDIAN 0.45493642311957283

/* The median over the sequences of d^2 / (v + 2 tau2). */
static double drift_median_z2(const double *d2, const double *v, size_t k, double tau2, double *scratch)
{
	for (size_t j = 0; j < k; j++)
		scratch[j] = d2[j] / (v[j] + 2 * tau2);
	return sample_point(scratch, k, 0.5);
}

double stats_excess_variance(const double *d2, const double *v, size_t k)
{
	if (!k)
		return 0;
	double *fv = xmalloc(k * sizeof(double)), *scratch = xmalloc(k * sizeof(double)), most = 0, tau2 = 0;
	for (size_t j = 0; j < k; j++) {
		/* floored: a difference without noise still has a finite weight */
		fv[j] = fmax(v[j], 1e-12);
		most = fmax(most, d2[j]);
	}
	/* The median, not the mean, of the standardized squares: the noise
	 * of a few multimodal cells (a pipe's wake-ups) is larger than their
	 * spread says, and under a mean their squares alone set the excess of
	 * every other (a run's ratio drift: 0 % in one run, 3.2 % in the
	 * next, here).  tau^2 is where that median is a chi-square's. */
	if (drift_median_z2(d2, fv, k, 0, scratch) > CHI2_1_MEDIAN) {
		/* at hi every square is under the median: the root is below */
		double lo = 0, hi = most / CHI2_1_MEDIAN;
		for (int it = 0; it < 200 && hi - lo > 1e-15; it++) {
			double mid = (lo + hi) / 2;
			if (drift_median_z2(d2, fv, k, mid, scratch) > CHI2_1_MEDIAN)
				lo = mid;
			else
				hi = mid;
		}
		tau2 = (lo + hi) / 2;
	}
	free(scratch);
	free(fv);
	return tau2;
}

double stats_median_noise(const double *v, size_t n, double *median)
{
	*median = NAN;
	if (n < 3)
		return NAN;
	double *scratch = xmalloc(n * sizeof(double));
	double sd = robust_sd(v, n, scratch);
	memcpy(scratch, v, n * sizeof(double));
	*median = sample_point(scratch, n, 0.5);
	free(scratch);
	return M_PI / 2 * sd * sd / (double)n;
}

double stats_ratio_drift(const double *const *logr, const size_t *n, size_t k, size_t *used)
{
	double *d2 = xmalloc((k + 1) * sizeof(double)), *v = xmalloc((k + 1) * sizeof(double));
	*used = 0;
	for (size_t j = 0; j < k; j++) {
		size_t h = n[j] / 2, m = n[j] - h;
		if (n[j] < 8)
			continue;
		double *scratch = xmalloc(n[j] * sizeof(double));
		/* the noise within each half, about its own level: a shift between
		 * the halves is not noise */
		double s1 = robust_sd(logr[j], h, scratch), s2 = robust_sd(logr[j] + h, m, scratch);
		double sd = sqrt((s1 * s1 + s2 * s2) / 2);
		memcpy(scratch, logr[j], n[j] * sizeof(double));
		double first = sample_point(scratch, h, 0.5), second = sample_point(scratch + h, m, 0.5);
		d2[*used] = (first - second) * (first - second);
		v[*used] = M_PI / 2 * sd * sd * (1.0 / (double)h + 1.0 / (double)m);
		(*used)++;
		free(scratch);
	}
	double tau = *used >= 5 ? sqrt(stats_excess_variance(d2, v, *used)) : NAN;
	free(d2);
	free(v);
	return tau;
}

json_t *stats_to_json(const struct stats *s)
{
	json_t *runs = json_array();
	for (size_t i = 0; i < s->n; i++)
		json_array_append_new(runs, json_real(s->runs[i]));
	json_t *outl = json_array();
	for (size_t i = 0; i < s->n; i++)
		if (stats_is_outlier(s, s->runs[i]))
			json_array_append_new(outl, json_integer((json_int_t)i));
	int has = s->n >= 3, is95 = has && s->ci_level >= STATS_CI_TARGET;
	char name[32];
	json_t *j = json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "statistic",
			      stats_statistic_name(s->quantile, name, sizeof(name)), "value", jnum_or_null(s->point),
			      "median", jnum_or_null(s->median), "mean", jnum_or_null(s->mean), "stddev",
			      jnum_or_null(s->stddev), "min", jnum_or_null(s->min), "max", jnum_or_null(s->max), "mad",
			      jnum_or_null(s->mad), "cv", jnum_or_null(s->cv), "outliers", outl, "runs", runs);
	json_object_set_new(j, "ci",
			    has ? json_pack("[o,o]", jnum_or_null(s->ci_low), jnum_or_null(s->ci_high)) : json_null());
	json_object_set_new(j, "ci_level", has ? json_real(s->ci_level) : json_null());
	json_object_set_new(j, "ci_percent", has ? jnum_or_null(stats_ci_percent(s)) : json_null());
	/* the old names keep their meaning: only an interval that reaches 95 % */
	json_object_set_new(j, "ci95",
			    is95 ? json_pack("[o,o]", jnum_or_null(s->ci_low), jnum_or_null(s->ci_high)) : json_null());
	json_object_set_new(j, "ci95_percent", is95 ? jnum_or_null(stats_ci_percent(s)) : json_null());
	json_object_set_new(j, "rerun",
			    has ? json_pack("[o,o]", jnum_or_null(s->rerun_low), jnum_or_null(s->rerun_high)) : json_null());
	json_object_set_new(j, "rerun_level", has ? json_real(s->rerun_level) : json_null());
	json_object_set_new(j, "rerun_percent", has ? jnum_or_null(stats_rerun_percent(s)) : json_null());
	return j;
}

int stats_from_json(struct stats *s, const json_t *j)
{
	json_t *runs = json_object_get(j, "runs");
	if (!json_is_array(runs))
		return -1;
	size_t n = json_array_size(runs);
	double *v = xmalloc((n ? n : 1) * sizeof(double));
	for (size_t i = 0; i < n; i++)
		v[i] = json_number_value(json_array_get(runs, i));
	double quantile;
	if (stats_statistic_parse(json_string_value(json_object_get(j, "statistic")), &quantile) < 0)
		quantile = 0.5;
	stats_compute_at(s, v, n, quantile);
	free(v);
	return 0;
}

double stats_t_critical(double confidence, double df)
{
	if (!(confidence > 0 && confidence < 1) || !(df > 0))
		return NAN;
	/* GSL's default handler aborts on a failed inversion: off for the
	 * call, a NAN then says so */
	gsl_error_handler_t *old = gsl_set_error_handler_off();
	double t = gsl_cdf_tdist_Pinv(1 - (1 - confidence) / 2, df);
	gsl_set_error_handler(old);
	return isfinite(t) && t > 0 ? t : NAN;
}
