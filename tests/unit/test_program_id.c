/* test_program_id.c: the one identity of a program (pipeline/plan.h's
 * struct program_id: binary sha256, argv, allocator, placement, consumer
 * and environment pad), asked by every place that decides "the same
 * program": two cells differing in one part at a time go through the
 * session's dedupe (session_ready, as far as built), the undecided answers
 * (answers_undecided), results.json and back (cell_to_json, the reader's
 * view, program_id_from_record and program_id_from_json), and compare
 * between two runs (compare_runs); each says "the same" exactly where the
 * identity does.  The tables' twin marks (report/model_compare.c) read the
 * same records: tests/e2e/same_program.bats. */
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
#include "analysis/comparison.h"
#include "analysis/undecided.h"
#include "core/stats.h"
#include "pipeline/build.h"
#include "pipeline/plan.h"
#include "pipeline/session.h"
#include "results/reader.h"
#include "results/results.h"

#include "compare_docs.h"

#define SHA "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
#define NRUNS 13

static struct variant var = { .name = "v", .title = "v" };
static struct family fam = { .name = "f", .kind = KIND_COMPUTE, .unit = "ops", .rate_unit = "ops/s" };

/* B differs from A in one part of its program, or in none. */
enum change {
	SAME,
	HEX_CASE,          /* the sha256 in capitals: the same binary */
	GLIBC_NAMED,       /* A's allocator missing, B's "glibc": the default either way */
	OTHER_BINARY,
	OTHER_ARGV,        /* another input file, say */
	OTHER_ALLOCATOR,
	OTHER_PLACEMENT,
	OTHER_CONSUMER,
	OTHER_ENV_PAD,
	NO_BINARY,         /* both without a sha256: never the same */
	NCHANGES,
};

static const struct {
	const char *name;
	int same;
} changes[NCHANGES] = {
	[SAME] = { "nothing", 1 },
	[HEX_CASE] = { "the sha256's case", 1 },
	[GLIBC_NAMED] = { "glibc named", 1 },
	[OTHER_BINARY] = { "the binary", 0 },
	[OTHER_ARGV] = { "argv", 0 },
	[OTHER_ALLOCATOR] = { "the allocator", 0 },
	[OTHER_PLACEMENT] = { "the placement", 0 },
	[OTHER_CONSUMER] = { "the consumer", 0 },
	[OTHER_ENV_PAD] = { "the environment pad", 0 },
	[NO_BINARY] = { "no binary on either side", 0 },
};

/* A built cell of variant v, with NRUNS runs of base seconds (within
 * 5 % of each other round by round, so that two of them 10 % apart are
 * a lead at the edge, an open question unless they are one program). */
static void make_cell(struct cell *c, const char *id, double base, unsigned phase)
{
	memset(c, 0, sizeof(*c));
	struct cell_spec *s = &c->spec;
	s->id = xstrdup(id);
	s->config = xstrdup("gcc/-O2/native");
	s->family = &fam;
	s->variant = &var;
	s->opt = xstrdup("-O2");
	s->march = xstrdup("native");
	s->size = 100;
	s->expected_bytes = UINT64_MAX;
	s->layouts = 1;
	s->pin = (struct pins){ PIN_NONE, PIN_NONE, PIN_NONE };
	sv_push(&s->run_args, "100");
	sv_push(&s->run_args, "/cache/inputs/f-100.bin");
	c->build.binary = xstrdup("/cache/bin/v");
	snprintf(c->build.sha256, sizeof(c->build.sha256), "%s", SHA);
	c->build.bytes = 16384; /* a binary that exists (a mock's pretend one is not recorded) */
	c->build.same_binary_as = -1;
	c->status = CELL_PENDING;
	double t[NRUNS];
	c->measure.rounds = xmalloc(NRUNS * sizeof(int));
	for (size_t i = 0; i < NRUNS; i++) {
		t[i] = base * (1 + ((i + phase) % 2 ? 0.05 : -0.05) * (double)(1 + (i * phase) % 3) / 3);
		c->measure.rounds[i] = (int)i;
	}
	c->measure.nrounds = NRUNS;
	stats_compute_at(&c->measure.time, t, NRUNS, 0.25);
	c->speedup = c->vs_glibc = NAN;
}

static void set_str(char **field, const char *v)
{
	free(*field);
	*field = v ? xstrdup(v) : NULL;
}

/* Cells A and B that differ by change k. */
static void make_pair(struct cell *a, struct cell *b, enum change k)
{
	make_cell(a, "f/v@a", 1.00, 1);
	make_cell(b, "f/v@b", 1.10, 2);
	set_str(&a->spec.allocator, "glibc");
	set_str(&b->spec.allocator, "glibc");
	switch (k) {
	case SAME: break;
	case HEX_CASE:
		for (char *p = b->build.sha256; *p; p++)
			*p = (char)(*p >= 'a' && *p <= 'f' ? *p - 'a' + 'A' : *p);
		break;
	case GLIBC_NAMED: set_str(&a->spec.allocator, NULL); break;
	case OTHER_BINARY: b->build.sha256[63] = '9'; break;
	case OTHER_ARGV: set_str(&b->spec.run_args.v[1], "/cache/inputs/f-100-other.bin"); break;
	case OTHER_ALLOCATOR: set_str(&b->spec.allocator, "mimalloc"); break;
	case OTHER_PLACEMENT: set_str(&b->spec.placement, "same_l3"); break;
	case OTHER_CONSUMER: set_str(&b->spec.consumer, "pv"); break;
	case OTHER_ENV_PAD: b->spec.env_pad = 2208; break;
	case NO_BINARY: a->build.sha256[0] = b->build.sha256[0] = '\0'; break;
	case NCHANGES: break;
	}
}

