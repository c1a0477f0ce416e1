/* test_tune_search.c: the search of `flagbench tune` (analysis/tune_search.h)
 * on synthetic objectives, no compiler: it never asks a point twice (nor
 * the start), replays exactly from a seed, takes batches, spends a tiny
 * space, never crowns a failed candidate, and the ensemble finds the few
 * flags that matter where random search drowns in the harmful ones. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/tune_search.h"

/* The synthetic space: 60 on/off flags and 4 five-choice dimensions. */
#define NBOOL 60
#define NFIVE 4
#define NDIMS (NBOOL + NFIVE)
#define MAX_ASKS 600

/* Changed from the start: 3 flags make it 0.8x each, 20 make it 1.05x
 * (harmful), one breaks the compiler; the rest (and the five-choice
 * dimensions) do nothing. */
static const size_t good_dims[] = { 4, 27, 51 };
#define BREAKER_DIM 13
#define OPTIMUM (0.8 * 0.8 * 0.8)

static int is_good(size_t d)
{
	for (size_t i = 0; i < sizeof(good_dims) / sizeof(*good_dims); i++)
		if (good_dims[i] == d)
			return 1;
	return 0;
}

/* every third flag from 1 on, but none of the good ones nor the breaker */
static int is_harmful(size_t d)
{
	if (d >= NBOOL || is_good(d) || d == BREAKER_DIM || d % 3 != 1)
		return 0;
	return 1;
}

static struct tune_space *space_new(size_t nbool, size_t nfive)
{
	struct tune_space *s = xcalloc(1, sizeof(*s));
	s->n = nbool + nfive;
	s->dims = xcalloc(s->n, sizeof(*s->dims));
	for (size_t d = 0; d < s->n; d++) {
		struct tune_dim *dim = &s->dims[d];
		dim->kind = d < nbool ? TUNE_DIM_FLAG : TUNE_DIM_PARAM;
		dim->name = xasprintf("d%zu", d);
		dim->nchoices = d < nbool ? 2 : 5;
		dim->choices = xcalloc(dim->nchoices, sizeof(*dim->choices));
		for (size_t c = 0; c < dim->nchoices; c++)
			dim->choices[c] = xasprintf("-fd%zu=%zu", d, c);
		/* starts both on and off, and a middle value */
		dim->start = d < nbool ? d % 2 : 2;
	}
	return s;
}

static void space_free(struct tune_space *s)
{
	for (size_t d = 0; d < s->n; d++) {
		for (size_t c = 0; c < s->dims[d].nchoices; c++)
			free(s->dims[d].choices[c]);
		free(s->dims[d].choices);
		free(s->dims[d].name);
	}
	free(s->dims);
	free(s);
}

static double objective(const struct tune_space *s, const size_t *val)
{
	double f = 1;
	for (size_t d = 0; d < s->n; d++) {
		if (val[d] == s->dims[d].start)
			continue;
		if (d == BREAKER_DIM)
			return INFINITY;
		if (is_good(d))
			f *= 0.8;
		else if (is_harmful(d))
			f *= 1.05;
	}
	return f;
}

static int is_start(const struct tune_space *s, const size_t *val)
{
	for (size_t d = 0; d < s->n; d++)
		if (val[d] != s->dims[d].start)
			return 0;
	return 1;
}

/* One search of budget evaluations, asked and told batch at a time.
 * asks (budget x n, or NULL) gets every point asked; evals_to_optimum
 * (or NULL) the evaluations until the best reached the optimum, 0 never. */
static double run_search(enum tune_technique t, const struct tune_space *s, uint64_t seed, size_t budget,
			 size_t batch, size_t *asks, size_t *evals_to_optimum)
{
	struct tune_search *ts = tune_search_new(t, s, seed, 1.0);
	size_t *pending = xmalloc(batch * s->n * sizeof(*pending));
	size_t done = 0;
	if (evals_to_optimum)
		*evals_to_optimum = 0;
	while (done < budget) {
		size_t k = 0;
		for (; k < batch && done + k < budget; k++) {
			size_t *val = pending + k * s->n;
			assert_int_equal(tune_search_ask(ts, val), 0);
			assert_non_null(tune_search_operator(ts));
			if (asks)
				memcpy(asks + (done + k) * s->n, val, s->n * sizeof(*val));
		}
		for (size_t i = 0; i < k; i++) {
			tune_search_tell(ts, pending + i * s->n, objective(s, pending + i * s->n));
			double best;
			tune_search_best(ts, &best);
			if (evals_to_optimum && !*evals_to_optimum && best <= OPTIMUM * (1 + 1e-9))
				*evals_to_optimum = done + i + 1;
		}
		done += k;
	}
	double best;
	const size_t *bv = tune_search_best(ts, &best);
	/* the best is a point with that score, and never the broken compiler */
	assert_true(isfinite(best));
	assert_true(fabs(objective(s, bv) - best) < 1e-12);
	if (s->n > BREAKER_DIM)
		assert_int_equal(bv[BREAKER_DIM], s->dims[BREAKER_DIM].start);
	free(pending);
	tune_search_free(ts);
	return best;
}

