/* list.h: `flagbench list cpus|suites|variants|compilers`: what is available. */
#ifndef FLAGBENCH_LIST_H
#define FLAGBENCH_LIST_H

int cmd_list(int argc, char **argv);

#endif
