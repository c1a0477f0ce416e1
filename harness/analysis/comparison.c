/* comparison.c: see comparison.h */
#define _GNU_SOURCE
#include "analysis/comparison.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "core/stats.h"
#include "core/util.h"
#include "pipeline/plan.h"

int comparison_same_binary(const struct comparison_side *a, const struct comparison_side *b)
{
	return a->program && b->program && program_id_same(a->program, b->program);
}

static int valid_side(const struct comparison_side *s)
{
	if (s->n && !s->runs)
		return 0;
	for (size_t i = 0; i < s->n; i++)
		if (!isfinite(s->runs[i].seconds) || !(s->runs[i].seconds > 0))
			return 0;
	return 1;
}

static int valid_policy(const struct comparison_policy *p)
{
	return p->level > 0 && p->level < 1 && p->quantile >= 0 && p->quantile < 1 && p->threshold >= 0 &&
	       isfinite(p->threshold) && p->same_band >= 0 && isfinite(p->same_band) && p->resamples >= 100 &&
	       p->ratio_drift >= 0 && isfinite(p->ratio_drift) && isfinite(p->machine_shift) && p->machine_sd >= 0 &&
	       isfinite(p->machine_sd);
}

static int has_rounds(const struct comparison_side *s)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->runs[i].round >= 0)
			return 1;
	return 0;
}

static int has_layouts(const struct comparison_side *s)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->runs[i].layout >= 0)
			return 1;
	return 0;
}

/* Pairing: runs keyed by (pass, round[, layout]); the k-th run of a key on
 * one side meets the k-th of the same key on the other. */
struct pair_key {
	int pass, round, layout;
	size_t index;
};

static int cmp_key_only(const struct pair_key *x, const struct pair_key *y)
{
	if (x->pass != y->pass)
		return x->pass < y->pass ? -1 : 1;
	if (x->round != y->round)
		return x->round < y->round ? -1 : 1;
	if (x->layout != y->layout)
		return x->layout < y->layout ? -1 : 1;
	return 0;
}

static int cmp_key(const void *x, const void *y)
{
	const struct pair_key *u = x, *v = y;
	int c = cmp_key_only(u, v);
	return c ? c : (u->index > v->index) - (u->index < v->index);
}

/* The runs of s with a round (in layout `only` unless that is
 * COMPARISON_UNKNOWN), sorted by key; returns how many. */
static size_t keys_of(const struct comparison_side *s, int by_layout, int only, struct pair_key *keys)
{
	size_t k = 0;
	for (size_t i = 0; i < s->n; i++) {
		const struct comparison_run *r = &s->runs[i];
		if (r->round < 0 || (only != COMPARISON_UNKNOWN && r->layout != only))
			continue;
		keys[k].pass = r->pass;
		keys[k].round = r->round;
		keys[k].layout = by_layout ? r->layout : COMPARISON_UNKNOWN;
		keys[k].index = i;
		k++;
	}
	qsort(keys, k, sizeof(*keys), cmp_key);
	return k;
}

/* d[0..n) = log(b / a) of each pair, sorted; returns n.  d holds min(na, nb). */
static size_t paired_logs(const struct comparison_side *a, const struct comparison_side *b, int by_layout, int only,
			  double *d)
{
	struct pair_key *ka = xmalloc((a->n + 1) * sizeof(*ka)), *kb = xmalloc((b->n + 1) * sizeof(*kb));
	size_t na = keys_of(a, by_layout, only, ka), nb = keys_of(b, by_layout, only, kb);
	size_t i = 0, j = 0, n = 0;
	while (i < na && j < nb) {
		int c = cmp_key_only(&ka[i], &kb[j]);
		if (c < 0) {
			i++;
		} else if (c > 0) {
			j++;
		} else {
			d[n++] = log(b->runs[kb[j].index].seconds) - log(a->runs[ka[i].index].seconds);
			i++;
			j++;
		}
	}
	free(ka);
	free(kb);
	qsort(d, n, sizeof(*d), stats_cmp_double);
	return n;
}

