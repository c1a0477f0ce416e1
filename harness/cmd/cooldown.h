/* cooldown.h: `flagbench cooldown [--seconds S] [--below C] [--max-wait S]`,
 * the pause against heat hyperfine runs between runs (system/cooldown.h). */
#ifndef FLAGBENCH_CMD_COOLDOWN_H
#define FLAGBENCH_CMD_COOLDOWN_H

#include "core/options.h"

extern const struct command_def cmd_cooldown_def;
/* Logs every wait; --log-waits only those that waited (between runs, most
 * do not).  Exit 0, 2 for bad usage. */
int cmd_cooldown(int argc, char **argv);

#endif
