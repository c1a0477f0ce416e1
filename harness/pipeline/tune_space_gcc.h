/* tune_space_gcc.h: the gcc space, read from gcc's own listings.
 *
 * tune_space_read() calls tune_space_read_gcc() for a compiler that is
 * not clang: it asks gcc, with the start's flags, for `-Q
 * --help=optimizers`, `--help=optimizers` and `-Q --help=params`, parses
 * them (tune_space_parse_gcc, which the tests call on stored listings)
 * and drops the flags that make gcc warn with the start's flags.
 * tune_space.h says what the space holds.
 */
#ifndef FLAGBENCH_TUNE_SPACE_GCC_H
#define FLAGBENCH_TUNE_SPACE_GCC_H

#include "pipeline/tune_space_dims.h"
#include "pipeline/compilers.h"

/* tune_space_read() for gcc: 0, or -1 after an error message when gcc
 * cannot be asked. */
int tune_space_read_gcc(const struct compiler *comp, char *const *start_cflags, int allow_unsafe,
			struct tune_space *out);

/* gcc's three listings with cflags, parsed (no flag dropped for its
 * warnings): the settings of one -O level (tune_space_opt.h).  0, or -1
 * after an error message. */
int tune_space_read_gcc_listed(const struct compiler *comp, char *const *cflags, int allow_unsafe,
			       struct tune_space *out);

/* The parts tune_space_read() uses, without running anything (tests):
 * gcc's three listings, `-Q --help=optimizers`, `--help=optimizers` and
 * `-Q --help=params`, each as the compiler printed it. */
void tune_space_parse_gcc(const char *optimizers_q, const char *optimizers_help, const char *params_q,
			  int allow_unsafe, struct tune_space *out);

#endif
