/* counter_args.h: a cell's program at another size, for the counters.
 *
 * Counting backends (counters.c: callgrind; qemucount.c) run the program at
 * sizes other than the measured one so that start-up cancels; this is how
 * its argv is made and why a program cannot be run so.
 */
#ifndef FLAGBENCH_COUNTER_ARGS_H
#define FLAGBENCH_COUNTER_ARGS_H

#include <stdint.h>

#include "pipeline/plan.h"

/* The cell's argv with its size replaced by n (argv[1], or "{N}" in a
 * family's args template); shared by callgrind and the qemu counter. */
void counters_argv_at(const struct cell *c, uint64_t n, struct strvec *out);
/* Why this cell's program cannot run at another size, or NULL. */
const char *counters_fixed_size(const struct cell *c);
/* "byte", "op", "line": the family's unit as counters name it. */
const char *counters_unit_singular(const struct cell *c);

#endif
