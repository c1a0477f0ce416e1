/* tune_search_state.c: see tune_search_state.h */
#include "analysis/tune_search_state.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/stats.h"
#include "core/util.h"

/* --- the generator: the project's one (core/stats.h), so a seed means
 * the same points everywhere */

uint64_t rng_next(struct tune_search *ts)
{
	return (uint64_t)stats_random(&ts->rng);
}

size_t rng_below(struct tune_search *ts, size_t bound)
{
	uint64_t b = bound;
	uint64_t threshold = (0 - b) % b;
	for (;;) {
		uint64_t r = rng_next(ts);
		if (r >= threshold)
			return (size_t)(r % b);
	}
}

int rng_coin(struct tune_search *ts)
{
	return (int)(rng_next(ts) >> 63);
}

/* --- the points asked */

uint64_t point_hash(const size_t *val, size_t n)
{
	uint64_t h = FNV1A_OFFSET;
	for (size_t i = 0; i < n; i++) {
		/* a value's 8 bytes, least significant first, on any host */
		unsigned char b[8];
		for (int k = 0; k < 8; k++)
			b[k] = (unsigned char)((uint64_t)val[i] >> (8 * k));
		h = fnv1a(h, b, sizeof(b));
	}
	return h;
}

const size_t *point_at(const struct tune_search *ts, size_t i)
{
	return ts->vals + i * ts->n;
}

size_t lookup(const struct tune_search *ts, const size_t *val, uint64_t hash)
{
	size_t mask = ts->table_size - 1;
	for (size_t slot = (size_t)hash & mask;; slot = (slot + 1) & mask) {
		size_t e = ts->table[slot];
		if (!e)
			return NO_POINT;
		if (ts->recs[e - 1].hash == hash && !memcmp(point_at(ts, e - 1), val, ts->n * sizeof(*val)))
			return e - 1;
	}
}

int asked(const struct tune_search *ts, const size_t *val)
{
	return lookup(ts, val, point_hash(val, ts->n)) != NO_POINT;
}

static void table_put(size_t *table, size_t size, uint64_t hash, size_t index)
{
	size_t slot = (size_t)hash & (size - 1);
	while (table[slot])
		slot = (slot + 1) & (size - 1);
	table[slot] = index + 1;
}

size_t record(struct tune_search *ts, const size_t *val, enum tune_op op)
{
	if (ts->count == ts->alloc) {
		ts->alloc = ts->alloc ? 2 * ts->alloc : 64;
		ts->vals = xrealloc(ts->vals, ts->alloc * (ts->n ? ts->n : 1) * sizeof(*ts->vals));
		ts->recs = xrealloc(ts->recs, ts->alloc * sizeof(*ts->recs));
	}
	/* at most half full, so a probe ends quickly on an empty slot */
	if (2 * (ts->count + 1) > ts->table_size) {
		size_t size = ts->table_size ? 2 * ts->table_size : 128;
		size_t *table = xcalloc(size, sizeof(*table));
		for (size_t i = 0; i < ts->count; i++)
			table_put(table, size, ts->recs[i].hash, i);
		free(ts->table);
		ts->table = table;
		ts->table_size = size;
	}
	size_t i = ts->count++;
	memcpy(ts->vals + i * ts->n, val, ts->n * sizeof(*val));
	ts->recs[i] = (struct point_rec){
		.hash = point_hash(val, ts->n), .score = NAN, .op = op, .base = ts->best_index
	};
	table_put(ts->table, ts->table_size, ts->recs[i].hash, i);
	ts->op_asked[op]++;
	ts->op_pending[op]++;
	ts->npending++;
	return i;
}

/* Strictly better than the best (a failed start is beaten by anything finite). */
static int improves(double score, double best)
{
	if (!isfinite(score))
		return 0;
	if (!isfinite(best))
		return 1;
	return score < best - fabs(best) * NEW_BEST_MARGIN;
}

void elite_insert(struct tune_search *ts, size_t index)
{
	double score = ts->recs[index].score;
	size_t pos = ts->nelite;
	while (pos > 0 && ts->recs[ts->elite[pos - 1]].score > score)
		pos--;
	if (pos >= ELITE_SIZE)
		return;
	size_t keep = ts->nelite < ELITE_SIZE ? ts->nelite : ELITE_SIZE - 1;
	memmove(ts->elite + pos + 1, ts->elite + pos, (keep - pos) * sizeof(*ts->elite));
	ts->elite[pos] = index;
	if (ts->nelite < ELITE_SIZE)
		ts->nelite++;
}

void population_add(struct tune_search *ts, size_t index)
{
	if (ts->npopulation == ts->population_alloc) {
		ts->population_alloc = ts->population_alloc ? 2 * ts->population_alloc : 64;
		ts->population = xrealloc(ts->population, ts->population_alloc * sizeof(*ts->population));
	}
	ts->population[ts->npopulation++] = index;
}

