/* test_session.c: the order session_ready() (pipeline/session.h) owns,
 * through an executor that records every stage it is asked for: build,
 * then prepare, then each distinct program verified, then only the
 * verified compute cells counted; a cell whose check fails is never
 * counted (nor listed to be timed); a twin (the same program as an earlier
 * cell, by the program identity) is neither verified nor counted and takes
 * its source's verdict; the same binary run with other arguments or
 * another environment pad is no twin; stored binaries (a replay) skip the
 * build, not the verification; a batch stopped after building goes on from
 * there; a cell the caller knows the figure of is left alone. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/util.h"
#include "pipeline/executor.h"
#include "pipeline/plan.h"
#include "pipeline/session.h"

static struct variant var = { .name = "v", .title = "v" };
static struct family fam = { .name = "f", .kind = KIND_COMPUTE, .unit = "ops", .rate_unit = "ops/s" };

/* What the executor was asked, in order: "build", "prepare", "verify ID",
 * "count ID". */
static struct strvec calls = STRVEC_INIT;

/* A build gives each pending cell without a binary one whose sha256 is
 * named by its config: cells of one config are one binary. */
static int rec_build(struct plan *p, const struct build_request *rq, struct build_stats *st)
{
	(void)rq;
	sv_push(&calls, "build");
	for (size_t i = 0; i < p->n; i++) {
		struct cell *c = &p->cells[i];
		if (c->status != CELL_PENDING || c->build.binary)
			continue;
		c->build.binary = xasprintf("/bin/%s", c->spec.config);
		snprintf(c->build.sha256, sizeof(c->build.sha256), "%064zx", strlen(c->spec.config) * 7919 + (size_t)c->spec.config[0]);
		st->compiled++;
	}
	return 0;
}

static void rec_prepare(struct plan *p, const char *cache_dir, double timeout_s)
{
	(void)p;
	(void)cache_dir;
	(void)timeout_s;
	sv_push(&calls, "prepare");
}

/* A cell whose config starts with "bad" writes the wrong output. */
static int rec_verify(struct cell *c, double timeout_s)
{
	(void)timeout_s;
	sv_pushf(&calls, "verify %s", c->spec.id);
	if (!strncmp(c->spec.config, "bad", 3)) {
		cell_set_status(c, CELL_WRONG_OUTPUT, "the checker says no");
		return -1;
	}
	return 0;
}

static json_t *rec_count(const struct cell *c, enum counter_source src, double timeout_s)
{
	(void)src;
	(void)timeout_s;
	sv_pushf(&calls, "count %s", c->spec.id);
	return json_pack("{s:s, s:f}", "source", "fake", "instructions_per_unit", 10.0);
}

static const struct executor recorder = {
	.name = "recorder",
	.times = EXECUTOR_TIMES_MADE_UP,
	.build = rec_build,
	.prepare = rec_prepare,
	.verify = rec_verify,
	.count = rec_count,
};

static void make_cell(struct cell *c, const char *id, const char *config)
{
	memset(c, 0, sizeof(*c));
	cell_reset(c);
	struct cell_spec *s = &c->spec;
	s->id = xstrdup(id);
	s->config = xstrdup(config);
	s->family = &fam;
	s->variant = &var;
	s->allocator = xstrdup("glibc");
	s->layouts = 1;
	s->pin = (struct pins){ PIN_NONE, PIN_NONE, PIN_NONE };
	sv_push(&s->run_args, "100");
	c->status = CELL_PENDING;
	c->build.same_binary_as = -1;
}

static void free_cells(struct cell *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		cell_reset(&c[i]);
		cell_spec_clear(&c[i].spec);
	}
}

static void open_session(struct session *s)
{
	struct session_limits lim;
	session_limits_derive(&lim, 1, 1, 0);
	session_open(s, &recorder, "/nonexistent", 2, &lim);
	s->progress = NULL;
	sv_clear(&calls);
}

