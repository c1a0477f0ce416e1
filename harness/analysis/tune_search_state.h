/* tune_search_state.h: what a search remembers, for the parts of it.
 *
 * struct tune_search behind tune_search.h's handle: its generator, every
 * point asked (a hash set, so none is asked twice), the best, crossover's
 * elite and differential's population, what the tells measured of single
 * flags, the sweep's walk and the bandit's window; with the few calls that
 * read and grow it.  For tune_search.c (ask, tell and the bandit) and
 * tune_search_ops.c (the operators) only: tune_search.h does not include
 * it, so a caller holds the handle and sees none of these names.
 */
#ifndef FLAGBENCH_TUNE_SEARCH_STATE_H
#define FLAGBENCH_TUNE_SEARCH_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/tune_search_technique.h"
#include "pipeline/tune_space.h"

/* tune_search.h's, a seed: the state holds a list of them */
struct tune_change;

/* The bandit's operators (OP_COUNT of them), then the seeds, which are
 * asked before the bandit picks any and earn it no credit. */
enum tune_op { OP_SWEEP, OP_MUTATE, OP_CROSSOVER, OP_DIFFERENTIAL, OP_RANDOM, OP_COUNT, OP_SEED = OP_COUNT };
#define OP_ALL (OP_COUNT + 1)

/* The points crossover draws its parents from, best first. */
#define ELITE_SIZE 10
/* The bandit's memory (OpenTuner's default is 500; a tune run's budget is
 * a few hundred points, so a shorter window lets credit move within it)
 * and its exploration weight. */
#define BANDIT_WINDOW 100
#define BANDIT_C 0.1
/* A point is a new best when it beats the best by more than rounding. */
#define NEW_BEST_MARGIN 1e-9

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
	unsigned long long rng; /* stats_random's state */

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
	size_t op_asked[OP_ALL];
	/* asked and not told yet, by op: a batch is asked before any tell */
	size_t op_pending[OP_ALL], npending;
	int last_op; /* -1 before the first ask */

	/* the -O dimension (pipeline/tune_space_opt.h), NO_POINT where none */
	size_t opt_dim;
	/* the seeds (tune_search_seeds), asked first by the ensemble */
	struct tune_change *seeds;
	size_t nseeds, seed_pos;

	/* The systematic fallback: a mixed-radix counter over the space; every
	 * point before it has been asked. */
	size_t *enum_cursor;
	int exhausted;
};

/* --- the generator: stats_random (core/stats.h) from the seed */
uint64_t rng_next(struct tune_search *ts);
/* Uniform in [0, bound), bound > 0, without modulo bias. */
size_t rng_below(struct tune_search *ts, size_t bound);
int rng_coin(struct tune_search *ts);

/* --- the points asked, and what their tells taught */

uint64_t point_hash(const size_t *val, size_t n);
const size_t *point_at(const struct tune_search *ts, size_t i);
size_t lookup(const struct tune_search *ts, const size_t *val, uint64_t hash);
int asked(const struct tune_search *ts, const size_t *val);
size_t record(struct tune_search *ts, const size_t *val, enum tune_op op);
void elite_insert(struct tune_search *ts, size_t index);
void population_add(struct tune_search *ts, size_t index);
/* The factor changing dimension d of point val to choice c is expected to
 * bring, from what was measured; NAN where a factor is unknown. */
double predicted_change(const struct tune_search *ts, const size_t *val, size_t d, size_t c);
double predicted_factor(const struct tune_search *ts, size_t d, size_t c);
/* A told score: the best, the elite and the population learn it. */
int learn(struct tune_search *ts, size_t index, double score);

#endif
