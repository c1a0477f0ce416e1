/* baseline.h: stored baselines, one per cpu profile and name.
 *
 * Saving a run (`flagbench baseline save`, cmd/baseline.h) copies its
 * results.json and the binaries it measured (RUN/bin, pipeline/store.h) into
 * D/<cpu profile>/<NAME>/ (D: the project's baselines/, NAME: latest).
 * The new baseline is assembled in a temporary folder beside and renamed
 * into place, so a reader sees the old baseline or the new one, whole.
 * `flagbench compare --baseline NAME NEW` reads D/<NEW's profile>/<NAME>:
 * each machine is compared with its own past, and --confirm can measure
 * the baseline's binaries again beside the new ones.
 * An interrupted run is refused (exit 2): its cells are incomplete.
 */
#ifndef FLAGBENCH_BASELINE_H
#define FLAGBENCH_BASELINE_H

#include <jansson.h>
#include <stddef.h>

#include "results/reader.h"

/* The folder of baseline NAME of a profile (allocated); dir NULL means
 * the project's baselines/. */
char *baseline_path(const char *dir, const char *name, const char *profile);

/* Stores the run at run_path (a run folder or its results.json) as
 * baseline name (NULL: latest) of its cpu profile in dir (NULL: the
 * project's baselines/) and says so on stdout.  Returns the exit code: 0,
 * or 2 after an error message. */
int baseline_save(const char *run_path, const char *dir, const char *name);

/* Each distinct binary the cells of run name, from its folder's bin/ into
 * dest/bin (pipeline/store.h), with the libraries its lib/ kept for them
 * into dest/lib, so --confirm can measure them again from dest (a
 * baseline, a joined run); one already in dest stays.  Returns how many
 * were copied; a missing one is only warned of. */
size_t kept_binaries_copy(const struct results_run *run, const char *dest);

#endif
