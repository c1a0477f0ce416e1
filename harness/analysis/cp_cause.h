/* cp_cause.h: what changed between the two nights on either side of a
 * change point (analysis/changepoint.h), from what the history recorded
 * (results/history.h).  Pure: two points and their runs in, words out.
 *
 *   the binary   its sha256 differs; why, as far as recorded: the compiler
 *                (the cell's compiler_version), the flags (cflags), the
 *                code (the content hash of the family's folder), the
 *                arguments (argv); else "nothing recorded says why"
 *   the system   the same binary, and a shared library it loads (path or
 *                sha256), the kernel, libc, the CPU microcode, the
 *                governor, turbo or the CPU model changed
 *   the machine  the same binary and nothing recorded changed (or the
 *                libraries were not listed on a side: said so)
 * Each change is one entry of what: "kernel 6.1.0-13 -> 6.1.0-17",
 * "library /lib/x86_64-linux-gnu/libc.so.6", "compiler gcc 12.2.0 -> gcc
 * 13.2.0", "flags -O2 -> -O3", "code of family fizzbuzz".
 */
#ifndef FLAGBENCH_CP_CAUSE_H
#define FLAGBENCH_CP_CAUSE_H

#include "core/util.h"
#include "results/history.h"

enum cp_cause_kind {
	CAUSE_BINARY,
	CAUSE_SYSTEM,
	CAUSE_MACHINE,
};

struct cp_cause {
	enum cp_cause_kind kind;
	struct strvec what;  /* the changes, as above */
	char *text;          /* one line: "the binary: compiler gcc 12 -> gcc 13" */
};

/* The cause between point a (the night before) and point b (the first
 * night of the new level) of one series in d. */
void cp_cause_of(const struct history_data *d, const struct hist_point *a, const struct hist_point *b,
		 struct cp_cause *out);
/* "binary", "system", "machine" */
const char *cp_cause_word(enum cp_cause_kind k);
void cp_cause_free(struct cp_cause *c);

#endif