/* The exact two-sided sign test of median d = 0 (zeros dropped). */
static double sign_test_p(const double *d, size_t n)
{
	size_t below = 0, above = 0;
	for (size_t i = 0; i < n; i++) {
		below += d[i] < 0;
		above += d[i] > 0;
	}
	size_t m = below + above, fewer = below < above ? below : above;
	if (!m)
		return 1;
	double p = 2 * gsl_cdf_binomial_P((unsigned)fewer, 0.5, (unsigned)m);
	return p > 1 ? 1 : p;
}

/* Log bounds of one answer before they become ratios. */
struct log_interval {
	double point, low, high;
};

static void paired_interval(const double *d, size_t n, double level, struct log_interval *li, double *reached)
{
	size_t k = stats_median_ci_rank(n, level, reached);
	li->point = stats_median_sorted(d, n);
	li->low = d[k - 1];
	li->high = d[n - k];
}

/* FNV-1a over a side's sorted times: its resamples depend on what it
 * holds, not on whether it is A or B, nor on the order of its runs. */
static uint64_t times_hash(const double *sorted, size_t n)
{
	return fnv1a(FNV1A_OFFSET, sorted, n * sizeof(double)) ^ (uint64_t)n;
}

static unsigned long long stream_seed(unsigned long long seed, uint64_t self, uint64_t other)
{
	unsigned long long st = seed ^ (self * 0x9e3779b97f4a7c15ULL) ^ ((other << 29) | (other >> 35));
	return stats_random(&st);
}

/* log of the statistic of one resample of sorted[0..n), drawn as counts
 * per run: the r-th smallest is found by a scan, no sort. */
static double resampled_log_point(const double *sorted, size_t n, size_t *counts, double quantile,
				  unsigned long long *state)
{
	memset(counts, 0, n * sizeof(*counts));
	for (size_t i = 0; i < n; i++)
		counts[stats_random(state) % n]++;
	size_t r = stats_quantile_rank(n, quantile);
	size_t lo_rank = r ? r : (n + 1) / 2, hi_rank = r ? r : n / 2 + 1;
	double lo = NAN, hi = NAN;
	size_t seen = 0;
	for (size_t j = 0; j < n && isnan(hi); j++) {
		seen += counts[j];
		if (isnan(lo) && seen >= lo_rank)
			lo = sorted[j];
		if (seen >= hi_rank)
			hi = sorted[j];
	}
	return log(lo_rank == hi_rank ? lo : (lo + hi) / 2);
}

static double *sorted_times(const struct comparison_side *s)
{
	double *v = xmalloc((s->n + 1) * sizeof(double));
	for (size_t i = 0; i < s->n; i++)
		v[i] = s->runs[i].seconds;
	qsort(v, s->n, sizeof(double), stats_cmp_double);
	return v;
}

static void independent(const struct comparison_side *a, const struct comparison_side *b,
			const struct comparison_policy *policy, struct log_interval *li, double *p_value)
{
	double *va = sorted_times(a), *vb = sorted_times(b);
	size_t *counts = xmalloc((a->n > b->n ? a->n : b->n) * sizeof(size_t));
	unsigned rs = policy->resamples;
	double *lr = xmalloc(rs * sizeof(double));
	uint64_t ha = times_hash(va, a->n), hb = times_hash(vb, b->n);
	unsigned long long sa = stream_seed(policy->seed, ha, hb), sb = stream_seed(policy->seed, hb, ha);
	if (sa == sb)
		sb ^= 0x5851f42d4c957f2dULL;
	li->point = log(stats_point_sorted(vb, b->n, policy->quantile)) - log(stats_point_sorted(va, a->n, policy->quantile));
	size_t ge = 0, le = 0;
	for (unsigned r = 0; r < rs; r++) {
		double la = resampled_log_point(va, a->n, counts, policy->quantile, &sa);
		double lb = resampled_log_point(vb, b->n, counts, policy->quantile, &sb);
		lr[r] = lb - la;
		ge += lr[r] >= 0;
		le += lr[r] <= 0;
	}
	qsort(lr, rs, sizeof(double), stats_cmp_double);
	/* the percentiles at (1 -+ level) / 2, one index the mirror of the other */
	size_t lo = (size_t)floor((1 - policy->level) / 2 * (double)(rs - 1)), hi = rs - 1 - lo;
	li->low = lr[lo] < li->point ? lr[lo] : li->point;
	li->high = lr[hi] > li->point ? lr[hi] : li->point;
	double fewer = (double)((ge < le ? ge : le) + 1) / ((double)rs + 1);
	*p_value = 2 * fewer > 1 ? 1 : 2 * fewer;
	free(va);
	free(vb);
	free(counts);
	free(lr);
}

