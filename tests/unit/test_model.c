/* Unit tests of the results model (harness/tables/model.c) and its writers:
 * number formats; values, intervals, marks and ratios of small runs; the
 * answer in words and the heatmap shares; the tables left out; runs side by
 * side; bad input; each format's escaping.  Table-driven where the cases are alike. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <math.h>

#include <cmocka.h>

#include "report/model.h"
#include "report/model_answer.h"
#include "cmd/tables.h"
#include "core/util.h"

static void test_formats(void **state)
{
	(void)state;
	static const struct {
		double v;
		const char *unit, *want;
	} cases[] = {
		{ 74.5 * 1048576, NULL, "74.5 MiB/s" },
		{ 7.36 * 1073741824.0, "bytes/s", "7.36 GiB/s" },
		{ 2048, "B/s", "2.0 KiB/s" },
		{ 1.9e6, "blocks/s", "1.90 Mblocks/s" },
		{ 2.5e9, "lines/s", "2.50 Glines/s" },
		{ 1234, "lines/s", "1.23 klines/s" },
		{ 12, "lines/s", "12.00 lines/s" },
		/* counted in operations: microseconds per operation, as the seeds print them */
		{ 6.45e6, "ops/s", "0.155 usec/op" },
		{ 1e6 / 589.21089, "ops/s", "589.211 usec/op" },
		{ 1e6 / 0.00286, "ops/s", "0.00286 usec/op" },
	};
	char buf[64];
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		model_format_value(cases[i].v, cases[i].unit, buf, sizeof(buf));
		assert_string_equal(buf, cases[i].want);
	}
	static const struct {
		double r;
		const char *want;
	} ratios[] = { { 1, "1.00x" }, { 101.534, "101.53x" }, { 0.000221, "0.000221x" }, { 0.0123, "0.01x" } };
	for (size_t i = 0; i < sizeof(ratios) / sizeof(ratios[0]); i++) {
		model_format_ratio(ratios[i].r, buf, sizeof(buf));
		assert_string_equal(buf, ratios[i].want);
	}
}

/* A ratio's interval: its ends at the ratio's decimals, more where fewer
 * would print an end beyond 1.00x on 1.00x or past it, or two that differ
 * alike (not below 0.1 % of the ratio), two more at most. */