static double *effect_of(const struct tune_search *ts, size_t d, size_t c)
{
	return &ts->effect[ts->change_offset[d] + c];
}

/* The factor choice c of dimension d brings against the start: 1 for the
 * start itself, NAN unknown. */
static double factor_of(const struct tune_search *ts, size_t d, size_t c)
{
	return c == ts->space->dims[d].start ? 1 : *effect_of(ts, d, c);
}

/* What a told point says of the flags it changed from its base (the best
 * it was asked from): where all its changes but one have known factors,
 * the score's ratio to the base's, less those, is that one's factor
 * (flags taken to act independently, which is what the sweep's order
 * needs, not more).  A single change is measured afresh each time. */
static void note_effect(struct tune_search *ts, size_t index)
{
	const struct point_rec *r = &ts->recs[index];
	if (r->base == NO_POINT)
		return;
	double base_score = ts->recs[r->base].score;
	if (!isfinite(base_score) || base_score <= 0)
		return;
	double ratio = isfinite(r->score) ? r->score / base_score : INFINITY;
	if (!(ratio > 0)) /* a score of 0 or less says nothing as a factor */
		return;
	const size_t *b = point_at(ts, r->base), *p = point_at(ts, index);
	size_t ndiff = 0, unknown = NO_POINT;
	for (size_t d = 0; d < ts->n && ndiff < 2; d++)
		if (b[d] != p[d]) {
			ndiff++;
			unknown = d;
		}
	if (ndiff != 1) {
		unknown = NO_POINT;
		double known = 1;
		for (size_t d = 0; d < ts->n; d++) {
			if (b[d] == p[d])
				continue;
			double from = factor_of(ts, d, b[d]), to = factor_of(ts, d, p[d]);
			if (isnan(from) || isnan(to)) {
				if (unknown != NO_POINT || (isnan(from) && isnan(to)))
					return; /* two unknowns */
				unknown = d;
			} else if (isinf(from)) {
				return;
			} else {
				known *= to / from;
			}
		}
		if (unknown == NO_POINT || isinf(known)) /* nothing to learn, or a known breaker explains it */
			return;
		ratio /= known;
	}
	/* the move of dimension d from b's choice to p's brought ratio: what
	 * is unknown of it (both, for a single change) is what it measured */
	size_t d = unknown, start = ts->space->dims[d].start;
	double from = factor_of(ts, d, b[d]), to = factor_of(ts, d, p[d]);
	int fresh = ndiff == 1;
	if ((fresh || isnan(to)) && p[d] != start && isfinite(from))
		*effect_of(ts, d, p[d]) = from * ratio;
	else if ((fresh || isnan(from)) && b[d] != start && isfinite(ratio) && isfinite(to))
		*effect_of(ts, d, b[d]) = to / ratio;
}

/* Whether choices a and b of dimension d give the same build at point
 * val: one of them is "" (as the -O level says) and the other spells what
 * val's -O level sets (tune_space_opt.h): -fpeel-loops at -O3 is -O3. */
static int same_at_level(const struct tune_search *ts, const size_t *val, size_t d, size_t a, size_t b)
{
	const struct tune_dim *dim = &ts->space->dims[d];
	if (!dim->level_choice || ts->opt_dim == NO_POINT || val[ts->opt_dim] >= ts->space->dims[ts->opt_dim].nchoices)
		return 0;
	size_t own = dim->level_choice[val[ts->opt_dim]];
	return (a == dim->start && b == own) || (b == dim->start && a == own);
}

double predicted_change(const struct tune_search *ts, const size_t *val, size_t d, size_t c)
{
	if (same_at_level(ts, val, d, val[d], c))
		return 1; /* the same build: no help */
	double to = factor_of(ts, d, c), from = factor_of(ts, d, val[d]);
	if (isinf(from))
		return isinf(to) ? NAN : 0; /* undoing a change that broke a candidate alone */
	return to / from;
}

double predicted_factor(const struct tune_search *ts, size_t d, size_t c)
{
	return predicted_change(ts, ts->best, d, c);
}

int learn(struct tune_search *ts, size_t index, double score)
{
	ts->recs[index].told = 1;
	ts->recs[index].score = score;
	note_effect(ts, index);
	if (!isfinite(score))
		return 0;
	population_add(ts, index);
	elite_insert(ts, index);
	if (!improves(score, ts->best_score))
		return 0;
	memcpy(ts->best, point_at(ts, index), ts->n * sizeof(*ts->best));
	ts->best_index = index;
	ts->best_score = score;
	ts->best_generation++;
	return 1;
}
