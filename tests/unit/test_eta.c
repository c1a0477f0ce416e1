/* test_eta.c: the progress line's eta (driver/eta.h) against synthetic
 * histories whose true time left is known, and the runs an emulated cell
 * gets (pipeline/schedule.h). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/stats.h"
#include "driver/eta.h"
#include "pipeline/measure.h"
#include "pipeline/schedule.h"

#define within(got, want, rel) assert_true(fabs((got) - (want)) <= (rel) * (want))

/* Rounds: every cell two runs in, 10 % overhead on the batches: the rest
 * is three runs per cell at each cell's own cost, with that overhead. */
static void rounds_after_two(void **state)
{
	struct eta_policy p = { .runs = 5, .emulated_runs = 3 };
	struct eta_cell c[10];
	memset(c, 0, sizeof(c));
	for (int i = 0; i < 10; i++)
		c[i] = (struct eta_cell){ ETA_MEASURING, 2, 0.2, 0 };
	struct eta_history h = { .measure_s = 2.2, .verify_s = 1, .verified = 10, .paused = 10 };
	within(eta_estimate(&p, c, 10, &h), 10 * 3 * 0.1 * 1.1, 1e-9);
	/* a finished cell adds nothing, a cell still to verify its runs, its
	 * verification and its pause at their means */
	c[0].state = ETA_DONE;
	c[1] = (struct eta_cell){ ETA_TO_VERIFY, 0, 0, 0 };
	h.measure_s = 8 * 0.2 * 1.1 + 0.2 * 1.1;
	h.cooldown_s = 9;
	h.paused = 9;
	double per = h.measure_s / 18; /* the run's seconds per run so far */
	within(eta_estimate(&p, c, 10, &h), 8 * 3 * 0.1 * 1.1 + 5 * per + 0.1 + 1, 1e-9);
}

/* A cell still measuring past its budget is an open answer: all the way
 * to SCHEDULE_UNDECIDED_BUDGETS budgets (was nothing: "eta 4s" with 43
 * cells still taking rounds; then half the way: "eta 45s" with 111 s to go). */
static void open_answer_past_budget(void **state)
{
	struct eta_policy p = { .runs = 5, .max_runs = 1000, .precision = 3, .cell_budget = 1, .runs_for_rerun = 13,
				.rounds = 1 };
	struct eta_cell c = { ETA_MEASURING, 30, 1.5, 0 }; /* 0.05 s a run, 1.5 s spent of a 1 s budget */
	struct eta_history h = { .measure_s = 1.5, .verify_s = 0.05, .verified = 1, .paused = 1 };
	/* (3 x 1 s - 1.5 s) / 0.05 s = 30 runs to the end */
	within(eta_estimate(&p, &c, 1, &h), (SCHEDULE_UNDECIDED_BUDGETS * 1.0 - 1.5) / 0.05 * 0.05, 1e-9);
	/* a slow cell (0.5 s a run, 5 runs, past its 0.5 s budget) goes on to
	 * the runs for 95 % within 4 + 3 budgets: 7, 2 more (schedule.h) */
	p.cell_budget = 0.5;
	c = (struct eta_cell){ ETA_MEASURING, 5, 2.5, 0 };
	h.measure_s = 2.5;
	h.verify_s = 0.5;
	within(eta_estimate(&p, &c, 1, &h), 2 * 0.5, 1e-9);
}

/* A run of rounds at a quick suite's settings (a 1.25 s budget, 13 runs
 * for the interval, at most 30) replayed round by round, cell i ending at
 * final[i] runs of `per` seconds and a batch of `batch`: the estimate is
 * within 2x of the true time left at every round, from the first on. */
#define QUICK_MOST 30
static void replay_within_2x(const unsigned *final, size_t n, double per, double batch)
{
	struct eta_policy p = { .runs = 3, .max_runs = QUICK_MOST, .precision = 3, .cell_budget = 1.25,
				.runs_for_rerun = 13, .rounds = 1 };
	static struct eta_cell c[128]; /* no allocation: fail_msg() leaves by longjmp */
	assert_true(n <= 128);
	for (unsigned r = 1; r < QUICK_MOST; r++) {
		struct eta_history h = { .verified = n, .verify_s = n * per, .paused = n };
		double truth = 0;
		for (size_t i = 0; i < n; i++) {
			unsigned k = r < final[i] ? r : final[i];
			c[i] = (struct eta_cell){ k < final[i] ? ETA_MEASURING : ETA_DONE, k, k * per, 0 };
			h.measure_s += k * (per + batch);
			truth += (final[i] - k) * (per + batch);
		}
		if (truth <= 0)
			break;
		double got = eta_estimate(&p, c, n, &h);
		if (!(got <= 2 * truth && got >= truth / 2))
			fail_msg("round %u: eta %.1f s, true %.1f s", r, got, truth);
	}
}

