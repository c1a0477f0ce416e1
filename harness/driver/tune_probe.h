/* tune_probe.h: before the search, what a candidate costs, the -O levels
 * measured, and what the budget buys.
 *
 * The start was built, checked and screened (tune_start.h), each timed.
 * Then the -O levels other than the start's (the first seeds of the
 * ensemble, tune_search.h, and the confirmation's lines) are one batch:
 * built together (--jobs compilers, so one compile's time where they fit
 * in the CPUs), checked, and screened, counted or timed beside the start.
 * Their figures are journaled (technique "probe"), so the seeds take them
 * without another measurement.  Where tune chose counts itself, the
 * levels are also timed with the start, and where time orders them
 * otherwise than their counts the screen turns to time before the search
 * begins (tune_screen.h).
 *
 * From those: one compile (the level batch's wall time over its waves of
 * --jobs compiles; the start's compile where the levels came from the
 * cache; else the start compiled again into a cache of its own, so the
 * figure is never a cache hit's), one check, one screen (a count, or a
 * candidate's share of a batch's timed rounds, the start's rounds
 * included).  The announcement, on stderr before the first candidate:
 *
 *   flagbench: tune: one candidate costs about 62 s (build 58 s, check
 *   1.0 s, screen 3.0 s); 2 CPUs, batches of 2: the budget of 5m00s buys
 *   about 10 candidates in 5 batches; a search of this space (392
 *   dimensions) needs about 95 to do better than chance (80 seeds ...)
 *
 * (analysis/tune_budget.h has the arithmetic and the rule for the number
 * needed), and where the budget buys fewer, what budget would.  It is all
 * journaled, so --resume says the same without measuring again.
 */
#ifndef FLAGBENCH_TUNE_PROBE_H
#define FLAGBENCH_TUNE_PROBE_H

#include "driver/tune_state.h"

/* The levels measured and the cost figured (or both read back from the
 * journal); 0, or -1 when interrupted. */
int tune_probe(struct tune *t);
/* The announcement on stderr (t->plan, t->needed filled by tune_probe). */
void tune_announce(const struct tune *t);
/* "0.04 s", "1.2 s", "58 s", "5m00s": a cost in words. */
void tune_format_seconds(double s, char *buf, size_t n);

#endif
