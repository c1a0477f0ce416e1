/* newfamily.h: `flagbench new family NAME [DIR]`, a family skeleton that
 * runs as it is (see newfamily.c). */
#ifndef FLAGBENCH_NEWFAMILY_H
#define FLAGBENCH_NEWFAMILY_H

int cmd_new(int argc, char **argv);

#endif
