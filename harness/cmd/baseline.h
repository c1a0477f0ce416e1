/* baseline.h: `flagbench baseline save RUN [--dir D] [--name NAME]`: store
 * a run as the baseline NAME (default latest) of its cpu profile in D
 * (default the project's baselines/), results/baseline.h.
 * Exit: 0 saved, 2 bad usage or a run that cannot be a baseline.
 */
#ifndef FLAGBENCH_CMD_BASELINE_H
#define FLAGBENCH_CMD_BASELINE_H

#include "core/options.h"

extern const struct command_def cmd_baseline_def;
int cmd_baseline(int argc, char **argv);

#endif
