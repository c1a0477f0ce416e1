/* qemucount.h: instructions of an emulated program (cross cells), counted
 * by qemu-user.
 *
 * The time of a program under qemu says how fast qemu translates it, not
 * how fast a RISC-V core runs it (qemu emulates vector instructions one
 * element at a time), so emulated cells are compared by the instructions
 * they execute instead.  qemu-user counts them exactly: with one
 * instruction per translation block (-singlestep, -one-insn-per-tb from
 * qemu 8.1 on) and no block chaining (-d nochain), `-d exec` logs one line
 * "Trace N: HOST [...]" each time a block, hence an instruction, runs.  The
 * log goes to the emulator's stderr, a pipe whose lines are counted as they
 * arrive and never kept (tens of millions of lines at a few MB each second).
 * The guest's stdout goes to /dev/null and its stderr shares the log pipe;
 * the family's programs write nothing there.
 *
 * As callgrind does for native cells (counters.h), the program runs at a
 * small size n and at m = n/4, and (count(n) - count(m)) / (n - m) removes start-up
 * (dynamic loader, libc, setup).  n is the family's counter_size, at most
 * the cell's size and at most QEMUCOUNT_MAX_SIZE (the trace costs ~1 s per
 * million instructions).  The result is the cell's "counters" object with
 * the fields callgrind fills:
 *   {"source": "qemu", "size": n, "unit", "instructions_per_unit",
 *    "cycles_per_unit": null} or {"skipped": "why"}.
 */
#ifndef FLAGBENCH_QEMUCOUNT_H
#define FLAGBENCH_QEMUCOUNT_H

#include <jansson.h>
#include <stddef.h>

#include "pipeline/plan.h"

#define QEMUCOUNT_MAX_SIZE 16384

/* Counts lines that begin with "Trace " in a stream fed in pieces. */
struct trace_counter {
	unsigned long long lines;
	int matched; /* characters of "Trace " matched at the start of this line; -1: not a trace line */
};
#define TRACE_COUNTER_INIT { 0, 0 }
void trace_counter_feed(struct trace_counter *t, const char *buf, size_t n);

/* The emulator's flags that make it trace every instruction, for the
 * emulator named by path (its --help tells which spelling it has). */
const char *qemucount_singlestep_flag(const char *emulator);

/* Runs emu_prefix (emulator and its options) + prog_argv under the trace
 * and returns the number of executed guest instructions, or -1 with *why
 * (the run failed, timed out or is not a qemu). */
long long qemucount_run(char *const *emu_prefix, char *const *prog_argv, double timeout_s, char *why, size_t n);

/* The cell's "counters" object (never NULL); unit: "byte", "op", ... */
json_t *qemucount_measure(const struct cell *c, const char *unit, double timeout_s);

#endif
