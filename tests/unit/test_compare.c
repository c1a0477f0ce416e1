/* Unit tests of the Student t quantiles (stats.c) and of `flagbench
 * compare`'s verdicts on small in-memory runs (compare.c). */
#define _GNU_SOURCE
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/compare.h"

#include "compare_docs.h"
#include "core/stats.h"

static const double tight[] = { 1.000, 1.002, 0.998, 1.001, 0.999, 1.000, 1.003, 0.997 };

/* Student t quantiles from GSL against printed tables. */
static void test_t_critical(void **state)
{
	(void)state;
	static const struct {
		double confidence, df, t;
	} known[] = {
		{ 0.95, 4, 2.776 }, { 0.99, 4, 4.604 }, { 0.95, 1, 12.706 }, { 0.95, 29, 2.045 },
		{ 0.90, 4, 2.132 }, { 0.998, 4, 7.173 }, { 0.95, 1e6, 1.960 },
	};
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		assert_true(fabs(stats_t_critical(known[i].confidence, known[i].df) - known[i].t) < 5e-4);
	/* higher levels, wider: the Bonferroni levels of compare --confirm */
	assert_true(stats_t_critical(1 - 0.02 / 6, 4) > stats_t_critical(0.99, 4));
	assert_true(isnan(stats_t_critical(1, 4)) && isnan(stats_t_critical(0, 4)));
	assert_true(isnan(stats_t_critical(0.95, 0)) && isnan(stats_t_critical(-0.5, 4)));
}

/* The level of each confirmation: 1 - 2 P / m keeps the chance of any
 * one-sided false alarm among m cells at P. */
static void test_confirm_level(void **state)
{
	(void)state;
	assert_true(fabs(confirm_level(0.01, 1) - 0.98) < 1e-12);
	assert_true(fabs(confirm_level(0.01, 6) - (1 - 0.02 / 6)) < 1e-12);
	assert_true(fabs(confirm_level(0.025, 1) - 0.95) < 1e-12);
	assert_true(fabs(confirm_level(0.20, 4) - 0.90) < 1e-12);
	assert_true(fabs(confirm_level(0.0001, 1000) - (1 - 2e-7)) < 1e-15);
	/* the upper tail of each interval times m is the rate asked for */
	for (size_t m = 1; m <= 50; m++)
		assert_true(fabs(m * (1 - confirm_level(0.01, m)) / 2 - 0.01) < 1e-12);
	/* it is the primitive's Bonferroni level of the two-sided rate 2 P */
	for (size_t m = 1; m <= 8; m++)
		assert_true(fabs(confirm_level(0.01, m) - comparison_bonferroni_level(0.02, m)) < 1e-15);
	assert_true(isnan(confirm_level(0.01, 0)));
	assert_true(isnan(confirm_level(0, 3)) && isnan(confirm_level(0.6, 3)));
	/* every level the option allows has a t quantile */
	assert_true(isfinite(stats_t_critical(confirm_level(0.0001, 100000), 1)));
}

