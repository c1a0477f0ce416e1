/* levels.h: the levels a set of readings falls into, found from all of
 * them at once.
 *
 * A reading is a positive time (a handoff probe's round trip,
 * system/handoff.h).  levels_find() works on the logs of the finite
 * readings, so a level is a ratio wide wherever it lies, and tries one,
 * two and three levels: for each, the partition into contiguous groups of
 * the sorted logs with the least sum of squares within the groups (1-D
 * k-means, exact: every cut is tried, on the logs binned at
 * LEVELS_BIN_LOG, so a few thousand readings cost a few thousand
 * operations plus the bins squared).  It keeps the most levels (three,
 * then two) whose partition passes all of:
 *   - every level holds LEVELS_MIN_READINGS readings and LEVELS_MIN_SHARE
 *     of them (a stray reading is not a level);
 *   - neighbouring levels' centres (geometric means) are LEVELS_MIN_FACTOR
 *     apart;
 *   - and LEVELS_MIN_SEPARATION pooled within-level standard deviations
 *     (of the logs) apart, so one broad hump is not cut in two (a normal
 *     hump cut at its k-means optimum is 2.7 sds apart, in three 3).
 * Otherwise one level: readings alike, as on bare metal.
 * No reading has a say by its place in the sequence: a run that starts in
 * one state and spends most of it in another finds both.
 * levels_of() puts a reading in the level whose centre is nearest in log
 * space, 1 the lowest; an infinite reading (a partner that never answered)
 * in the highest.
 */
#ifndef FLAGBENCH_LEVELS_H
#define FLAGBENCH_LEVELS_H

#include <stddef.h>

#define LEVELS_MAX 3
#define LEVELS_MIN_READINGS 3
#define LEVELS_MIN_SHARE 0.01
#define LEVELS_MIN_FACTOR 1.5
#define LEVELS_MIN_SEPARATION 4.0
#define LEVELS_BIN_LOG 0.01

struct levels {
	unsigned k;                  /* 0: no finite reading */
	double center[LEVELS_MAX];   /* each level's geometric mean, ascending */
	double lo[LEVELS_MAX], hi[LEVELS_MAX]; /* its lowest and highest reading */
	size_t count[LEVELS_MAX];    /* its readings */
};

/* The levels of x[0..n) (NAN, zero and negative readings left out;
 * infinite ones too, counted in the highest level). */
void levels_find(const double *x, size_t n, struct levels *out);
/* The level of reading x, 1..k; 0 where there are no levels or x is not a
 * reading (NAN, not positive). */
unsigned levels_of(const struct levels *l, double x);

#endif
