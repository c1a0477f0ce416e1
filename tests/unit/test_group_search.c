/* Unit tests of analysis/group_search.h: the search by halves over a made
 * up gap, where the flags given carry it, and the order of its records
 * replayed (explain's --resume). */
#define _GNU_SOURCE
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "analysis/group_search.h"

/* The share of a group where the flags in carry[] carry the gap, each
 * share[i] of it; a group that holds none of them is B's own binary. */
static void measure(struct group_search *s, size_t g, const double *share)
{
	double v = 0;
	for (size_t i = s->g[g].from; i < s->g[g].to; i++)
		v += share[i];
	gs_record(s, g, GS_MEASURED, v, v, v, v == 0, v >= 0.05);
}

/* Runs the search to its end; the number of groups measured. */
static size_t search(struct group_search *s, const double *share, size_t batch_max)
{
	size_t idx[64], done = 0, n;
	while ((n = gs_waiting(s, idx, batch_max)) > 0) {
		for (size_t k = 0; k < n; k++)
			measure(s, idx[k], share);
		done += n;
	}
	return done;
}

static void test_one_flag_of_eight(void **state)
{
	(void)state;
	double share[8] = { 0, 0, 0, 0, 0, 1, 0, 0 };
	struct group_search s;
	gs_init(&s, 8);
	size_t builds = search(&s, share, 64);
	/* the root, then two halves at each of three levels */
	assert_int_equal(builds, 7);
	assert_int_equal(builds, gs_estimate(8, 1));
	size_t answers = 0;
	for (size_t i = 0; i < s.n; i++)
		if (gs_answer(&s, i)) {
			answers++;
			assert_int_equal(s.g[i].from, 5);
			assert_int_equal(s.g[i].to, 6);
		}
	assert_int_equal(answers, 1);
	gs_free(&s);
}

static void test_nothing_carries(void **state)
{
	(void)state;
	double share[33] = { 0 };
	share[3] = 0.01; /* below 5 %: cleared with the rest */
	struct group_search s;
	gs_init(&s, 33);
	/* 33 ISA extensions: one build, not one per extension */
	assert_int_equal(search(&s, share, 64), 1);
	assert_false(s.g[0].carries);
	assert_false(gs_answer(&s, 0));
	gs_free(&s);
}

/* Two flags that carry the gap only together: the group holding both is
 * the answer, neither half of it. */
static void test_together(void **state)
{
	(void)state;
	struct group_search s;
	gs_init(&s, 4);
	size_t idx[8];
	assert_int_equal(gs_waiting(&s, idx, 8), 1);
	gs_record(&s, 0, GS_MEASURED, 1, 1, 1, 0, 1);
	assert_int_equal(gs_waiting(&s, idx, 8), 2);
	gs_record(&s, idx[0], GS_MEASURED, 0.02, 0.02, 0.02, 0, 0);
	gs_record(&s, idx[1], GS_MEASURED, 0.03, 0.03, 0.03, 0, 0);
	assert_int_equal(gs_waiting(&s, NULL, 8), 0);
	assert_true(gs_answer(&s, 0));
	gs_free(&s);
}

/* Records replayed in their order rebuild the same search; a budget of
 * one group a batch only orders the work. */
static void test_replay(void **state)
{
	(void)state;
	double share[16] = { 0 };
	share[2] = 0.6;
	share[11] = 0.4;
	struct group_search a, b;
	gs_init(&a, 16);
	size_t n = search(&a, share, 1);
	assert_true(n <= gs_estimate(16, 2));
	gs_init(&b, 16);
	for (size_t i = 0; i < a.n; i++) {
		int k = gs_find_waiting(&b, a.g[i].from, a.g[i].to);
		assert_true(k >= 0);
		gs_record(&b, (size_t)k, a.g[i].state, a.g[i].share, a.g[i].lo, a.g[i].hi, a.g[i].unchanged, a.g[i].carries);
	}
	assert_int_equal(a.n, b.n);
	assert_int_equal(gs_waiting(&b, NULL, 64), 0);
	size_t answers = 0;
	for (size_t i = 0; i < b.n; i++)
		answers += gs_answer(&b, i);
	assert_int_equal(answers, 2);
	assert_int_equal(gs_find_waiting(&b, 0, 16), -1);
	gs_free(&a);
	gs_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_flag_of_eight),
		cmocka_unit_test(test_nothing_carries),
		cmocka_unit_test(test_together),
		cmocka_unit_test(test_replay),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
