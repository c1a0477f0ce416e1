/* model_answer.h: the answer in words, printed before the tables.
 *
 * From a family's throughput table: per variant the fastest configuration,
 * its margin over the runner-up and the slowest, and whether the lead is
 * beyond both intervals or a tie; per family the compiler and the flags
 * that win most often.  For emulated cells, whose times say little about
 * the target, from the instructions table instead (fewest).
 */
#ifndef FLAGBENCH_MODEL_ANSWER_H
#define FLAGBENCH_MODEL_ANSWER_H

#include "report/model.h"

/* Pushes the sentences onto fam->answer; fewest: rank by fewest, exact counts. */
void model_answer(struct model *m, struct mfamily *fam, const struct mtable *t, int fewest);

#endif
