/* newfamily.h: `flagbench new family NAME [DIR]`, a family skeleton that
 * runs as it is (see newfamily.c). */
#ifndef FLAGBENCH_NEWFAMILY_H
#define FLAGBENCH_NEWFAMILY_H

#include "core/options.h"

extern const struct command_def cmd_new_def;

int cmd_new(int argc, char **argv);

#endif
