/* run.h: `flagbench run` (driver/run.h: the pipeline), reporting through
 * the results model's texts. */
#ifndef FLAGBENCH_CMD_RUN_H
#define FLAGBENCH_CMD_RUN_H

int cmd_run(int argc, char **argv);

#endif
