/* tune_space_build.h: what the gcc and clang readers share.
 *
 * Building a space a dimension at a time (each named once, the table's
 * exclusions noted with their reasons), the values searched around a
 * number's default, and asking the compiler: its argv with the start's
 * flags, a query under a timeout, an empty unit compiled as the start.
 * For tune_space_gcc.c, tune_space_clang.c and tune_space.c only:
 * tune_space.h does not include it, so its callers see none of these names.
 */
#ifndef FLAGBENCH_TUNE_SPACE_BUILD_H
#define FLAGBENCH_TUNE_SPACE_BUILD_H

#include <stddef.h>

#include "pipeline/tune_space_dims.h"
#include "core/util.h"
#include "pipeline/compilers.h"

/* ---- building a space ---- */

void space_init(struct tune_space *s);
/* Adds a dimension; takes the strings of choices (left empty). */
void add_dim(struct tune_space *s, enum tune_dim_kind kind, const char *name, struct strvec *choices,
	     size_t start);
void note_left_out(struct tune_space *s, const char *label, const char *why);
/* Whether the table leaves name out (noted under label), allow_unsafe
 * keeping the results-changing ones. */
int left_out_by_table(struct tune_space *s, enum tune_dim_kind kind, const char *name, const char *label,
		      int allow_unsafe);
int has_dim(const struct tune_space *s, enum tune_dim_kind kind, const char *name);
void free_dim(struct tune_dim *d);
/* A whole decimal integer, optionally negative. */
int parse_integer(const char *s, long long *out);
int cmp_ll(const void *a, const void *b);

/* The most values int_values() gives. */
#define MAX_VALUES 16
/* The values searched around default d: within [lo, hi] when the range
 * is given (every value of a small one), 1/4..4x of d otherwise, never
 * below 0 there; sorted, d among them.  Returns how many. */
size_t int_values(long long d, int ranged, long long lo, long long hi, long long *v);
/* Choices "<prefix><value>" of values v, start at d's. */
void value_choices(const char *prefix, const long long *v, size_t n, long long d, struct strvec *choices,
		   size_t *start);

/* ---- asking the compiler ---- */

/* comp's argv: its path, its target's flags and the start's, then extra
 * (NULL-terminated). */
void compiler_argv(const struct compiler *comp, char *const *start_cflags, struct strvec *argv,
		   const char *const *extra);
/* Runs argv (stdin /dev/null) into out and err; 0 when it exited 0.
 * why: what went wrong otherwise. */
int run_query(char *const *argv, struct strbuf *out, struct strbuf *err, char *why, size_t n);
const char *buf_text(const struct strbuf *sb);
void append_cflags(struct strbuf *sb, char *const *cflags);
/* Compiling an empty unit (stdin /dev/null) with the start's flags plus
 * flags: 0 when it exits 0 and says what baseline says, no more. */
int empty_unit_as_start(const struct compiler *comp, char *const *start_cflags, char *const *flags,
			const char *baseline);

#endif
