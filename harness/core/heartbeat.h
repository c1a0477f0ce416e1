/* heartbeat.h: a line at least every HEARTBEAT_S seconds while one long
 * step runs.
 *
 * Some steps are one child that runs for minutes (a program counted under
 * callgrind, the verification run of a slow program): the stage that
 * started it waits on it and prints nothing till it ends, and a log that
 * is silent that long looks hung.  A stage names what it is doing
 * (heartbeat_begin) and a thread of this module prints that, with how long
 * it has run, whenever HEARTBEAT_S seconds pass without a line; any line
 * the stages print themselves (heartbeat_spoke) starts the silence again.
 * Steps nest (a count within the timing): the innermost is said.
 * The thread starts with the first heartbeat_begin and takes a lock only
 * around its own state, never around a child's start.
 */
#ifndef FLAGBENCH_HEARTBEAT_H
#define FLAGBENCH_HEARTBEAT_H

#include <stdio.h>

#define HEARTBEAT_S 9.0

/* What runs from now, printf-style ("counting X under callgrind"); the
 * lines go to out (NULL: heartbeat_to's, else stderr). */
void heartbeat_begin(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The step begun last ends; the one it ran within (if any) is said again. */
void heartbeat_end(void);
/* A stage printed a line of its own. */
void heartbeat_spoke(void);
/* Where the lines go (stderr by default; NULL: nowhere). */
void heartbeat_to(FILE *out);
/* The silence that brings a line (HEARTBEAT_S; the unit tests' shorter). */
void heartbeat_every(double seconds);

#endif
