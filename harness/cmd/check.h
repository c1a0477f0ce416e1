/* check.h: `flagbench check FAMILY N [ARGS...]`: prove a stream on stdin
 * right with the family's checker (checks/check.h). */
#ifndef FLAGBENCH_CMD_CHECK_H
#define FLAGBENCH_CMD_CHECK_H

#include "core/options.h"

extern const struct command_def cmd_check_def;
/* Exit 0 ok, 1 mismatch, 2 usage. */
int cmd_check(int argc, char **argv);

#endif
