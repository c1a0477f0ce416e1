/* verify.h: proving a binary's output right before it is timed.
 *
 * verify_cell() runs the cell's program once with its run arguments,
 * stdout on a pipe, and streams that pipe into the family's checker
 * in-process (a pipe, not a file: vmsplice variants see a real pipe, and
 * nothing is stored).  References that never stop are run through
 * `flagbench meter --max-bytes B --sink stdout`, which cuts them at the
 * expected size.  The verdict becomes the cell status:
 *   checker mismatch -> wrong_output (the checker's message as reason)
 *   SIGILL            -> unsupported (code built for a CPU this host is not)
 *   other signal      -> crashed ("killed by SIGSEGV (signal 11): <first stderr line>")
 *   non-zero exit     -> failed ("exited with status 3: <first stderr line>"),
 *                        as is a program that cannot be started
 *   too slow          -> timeout
 * A cell is timed only when it passes.
 */
#ifndef FLAGBENCH_VERIFY_H
#define FLAGBENCH_VERIFY_H

#include "pipeline/plan.h"

/* Returns 0 and leaves the cell pending when the output is right; else
 * sets its status and reason. */
int verify_cell(struct cell *c, double timeout_s);

/* The argv to run a cell's program directly (binary or reference, with
 * its arguments); "{N}" in a reference's argv becomes the size. */
void cell_program_argv(const struct cell *c, struct strvec *out);

#endif
