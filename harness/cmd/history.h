/* history.h: `flagbench history import|list|show|changes` (docs/history.md).
 *
 *   import RUN...   adds runs (folders or results.json files, read by
 *                   results/reader.h) to the history, by run id: a run
 *                   already there adds nothing; --rebuild makes the history
 *                   anew from the runs given (a corrupt one is replaced)
 *   list            the runs, oldest first, with machine and cells
 *   show CELL       one cell's nights on each machine, with its change points
 *   changes         every change point, newest first, and what changed
 * Every form takes --db FILE (default results/history.db of the project).
 * Exit: 0; changes 1 when a change point lands on a machine's newest
 * night; 2 on bad usage, a run that cannot be read, or a history that is
 * missing, not a history, truncated or corrupt (with how to rebuild it).
 */
#ifndef FLAGBENCH_CMD_HISTORY_H
#define FLAGBENCH_CMD_HISTORY_H

#include "core/options.h"

extern const struct command_def cmd_history_def;
int cmd_history(int argc, char **argv);

#endif