static void assert_all_new(const struct tune_space *s, const size_t *asks, size_t nasks)
{
	for (size_t i = 0; i < nasks; i++) {
		const size_t *a = asks + i * s->n;
		assert_false(is_start(s, a));
		for (size_t d = 0; d < s->n; d++)
			assert_true(a[d] < s->dims[d].nchoices);
		for (size_t j = 0; j < i; j++)
			assert_memory_not_equal(a, asks + j * s->n, s->n * sizeof(*a));
	}
}

/* (1) 500 asks, none twice and none the start, for both techniques. */
static void never_repeats(void **state)
{
	struct tune_space *s = space_new(NBOOL, NFIVE);
	size_t *asks = xmalloc(MAX_ASKS * s->n * sizeof(*asks));
	for (int t = 0; t < 2; t++) {
		run_search(t ? TUNE_TECHNIQUE_ENSEMBLE : TUNE_TECHNIQUE_RANDOM, s, 7, 500, 1, asks, NULL);
		assert_all_new(s, asks, 500);
	}
	/* a small space (6 flags, 64 points) where the operators soon propose
	 * only asked points: still new ones, down to the last */
	struct tune_space *small = space_new(6, 0);
	for (int t = 0; t < 2; t++) {
		struct tune_search *ts =
			tune_search_new(t ? TUNE_TECHNIQUE_ENSEMBLE : TUNE_TECHNIQUE_RANDOM, small, 3, 1.0);
		for (size_t i = 0; i < 63; i++) {
			assert_int_equal(tune_search_ask(ts, asks + i * small->n), 0);
			tune_search_tell(ts, asks + i * small->n, objective(small, asks + i * small->n));
		}
		assert_all_new(small, asks, 63);
		assert_int_equal(tune_search_ask(ts, asks), -1);
		tune_search_free(ts);
	}
	space_free(small);
	free(asks);
	space_free(s);
}

/* (2) The same seed and scores give the same points (what --resume
 * replays); another seed other points. */
static void deterministic_replay(void **state)
{
	struct tune_space *s = space_new(NBOOL, NFIVE);
	size_t *a = xmalloc(200 * s->n * sizeof(*a)), *b = xmalloc(200 * s->n * sizeof(*b));
	for (int t = 0; t < 2; t++) {
		enum tune_technique tech = t ? TUNE_TECHNIQUE_ENSEMBLE : TUNE_TECHNIQUE_RANDOM;
		run_search(tech, s, 42, 200, 4, a, NULL);
		run_search(tech, s, 42, 200, 4, b, NULL);
		assert_memory_equal(a, b, 200 * s->n * sizeof(*a));
		run_search(tech, s, 43, 200, 4, b, NULL);
		assert_memory_not_equal(a, b, 200 * s->n * sizeof(*a));
	}
	free(a);
	free(b);
	space_free(s);
}

/* (3) Batches of 8 asked before any is told, told in ask order; a tell of
 * a point never asked, or told twice, is ignored. */
static void batches(void **state)
{
	struct tune_space *s = space_new(NBOOL, NFIVE);
	size_t *asks = xmalloc(160 * s->n * sizeof(*asks));
	double best = run_search(TUNE_TECHNIQUE_ENSEMBLE, s, 5, 160, 8, asks, NULL);
	assert_all_new(s, asks, 160);
	assert_true(best < 1);

	struct tune_search *ts = tune_search_new(TUNE_TECHNIQUE_ENSEMBLE, s, 5, 1.0);
	size_t val[NDIMS], other[NDIMS];
	assert_int_equal(tune_search_ask(ts, val), 0);
	memcpy(other, val, sizeof(val));
	other[0] = !other[0];
	if (other[0] == s->dims[0].start) /* another point, neither asked nor the start */
		other[1] = !other[1];
	tune_search_tell(ts, other, 0.1);
	double score;
	tune_search_best(ts, &score);
	assert_true(score == 1.0);
	tune_search_tell(ts, val, 0.5);
	tune_search_tell(ts, val, 0.2); /* told already */
	const size_t *bv = tune_search_best(ts, &score);
	assert_true(score == 0.5);
	assert_memory_equal(bv, val, sizeof(val));
	tune_search_free(ts);
	free(asks);
	space_free(s);
}

