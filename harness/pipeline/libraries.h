/* libraries.h: the shared libraries a binary loads, as the dynamic loader
 * itself lists them.
 *
 * A kernel, libc, allocator or other library update changes the speed of a
 * binary that did not change; the nightly history (results/history.h)
 * names such a change only if each run recorded what its binaries loaded.
 * libraries_of() reads the binary's ELF program headers for its
 * interpreter (PT_INTERP) and runs that loader with `--list BINARY`
 * through core/runcmd (never the program itself: a static binary has no
 * interpreter and lists nothing, where LD_TRACE_LOADED_OBJECTS would run
 * it).  Each listed library with a path gets its sha256; the loader
 * itself is listed too, and a library the cell preloads (its allocator).
 * A binary for another machine (a cross build), or one whose loader is
 * not here, is not listed.
 */
#ifndef FLAGBENCH_LIBRARIES_H
#define FLAGBENCH_LIBRARIES_H

#include <jansson.h>

#include "pipeline/plan.h"

/* [{"path", "sha256"}...] sorted by path ([] for a static binary), or
 * NULL when it cannot be listed (not ELF, another machine's, no loader). */
json_t *libraries_of(const char *binary, const char *preload);
/* The loader a binary names (its PT_INTERP, allocated), or NULL: a
 * static binary, not a 64-bit ELF file. */
char *libraries_interp(const char *binary);
/* Sets build.libraries of every cell with a binary of its own built here,
 * each distinct binary and preload listed once. */
void libraries_record(struct plan *p);

#endif