/* the layouts with runs on s, sorted, distinct */
static size_t layouts_of(const struct comparison_side *s, int *out)
{
	size_t k = 0;
	for (size_t i = 0; i < s->n; i++)
		if (s->runs[i].layout >= 0)
			out[k++] = s->runs[i].layout;
	for (size_t i = 1; i < k; i++) /* insertion sort: few runs */
		for (size_t j = i; j > 0 && out[j - 1] > out[j]; j--) {
			int t = out[j];
			out[j] = out[j - 1];
			out[j - 1] = t;
		}
	size_t m = 0;
	for (size_t i = 0; i < k; i++)
		if (!m || out[m - 1] != out[i])
			out[m++] = out[i];
	return m;
}

/* the layouts both sides have; returns how many */
static size_t common_layouts(const struct comparison_side *a, const struct comparison_side *b, int **out)
{
	int *la = xmalloc((a->n + 1) * sizeof(int)), *lb = xmalloc((b->n + 1) * sizeof(int));
	size_t na = layouts_of(a, la), nb = layouts_of(b, lb), i = 0, j = 0, k = 0;
	while (i < na && j < nb) {
		if (la[i] < lb[j])
			i++;
		else if (la[i] > lb[j])
			j++;
		else
			la[k++] = la[i], i++, j++;
	}
	free(lb);
	*out = la;
	return k;
}

/* the sorted times of s in layout l; returns how many */
static size_t layout_times(const struct comparison_side *s, int l, double *v)
{
	size_t k = 0;
	for (size_t i = 0; i < s->n; i++)
		if (s->runs[i].layout == l)
			v[k++] = s->runs[i].seconds;
	qsort(v, k, sizeof(double), stats_cmp_double);
	return k;
}

static void across_layouts(const struct comparison_side *a, const struct comparison_side *b, const int *layouts,
			   size_t nl, const struct comparison_policy *policy, struct log_interval *li,
			   struct comparison_result *out)
{
	int by_rounds = has_rounds(a) && has_rounds(b);
	double *est = xmalloc(nl * sizeof(double));
	double *d = xmalloc((a->n + b->n + 1) * sizeof(double));
	double *va = xmalloc((a->n + 1) * sizeof(double)), *vb = xmalloc((b->n + 1) * sizeof(double));
	double sum = 0;
	for (size_t k = 0; k < nl; k++) {
		size_t np = by_rounds ? paired_logs(a, b, 1, layouts[k], d) : 0;
		size_t na = layout_times(a, layouts[k], va), nb = layout_times(b, layouts[k], vb);
		if (np >= COMPARISON_MIN_LAYOUT_PAIRS) {
			est[k] = stats_median_sorted(d, np);
			out->pairs += np;
			out->runs_a += np;
			out->runs_b += np;
		} else {
			est[k] = log(stats_point_sorted(vb, nb, policy->quantile)) -
				 log(stats_point_sorted(va, na, policy->quantile));
			out->runs_a += na;
			out->runs_b += nb;
		}
		sum += est[k];
	}
	double mean = sum / (double)nl, ss = 0;
	for (size_t k = 0; k < nl; k++)
		ss += (est[k] - mean) * (est[k] - mean);
	double sd = sqrt(ss / (double)(nl - 1)), se = sd / sqrt((double)nl), df = (double)(nl - 1);
	double t = stats_t_critical(policy->level, df);
	li->point = mean;
	li->low = mean - t * se;
	li->high = mean + t * se;
	out->layouts = nl;
	out->layout_spread = sd;
	out->p_value = se > 0 ? 2 * gsl_cdf_tdist_Q(fabs(mean) / se, df) : mean == 0 ? 1 : 0;
	out->level_reached = policy->level;
	free(est);
	free(d);
	free(va);
	free(vb);
}