/* compare's verdicts are the primitive's, with the same band = the threshold */
static void test_verdicts(void **state)
{
	(void)state;
	static const struct {
		double lo, hi;
		enum comparison_verdict want;
	} cases[] = {
		{ 0.995, 1.005, VERDICT_SAME },   { 1.05, 1.15, VERDICT_SLOWER },
		{ 0.85, 0.95, VERDICT_FASTER },   { 1.00, 1.05, VERDICT_INCONCLUSIVE },
		{ 0.90, 1.10, VERDICT_INCONCLUSIVE }, { 1.021, 1.021, VERDICT_SLOWER },
		{ 1.019, 1.019, VERDICT_SAME },   { NAN, NAN, VERDICT_NO_DATA },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_int_equal(comparison_decide(cases[i].lo, cases[i].hi, 0.02, 0.02), cases[i].want);
	assert_string_equal(comparison_verdict_word(VERDICT_INCONCLUSIVE), "inconclusive");
	assert_string_equal(comparison_verdict_word(VERDICT_SAME_BINARY), "same binary");
	assert_string_equal(comparison_verdict_word(VERDICT_NO_DATA), "n/a");
	struct comparison_policy p;
	compare_policy(&p, 0.03, 0.25, 500, 9, 0.99);
	assert_true(p.threshold == 0.03 && p.same_band == 0.03 && p.quantile == 0.25 && p.resamples == 500 &&
		    p.seed == 9 && p.level == 0.99);
}

/* A run with cells {id, runs scaled by f, instructions per unit}. */
static json_t *make_run(const char *id, const char *const *ids, const double *scale, const double *instr, size_t n)
{
	json_t *cells = json_array();
	for (size_t i = 0; i < n; i++) {
		json_t *runs = json_array();
		for (size_t k = 0; k < 8; k++)
			json_array_append_new(runs, json_real(tight[k] * scale[i]));
		/* family and variant: what the reader requires of a record */
		json_t *c = json_pack("{s:s, s:s, s:s, s:s, s:s, s:i, s:{s:o}}", "id", ids[i], "family", "f", "variant", ids[i], "config", "cc",
				      "status", scale[i] > 0 ? "ok" : "crashed", "size", 1000, "time_s", "runs", runs);
		json_object_set_new(c, "counters",
				    instr[i] > 0 ? json_pack("{s:f}", "instructions_per_unit", instr[i])
						 : json_pack("{s:s}", "skipped", "no valgrind"));
		json_array_append_new(cells, c);
	}
	return json_pack("{s:s, s:{s:s, s:s}, s:o}", "schema", "flagbench-results/1", "run", "id", id, "cpu_profile",
			 "host", "cells", cells);
}

static const struct cell_cmp *find(const struct comparison *c, const char *id)
{
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->cells[i].id, id))
			return &c->cells[i];
	return NULL;
}

static void test_compare_runs(void **state)
{
	(void)state;
	const char *ids_a[] = { "same", "slow", "fast", "gone", "broken" };
	const char *ids_b[] = { "same", "slow", "fast", "added", "broken" };
	const double sa[] = { 1, 1, 1, 1, 1 }, sb[] = { 1, 1.10, 0.8, 1, 0 };
	const double ia[] = { 100, 100, 100, 100, 100 }, ib[] = { 100, 101, 100, 100, 0 };
	json_t *a = make_run("A", ids_a, sa, ia, 5), *b = make_run("B", ids_b, sb, ib, 5);
	struct compare_opts o = { METRIC_TIME, 0.02, 2000, 1, NULL, COMPARE_SAME_BINARY_IS_SAME, NAN, 0 };
	struct comparison c;
	compare_docs(a, b, &o, &c);
	assert_int_equal(c.n, 4);
	assert_int_equal(find(&c, "same")->verdict, VERDICT_SAME);
	assert_int_equal(find(&c, "slow")->verdict, VERDICT_SLOWER);
	assert_int_equal(find(&c, "fast")->verdict, VERDICT_FASTER);
	assert_int_equal(find(&c, "broken")->verdict, VERDICT_NO_DATA);
	assert_int_equal(find(&c, "slow")->ci.method, COMPARISON_INDEPENDENT); /* two runs share no rounds */
	assert_string_equal(find(&c, "broken")->note, "new: crashed");
	assert_int_equal(c.only_base.n, 1);
	assert_string_equal(c.only_base.v[0], "gone");
	assert_int_equal(c.only_new.n, 1);
	assert_string_equal(c.only_new.v[0], "added");
	assert_int_equal(c.count[VERDICT_SLOWER], 1);
	json_t *j = compare_to_json(&c);
	assert_string_equal(json_string_value(json_object_get(j, "schema")), "flagbench-compare/2");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(j, "counts"), "slower")), 1);
	assert_true(json_is_null(json_object_get(j, "confirmation"))); /* no --confirm */
	json_decref(j);
	comparison_free(&c);

	/* instructions: point values, a 1 % change found at a 0.5 % threshold */
	o.metric = METRIC_INSTRUCTIONS;
	o.threshold = 0.005;
	compare_docs(a, b, &o, &c);
	const struct cell_cmp *s = find(&c, "slow");
	assert_int_equal(s->verdict, VERDICT_SLOWER);
	assert_true(fabs(s->ci.ratio - 1.01) < 1e-9 && s->ci.low == s->ci.ratio && s->ci.high == s->ci.ratio);
	assert_int_equal(find(&c, "fast")->verdict, VERDICT_SAME);
	comparison_free(&c);
	json_decref(a);
	json_decref(b);
}

