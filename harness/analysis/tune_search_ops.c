/* tune_search_ops.c: see tune_search_ops.h */
#include "analysis/tune_search_ops.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A change measured to help by more than this goes before the bandit's
 * pick: more than a timed score's noise, so it is no gamble. */
#define SURE_GAIN 0.01

/* --- the operators: each writes a candidate into val; 0 when it has none */

/* Dimension d to another of its choices. */
static void change_dim(struct tune_search *ts, size_t *val, size_t d)
{
	size_t c = rng_below(ts, ts->space->dims[d].nchoices - 1);
	val[d] = c >= val[d] ? c + 1 : c;
}

/* The changes of point val not measured to be no help, into ts->hopeful:
 * how many there are; *ndims, how many dimensions they span. */
static size_t hopeful_changes(struct tune_search *ts, const size_t *val, size_t *ndims)
{
	size_t n = 0;
	*ndims = 0;
	for (size_t d = 0; d < ts->n; d++) {
		int any = 0;
		for (size_t c = 0; c < ts->space->dims[d].nchoices; c++) {
			if (c == val[d] || predicted_change(ts, val, d, c) >= 1 - NEW_BEST_MARGIN)
				continue;
			if (n == ts->hopeful_alloc) {
				ts->hopeful_alloc = ts->hopeful_alloc ? 2 * ts->hopeful_alloc : 64;
				ts->hopeful = xrealloc(ts->hopeful, ts->hopeful_alloc * sizeof(*ts->hopeful));
			}
			ts->hopeful[n++] = (struct sweep_change){ d, c, 0, 0 };
			any = 1;
		}
		*ndims += any;
	}
	return n;
}

/* k changes of val on distinct dimensions, at random: among the hopeful
 * ones where they span k dimensions (on a plateau a change measured to
 * cost or to do nothing is a wasted evaluation, or a passenger to undo
 * later), else among all. */
static void change_random_dims(struct tune_search *ts, size_t *val, size_t k)
{
	size_t picked[3];
	size_t ndims, nhopeful = hopeful_changes(ts, val, &ndims);
	if (k > ts->nchangeable)
		k = ts->nchangeable;
	for (size_t i = 0; i < k;) {
		size_t d, c = 0;
		if (ndims >= k) {
			struct sweep_change h = ts->hopeful[rng_below(ts, nhopeful)];
			d = h.dim;
			c = h.choice;
		} else {
			d = ts->changeable[rng_below(ts, ts->nchangeable)];
		}
		int again = 0;
		for (size_t j = 0; j < i; j++)
			again |= picked[j] == d;
		if (again)
			continue;
		picked[i++] = d;
		if (ndims >= k)
			val[d] = c;
		else
			change_dim(ts, val, d);
	}
}

static void change_random_dim(struct tune_search *ts, size_t *val)
{
	change_random_dims(ts, val, 1);
}

static void shuffle_changes(struct tune_search *ts, struct sweep_change *c, size_t n)
{
	for (size_t i = n; i > 1; i--) {
		size_t j = rng_below(ts, i);
		struct sweep_change tmp = c[i - 1];
		c[i - 1] = c[j];
		c[j] = tmp;
	}
}

/* Which part of the walk a change goes in: first those expected to help
 * (a change that helped an older best, undoing a passenger that was
 * measured to cost), then the best's passengers never measured, undone (a
 * point a multi-change operator found often carries flags that cost), then
 * the changes never measured, then those expected not to help (flags
 * mostly matter, or not, the same way on a new best, but not always, so
 * they still come). */
static int sweep_group(const struct tune_search *ts, size_t d, size_t c, double predicted)
{
	if (isnan(predicted))
		return c == ts->space->dims[d].start ? 1 : 2;
	return predicted < 1 - NEW_BEST_MARGIN ? 0 : 3;
}

static int cmp_predicted(const void *a, const void *b)
{
	const struct sweep_change *x = a, *y = b;
	if (x->predicted != y->predicted)
		return x->predicted < y->predicted ? -1 : 1;
	return (x->rank > y->rank) - (x->rank < y->rank);
}

/* The walk of the best's single changes: each group shuffled, the known
 * ones then ordered by what they are expected to bring, most first. */
static void sweep_rebuild(struct tune_search *ts)
{
	const struct tune_space *s = ts->space;
	size_t total = 0;
	for (size_t d = 0; d < ts->n; d++)
		total += s->dims[d].nchoices - 1;
	if (total > ts->sweep_alloc) {
		ts->sweep_alloc = total;
		ts->sweep = xrealloc(ts->sweep, total * sizeof(*ts->sweep));
	}
	size_t nwalk = 0;
	for (int group = 0; group < 4; group++) {
		size_t first = nwalk;
		for (size_t d = 0; d < ts->n; d++)
			for (size_t c = 0; c < s->dims[d].nchoices; c++) {
				if (c == ts->best[d])
					continue;
				double predicted = predicted_factor(ts, d, c);
				if (sweep_group(ts, d, c, predicted) == group)
					ts->sweep[nwalk++] = (struct sweep_change){ d, c, predicted, 0 };
			}
		shuffle_changes(ts, ts->sweep + first, nwalk - first);
		if (group == 0 || group == 3) {
			for (size_t i = first; i < nwalk; i++)
				ts->sweep[i].rank = i;
			qsort(ts->sweep + first, nwalk - first, sizeof(*ts->sweep), cmp_predicted);
		}
	}
	ts->nsweep = nwalk;
	ts->sweep_pos = 0;
	ts->sweep_generation = ts->best_generation;
}

