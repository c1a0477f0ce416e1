/* test_schedule.c: the scheduler (pipeline/schedule.h) with a fake
 * executor that logs which cell ran, with how many runs and warmups:
 * each order's rounds, the stop rules, the pause, a failing cell. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "core/stats.h"
#include "pipeline/schedule.h"

#define NCELLS 3
#define MAXCELLS 8 /* the blocks' test */
static struct cell cells[MAXCELLS];
static struct cell *list[MAXCELLS];
static int ran[256], ran_runs[256], ran_warmup[256], nran, pauses, failing = -1;
static double run_seconds = 0.1; /* what the fake says each run took */

static int fake_measure(struct cell *c, const struct measure_opts *o, double *cooldown_s, double *spent_s)
{
	int i = (int)(c - cells);
	ran[nran] = i;
	ran_runs[nran] = (int)o->runs;
	ran_warmup[nran++] = (int)o->warmup;
	*cooldown_s = 0;
	*spent_s = run_seconds * o->runs;
	if (i == failing) {
		cell_set_status(c, CELL_CRASHED, "fake failure");
		return -1;
	}
	double t[64];
	for (unsigned k = 0; k < o->runs; k++)
		t[k] = 1.0 + 0.001 * (double)k;
	measure_store_times(c, o, t, o->runs);
	return 0;
}

static int fake_pause(const struct cooldown_policy *p, const struct measure_opts *o, struct cooldown_record *rec)
{
	memset(rec, 0, sizeof(*rec));
	rec->waited_s = 2;
	pauses++;
	return 1;
}

static const struct executor fake = { .name = "fake", .measure = fake_measure, .pause = fake_pause };
static const struct measure_opts mo = { .quantile = 0.5 };

static int setup(void **state)
{
	memset(cells, 0, sizeof(cells));
	for (int i = 0; i < MAXCELLS; i++)
		list[i] = &cells[i];
	nran = pauses = 0;
	failing = -1;
	run_seconds = 0.1;
	return 0;
}

static int teardown(void **state)
{
	for (int i = 0; i < MAXCELLS; i++) {
		stats_free(&cells[i].measure.time);
		free(cells[i].measure.cooldown);
		free(cells[i].measure.rounds);
		free(cells[i].measure.places);
		free(cells[i].reason);
		cell_handoff_clear(&cells[i].measure.handoff);
		sv_clear(&cells[i].warnings);
	}
	return 0;
}

static int ends[MAXCELLS];
static void on_done(void *ctx, size_t i, enum schedule_end end, double spent_s)
{
	ends[i] = (int)end;
}

static enum schedule_status run(const struct schedule_policy *p, size_t n, double *cool)
{
	struct schedule s = { .policy = p, .x = &fake, .mo = &mo, .cells = list, .n = n,
			      .hooks = { .done = on_done }, .tally = { .cooldown_s = cool } };
	return schedule_run(&s);
}

/* explain's time_cells: every cell one run per round, in the list's order,
 * the warmup in the first round only. */
static void listed_rounds(void **state)
{
	struct schedule_policy p = { .order = SCHEDULE_LISTED, .runs = 4, .warmup = 2 };
	assert_int_equal(run(&p, NCELLS, NULL), SCHEDULE_DONE);
	assert_int_equal(nran, 4 * NCELLS);
	for (int k = 0; k < nran; k++) {
		assert_int_equal(ran[k], k % NCELLS);
		assert_int_equal(ran_runs[k], 1);
		assert_int_equal(ran_warmup[k], k < NCELLS ? 2 : 0);
	}
	for (int i = 0; i < NCELLS; i++) {
		assert_int_equal(cells[i].measure.time.n, 4);
		assert_int_equal(ends[i], SCHEDULE_MEASURED);
		/* each run knows its round: the paired comparison's key */
		assert_int_equal(cells[i].measure.nrounds, 4);
		for (int r = 0; r < 4; r++) {
			assert_int_equal(cells[i].measure.rounds[r], r);
			assert_int_equal(cells[i].measure.places[r], i); /* listed: its place in the list */
		}
	}
}

/* A second schedule adds its runs to the times a cell has (explain's check
 * beside A and B again). */