/* (4) Two flags: the three points besides the start, then nothing. */
static void tiny_space_exhausted(void **state)
{
	struct tune_space *s = space_new(2, 0);
	for (int t = 0; t < 2; t++) {
		struct tune_search *ts =
			tune_search_new(t ? TUNE_TECHNIQUE_ENSEMBLE : TUNE_TECHNIQUE_RANDOM, s, 1, 1.0);
		size_t asks[3][2];
		for (int i = 0; i < 3; i++) {
			assert_int_equal(tune_search_ask(ts, asks[i]), 0);
			tune_search_tell(ts, asks[i], 1.0 + i);
		}
		assert_all_new(s, &asks[0][0], 3);
		size_t val[2];
		assert_int_equal(tune_search_ask(ts, val), -1);
		assert_int_equal(tune_search_ask(ts, val), -1);
		tune_search_free(ts);
	}
	/* asked in one batch, before any tell */
	struct tune_search *ts = tune_search_new(TUNE_TECHNIQUE_ENSEMBLE, s, 2, 1.0);
	size_t val[2];
	for (int i = 0; i < 3; i++)
		assert_int_equal(tune_search_ask(ts, val), 0);
	assert_int_equal(tune_search_ask(ts, val), -1);
	tune_search_free(ts);
	space_free(s);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return (x > y) - (x < y);
}

/* (5) The ensemble finds the three good flags, and none of the harmful
 * ones, within 150 evaluations for every seed; at 100 its median best is
 * far better than random search's, which changes about half the harmful
 * flags (and the breaker) of every point it draws. */
static void ensemble_beats_random(void **state)
{
	struct tune_space *s = space_new(NBOOL, NFIVE);
	size_t evals[10];
	for (uint64_t seed = 0; seed < 10; seed++) {
		run_search(TUNE_TECHNIQUE_ENSEMBLE, s, seed + 1, 150, 4, NULL, &evals[seed]);
		assert_true(evals[seed] > 0 && evals[seed] <= 150);
	}
	qsort(evals, 10, sizeof(*evals), cmp_size);
	print_message("ensemble: optimum after %zu..%zu evaluations (median %zu) over 10 seeds\n", evals[0], evals[9],
		      (evals[4] + evals[5]) / 2);

	double ens[20], rnd[20];
	for (uint64_t seed = 0; seed < 20; seed++) {
		ens[seed] = run_search(TUNE_TECHNIQUE_ENSEMBLE, s, 100 + seed, 100, 4, NULL, NULL);
		rnd[seed] = run_search(TUNE_TECHNIQUE_RANDOM, s, 100 + seed, 100, 4, NULL, NULL);
	}
	qsort(ens, 20, sizeof(*ens), cmp_double);
	qsort(rnd, 20, sizeof(*rnd), cmp_double);
	double ens_median = (ens[9] + ens[10]) / 2, rnd_median = (rnd[9] + rnd[10]) / 2;
	print_message("median best at 100 evaluations over 20 seeds: ensemble %.4f, random %.4f (optimum %.4f)\n",
		      ens_median, rnd_median, OPTIMUM);
	assert_true(ens_median < rnd_median);
	assert_true(ens_median <= OPTIMUM * (1 + 1e-9) * 1.05); /* at most one harmful flag from the optimum */
	space_free(s);
}

/* (6) A failed candidate (INFINITY, or NaN) never becomes the best; a
 * failed start is beaten by the first finite score. */
static void failures_never_best(void **state)
{
	struct tune_space *s = space_new(NBOOL, NFIVE);
	struct tune_search *ts = tune_search_new(TUNE_TECHNIQUE_ENSEMBLE, s, 9, 1.0);
	size_t val[NDIMS];
	for (int i = 0; i < 50; i++) {
		assert_int_equal(tune_search_ask(ts, val), 0);
		tune_search_tell(ts, val, i % 2 ? INFINITY : NAN);
	}
	double score;
	const size_t *bv = tune_search_best(ts, &score);
	assert_true(score == 1.0);
	assert_true(is_start(s, bv));
	tune_search_free(ts);

	ts = tune_search_new(TUNE_TECHNIQUE_RANDOM, s, 9, INFINITY);
	assert_int_equal(tune_search_ask(ts, val), 0);
	tune_search_tell(ts, val, INFINITY);
	tune_search_best(ts, &score);
	assert_true(isinf(score));
	assert_int_equal(tune_search_ask(ts, val), 0);
	tune_search_tell(ts, val, 3.0);
	bv = tune_search_best(ts, &score);
	assert_true(score == 3.0);
	assert_memory_equal(bv, val, sizeof(val));
	tune_search_free(ts);
	space_free(s);
}

