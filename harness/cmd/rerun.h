/* rerun.h: measure a run again with the binaries it kept (pipeline/store.h).
 *
 *   flagbench rerun DIR [--only GLOB] [--out D] [--runs N]
 * runs `flagbench run` with DIR's own arguments (results.json run.argv)
 * plus --binaries-from DIR.
 */
#ifndef FLAGBENCH_RERUN_H
#define FLAGBENCH_RERUN_H

#include "core/options.h"

extern const struct command_def cmd_rerun_def;

int cmd_rerun(int argc, char **argv);

#endif
