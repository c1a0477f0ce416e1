/* store.h: the binaries a run measured, kept in its folder.
 *
 * After the build stage, run_keep_binaries() puts every built binary into
 * RUN/bin/<sha256> (a hard link into the build cache, or a copy across
 * file systems); results.json already names each cell's binary by its
 * sha256 ("binary": {"sha256", "bytes"}).  So a run can be measured again
 * on the same machine long after the cache has changed: `flagbench rerun`
 * (--binaries-from DIR: run_use_stored_binaries() replaces the build
 * stage, each cell takes DIR/bin/<sha256> of the cell with its id, checked
 * against the sha256; a cell without one is skipped with the reason) and
 * `flagbench compare --confirm` (one cell rebuilt from its results.json
 * record: replay_cell_init).
 */
#ifndef FLAGBENCH_STORE_H
#define FLAGBENCH_STORE_H

#include <jansson.h>

#include "pipeline/plan.h"

/* DIR/bin/<sha256> (allocated). */
char *stored_binary_path(const char *run_dir, const char *sha256);
/* Hard-links from to to (a copy across file systems), executable (an
 * artifact or archive may have dropped the bit). */
int keep_binary(const char *from, const char *to);
/* Hook after the build stage: stores the plan's binaries in run_dir/bin.
 * Failures are warnings (the run goes on); returns the number stored. */
int run_keep_binaries(const struct plan *p, const char *run_dir);
/* Hook instead of the build stage (--binaries-from DIR): run is DIR's
 * results.json as results/reader.h loaded it; NULL (it could not be read)
 * skips every cell needing a binary with that reason and returns -1. */
int run_use_stored_binaries(struct plan *p, const char *from_dir, const json_t *run);

/* A cell made measurable again from its results.json record: family,
 * variant or reference, arguments, pins, consumer, allocator, and the
 * stored binary of run_dir.  Returns -1 with the reason in why when it
 * cannot be measured here (emulated, a reference gone, no stored binary). */
int replay_cell_init(struct cell *c, const json_t *record, const char *run_dir, struct family *fams,
		     size_t nfams, char *why, size_t n);
void replay_cell_free(struct cell *c);

#endif
