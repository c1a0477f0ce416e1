/* list.h: `flagbench list cpus|suites|variants|compilers`: what is available. */
#ifndef FLAGBENCH_LIST_H
#define FLAGBENCH_LIST_H

#include "core/options.h"

extern const struct command_def cmd_list_def;

int cmd_list(int argc, char **argv);

#endif
