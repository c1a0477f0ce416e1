/* test_tune.c: the parts of `flagbench tune` (driver/tune.h) that need no
 * compiler: the budget's words, and delta debugging to the flags that
 * carry a gain (a synthetic gain with interacting flags). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/ddmin.h"
#include "driver/tune.h"

static void test_budget(void **state)
{
	(void)state;
	double s;
	unsigned n;
	assert_int_equal(tune_parse_budget("10m", &s, &n), 0);
	assert_true(s == 600 && n == 0);
	assert_int_equal(tune_parse_budget("90s", &s, &n), 0);
	assert_true(s == 90 && n == 0);
	assert_int_equal(tune_parse_budget("1.5h", &s, &n), 0);
	assert_true(s == 5400);
	assert_int_equal(tune_parse_budget("200", &s, &n), 0);
	assert_true(s == 0 && n == 200);
	static const char *const bad[] = { "", "soon", "10x", "-5", "0", "1.5", "10 m", "nan", NULL };
	for (const char *const *b = bad; *b; b++)
		assert_int_equal(tune_parse_budget(*b, &s, &n), -1);
}

/* The gain of a subset: -fa alone gives 0.5 of it, -fb and -fc only
 * together give the other 0.5; every other flag nothing. */
struct synthetic {
	size_t asked;
};

static double gain(const struct strvec *set)
{
	int a = sv_contains(set, "-fa"), b = sv_contains(set, "-fb"), c = sv_contains(set, "-fc");
	return 0.5 * a + 0.5 * (b && c);
}

static void keeps(void *ctx, const struct strvec *subsets, size_t n, int *ok)
{
	struct synthetic *sy = ctx;
	for (size_t i = 0; i < n; i++) {
		ok[i] = gain(&subsets[i]) >= TUNE_KEEP * 1.0;
		sy->asked++;
	}
}

static void test_ddmin_interacting(void **state)
{
	(void)state;
	struct strvec all = STRVEC_INIT, out = STRVEC_INIT;
	static const char *const flags[] = { "-fx1", "-fb", "-fx2", "-fx3", "-fa", "-fx4", "-fx5", "-fx6", "-fc", "-fx7", NULL };
	for (const char *const *f = flags; *f; f++)
		sv_push(&all, *f);
	struct synthetic sy = { 0 };
	size_t steps = 0;
	tune_ddmin(&all, keeps, &sy, &out, &steps);
	/* exactly the three that carry it, in their order */
	assert_int_equal(out.n, 3);
	assert_string_equal(out.v[0], "-fb");
	assert_string_equal(out.v[1], "-fa");
	assert_string_equal(out.v[2], "-fc");
	assert_true(steps > 0 && sy.asked < 60);
	sv_clear(&all);
	sv_clear(&out);
}

static void keeps_nothing_needed(void *ctx, const struct strvec *subsets, size_t n, int *ok)
{
	(void)ctx;
	(void)subsets;
	for (size_t i = 0; i < n; i++)
		ok[i] = 1;
}

static void test_ddmin_edges(void **state)
{
	(void)state;
	struct strvec one = STRVEC_INIT, out = STRVEC_INIT;
	sv_push(&one, "-fa");
	struct synthetic sy = { 0 };
	size_t steps;
	tune_ddmin(&one, keeps, &sy, &out, &steps);
	assert_int_equal(out.n, 1); /* the empty set does not keep the gain */
	sv_clear(&out);
	/* a gain that holds without any flag minimises to none */
	sv_push(&one, "-fz");
	tune_ddmin(&one, keeps_nothing_needed, NULL, &out, &steps);
	assert_int_equal(out.n, 0);
	sv_clear(&one);
	sv_clear(&out);
	/* no flags: nothing asked */
	sy.asked = 0;
	tune_ddmin(&one, keeps, &sy, &out, &steps);
	assert_int_equal(out.n, 0);
	assert_int_equal(sy.asked, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_budget),
		cmocka_unit_test(test_ddmin_interacting),
		cmocka_unit_test(test_ddmin_edges),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
