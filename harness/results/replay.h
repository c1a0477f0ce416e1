/* replay.h: cells of a finished run measured again with the binaries it
 * kept (pipeline/store.h: RUN/bin/<sha256>), their records read through
 * results/reader.h.
 *
 * `flagbench rerun` (--binaries-from DIR): run_use_stored_binaries()
 * replaces the build stage, each cell takes DIR/bin/<sha256> of the cell
 * with its id, checked against the sha256; a cell without one is skipped
 * with the reason.  `flagbench compare --confirm`: replay_cell_init()
 * makes one cell measurable again from its results.json record alone.
 */
#ifndef FLAGBENCH_REPLAY_H
#define FLAGBENCH_REPLAY_H

#include "pipeline/plan.h"
#include "results/reader.h"

/* Hook instead of the build stage (--binaries-from DIR): run is DIR's
 * run as results_open() read it; NULL (it could not be read) skips every
 * cell needing a binary with that reason and returns -1. */
int run_use_stored_binaries(struct plan *p, const char *from_dir, const struct results_run *run);

/* A cell made measurable again from its record (rec, of the run in
 * run_dir; NULL: none): family, variant or reference, arguments, pins,
 * consumer, allocator, and the stored binary of run_dir.  Returns -1 with
 * the reason in why when it cannot be measured here (emulated, a
 * reference gone, no stored binary, no record). */
int replay_cell_init(struct cell *c, const struct results_cell *rec, const char *run_dir, struct family *fams,
		     size_t nfams, char *why, size_t n);
void replay_cell_free(struct cell *c);

/* The same binary on the libraries its run loaded (a library step of the
 * nightly, measured side by side): after replay_cell_init(), folder gets a
 * link per library the record lists (binary.libraries), named as it was
 * loaded, to the run's kept copy (pipeline/store.h RUN/lib/<sha256>, its
 * sha256 checked), and the cell runs through the kept loader:
 * `LOADER --library-path FOLDER BINARY ARGS` (plan.h cell_spec.loader),
 * its allocator preloaded from the kept copy too.  Searched before the
 * system's and the binary's RUNPATH, the kept copies are what it loads;
 * the loader's own listing checks it (a DT_RPATH is searched before them:
 * such a binary is refused, as it would run on today's library on both
 * sides).  Returns -1 with the reason in why when the run did not keep
 * them, or they would not be what it loads. */
int replay_cell_libraries(struct cell *c, const struct results_cell *rec, const char *run_dir, const char *folder,
			  char *why, size_t n);

#endif
