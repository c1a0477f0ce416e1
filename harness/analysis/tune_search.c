/* tune_search.c: see tune_search.h
 *
 * Every point asked is kept (a hash set, so none is asked twice), and
 * every tell is read for what it says of single flags: a point that
 * differs from the best it was asked from in one flag, or in several whose
 * factors but one are known, measures that flag's factor.  The ensemble's
 * operators use that memory: the sweep walks first the changes expected to
 * help, then the best's unmeasured passengers undone, then the unmeasured
 * changes, last those measured to be no help; mutate, crossover's change
 * and differential leave out changes measured to be no help.  Flags are
 * taken to act independently for this, which only orders the search. */
#define _GNU_SOURCE
#include "analysis/tune_search.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum tune_op { OP_SWEEP, OP_MUTATE, OP_CROSSOVER, OP_DIFFERENTIAL, OP_RANDOM, OP_COUNT };

static const char *const op_names[OP_COUNT] = { "sweep", "mutate", "crossover", "differential", "random" };

/* Proposals an ask makes before it enumerates the space: a space this
 * many random draws cannot find a new point in is tiny or nearly spent. */
#define PROPOSALS_PER_ASK 1000
/* The points crossover draws its parents from, best first. */
#define ELITE_SIZE 10
/* The bandit's memory (OpenTuner's default is 500; a tune run's budget is
 * a few hundred points, so a shorter window lets credit move within it)
 * and its exploration weight. */
#define BANDIT_WINDOW 100
#define BANDIT_C 0.1
/* A point is a new best when it beats the best by more than rounding. */
#define NEW_BEST_MARGIN 1e-9
/* A change measured to help by more than this goes before the bandit's
 * pick: more than a timed score's noise, so it is no gamble. */
#define SURE_GAIN 0.01

#define NO_POINT ((size_t)-1)

struct point_rec {
	uint64_t hash;
	double score; /* meaningful once told */
	enum tune_op op;
	int told;
	size_t base; /* the best when it was asked: its tell measures the changes from it */
};

struct sweep_change {
	size_t dim, choice;
	double predicted; /* the factor it is expected to bring, NAN unknown */
	size_t rank;      /* its place in the shuffle, to break ties */
};

struct tune_search {
	enum tune_technique technique;
	const struct tune_space *space;
	size_t n;
	uint64_t rng[4]; /* xoshiro256** */

	/* Every point asked, the start first, in ask order: n values each. */
	size_t *vals;
	struct point_rec *recs;
	size_t count, alloc;
	/* The asked points by hash, open addressing: index + 1, 0 empty. */
	size_t *table;
	size_t table_size;

	size_t *best;
	size_t best_index;
	double best_score;
	uint64_t best_generation; /* counts new bests: the sweep restarts on a change */

	/* Told points with a finite score: crossover's elite (best first) and
	 * differential's population. */
	size_t elite[ELITE_SIZE];
	size_t nelite;
	size_t *population;
	size_t npopulation, population_alloc;

	/* Dimensions with a choice to change to (a dimension of one choice has none). */
	size_t *changeable;
	size_t nchangeable;

	/* sweep: the single changes of the best, in walk order */
	struct sweep_change *sweep;
	size_t nsweep, sweep_pos, sweep_alloc;
	uint64_t sweep_generation;
	/* What each choice off its dimension's start was measured to do, the
	 * factor on the score of changing to it from the start (INFINITY: it
	 * broke the candidate; NAN: unknown), by change_offset[dim] + choice */
	double *effect;
	size_t *change_offset;
	/* the random changes' draw: a point's changes not measured to be no help */
	struct sweep_change *hopeful;
	size_t hopeful_alloc;

	/* The bandit: a ring of the last BANDIT_WINDOW tells, each the operator
	 * and whether its point became a new best. */
	unsigned char window_op[BANDIT_WINDOW], window_hit[BANDIT_WINDOW];
	size_t window_len, window_next;
	size_t op_asked[OP_COUNT];
	/* asked and not told yet, by op: a batch is asked before any tell */
	size_t op_pending[OP_COUNT], npending;
	int last_op; /* -1 before the first ask */

