/* ratio_drift.h: how far a run's paired ratios drift over the run.
 *
 * The ratios the tables print pair each build of a variant with another
 * of the same variant, round by round, so a change of the machine that
 * both builds meet alike cancels.  One that they meet differently does
 * not, and a second run of the same suite then finds other ratios than
 * the first's intervals admit.  This reads a stored run's cells, pairs
 * each ok cell with the first ok cell of its variant (and layout) by pass
 * and round, and gives the drift of those log ratios over the run
 * (core/stats.h: stats_ratio_drift), which the one comparison adds to
 * each ratio's interval (analysis/comparison.h: ratio_drift).
 */
#ifndef FLAGBENCH_RATIO_DRIFT_H
#define FLAGBENCH_RATIO_DRIFT_H

#include <stddef.h>

#include "results/reader.h"

/* The sd of the run's ratio drift (0.01 about 1 %; 0 none seen), or NAN
 * when too few comparisons have rounds enough; *used how many counted. */
double results_ratio_drift(const struct results_run *run, size_t *used);

#endif