/* Interference that slows a different share of the runs on each side: the
 * median moves, the lower quartile (NEW's run.statistic) does not. */
static void test_compare_statistic(void **state)
{
	(void)state;
	const double base_runs[] = { 1.000, 1.502, 1.002, 1.498, 0.998, 1.501, 1.001, 1.499 };
	const double new_runs[] = { 1.000, 1.502, 1.002, 1.498, 1.500, 1.501, 1.001, 1.499 };
	json_t *ra = json_array(), *rb = json_array();
	for (size_t k = 0; k < 8; k++) {
		json_array_append_new(ra, json_real(base_runs[k]));
		json_array_append_new(rb, json_real(new_runs[k]));
	}
	json_t *a = json_pack("{s:s, s:{s:s, s:s}, s:[{s:s, s:s, s:s, s:s, s:s, s:i, s:{s:o}}]}", "schema", "flagbench-results/1", "run",
			      "id", "A", "cpu_profile", "host", "cells", "id", "c", "family", "f", "variant", "c", "config", "cc", "status", "ok", "size", 1000, "time_s",
			      "runs", ra);
	json_t *b = json_pack("{s:s, s:{s:s, s:s, s:s}, s:[{s:s, s:s, s:s, s:s, s:s, s:i, s:{s:o}}]}", "schema", "flagbench-results/1",
			      "run", "id", "B", "cpu_profile", "host", "statistic", "p25", "cells", "id", "c", "family", "f", "variant", "c", "config", "cc", "status",
			      "ok", "size", 1000, "time_s", "runs", rb);
	struct compare_opts o = { METRIC_TIME, 0.02, 2000, 1, NULL, COMPARE_SAME_BINARY_IS_SAME, NAN, 0 };
	struct comparison c;
	compare_docs(a, b, &o, &c);
	/* p25 of 8 runs is X(2): a fast run on both sides */
	assert_float_equal(c.quantile, 0.25, 0);
	assert_float_equal(c.cells[0].base_value, 1.000, 1e-12);
	assert_float_equal(c.cells[0].new_value, 1.001, 1e-12);
	assert_true(fabs(c.cells[0].ci.ratio - 1.001) < 1e-9);
	json_t *j = compare_to_json(&c);
	assert_string_equal(json_string_value(json_object_get(j, "statistic")), "p25");
	json_decref(j);
	comparison_free(&c);
	/* --statistic median: the share of slow runs decides */
	o.statistic = "median";
	compare_docs(a, b, &o, &c);
	assert_float_equal(c.cells[0].base_value, (1.002 + 1.498) / 2, 1e-12);
	assert_float_equal(c.cells[0].new_value, (1.498 + 1.499) / 2, 1e-12);
	assert_true(c.cells[0].ci.ratio > 1.19);
	comparison_free(&c);
	/* a NEW without run.statistic (older runs) is compared by the median */
	o.statistic = NULL;
	json_object_del(json_object_get(b, "run"), "statistic");
	compare_docs(a, b, &o, &c);
	assert_float_equal(c.quantile, 0.5, 0);
	comparison_free(&c);
	json_decref(a);
	json_decref(b);
}

/* The same sha256 and argv on both sides of one run: the verdict same
 * binary, with a note; --times-of-same-binary compares their times all the
 * same.  In two runs the same binary is measured (test_same_binary_across_runs). */
