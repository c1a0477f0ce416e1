/* tune.h: `flagbench tune RUN CELL` or `flagbench tune FAMILY/VARIANT`: a
 * search of the compiler's flags for the fastest build (driver/tune.h). */
#ifndef FLAGBENCH_CMD_TUNE_H
#define FLAGBENCH_CMD_TUNE_H

#include "core/options.h"

extern const struct command_def cmd_tune_def;

int cmd_tune(int argc, char **argv);

#endif