/* Where call `what` is in the record; -1 when it was never made. */
static int call_at(const char *what)
{
	for (size_t i = 0; i < calls.n; i++)
		if (!strcmp(calls.v[i], what))
			return (int)i;
	return -1;
}

static void assert_called_after(const char *later, const char *earlier)
{
	int l = call_at(later), e = call_at(earlier);
	if (l < 0 || e < 0 || l < e)
		fail_msg("'%s' (call %d) does not follow '%s' (call %d)", later, l, earlier, e);
}

static void assert_never(const char *what)
{
	if (call_at(what) >= 0)
		fail_msg("'%s' was called (call %d)", what, call_at(what));
}

/* build -> prepare -> verify -> count; a failed check is never counted
 * nor listed; twins take their source's verdict, unverified. */
static void test_order(void **state)
{
	(void)state;
	struct cell cells[5];
	make_cell(&cells[0], "f/v@good", "good");
	make_cell(&cells[1], "f/v@bad", "bad");
	make_cell(&cells[2], "f/v@good-again", "good"); /* the same program as cell 0 */
	make_cell(&cells[3], "f/v@bad-again", "bad");   /* the same program as cell 1 */
	make_cell(&cells[4], "f/v@other", "other");
	struct plan p = { .cells = cells, .n = 5 };
	struct session s;
	open_session(&s);
	struct session_batch b = { .upto = SESSION_COUNTED, .counters = COUNTERS_CALLGRIND };
	assert_int_equal(session_ready(&s, &p, &b), 0);
	assert_int_equal(b.reached, SESSION_COUNTED);
	assert_called_after("prepare", "build");
	assert_called_after("verify f/v@good", "prepare");
	assert_called_after("verify f/v@bad", "prepare");
	assert_called_after("count f/v@good", "verify f/v@good");
	/* every verification comes before the first count */
	assert_called_after("count f/v@good", "verify f/v@other");
	assert_called_after("count f/v@good", "verify f/v@bad");
	assert_called_after("count f/v@other", "verify f/v@other");
	assert_never("count f/v@bad");
	assert_never("verify f/v@good-again");
	assert_never("verify f/v@bad-again");
	assert_never("count f/v@good-again");
	assert_never("count f/v@bad-again");
	assert_int_equal(b.verified, 3);
	assert_int_equal(b.nmeasure, 2);
	assert_int_equal(b.measure[0], 0);
	assert_int_equal(b.measure[1], 4);
	assert_int_equal(cells[1].status, CELL_WRONG_OUTPUT);
	assert_int_equal(cells[2].status, CELL_PENDING);
	assert_int_equal(cells[2].build.same_binary_as, 0);
	assert_int_equal(cells[3].status, CELL_WRONG_OUTPUT);
	assert_non_null(strstr(cells[3].reason, "same binary as f/v@bad"));
	assert_int_equal(cells[0].measure.counters.state, COUNTERS_COUNTED);
	assert_int_equal(cells[1].measure.counters.state, COUNTERS_NOT_RUN);
	session_batch_release(&b);
	session_close(&s);
	free_cells(cells, 5);
}

/* The same binary with other arguments or another environment pad is
 * another program: no twin, verified and measured on its own. */
static void test_twins_by_program(void **state)
{
	(void)state;
	for (int k = 0; k < 2; k++) {
		struct cell cells[2];
		make_cell(&cells[0], "f/v@a", "same");
		make_cell(&cells[1], "f/v@b", "same");
		if (k == 0) {
			free(cells[1].spec.run_args.v[0]);
			cells[1].spec.run_args.v[0] = xstrdup("200");
		} else {
			cells[1].spec.env_pad = 2208;
		}
		struct plan p = { .cells = cells, .n = 2 };
		struct session s;
		open_session(&s);
		struct session_batch b = { .upto = SESSION_VERIFIED };
		session_ready(&s, &p, &b);
		assert_string_equal(cells[0].build.sha256, cells[1].build.sha256);
		assert_int_equal(cells[1].build.same_binary_as, -1);
		assert_true(call_at("verify f/v@b") >= 0);
		assert_int_equal(b.nmeasure, 2);
		session_batch_release(&b);
		session_close(&s);
		free_cells(cells, 2);
	}
}

