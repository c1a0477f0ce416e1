/* inputs.h: a family's input file and the the {input} placeholder of its argv.
 *
 * family.json "args" with "{N}" or "{input}" are the program's whole argv
 * (config.h args_template).  plan.c replaces {N} with the cell's size;
 * inputs_prepare(), after the build, replaces {input} with the input's
 * path: the family's shipped file, or the output of its input command for
 * that size, made once into CACHE/inputs/<key> (the key: the command, with
 * a path inside the family named by the family's name, not its folder, the
 * size and the command's own file when it is the family's), written to a
 * temporary name and renamed.  A command that fails or hangs leaves the
 * family's cells of that size "unsupported" with its first stderr line.
 */
#ifndef FLAGBENCH_INPUTS_H
#define FLAGBENCH_INPUTS_H

#include <stdint.h>

#include "pipeline/plan.h"

void inputs_prepare(struct plan *p, const char *cache_dir, double timeout_s);

#endif