/* A quick run as it went here: 0.08 s runs; two cells in three stayed
 * open past their budget to its end (30 runs), the rest stopped at the
 * budget. */
static void replayed_open_answers_within_2x(void **state)
{
	unsigned final[120];
	for (int i = 0; i < 120; i++)
		final[i] = i % 3 ? QUICK_MOST : 16; /* 16 x 0.08 s: the budget */
	replay_within_2x(final, 120, 0.08, 0.005);
}

/* A fresh ./run.sh here after the consumer began to spin (0.052 s a run,
 * 7 ms a batch): the cells' final runs, as many cells as ran each count.
 * Cells that stop early finish first, so a share of open answers counted
 * over finished cells alone reads low half way through (the run read "eta
 * 22s" with 51 s to go). */
static void replayed_quick_run_within_2x(void **state)
{
	static const unsigned histogram[][2] = { { 13, 3 }, { 15, 7 }, { 16, 2 }, { 17, 20 }, { 18, 4 }, { 19, 4 },
						 { 20, 7 }, { 21, 5 }, { 22, 1 }, { 23, 4 }, { 24, 1 }, { 25, 7 },
						 { 26, 1 }, { 28, 3 }, { 29, 1 }, { 30, 45 } };
	unsigned final[115];
	size_t n = 0;
	for (size_t b = 0; b < sizeof(histogram) / sizeof(histogram[0]); b++)
		for (unsigned k = 0; k < histogram[b][1]; k++)
			final[n++] = histogram[b][0];
	assert_int_equal(n, 115);
	replay_within_2x(final, n, 0.052, 0.007);
}

/* Nothing to go on: no run and no verification yet. */
static void nothing_known(void **state)
{
	struct eta_policy p = { .runs = 5 };
	struct eta_cell c[2] = { { ETA_TO_VERIFY, 0, 0, 0 }, { ETA_TO_VERIFY, 0, 0, 0 } };
	struct eta_history h = { 0 };
	assert_true(eta_estimate(&p, c, 2, &h) < 0);
	/* one verification: a run costs about what it took */
	h.verify_s = 0.2;
	h.verified = 1;
	c[0].state = ETA_MEASURING;
	within(eta_estimate(&p, c, 2, &h), 2 * 5 * 0.2 + 0.2, 1e-9);
}

/* The runs a fresh cell is expected to take, before anything is learnt:
 * --runs; with a precision target those a 95 % interval needs (within four
 * budgets), then some way towards its budget's end (the prior: one cell
 * in two content by then) or, open (the prior: one answer in two), to the
 * end of its open budgets; an emulated cell a few, whatever the target. */
static void expected_runs(void **state)
{
	struct eta_policy p = { .runs = 5, .max_runs = 50, .runs_for_rerun = 13, .emulated_runs = 3, .precision = 3,
				.cell_budget = 2.5, .rounds = 1 };
	struct eta_cell c = { ETA_MEASURING, 0, 0, 0 };
	struct eta_history h = { .verify_s = 0.1, .verified = 1 }; /* 0.1 s a run */
	double runs = eta_estimate(&p, &c, 1, &h) / 0.1;
	/* 13 for the interval, the budget at 25, two budgets at 50 */
	assert_true(runs > (13 + 25) / 2 && runs < (25 + 50) / 2);
	/* 1 s a run: four budgets hold 10, so 11 runs for the interval; then,
	 * open (one in two), on to the 13 for 95 % within seven budgets: 12 */
	h.verify_s = 1.0;
	within(eta_estimate(&p, &c, 1, &h), 12 * 1.0, 1e-9);
	h.verify_s = 0.1;
	c.emulated = 1;
	within(eta_estimate(&p, &c, 1, &h), 3 * 0.1, 1e-9);
	p.precision = 0;
	c.emulated = 0;
	within(eta_estimate(&p, &c, 1, &h), 5 * 0.1, 1e-9);
}

/* A whole run of rounds replayed: at every progress point the estimate is
 * within 2x of the true time left, from the first line on. */
