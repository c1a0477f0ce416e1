/* model_answer.h: the answer in words, printed before the tables.
 *
 * From a family's throughput table: per variant the fastest configuration,
 * its margin over the runner-up and the slowest, and whether the lead is
 * real (the one comparison) or not; per family the compiler and the flags
 * that win most often.  For emulated cells, whose times say little about
 * the target, from the instructions table instead (fewest).
 */
#ifndef FLAGBENCH_MODEL_ANSWER_H
#define FLAGBENCH_MODEL_ANSWER_H

#include "report/model_cells.h"

/* Pushes the sentences onto fam->answer; fewest: rank by fewest, exact
 * counts.  A lead by time is the one comparison's (model_compare.h):
 * real exactly when the interval printed beside it excludes 1.00x.  The
 * leader is the build the one comparison ranks first: never below 1.00x
 * against its runner-up; where the figures name another build fastest,
 * the answer says both (manswer.by_figure). */
void model_answer(struct model *m, struct mfamily *fam, struct fsrc *f, const struct mtable *t, int fewest);

/* The family's real leads by time whose chance to repeat is below
 * MODEL_REPEAT_SURE (model_repeat_unsure): the ones a second run may not call
 * real. */
size_t model_unsure_leads(const struct mfamily *fam);

#endif