static enum comparison_verdict decide_log(double low, double high, double threshold, double same_band)
{
	if (!(low <= high))
		return VERDICT_NO_DATA;
	double lead = log1p(threshold), band = log1p(same_band);
	if (high < -lead)
		return VERDICT_FASTER;
	if (low > lead)
		return VERDICT_SLOWER;
	if (low >= -band && high <= band)
		return VERDICT_SAME;
	return VERDICT_INCONCLUSIVE;
}

enum comparison_verdict comparison_decide(double low, double high, double threshold, double same_band)
{
	if (!(low > 0) || !(high > 0) || !isfinite(low) || !isfinite(high))
		return VERDICT_NO_DATA;
	return decide_log(log(low), log(high), threshold, same_band);
}

static void no_data(const struct comparison_policy *policy, struct comparison_result *out)
{
	memset(out, 0, sizeof(*out));
	out->ratio = out->low = out->high = NAN;
	out->level = policy ? policy->level : NAN;
	out->level_reached = 0;
	out->method = COMPARISON_NONE;
	out->verdict = VERDICT_NO_DATA;
	out->layout_spread = NAN;
	out->p_value = NAN;
	out->machine_shift = 1;
}

/* What is added to an interval from its own runs: the run's ratio drift
 * (policy.ratio_drift) and, between two runs, the machine's shift taken
 * out and its sd (policy.machine_shift, machine_sd).  Each half of the
 * interval is read as z standard errors of the log ratio, the variance
 * added, the interval and the p-value (a normal test on the widened error
 * of the half toward 1.00x) made again from it, so that the test and the
 * interval stay one: never below the method's own p where nothing was
 * moved; where the shift moved the point, the method's own p is of the
 * unmoved ratio and the normal test alone holds.  Each half on its own: a
 * sign-test interval of few pairs is lopsided where one pair lies far
 * out, and widening both halves by the longer made a 0.24 % drift turn 14
 * pairs all on one side ([1.2 %, 4.9 %]) into a tie ([-0.5 %, 5.0 %]) on
 * the VM here.  Layouts take no drift: their interval is already over
 * effects that differ between builds. */
static void widen(const struct comparison_policy *policy, struct log_interval *li, struct comparison_result *out)
{
	double d2 = 0, shift = policy->machine_shift;
	if (policy->ratio_drift > 0 && out->method != COMPARISON_ACROSS_LAYOUTS) {
		d2 += policy->ratio_drift * policy->ratio_drift;
		out->drift_widened = policy->ratio_drift;
	}
	if (policy->machine_sd > 0) {
		d2 += policy->machine_sd * policy->machine_sd;
		out->machine_widened = policy->machine_sd;
	}
	out->machine_shift = exp(shift);
	double z = stats_t_critical(policy->level, 1e9);
	double below = li->point - li->low, above = li->high - li->point;
	if ((d2 == 0 && shift == 0) || !(z > 0) || !isfinite(below) || !isfinite(above))
		return;
	double se_below = sqrt((below / z) * (below / z) + d2), se_above = sqrt((above / z) * (above / z) + d2);
	li->point -= shift;
	li->low = li->point - z * se_below;
	li->high = li->point + z * se_above;
	/* the half that reaches toward no difference decides the test */
	double se = li->point > 0 ? se_below : se_above;
	double p = se > 0 ? erfc(fabs(li->point) / se / sqrt(2)) : li->point == 0 ? 1 : 0;
	if (shift != 0) {
		out->p_value = p;
		out->p_floor = 0;
	} else if (!(out->p_value >= p)) {
		out->p_value = p;
	}
}

