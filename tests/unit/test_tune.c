/* test_tune.c: the parts of `flagbench tune` (driver/tune.h) that need no
 * compiler: the budget's words and what it buys, counts against time, and delta debugging to the flags that
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
#include <unistd.h>

#include "analysis/ddmin.h"
#include "analysis/tune_budget.h"
#include "driver/tune.h"
#include "results/tune_record.h"

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

/* What a budget buys (analysis/tune_budget.h): the slow program,
 * a 58 s compile, a 1 s check and a 3 s screen on 2 CPUs. */
static void test_budget_plan(void **state)
{
	(void)state;
	assert_int_equal(tune_default_batch(1), 4);
	assert_int_equal(tune_default_batch(2), 4);
	assert_int_equal(tune_default_batch(3), 6);
	assert_int_equal(tune_default_batch(4), 4);
	assert_int_equal(tune_default_batch(16), 16);
	assert_int_equal(tune_default_batch(0), 4);

	struct tune_cost c = { .build_s = 58, .check_s = 1, .screen_s = 3 };
	struct tune_budget_plan p;
	/* batches of 2 on 2 CPUs: one wave of compiles, then 2 x (1 + 3) */
	tune_budget_plan(&c, 2, 2, 300, 0, &p);
	assert_true(fabs(p.candidate_s - 62) < 1e-9);
	assert_true(fabs(p.batch_s - 66) < 1e-9);
	assert_int_equal(p.batches, 5); /* a batch starts while any budget is left: 4 x 66 < 300 */
	assert_int_equal(p.candidates, 10);
	assert_true(fabs(p.seconds - 330) < 1e-9);
	assert_true(fabs(p.compile_per_minute - 60.0 * 2 / 58) < 1e-9);
	assert_true(p.per_minute < p.compile_per_minute);
	/* batches of 4: two waves */
	tune_budget_plan(&c, 2, 4, 300, 0, &p);
	assert_true(fabs(p.batch_s - (2 * 58 + 4 * 4)) < 1e-9);
	assert_int_equal(p.batches, 3);
	assert_int_equal(p.candidates, 12);
	/* a budget shorter than a batch still runs one */
	tune_budget_plan(&c, 2, 4, 10, 0, &p);
	assert_int_equal(p.batches, 1);
	assert_int_equal(p.candidates, 4);
	/* counts run --jobs at once, like the compiles */
	struct tune_cost k = c;
	k.screen_in_waves = 1;
	tune_budget_plan(&k, 2, 4, 300, 0, &p);
	assert_true(fabs(p.batch_s - (2 * 58 + 4 * 1 + 2 * 3)) < 1e-9);
	/* a count budget: its batches, the last one short */
	tune_budget_plan(&c, 2, 4, 0, 10, &p);
	assert_int_equal(p.batches, 3);
	assert_int_equal(p.candidates, 10);
	assert_true(fabs(p.seconds - (2 * (2 * 58 + 16) + (58 + 2 * 4))) < 1e-9);
	assert_true(fabs(tune_budget_seconds(&c, 2, 4, 10) - p.seconds) < 1e-9);
	assert_true(tune_budget_seconds(&c, 2, 4, 0) == 0);
	/* what a search needs: its seeds, then 3 rounds of 5 operators */
	assert_int_equal(tune_candidates_needed(0), 15);
	assert_int_equal(tune_candidates_needed(80), 95);
	/* the rounds a check by time needs before the sign test can decide
	 * at the Bonferroni level of its pairs */
	assert_int_equal(tune_check_rounds(2), 6);
	assert_int_equal(tune_check_rounds(3), 7);
	assert_int_equal(tune_check_rounds(4), 8);
	assert_int_equal(tune_check_rounds(6), 10);
}