/* (7) The technique's words. */
static void technique_words(void **state)
{
	enum tune_technique t;
	assert_int_equal(tune_technique_parse("random", &t), 0);
	assert_int_equal(t, TUNE_TECHNIQUE_RANDOM);
	assert_string_equal(tune_technique_name(t), "random");
	assert_int_equal(tune_technique_parse("ensemble", &t), 0);
	assert_int_equal(t, TUNE_TECHNIQUE_ENSEMBLE);
	assert_string_equal(tune_technique_name(t), "ensemble");
	assert_int_equal(tune_technique_parse("bandit", &t), -1);
	assert_int_equal(tune_technique_parse("", &t), -1);
	assert_int_equal(t, TUNE_TECHNIQUE_ENSEMBLE); /* untouched by a bad word */
}

static size_t differences(const size_t *a, const size_t *b, size_t n)
{
	size_t k = 0;
	for (size_t d = 0; d < n; d++)
		k += a[d] != b[d];
	return k;
}

/* The operator names, every one of them used by the ensemble; a sweep
 * point is the best with one change, a mutate point with one to three. */
static void operators_named(void **state)
{
	static const char *const names[] = { "sweep", "mutate", "crossover", "differential", "random" };
	struct tune_space *s = space_new(NBOOL, NFIVE);
	struct tune_search *ts = tune_search_new(TUNE_TECHNIQUE_ENSEMBLE, s, 11, 1.0);
	assert_null(tune_search_operator(ts));
	int seen[5] = { 0 };
	size_t val[NDIMS], best[NDIMS];
	for (int i = 0; i < 100; i++) {
		memcpy(best, tune_search_best(ts, NULL), sizeof(best));
		assert_int_equal(tune_search_ask(ts, val), 0);
		const char *op = tune_search_operator(ts);
		size_t changes = differences(val, best, NDIMS);
		if (!strcmp(op, "sweep"))
			assert_int_equal(changes, 1);
		if (!strcmp(op, "mutate"))
			assert_true(changes >= 1 && changes <= 3);
		int known = 0;
		for (int k = 0; k < 5; k++)
			if (!strcmp(op, names[k]))
				seen[k] = known = 1;
		assert_true(known);
		/* each operator once before the bandit picks */
		if (i < 5)
			assert_string_equal(op, names[i]);
		tune_search_tell(ts, val, objective(s, val));
	}
	for (int k = 0; k < 5; k++)
		assert_true(seen[k]);
	tune_search_free(ts);

	ts = tune_search_new(TUNE_TECHNIQUE_RANDOM, s, 11, 1.0);
	for (int i = 0; i < 10; i++) {
		assert_int_equal(tune_search_ask(ts, val), 0);
		assert_string_equal(tune_search_operator(ts), "random");
		tune_search_tell(ts, val, objective(s, val));
	}
	tune_search_free(ts);
	space_free(s);
}

/* A space with the -O level (pipeline/tune_space_opt.h): dimension 0 the
 * level (-O3, -O2, -Os, -O1; the start -O2), dimensions 1-3 flags the
 * levels set otherwise ("" as the level says, on, off), 4-5 flags every
 * level sets alike, 6 a param -O3 sets otherwise. */
