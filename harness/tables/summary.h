/* summary.h: the table a run prints at its end (stdout).
 *
 * Per family: variants (and references) down, build configurations
 * across; each cell shows throughput (MiB/s, GiB/s) or rate, its +- (half
 * the 95 % interval, in percent) and the speedup against the baseline
 * built the same way.  Cells that are not ok show their status word.
 */
#ifndef FLAGBENCH_SUMMARY_H
#define FLAGBENCH_SUMMARY_H

#include <stdio.h>

#include "plan.h"

void print_summary(FILE *out, const struct plan *p);
/* "19.4 GiB/s ±1.2%" or "3.1 Mops/s"; a status word when not ok. */
void format_cell_value(const struct cell *c, const struct plan *p, char *buf, size_t n);

#endif
