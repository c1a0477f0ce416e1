/* model_gaps.h: the differences a family's configurations make.
 *
 * The answer (model_answer.h) names each variant's fastest build; a run's
 * finding is often elsewhere: gcc at 0.74x of clang on one variant, -O3
 * slower than -O2 on another.  For every two configurations of a family's
 * throughput table that differ in one part only (the compiler, the -O
 * level, the -march, a flag set, an allocator ...), each variant's B
 * against A goes through the one comparison (model_compare.h), so its
 * verdict is the tables' own and counts in the run's error rate.  Which
 * pairs, and which is A: analysis/gap_pairs.h, the rule the run's spare
 * runs follow too.
 *
 * They are grouped by the two values and the shared parts that vary
 * elsewhere in the family (the compiler, for "-O3 against -O2"): in a
 * group the real gaps (faster or slower) come first, largest first, then
 * the rest (the same, the same binary, not a real difference); the groups
 * with a real gap come first, largest first, then those where nothing
 * made a real difference.  One run only; not for emulated cells.
 */
#ifndef FLAGBENCH_MODEL_GAPS_H
#define FLAGBENCH_MODEL_GAPS_H

#include "report/model_cells.h"

/* One pair of configurations a gap compares: A and B (indices into the
 * configurations given), the values of the one part they differ in, and
 * the parts both share that vary elsewhere among them ("gcc"), or "". */
struct mgap_pair {
	size_t a, b;
	const char *va, *vb, *context;
};

/* The pairs of cfgs[0..n) ("gcc/-O2/native") that differ in one part
 * only, as analysis/gap_pairs.h chooses them, A first in the given order; in
 * *out (the model's memory), their number returned.  model_gaps asks them
 * of one run, model_across of every machine. */
size_t model_gap_pairs(struct model *m, const char *const *cfgs, size_t n, struct mgap_pair **out);

/* Fills fam->gaps from the family's throughput table t. */
void model_gaps(struct model *m, struct mfamily *fam, struct fsrc *f, const struct mtable *t);

#endif
