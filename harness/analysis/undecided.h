/* undecided.h: the answers a run is about to give, asked while it runs.
 *
 * A run's answer per variant is its fastest configuration and whether its
 * lead over every other build is real (report/model_answer.h, through the
 * one comparison), and its speedup tables say whether each variant is
 * faster than the family's baseline built the same way.  While the rounds
 * go on, answers_undecided() asks the same questions of the cells measured
 * so far: per variant the leader (the fastest by the one comparison
 * against the fastest by figure) against each other build, each variant
 * against its baseline per unit of work, and the gaps (each variant's two
 * builds that differ in one part of the configuration, as the tables pair
 * them: analysis/gap_pairs.h); where the comparison of a pair
 * (paired over their rounds) at UNDECIDED_LEVEL or UNDECIDED_LEVEL_LOW gives a verdict a second
 * run may not give (analysis/comparison.h's comparison_may_flip: a real
 * lead below 90 % to repeat, an inconclusive one 20 % or more to turn
 * real), both cells are marked, and the scheduler gives them runs beyond
 * their precision target, within SCHEDULE_UNDECIDED_BUDGETS budgets, or
 * a slow cell to the runs a 95 % interval needs within more
 * (pipeline/schedule.h: schedule_open_budget_left).  So runs go where an answer may flip, not to
 * cells whose answer is plain, nor to a tie that stays a tie.  Cells with
 * layouts, emulated cells and references are left alone.
 */
#ifndef FLAGBENCH_UNDECIDED_H
#define FLAGBENCH_UNDECIDED_H

#include "pipeline/plan.h"
#include "results/ratio_drift.h"

/* The levels the run's many answers are shown at lie between these
 * (model_compare.h: 1 - R x 0.05 / m for R real leads among m, 96-97 % on
 * the quick suite): a question is open where it may flip at either.  At
 * the upper alone, a tie of 13 pairs whose chance to turn real was under
 * 20 % there was let stop, and was real at the tables' 96.5 % in a second
 * run of 30 pairs. */
#define UNDECIDED_LEVEL 0.99
#define UNDECIDED_LEVEL_LOW 0.95

/* mark[i] = 1 for each cell of p whose answer is undecided, else 0.
 * between (NULL: none): what this machine's earlier runs say its ratios
 * move from run to run (results/ratio_drift.h), added to each question's
 * interval as the tables will add it: where that alone keeps an answer
 * open, more runs cannot close it, and none are spent on it. */
void answers_undecided(const struct plan *p, const struct between_runs *between, unsigned char *mark);

#endif