static void new_runs_join_earlier(void **state)
{
	struct schedule_policy p = { .order = SCHEDULE_LISTED, .runs = 3 };
	run(&p, 2, NULL);
	p.round_base = 3; /* the second schedule's rounds follow the first's */
	run(&p, NCELLS, NULL);
	assert_int_equal(cells[0].measure.time.n, 6);
	assert_int_equal(cells[2].measure.time.n, 3);
	assert_int_equal(cells[0].measure.nrounds, 6);
	for (int r = 0; r < 6; r++)
		assert_int_equal(cells[0].measure.rounds[r], r);
	assert_int_equal(cells[2].measure.nrounds, 3);
	for (int r = 0; r < 3; r++)
		assert_int_equal(cells[2].measure.rounds[r], 3 + r);
}

/* Shuffled rounds: every cell in every round, the orders the seed gives. */
static void shuffled_rounds(void **state)
{
	struct schedule_policy p = { .order = SCHEDULE_SHUFFLED, .runs = 5, .seed = 42 };
	run(&p, NCELLS, NULL);
	assert_int_equal(nran, 5 * NCELLS);
	unsigned long long seed = 42;
	for (int r = 0; r < 5; r++) {
		size_t order[NCELLS] = { 0, 1, 2 };
		stats_shuffle(order, NCELLS, &seed);
		for (int j = 0; j < NCELLS; j++)
			assert_int_equal(ran[r * NCELLS + j], (int)order[j]);
	}
}

/* Shuffled rounds in blocks and groups: each group's blocks and each
 * block's cells back to back in every round, every cell once a round, and
 * the groups' order, the blocks' order within a group and the cells'
 * within a block drawn anew (none fixed from round to round). */
static void blocked_rounds(void **state)
{
	enum { N = 8, ROUNDS = 12 };
	static const unsigned block[N] = { 5, 1, 5, 9, 1, 5, 9, 1 }, group[N] = { 0, 0, 0, 3, 0, 0, 3, 0 };
	struct schedule_policy p = { .order = SCHEDULE_SHUFFLED, .runs = ROUNDS, .seed = 42 };
	struct schedule s = { .policy = &p, .x = &fake, .mo = &mo, .cells = list, .n = N, .block = block,
			      .group = group, .hooks = { .done = on_done } };
	assert_int_equal(schedule_run(&s), SCHEDULE_DONE);
	assert_int_equal(nran, N * ROUNDS);
	int first_group_changed = 0, first_block_changed = 0, inner_changed = 0, first_of_5 = -1;
	for (int r = 0; r < ROUNDS; r++) {
		const int *o = &ran[r * N];
		int seen[N] = { 0 }, blocks_started = 0, groups_started = 0;
		for (int j = 0; j < N; j++) {
			seen[o[j]]++;
			if (j == 0 || block[o[j]] != block[o[j - 1]])
				blocks_started++;
			if (j == 0 || group[o[j]] != group[o[j - 1]])
				groups_started++;
		}
		for (int i = 0; i < N; i++)
			assert_int_equal(seen[i], 1);
		assert_int_equal(blocks_started, 3); /* three blocks, each in one piece */
		assert_int_equal(groups_started, 2); /* two groups, each in one piece */
		first_group_changed += group[o[0]] != group[ran[0]];
		/* within group 0, which of its blocks (5 and 1) comes first */
		for (int j = 0; j < N; j++)
			if (group[o[j]] == 0) {
				first_block_changed += block[o[j]] != 5;
				break;
			}
		for (int j = 0; j < N; j++)
			if (block[o[j]] == 5) {
				if (first_of_5 < 0)
					first_of_5 = o[j];
				inner_changed += o[j] != first_of_5;
				break;
			}
	}
	assert_true(first_group_changed > 0);
	assert_true(first_block_changed > 0 && first_block_changed < ROUNDS);
	assert_true(inner_changed > 0);
	/* the same seed, the same orders: two runs of one plan pair alike */
	int again[N * ROUNDS];
	memcpy(again, ran, sizeof(again));
	teardown(state);
	setup(state);
	schedule_run(&s);
	assert_memory_equal(again, ran, sizeof(again));
}