/* got must be want for change k: the message names the change. */
static void expect(int k, int got, int want, const char *what)
{
	if (got != want)
		fail_msg("%s differs: %s is %d, expected %d", changes[k].name, what, got, want);
}

static void free_cell(struct cell *c)
{
	cell_reset(c);
	cell_spec_clear(&c->spec);
}

/* The identity itself, filled from the cells. */
static void test_identity_of_cells(void **state)
{
	(void)state;
	for (int k = 0; k < NCHANGES; k++) {
		struct cell a, b;
		make_pair(&a, &b, (enum change)k);
		struct program_id pa, pb;
		program_id_from_cell(&pa, &a);
		program_id_from_cell(&pb, &b);
		expect(k, program_id_same(&pa, &pb), changes[k].same, "program_id_same(a, b)");
		expect(k, program_id_same(&pb, &pa), changes[k].same, "program_id_same(b, a)");
		expect(k, cells_same_program(&a, &b), changes[k].same, "cells_same_program");
		assert_int_equal(program_id_same(&pa, &pa), k != NO_BINARY); /* an unknown program is no one's twin */
		assert_string_equal(pa.allocator, "glibc");
		/* a comparison of the two says the same binary exactly then */
		struct comparison_side sa = { .runs = NULL, .program = &pa }, sb = { .runs = NULL, .program = &pb };
		expect(k, comparison_same_binary(&sa, &sb), changes[k].same, "comparison_same_binary");
		program_id_clear(&pa);
		program_id_clear(&pb);
		free_cell(&a);
		free_cell(&b);
	}
}

/* The session's dedupe measures B once as A only when they are one
 * program (the binaries given: nothing to compile or prepare). */
static void test_session_dedupe(void **state)
{
	(void)state;
	static const struct executor none = { .name = "none" };
	struct session_limits lim;
	session_limits_derive(&lim, 1, 1, 0);
	for (int k = 0; k < NCHANGES; k++) {
		struct cell cells[2];
		make_pair(&cells[0], &cells[1], (enum change)k);
		struct plan p = { .cells = cells, .n = 2 };
		struct session s;
		session_open(&s, &none, "/nonexistent", 1, &lim);
		struct session_batch b = { .upto = SESSION_BUILT, .stored = 1 };
		session_ready(&s, &p, &b);
		session_batch_release(&b);
		session_close(&s);
		assert_int_equal(cells[0].build.same_binary_as, -1);
		expect(k, cells[1].build.same_binary_as, changes[k].same ? 0 : -1, "B's same_binary_as");
		free_cell(&cells[0]);
		free_cell(&cells[1]);
	}
}

/* The undecided answers: A and B 10 % apart within 5 % noise are an open
 * question, unless they are one program (the same binary: decided). */
static void test_undecided(void **state)
{
	(void)state;
	for (int k = 0; k < NCHANGES; k++) {
		struct cell cells[2];
		make_pair(&cells[0], &cells[1], (enum change)k);
		struct plan p = { .cells = cells, .n = 2 };
		unsigned char mark[2];
		answers_undecided(&p, NULL, mark);
		expect(k, mark[0], !changes[k].same, "A undecided");
		expect(k, mark[1], !changes[k].same, "B undecided");
		free_cell(&cells[0]);
		free_cell(&cells[1]);
	}
}

/* A cell's record as results.json holds it (through text), with layouts
 * so that its environment pad is written. */
static json_t *record_of(struct cell *c, const struct plan *p)
{
	c->status = CELL_OK;
	c->spec.layouts = 2;
	c->spec.layout = c->spec.env_pad ? 1 : 0;
	json_t *j = cell_to_json(c, p);
	char *text = json_dumps(j, JSON_COMPACT | JSON_REAL_PRECISION(17));
	json_t *back = json_loads(text, 0, NULL);
	free(text);
	json_decref(j);
	assert_non_null(back);
	return back;
}


/* The record's identity is the cell's: from the reader's view and from
 * the record alone; and compare between a run holding A's record and one
 * holding B's (under one id) says the same binary exactly then. */
