/* tune_space_opt.h: the -O level as a dimension of the tune space.
 *
 * An -O level is a bundle of flags and --param values, and the next level
 * is often worth more than any flag searched from the start's (gcc -O2 to
 * -O3 on chacha20/multiblock: 1.43x, where 900 single-flag candidates
 * screened from -O2 found nothing real).  So, as OpenTuner's gccflags, the
 * level is a dimension of its own, first in the space: its choices are
 * -O3, -O2, -Os and -O1 (with the start's own level where it is another,
 * and -Ofast only where allow_unsafe keeps the results-changing flags),
 * in the order a search for speed tries them.  A point's -O word takes
 * the start's place on the command line (tune_key_split_opt).
 *
 * Flags the levels set differently would hide the level: a flag dimension
 * whose choices are the start's "-fno-X" (no word: off at -O2) and "-fX"
 * cannot turn X off at -O3.  Each dimension that some level sets
 * otherwise than the start's (gcc's own `-Q --help=optimizers` and `-Q
 * --help=params` at each level say which) therefore gets "" as its start,
 * "as the -O level says", with every explicit setting a choice, and
 * level_choice (tune_space_dims.h) names the choice that spells each
 * level's own setting: the search's seeds (tune_search.h) are those.  clang
 * lists no states, so its levels tie no flag.
 */
#ifndef FLAGBENCH_TUNE_SPACE_OPT_H
#define FLAGBENCH_TUNE_SPACE_OPT_H

#include <stddef.h>

#include "pipeline/tune_space_dims.h"

/* The -O dimension's index in s, or (size_t)-1 when it has none. */
size_t tune_space_opt_dim(const struct tune_space *s);

/* The start's -O word in cflags (the last "-O..." word), or NULL. */
const char *tune_cflags_opt(char *const *cflags);

/* The levels searched from start_opt, in the order tried, into levels
 * (at most TUNE_OPT_LEVELS_MAX, borrowed strings: start_opt itself or
 * literals): how many; *start, the start's index.  -Ofast is left out
 * (noted in s->excluded) unless allow_unsafe. */
#define TUNE_OPT_LEVELS_MAX 8
size_t tune_opt_levels(const char *start_opt, int allow_unsafe, struct tune_space *s, const char **levels,
		       size_t *start);

/* Adds the -O dimension to s, first, with choices levels[0..n) and the
 * start at index start, and ties the dimensions the levels set otherwise:
 * at_level[i] is the space read at levels[i] (its dims' starts are that
 * level's settings; an empty space where it was not read, and
 * at_level[start] is not read). */
void tune_space_add_levels(struct tune_space *s, const char *const *levels, size_t n, size_t start,
			   const struct tune_space *at_level);

/* A key's -O level and the rest: *opt gets the -O word ("-O3"), or NULL
 * where the key has none; returns the other words, joined by spaces
 * (free it). */
char *tune_key_split_opt(const char *key, char **opt);

#endif
