/* tune_search_ops.h: the ensemble's operators, each a way to a new point.
 *
 * sweep, mutate, crossover, differential and random, as tune_search.h
 * describes them: each writes a candidate into val from what the search
 * remembers (tune_search_state.h), which may be a point asked before.
 * tune_search_ask() (tune_search.c) calls propose() for the op its bandit
 * picks and keeps the candidate only when it is new: the ways to a point
 * are apart from the bandit that chooses among them.
 */
#ifndef FLAGBENCH_TUNE_SEARCH_OPS_H
#define FLAGBENCH_TUNE_SEARCH_OPS_H

#include <stddef.h>

#include "analysis/tune_search_state.h"

/* Op's candidate into val: 1, or 0 when it has none (the sweep's walk is
 * spent). */
int propose(struct tune_search *ts, enum tune_op op, size_t *val);
/* Whether the sweep's next change is one expected to help by more than
 * SURE_GAIN (a passenger measured to cost, undone; a change that helped an
 * older best): that is no gamble, so it goes before the bandit's pick. */
int sweep_expects_gain(struct tune_search *ts, size_t *scratch);

#endif
