/* meter.h: `flagbench meter [options] -- PROGRAM ARGS`, the pipe consumer
 * hyperfine times (system/meter.h); also build/flagbench-meter alone
 * (meter_main.c). */
#ifndef FLAGBENCH_CMD_METER_H
#define FLAGBENCH_CMD_METER_H

#include "core/options.h"

extern const struct command_def cmd_meter_def;
/* An enum meter_exit (system/meter.h). */
int cmd_meter(int argc, char **argv);

#endif
