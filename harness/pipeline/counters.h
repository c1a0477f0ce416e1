/* counters.h: cycles or instructions per unit of work (compute families).
 *
 * Time alone hides why a build is faster; seed 001 counted cycles.  Where
 * the kernel gives hardware counters (perf_event_open of CPU cycles and
 * instructions), one run of the program at its measured size is counted,
 * child and descendants, from exec to exit: cycles and instructions per
 * unit (byte, op).  Where it does not (VMs without a virtual PMU, like the
 * CI machines), the fallback is deterministic: valgrind's callgrind counts
 * the instructions executed at a small size n and at 0, and
 * (Ir(n) - Ir(0)) / n removes start-up.  valgrind cannot run every
 * instruction set (AVX-512 in 3.19): such cells record the reason.
 * Both run the program through core/runcmd (its own process group, the
 * timeout, LD_PRELOAD through the child's environment, pinned to the
 * cell's single CPU for perf); perf's child is held before exec
 * (struct child .hold) until the counters are attached to its pid.
 * Emulated (cross) cells are counted by qemucount.h, whatever the host
 * offers: instructions of the target, traced by qemu ("source": "qemu").
 * The result goes into the cell's "counters" object:
 *   {"source": "perf"|"callgrind"|"qemu", "size": n, "cycles_per_unit",
 *    "instructions_per_unit", "unit"} or {"skipped": "why"}.
 */
#ifndef FLAGBENCH_COUNTERS_H
#define FLAGBENCH_COUNTERS_H

#include <jansson.h>

#include "pipeline/plan.h"

/* A backend each (counters.c); qemu only for emulated cells, never probed. */
enum counter_source { COUNTERS_PERF, COUNTERS_CALLGRIND, COUNTERS_NONE, COUNTERS_QEMU };

/* "perf counters", "instructions under callgrind", ...: for messages. */
const char *counter_source_name(enum counter_source src);

/* Which source this machine offers (probed once), with a reason if none. */
enum counter_source counters_probe(char *why, size_t n);

/* Counts the cell's program; returns the "counters" object (never NULL). */
json_t *counters_measure(const struct cell *c, enum counter_source src, double timeout_s);

/* Parses "==123== Collected : 456789" from callgrind's stderr; -1 if absent. */
long long callgrind_collected(const char *text);

#endif
