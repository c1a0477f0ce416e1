/* try.h: `flagbench try FILE.c`: one C file benchmarked across the suite's
 * compilers x -O x march, no family.json (try.c). */
#ifndef FLAGBENCH_TRY_H
#define FLAGBENCH_TRY_H

int cmd_try(int argc, char **argv);

#endif