static void test_identical_binary(void **state)
{
	(void)state;
	const char *ids[] = { "same", "slow", "other", "args" };
	const double sa[] = { 1, 1, 1, 1 }, sb[] = { 1, 1.10, 1.10, 1.10 }, in[] = { 100, 100, 100, 100 };
	json_t *a = make_run("A", ids, sa, in, 4), *b = make_run("A", ids, sb, in, 4);
	for (size_t i = 0; i < 4; i++) {
		json_t *ca = json_array_get(json_object_get(a, "cells"), i);
		json_t *cb = json_array_get(json_object_get(b, "cells"), i);
		json_object_set_new(ca, "binary", json_pack("{s:s}", "sha256", "aa"));
		json_object_set_new(cb, "binary", json_pack("{s:s}", "sha256", i == 2 ? "bb" : "aa"));
		json_object_set_new(ca, "argv", json_pack("[s]", "1000"));
		json_object_set_new(cb, "argv", json_pack("[s]", i == 3 ? "2000" : "1000"));
	}
	struct compare_opts o = { METRIC_TIME, 0.02, 2000, 1, NULL, COMPARE_SAME_BINARY_IS_SAME, NAN, 0 };
	struct comparison c;
	compare_docs(a, b, &o, &c);
	const struct cell_cmp *same = find(&c, "same"), *slow = find(&c, "slow");
	assert_true(same->identical_binary && slow->identical_binary);
	assert_false(find(&c, "other")->identical_binary);
	assert_false(find(&c, "args")->identical_binary);
	/* whatever the numbers say: the same program twice */
	assert_int_equal(slow->verdict, VERDICT_SAME_BINARY);
	assert_int_equal(same->verdict, VERDICT_SAME_BINARY);
	assert_true(slow->ci.ratio == 1 && slow->ci.low == 1 && slow->ci.high == 1);
	assert_int_equal(find(&c, "other")->verdict, VERDICT_SLOWER);
	assert_int_equal(find(&c, "args")->verdict, VERDICT_SLOWER);
	assert_int_equal(c.count[VERDICT_SAME_BINARY], 2);
	assert_int_equal(c.count[VERDICT_SLOWER], 2);
	char *note = cell_note_text(slow);
	assert_string_equal(note, "the same sha256 and argv on both sides: a difference is the machine's, not the code's");
	free(note);
	assert_null(cell_note_text(find(&c, "other")));
	json_t *j = compare_to_json(&c);
	json_t *cj = json_array_get(json_object_get(j, "cells"), 1);
	assert_string_equal(json_string_value(json_object_get(cj, "id")), "slow");
	assert_true(json_is_true(json_object_get(cj, "identical_binary")));
	assert_string_equal(json_string_value(json_object_get(cj, "verdict")), "same binary");
	assert_non_null(strstr(json_string_value(json_object_get(cj, "note")), "the same sha256 and argv"));
	assert_int_equal(json_integer_value(json_object_get(json_object_get(j, "counts"), "same binary")), 2);
	json_decref(j);
	/* a note of its own comes first */
	struct cell_cmp *sc = (struct cell_cmp *)slow;
	sc->note = xstrdup("sizes differ");
	note = cell_note_text(sc);
	assert_string_equal(note,
			    "sizes differ; the same sha256 and argv on both sides: a difference is the machine's, not the code's");
	free(note);
	comparison_free(&c);
	/* the times of the same binary, compared on request (A/A checks) */
	o.same_binary = COMPARE_TIMES_OF_SAME_BINARY;
	compare_docs(a, b, &o, &c);
	assert_int_equal(find(&c, "slow")->verdict, VERDICT_SLOWER);
	assert_int_equal(find(&c, "same")->verdict, VERDICT_SAME);
	assert_false(find(&c, "slow")->identical_binary);
	assert_int_equal(c.count[VERDICT_SAME_BINARY], 0);
	comparison_free(&c);
	json_decref(a);
	json_decref(b);
}

/* The same binary in two runs (another run id): an A/A comparison, its
 * times compared like any pair's, a slowdown slower and the system's,
 * never 1.000x (issue 32: a libc update under the same binary). */
