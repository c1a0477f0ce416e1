/* test_undecided.c: the answers a run is about to give (analysis/undecided.h):
 * per variant the leader and each build whose comparison with it may give
 * another verdict in a second run are marked, and only then: not a tie
 * that stays a tie, not a lead far beyond the noise.  The gaps too
 * (analysis/gap_pairs.h): two builds of a variant that differ in one part. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/comparison.h"
#include "analysis/gap_pairs.h"
#include "analysis/undecided.h"
#include "core/stats.h"

#define N 16

static struct variant var_a = { .name = "a" }, var_b = { .name = "b" };
static struct family fam = { .name = "f", .kind = KIND_COMPUTE };

/* n runs of base seconds; spread: each round's run off by this share
 * either way, in a pattern that differs from cell to cell (phase) */
static unsigned phase;
static void cell_with_runs(struct cell *c, struct variant *v, double base, double spread, size_t n)
{
	phase++;
	memset(c, 0, sizeof(*c));
	c->spec.variant = v;
	c->spec.family = &fam;
	c->spec.config = "gcc/-O2/native";
	c->spec.layouts = 1;
	c->spec.size = 100;
	c->build.same_binary_as = -1;
	c->status = CELL_PENDING;
	double t[N];
	c->measure.rounds = malloc(N * sizeof(int));
	for (size_t i = 0; i < n; i++) {
		t[i] = base * (1 + ((i + phase) % 2 ? spread : -spread) * (double)(1 + (i * phase) % 3) / 3);
		c->measure.rounds[i] = (int)i;
	}
	c->measure.nrounds = n;
	stats_compute_at(&c->measure.time, t, n, 0.25);
}

static void release(struct cell *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		stats_free(&c[i].measure.time);
		free(c[i].measure.rounds);
	}
}

static void marks_the_open_pair(void **state)
{
	struct cell cells[4];
	/* variant a: two builds 10 % apart in runs 5 % off round by round (a
	 * lead at the edge: open), a third far slower; variant b: two builds
	 * 30 % apart (decided) */
	phase = 0;
	cell_with_runs(&cells[0], &var_a, 1.00, 0.05, 13);
	cell_with_runs(&cells[1], &var_a, 1.10, 0.05, 13);
	cell_with_runs(&cells[2], &var_a, 2.00, 0.05, 13);
	cell_with_runs(&cells[3], &var_b, 1.00, 0.01, 13);
	struct plan p = { .cells = cells, .n = 4 };
	unsigned char mark[4];
	answers_undecided(&p, NULL, mark);
	assert_int_equal(mark[0], 1);
	assert_int_equal(mark[1], 1);
	assert_int_equal(mark[2], 0); /* not one of the two fastest */
	assert_int_equal(mark[3], 0); /* alone in its variant */
	release(cells, 4);

	cell_with_runs(&cells[0], &var_b, 1.00, 0.01, 13);
	cell_with_runs(&cells[1], &var_b, 1.30, 0.01, 13);
	p.n = 2;
	answers_undecided(&p, NULL, mark);
	assert_int_equal(mark[0], 0);
	assert_int_equal(mark[1], 0);
	release(cells, 2);
	/* 1 % apart in the same 5 % noise: a tie whose chance to turn real
	 * is small; more runs would change no verdict, so it is decided */
	phase = 0;
	cell_with_runs(&cells[0], &var_b, 1.00, 0.05, 13);
	cell_with_runs(&cells[1], &var_b, 1.01, 0.05, 13);
	answers_undecided(&p, NULL, mark);
	assert_int_equal(mark[0], 0);
	assert_int_equal(mark[1], 0);
	release(cells, 2);
	cell_with_runs(&cells[0], &var_b, 1.00, 0.01, 13);
	cell_with_runs(&cells[1], &var_b, 1.30, 0.01, 13);
	/* the same binary twice is decided: the same binary */
	memcpy(cells[0].build.sha256, "ab", 3);
	memcpy(cells[1].build.sha256, "ab", 3);
	stats_free(&cells[1].measure.time);
	free(cells[1].measure.rounds);
	cell_with_runs(&cells[1], &var_b, 1.01, 0.05, 13);
	memcpy(cells[1].build.sha256, "ab", 3);
	answers_undecided(&p, NULL, mark);
	assert_int_equal(mark[0], 0);
	release(cells, 2);
}

/* The answer's lead is a claim against every build (report/model_answer.c):
 * the runner-up by figure, 3 % behind in runs within 0.5 %, is decided,
 * and a third build 4 % behind whose runs scatter 8 % either way is still
 * open against the leader, so those two get the runs, not the decided pair. */