/* compare --confirm: two cells, as many rounds A B as B A, one pause. */
static void balanced_pairs(void **state)
{
	struct schedule_policy p = { .order = SCHEDULE_BALANCED, .runs = 10, .warmup = 1, .seed = 7,
				     .pause = SCHEDULE_PAUSE_ONCE };
	double cool = 0;
	run(&p, 2, &cool);
	assert_int_equal(nran, 20);
	int b_first = 0;
	for (int r = 0; r < 10; r++) {
		assert_int_not_equal(ran[2 * r], ran[2 * r + 1]);
		b_first += ran[2 * r] == 1;
	}
	assert_int_equal(b_first, 5);
	assert_int_equal(pauses, 1);
	assert_true(cool == 2);
	assert_int_equal(cells[0].measure.ncooldown, 0);
}

/* Back to back: the pause, then one batch of --runs, per cell in turn. */
static void sequential_batches(void **state)
{
	struct schedule_policy p = { .order = SCHEDULE_SEQUENTIAL, .runs = 5, .warmup = 1,
				     .pause = SCHEDULE_PAUSE_EACH_CELL };
	run(&p, NCELLS, NULL);
	assert_int_equal(nran, NCELLS);
	for (int k = 0; k < NCELLS; k++) {
		assert_int_equal(ran[k], k);
		assert_int_equal(ran_runs[k], 5);
		assert_int_equal(cells[k].measure.ncooldown, 1);
		assert_int_equal(cells[k].measure.nrounds, 0); /* no rounds: nothing to pair */
	}
	assert_int_equal(pauses, NCELLS);
}

/* A failing cell gets no more runs; with SCHEDULE_STOP_ALL nothing does. */
static void failing_cell(void **state)
{
	struct schedule_policy p = { .order = SCHEDULE_LISTED, .runs = 3 };
	failing = 1;
	assert_int_equal(run(&p, NCELLS, NULL), SCHEDULE_DONE);
	assert_int_equal(nran, 1 + 2 * 3);
	assert_int_equal(ends[1], SCHEDULE_FAILED);
	assert_int_equal(ends[0], SCHEDULE_MEASURED);
	teardown(state);
	setup(state);
	failing = 0;
	p.on_failure = SCHEDULE_STOP_ALL;
	assert_int_equal(run(&p, NCELLS, NULL), SCHEDULE_STOPPED);
	assert_int_equal(nran, 1);
	assert_int_equal(ends[1], SCHEDULE_INTERRUPTED);
}

/* The stop rules: --runs, then the runs for a 95 % interval within four
 * budgets, then the precision target within one budget, never past max. */
static void stop_rules(void **state)
{
	struct schedule_policy p = { .runs = 5, .max_runs = 30, .precision = 3, .cell_budget = 1, .runs_for_rerun = 13 };
	struct cell *c = &cells[0];
	assert_true(schedule_wants_more(&p, c, 4, 0));
	assert_true(schedule_wants_more(&p, c, 12, 3.9));
	assert_false(schedule_wants_more(&p, c, 12, 4.1));
	assert_true(schedule_wants_more(&p, c, 13, 0.5)); /* no interval yet: not precise */
	assert_false(schedule_wants_more(&p, c, 30, 0));
	p.precision = 0;
	assert_false(schedule_wants_more(&p, c, 5, 0));
	schedule_precision_record(&p, c, 0.5);
	assert_int_equal(c->measure.precision.status, PRECISION_OFF);
}

/* An answer still open (analysis/undecided.h): that cell takes runs past
 * its precision target, up to SCHEDULE_UNDECIDED_BUDGETS budgets, once
 * marked whatever the answer says next; the others stop at theirs. */
static int open_for_cell0(void *ctx, size_t i)
{
	return i == 0;
}

static unsigned asked_cell0;
static int open_once_for_cell0(void *ctx, size_t i)
{
	return i == 0 && asked_cell0++ == 0;
}