static void test_same_binary_across_runs(void **state)
{
	(void)state;
	const char *ids[] = { "same", "slow" };
	const double sa[] = { 1, 1 }, sb[] = { 1, 1.25 }, in[] = { 100, 100 };
	json_t *a = make_run("night-1", ids, sa, in, 2), *b = make_run("night-2", ids, sb, in, 2);
	for (size_t i = 0; i < 2; i++) {
		json_object_set_new(json_array_get(json_object_get(a, "cells"), i), "binary", json_pack("{s:s}", "sha256", "aa"));
		json_object_set_new(json_array_get(json_object_get(b, "cells"), i), "binary", json_pack("{s:s}", "sha256", "aa"));
		json_object_set_new(json_array_get(json_object_get(a, "cells"), i), "argv", json_pack("[s]", "1000"));
		json_object_set_new(json_array_get(json_object_get(b, "cells"), i), "argv", json_pack("[s]", "1000"));
	}
	json_object_set_new(a, "host", json_pack("{s:s}", "microcode", "0xa1"));
	json_object_set_new(b, "host", json_pack("{s:s}", "microcode", "0xa2"));
	struct compare_opts o = { METRIC_TIME, 0.02, 2000, 1, NULL, COMPARE_SAME_BINARY_IS_SAME, NAN, 0 };
	struct comparison c;
	compare_docs(a, b, &o, &c);
	const struct cell_cmp *slow = find(&c, "slow"), *same = find(&c, "same");
	assert_int_equal(slow->verdict, VERDICT_SLOWER);
	assert_int_equal(same->verdict, VERDICT_SAME);
	assert_true(slow->same_program && !slow->identical_binary);
	assert_true(slow->ci.ratio > 1.24 && slow->ci.ratio < 1.26);
	assert_int_equal(c.count[VERDICT_SAME_BINARY], 0);
	char *note = cell_note_text(slow);
	assert_non_null(strstr(note, "a difference is the system's: microcode \"0xa1\" -> \"0xa2\""));
	assert_int_equal(slow->system_changed, 1);
	free(note);
	comparison_free(&c);
	/* nothing recorded changed, the libraries listed alike: the machine
	 * (the nightly's gate leaves it to the history: ci/gate.jq) */
	json_object_set_new(b, "host", json_pack("{s:s}", "microcode", "0xa1"));
	for (size_t i = 0; i < 2; i++) {
		json_t *libs = json_pack("[{s:s, s:s}]", "path", "/lib/libc.so.6", "sha256", "cc");
		json_object_set_new(json_object_get(json_array_get(json_object_get(a, "cells"), i), "binary"), "libraries",
				    json_deep_copy(libs));
		json_object_set_new(json_object_get(json_array_get(json_object_get(b, "cells"), i), "binary"), "libraries",
				    libs);
	}
	compare_docs(a, b, &o, &c);
	slow = find(&c, "slow");
	assert_int_equal(slow->verdict, VERDICT_SLOWER);
	assert_int_equal(slow->system_changed, 0);
	comparison_free(&c);
	/* a side without its libraries listed: unknown */
	json_object_del(json_object_get(json_array_get(json_object_get(a, "cells"), 1), "binary"), "libraries");
	compare_docs(a, b, &o, &c);
	assert_int_equal(find(&c, "slow")->system_changed, -1);
	comparison_free(&c);
	json_decref(a);
	json_decref(b);
}

/* A confirmed cell records the level of its interval, the comparison the
 * alarm rate and m. */