static int propose_sweep(struct tune_search *ts, size_t *val)
{
	if (ts->sweep_generation != ts->best_generation)
		sweep_rebuild(ts);
	while (ts->sweep_pos < ts->nsweep) {
		struct sweep_change c = ts->sweep[ts->sweep_pos++];
		memcpy(val, ts->best, ts->n * sizeof(*val));
		val[c.dim] = c.choice;
		if (!asked(ts, val))
			return 1;
	}
	return 0;
}

int sweep_expects_gain(struct tune_search *ts, size_t *scratch)
{
	if (ts->sweep_generation != ts->best_generation)
		sweep_rebuild(ts);
	for (; ts->sweep_pos < ts->nsweep; ts->sweep_pos++) {
		struct sweep_change c = ts->sweep[ts->sweep_pos];
		if (!(predicted_factor(ts, c.dim, c.choice) < 1 - SURE_GAIN))
			return 0;
		memcpy(scratch, ts->best, ts->n * sizeof(*scratch));
		scratch[c.dim] = c.choice;
		if (!asked(ts, scratch))
			return 1;
	}
	return 0;
}

/* The best with 1-3 dimensions changed at random. */
static int propose_mutate(struct tune_search *ts, size_t *val)
{
	memcpy(val, ts->best, ts->n * sizeof(*val));
	change_random_dims(ts, val, 1 + rng_below(ts, 3));
	return 1;
}

/* The better of two elite points drawn at random. */
static size_t tournament(struct tune_search *ts)
{
	size_t a = ts->elite[rng_below(ts, ts->nelite)], b = ts->elite[rng_below(ts, ts->nelite)];
	return ts->recs[b].score < ts->recs[a].score ? b : a;
}

static int propose_crossover(struct tune_search *ts, size_t *val)
{
	if (ts->nelite < 2) {
		memcpy(val, ts->best, ts->n * sizeof(*val));
		change_random_dim(ts, val);
		return 1;
	}
	size_t p1 = tournament(ts), p2 = tournament(ts);
	for (int tries = 0; p2 == p1 && tries < 4; tries++)
		p2 = tournament(ts);
	const size_t *a = point_at(ts, p1), *b = point_at(ts, p2);
	for (size_t d = 0; d < ts->n; d++)
		val[d] = rng_coin(ts) ? a[d] : b[d];
	change_random_dim(ts, val);
	return 1;
}

/* Whether differential moves dimension d of the best to a's choice: a
 * and b differ there, a from the best, and the move is not measured to be
 * no help (that would be a passenger to undo). */
static int movable_dim(const struct tune_search *ts, const size_t *a, const size_t *b, size_t d)
{
	return a[d] != b[d] && a[d] != ts->best[d] && !(predicted_factor(ts, d, a[d]) >= 1 - NEW_BEST_MARGIN);
}

/* Discrete differential evolution: the best moved toward a where a and b
 * differ, each such dimension with probability 1/2. */
static int propose_differential(struct tune_search *ts, size_t *val)
{
	memcpy(val, ts->best, ts->n * sizeof(*val));
	if (ts->npopulation < 2) {
		change_random_dim(ts, val);
		return 1;
	}
	size_t ia = rng_below(ts, ts->npopulation), ib = rng_below(ts, ts->npopulation - 1);
	if (ib >= ia)
		ib++;
	const size_t *a = point_at(ts, ts->population[ia]), *b = point_at(ts, ts->population[ib]);
	int changed = 0;
	size_t movable = 0; /* dimensions where a differs from b and from the best */
	for (size_t d = 0; d < ts->n; d++) {
		if (!movable_dim(ts, a, b, d))
			continue;
		movable++;
		if (rng_coin(ts)) {
			val[d] = a[d];
			changed = 1;
		}
	}
	if (changed)
		return 1;
	if (!movable) {
		change_random_dim(ts, val);
		return 1;
	}
	/* at least one change: the k-th movable dimension */
	size_t k = rng_below(ts, movable);
	for (size_t d = 0; d < ts->n; d++)
		if (movable_dim(ts, a, b, d) && k-- == 0) {
			val[d] = a[d];
			break;
		}
	return 1;
}

static int propose_random(struct tune_search *ts, size_t *val)
{
	for (size_t d = 0; d < ts->n; d++)
		val[d] = rng_below(ts, ts->space->dims[d].nchoices);
	return 1;
}

int propose(struct tune_search *ts, enum tune_op op, size_t *val)
{
	switch (op) {
	case OP_SWEEP:
		return propose_sweep(ts, val);
	case OP_MUTATE:
		return propose_mutate(ts, val);
	case OP_CROSSOVER:
		return propose_crossover(ts, val);
	case OP_DIFFERENTIAL:
		return propose_differential(ts, val);
	default:
		return propose_random(ts, val);
	}
}