	/* The systematic fallback: a mixed-radix counter over the space; every
	 * point before it has been asked. */
	size_t *enum_cursor;
	int exhausted;
};

const char *tune_technique_name(enum tune_technique t)
{
	return t == TUNE_TECHNIQUE_ENSEMBLE ? "ensemble" : "random";
}

int tune_technique_parse(const char *word, enum tune_technique *out)
{
	if (!word)
		return -1;
	if (!strcmp(word, "random"))
		*out = TUNE_TECHNIQUE_RANDOM;
	else if (!strcmp(word, "ensemble"))
		*out = TUNE_TECHNIQUE_ENSEMBLE;
	else
		return -1;
	return 0;
}

/* --- the generator: our own, so a seed means the same points everywhere */

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static uint64_t rng_next(struct tune_search *ts)
{
	uint64_t *s = ts->rng;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

/* Uniform in [0, bound), bound > 0, without modulo bias. */
static size_t rng_below(struct tune_search *ts, size_t bound)
{
	uint64_t b = bound;
	uint64_t threshold = (0 - b) % b;
	for (;;) {
		uint64_t r = rng_next(ts);
		if (r >= threshold)
			return (size_t)(r % b);
	}
}

static int rng_coin(struct tune_search *ts)
{
	return (int)(rng_next(ts) >> 63);
}

/* --- the points asked */

static uint64_t point_hash(const size_t *val, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a, a value's 8 bytes at a time */
	for (size_t i = 0; i < n; i++) {
		uint64_t v = val[i];
		for (int b = 0; b < 8; b++) {
			h ^= (v >> (8 * b)) & 0xff;
			h *= 0x100000001b3ULL;
		}
	}
	return h;
}

static const size_t *point_at(const struct tune_search *ts, size_t i)
{
	return ts->vals + i * ts->n;
}

static size_t lookup(const struct tune_search *ts, const size_t *val, uint64_t hash)
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

static int asked(const struct tune_search *ts, const size_t *val)
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

static size_t record(struct tune_search *ts, const size_t *val, enum tune_op op)
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

static void elite_insert(struct tune_search *ts, size_t index)
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

static void population_add(struct tune_search *ts, size_t index)
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

/* The factor changing dimension d of point val to choice c is expected to
 * bring, from what was measured; NAN where a factor is unknown. */
static double predicted_change(const struct tune_search *ts, const size_t *val, size_t d, size_t c)
{
	double to = factor_of(ts, d, c), from = factor_of(ts, d, val[d]);
	if (isinf(from))
		return isinf(to) ? NAN : 0; /* undoing a change that broke a candidate alone */
	return to / from;
}

static double predicted_factor(const struct tune_search *ts, size_t d, size_t c)
{
	return predicted_change(ts, ts->best, d, c);
}

/* A told score: the best, the elite and the population learn it. */
static int learn(struct tune_search *ts, size_t index, double score)
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

struct tune_search *tune_search_new(enum tune_technique t, const struct tune_space *s, uint64_t seed,
				    double start_score)
{
	struct tune_search *ts = xcalloc(1, sizeof(*ts));
	ts->technique = t;
	ts->space = s;
	ts->n = s->n;
	uint64_t x = seed;
	for (int i = 0; i < 4; i++)
		ts->rng[i] = splitmix64(&x);
	ts->last_op = -1;

	size_t n1 = ts->n ? ts->n : 1; /* no zero-sized allocations for an empty space */
	ts->best = xcalloc(n1, sizeof(*ts->best));
	ts->enum_cursor = xcalloc(n1, sizeof(*ts->enum_cursor));
	ts->changeable = xcalloc(n1, sizeof(*ts->changeable));
	ts->change_offset = xcalloc(n1, sizeof(*ts->change_offset));
	size_t nchanges = 0;
	for (size_t d = 0; d < ts->n; d++) {
		ts->best[d] = s->dims[d].start;
		if (s->dims[d].nchoices >= 2)
			ts->changeable[ts->nchangeable++] = d;
		ts->change_offset[d] = nchanges;
		nchanges += s->dims[d].nchoices;
	}
	ts->effect = xmalloc((nchanges ? nchanges : 1) * sizeof(*ts->effect));
	for (size_t i = 0; i < nchanges; i++)
		ts->effect[i] = NAN;

	/* the start is asked and told: never proposed, and where the search begins */
	ts->best_score = isnan(start_score) ? INFINITY : start_score;
	ts->best_index = NO_POINT; /* the start has no base */
	size_t start = record(ts, ts->best, OP_RANDOM);
	ts->best_index = start;
	ts->op_asked[OP_RANDOM] = ts->op_pending[OP_RANDOM] = ts->npending = 0; /* the start is no use of an op */
	ts->recs[start].told = 1;
	ts->recs[start].score = ts->best_score;
	if (isfinite(ts->best_score)) {
		population_add(ts, start);
		elite_insert(ts, start);
	}
	ts->best_generation = 1; /* the sweep (generation 0) builds its walk on first use */
	return ts;
}

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

/* Whether the sweep's next change is one expected to help by more than
 * SURE_GAIN (a passenger measured to cost, undone; a change that helped an
 * older best): that is no gamble, so it goes before the bandit's pick. */
static int sweep_expects_gain(struct tune_search *ts, size_t *scratch)
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

static int propose(struct tune_search *ts, enum tune_op op, size_t *val)
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

/* --- the bandit */

/* OpenTuner's AUC credit: the op's uses in the window, each a success
 * weighted by its position among them, so recent successes count most;
 * plus the exploration term for ops used little.  Points still pending
 * count as the latest uses, failed so far: otherwise every ask of a batch
 * would go to the same op. */
static double bandit_score(const struct tune_search *ts, enum tune_op op)
{
	double auc = 0;
	size_t uses = 0;
	size_t first = (ts->window_next + BANDIT_WINDOW - ts->window_len) % BANDIT_WINDOW;
	for (size_t i = 0; i < ts->window_len; i++) {
		size_t at = (first + i) % BANDIT_WINDOW;
		if (ts->window_op[at] != op)
			continue;
		uses++;
		if (ts->window_hit[at])
			auc += (double)uses;
	}
	uses += ts->op_pending[op];
	if (!uses)
		return INFINITY;
	auc = auc * 2 / ((double)uses * (double)(uses + 1));
	return auc + BANDIT_C * sqrt(2 * log((double)(ts->window_len + ts->npending)) / (double)uses);
}

static void bandit_record(struct tune_search *ts, enum tune_op op, int hit)
{
	ts->window_op[ts->window_next] = (unsigned char)op;
	ts->window_hit[ts->window_next] = (unsigned char)hit;
	ts->window_next = (ts->window_next + 1) % BANDIT_WINDOW;
	if (ts->window_len < BANDIT_WINDOW)
		ts->window_len++;
}

/* Whether op a goes before op b: one never asked first (in the fixed
 * order), then the higher bandit score, then the random tie-break. */
static int before(const struct tune_search *ts, enum tune_op a, enum tune_op b, const double *key,
		  const uint64_t *tie)
{
	if (!ts->op_asked[a] != !ts->op_asked[b])
		return !ts->op_asked[a];
	if (!ts->op_asked[a])
		return a < b;
	if (key[a] != key[b])
		return key[a] > key[b];
	return tie[a] > tie[b];
}

/* The ops in the order an ask tries them: each once first (in the fixed
 * order), then by bandit score, ties broken at random; the last of them
 * has been asked once only when all have. */
static size_t bandit_order(struct tune_search *ts, enum tune_op *order)
{
	double key[OP_COUNT];
	uint64_t tie[OP_COUNT];
	for (int op = 0; op < OP_COUNT; op++) {
		order[op] = (enum tune_op)op;
		key[op] = bandit_score(ts, (enum tune_op)op);
		tie[op] = rng_next(ts);
	}
	for (int i = 1; i < OP_COUNT; i++) /* insertion sort, first to try first */
		for (int j = i; j > 0 && before(ts, order[j], order[j - 1], key, tie); j--) {
			enum tune_op t = order[j - 1];
			order[j - 1] = order[j];
			order[j] = t;
		}
	return OP_COUNT;
}

/* --- ask and tell */

/* The next point of the systematic walk not asked yet; 0 when it is past
 * the last point (then every point of the space has been asked). */
static int enumerate_next(struct tune_search *ts, size_t *val)
{
	for (;;) {
		int found = !asked(ts, ts->enum_cursor);
		if (found)
			memcpy(val, ts->enum_cursor, ts->n * sizeof(*val));
		size_t d = 0;
		for (; d < ts->n; d++) {
			if (++ts->enum_cursor[d] < ts->space->dims[d].nchoices)
				break;
			ts->enum_cursor[d] = 0;
		}
		if (found)
			return 1;
		if (d == ts->n)
			return 0;
	}
}

int tune_search_ask(struct tune_search *ts, size_t *val)
{
	if (ts->exhausted)
		return -1;
	enum tune_op order[OP_COUNT];
	size_t norder = 1;
	order[0] = OP_RANDOM;
	if (ts->technique == TUNE_TECHNIQUE_ENSEMBLE && ts->nchangeable) {
		norder = bandit_order(ts, order);
		if (ts->op_asked[order[OP_COUNT - 1]] && sweep_expects_gain(ts, val))
			for (size_t i = 0; order[0] != OP_SWEEP; i++) { /* the sweep to the front */
				enum tune_op t = order[0];
				order[0] = order[i + 1];
				order[i + 1] = t;
			}
	}
	for (size_t i = 0; ts->nchangeable && i < norder; i++) {
		/* an op that keeps proposing asked points gives way to the next */
		for (size_t tries = 0; tries < PROPOSALS_PER_ASK / norder; tries++) {
			if (!propose(ts, order[i], val))
				break;
			if (!asked(ts, val)) {
				record(ts, val, order[i]);
				ts->last_op = (int)order[i];
				return 0;
			}
		}
	}
	if (enumerate_next(ts, val)) {
		record(ts, val, OP_RANDOM);
		ts->last_op = OP_RANDOM;
		return 0;
	}
	ts->exhausted = 1;
	return -1;
}

const char *tune_search_operator(const struct tune_search *ts)
{
	return ts->last_op < 0 ? NULL : op_names[ts->last_op];
}

void tune_search_tell(struct tune_search *ts, const size_t *val, double score)
{
	size_t i = lookup(ts, val, point_hash(val, ts->n));
	/* a point never asked, or told already: nothing to learn */
	if (i == NO_POINT || ts->recs[i].told)
		return;
	ts->op_pending[ts->recs[i].op]--;
	ts->npending--;
	int hit = learn(ts, i, isnan(score) ? INFINITY : score);
	if (ts->technique == TUNE_TECHNIQUE_ENSEMBLE)
		bandit_record(ts, ts->recs[i].op, hit);
}

const size_t *tune_search_best(const struct tune_search *ts, double *score)
{
	if (score)
		*score = ts->best_score;
	return ts->best;
}

void tune_search_free(struct tune_search *ts)
{
	if (!ts)
		return;
	free(ts->vals);
	free(ts->recs);
	free(ts->table);
	free(ts->best);
	free(ts->population);
	free(ts->changeable);
	free(ts->sweep);
	free(ts->effect);
	free(ts->hopeful);
	free(ts->change_offset);
	free(ts->enum_cursor);
	free(ts);
}
