/* tables.h: `flagbench tables RUN... [--format F] [--family F] [--table T]
 * [--against C/-O] [--out FILE]`; argv[0] "report" (one run) and "merge"
 * (md) are its other spellings. */
#ifndef FLAGBENCH_CMD_TABLES_H
#define FLAGBENCH_CMD_TABLES_H

#include "core/options.h"

extern const struct command_def cmd_tables_def;
extern const struct command_def cmd_report_def;
extern const struct command_def cmd_merge_def;

/* tables, report and merge: one function, argv[0] the spelling.  0, 2 on
 * bad usage or input, 1 when writing fails. */
int cmd_tables(int argc, char **argv);

#endif
