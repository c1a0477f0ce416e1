/* test_levels.c: a run's readings into levels at once (core/levels.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>

#include "core/levels.h"

/* n readings spread evenly over [lo, hi] into v from *at */
static void fill(double *v, size_t *at, size_t n, double lo, double hi)
{
	for (size_t i = 0; i < n; i++)
		v[(*at)++] = n > 1 ? lo + (hi - lo) * (double)i / (double)(n - 1) : lo;
}

/* Two spans of readings into v, their levels into *l; the readings' count. */
static size_t two_spans(double *v, size_t n1, double lo1, double hi1, size_t n2, double lo2, double hi2, struct levels *l)
{
	size_t n = 0;
	fill(v, &n, n1, lo1, hi1);
	fill(v, &n, n2, lo2, hi2);
	levels_find(v, n, l);
	return n;
}

/* Near about 90 ns and far 460-510 (this VM's): two levels, each reading
 * in its own, whatever the order. */
static void two_levels(void **state)
{
	double v[200];
	struct levels l;
	two_spans(v, 30, 84, 96, 120, 460, 510, &l);
	assert_int_equal(l.k, 2);
	assert_int_equal(l.count[0], 30);
	assert_int_equal(l.count[1], 120);
	assert_true(l.center[0] > 84 && l.center[0] < 96);
	assert_true(l.center[1] > 460 && l.center[1] < 510);
	assert_int_equal(levels_of(&l, 90), 1);
	assert_int_equal(levels_of(&l, 470), 2);
	assert_int_equal(levels_of(&l, INFINITY), 2);
	assert_int_equal(levels_of(&l, NAN), 0);
	/* far before 98 % of the batches: near is still a level of its own */
	two_spans(v, 4, 88, 92, 196, 460, 510, &l);
	assert_int_equal(l.k, 2);
	assert_int_equal(l.count[0], 4);
}

/* A third level where the readings show one. */
static void three_levels(void **state)
{
	double v[90];
	size_t n = 0;
	fill(v, &n, 30, 85, 95);
	fill(v, &n, 30, 190, 210);
	fill(v, &n, 30, 460, 510);
	struct levels l;
	levels_find(v, n, &l);
	assert_int_equal(l.k, 3);
	for (unsigned g = 0; g < 3; g++)
		assert_int_equal(l.count[g], 30);
	assert_int_equal(levels_of(&l, 200), 2);
	assert_int_equal(levels_of(&l, 500), 3);
}

/* Bare metal: readings alike, or one broad hump, or a stray reading or
 * two far off: one level. */
static void one_level(void **state)
{
	double v[300];
	size_t n = 0;
	fill(v, &n, 100, 80, 100);
	struct levels l;
	levels_find(v, n, &l);
	assert_int_equal(l.k, 1);
	assert_int_equal(levels_of(&l, 2000), 1);
	/* a log-normal hump, sd 0.4 in the logs: no cut in two or three */
	n = 0;
	for (int i = 1; i <= 299; i++) {
		double p = i / 300.0, z = 0;
		/* the normal quantile by bisection on erfc */
		double lo = -6, hi = 6;
		for (int k = 0; k < 60; k++) {
			z = (lo + hi) / 2;
			if (0.5 * erfc(-z / sqrt(2)) < p)
				lo = z;
			else
				hi = z;
		}
		v[n++] = 90 * exp(0.4 * z);
	}
	levels_find(v, n, &l);
	assert_int_equal(l.k, 1);
	/* two stray readings are not a level */
	n = 0;
	fill(v, &n, 100, 85, 95);
	v[n++] = 2000;
	v[n++] = 2100;
	levels_find(v, n, &l);
	assert_int_equal(l.k, 1);
	/* nothing to find */
	levels_find(v, 0, &l);
	assert_int_equal(l.k, 0);
	assert_int_equal(levels_of(&l, 90), 0);
}

/* A run that starts far: its first 13 readings far, then near.  Found from
 * all the readings at once, the 13 are far; a level learnt from the first
 * readings called them near. */
static void starts_far(void **state)
{
	double v[60];
	struct levels l;
	size_t n = two_spans(v, 13, 410, 480, 47, 86, 94, &l);
	assert_int_equal(l.k, 2);
	for (size_t i = 0; i < 13; i++)
		assert_int_equal(levels_of(&l, v[i]), 2);
	for (size_t i = 13; i < n; i++)
		assert_int_equal(levels_of(&l, v[i]), 1);
	/* the same readings in another order find the same levels */
	double w[60];
	for (size_t i = 0; i < n; i++)
		w[i] = v[(i * 7) % n];
	struct levels m;
	levels_find(w, n, &m);
	assert_int_equal(m.k, 2);
	assert_true(m.center[0] == l.center[0] || fabs(m.center[0] / l.center[0] - 1) < 1e-12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(two_levels),
		cmocka_unit_test(three_levels),
		cmocka_unit_test(one_level),
		cmocka_unit_test(starts_far),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
