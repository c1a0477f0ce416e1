/* build_words.h: what a cell's compile is made of, and its cache key.
 *
 * The words a variant's compile gets after the flags (-I, -D, the
 * layout's padding source, the variant's sources, -l), the argv of a
 * family's own build command, and build_cache_key() over all of it (build.h
 * says what the key covers).  Shared by the parallel compiles (build.c)
 * and the two phases of a profiled build (pgo.c).
 */
#ifndef FLAGBENCH_BUILD_WORDS_H
#define FLAGBENCH_BUILD_WORDS_H

#include "pipeline/plan.h"

/* The layout's padding (plan.h: code_pad bytes) as a source file written
 * into dir, or NULL when the cell has none. */
char *layout_pad_source(const struct cell *c, const char *dir);
/* Pushes the words after the flags; pad_source: the padding file first, or NULL. */
void variant_build_words(const struct cell *c, const char *pad_source, struct strvec *argv);

/* The argv of step `step` of a family's own build (family.h build_steps)
 * in the private copy src: {cc} {cxx} {cflags} {cxxflags} {ldflags}
 * {variant} {src} replaced. */
void build_step_argv(const struct cell *c, size_t step, const char *src, struct strvec *argv);
/* Cache key (64 hex digits) of a cell; returns -1 if the source is unreadable. */
int build_cache_key(const struct cell *c, char key[65]);

/* The first lines of a compiler's message, joined by " | ", into out. */
void build_first_lines(const char *text, int lines, char *out, size_t n);

#endif
