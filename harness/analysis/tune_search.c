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

#include "analysis/tune_search_ops.h"
#include "analysis/tune_search_state.h"

static const char *const op_names[OP_ALL] = { "sweep", "mutate", "crossover", "differential", "random", "seed" };

/* Proposals an ask makes before it enumerates the space: a space this
 * many random draws cannot find a new point in is tiny or nearly spent. */
#define PROPOSALS_PER_ASK 1000

struct tune_search *tune_search_new(enum tune_technique t, const struct tune_space *s, uint64_t seed,
				    double start_score)
{
	struct tune_search *ts = xcalloc(1, sizeof(*ts));
	ts->technique = t;
	ts->space = s;
	ts->n = s->n;
	ts->rng = seed;
	ts->last_op = -1;
	ts->opt_dim = tune_space_opt_dim(s);

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
	if (t == TUNE_TECHNIQUE_ENSEMBLE) {
		ts->nseeds = tune_search_seeds(s, NULL, 0);
		ts->seeds = xcalloc(ts->nseeds + 1, sizeof(*ts->seeds));
		tune_search_seeds(s, ts->seeds, ts->nseeds);
	}
	return ts;
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

/* The next seed not asked yet: the start with one change.  0 when the
 * seeds are spent. */
static int next_seed(struct tune_search *ts, size_t *val)
{
	while (ts->seed_pos < ts->nseeds) {
		const struct tune_change *c = &ts->seeds[ts->seed_pos++];
		memcpy(val, point_at(ts, 0), ts->n * sizeof(*val));
		val[c->dim] = c->choice;
		if (asked(ts, val))
			continue;
		size_t i = record(ts, val, OP_SEED);
		/* a change of the start, whatever the best is now: its tell
		 * measures that one change */
		ts->recs[i].base = 0;
		ts->last_op = OP_SEED;
		return 1;
	}
	return 0;
}

int tune_search_ask(struct tune_search *ts, size_t *val)
{
	if (ts->exhausted)
		return -1;
	if (next_seed(ts, val))
		return 0;
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
	if (ts->technique == TUNE_TECHNIQUE_ENSEMBLE && ts->recs[i].op != OP_SEED)
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
	free(ts->seeds);
	free(ts);
}