static void undecided_cells(void **state)
{
	struct schedule_policy p = { .order = SCHEDULE_SHUFFLED, .runs = 3, .max_runs = 100, .precision = 3,
				     .cell_budget = 1, .runs_for_rerun = 13 };
	struct schedule s = { .policy = &p, .x = &fake, .mo = &mo, .cells = list, .n = NCELLS,
			      .hooks = { .done = on_done, .undecided = open_for_cell0 } };
	assert_int_equal(schedule_run(&s), SCHEDULE_DONE);
	/* 0.1 s a run: the others stop precise at 13 runs, cell 0 at its budgets */
	assert_int_equal(cells[1].measure.time.n, 13);
	assert_int_equal(cells[2].measure.time.n, 13);
	assert_int_equal(cells[0].measure.time.n, 10 * SCHEDULE_UNDECIDED_BUDGETS);
	/* an answer that closes on the next round keeps its runs coming: no
	 * answer stops on the round that made it look sure */
	teardown(state);
	setup(state);
	asked_cell0 = 0;
	s.hooks.undecided = open_once_for_cell0;
	assert_int_equal(schedule_run(&s), SCHEDULE_DONE);
	assert_int_equal(asked_cell0, 1);
	assert_int_equal(cells[0].measure.time.n, 10 * SCHEDULE_UNDECIDED_BUDGETS);
	assert_int_equal(cells[1].measure.time.n, 13);
	s.hooks.undecided = open_for_cell0;
	/* without a precision target the runs are exactly --runs: no extension */
	p.precision = 0;
	teardown(state);
	setup(state);
	assert_int_equal(schedule_run(&s), SCHEDULE_DONE);
	assert_int_equal(cells[0].measure.time.n, 3);
}

/* A slow cell (a run takes its whole budget) reaches 4 runs within its
 * level budgets; open, it goes on to the runs a 95 % interval needs within
 * 4 + 3 budgets (7 of 13, or all 6 of 6), where the open budgets alone
 * (3, all spent) gave it none; a cell not open stops at 4. */
static void undecided_slow_cells(void **state)
{
	struct schedule_policy p = { .order = SCHEDULE_SHUFFLED, .runs = 3, .max_runs = 100, .precision = 3,
				     .cell_budget = 0.5, .runs_for_rerun = 13 };
	struct schedule s = { .policy = &p, .x = &fake, .mo = &mo, .cells = list, .n = NCELLS,
			      .hooks = { .done = on_done, .undecided = open_for_cell0 } };
	run_seconds = 0.5;
	assert_int_equal(schedule_run(&s), SCHEDULE_DONE);
	assert_int_equal(cells[0].measure.time.n, SCHEDULE_LEVEL_BUDGETS + SCHEDULE_UNDECIDED_BUDGETS);
	assert_int_equal(cells[1].measure.time.n, SCHEDULE_LEVEL_BUDGETS);
	assert_true(schedule_open_budget_left(&p, 6, 3.0));
	assert_false(schedule_open_budget_left(&p, 7, 3.5));
	assert_false(schedule_open_budget_left(&p, 13, 2.0)); /* its runs for 95 %: the open budgets only */
	assert_true(schedule_open_budget_left(&p, 13, 1.0));
	teardown(state);
	setup(state);
	run_seconds = 0.5;
	p.runs_for_rerun = 6;
	assert_int_equal(schedule_run(&s), SCHEDULE_DONE);
	assert_int_equal(cells[0].measure.time.n, 6);
	assert_int_equal(cells[2].measure.time.n, SCHEDULE_LEVEL_BUDGETS);
}

/* Where the host has a stream cell's two CPUs (system/handoff.h): no
 * batch is put off; every batch's reading is kept with its runs.  Where
 * the readings show two states, the cell takes runs until the state most
 * readings are in has `runs` of them; settled at the end from all the
 * readings, a batch read while the levels were not yet known gets its
 * state.  A compute cell is never probed, and a pair whose readings are
 * alike runs exactly `runs`. */
static const double *handoff_reads;
static size_t handoff_nreads, handoff_probed;
static enum handoff_status script_probe(int a, int b, unsigned trips, double *ns, struct strbuf *why)
{
	*ns = handoff_reads[handoff_probed < handoff_nreads ? handoff_probed : handoff_nreads - 1];
	handoff_probed++;
	return HANDOFF_MEASURED;
}

static unsigned in_state(const struct cell *c, unsigned st)
{
	unsigned n = 0;
	for (size_t b = 0; b < c->measure.handoff.batches; b++)
		n += c->measure.handoff.batch[b].state == st ? c->measure.handoff.batch[b].runs : 0;
	return n;
}