static void replayed_run_within_2x(void **state)
{
	const double t[6] = { 0.05, 0.1, 0.2, 0.1, 0.05, 0.3 }, batch = 0.01, pause = 0.5;
	const unsigned runs = 10;
	struct eta_policy p = { .runs = runs, .emulated_runs = 3, .rounds = 1 };
	for (unsigned r = 0; r < runs; r++) {
		struct eta_cell c[6];
		struct eta_history h = { .verified = 6, .paused = r ? 6 : 0 };
		double truth = 0;
		for (int i = 0; i < 6; i++) {
			h.verify_s += t[i];
			c[i] = (struct eta_cell){ ETA_MEASURING, r, r * t[i], 0 };
			h.measure_s += r * (t[i] + batch);
			truth += (runs - r) * (t[i] + batch) + (r ? 0 : pause);
		}
		h.cooldown_s = r ? 6 * pause : 0;
		double got = eta_estimate(&p, c, 6, &h);
		/* before the first round the pause is not known yet */
		truth -= r ? 0 : 6 * pause;
		assert_true(got <= 2 * truth && got >= truth / 2);
	}
}

/* An emulated cell is timed SCHEDULE_EMULATED_RUNS runs, no precision loop. */
static void emulated_cells_few_runs(void **state)
{
	static struct cross_target rv;
	struct schedule_policy p = { .runs = 5, .max_runs = 30, .precision = 3, .cell_budget = 1, .runs_for_rerun = 13 };
	struct cell c;
	memset(&c, 0, sizeof(c));
	c.spec.cross = &rv;
	assert_true(schedule_wants_more(&p, &c, 0, 0));
	assert_true(schedule_wants_more(&p, &c, SCHEDULE_EMULATED_RUNS - 1, 0));
	assert_false(schedule_wants_more(&p, &c, SCHEDULE_EMULATED_RUNS, 0));
	p.runs = 2;
	assert_false(schedule_wants_more(&p, &c, 2, 0));
	assert_int_equal(schedule_emulated_runs(&p), 2);
	schedule_precision_record(&p, &c, 0.1);
	assert_int_equal(c.measure.precision.status, PRECISION_OFF);
}

static unsigned batch_runs[16], nbatches;

static int fake_measure(struct cell *c, const struct measure_opts *o, double *cooldown_s, double *spent_s)
{
	double t[64];
	for (unsigned k = 0; k < o->runs; k++)
		t[k] = 0.01;
	*cooldown_s = 0;
	*spent_s = 0.01 * o->runs;
	if (nbatches < 16)
		batch_runs[nbatches++] = o->runs;
	measure_store_times(c, o, t, o->runs);
	return 0;
}

/* Back to back too: one batch of SCHEDULE_EMULATED_RUNS, no more, where a
 * native cell gets --runs and then the runs of its precision target. */
static void emulated_cell_one_batch(void **state)
{
	static struct cross_target rv;
	static const struct executor fake = { .name = "fake", .measure = fake_measure };
	static const struct measure_opts mo = { .quantile = 0.5 };
	struct schedule_policy p = { .order = SCHEDULE_SEQUENTIAL, .runs = 10, .max_runs = 100, .precision = 0.001,
				     .cell_budget = 10, .runs_for_rerun = 13 };
	struct cell cells[2], *list[2] = { &cells[0], &cells[1] };
	memset(cells, 0, sizeof(cells));
	cells[0].spec.cross = &rv;
	struct schedule s = { .policy = &p, .x = &fake, .mo = &mo, .cells = list, .n = 2 };
	nbatches = 0;
	assert_int_equal(schedule_run(&s), SCHEDULE_DONE);
	assert_int_equal(batch_runs[0], SCHEDULE_EMULATED_RUNS);
	assert_int_equal(cells[0].measure.time.n, SCHEDULE_EMULATED_RUNS);
	assert_int_equal(batch_runs[1], 10);
	assert_true(cells[1].measure.time.n > 10);
	for (int i = 0; i < 2; i++) {
		stats_free(&cells[i].measure.time);
		free(cells[i].measure.rounds);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rounds_after_two),
		cmocka_unit_test(replayed_open_answers_within_2x),
		cmocka_unit_test(nothing_known),
		cmocka_unit_test(open_answer_past_budget),
		cmocka_unit_test(expected_runs),
		cmocka_unit_test(replayed_run_within_2x),
		cmocka_unit_test(replayed_quick_run_within_2x),
		cmocka_unit_test(emulated_cells_few_runs),
		cmocka_unit_test(emulated_cell_one_batch),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
