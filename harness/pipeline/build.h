/* build.h: compiling cells, in parallel, into a content-addressed cache.
 *
 * The cache key of a cell is the SHA-256 of the compiler's identity (its
 * resolved path and whole --version text), the full flag list, the libs,
 * and the source's own hash: a second identical run compiles nothing, and
 * an edited variant or an upgraded compiler misses the cache.  Binaries
 * live in CACHE/<key>/prog, written to a temporary name and renamed, so a
 * killed build never leaves a half-written entry.  Up to `jobs` compilers
 * run at once, each with a timeout in its own process group, the largest
 * source first; the build says how it goes (build_progress.h).
 *
 * Cells that share a key are compiled once.  A failed compile is a
 * "build_failed" cell whose reason quotes the compiler's first error lines
 * (a flag the compiler rejects included).  Each built cell gets the size of
 * its binary's .text section.
 *
 * PGO cells (plan.h) are built in two phases, one cell at a time, in the
 * cache entry's pgo/ folder: compile with -fprofile-generate (gcc) or
 * -fprofile-instr-generate (clang), run the program once at the cell's
 * train_size (output drained, never checked or timed as the cell), merge
 * the raw profile with llvm-profdata of the clang's version, compile again
 * with -fprofile-use / -fprofile-instr-use.  The training run's seconds are
 * kept in the entry (train_s) so a cached build still reports them.  Any
 * failing phase makes the cell build_failed, naming the phase.
 */
#ifndef FLAGBENCH_BUILD_H
#define FLAGBENCH_BUILD_H

#include <stdio.h>

#include "pipeline/build_words.h"
#include "pipeline/plan.h"

struct build_stats {
	unsigned compiled, cached, failed;
};

/* What a build is asked: where its cache is, how many compilers at once,
 * the limit of one compile, where its progress lines go (build_progress.h;
 * NULL: silent), and for the mock executor only the seconds each pretend
 * compile takes on its pretend clock (0: none). */
struct build_request {
	const char *cache_dir;
	unsigned jobs;
	double timeout_s;
	FILE *progress;
	double pretend_s;
};

/* Size of the .text section of an ELF file; -1 when it is not one. */
int elf_text_bytes(const char *path, uint64_t *out);
/* Builds every pending cell of the plan, up to rq->jobs compiles at once,
 * the largest source first.  The cache folder is created if needed. */
int build_plan(struct plan *p, const struct build_request *rq, struct build_stats *st);

#endif