void comparison_machine(const struct comparison_result *controls, size_t k, struct comparison_machine *out)
{
	*out = (struct comparison_machine){ .controls = k, .shift = NAN, .spread = NAN, .sd = NAN };
	if (k < COMPARISON_MIN_CONTROLS)
		return;
	double *lr = xmalloc(k * sizeof(double)), *v = xmalloc(k * sizeof(double)), *d2 = xmalloc(k * sizeof(double));
	double mean_v = 0;
	for (size_t i = 0; i < k; i++) {
		const struct comparison_result *c = &controls[i];
		double z = stats_t_critical(c->level > 0 && c->level < 1 ? c->level : 0.95, 1e9);
		lr[i] = log(c->ratio);
		/* its own noise: the interval's half widths as z errors */
		double half = (log(c->high) - log(c->low)) / 2 / z;
		v[i] = isfinite(half) ? half * half : 0;
		mean_v += v[i] / (double)k;
	}
	double median, median_var = stats_median_noise(lr, k, &median);
	for (size_t i = 0; i < k; i++)
		d2[i] = (lr[i] - median) * (lr[i] - median);
	/* the fit's excess is of a difference of two looks (2 tau^2); here each
	 * control is one look against the median */
	double spread2 = 2 * stats_excess_variance(d2, v, k);
	double floor_var = M_PI / 2 * (mean_v + spread2) / (double)k;
	if (!(median_var >= floor_var))
		median_var = floor_var;
	out->shift = exp(median);
	out->spread = sqrt(spread2);
	out->sd = sqrt(spread2 + median_var);
	free(lr);
	free(v);
	free(d2);
}

static int compute_runs(const struct comparison_side *a, const struct comparison_side *b,
			const struct comparison_policy *policy, struct comparison_result *out)
{
	no_data(policy, out);
	if (!policy || !valid_policy(policy) || !valid_side(a) || !valid_side(b))
		return -1;
	if (comparison_same_binary(a, b)) {
		out->ratio = out->low = out->high = 1;
		out->level_reached = 1;
		out->method = COMPARISON_IDENTICAL;
		out->verdict = VERDICT_SAME_BINARY;
		out->runs_a = a->n;
		out->runs_b = b->n;
		return 0;
	}
	struct log_interval li = { NAN, NAN, NAN };
	int *layouts;
	size_t nl = common_layouts(a, b, &layouts);
	if (nl >= 2) {
		out->method = COMPARISON_ACROSS_LAYOUTS;
		across_layouts(a, b, layouts, nl, policy, &li, out);
	} else {
		double *d = xmalloc((a->n + b->n + 1) * sizeof(double));
		size_t np = has_rounds(a) && has_rounds(b)
				    ? paired_logs(a, b, has_layouts(a) && has_layouts(b), COMPARISON_UNKNOWN, d)
				    : 0;
		if (np >= COMPARISON_MIN_PAIRS) {
			out->method = COMPARISON_PAIRED;
			paired_interval(d, np, policy->level, &li, &out->level_reached);
			out->p_value = sign_test_p(d, np);
			/* every pair on one side: 2 / 2^m, m the pairs not tied */
			size_t m = 0;
			for (size_t i = 0; i < np; i++)
				m += d[i] != 0;
			out->p_floor = m ? fmin(1, 2 * pow(0.5, (double)m)) : 1;
			out->pairs = out->runs_a = out->runs_b = np;
		} else if (a->n >= COMPARISON_MIN_RUNS && b->n >= COMPARISON_MIN_RUNS) {
			out->method = COMPARISON_INDEPENDENT;
			independent(a, b, policy, &li, &out->p_value);
			/* every resample on one side: 2 / (resamples + 1) */
			out->p_floor = 2.0 / ((double)policy->resamples + 1);
			out->level_reached = policy->level;
			out->runs_a = a->n;
			out->runs_b = b->n;
		}
		free(d);
	}
	free(layouts);
	if (out->method == COMPARISON_NONE) {
		out->runs_a = a->n;
		out->runs_b = b->n;
		return 0;
	}
	widen(policy, &li, out);
	out->ratio = exp(li.point);
	out->low = exp(li.low);
	out->high = exp(li.high);
	out->verdict = decide_log(li.low, li.high, policy->threshold, policy->same_band);
	/* an interval short of the level asked cannot answer at that level */
	if (out->level_reached < policy->level && out->verdict != VERDICT_NO_DATA)
		out->verdict = VERDICT_INCONCLUSIVE;
	return 0;
}