/* Counts against time: a pair time tells apart in the other order. */
static void test_rank_disagreements(void **state)
{
	(void)state;
	/* the start, -O3, -Os: -O3 counts fewer and is faster, -Os more and slower */
	double counts[3] = { 100, 80, 120 };
	enum comparison_verdict v[9] = { VERDICT_NO_DATA };
	v[0 * 3 + 1] = VERDICT_FASTER;
	v[0 * 3 + 2] = VERDICT_SLOWER;
	v[1 * 3 + 2] = VERDICT_SLOWER;
	size_t a = 9, b = 9;
	assert_int_equal(tune_rank_disagreements(counts, v, 3, &a, &b), 0);
	assert_int_equal(a, 9);
	/* what time cannot tell apart is no disagreement */
	v[1 * 3 + 2] = VERDICT_INCONCLUSIVE;
	assert_int_equal(tune_rank_disagreements(counts, v, 3, NULL, NULL), 0);
	/* chacha20 from -O2: a best with 0.8x the instructions, slower than -O3 by time */
	double c2[3] = { 100, 90, 80 };
	enum comparison_verdict v2[9] = { VERDICT_NO_DATA };
	v2[0 * 3 + 1] = VERDICT_FASTER;
	v2[0 * 3 + 2] = VERDICT_SAME;
	v2[1 * 3 + 2] = VERDICT_SLOWER;
	assert_int_equal(tune_rank_disagreements(c2, v2, 3, &a, &b), 1);
	assert_int_equal(a, 1);
	assert_int_equal(b, 2);
	/* fewer instructions and slower than the start */
	double c3[2] = { 100, 10 };
	enum comparison_verdict v3[4] = { VERDICT_NO_DATA, VERDICT_SLOWER, VERDICT_NO_DATA, VERDICT_NO_DATA };
	assert_int_equal(tune_rank_disagreements(c3, v3, 2, &a, &b), 1);
	assert_int_equal(a, 0);
	assert_int_equal(b, 1);
	/* a build not counted is not compared */
	c3[1] = NAN;
	assert_int_equal(tune_rank_disagreements(c3, v3, 2, NULL, NULL), 0);
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

/* --resume's journal read back typed: the header, the last probe line, a
 * line cut by a crash skipped, a check, the candidates in order (a null
 * score NAN); header_only stops after the first line. */
static void test_journal_record(void **state)
{
	(void)state;
	char dir[] = "/tmp/flagbench-test-tune-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char *path = xasprintf("%s/journal.jsonl", dir);
	const char *text =
		"{\"kind\": \"flagbench-tune-journal\", \"version\": 1, \"argv\": [\"flagbench\", \"tune\", \"x\"],"
		" \"start\": \"f/v@gcc/-O2\", \"start_sha256\": \"aa\", \"space\": \"bb\", \"metric\": \"time_s\", \"seed\": 7,"
		" \"techniques\": [\"greedy\", 3]}\n"
		"{\"event\": \"probe\", \"build_s\": 1, \"levels\": []}\n"
		"{\"event\": \"probe\", \"build_s\": 2, \"check_s\": 3, \"screen_s\": 4, \"checked\": true,"
		" \"levels\": [{\"opt\": \"-O3\", \"count\": 0.9, \"time_ratio\": 0.95, \"time_verdict\": \"faster\"}]}\n"
		"{\"technique\": \"greedy\", \"seq\": 1, \"key\": \"k1\", \"op\": \"set\", \"status\": \"ok\", \"score\": 0.5,"
		" \"at_s\": 9, \"sha256\": \"cc\", \"metric\": \"instructions\"}\n"
		"{\"event\": \"check\", \"line\": \"checked\", \"switch\": true, \"why\": \"noisy\", \"ev\": 1}\n"
		"{\"technique\": \"greedy\", \"seq\": 2, \"key\": \"k2\", \"status\": \"failed\", \"score\": null, \"reason\": \"r\"}\n"
		"{\"technique\": \"gre";
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	struct tune_record r;
	assert_int_equal(tune_record_load(path, 0, &r), 0);
	assert_int_equal(r.lines, 7);
	assert_true(r.has_header);
	assert_int_equal(r.header.argv.n, 3);
	assert_string_equal(r.header.argv.v[2], "x");
	assert_string_equal(r.header.kind, "flagbench-tune-journal");
	assert_string_equal(r.header.start, "f/v@gcc/-O2");
	assert_true(r.header.seeded && r.header.seed == 7);
	assert_int_equal(r.header.techniques.n, 2);
	assert_string_equal(r.header.techniques.v[1], "");
	assert_true(r.has_probe);
	assert_true(r.probe.build_s == 2 && r.probe.check_s == 3 && r.probe.screen_s == 4 && r.probe.checked);
	assert_int_equal(r.probe.nlevels, 1);
	assert_string_equal(r.probe.levels[0].opt, "-O3");
	assert_true(r.probe.levels[0].count == 0.9 && r.probe.levels[0].time_ratio == 0.95);
	assert_string_equal(r.probe.levels[0].time_verdict, "faster");
	assert_int_equal(r.nchecks, 1);
	assert_true(r.checks[0].turned && r.checks[0].ev == 1);
	assert_string_equal(r.checks[0].why, "noisy");
	assert_int_equal(r.nevals, 2);
	assert_string_equal(r.evals[0].key, "k1");
	assert_true(r.evals[0].seq == 1 && r.evals[0].score == 0.5 && r.evals[0].at_s == 9);
	assert_string_equal(r.evals[0].metric, "instructions");
	assert_null(r.evals[0].reason);
	assert_string_equal(r.evals[1].op, "");
	assert_true(isnan(r.evals[1].score));
	assert_string_equal(r.evals[1].reason, "r");
	tune_record_free(&r);
	assert_int_equal(tune_record_load(path, 1, &r), 0);
	assert_int_equal(r.lines, 1);
	assert_true(r.has_header && !r.has_probe && r.nevals == 0);
	tune_record_free(&r);
	unlink(path);
	assert_int_equal(tune_record_load(path, 0, &r), -1);
	rmdir(dir);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_budget),
		cmocka_unit_test(test_budget_plan),
		cmocka_unit_test(test_rank_disagreements),
		cmocka_unit_test(test_ddmin_interacting),
		cmocka_unit_test(test_ddmin_edges), cmocka_unit_test(test_journal_record),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