static void test_confirm_json(void **state)
{
	(void)state;
	const char *ids[] = { "slow" };
	const double sa[] = { 1 }, sb[] = { 1.10 }, in[] = { 100 };
	json_t *a = make_run("A", ids, sa, in, 1), *b = make_run("B", ids, sb, in, 1);
	struct compare_opts o = { METRIC_TIME, 0.02, 2000, 1, NULL, COMPARE_SAME_BINARY_IS_SAME, NAN, 0 };
	struct comparison c;
	compare_docs(a, b, &o, &c);
	c.confirm_rounds = 5;
	c.alarm_rate = 0.01;
	c.confirm_cells = 3;
	c.confirm_level = confirm_level(0.01, 3);
	struct cell_cmp *cc = &c.cells[0];
	struct comparison_run x[10], y[10];
	for (int r = 0; r < 10; r++) {
		x[r] = (struct comparison_run){ 1, r, 0, COMPARISON_UNKNOWN, 0 };
		y[r] = (struct comparison_run){ 1.10 + 0.005 * r, r, 0, COMPARISON_UNKNOWN, 0 };
	}
	struct comparison_side A = { x, 10, NULL }, B = { y, 10, NULL };
	struct comparison_policy pol;
	compare_policy(&pol, 0.02, 0.5, 2000, 1, c.confirm_level);
	assert_int_equal(comparison_compute(&A, &B, &pol, &cc->confirm), 0);
	assert_int_equal(cc->confirm.method, COMPARISON_PAIRED);
	assert_int_equal(cc->confirm.verdict, VERDICT_SLOWER); /* 10 pairs reach 99.8 % */
	cc->confirmed = 5;
	cc->confirm_level = c.confirm_level;
	json_t *j = compare_to_json(&c);
	json_t *conf = json_object_get(j, "confirmation");
	assert_int_equal(json_integer_value(json_object_get(conf, "rounds")), 5);
	assert_int_equal(json_integer_value(json_object_get(conf, "cells")), 3);
	assert_true(fabs(json_real_value(json_object_get(conf, "alarm_rate_percent")) - 1) < 1e-12);
	assert_true(fabs(json_real_value(json_object_get(conf, "level")) - (1 - 0.02 / 3)) < 1e-12);
	json_t *cj = json_object_get(json_array_get(json_object_get(j, "cells"), 0), "confirm");
	assert_true(fabs(json_real_value(json_object_get(cj, "level")) - (1 - 0.02 / 3)) < 1e-12);
	assert_true(json_real_value(json_array_get(json_object_get(cj, "ci"), 0)) == cc->confirm.low);
	assert_null(json_object_get(cj, "ci95")); /* it is not at 95 % */
	json_decref(j);
	comparison_free(&c);
	json_decref(a);
	json_decref(b);
}

/* A one-cell run whose time_s.runs are t. */
static json_t *run_of(const char *id, const double *t, size_t n)
{
	json_t *runs = json_array();
	for (size_t k = 0; k < n; k++)
		json_array_append_new(runs, json_real(t[k]));
	return json_pack("{s:s, s:{s:s, s:s}, s:[{s:s, s:s, s:s, s:s, s:s, s:i, s:{s:o}}]}", "schema", "flagbench-results/1", "run", "id",
			 id, "cpu_profile", "host", "cells", "id", "c", "family", "f", "variant", "c", "config", "cc", "status", "ok", "size", 1000, "time_s", "runs", runs);
}

/* --resamples and --seed reach the primitive's bootstrap: another count
 * of resamples gives another interval of the same runs. */
static void test_resamples(void **state)
{
	(void)state;
	const double ta[] = { 1.00, 1.10, 0.95, 1.20, 1.05, 0.90, 1.15, 1.02, 0.97, 1.08 };
	const double tb[] = { 1.04, 1.18, 0.99, 1.25, 1.12, 0.96, 1.21, 1.05, 1.01, 1.13 };
	json_t *a = run_of("A", ta, 10), *b = run_of("B", tb, 10);
	struct compare_opts o = { METRIC_TIME, 0.02, 100, 1, "median", COMPARE_SAME_BINARY_IS_SAME, NAN, 0 };
	struct comparison c1, c2, c3;
	compare_docs(a, b, &o, &c1);
	o.resamples = 20000;
	compare_docs(a, b, &o, &c2);
	o.resamples = 100;
	o.seed = 7;
	compare_docs(a, b, &o, &c3);
	const struct comparison_result *r1 = &c1.cells[0].ci, *r2 = &c2.cells[0].ci, *r3 = &c3.cells[0].ci;
	assert_int_equal(r1->method, COMPARISON_INDEPENDENT);
	assert_true(r1->ratio == r2->ratio); /* the point is the statistics' ratio */
	assert_true(r1->low != r2->low || r1->high != r2->high);
	assert_true(r1->low != r3->low || r1->high != r3->high); /* and another seed, another */
	assert_true(r2->low < r2->ratio && r2->ratio < r2->high);
	comparison_free(&c1);
	comparison_free(&c2);
	comparison_free(&c3);
	json_decref(a);
	json_decref(b);
}

