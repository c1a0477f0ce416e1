/* shard.h: one plan split over N machines, every comparison inside one.
 *
 * `flagbench run --shard K/N` runs shard K (1-based) of N.  The units of
 * the split are the plan's blocks: one variant's cells (every
 * configuration, flag set, allocator and layout of it), or one
 * reference's.  A variant's answer compares its builds, so they are
 * timed on one machine, in one run's rounds.  A family's baseline variant
 * (family.json "baseline") is no unit of its own: its block goes to every
 * shard that holds another block of its family, since the speedup table
 * compares a variant with it in one configuration on one machine (a
 * family of its baseline alone is one unit).
 *
 * The units go largest first (ties: plan order) to the shard whose load
 * grows least: its load, the unit's cost, and the baseline's cost where
 * the shard does not hold the family yet (ties: the lowest shard).  A
 * cell's cost is the caller's (the driver's: the eta's expected seconds,
 * driver/eta.h eta_cell_planned).  The split reads only the plan and the
 * costs, so every machine computes the same split of the same plan;
 * plan_hash() says whether two shards come from one plan.
 */
#ifndef FLAGBENCH_SHARD_H
#define FLAGBENCH_SHARD_H

#include "pipeline/plan.h"

#define SHARD_MAX 4096

struct shard {
	unsigned index, of; /* K of N, 1 <= K <= N; of 0: not sharded */
};

/* "K/N" with 1 <= K <= N <= SHARD_MAX.  0, or -1 with why. */
int shard_parse(const char *text, struct shard *out, char *why, size_t n);

/* keep[i] = 1 for the cells of plan p in shard s, else 0; cost[i] >= 0
 * per cell. */
void shard_select(const struct plan *p, const double *cost, struct shard s, unsigned char *keep);
/* Keeps only shard s's cells in p (shard_select, then plan_keep); returns
 * each kept cell's place in the whole plan (the caller frees it). */
size_t *shard_apply(struct plan *p, const double *cost, struct shard s);

/* Whether cell c is its family's baseline variant (copied to every
 * shard that holds the family). */
int shard_cell_is_baseline(const struct cell *c);

/* The plan's identity: sha256 hex of context (suite, profile, statistic:
 * the caller's) and, per cell in plan order, its id, flags, arguments and
 * status.  Two machines that plan alike give the same hash. */
void plan_hash(const struct plan *p, const char *context, char out[65]);

#endif
