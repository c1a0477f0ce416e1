/* join.h: `flagbench join SHARD_RUN... --out DIR`: the shards of one
 * plan (run --shard K/N) as one run folder (results/join.h), rendered as
 * a run is.  Exit 0, or 2 with the reason when the shards are not every
 * shard of one plan on one CPU model. */
#ifndef FLAGBENCH_CMD_JOIN_H
#define FLAGBENCH_CMD_JOIN_H

extern const struct command_def cmd_join_def;
int cmd_join(int argc, char **argv);

#endif