static void test_records_and_compare(void **state)
{
	(void)state;
	for (int k = 0; k < NCHANGES; k++) {
		struct cell cells[2];
		make_pair(&cells[0], &cells[1], (enum change)k);
		struct plan p = { .cells = cells, .n = 2 };
		json_t *rec[2];
		struct results_cell view[2];
		struct program_id of_cell[2], of_view[2], of_json[2];
		for (int i = 0; i < 2; i++) {
			rec[i] = record_of(&cells[i], &p);
			assert_int_equal(results_cell_view(&view[i], rec[i], "t.json", 1), 0);
			assert_int_equal(view[i].env_pad, cells[i].spec.env_pad);
			program_id_from_cell(&of_cell[i], &cells[i]);
			program_id_from_record(&of_view[i], &view[i]);
			program_id_from_json(&of_json[i], rec[i]);
			/* the record holds the cell's program, read either way */
			assert_int_equal(program_id_same(&of_cell[i], &of_view[i]), k != NO_BINARY);
			assert_int_equal(program_id_same(&of_cell[i], &of_json[i]), k != NO_BINARY);
			assert_int_equal(of_view[i].env_pad, cells[i].spec.env_pad);
			assert_string_equal(of_view[i].allocator, of_cell[i].allocator);
		}
		expect(k, program_id_same(&of_view[0], &of_view[1]), changes[k].same, "the records' programs the same");
		expect(k, program_id_same(&of_json[0], &of_json[1]), changes[k].same, "the JSON records' programs the same");
		/* compare: BASE holds A's record, NEW B's, both under the id "c" */
		json_t *runs[2];
		for (int i = 0; i < 2; i++) {
			json_t *r = json_deep_copy(rec[i]);
			json_object_set_new(r, "id", json_string("c"));
			runs[i] = json_pack("{s:s, s:{s:s, s:s, s:s}, s:[o]}", "schema", RESULTS_SCHEMA, "run", "id", i ? "new" : "base",
					    "cpu_profile", "host", "statistic", "p25", "cells", r);
			assert_non_null(runs[i]);
		}
		struct compare_opts o = { METRIC_TIME, 0.02, 200, 1, NULL, COMPARE_SAME_BINARY_IS_SAME, NAN, 0 };
		struct comparison cmp;
		compare_docs(runs[0], runs[1], &o, &cmp);
		assert_int_equal(cmp.n, 1);
		/* two runs: the same program is known as such, and measured (an
		 * A/A comparison whose difference is the system's), never assumed */
		expect(k, cmp.cells[0].same_program, changes[k].same, "compare's same_program");
		expect(k, cmp.cells[0].verdict == VERDICT_SAME_BINARY, 0, "compare's verdict same binary across runs");
		comparison_free(&cmp);
		/* one run against itself: a known program is one measurement */
		compare_docs(runs[0], runs[0], &o, &cmp);
		expect(k, cmp.cells[0].verdict == VERDICT_SAME_BINARY, k != NO_BINARY, "compare's verdict of a run against itself");
		comparison_free(&cmp);
		for (int i = 0; i < 2; i++) {
			json_decref(runs[i]);
			program_id_clear(&of_cell[i]);
			program_id_clear(&of_view[i]);
			program_id_clear(&of_json[i]);
			results_cell_release(&view[i]);
			json_decref(rec[i]);
			free_cell(&cells[i]);
		}
	}
}

/* A record without a binary or without argv is an unknown program; one
 * without an allocator or layout is glibc's, unpadded. */
static void test_record_defaults(void **state)
{
	(void)state;
	json_t *r = json_pack("{s:s, s:{s:s}, s:[s]}", "id", "f/v@gcc/-O2/native", "binary", "sha256", SHA, "argv", "100");
	struct program_id a, b;
	program_id_from_json(&a, r);
	assert_non_null(a.sha256);
	assert_string_equal(a.allocator, "glibc");
	assert_null(a.placement);
	assert_null(a.consumer);
	assert_int_equal(a.env_pad, 0);
	assert_int_equal(a.argc, 1);
	json_t *r2 = json_deep_copy(r);
	json_object_set_new(r2, "allocator", json_string("glibc"));
	program_id_from_json(&b, r2);
	assert_true(program_id_same(&a, &b));
	program_id_clear(&b);
	json_object_set_new(r2, "layout", json_pack("{s:i, s:i, s:i, s:i}", "index", 1, "of", 2, "code_pad_bytes", 0,
						  "env_pad_bytes", 16));
	program_id_from_json(&b, r2);
	assert_int_equal(b.env_pad, 16);
	assert_false(program_id_same(&a, &b));
	program_id_clear(&b);
	json_object_del(r2, "argv");
	json_object_del(r2, "layout");
	program_id_from_json(&b, r2);
	assert_null(b.sha256);
	assert_false(program_id_same(&a, &b));
	program_id_clear(&b);
	json_object_set_new(r2, "argv", json_pack("[i]", 100)); /* not strings */
	program_id_from_json(&b, r2);
	assert_null(b.sha256);
	program_id_clear(&b);
	program_id_clear(&a);
	json_decref(r);
	json_decref(r2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_identity_of_cells),
		cmocka_unit_test(test_session_dedupe),
		cmocka_unit_test(test_undecided),
		cmocka_unit_test(test_records_and_compare),
		cmocka_unit_test(test_record_defaults),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