const char *comparison_verdict_word(enum comparison_verdict v)
{
	switch (v) {
	case VERDICT_FASTER:
		return "faster";
	case VERDICT_SLOWER:
		return "slower";
	case VERDICT_SAME:
		return "same";
	case VERDICT_INCONCLUSIVE:
		return "inconclusive";
	case VERDICT_SAME_BINARY:
		return "same binary";
	case VERDICT_NO_DATA:
		break;
	}
	return "n/a";
}

const char *metric_name(enum metric m)
{
	return m == METRIC_INSTRUCTIONS ? "instructions" : m == METRIC_CYCLES ? "cycles" : "time";
}

int metric_parse(const char *name, enum metric *out)
{
	if (!strcmp(name, "time"))
		*out = METRIC_TIME;
	else if (!strcmp(name, "instructions"))
		*out = METRIC_INSTRUCTIONS;
	else if (!strcmp(name, "cycles"))
		*out = METRIC_CYCLES;
	else
		return -1;
	return 0;
}

int comparison_counts(double a, double b, const struct program_id *pa, const struct program_id *pb,
		      const struct comparison_policy *policy, struct comparison_result *out)
{
	memset(out, 0, sizeof(*out));
	out->ratio = out->low = out->high = out->p_value = out->layout_spread = NAN;
	out->level = policy->level;
	out->verdict = VERDICT_NO_DATA;
	if (pa && pb && program_id_same(pa, pb)) {
		out->method = COMPARISON_IDENTICAL;
		out->ratio = out->low = out->high = 1;
		out->level_reached = 1;
		out->verdict = VERDICT_SAME_BINARY;
		return 0;
	}
	if (!(a > 0 && b > 0 && isfinite(a) && isfinite(b)))
		return -1;
	out->method = COMPARISON_EXACT;
	out->ratio = out->low = out->high = b / a;
	out->level_reached = 1;
	out->runs_a = out->runs_b = 1;
	out->verdict = comparison_decide(out->ratio, out->ratio, policy->threshold, policy->same_band);
	return 0;
}

/* How far an interval's near end lies beyond 1 + t, in standard errors of
 * the log ratio plus the critical value: the z its ends say. */
static double interval_z(const struct comparison_result *c, double threshold)
{
	if (!(c->low > 0 && c->high > 0) || !isfinite(c->low) || !isfinite(c->high))
		return NAN;
	double p = log(c->ratio), lo = log(c->low), hi = log(c->high), edge = log1p(threshold);
	int slower = p > 0;
	double half = slower ? p - lo : hi - p, margin = slower ? lo - edge : -edge - hi;
	double level = c->level_reached > c->level && c->level_reached < 1 ? c->level_reached : c->level;
	double zc = gsl_cdf_ugaussian_Qinv((1 - level) / 2);
	/* a near end at the point itself (the pairs between tied): as far
	 * beyond the line as can be where the end clears it */
	if (!(half > 0))
		return margin > 0 ? INFINITY : NAN;
	return zc + margin / (half / zc);
}

