/* Unit tests of the shards (pipeline/shard.h): the quick and full suites'
 * plans split 1 to 5 ways partition the plan, keep each variant's cells
 * in one shard and the baseline in every shard that holds its family;
 * K/N parsing; the plan hash. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "config/config.h"
#include "config/cpu_profile.h"
#include "driver/eta.h"
#include "pipeline/plan.h"
#include "pipeline/shard.h"
#include "core/util.h"

#include "plan_fixture.h"

/* the host of these tests has every flag and takes every -march, so no
 * cell weighs nothing for a reason of the machine that runs the test */
static int all_flags(const char *flag)
{
	(void)flag;
	return 1;
}

static int all_marches(struct compiler *c, const char *march, char *why, size_t n)
{
	(void)c, (void)march, (void)why, (void)n;
	return 1;
}

/* Cell i's block: the first cell of its family and variant (or reference). */
static size_t block_of(const struct plan *p, size_t i)
{
	const struct cell_spec *s = &p->cells[i].spec;
	size_t j = 0;
	while (!(p->cells[j].spec.family == s->family && p->cells[j].spec.variant == s->variant &&
		 p->cells[j].spec.reference == s->reference))
		j++;
	return j;
}

static void check_split(const struct plan *p, const double *cost, unsigned n)
{
	unsigned char *keep = xcalloc((size_t)n * p->n + 1, 1);
	for (unsigned k = 1; k <= n; k++)
		shard_select(p, cost, (struct shard){ k, n }, keep + (size_t)(k - 1) * p->n);
	size_t copies = 0;
	for (size_t i = 0; i < p->n; i++) {
		unsigned in = 0;
		for (unsigned k = 0; k < n; k++)
			in += keep[(size_t)k * p->n + i];
		/* none lost; only a baseline is in more than one shard */
		assert_true(in >= 1);
		if (!shard_cell_is_baseline(&p->cells[i]))
			assert_int_equal(in, 1);
		copies += in - 1;
		size_t b = block_of(p, i);
		for (unsigned k = 0; k < n; k++) {
			/* a block's cells together */
			assert_int_equal(keep[(size_t)k * p->n + i], keep[(size_t)k * p->n + b]);
			/* a shard that holds a variant of a family holds its baseline */
			if (!keep[(size_t)k * p->n + i])
				continue;
			for (size_t j = 0; j < p->n; j++)
				if (p->cells[j].spec.family == p->cells[i].spec.family && shard_cell_is_baseline(&p->cells[j]))
					assert_true(keep[(size_t)k * p->n + j]);
		}
	}
	if (n == 1)
		assert_int_equal(copies, 0);
	free(keep);
}

static void split_suite(const char *suite)
{
	struct plan_fixture fx;
	fixture_load(&fx, suite, "host", all_flags, all_marches);
	struct plan plan;
	assert_int_equal(plan_build(&fx.in, &plan), 0);
	assert_true(plan.n > 10);
	struct eta_policy pol = { .runs = 3, .max_runs = 30, .runs_for_rerun = 9, .emulated_runs = 3, .precision = 3,
				  .cell_budget = 1.25, .rounds = 1 };
	double *cost = xcalloc(plan.n + 1, sizeof(*cost));
	size_t baselines = 0;
	for (size_t i = 0; i < plan.n; i++) {
		cost[i] = eta_cell_planned(&pol, plan.cells[i].spec.cross != NULL, 0.1, 0);
		assert_true(cost[i] > 0);
		baselines += shard_cell_is_baseline(&plan.cells[i]);
	}
	assert_true(baselines > 0); /* the suite has a family with a baseline: the copies are tested */
	for (unsigned n = 1; n <= 5; n++)
		check_split(&plan, cost, n);
	/* shard_apply keeps shard 2 of 3 and gives each kept cell its place
	 * in the whole plan */
	struct plan part;
	assert_int_equal(plan_build(&fx.in, &part), 0);
	unsigned char *keep = xcalloc(plan.n + 1, 1);
	shard_select(&plan, cost, (struct shard){ 2, 3 }, keep);
	size_t kept = 0;
	for (size_t i = 0; i < plan.n; i++)
		kept += keep[i];
	size_t *place = shard_apply(&part, cost, (struct shard){ 2, 3 });
	assert_int_equal(part.n, kept);
	assert_true(kept > 0);
	for (size_t j = 0; j < part.n; j++) {
		assert_true(keep[place[j]]);
		assert_string_equal(part.cells[j].spec.id, plan.cells[place[j]].spec.id);
	}
	free(place);
	free(keep);
	plan_free(&part);
	free(cost);
	plan_free(&plan);
	fixture_free(&fx);
}