static void marks_an_open_build_further_back(void **state)
{
	(void)state;
	struct cell cells[3];
	phase = 0;
	cell_with_runs(&cells[0], &var_a, 1.00, 0.005, 13);
	cell_with_runs(&cells[1], &var_a, 1.03, 0.005, 13);
	cell_with_runs(&cells[2], &var_a, 1.04, 0.08, 13);
	struct plan p = { .cells = cells, .n = 3 };
	unsigned char mark[3];
	answers_undecided(&p, NULL, mark);
	assert_int_equal(mark[0], 1);
	assert_int_equal(mark[1], 0);
	assert_int_equal(mark[2], 1);
	release(cells, 3);
}

/* A tie at the upper level whose chance to turn real is small there may be
 * real at the level the tables show (96-97 %): open at the lower one, it
 * is marked.  Only the upper level was asked before, and such a pair of
 * cells stopped at 13 rounds. */
static void marks_a_tie_open_at_the_lower_level(void **state)
{
	(void)state;
	struct cell cells[2];
	phase = 0;
	cell_with_runs(&cells[0], &var_a, 1.00, 0.01, 13);
	cell_with_runs(&cells[1], &var_a, 1.01, 0.01, 13);
	/* the premise: at UNDECIDED_LEVEL alone the question is closed */
	struct comparison_run ra[N], rb[N];
	for (size_t i = 0; i < 13; i++) {
		ra[i] = (struct comparison_run){ .seconds = cells[0].measure.time.runs[i], .round = (int)i,
						 .layout = COMPARISON_UNKNOWN };
		rb[i] = (struct comparison_run){ .seconds = cells[1].measure.time.runs[i], .round = (int)i,
						 .layout = COMPARISON_UNKNOWN };
	}
	struct comparison_side sa = { .runs = ra, .n = 13 }, sb = { .runs = rb, .n = 13 };
	struct comparison_policy pol = COMPARISON_POLICY_DEFAULT;
	pol.level = UNDECIDED_LEVEL;
	struct comparison_result res;
	assert_int_equal(comparison_compute(&sa, &sb, &pol, &res), 0);
	assert_int_equal(res.verdict, VERDICT_INCONCLUSIVE);
	assert_false(comparison_may_flip(res.verdict, comparison_repeat_chance(&res, 0)));
	struct plan p = { .cells = cells, .n = 2 };
	unsigned char mark[2];
	answers_undecided(&p, NULL, mark);
	assert_int_equal(mark[0], 1);
	assert_int_equal(mark[1], 1);
	release(cells, 2);
}

static void leaves_thin_and_failed_cells(void **state)
{
	struct cell cells[2];
	cell_with_runs(&cells[0], &var_a, 1.00, 0.05, 2); /* too few runs to rank */
	cell_with_runs(&cells[1], &var_a, 1.01, 0.05, 13);
	struct plan p = { .cells = cells, .n = 2 };
	unsigned char mark[2];
	answers_undecided(&p, NULL, mark);
	assert_int_equal(mark[0] + mark[1], 0);
	release(cells, 2);
	cell_with_runs(&cells[0], &var_a, 1.00, 0.05, 13);
	cell_with_runs(&cells[1], &var_a, 1.01, 0.05, 13);
	cells[1].status = CELL_WRONG_OUTPUT;
	answers_undecided(&p, NULL, mark);
	assert_int_equal(mark[0] + mark[1], 0);
	release(cells, 2);
}

/* A variant against the family's baseline built the same way (the speedup
 * table's answer), per unit of work: open at the edge of the noise,
 * decided when clearly apart. */
static void marks_an_open_speedup(void **state)
{
	struct cell cells[2];
	fam.baseline = "a";
	phase = 0;
	cell_with_runs(&cells[0], &var_a, 1.00, 0.05, 13);
	cell_with_runs(&cells[1], &var_b, 2.20, 0.05, 13);
	cells[1].spec.size = 200; /* twice the work in 10 % more than twice the time: at the edge */
	struct plan p = { .cells = cells, .n = 2 };
	unsigned char mark[2];
	answers_undecided(&p, NULL, mark);
	assert_int_equal(mark[0], 1);
	assert_int_equal(mark[1], 1);
	release(cells, 2);
	cell_with_runs(&cells[0], &var_a, 1.00, 0.01, 13);
	cell_with_runs(&cells[1], &var_b, 1.00, 0.01, 13);
	cells[1].spec.size = 200; /* twice the work in the same time: decided */
	answers_undecided(&p, NULL, mark);
	assert_int_equal(mark[0] + mark[1], 0);
	release(cells, 2);
	fam.baseline = NULL;
}

/* A gap's two cells at the edge are marked, though neither is among the
 * two fastest; two builds that differ in two parts are no gap. */