double comparison_repeat_chance(const struct comparison_result *c, double threshold)
{
	if (!c || (c->verdict != VERDICT_FASTER && c->verdict != VERDICT_SLOWER && c->verdict != VERDICT_INCONCLUSIVE))
		return NAN;
	if (c->method == COMPARISON_EXACT)
		return c->verdict == VERDICT_INCONCLUSIVE ? NAN : 1;
	if (!(c->p_value >= 0 && c->p_value <= 1) || !(c->level > 0 && c->level < 1) || !(c->ratio > 0) ||
	    !isfinite(c->ratio) || !(threshold >= 0))
		return NAN;
	double z = gsl_cdf_ugaussian_Qinv(c->p_value / 2), zc = gsl_cdf_ugaussian_Qinv((1 - c->level) / 2);
	/* a threshold: the distance to 1 + t, not to 1, in the same errors */
	double lr = fabs(log(c->ratio));
	if (threshold > 0)
		z = lr > 0 ? z * (1 - log1p(threshold) / lr) : -INFINITY;
	/* a p-value at its method's floor says "at most": a 2x lead of 13
	 * pairs all one way has the sign test's 2 / 2^13 as any 1.1x lead
	 * does; there the interval's ends say how far beyond the line it is */
	if (c->p_value <= c->p_floor * (1 + 1e-9)) {
		double zi = interval_z(c, threshold);
		z = zi > z ? zi : z;
	}
	if (isinf(z))
		return z > 0 ? 1 : 0;
	/* Phi((z - z_crit) / sqrt 2) */
	return 0.5 * erfc(-(z - zc) / 2);
}

double comparison_repeat_chance_at(double z, double level)
{
	if (!(level > 0 && level < 1) || isnan(z))
		return NAN;
	if (isinf(z))
		return z > 0 ? 1 : 0;
	return 0.5 * erfc(-(z - gsl_cdf_ugaussian_Qinv((1 - level) / 2)) / 2);
}

int comparison_may_flip(enum comparison_verdict verdict, double repeat)
{
	if (verdict == VERDICT_FASTER || verdict == VERDICT_SLOWER)
		return repeat < COMPARISON_REPEAT_SURE;
	return verdict == VERDICT_INCONCLUSIVE && repeat >= COMPARISON_REPEAT_SHOWN;
}

const char *comparison_method_word(enum comparison_method m)
{
	switch (m) {
	case COMPARISON_EXACT:
		return "exact";
	case COMPARISON_PAIRED:
		return "paired";
	case COMPARISON_INDEPENDENT:
		return "independent";
	case COMPARISON_ACROSS_LAYOUTS:
		return "across layouts";
	case COMPARISON_IDENTICAL:
		return "identical";
	case COMPARISON_NONE:
		break;
	}
	return "none";
}

int comparison_describe(const struct comparison_result *c, char *buf, size_t len)
{
	const char *word = comparison_verdict_word(c->verdict);
	if (c->method == COMPARISON_IDENTICAL)
		return snprintf(buf, len, "1.000x, %s: a difference is the machine's", word);
	if (c->method == COMPARISON_NONE)
		return snprintf(buf, len, "%s: too few runs (%zu and %zu)", word, c->runs_a, c->runs_b);
	if (c->method == COMPARISON_EXACT)
		return snprintf(buf, len, "%.3fx (exact counts), %s", c->ratio, word);
	char level[64] = "";
	if (c->level_reached < c->level)
		snprintf(level, sizeof(level), " at %.4g %% (%.4g %% asked),", 100 * c->level_reached, 100 * c->level);
	else if (fabs(c->level - 0.95) > 1e-9)
		snprintf(level, sizeof(level), " at %.4g %%,", 100 * c->level);
	char how[96];
	if (c->method == COMPARISON_PAIRED)
		snprintf(how, sizeof(how), "paired over %zu rounds", c->pairs);
	else if (c->method == COMPARISON_INDEPENDENT)
		snprintf(how, sizeof(how), "independent, %zu and %zu runs", c->runs_a, c->runs_b);
	else
		snprintf(how, sizeof(how), "across %zu layouts (spread %.1f %%)", c->layouts, 100 * c->layout_spread);
	return snprintf(buf, len, "%.3fx [%.3fx, %.3fx]%s %s, %s", c->ratio, c->low, c->high, level, how, word);
}

struct ranked_p {
	double p;
	size_t index;
};

static int cmp_ranked(const void *x, const void *y)
{
	const struct ranked_p *u = x, *v = y;
	if (u->p != v->p)
		return u->p < v->p ? -1 : 1;
	return (u->index > v->index) - (u->index < v->index);
}

