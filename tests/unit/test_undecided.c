/* test_undecided.c: the answers a run is about to give (analysis/undecided.h):
 * per variant the two fastest cells are marked while their comparison may
 * give another verdict in a second run, and only then: not a tie that
 * stays a tie, not a lead far beyond the noise. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

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
	answers_undecided(&p, mark);
	assert_int_equal(mark[0], 1);
	assert_int_equal(mark[1], 1);
	assert_int_equal(mark[2], 0); /* not one of the two fastest */
	assert_int_equal(mark[3], 0); /* alone in its variant */
	release(cells, 4);

	cell_with_runs(&cells[0], &var_b, 1.00, 0.01, 13);
	cell_with_runs(&cells[1], &var_b, 1.30, 0.01, 13);
	p.n = 2;
	answers_undecided(&p, mark);
	assert_int_equal(mark[0], 0);
	assert_int_equal(mark[1], 0);
	release(cells, 2);
	/* 1 % apart in the same 5 % noise: a tie whose chance to turn real
	 * is small; more runs would change no verdict, so it is decided */
	phase = 0;
	cell_with_runs(&cells[0], &var_b, 1.00, 0.05, 13);
	cell_with_runs(&cells[1], &var_b, 1.01, 0.05, 13);
	answers_undecided(&p, mark);
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
	answers_undecided(&p, mark);
	assert_int_equal(mark[0], 0);
	release(cells, 2);
}

static void leaves_thin_and_failed_cells(void **state)
{
	struct cell cells[2];
	cell_with_runs(&cells[0], &var_a, 1.00, 0.05, 2); /* too few runs to rank */
	cell_with_runs(&cells[1], &var_a, 1.01, 0.05, 13);
	struct plan p = { .cells = cells, .n = 2 };
	unsigned char mark[2];
	answers_undecided(&p, mark);
	assert_int_equal(mark[0] + mark[1], 0);
	release(cells, 2);
	cell_with_runs(&cells[0], &var_a, 1.00, 0.05, 13);
	cell_with_runs(&cells[1], &var_a, 1.01, 0.05, 13);
	cells[1].status = CELL_WRONG_OUTPUT;
	answers_undecided(&p, mark);
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
	answers_undecided(&p, mark);
	assert_int_equal(mark[0], 1);
	assert_int_equal(mark[1], 1);
	release(cells, 2);
	cell_with_runs(&cells[0], &var_a, 1.00, 0.01, 13);
	cell_with_runs(&cells[1], &var_b, 1.00, 0.01, 13);
	cells[1].spec.size = 200; /* twice the work in the same time: decided */
	answers_undecided(&p, mark);
	assert_int_equal(mark[0] + mark[1], 0);
	release(cells, 2);
	fam.baseline = NULL;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(marks_the_open_pair),
		cmocka_unit_test(leaves_thin_and_failed_cells),
		cmocka_unit_test(marks_an_open_speedup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