static void marks_an_open_gap(void **state)
{
	struct cell cells[4];
	const char *cfg[4] = { "gcc/-O2/native", "clang/-O2/native", "gcc/-O3/native", "clang/-O3/native" };
	double base[4] = { 1.00, 1.10, 0.50, 0.65 }, spread[4] = { 0.05, 0.05, 0.01, 0.01 };
	phase = 0;
	for (size_t i = 0; i < 4; i++) {
		cell_with_runs(&cells[i], &var_a, base[i], spread[i], 13);
		cells[i].spec.config = (char *)cfg[i];
	}
	struct plan p = { .cells = cells, .n = 4 };
	unsigned char mark[4];
	answers_undecided(&p, NULL, mark);
	/* clang against gcc at -O2: 10 % in 5 % noise */
	assert_int_equal(mark[0], 1);
	assert_int_equal(mark[1], 1);
	/* the fastest two, 30 % apart, and their gaps: decided */
	assert_int_equal(mark[2], 0);
	assert_int_equal(mark[3], 0);
	/* where this machine's earlier runs moved the variant's ratios by
	 * 20 % from run to run, no number of runs closes that gap: no spare
	 * runs for it (results/ratio_drift.h); another variant's drift does
	 * not count */
	struct between_group g = { "f", "a", BETWEEN_SAME_VARIANT, 0.20, 5 };
	struct between_runs between = { .groups = &g, .ngroups = 1, .level_shift = NAN };
	answers_undecided(&p, &between, mark);
	assert_int_equal(mark[0] + mark[1] + mark[2] + mark[3], 0);
	g.variant = "b";
	answers_undecided(&p, &between, mark);
	assert_int_equal(mark[0], 1);
	assert_int_equal(mark[1], 1);
	release(cells, 4);

	/* open only across the diagonal (gcc/-O2 against clang/-O3) */
	double base2[4] = { 1.00, 2.00, 0.50, 1.10 }, spread2[4] = { 0.05, 0.01, 0.01, 0.05 };
	phase = 0;
	for (size_t i = 0; i < 4; i++) {
		cell_with_runs(&cells[i], &var_a, base2[i], spread2[i], 13);
		cells[i].spec.config = (char *)cfg[i];
	}
	answers_undecided(&p, NULL, mark);
	assert_int_equal(mark[0] + mark[1] + mark[2] + mark[3], 0);
	release(cells, 4);
}

/* The pairs: every two values of a part with few, each against the first
 * of a part with more than GAP_ALL_PAIRS; A the value seen first. */
static void gap_pairs_rule(void **state)
{
	const char *cfgs[] = { "gcc/-O0", "gcc/-O1", "gcc/-O2", "gcc/-O3", "gcc/-Os", "clang/-O2", "clang/-O3/lto" };
	struct gap_pair *pairs;
	size_t values[GAP_PARTS_MAX];
	size_t n = gap_pairs(cfgs, 7, &pairs, values);
	assert_int_equal(values[0], 2);
	assert_int_equal(values[1], 5);
	assert_int_equal(values[2], 1);
	assert_int_equal(n, 5);
	for (size_t k = 0; k < 4; k++) {
		assert_int_equal(pairs[k].a, 0); /* -O0 against each other -O level */
		assert_int_equal(pairs[k].b, k + 1);
		assert_int_equal(pairs[k].part, 1);
	}
	assert_int_equal(pairs[4].a, 2); /* gcc/-O2 first: gcc came first */
	assert_int_equal(pairs[4].b, 5);
	assert_int_equal(pairs[4].part, 0);
	free(pairs);
	const char *rev[] = { "clang/-O2", "gcc/-O2", "clang/-O3" };
	n = gap_pairs(rev, 3, &pairs, NULL);
	assert_int_equal(n, 2);
	assert_int_equal(pairs[0].a, 0);
	assert_int_equal(pairs[0].b, 1);
	assert_int_equal(pairs[1].a, 0);
	assert_int_equal(pairs[1].b, 2);
	free(pairs);
	size_t len;
	assert_null(gap_part("gcc/-O2", 2, &len));
	assert_memory_equal(gap_part("gcc/-O2", 1, &len), "-O2", 3);
	assert_int_equal(len, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(marks_the_open_pair),
		cmocka_unit_test(marks_an_open_build_further_back),
		cmocka_unit_test(marks_a_tie_open_at_the_lower_level),
		cmocka_unit_test(leaves_thin_and_failed_cells),
		cmocka_unit_test(marks_an_open_speedup),
		cmocka_unit_test(marks_an_open_gap),
		cmocka_unit_test(gap_pairs_rule),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
