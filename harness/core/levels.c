/* levels.c: see levels.h */
#include "core/levels.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/stats.h"
#include "core/util.h"

/* The sorted logs, binned: count, sum and sum of squares per non-empty
 * bin, as prefix sums (index 0 empty). */
struct bins {
	size_t m;
	size_t *c;
	double *s, *q;
};

static double sse(const struct bins *b, size_t i, size_t j) /* bins [i, j) */
{
	double c = (double)(b->c[j] - b->c[i]), s = b->s[j] - b->s[i], q = b->q[j] - b->q[i];
	double v = q - s * s / c;
	return v > 0 ? v : 0;
}

static double mean(const struct bins *b, size_t i, size_t j)
{
	return (b->s[j] - b->s[i]) / (double)(b->c[j] - b->c[i]);
}

/* Whether the partition at cuts cut[0..k] (cut[0] 0, cut[k] m) passes
 * levels.h's tests. */
static int passes(const struct bins *b, const size_t *cut, unsigned k)
{
	size_t n = b->c[b->m], least = (size_t)ceil(LEVELS_MIN_SHARE * (double)n);
	if (least < LEVELS_MIN_READINGS)
		least = LEVELS_MIN_READINGS;
	double within = 0;
	for (unsigned g = 0; g < k; g++) {
		if (b->c[cut[g + 1]] - b->c[cut[g]] < least)
			return 0;
		within += sse(b, cut[g], cut[g + 1]);
	}
	double sd = n > k ? sqrt(within / (double)(n - k)) : 0;
	for (unsigned g = 0; g + 1 < k; g++) {
		double d = mean(b, cut[g + 1], cut[g + 2]) - mean(b, cut[g], cut[g + 1]);
		if (d < log(LEVELS_MIN_FACTOR) || d < LEVELS_MIN_SEPARATION * sd)
			return 0;
	}
	return 1;
}

/* The least-squares cuts for k groups of the m bins (k <= 3, m >= k). */
static void best_cuts(const struct bins *b, unsigned k, size_t *cut)
{
	size_t m = b->m;
	cut[0] = 0;
	cut[k] = m;
	double best = INFINITY;
	if (k == 2)
		for (size_t i = 1; i < m; i++) {
			double v = sse(b, 0, i) + sse(b, i, m);
			if (v < best) {
				best = v;
				cut[1] = i;
			}
		}
	if (k == 3)
		for (size_t i = 1; i + 1 < m; i++)
			for (size_t j = i + 1; j < m; j++) {
				double v = sse(b, 0, i) + sse(b, i, j) + sse(b, j, m);
				if (v < best) {
					best = v;
					cut[1] = i;
					cut[2] = j;
				}
			}
}

void levels_find(const double *x, size_t n, struct levels *out)
{
	memset(out, 0, sizeof(*out));
	double *v = xmalloc((n + 1) * sizeof(*v));
	size_t nv = 0, infinite = 0;
	for (size_t i = 0; i < n; i++) {
		if (isinf(x[i]) && x[i] > 0)
			infinite++;
		else if (x[i] > 0)
			v[nv++] = log(x[i]);
	}
	if (!nv) {
		free(v);
		return;
	}
	qsort(v, nv, sizeof(*v), stats_cmp_double);
	struct bins b = { 0, xcalloc(nv + 1, sizeof(size_t)), xcalloc(nv + 1, sizeof(double)),
			  xcalloc(nv + 1, sizeof(double)) };
	size_t *first = xmalloc((nv + 1) * sizeof(*first)); /* each bin's first reading in v */
	for (size_t i = 0; i < nv; i++) {
		if (!b.m || floor(v[i] / LEVELS_BIN_LOG) != floor(v[i - 1] / LEVELS_BIN_LOG)) {
			first[b.m] = i;
			b.m++;
			b.c[b.m] = b.c[b.m - 1];
			b.s[b.m] = b.s[b.m - 1];
			b.q[b.m] = b.q[b.m - 1];
		}
		b.c[b.m]++;
		b.s[b.m] += v[i];
		b.q[b.m] += v[i] * v[i];
	}
	first[b.m] = nv;
	size_t cut[LEVELS_MAX + 1] = { 0, b.m };
	unsigned k = 1;
	for (unsigned t = LEVELS_MAX; t >= 2; t--) {
		size_t c[LEVELS_MAX + 1];
		if (b.m < t)
			continue;
		best_cuts(&b, t, c);
		if (passes(&b, c, t)) {
			k = t;
			memcpy(cut, c, sizeof(c));
			break;
		}
	}
	out->k = k;
	for (unsigned g = 0; g < k; g++) {
		out->center[g] = exp(mean(&b, cut[g], cut[g + 1]));
		out->count[g] = b.c[cut[g + 1]] - b.c[cut[g]];
		out->lo[g] = exp(v[first[cut[g]]]);
		out->hi[g] = exp(v[first[cut[g + 1]] - 1]);
	}
	out->count[k - 1] += infinite;
	if (infinite)
		out->hi[k - 1] = INFINITY;
	free(first);
	free(b.c);
	free(b.s);
	free(b.q);
	free(v);
}

unsigned levels_of(const struct levels *l, double x)
{
	if (!l->k || !(x > 0))
		return 0;
	if (isinf(x))
		return l->k;
	unsigned best = 1;
	for (unsigned g = 1; g < l->k; g++)
		if (fabs(log(x / l->center[g])) < fabs(log(x / l->center[best - 1])))
			best = g + 1;
	return best;
}
