/* join.h: the N shards of one plan (run --shard K/N) as one run.
 *
 * results_join() takes the shards' runs (results/reader.h), in any order,
 * and gives one document that every reader takes as one run:
 *   cells      every cell of the plan once, each with "shard" (its K) and
 *              its own shard's times; time_s.pass is renumbered
 *              pass * N + K - 1, so that rounds pair only within a shard
 *              (analysis/comparison.h pairs by pass and round), never
 *              across machines.
 *   baseline   a family's baseline variant measured in several shards
 *              (pipeline/shard.h) keeps, in "cells", the copy of the lowest
 *              shard that holds it; every other shard's copy goes to
 *              run.shards[i].copies, with its "shard": the speedup table
 *              compares each variant with the copy of its own shard
 *              (reader.h results_cell_beside).
 *   run        the first shard's, with: started the earliest, finished the
 *              latest (null while any is not finished), interrupted when
 *              any was, warnings of all ("shard K/N: ..."), phases summed,
 *              the widest drift and steal; run.joined {of, plan_sha256,
 *              plan_cells}; run.shards[] per shard: index, id, dir,
 *              started, finished, host, phases, drift, steal, warnings,
 *              cells, copies.  host, tools and profile: the first shard's.
 * It refuses (NULL, after a message; the caller exits 2): a document that
 * is no shard, shards of another plan (plan_sha256 or N differ), a shard
 * given twice, a missing shard (each named), shards of different CPU
 * models (a comparison across machines is `flagbench tables A B`), and
 * shards whose cells are not the plan's (a cell twice, one lost).
 */
#ifndef FLAGBENCH_JOIN_H
#define FLAGBENCH_JOIN_H

#include <jansson.h>
#include <stddef.h>

#include "results/reader.h"

/* runs[i] read from names[i] (for messages and run.shards[].dir); the
 * runs are borrowed.  The joined document (a new record, for the caller
 * to complete and write), or NULL after a message. */
json_t *results_join(const struct results_run *runs, const char *const *names, size_t n);

#endif