/* Stored binaries (--binaries-from, compare --confirm's replays) skip the
 * build, not the verification. */
static void test_stored_verified(void **state)
{
	(void)state;
	struct cell cells[2];
	make_cell(&cells[0], "f/v@base", "good");
	make_cell(&cells[1], "f/v@new", "bad");
	cells[0].build.binary = xstrdup("/run-a/bin/x");
	cells[1].build.binary = xstrdup("/run-b/bin/y");
	struct plan p = { .cells = cells, .n = 2 };
	struct session s;
	open_session(&s);
	struct session_batch b = { .upto = SESSION_VERIFIED, .stored = 1 };
	session_ready(&s, &p, &b);
	assert_never("build");
	assert_true(call_at("verify f/v@base") >= 0);
	assert_true(call_at("verify f/v@new") >= 0);
	assert_int_equal(cells[1].status, CELL_WRONG_OUTPUT);
	assert_int_equal(b.nmeasure, 1);
	assert_int_equal(b.measure[0], 0);
	session_batch_release(&b);
	session_close(&s);
	free_cells(cells, 2);
}

/* A batch stopped after building goes on from there: built once,
 * verified only when asked. */
static void test_stop_after_build(void **state)
{
	(void)state;
	struct cell cells[1];
	make_cell(&cells[0], "f/v@a", "good");
	struct plan p = { .cells = cells, .n = 1 };
	struct session s;
	open_session(&s);
	struct session_batch b = { .upto = SESSION_BUILT };
	session_ready(&s, &p, &b);
	assert_int_equal(b.reached, SESSION_BUILT);
	assert_true(call_at("build") >= 0);
	assert_never("verify f/v@a");
	assert_null(b.measure);
	sv_clear(&calls);
	b.upto = SESSION_VERIFIED;
	session_ready(&s, &p, &b);
	assert_never("build");
	assert_never("prepare");
	assert_true(call_at("verify f/v@a") >= 0);
	assert_int_equal(b.nmeasure, 1);
	session_batch_release(&b);
	session_close(&s);
	free_cells(cells, 1);
}

static int known_first(void *ctx, const struct plan *p, size_t i)
{
	(void)ctx;
	(void)p;
	return i == 0;
}

/* A cell whose figure the caller has (tune's start) is neither verified
 * nor counted; its twin stays pending, unverified. */
static void test_known(void **state)
{
	(void)state;
	struct cell cells[3];
	make_cell(&cells[0], "f/v@start", "start");
	make_cell(&cells[1], "f/v@same", "start");
	make_cell(&cells[2], "f/v@new", "new");
	struct plan p = { .cells = cells, .n = 3 };
	struct session s;
	open_session(&s);
	struct session_batch b = { .upto = SESSION_COUNTED, .known = known_first };
	session_ready(&s, &p, &b);
	assert_never("verify f/v@start");
	assert_never("count f/v@start");
	assert_never("verify f/v@same");
	assert_int_equal(cells[1].build.same_binary_as, 0);
	assert_int_equal(cells[1].status, CELL_PENDING);
	assert_int_equal(b.nmeasure, 1);
	assert_int_equal(b.measure[0], 2);
	assert_called_after("count f/v@new", "verify f/v@new");
	session_batch_release(&b);
	session_close(&s);
	free_cells(cells, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_twins_by_program),
		cmocka_unit_test(test_stored_verified),
		cmocka_unit_test(test_stop_after_build),
		cmocka_unit_test(test_known),
	};
	int r = cmocka_run_group_tests(tests, NULL, NULL);
	sv_clear(&calls);
	return r;
}
