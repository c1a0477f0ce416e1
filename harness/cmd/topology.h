/* topology.h: `flagbench topology [--root DIR|FILE | --synthetic DESC]
 * [--json]`: cpus, core kinds, caches and placement classes of this
 * machine, of a fixture or of an hwloc synthetic string
 * (system/topology.h). */
#ifndef FLAGBENCH_CMD_TOPOLOGY_H
#define FLAGBENCH_CMD_TOPOLOGY_H

#include "core/options.h"

extern const struct command_def cmd_topology_def;
/* argv[0] is "topology".  Exit 0, or 2 for bad usage or an unreadable
 * topology. */
int cmd_topology(int argc, char **argv);

#endif
