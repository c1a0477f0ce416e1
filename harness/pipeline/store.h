/* store.h: the binaries a run measured, kept in its folder.
 *
 * After the build stage, run_keep_binaries() puts every built binary into
 * RUN/bin/<sha256> (a hard link into the build cache, or a copy across
 * file systems); results.json already names each cell's binary by its
 * sha256 ("binary": {"sha256", "bytes"}).  So a run can be measured again
 * on the same machine long after the cache has changed: `flagbench rerun`
 * and `flagbench compare --confirm` take them from there through
 * results/replay.h, which reads the records with results/reader.h.
 */
#ifndef FLAGBENCH_STORE_H
#define FLAGBENCH_STORE_H

#include <jansson.h>

#include "pipeline/plan.h"

/* A copy of from written beside to and renamed over it, mode 0755. */
int copy_executable(const char *from, const char *to);
/* DIR/bin/<sha256> (allocated). */
char *stored_binary_path(const char *run_dir, const char *sha256);
/* Hard-links from to to (a copy across file systems), executable (an
 * artifact or archive may have dropped the bit). */
int keep_binary(const char *from, const char *to);
/* Hook after the build stage: stores the plan's binaries in run_dir/bin.
 * Failures are warnings (the run goes on); returns the number stored. */
int run_keep_binaries(const struct plan *p, const char *run_dir);

/* The shared libraries the run's binaries load (build.libraries, the
 * loader among them), kept in RUN/lib/<sha256>: a hard link where the
 * file system allows it (a package upgrade replaces a library by a new
 * file, so the link keeps the old one), a copy else.  So a later run
 * whose same binary loads other libraries (a libc, allocator or libgmp
 * update) can measure it beside this run's libraries (compare --confirm,
 * results/replay.h).  Failures are warnings; returns the number kept. */
char *stored_library_path(const char *run_dir, const char *sha256);
/* A hard link to the file a path names, symbolic links followed (the
 * file's own mode: the system's library is left as it is), else a copy
 * written beside and renamed, readable and executable (the loader is
 * run). */
int keep_library(const char *from, const char *to);
int run_keep_libraries(const struct plan *p, const char *run_dir);

/* The folder of a family from outside the project's variants/ (its
 * sources, headers, family.json), kept in run_dir/families/NAME, so that
 * the commands that rebuild or re-check the run's cells (compare
 * --confirm, explain, tune) find what the run built from, whatever became
 * of the original: every file, names starting with '.' too, so the copy
 * gives the build cache the key the run's builds had (build_words.h) and
 * a rebuild from it is a cache hit; links are followed, a dangling one
 * is kept as a link.  A folder of more than STORE_FAMILY_MAX_BYTES or
 * STORE_FAMILY_MAX_FILES is not kept (a warning).  One walk reads each
 * file once for the copy and both hashes.  Returns {NAME: {"kept": "families/NAME", "files":
 * {"path": sha256}, "hash": H}} for results.json's families (a new
 * reference); every family, kept or not (variants/), gets "hash": the
 * sha256 over its folder's files' paths and sha256s in path order, what
 * the history (results/history.h) tells a change of its code by. */
#define STORE_FAMILY_MAX_BYTES (16u << 20)
#define STORE_FAMILY_MAX_FILES 2000
json_t *run_keep_families(const struct plan *p, const char *run_dir);

#endif
