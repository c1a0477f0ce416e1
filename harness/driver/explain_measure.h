/* explain_measure: how explain measures its cells and reads a share of
 * the gap, over one struct explain (driver/explain_state.h).  Counts are
 * exact per distinct binary; times come from the scheduler in rounds, so
 * every comparison of two cells is paired over the rounds they shared;
 * every figure goes through the one comparison (analysis/comparison.h). */
#ifndef FLAGBENCH_EXPLAIN_MEASURE_H
#define FLAGBENCH_EXPLAIN_MEASURE_H

#include <stddef.h>

#include "driver/explain_state.h"

/* The cell whose figure stands for cell i (itself, or its identical twin);
 * -1 for -1. */
int explain_rep(const struct explain *e, int i);
/* Whether plan cell i is pending and a distinct binary (not a twin). */
int explain_measurable(const struct explain *e, size_t i);
/* Instructions per unit of distinct, verified binary i, as the session
 * counted it (session_ready): the cell ok with its figure, or unsupported
 * with the reason it could not be counted. */
void explain_take_count(struct explain *e, size_t i);
/* explain_take_count of every measurable cell in [from, n), until an
 * interrupt. */
void explain_take_counts(struct explain *e, size_t from);
/* Times the listed cells through the scheduler, in rounds in the list's
 * order, so drift spreads over all of them and each run has the round it
 * pairs by; a second schedule's rounds follow the first's. */
void explain_time_cells(struct explain *e, const int *list, size_t n, const char *work, const char *hyperfine);
/* B / A of two plan cells' figures by the comparison: times paired over
 * the rounds they shared, counts as points.  0, or -1 (no comparison). */
int explain_compare_cells(const struct explain *e, int a, int b, struct comparison_result *out);
/* ln(m(x) / m(y)) / gap with its interval, from the comparison of x to
 * y; *v NAN when they cannot be compared; verdict may be NULL. */
void explain_share(const struct explain *e, int x, int y, double *v, double *lo, double *hi,
		   enum comparison_verdict *verdict);
/* e->gap = ln(m(A) / m(B)), from the comparison of B to A; NAN without. */
void explain_measure_gap(struct explain *e);
/* A share whose interval spans more than the whole gap says nothing:
 * it is printed as "too noisy", never as a share. */
int explain_share_meaningless(double lo, double hi);
/* Whether a group's share v carries the gap: 5 % of it or more, and for
 * time (timed nonzero) a move the comparison calls real (B without the
 * flags slower than B, or for a gap the other way faster).  A real move
 * whose share is too noisy to size still carries: [45 %, 178 %] says the
 * group holds at least half of the gap, not that it holds none. */
int explain_share_carries(int timed, double gap, double v, enum comparison_verdict verdict);

#endif
