/* allocators.h: the malloc implementations a suite can run variants under
 * ("allocators": ["glibc", "mimalloc", "jemalloc", "tcmalloc"]).
 *
 * Selection is at run time, by LD_PRELOAD of the distribution's shared
 * library, so every allocator runs the very same binary (one build, one
 * sha256) and only the environment differs.  GMP's default memory
 * functions call malloc, realloc and free, which the preloaded library
 * replaces; a variant needs no code for it.  Set LD_PRELOAD in the
 * variant's own environment only (not flagbench's or hyperfine's).
 * "glibc" is the C library's own malloc: nothing to preload.
 */
#ifndef FLAGBENCH_ALLOCATORS_H
#define FLAGBENCH_ALLOCATORS_H

#include <stddef.h>

struct allocator {
	const char *name;    /* as suites name it */
	const char *title;
	const char *package; /* the Debian package that ships the library */
	const char *libs[3]; /* file names to look for, preferred first; NULL-terminated */
};

extern const struct allocator allocators[];
extern const size_t nallocators;

const struct allocator *allocator_find(const char *name);

/* The library to LD_PRELOAD for allocator NAME: "" for glibc (run without
 * a preload), an absolute path, or NULL when it cannot run here, with the
 * reason in reason[n] (e.g. "mimalloc: libmimalloc.so.2 not found in
 * /usr/lib/x86_64-linux-gnu, ...: install libmimalloc2.0").  A NAME with a
 * '/' is a library path of its own and is returned if readable.  Libraries
 * are looked for in the colon-separated directories of
 * FLAGBENCH_ALLOCATOR_DIRS when it is set, else in the multiarch and usual
 * library directories.  The result stays valid until the next call for
 * the same name. */
const char *allocator_library(const char *name, char *reason, size_t n);

#endif
