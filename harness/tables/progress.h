/* progress.h: the figure of one cell on the run's progress line, in the
 * tables' own formats (model.h): "19.4 GiB/s ±1.2%", "0.155 usec/op". */
#ifndef FLAGBENCH_PROGRESS_H
#define FLAGBENCH_PROGRESS_H

#include <stddef.h>

#include "plan.h"

/* A status word when the cell is not ok; ± only with 3 runs or more. */
void format_cell_value(const struct cell *c, const struct plan *p, char *buf, size_t n);

#endif
