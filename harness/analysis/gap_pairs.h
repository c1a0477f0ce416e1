/* gap_pairs.h: which two configurations of a family a gap compares.
 *
 * A configuration is its parts joined by '/' ("gcc/-O2/native", with an
 * allocator or a flag set as further parts).  A gap compares two that
 * differ in one part only: every two values of that part where it takes
 * at most GAP_ALL_PAIRS values, else each value against the part's first.
 * A is the value that comes first in the given order (the suite's: -O2
 * before -O3, gcc before clang).  The one rule for the gaps the tables
 * print (report/model_gaps.h) and the gaps a run gives spare runs to while
 * it runs (analysis/undecided.h), so the runs go to the gaps the user
 * reads.
 */
#ifndef FLAGBENCH_GAP_PAIRS_H
#define FLAGBENCH_GAP_PAIRS_H

#include <stddef.h>

#define GAP_ALL_PAIRS 4
/* parts past this many are one part with the rest */
#define GAP_PARTS_MAX 12

struct gap_pair {
	size_t a, b;  /* indices into the configurations given, A first */
	size_t part;  /* the part they differ in */
};

/* The pairs of cfgs[0..n), in *out (malloc'd; free it), their number
 * returned; values[d] (may be NULL) the number of distinct values part d
 * takes among them, 0 past the longest configuration. */
size_t gap_pairs(const char *const *cfgs, size_t n, struct gap_pair **out, size_t values[GAP_PARTS_MAX]);

/* Part d of cfg: its start in *len bytes; NULL when cfg has fewer parts. */
const char *gap_part(const char *cfg, size_t d, size_t *len);

#endif
