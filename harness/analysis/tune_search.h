/* tune_search.h: the search techniques of `flagbench tune`, ask and tell.
 *
 * A search proposes points of a tune_space (one choice index per
 * dimension, tune_space.h) and is told what each scored, lower better
 * (instructions per unit, or time as a ratio to the start), INFINITY for a
 * candidate that failed (the compiler broke, the output was wrong).  It
 * never asks the same point twice (nor the start).  Several points may be
 * asked before any is told (a batch compiles in parallel); they are told in
 * the order they were asked.  A search is deterministic: the same seed and
 * the same scores give the same points, which is what makes the journal's
 * --resume exact (tune.c replays the journaled scores).
 *
 * Techniques:
 *   random    every dimension drawn uniformly: OpenTuner's baseline, and
 *             --technique random's, so the ensemble is measured against it
 *             at the same budget.
 *   ensemble  an AUC bandit (OpenTuner's, Fialho et al.) over operators
 *             that work from what was told: sweep (the best with one
 *             dimension changed, every dimension in turn), mutate (the best
 *             with 1-3 random changes), crossover (two elite points mixed,
 *             one change), differential (the best moved by the difference
 *             of two population members) and random; an operator is
 *             credited when its point becomes the new best.  What the tells
 *             say of single flags orders the sweep (a passenger measured to
 *             cost is undone first, and that goes before the bandit's pick)
 *             and keeps the random changes off flags measured to be no help.
 *             Before any operator, the ensemble asks its seeds
 *             (tune_search_seeds): what is known to matter, the -O levels
 *             and the flags and params in which they differ from the
 *             start's level, each a single change of the start, so that
 *             the search reaches what the next -O level gives and
 *             measures the parts of it (the operator "seed").
 */
#ifndef FLAGBENCH_TUNE_SEARCH_H
#define FLAGBENCH_TUNE_SEARCH_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/tune_search_technique.h"
#include "pipeline/tune_space.h"

struct tune_search;

/* A search of space s (borrowed: it must outlive the search), seeded.
 * start_score: what the start scored (the search begins from it). */
struct tune_search *tune_search_new(enum tune_technique t, const struct tune_space *s, uint64_t seed,
				    double start_score);
/* The next point into val (s->n entries): 0, or -1 when the technique has
 * no new point left to ask (a tiny space exhausted: when the operators
 * find nothing new, the space is walked in order to its last point). */
int tune_search_ask(struct tune_search *ts, size_t *val);
/* The operator that proposed the last point asked ("seed", "sweep",
 * "mutate", "crossover", "differential", "random"; "random" too for the
 * walk in order), NULL before the first. */
const char *tune_search_operator(const struct tune_search *ts);
/* What point val (asked before, oldest untold first) scored; a point
 * never asked, or told already, is ignored.  NAN counts as INFINITY. */
void tune_search_tell(struct tune_search *ts, const size_t *val, double score);
/* The best point told so far (the start until something beats it) and
 * its score. */
const size_t *tune_search_best(const struct tune_search *ts, double *score);
void tune_search_free(struct tune_search *ts);

/* One change of the start: dimension dim set to choice. */
struct tune_change {
	size_t dim, choice;
};
/* The ensemble's seeds for space s, in the order asked: the start with
 * the -O dimension (tune_space_opt.h) at each other level, in the
 * dimension's order; then, level by level in that order, the start with
 * one dimension that the level sets otherwise than the start's level set
 * as that level sets it (level_choice), each change once.  Up to max
 * into out (out may be NULL); returns how many there are. */
size_t tune_search_seeds(const struct tune_space *s, struct tune_change *out, size_t max);

#endif
