/* tune_loop.h: the search, the techniques of --technique side by side.
 *
 * Each technique's search (analysis/tune_search.h) is a track: in turn,
 * a batch each, so a search and the random baseline meet the same
 * machine, until each has spent its own --budget (a time of its own
 * batches, or a count of candidates) or exhausted the space.  A batch is
 * asked of the search, its journaled candidates (--resume) told again
 * without a build, the rest evaluated (tune_eval.h), and all told in the
 * order asked, so a resumed search walks the same path.  A line of
 * progress on stderr after each batch.  Stops at an interrupt.
 */
#ifndef FLAGBENCH_TUNE_LOOP_H
#define FLAGBENCH_TUNE_LOOP_H

#include "driver/tune_state.h"

/* Every track's search, to its budget: t->tracks[*] hold their bests. */
void tune_run_searches(struct tune *t);

#endif