static void test_interval_formats(void **state)
{
	(void)state;
	static const struct {
		double r, lo, hi;
		int min;
		const char *ratio, *interval;
	} cases[] = {
		{ 0.92, 0.773, 0.981, 2, "0.92x", "[0.77x, 0.98x]" },
		/* a real lead whose low end is 1.002: never "[1.00x, ...]" */
		{ 1.004, 1.002, 1.006, 2, "1.004x", "[1.002x, 1.006x]" },
		{ 0.996, 0.99, 0.9996, 2, "0.9960x", "[0.9900x, 0.9996x]" },
		/* not real: the low end reads below 1.00x, as it is */
		{ 1.01, 0.996, 1.03, 2, "1.010x", "[0.996x, 1.030x]" },
		/* the ratio and an end alike at 2 decimals */
		{ 2.086, 2.071, 2.091, 2, "2.086x", "[2.071x, 2.091x]" },
		/* finer than 0.1 % of the ratio: noise, not shown */
		{ 34.2615, 34.2611, 34.5174, 2, "34.26x", "[34.26x, 34.52x]" },
		{ 0.00031, 0.000298, 0.000323, 2, "0.000310x", "[0.000298x, 0.000323x]" },
		{ 1, 1, 1, 3, "1.000x", "[1.000x, 1.000x]" },
		{ 1.05, NAN, NAN, 2, "1.05x", "" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct mratio_text rt;
		model_format_interval(cases[i].r, cases[i].lo, cases[i].hi, cases[i].min, &rt);
		assert_string_equal(rt.ratio, cases[i].ratio);
		assert_string_equal(rt.interval, cases[i].interval);
	}
	/* a ratio cell: the interval's ends, its level below 95 %, then the marks;
	 * the legend says what such a level means for a ratio */
	struct mtable t = { .name = "speedup", .fmt = MF_RATIO, .unit = "x", .ci_note = "note",
			    .shown = SHOWN_CI | SHOWN_LOW_LEVEL };
	struct mcell c = { .state = MS_OK, .value = 0.92, .lo = 0.773, .hi = 0.981, .ci = NAN, .level = 0.83,
			   .marks = MARK_IMPRECISE };
	char buf[128], fig[MODEL_PART], spread[MODEL_PART];
	model_text(&t, &c, buf, sizeof(buf), fig, spread);
	assert_string_equal(buf, "0.92x [0.77x, 0.98x] (83%) \xc2\xa7");
	assert_string_equal(fig, "0.92x");
	assert_string_equal(spread, "[0.77x, 0.98x] (83%)");
	c.level = 0.967;
	model_text(&t, &c, buf, sizeof(buf), NULL, NULL);
	assert_string_equal(buf, "0.92x [0.77x, 0.98x] \xc2\xa7");
	const char *lines[MODEL_LEGEND_MAX];
	assert_int_equal(model_legend(&t, lines), 2);
	assert_string_equal(lines[0], "note");
	assert_true(!strncmp(lines[1], "(83%) after an interval: ", 25));
}

static char *temp_file(const char *text)
{
	char *path = xstrdup("/tmp/flagbench-test-model-XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	size_t len = strlen(text);
	assert_int_equal(write(fd, text, len), (ssize_t)len);
	close(fd);
	return path;
}

/* A cell: its rate, time_s with its runs (the model derives the interval
 * from them), throttled, warnings and more fields. */
#define CELL(fam, v, cfg, extra, rate, runs, thr, warn) \
	"{\"id\": \"" fam "/" v "@" cfg "\", \"family\": \"" fam "\", \"variant\": \"" v "\", \"config\": \"" cfg \
	"\", " extra "\"status\": \"ok\", " rate ", \"time_s\": {\"median\": 1, \"runs\": " runs "}, " \
	"\"throttled\": " thr ", \"warnings\": " warn "}"
/* Nine runs, median 1: the rerun interval is [lo, hi] at 97.06 %; as a rate,
 * +-50 (1/lo - 1/hi) %: R9("0.975", "1.025") is +-2.5 %. */
#define R9(lo, hi) "[" lo ", " lo ", " lo ", 1, 1, 1, " hi ", " hi ", " hi "]"
#define ONE_PCT R9("0.99", "1.01")
#define RUN(id, prof, fams, cells) \
	"{\"schema\": \"flagbench-results/1\", \"run\": {\"id\": \"" id "\", \"cpu_profile\": \"" prof "\"}, " \
	"\"families\": {" fams "}, \"cells\": [" cells "]}"

/* Loads one or two runs given as text. */
static void load(struct model *m, const char *a, const char *b, const char *against)
{
	char *paths[] = { temp_file(a), b ? temp_file(b) : NULL };
	assert_int_equal(model_load(m, paths, b ? 2 : 1, against), 0);
	for (size_t i = 0; i < 2 && paths[i]; i++) {
		unlink(paths[i]);
		free(paths[i]);
	}
}

static struct mtable *table_of(struct model *m, const char *fam, const char *name)
{
	struct mfamily *f = model_family(m, fam);
	assert_non_null(f);
	for (size_t i = 0; i < f->ntables; i++)
		if (!strcmp(f->tables[i].name, name))
			return &f->tables[i];
	return NULL;
}

static const char *text_at(struct mtable *t, size_t r, size_t c)
{
	static char buf[128];
	model_text(t, &t->rows[r].cells[c], buf, sizeof(buf), NULL, NULL);
	return buf;
}

static void test_values_intervals_marks(void **state)
{
	(void)state;
	struct model m;
	load(&m, RUN("r", "host", "\"bignum\": {\"kind\": \"compute\", \"unit\": \"ops\", \"baseline\": \"fp\"},"
					  " \"yes\": {\"kind\": \"stream\", \"baseline\": \"buf\"}",
		     CELL("bignum", "fp", "gcc/-O2/default/glibc", "\"compiler\": \"gcc\", \"allocator\": \"glibc\", ",
			  "\"rate\": {\"median\": 6450000, \"unit\": \"ops/s\"}", R9("0.975", "1.025"), "\"no\"", "[]") ","
		     CELL("bignum", "fp", "gcc/-O2/default/mimalloc", "\"compiler\": \"gcc\", \"allocator\": \"mimalloc\", ",
			  "\"rate\": {\"median\": 8000000, \"unit\": \"ops/s\"}", R9("0.985", "1.015"), "\"yes\"",
			  "[\"throttled: package throttle count rose\"]") ","
		     CELL("bignum", "ec", "gcc/-O2/default/glibc", "\"compiler\": \"gcc\", \"allocator\": \"glibc\", "
			  "\"precision\": {\"status\": \"not_reached\", \"target_percent\": 1}, ",
			  "\"rate\": {\"median\": 2000, \"unit\": \"ops/s\"}", R9("0.96", "1.04"), "\"unknown\"",
			  "[\"precision 1% not reached\"]") ","
		     /* two runs: ci95_percent 0 as stats writes it, no interval */
		     CELL("bignum", "ec", "gcc/-O2/default/mimalloc", "\"compiler\": \"gcc\", \"allocator\": \"mimalloc\", ",
			  "\"rate\": {\"median\": 2500, \"unit\": \"ops/s\"}", "[1, 1]", "null", "[]") ","
		     /* a reference measured per placement: each column shows its own */
		     CELL("yes", "buf", "gcc/-O2/default/same_l3", "\"compiler\": \"gcc\", \"placement\": \"same_l3\", ",
			  "\"throughput_Bps\": {\"median\": 1073741824}", R9("0.97", "1.03"), "\"no\"", "[]") ","
		     CELL("yes", "buf", "gcc/-O2/default/unpinned", "\"compiler\": \"gcc\", \"placement\": \"unpinned\", ",
			  "\"throughput_Bps\": {\"median\": 2147483648}", R9("0.99", "1.01"), "\"no\"", "[]") ","
		     CELL("yes", "ref", "reference/unpinned", "\"compiler\": \"none\", \"placement\": \"unpinned\", ",
			  "\"throughput_Bps\": {\"median\": 3221225472}", R9("0.98", "1.02"), "\"no\"", "[]") ","
		     CELL("yes", "ref", "reference/same_l3", "\"compiler\": \"none\", \"placement\": \"same_l3\", ",
			  "\"throughput_Bps\": {\"median\": 1048576}", "[0.95, 1, 1.05]", "\"no\"", "[]")),
	     NULL, NULL);
	struct mtable *t = table_of(&m, "bignum", "throughput");
	assert_non_null(t);
	assert_string_equal(t->unit, "ops/s");
	assert_float_equal(t->rows[0].cells[0].value, 6450000, 1e-9);
	assert_float_equal(t->rows[0].cells[0].lo, 6450000 / 1.025, 1e-6);
	assert_float_equal(t->rows[0].cells[0].hi, 6450000 / 0.975, 1e-6);
	assert_float_equal(t->rows[0].cells[0].level, 1 - 2 * 5.0 / 340, 1e-9); /* the rerun interval of 9 runs: [min, max] */
	/* † for the throttled cell, whose throttle note is no ‡; ‡ for another warning */
	assert_string_equal(text_at(t, 0, 1), "0.125 usec/op \xc2\xb1" "1.5% \xe2\x80\xa0");
	/* § for a cell that missed its precision target */
	assert_string_equal(text_at(t, 1, 0), "500.000 usec/op \xc2\xb1" "4.0% \xe2\x80\xa1\xc2\xa7");
	assert_string_equal(text_at(t, 1, 1), "400.000 usec/op");
	assert_true(isnan(t->rows[1].cells[1].lo));
	assert_int_equal(t->shown, MARK_THROTTLED | MARK_WARNED | SHOWN_CI | MARK_IMPRECISE);
	assert_int_equal(model_family(&m, "bignum")->warnings.n, 1);

	/* speedups: the bootstrap interval from both cells' runs, around the ratio, at 95 %;
	 * none on the baseline's own 1.00x; † where the baseline throttled, § where either
	 * missed its target; none without a 95 % interval on both sides */
	t = table_of(&m, "bignum", "speedup");
	assert_non_null(t);
	assert_float_equal(t->rows[1].cells[0].value, 2000 / 6450000.0, 1e-12);
	struct mcell *sp = &t->rows[1].cells[0];
	assert_true(sp->lo < sp->value && sp->value < sp->hi);
	assert_float_equal(sp->level, 0.95, 1e-12);
	assert_string_equal(text_at(t, 0, 0), "1.00x");
	assert_int_equal(t->rows[0].cells[1].marks, 0);
	/* a ratio shows its interval's ends, not a ± */
	assert_string_equal(text_at(t, 1, 0), "0.000310x [0.000298x, 0.000323x] \xc2\xa7");
	assert_true(isnan(sp->ci));
	assert_string_equal(text_at(t, 1, 1), "0.000313x \xe2\x80\xa0");
	/* against glibc's malloc; no -O view where every column is its own baseline */
	t = table_of(&m, "bignum", "vs_glibc");
	assert_non_null(t);
	assert_float_equal(t->rows[0].cells[1].value, 8e6 / 6.45e6, 1e-12);
	sp = &t->rows[0].cells[1];
	assert_true(sp->lo < sp->value && sp->value < sp->hi && sp->hi / sp->lo < 1.06 && isnan(sp->ci));
	assert_null(table_of(&m, "bignum", "against"));
	assert_null(table_of(&m, "bignum", "compilers"));
	assert_null(table_of(&m, "bignum", "instructions"));

	/* the reference row follows each column's placement */
	t = table_of(&m, "yes", "throughput");
	assert_string_equal(t->rows[1].label, "ref (reference)");
	/* three runs: [min, max] holds a rerun's median 60 % of the time, and says so */
	assert_string_equal(text_at(t, 1, 0), "1.0 MiB/s \xc2\xb1" "5.0% (60%)");
	assert_true(t->shown & SHOWN_LOW_LEVEL);
	assert_string_equal(text_at(t, 1, 1), "3.00 GiB/s \xc2\xb1" "2.0%");
	t = table_of(&m, "yes", "speedup");
	/* no 95 % interval on one side: no interval of the ratio */
	assert_string_equal(text_at(t, 1, 0), "0.000977x");
	/* the one comparison's interval, at the run's level */
	assert_string_equal(text_at(t, 1, 1), "1.50x [1.46x, 1.53x]");
	model_free(&m);
}

#define SIMPLE(fam, v, cfg, comp, bps, runs, extra) \
	CELL(fam, v, cfg, "\"compiler\": \"" comp "\", " extra, "\"throughput_Bps\": {\"median\": " bps "}", runs, \
	     "\"no\"", "[]")

static const char *const answer_run = RUN(
	"a", "host", "\"f\": {\"kind\": \"stream\", \"title\": \"F\"}",
	SIMPLE("f", "v", "gcc/-O2/native", "gcc", "100", ONE_PCT, "") ","
	SIMPLE("f", "v", "gcc/-O3/native", "gcc", "150", ONE_PCT,
	       "\"counters\": {\"unit\": \"byte\", \"instructions_per_unit\": 3.76}, ") ","
	SIMPLE("f", "v", "clang/-O2/native", "clang", "149", ONE_PCT, "") ","
	SIMPLE("f", "w", "gcc/-O2/native", "gcc", "100", ONE_PCT, "") ","
	SIMPLE("f", "w", "gcc/-O3/native", "gcc", "200", ONE_PCT, "") ","
	SIMPLE("f", "w", "clang/-O2/native", "clang", "50", ONE_PCT, "") ","
	SIMPLE("f", "v", "gcc/-O2/arm", "gcc", "7", ONE_PCT, "\"emulated\": true, "));

/* A lead the one comparison calls real only just (3 % over runs that
 * spread 2 % each way) says it may not repeat; a 2x lead does not. */
static const char *const edge_run = RUN(
	"e", "host", "\"g\": {\"kind\": \"stream\", \"title\": \"G\"}",
	SIMPLE("g", "x", "gcc/-O2/native", "gcc", "100", R9("0.98", "1.02"), "") ","
	SIMPLE("g", "x", "gcc/-O3/native", "gcc", "103", R9("0.98", "1.02"), "") ","
	SIMPLE("g", "y", "gcc/-O2/native", "gcc", "100", R9("0.98", "1.02"), "") ","
	SIMPLE("g", "y", "gcc/-O3/native", "gcc", "200", R9("0.98", "1.02"), ""));

static void test_answer_at_the_edge(void **state)
{
	(void)state;
	struct model m;
	load(&m, edge_run, NULL, NULL);
	struct mfamily *f = model_family(&m, "g");
	assert_int_equal(f->answer.n, 3);
	assert_string_equal(f->answer.v[0], "g/x: gcc/-O3/native fastest, 1.03x the runner-up gcc/-O2/native (a real lead: "
					    "[1.01x, 1.05x] at 95 %, a bootstrap of both cells' runs (no rounds in common); a "
					    "second run calls it real about 54 % of the time)");
	assert_true(f->answers[0].repeat > 0.5 && f->answers[0].repeat < 0.6);
	assert_true(f->answers[1].repeat > 0.99);
	assert_int_equal(model_unsure_leads(f), 1);
	assert_non_null(strstr(f->answer.v[2], "2 of these 2 leads are real (the run's 2 comparisons at a 5 % false-lead "
					       "rate), 1 of them may not repeat (a second run calls it real less than 90 % "
					       "of the time)"));
	/* the gap -O3 against -O2 carries each variant's chance */
	assert_int_equal(f->ngaps, 1);
	for (size_t k = 0; k < f->gaps[0].n; k++)
		assert_true(!strcmp(f->gaps[0].v[k].variant, "x") ? f->gaps[0].v[k].repeat < 0.6
								 : f->gaps[0].v[k].repeat > 0.99);
	model_free(&m);
}

/* "Fastest" holds against every build: the runner-up by figure (1 % behind,
 * runs within 0.5 %) is clearly led, a build 3 % behind whose runs spread
 * 5 % each way is not, so the lead is not real and the answer names that
 * build.  Testing the runner-up alone called it real. */
static const char *const every_run = RUN(
	"e", "host", "\"h\": {\"kind\": \"stream\", \"title\": \"H\"}",
	SIMPLE("h", "x", "gcc/-O3/native", "gcc", "103", R9("0.995", "1.005"), "") ","
	SIMPLE("h", "x", "gcc/-O2/native", "gcc", "101", R9("0.995", "1.005"), "") ","
	SIMPLE("h", "x", "clang/-O2/native", "clang", "100", R9("0.95", "1.05"), ""));

static void test_answer_leads_every_build(void **state)
{
	(void)state;
	struct model m;
	load(&m, every_run, NULL, NULL);
	struct mfamily *f = model_family(&m, "h");
	assert_int_equal(f->nanswers, 1);
	const struct manswer *a = &f->answers[0];
	assert_string_equal(a->leader, "gcc/-O3/native");
	assert_string_equal(a->runner, "clang/-O2/native");
	assert_string_equal(a->second, "gcc/-O2/native");
	assert_int_equal(a->verdict, VERDICT_INCONCLUSIVE);
	assert_float_equal(a->lead, 1.03, 0.001);
	assert_non_null(strstr(f->answer.v[0], "h/x: gcc/-O3/native fastest, 1.03x clang/-O2/native (not a real lead: "));
	assert_non_null(strstr(f->answer.v[0], "which it does not clearly lead although it leads the runner-up "
					       "gcc/-O2/native, 1.03x the slowest clang/-O2/native"));
	/* no real lead among the family's answers */
	assert_int_equal(f->nreal, 0);
	model_free(&m);
}

/* Fifteen rounds whose paired comparisons go round in a circle: C
 * (gcc/-O2/native) beats A (gcc/-O3/default) in 14 (a real lead), A beats
 * B (clang/-O2/native) in 8, B beats C in 8; the figures tie, A's first.
 * Ranked against A, C led and B was the build C does not clearly lead:
 * "C fastest, 0.99x B", a leader behind its runner-up.  The answer names
 * the build the one comparison puts ahead of the other (never below
 * 1.00x) and says where the figure puts another first. */
#define ROUNDS ", \"rounds\": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]"
static const char *const circle_run = RUN(
	"c", "host", "\"k\": {\"kind\": \"stream\", \"title\": \"K\"}",
	SIMPLE("k", "x", "gcc/-O3/default", "gcc", "100",
	       "[1.00, 1.02, 1.02, 1.02, 1.02, 1.02, 1.02, 1.02, 1.01, 1.01, 1.01, 1.01, 1.01, 1.01, 1.01]" ROUNDS, "") ","
	SIMPLE("k", "x", "clang/-O2/native", "clang", "100",
	       "[1.01, 1.00, 1.00, 1.00, 1.00, 1.00, 1.00, 1.00, 1.02, 1.02, 1.02, 1.02, 1.02, 1.02, 1.02]" ROUNDS, "") ","
	SIMPLE("k", "x", "gcc/-O2/native", "gcc", "100",
	       "[1.02, 1.01, 1.01, 1.01, 1.01, 1.01, 1.01, 1.01, 1.00, 1.00, 1.00, 1.00, 1.00, 1.00, 1.00]" ROUNDS, ""));

static void test_answer_leader_never_behind(void **state)
{
	(void)state;
	struct model m;
	load(&m, circle_run, NULL, NULL);
	struct mfamily *f = model_family(&m, "k");
	assert_int_equal(f->nanswers, 1);
	const struct manswer *a = &f->answers[0];
	/* the leader is ahead of its runner-up by the one comparison */
	assert_true(a->lead >= 1);
	assert_string_equal(a->leader, "clang/-O2/native");
	assert_string_equal(a->runner, "gcc/-O2/native");
	assert_string_equal(a->by_figure, "gcc/-O3/default");
	assert_null(strstr(f->answer.v[0], "the slowest clang/-O2/native"));
	assert_null(strstr(f->answer.v[0], " 0.9"));
	assert_non_null(strstr(f->answer.v[0], "k/x: clang/-O2/native fastest, 1.010x the runner-up gcc/-O2/native ("));
	/* the figure's fastest is named too */
	assert_non_null(strstr(f->answer.v[0], "; by its figure gcc/-O3/default is the fastest (1.00x clang/-O2/native's figure)"));
	model_free(&m);
}

static void test_answer_shares_and_views(void **state)
{
	(void)state;
	struct model m;
	load(&m, answer_run, NULL, NULL);
	struct mfamily *f = model_family(&m, "f");
	assert_int_equal(f->answer.n, 3);
	/* the answer is the one comparison's: a 1 % lead over runs within 1 % is not real */
	assert_string_equal(f->answer.v[0], "f/v: gcc/-O3/native fastest, 1.01x the runner-up clang/-O2/native "
					    "(not a real lead: [0.99x, 1.03x] at 95.8 %, which holds 1.00x, a bootstrap of both cells' runs (no "
					    "rounds in common)), 1.50x the "
					    "slowest gcc/-O2/native");
	assert_string_equal(f->answer.v[1], "f/w: gcc/-O3/native fastest, 2.00x the runner-up gcc/-O2/native "
					    "(a real lead: [1.96x, 2.04x] at 95.8 %, a bootstrap of both cells' runs (no rounds in common)), "
					    "4.00x the slowest clang/-O2/native");
	assert_string_equal(f->answer.v[2], "f: most often fastest: compiler gcc for 2 of 2 variants, flags "
					    "-O3/native for 2 of 2; 1 of these 2 leads are real (the run's 6 comparisons at "
					    "a 5 % false-lead rate); code layout not varied (--layouts K tests it)");
	/* the same as data, for the end of a run (answers_writer.h) */
	assert_int_equal(f->nanswers, 2);
	assert_string_equal(f->answers[1].leader, "gcc/-O3/native");
	assert_string_equal(f->answers[1].runner, "gcc/-O2/native");
	assert_int_equal(f->answers[1].verdict, VERDICT_FASTER);
	assert_float_equal(f->answers[1].lead, 2, 0.02);
	assert_int_equal(f->answers[0].verdict, VERDICT_INCONCLUSIVE);
	assert_true(f->nleads == 2 && f->nreal == 1 && f->most_compiler_n == 2 && !strcmp(f->most_compiler, "gcc"));
	/* the gaps: configurations that differ in one part, B against A in the
	 * suite's order, named by what they share where it varies; both groups
	 * real, each largest first (gcc/-O3 against clang/-O2 differ in two
	 * parts: no gap) */
	assert_int_equal(f->ngaps, 2);
	const struct mgap *g = &f->gaps[0];
	assert_true(!strcmp(g->b, "-O3") && !strcmp(g->a, "-O2") && !strcmp(g->context, "gcc"));
	assert_true(g->n == 2 && g->real == 2);
	assert_string_equal(g->v[0].variant, "w");
	assert_float_equal(g->v[0].ratio, 2, 0.02);
	assert_int_equal(g->v[0].verdict, VERDICT_FASTER);
	assert_float_equal(g->largest, log(2), 0.01);
	g = &f->gaps[1];
	assert_true(!strcmp(g->b, "clang") && !strcmp(g->a, "gcc") && !strcmp(g->context, "-O2"));
	assert_true(g->n == 2 && g->real == 2);
	assert_string_equal(g->v[0].variant, "w");
	assert_float_equal(g->v[0].ratio, 0.5, 0.01);
	assert_int_equal(g->v[0].verdict, VERDICT_SLOWER);
	assert_string_equal(g->v[1].variant, "v");
	assert_int_equal(g->v[1].verdict, VERDICT_FASTER);
	/* a tie shares the leader's colour; the rest their share of the best */
	struct mtable *t = table_of(&m, "f", "throughput");
	assert_float_equal(t->rows[0].cells[1].share, 1, 1e-12);
	assert_float_equal(t->rows[0].cells[2].share, 1, 1e-12);
	assert_float_equal(t->rows[0].cells[0].share, 100 / 150.0, 1e-12);
	/* no baseline variant: no speedup table; against gcc/-O2 by default */
	assert_null(table_of(&m, "f", "speedup"));
	t = table_of(&m, "f", "against");
	assert_non_null(t);
	assert_string_equal(text_at(t, 0, 1), "1.50x [1.47x, 1.53x]");
	assert_string_equal(text_at(t, 1, 2), "0.50x [0.49x, 0.51x]");
	t = table_of(&m, "f", "compilers");
	assert_int_equal(t->ncols, 1);
	assert_string_equal(t->cols[0], "-O2/native");
	assert_float_equal(t->rows[0].cells[0].value, 100 / 149.0, 1e-12);
	t = table_of(&m, "f", "instructions");
	assert_string_equal(text_at(t, 0, 1), "3.76 instructions/byte");
	assert_string_equal(text_at(t, 0, 0), "n/a");
	/* emulated cells are a family of their own */
	assert_non_null(model_family(&m, "f (emulated)"));
	assert_string_equal(model_family(&m, "f (emulated)")->slug, "f__emulated_");
	assert_string_equal(model_family(&m, "f (emulated)")->title, "F (emulated: times are not comparable with native ones)");
	model_free(&m);

	load(&m, answer_run, NULL, "gcc/-O3");
	t = table_of(&m, "f", "against");
	assert_string_equal(t->title, "F: against gcc/-O3, built with the same other flags");
	assert_string_equal(text_at(t, 1, 0), "0.50x [0.49x, 0.51x]");
	model_free(&m);
}

/* Emulated cells: the faster emulated build is the one with more instructions;
 * the answer goes by the counts, fewest first. */
static const char *const emulated_run = RUN(
	"e", "host", "\"f\": {\"kind\": \"stream\", \"title\": \"F\"}",
	SIMPLE("f", "v", "gcc/-O2/rv64gc", "gcc", "100", "1",
	       "\"emulated\": true, \"counters\": {\"unit\": \"byte\", \"instructions_per_unit\": 40}, ") ","
	SIMPLE("f", "v", "gcc/-O2/rv64gc_zbb", "gcc", "50", "1",
	       "\"emulated\": true, \"counters\": {\"unit\": \"byte\", \"instructions_per_unit\": 30}, "));

static void test_emulated_answer_by_counts(void **state)
{
	(void)state;
	struct model m;
	load(&m, emulated_run, NULL, NULL);
	struct mfamily *f = model_family(&m, "f (emulated)");
	assert_non_null(f);
	assert_int_equal(f->answer.n, 1);
	assert_string_equal(f->answer.v[0], "f (emulated)/v: gcc/-O2/rv64gc_zbb fewest instructions, the runner-up "
					    "gcc/-O2/rv64gc counts 1.33x as many");
	model_free(&m);
}

static void test_runs_side_by_side(void **state)
{
	(void)state;
	struct model m;
#define FAM "\"f\": {\"kind\": \"stream\", \"baseline\": \"s\"}"
	load(&m, RUN("a", "J4205", FAM, SIMPLE("f", "s", "gcc/-O2/goldmont", "gcc", "1048576", ONE_PCT, "\"march\": \"goldmont\", ") ","
					 SIMPLE("f", "u", "gcc/-O3/goldmont", "gcc", "2097152", ONE_PCT, "\"march\": \"goldmont\", ")),
	     RUN("b", "5700X", FAM, SIMPLE("f", "s", "gcc/-O2/znver3", "gcc", "3145728", ONE_PCT, "\"march\": \"znver3\", ") ","
				    SIMPLE("f", "t", "gcc/-O2/znver3", "gcc", "6291456", ONE_PCT, "\"march\": \"znver3\", ")),
	     NULL);
	struct mtable *t = table_of(&m, "f", "throughput");
	assert_int_equal(t->ncols, 2);
	assert_string_equal(t->cols[0], "J4205");
	/* one -march per run: the same build meets its twin; rows of one run only come last */
	assert_string_equal(t->rows[0].title, "gcc/-O2/(profile march)");
	assert_string_equal(text_at(t, 0, 1), "3.0 MiB/s \xc2\xb1" "1.0%");
	assert_string_equal(t->rows[1].label, "u");
	assert_string_equal(text_at(t, 1, 1), "absent");
	t = table_of(&m, "f", "speedup");
	assert_string_equal(text_at(t, 2, 1), "2.00x [1.98x, 2.02x]");
	model_free(&m);
}

static void test_bad_input(void **state)
{
	(void)state;
	static const char *const texts[] = {
		"{\"schema\": \"flagbench-results/1\", \"cells\": [",   /* invalid JSON */
		"{\"schema\": \"something-else/1\", \"cells\": []}",    /* wrong schema */
		"{\"cells\": []}",                                      /* no schema */
		"{\"schema\": \"flagbench-results/1\", \"cells\": 3}", /* cells not an array */
		"[1, 2, 3]",                                            /* not an object */
	};
	struct model m;
	int null = open("/dev/null", O_WRONLY), err = dup(2);
	dup2(null, 2);
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		char *path = temp_file(texts[i]);
		char *argv[] = { "tables", path, NULL };
		assert_int_equal(model_load(&m, argv + 1, 1, NULL), -1);
		model_free(&m);
		assert_int_equal(cmd_tables(2, argv), 2);
		unlink(path);
		free(path);
	}
	char *missing[] = { "report", "/nonexistent/flagbench-run", NULL }, *none[] = { "report", NULL };
	char *badopt[] = { "merge", "--bogus", "x", NULL }, *badfmt[] = { "tables", "--format", "xml", "x", NULL };
	assert_int_equal(cmd_tables(2, missing), 2);
	assert_int_equal(cmd_tables(1, none), 2);
	assert_int_equal(cmd_tables(3, badopt), 2);
	assert_int_equal(cmd_tables(4, badfmt), 2);
	dup2(err, 2);
	close(err);
	close(null);
}

/* Text from results.json cannot break a format: Markdown pipes and line breaks,
 * CSV quotes, terminal control characters, gnuplot's tabs and quotes. */
static void test_escaping(void **state)
{
	(void)state;
	struct model m;
	load(&m, RUN("e", "host", "\"f\": {\"kind\": \"stream\", \"title\": \"a|b\\nc \\\"q\\\" \\u001b[31m\"}",
		     SIMPLE("f", "x|\\ty\\\"", "gcc/-O2/n", "gcc", "1048576", ONE_PCT, "")),
	     NULL, NULL);
	static const struct {
		enum mformat fmt;
		const char *want, *never;
	} cases[] = {
		{ FMT_MD, "| x\\| y\" | x\\| y\" | 1.0 MiB/s \xc2\xb1" "1.0% |", "a|b" },
		{ FMT_CSV, "\"f\",\"throughput\",\"x|\ty\"\"\",", "\"x|\ty\"," },
		{ FMT_TERM, "a|b?c \"q\" ?[31m", "\x1b" },
		{ FMT_JSON, "\"label\": \"x|\\ty\\\"\"", "\x1b" },
		{ FMT_TSV, "0\t1\t0.9900990099\t1.01010101\t1\t1\t1.0 MiB/s \xc2\xb1" "1.0%\tx| y'\tgcc/-O2/n\n", "\"" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct strbuf sb = STRBUF_INIT;
		assert_int_equal(model_write(&m, cases[i].fmt, cases[i].fmt == FMT_TSV ? "f" : NULL,
					     cases[i].fmt == FMT_TSV ? "throughput" : NULL, &sb), 0);
		if (!strstr(sb.buf, cases[i].want) || strstr(sb.buf, cases[i].never))
			fail_msg("format %d:\n%s", (int)cases[i].fmt, sb.buf);
		sb_release(&sb);
	}
	model_free(&m);
}

/* The JSON writer: a figure that is not finite is null, its key kept
 * (core/json_util.h): an infinite ci_level once made jansson's json_real()
 * return NULL and the key vanish, an infinite share the whole cell. */
static json_t *json_cell(struct model *m)
{
	struct strbuf sb = STRBUF_INIT;
	assert_int_equal(model_write(m, FMT_JSON, "f", "throughput", &sb), 0);
	json_error_t err;
	json_t *root = json_loads(sb.buf, 0, &err);
	if (!root)
		fail_msg("not JSON (%s):\n%s", err.text, sb.buf);
	sb_release(&sb);
	json_t *tables = json_object_get(json_array_get(json_object_get(root, "families"), 0), "tables");
	json_t *cells = json_object_get(json_array_get(json_object_get(json_array_get(tables, 0), "rows"), 0), "cells");
	if (json_array_size(cells) != 1) {
		char *text = json_dumps(root, JSON_INDENT(1));
		fail_msg("no cell:\n%s", text);
	}
	json_t *cell = json_incref(json_array_get(cells, 0));
	json_decref(root);
	return cell;
}

static void test_json_not_finite(void **state)
{
	(void)state;
	struct model m;
	load(&m, RUN("e", "host", "\"f\": {\"kind\": \"stream\"}", SIMPLE("f", "x", "gcc/-O2/n", "gcc", "1048576", ONE_PCT, "")),
	     NULL, NULL);
	struct mtable *t = table_of(&m, "f", "throughput");
	assert_non_null(t);
	struct mcell *x = &t->rows[0].cells[0];
	static const double bad[] = { INFINITY, -INFINITY, NAN };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		double level = x->level, share = x->share, lo = x->lo;
		x->level = bad[i];
		json_t *cell = json_cell(&m);
		assert_non_null(json_object_get(cell, "ci_level"));
		assert_true(json_is_null(json_object_get(cell, "ci_level")));
		assert_true(json_is_number(json_object_get(cell, "value")));
		json_decref(cell);
		x->share = x->lo = bad[i];
		cell = json_cell(&m);
		assert_true(json_is_null(json_object_get(cell, "share")) && json_is_null(json_object_get(cell, "low")));
		assert_true(json_is_number(json_object_get(cell, "high")));
		json_decref(cell);
		x->level = level;
		x->share = share;
		x->lo = lo;
	}
	model_free(&m);
}

/* A ratio cell in JSON: its interval as text and as low and high, no ±
 * (pm, ci_percent) for an interval that is not symmetric; its legend says
 * what [low, high] is. */
static void test_ratio_json(void **state)
{
	(void)state;
	struct model m;
	load(&m, answer_run, NULL, NULL);
	struct strbuf sb = STRBUF_INIT;
	assert_int_equal(model_write(&m, FMT_JSON, "f", "against", &sb), 0);
	json_t *root = json_loads(sb.buf, 0, NULL);
	assert_non_null(root);
	json_t *t = json_array_get(json_object_get(json_array_get(json_object_get(root, "families"), 0), "tables"), 0);
	json_t *cell = json_array_get(json_object_get(json_array_get(json_object_get(t, "rows"), 0), "cells"), 1);
	assert_string_equal(json_string_value(json_object_get(cell, "text")), "1.50x [1.47x, 1.53x]");
	assert_string_equal(json_string_value(json_object_get(cell, "figure")), "1.50x");
	assert_string_equal(json_string_value(json_object_get(cell, "interval")), "[1.47x, 1.53x]");
	assert_string_equal(json_string_value(json_object_get(cell, "pm")), "");
	assert_true(json_is_null(json_object_get(cell, "ci_percent")) && json_is_null(json_object_get(cell, "ci95_percent")));
	double lo = json_number_value(json_object_get(cell, "low")), hi = json_number_value(json_object_get(cell, "high"));
	assert_true(lo > 1.46 && lo < 1.475 && hi > 1.525 && hi < 1.54);
	const char *legend = json_string_value(json_array_get(json_object_get(t, "legend"), 0));
	assert_non_null(strstr(legend, "[low, high] after a ratio is its interval"));
	assert_null(strstr(legend, "\xc2\xb1"));
	json_decref(root);
	sb_release(&sb);
	model_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_interval_formats),
		cmocka_unit_test(test_values_intervals_marks),
		cmocka_unit_test(test_answer_shares_and_views),
		cmocka_unit_test(test_answer_at_the_edge),
		cmocka_unit_test(test_answer_leads_every_build),
		cmocka_unit_test(test_answer_leader_never_behind),
		cmocka_unit_test(test_emulated_answer_by_counts),
		cmocka_unit_test(test_runs_side_by_side),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_escaping),
		cmocka_unit_test(test_json_not_finite),
		cmocka_unit_test(test_ratio_json),
	};
	return cmocka_run_group_tests_name("model", tests, NULL, NULL);
}
