/* tune_start.h: the start of a tune, the build every candidate is
 * compared with.
 *
 * tune_plan_start() plans it as `flagbench run` would (driver/replan.h):
 * a run's cell, or a variant built by one compiler at one -O level and
 * -march; a build for another machine is refused, tune times what it
 * builds here.  tune_measure_start() builds, checks and measures it once
 * the session is open: its sha256 names the binary a candidate that
 * changes nothing builds, and the metric is chosen on it (instructions
 * where a counter source counts it, time otherwise), so every later
 * figure is a ratio to it.  Each returns 0, or -1 said on stderr.
 */
#ifndef FLAGBENCH_TUNE_START_H
#define FLAGBENCH_TUNE_START_H

#include "driver/tune_state.h"

int tune_plan_start(struct tune *t);
int tune_measure_start(struct tune *t);
/* The start alone, as the one cell of *bp (plan_free_copies frees it),
 * through session s as far as built (session.h: *b, its tally in
 * b->built; session_batch_release frees it): the seconds the build took.
 * tune_measure_start builds it so and takes the batch on to verified and
 * counted; the probe builds it again into a cache of its own, for what a
 * compile takes when the start came from the cache. */
double tune_build_start(struct tune *t, struct session *s, struct plan *bp, struct session_batch *b);

#endif
