/* flags.h: the compiler flags in which two builds of one source differ.
 *
 * Asks the compiler itself, with each build's cflags (queries, no build):
 *   optimizers: `gcc -Q --help=optimizers` lists the state of every
 *     optimizer flag (-fpeel-loops [enabled], -fvect-cost-model=dynamic)
 *     and `gcc -Q --help=params` every --param's value (the -O levels set
 *     some: inline limits at -O3); the entries whose state or value
 *     differs are the changes.  clang has no such
 *     listing (its -O levels choose pass pipelines that no flag names).
 *   isa: `-dM -E` predefines a macro per ISA extension (__AVX2__, __FMA__);
 *     an extension on one side only is a change, as -m<ext> / -mno-<ext>,
 *     when the compiler accepts both spellings (gcc and clang).
 * Each change says how to move B one flag toward A (toward_a) and A one
 * flag toward B (toward_b); explain.h builds and measures both.
 */
#ifndef FLAGBENCH_FLAGS_H
#define FLAGBENCH_FLAGS_H

#include "core/util.h"
#include "pipeline/plan.h"

/* One flag in which B differs from A. */
struct flag_change {
	char *name;     /* as B has it: -mavx2, -fvect-cost-model=dynamic, -fno-x */
	char *toward_a; /* appended to B's flags: B without it */
	char *toward_b; /* appended to A's flags: A with it */
};

/* The caller owns v and its strings (explain.c moves them into its
 * candidates). */
struct flag_changes {
	struct flag_change *v;
	size_t n;
};

/* The optimizer flags whose state differs between cflags a (A's) and b
 * (B's), into changes in B's listing order; what the candidates are is
 * said in notes.  -1 after an error message when the compiler cannot be
 * asked. */
int flags_optimizer_changes(const struct compiler *comp, const struct strvec *a, const struct strvec *b,
			    struct flag_changes *changes, struct strvec *notes);
/* The ISA extensions on one side only (B's first, then A's), into
 * changes; those the compiler has no flag for are said in notes.  -1 as
 * above. */
int flags_isa_changes(const struct compiler *comp, const struct strvec *a, const struct strvec *b,
		      struct flag_changes *changes, struct strvec *notes);

/* Parses `gcc -Q --help=optimizers` output into "name\tvalue" lines
 * ("-fpeel-loops\t[enabled]", "-fvect-cost-model\tdynamic"). */
void explain_parse_optimizers(const char *text, struct strvec *out);
/* Whether kv's line i (explain_parse_optimizers) is the first of its name:
 * gcc lists some options twice, their state and their value
 * ("-falign-functions\t[enabled]", "-falign-functions\t16"), and explain
 * moves each option once, by its state. */
int explain_first_of_name(const struct strvec *kv, size_t i);
/* One line of `gcc -Q --help=params`
 * ("  --param=align-threshold=<1,65536> \t\t100"): its name, whether gcc
 * documents a range (*ranged, then *lo and *hi), and its value as printed
 * ("" when none).  0 with *name and *value allocated, or -1 when the line
 * is not a --param. */
int gcc_param_line(const char *line, char **name, int *ranged, long long *lo, long long *hi, char **value);
/* Parses `gcc -Q --help=params` output into "name\tvalue" lines
 * ("max-inline-insns-auto\t30"), integer values only. */
void explain_parse_params(const char *text, struct strvec *out);
/* The -m flag of an ISA macro line ("#define __AVX2__ 1" -> "avx2"), or
 * NULL when the line is not one. */
char *explain_isa_of_macro(const char *line);

#endif
