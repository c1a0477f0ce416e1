/* tune_screen.h: the counting screen checked against time as the search goes.
 *
 * Instructions per unit are deterministic, so a search told them never
 * chases noise; but a count is not a time.  From gcc -O2 on
 * chacha20/multiblock, 900 candidates screened by counts found a best with
 * 0.799x the start's instructions that ran at 1.016x its time, while plain
 * -O3 was 1.43x faster.  So where tune chose counts itself (no --metric),
 * it checks them against time:
 *   - before the search (tune_probe.h), the start and the -O levels are
 *     timed together in --screen-runs rounds;
 *   - during it, whenever a technique's best counts TUNE_CHECK_STEP fewer
 *     instructions than the last best checked, that best is timed with the
 *     start and the -O level that was fastest by time.
 * Where time tells two of them apart (paired over the rounds, at the
 * Bonferroni level of the pairs) in the other order than their counts
 * (analysis/tune_budget.h's tune_rank_disagreements), the screen turns to
 * time for the rest of the tune: each technique starts again from the
 * start (seeds first) and is told times, paired with the start in each
 * batch, a would-be best timed again; the candidates counted so far stay
 * in the record, no figure of the new screen; the output and results.json
 * say why.  Every check is journaled with its outcome, so --resume takes
 * the same turn at the same candidate without timing again.
 */
#ifndef FLAGBENCH_TUNE_SCREEN_H
#define FLAGBENCH_TUNE_SCREEN_H

#include <stddef.h>

#include "driver/tune_state.h"

/* A best is checked again once it counts this much less than the last. */
#define TUNE_CHECK_STEP 0.05

/* Times the builds of keys beside the start (built through the cache, so
 * usually no compile; checked first) in runs rounds: ratio[i] key i's
 * time to the start's, paired; verdict[a * (n + 1) + b], build b against
 * build a by time, over [the start, keys...], at the Bonferroni level of
 * the pairs.  *wall_s the rounds' wall time, *cells the cells timed.  0,
 * or -1 when one could not be built, checked or timed. */
int tune_time_keys(struct tune *t, char *const *keys, size_t n, unsigned runs, double *ratio,
		   enum comparison_verdict *verdict, double *wall_s, size_t *cells);

/* One check: builds [the start, keys...] (names for the output) with
 * counts (the start's first), against their time (ratio, verdict as
 * tune_time_keys gives them).  Says what it found, journals it, and turns
 * the screen to time where they disagree: 1 then, else 0. */
int tune_screen_judge(struct tune *t, const char *what, char *const *names, size_t n, const double *counts,
		      const double *ratio, const enum comparison_verdict *verdict);

/* A check that --resume finds journaled at this point, taken as it was
 * (the turn included): 1 when there was one, 0 when it is to be made. */
int tune_screen_replay(struct tune *t);

/* After a batch of track: the check of its best, where one is due. */
void tune_screen_check(struct tune *t, size_t track);

#endif
