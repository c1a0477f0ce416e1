/* ddmin.h: delta debugging (Zeller's ddmin over complements), the
 * smallest subset of flags that still carries a gain.
 *
 * tune minimises its best point's flags with it, explain the flags that
 * carry a gap together.  keeps() says of each of n subsets whether it
 * still holds the gain (KEEP_SHARE of it, in log space): several subsets
 * come in one call so the caller can build and measure them together.
 * Pure: the callback builds and measures; an interrupt (Ctrl-C) stops
 * the search where it is.
 */
#ifndef FLAGBENCH_DDMIN_H
#define FLAGBENCH_DDMIN_H

#include <stddef.h>

#include "core/util.h"

/* the share of a gain a subset must keep to stand for the whole */
#define TUNE_KEEP 0.95

typedef void (*tune_keeps_fn)(void *ctx, const struct strvec *subsets, size_t n, int *ok);
/* The 1-minimal subset of flags into out; *steps the calls of keeps. */
void tune_ddmin(const struct strvec *flags, tune_keeps_fn keeps, void *ctx, struct strvec *out, size_t *steps);

#endif
