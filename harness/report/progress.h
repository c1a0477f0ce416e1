/* progress.h: a cell's figure on the run's progress line, as the tables print
 * it (model.h): "19.4 GiB/s ±1.2%"; ± only with 3 runs or more; a status word
 * when the cell is not ok. */
#ifndef FLAGBENCH_PROGRESS_H
#define FLAGBENCH_PROGRESS_H

#include "pipeline/plan.h"

void format_cell_value(const struct cell *c, const struct plan *p, char *buf, size_t n);

#endif
