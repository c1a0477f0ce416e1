/* render.h: the run's tables in the terminal, and several runs merged.
 *
 * `flagbench report RUN_DIR` prints, per family, the throughput table
 * (variants down, build configurations across; MiB/s and GiB/s, 1024-based,
 * as the seeds print them; compute families in their own unit, families
 * counted in operations ("ops/s") as microseconds per operation) and the
 * speedup table against the family baseline.  A cell that is not ok shows
 * its status word, a cell the run lacks shows "absent".  A figure carries
 * its ± (time_s.ci95_percent, the half-width of the 95 % interval of the
 * median; a speedup combines both cells' intervals) where the run has one,
 * and marks: † measured while the CPU throttled, ‡ the cell has warnings;
 * a legend under each table says what is shown.
 *
 * `flagbench merge [--out FILE] RUN_DIR...` prints Markdown: per family, one
 * row per variant and build configuration found in at least two runs, with
 * throughput and speedup of every run side by side; cells found in one run
 * only are listed after.  plots/merge.jq writes the same tables for
 * plots/publish.sh, and plots/common.jq holds the same table rules: keep
 * the three in step.
 *
 * Both read results.json alone (RUN_DIR, or the file itself) and return 0,
 * or 2 on bad usage or bad input (no such folder, invalid JSON with line and
 * column, not a flagbench-results schema), or 1 when writing fails.
 * argv[0] is the subcommand name.
 */
#ifndef FLAGBENCH_RENDER_H
#define FLAGBENCH_RENDER_H

#include <stddef.h>

int cmd_report(int argc, char **argv);
int cmd_merge(int argc, char **argv);

/* Formatting shared with the unit tests; buf gets at least 32 bytes. */
/* A measured value: bytes per second as format_rate() prints it when unit is
 * NULL or "bytes/s"; for "ops/s" the time of one operation ("0.155 usec/op":
 * 3 decimals, 3 significant digits below 0.01); else with an SI prefix and
 * the unit ("1.90 Mblocks/s"). */
void render_format_value(double value, const char *unit, char *buf, size_t n);
/* A speedup or ratio: "%.2fx", 3 significant digits below 0.01 ("0.000221x"). */
void render_format_ratio(double ratio, char *buf, size_t n);
/* A figure with its interval and marks: "7.36 GiB/s ±1.2% †".  ci is the
 * half-width in percent ("%.1f"), left out when negative or NaN; marks is
 * left out when NULL or empty. */
void render_format_cell(const char *figure, double ci, const char *marks, char *buf, size_t n);
/* The number of terminal columns a UTF-8 string takes (one per code point). */
size_t render_width(const char *s);

#endif