static void runs_where_missing(void **state)
{
	struct family stream = { .kind = KIND_STREAM }, compute = { .kind = KIND_COMPUTE };
	cells[0].spec.family = &stream;
	cells[0].spec.pin = (struct pins){ .producer = 0, .consumer = 1, .single = -1 };
	cells[1].spec.family = &compute;
	cells[1].spec.pin = (struct pins){ .producer = -1, .consumer = -1, .single = 1 };
	/* far for three batches, near for three, then far: after six the two
	 * states tie (the near one wanted, 3 of 6), then far has more
	 * readings and is wanted until it has 6 runs */
	const double reads[] = { 480, 470, 490, 90, 88, 92, 485 };
	handoff_reads = reads;
	handoff_nreads = sizeof(reads) / sizeof(reads[0]);
	handoff_probed = 0;
	struct handoff_gate gate = HANDOFF_GATE_INIT;
	gate.probe = script_probe;
	struct schedule_policy p = { .order = SCHEDULE_LISTED, .runs = 6, .max_runs = 100, .cell_budget = 10 };
	struct schedule s = { .policy = &p, .x = &fake, .mo = &mo, .cells = list, .n = 2,
			      .hooks = { .done = on_done }, .handoff = &gate };
	assert_int_equal(schedule_run(&s), SCHEDULE_DONE);
	const struct cell_handoff *h = &cells[0].measure.handoff;
	assert_int_equal(cells[0].measure.time.n, 9);
	assert_int_equal(h->batches, 9);
	assert_int_equal(h->states, 2);
	/* provisional: the first three were read as the only level there was */
	assert_int_equal(h->batch[0].state, 1);
	schedule_settle_states(cells, 2);
	assert_int_equal(h->batch[0].state, 2);
	assert_int_equal(in_state(&cells[0], 1), 3);
	assert_int_equal(in_state(&cells[0], 2), 6);
	assert_int_equal(cells[0].warnings.n, 0);
	unsigned *st;
	assert_int_equal(cell_run_states(&cells[0].measure, &st), 2);
	assert_int_equal(st[0], 2);
	assert_int_equal(st[3], 1);
	assert_int_equal(st[8], 2);
	free(st);
	/* the compute cell ran its 6 and was never probed */
	assert_int_equal(cells[1].measure.time.n, 6);
	assert_int_equal(cells[1].measure.handoff.batches, 0);
	assert_int_equal(cell_run_states(&cells[1].measure, &st), 0);
	assert_null(st);

	/* readings alike: exactly `runs`, one state; back to back the same */
	for (int seq = 0; seq < 2; seq++) {
		teardown(state);
		setup(state);
		cells[0].spec.family = &stream;
		cells[0].spec.pin = (struct pins){ .producer = 0, .consumer = 1, .single = -1 };
		const double alike[] = { 84, 90, 86, 88 };
		handoff_reads = alike;
		handoff_nreads = 4;
		handoff_probed = 0;
		handoff_gate_release(&gate);
		gate = (struct handoff_gate)HANDOFF_GATE_INIT;
		gate.probe = script_probe;
		p.order = seq ? SCHEDULE_SEQUENTIAL : SCHEDULE_LISTED;
		s.n = 1;
		assert_int_equal(schedule_run(&s), SCHEDULE_DONE);
		schedule_settle_states(cells, 1);
		assert_int_equal(cells[0].measure.time.n, 6);
		assert_int_equal(h->states, 1);
		assert_int_equal(in_state(&cells[0], 1), 6);
		assert_int_equal(h->batches, seq ? 1 : 6);
	}
	handoff_gate_release(&gate);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(listed_rounds, setup, teardown),
		cmocka_unit_test_setup_teardown(new_runs_join_earlier, setup, teardown),
		cmocka_unit_test_setup_teardown(shuffled_rounds, setup, teardown),
		cmocka_unit_test_setup_teardown(blocked_rounds, setup, teardown),
		cmocka_unit_test_setup_teardown(balanced_pairs, setup, teardown),
		cmocka_unit_test_setup_teardown(sequential_batches, setup, teardown),
		cmocka_unit_test_setup_teardown(failing_cell, setup, teardown),
		cmocka_unit_test_setup_teardown(stop_rules, setup, teardown),
		cmocka_unit_test_setup_teardown(undecided_cells, setup, teardown),
		cmocka_unit_test_setup_teardown(undecided_slow_cells, setup, teardown),
		cmocka_unit_test_setup_teardown(runs_where_missing, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
