/* compare.h: `flagbench compare BASE NEW [options]` and `flagbench compare
 * --baseline NAME NEW`: is NEW slower than BASE? (analysis/compare.h),
 * written by report/compare_writer.h in --format text, md or json
 * (--json-out FILE writes the JSON as well).
 * Exit: 1 when any cell is slower, 0 otherwise, 2 on bad input.
 */
#ifndef FLAGBENCH_CMD_COMPARE_H
#define FLAGBENCH_CMD_COMPARE_H

#include "core/options.h"

extern const struct command_def cmd_compare_def;
int cmd_compare(int argc, char **argv);

#endif
