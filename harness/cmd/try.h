/* try.h: `flagbench try FILE.c`: one C file benchmarked across the suite's
 * compilers x -O x march, no family.json (try.c). */
#ifndef FLAGBENCH_TRY_H
#define FLAGBENCH_TRY_H

#include "core/options.h"

extern const struct command_def cmd_try_def;

int cmd_try(int argc, char **argv);

#endif