size_t comparison_select(const double *p_values, size_t m, double alpha, enum comparison_lead *lead,
			 double *level)
{
	for (size_t i = 0; i < m; i++)
		lead[i] = LEAD_NOT_SHOWN;
	*level = NAN;
	if (!m || !(alpha > 0 && alpha < 1))
		return 0;
	struct ranked_p *r = xmalloc(m * sizeof(*r));
	for (size_t i = 0; i < m; i++) {
		r[i].p = isnan(p_values[i]) ? 1 : p_values[i];
		r[i].index = i;
	}
	qsort(r, m, sizeof(*r), cmp_ranked);
	/* step up: the largest rank i whose p is within i alpha / m, and every
	 * comparison ranked before it */
	size_t selected = 0;
	for (size_t i = 1; i <= m; i++)
		if (r[i - 1].p <= (double)i * alpha / (double)m)
			selected = i;
	for (size_t i = 0; i < selected; i++)
		lead[r[i].index] = LEAD_REAL;
	free(r);
	*level = selected ? 1 - (double)selected * alpha / (double)m : comparison_bonferroni_level(alpha, m);
	return selected;
}

double comparison_bonferroni_level(double alpha, size_t m)
{
	return m ? 1 - alpha / (double)m : NAN;
}

/* The state every run of both sides is in; 0 where a run's is not known,
 * COMPARISON_ACROSS_STATES where they differ. */
static unsigned sides_state(const struct comparison_side *a, const struct comparison_side *b)
{
	unsigned st = a->n ? a->runs[0].state : b->n ? b->runs[0].state : 0;
	for (int side = 0; side < 2; side++) {
		const struct comparison_side *x = side ? b : a;
		for (size_t i = 0; i < x->n; i++) {
			if (!x->runs[i].state || x->runs[i].state > COMPARISON_STATES)
				return 0;
			if (x->runs[i].state != st)
				st = COMPARISON_ACROSS_STATES;
		}
	}
	return st;
}

/* x's runs in state st, into r (room for x->n). */
static struct comparison_side in_state(const struct comparison_side *x, unsigned st, struct comparison_run *r)
{
	struct comparison_side s = { .runs = r, .n = 0, .program = x->program };
	for (size_t i = 0; i < x->n; i++)
		if (x->runs[i].state == st)
			r[s.n++] = x->runs[i];
	return s;
}

int comparison_compute(const struct comparison_side *a, const struct comparison_side *b,
		       const struct comparison_policy *policy, struct comparison_result *out)
{
	unsigned st = policy && valid_side(a) && valid_side(b) && !comparison_same_binary(a, b) ? sides_state(a, b) : 0;
	if (st != COMPARISON_ACROSS_STATES) {
		int v = compute_runs(a, b, policy, out);
		out->state = st;
		return v;
	}
	struct comparison_run *ra = xmalloc((a->n + 1) * sizeof(*ra)), *rb = xmalloc((b->n + 1) * sizeof(*rb));
	int rounds = has_rounds(a) && has_rounds(b);
	for (unsigned s = 1; s <= COMPARISON_STATES; s++) {
		struct comparison_side sa = in_state(a, s, ra), sb = in_state(b, s, rb);
		if (sa.n < COMPARISON_MIN_RUNS || sb.n < COMPARISON_MIN_RUNS)
			continue;
		int v = compute_runs(&sa, &sb, policy, out);
		/* with rounds on both sides, paired within the state or not at all */
		if (v == 0 && out->method != COMPARISON_NONE && (!rounds || out->method != COMPARISON_INDEPENDENT)) {
			out->state = s;
			free(ra);
			free(rb);
			return 0;
		}
	}
	free(ra);
	free(rb);
	int v = compute_runs(a, b, policy, out);
	out->state = COMPARISON_ACROSS_STATES;
	if (out->verdict == VERDICT_FASTER || out->verdict == VERDICT_SLOWER)
		out->verdict = VERDICT_INCONCLUSIVE;
	return v;
}