static struct tune_space *level_space(void)
{
	struct tune_space *s = space_new(6, 1);
	static const char *const levels[] = { "-O3", "-O2", "-Os", "-O1" };
	struct tune_dim *o = &s->dims[0];
	for (size_t c = 0; c < o->nchoices; c++)
		free(o->choices[c]);
	free(o->choices);
	o->kind = TUNE_DIM_OPT;
	o->nchoices = 4;
	o->choices = xcalloc(4, sizeof(*o->choices));
	for (size_t c = 0; c < 4; c++)
		o->choices[c] = xstrdup(levels[c]);
	o->start = 1;
	/* flag d's choices: 0 "", 1 on, 2 off; -O3 turns 1 and 2 on, -Os and -O1 turn 3 off */
	static const size_t tie[4][4] = {
		/* -O3 -O2 -Os -O1 */
		{ 0, 0, 0, 0 }, { 1, 2, 2, 2 }, { 1, 2, 2, 2 }, { 1, 1, 2, 2 },
	};
	for (size_t d = 1; d <= 3; d++) {
		struct tune_dim *dim = &s->dims[d];
		for (size_t c = 0; c < dim->nchoices; c++)
			free(dim->choices[c]);
		free(dim->choices);
		dim->nchoices = 3;
		dim->choices = xcalloc(3, sizeof(*dim->choices));
		dim->choices[0] = xstrdup("");
		dim->choices[1] = xasprintf("-fd%zu", d);
		dim->choices[2] = xasprintf("-fno-d%zu", d);
		dim->start = 0;
		dim->level_choice = xcalloc(4, sizeof(size_t));
		memcpy(dim->level_choice, tie[d], sizeof(tie[d]));
	}
	/* the param: -O3 its choice 4, the others the start's value, 2 */
	s->dims[6].level_choice = xcalloc(4, sizeof(size_t));
	static const size_t ptie[4] = { 4, 2, 2, 2 };
	memcpy(s->dims[6].level_choice, ptie, sizeof(ptie));
	return s;
}

static void level_space_free(struct tune_space *s)
{
	for (size_t d = 0; d < s->n; d++)
		free(s->dims[d].level_choice);
	space_free(s);
}

/* The seeds: the other -O levels in the dimension's order, then level by
 * level the flags and params it sets otherwise than the start's level,
 * each once; the ensemble asks them first, as "seed", the random search
 * none. */
static void seeds_in_order(void **state)
{
	(void)state;
	struct tune_space *s = level_space();
	struct tune_change want[] = {
		{ 0, 0 }, { 0, 2 }, { 0, 3 }, /* -O3, -Os, -O1 */
		{ 1, 1 }, { 2, 1 }, { 6, 4 }, /* what -O3 sets otherwise */
		{ 3, 2 },                     /* -Os: flag 3 off; -O1 too, asked once */
	};
	size_t n = sizeof(want) / sizeof(*want);
	assert_int_equal(tune_search_seeds(s, NULL, 0), n);
	struct tune_change got[16];
	assert_int_equal(tune_search_seeds(s, got, 16), n);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(got[i].dim, want[i].dim);
		assert_int_equal(got[i].choice, want[i].choice);
	}
	struct tune_search *ts = tune_search_new(TUNE_TECHNIQUE_ENSEMBLE, s, 3, 1.0);
	size_t val[7];
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(tune_search_ask(ts, val), 0);
		assert_string_equal(tune_search_operator(ts), "seed");
		for (size_t d = 0; d < s->n; d++)
			assert_int_equal(val[d], d == want[i].dim ? want[i].choice : s->dims[d].start);
	}
	/* -O3 is the best; what -O3 does by itself is no change of it, so the
	 * sweep tries everything else first */
	for (size_t i = 0; i < n; i++) {
		size_t p[7];
		for (size_t d = 0; d < s->n; d++)
			p[d] = d == want[i].dim ? want[i].choice : s->dims[d].start;
		tune_search_tell(ts, p, i == 0 ? 0.5 : i < 3 ? 1.2 : i < 6 ? 0.9 : 1.0);
	}
	for (int i = 0; i < 4; i++) {
		assert_int_equal(tune_search_ask(ts, val), 0);
		assert_string_not_equal(tune_search_operator(ts), "seed");
		for (size_t d = 1; d <= 3; d++)
			assert_false(val[0] == 0 && val[d] == 1 && tune_point_changes(s, val) == 2);
	}
	tune_search_free(ts);
	/* the random search: no seeds */
	ts = tune_search_new(TUNE_TECHNIQUE_RANDOM, s, 3, 1.0);
	assert_int_equal(tune_search_ask(ts, val), 0);
	assert_string_equal(tune_search_operator(ts), "random");
	tune_search_free(ts);
	/* a space without the -O level: none */
	struct tune_space *plain = space_new(4, 1);
	assert_int_equal(tune_search_seeds(plain, NULL, 0), 0);
	space_free(plain);
	level_space_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(never_repeats),
		cmocka_unit_test(deterministic_replay),
		cmocka_unit_test(batches),
		cmocka_unit_test(tiny_space_exhausted),
		cmocka_unit_test(ensemble_beats_random),
		cmocka_unit_test(failures_never_best),
		cmocka_unit_test(technique_words),
		cmocka_unit_test(operators_named),
		cmocka_unit_test(seeds_in_order),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
