/* history_writer.h: `flagbench history list|show|changes` as text, JSON or
 * TSV, from what analysis/history_changes.h computed (nothing is computed here).
 *
 * changes: every change point, newest first: its first night (start and
 * run id), machine, cell, the ratio after/before with its 95 % interval,
 * slower or faster, and what changed (analysis/cp_cause.h).
 * JSON schema flagbench-history-changes/1: metric, alarm_rate_percent,
 * cut (the Benjamini-Hochberg cut of the first scans' p-values), cells,
 * tested, changes[] {profile, host, cell, night, started, before, ratio,
 * ci95, direction, p, newest, cause {kind, what, text}}.
 * show: one cell's nights (CELL is an id or a glob: every cell it matches),
 * each with its value (median per unit), runs, binary, and the change
 * point that starts there; TSV columns: machine (profile/host), cell,
 * night, started, run, value, relative (to the first night), runs, change
 * (its label, or empty), the binary's sha256 (12 digits): what the page
 * (plots/history.sh) plots.
 */
#ifndef FLAGBENCH_HISTORY_WRITER_H
#define FLAGBENCH_HISTORY_WRITER_H

#include <stdio.h>

#include "analysis/history_changes.h"

enum history_format { HFMT_TEXT, HFMT_JSON, HFMT_TSV };

void history_write_list(const struct history_data *d, enum history_format f, FILE *out);
/* -1 when the history has no such cell (nothing written). */
int history_write_show(const struct history_analysis *a, const char *cell, enum history_format f, FILE *out);
void history_write_changes(const struct history_analysis *a, enum history_format f, FILE *out);

#endif