static void test_split_quick(void **state)
{
	(void)state;
	split_suite("configs/suites/quick.json");
}

static void test_split_full(void **state)
{
	(void)state;
	split_suite("configs/suites/full.json");
}

/* Two blocks of cost 3 and 1 and two of 2 make 4 + 4 in two shards. */
static void test_balance(void **state)
{
	(void)state;
	struct family f = { .name = "f" };
	struct variant v[4] = { { .name = "a" }, { .name = "b" }, { .name = "c" }, { .name = "d" } };
	struct plan p = { 0 };
	p.cells = xcalloc(4, sizeof(*p.cells));
	p.n = 4;
	for (size_t i = 0; i < 4; i++) {
		p.cells[i].spec.family = &f;
		p.cells[i].spec.variant = &v[i];
	}
	double cost[4] = { 3, 2, 2, 1 };
	unsigned char k1[4], k2[4];
	shard_select(&p, cost, (struct shard){ 1, 2 }, k1);
	shard_select(&p, cost, (struct shard){ 2, 2 }, k2);
	double l1 = 0, l2 = 0;
	for (size_t i = 0; i < 4; i++) {
		assert_int_equal(k1[i] + k2[i], 1);
		l1 += k1[i] * cost[i];
		l2 += k2[i] * cost[i];
	}
	assert_true(l1 == 4 && l2 == 4);
	free(p.cells);
}

static void test_parse(void **state)
{
	(void)state;
	static const struct {
		const char *text;
		int ok;
		unsigned k, n;
	} cases[] = {
		{ "1/1", 1, 1, 1 }, { "2/4", 1, 2, 4 }, { "4/4", 1, 4, 4 }, { "0/4", 0, 0, 0 }, { "5/4", 0, 0, 0 },
		{ "1/0", 0, 0, 0 }, { "1", 0, 0, 0 },	{ "1/", 0, 0, 0 },  { "/2", 0, 0, 0 },	{ "1/2x", 0, 0, 0 },
		{ "-1/2", 0, 0, 0 }, { "1/-2", 0, 0, 0 }, { "1/99999", 0, 0, 0 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct shard s = { 0, 0 };
		char why[256] = "";
		int r = shard_parse(cases[i].text, &s, why, sizeof(why));
		if (cases[i].ok) {
			assert_int_equal(r, 0);
			assert_int_equal(s.index, cases[i].k);
			assert_int_equal(s.of, cases[i].n);
		} else {
			assert_int_equal(r, -1);
			assert_non_null(strstr(why, cases[i].text));
		}
	}
}

static void test_hash(void **state)
{
	(void)state;
	struct plan_fixture fx;
	fixture_load(&fx, "configs/suites/smoke.json", "host", all_flags, all_marches);
	struct plan a, b;
	assert_int_equal(plan_build(&fx.in, &a), 0);
	assert_int_equal(plan_build(&fx.in, &b), 0);
	char ha[65], hb[65], hc[65];
	plan_hash(&a, "smoke\nhost\nmedian", ha);
	plan_hash(&b, "smoke\nhost\nmedian", hb);
	assert_string_equal(ha, hb);
	plan_hash(&b, "smoke\nhost\np25", hc);
	assert_string_not_equal(ha, hc);
	cell_set_status(&b.cells[0], CELL_UNSUPPORTED, "gone");
	plan_hash(&b, "smoke\nhost\nmedian", hc);
	assert_string_not_equal(ha, hc);
	plan_free(&a);
	plan_free(&b);
	fixture_free(&fx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split_quick), cmocka_unit_test(test_split_full), cmocka_unit_test(test_balance),
		cmocka_unit_test(test_parse),	    cmocka_unit_test(test_hash),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
