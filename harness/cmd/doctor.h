/* doctor.h: `flagbench doctor [--root DIR] [--json]`, the system checks
 * (system/doctor.h). */
#ifndef FLAGBENCH_CMD_DOCTOR_H
#define FLAGBENCH_CMD_DOCTOR_H

#include "core/options.h"

extern const struct command_def cmd_doctor_def;
/* argv[0] is "doctor".  Exit 0 (the verdicts are a report, not a
 * failure), 2 for bad usage. */
int cmd_doctor(int argc, char **argv);

#endif
