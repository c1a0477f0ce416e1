/* tune_space.h: the flags `flagbench tune` searches, read from the compiler.
 *
 * The space is asked of the compiler itself, with the start's cflags (its
 * -O level and -march), so it is that version's own list:
 *   gcc   every optimizer flag of `gcc -Q --help=optimizers` (on/off, or
 *         its choices where `gcc --help=optimizers` lists "=[a|b|c]"), and
 *         every --param of `gcc -Q --help=params` with a value: its
 *         default plus a few values within its documented range
 *         ("<min,max>"), or within 1/4..4x of the default where gcc
 *         documents none.
 *   clang has no listing of its -f flags: a fixed list of optimizer flags,
 *         each kept only where this clang accepts it under -Werror (an
 *         ignored optimization flag is a warning there), and -mllvm
 *         thresholds (unroll, inline, vector width ...) whose defaults
 *         `clang -mllvm -print-all-options` reports.
 * Dimensions that change results (-ffast-math and its parts, -fwrapv,
 * -ftrapv ...), change the ABI (-fshort-enums, -fpack-struct ...), only
 * instrument (-fstack-protector, -ftrivial-auto-var-init ...) or do
 * nothing for a C program's code (analyzer, lto, ggc params) are left
 * out, each with its reason in excluded; allow_unsafe keeps the first
 * kind (results-changing) in.
 *
 * A point of the space is one choice index per dimension; a dimension at
 * its start index adds no flag, so the start is the point with every
 * dimension at start, and a point's flags are the changes from it.
 *
 * Where the start has neither spelling of a flag (gcc lists no state for
 * -ffast-math or -fprefetch-loop-arrays, it decides them from others; a
 * clang -f flag whose both spellings change the cc1 line), the start's
 * choice is "" (the compiler's own) and both spellings are choices
 * besides it: "default|on|off".  Flags that make the compiler warn with
 * the start's cflags (gcc's -fdelayed-branch on x86, an ignored clang
 * flag) are left out, said in excluded; "with -Werror" below means that
 * test: an empty unit compiles with no diagnostic the start alone does
 * not give.
 *
 * The -O level is a dimension too, the first (tune_space_opt.h), and the
 * flags and params the levels set differently follow it ("" their start).
 *
 * The parts: tune_space_dims.h (the types, and what is left out and why),
 * tune_space_gcc.h and tune_space_clang.h (each compiler's reader),
 * tune_space_opt.h (the -O levels); this header includes them, so a caller
 * includes it alone.
 */
#ifndef FLAGBENCH_TUNE_SPACE_H
#define FLAGBENCH_TUNE_SPACE_H

#include <stddef.h>
#include <stdio.h>

#include "pipeline/tune_space_clang.h"
#include "pipeline/tune_space_dims.h"
#include "pipeline/tune_space_gcc.h"
#include "pipeline/tune_space_opt.h"
#include "core/util.h"
#include "pipeline/compilers.h"

/* Reads the space of compiler comp for a start built with start_cflags
 * (the -O level, -march and any flags of the start).  0, or -1 after an
 * error message when the compiler cannot be asked. */
int tune_space_read(const struct compiler *comp, char *const *start_cflags, int allow_unsafe, struct tune_space *out);

/* The flags of point val (one choice index per dimension), in dimension
 * order, as argv words appended to out. */
void tune_point_flags(const struct tune_space *s, const size_t *val, struct strvec *out);
/* The same flags joined by single spaces ("" for the start): the identity
 * of a configuration in the journal.  Free it. */
char *tune_point_key(const struct tune_space *s, const size_t *val);
/* The point of a key (the inverse of tune_point_key): 0, or -1 when a
 * word is not in the space (or two words set one dimension).  "-mllvm X"
 * is read as one choice. */
int tune_point_parse(const struct tune_space *s, const char *key, size_t *val);
/* How many dimensions differ from the start. */
size_t tune_point_changes(const struct tune_space *s, const size_t *val);

/* The space as `flagbench tune --list-space` prints it: one line per
 * dimension ("-fpeel-loops  on|off  start: off"), then the excluded ones
 * with their reasons. */
void tune_space_print(const struct tune_space *s, FILE *out);

#endif