/* Too few runs for an interval: n/a with the reason, never an alarm. */
static void test_too_few_runs(void **state)
{
	(void)state;
	const double ta[] = { 1, 1 }, tb[] = { 2, 2 };
	json_t *a = run_of("A", ta, 2), *b = run_of("B", tb, 2);
	struct compare_opts o = { METRIC_TIME, 0.02, 2000, 1, NULL, COMPARE_SAME_BINARY_IS_SAME, NAN, 0 };
	struct comparison c;
	compare_docs(a, b, &o, &c);
	assert_int_equal(c.cells[0].verdict, VERDICT_NO_DATA);
	assert_string_equal(c.cells[0].note, "fewer than 3 runs on a side: no interval");
	assert_int_equal(c.count[VERDICT_SLOWER], 0);
	comparison_free(&c);
	json_decref(a);
	json_decref(b);
}

static void test_metric_parse(void **state)
{
	(void)state;
	enum metric m;
	assert_int_equal(metric_parse("instructions", &m), 0);
	assert_int_equal(m, METRIC_INSTRUCTIONS);
	assert_int_equal(metric_parse("wallclock", &m), -1);
}

/* --confirm: every new binary whose verdict is not same, faster too; the
 * same program only as a library step; a reference only when suspected. */
static void test_confirm_wanted(void **state)
{
	(void)state;
	struct cell_cmp cc = { .programs_known = 1 };
	cc.ci.high = 0.95;
	const enum comparison_verdict wanted[] = { VERDICT_SLOWER, VERDICT_FASTER, VERDICT_INCONCLUSIVE };
	for (size_t i = 0; i < 3; i++) {
		cc.verdict = wanted[i];
		assert_true(compare_confirm_wanted(&cc, 0.02, CONFIRM_CHANGED_NOT_SAME));
	}
	cc.verdict = VERDICT_SAME;
	assert_false(compare_confirm_wanted(&cc, 0.02, CONFIRM_CHANGED_NOT_SAME));
	assert_true(compare_confirm_wanted(&cc, 0.02, CONFIRM_EVERY_CHANGED));
	cc.verdict = VERDICT_NO_DATA;
	assert_false(compare_confirm_wanted(&cc, 0.02, CONFIRM_EVERY_CHANGED));
	/* the same program: measured side by side only where its libraries changed */
	cc.same_program = 1;
	cc.verdict = VERDICT_SLOWER;
	assert_false(compare_confirm_wanted(&cc, 0.02, CONFIRM_EVERY_CHANGED));
	cc.libraries_changed = 1;
	assert_true(compare_confirm_wanted(&cc, 0.02, CONFIRM_CHANGED_NOT_SAME));
	cc.verdict = VERDICT_FASTER;
	assert_false(compare_confirm_wanted(&cc, 0.02, CONFIRM_CHANGED_NOT_SAME));
	assert_true(compare_confirm_wanted(&cc, 0.02, CONFIRM_EVERY_CHANGED));
	/* a reference program (no binary known): a suspect only */
	cc = (struct cell_cmp){ .verdict = VERDICT_FASTER };
	cc.ci.high = 0.95;
	assert_false(compare_confirm_wanted(&cc, 0.02, CONFIRM_EVERY_CHANGED));
	cc.verdict = VERDICT_INCONCLUSIVE;
	cc.ci.high = 1.05;
	assert_true(compare_confirm_wanted(&cc, 0.02, CONFIRM_CHANGED_NOT_SAME));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_verdicts),
		cmocka_unit_test(test_compare_runs), cmocka_unit_test(test_compare_statistic),        cmocka_unit_test(test_metric_parse),
		cmocka_unit_test(test_t_critical),          cmocka_unit_test(test_confirm_level),
		cmocka_unit_test(test_identical_binary),
		cmocka_unit_test(test_same_binary_across_runs),    cmocka_unit_test(test_confirm_json),
		cmocka_unit_test(test_resamples),           cmocka_unit_test(test_too_few_runs),
		cmocka_unit_test(test_confirm_wanted),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
