/* explain.h: `flagbench explain RUN_DIR CELL_A CELL_B [options]`: which
 * flags make B faster than A (driver/explain.h), reported by
 * report/explain_writer.h.
 *
 * Output: a table on stdout, explain.md and results.json (schema
 * flagbench-results/1: the built cells, plus an "explain" object, see
 * docs/results-schema.md) in --out (default RUN/explain-<time>).
 * Exit: 0 done, 1 A or B could not be rebuilt or verified, 2 bad usage,
 * 130 interrupted.
 */
#ifndef FLAGBENCH_CMD_EXPLAIN_H
#define FLAGBENCH_CMD_EXPLAIN_H

#include "core/options.h"

extern const struct command_def cmd_explain_def;
int cmd_explain(int argc, char **argv);

#endif
