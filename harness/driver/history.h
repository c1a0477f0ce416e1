/* history.h: the change points of a history file (`flagbench history
 * show|changes`, the nightly).
 *
 * history_analyse() loads the series of an open history (results/history.h)
 * and hands them to the pure analysis (analysis/history_changes.h), whose
 * result owns them then; nothing here but the loading.
 */
#ifndef FLAGBENCH_DRIVER_HISTORY_H
#define FLAGBENCH_DRIVER_HISTORY_H

#include "analysis/history_changes.h"
#include "results/history.h"

/* The series of cpu profile profile (NULL: every one) in h, analysed:
 * history_analyse_data() over them.  0, or -1 after a message. */
int history_analyse(struct history *h, const char *profile, enum metric m, double alarm_rate,
		    struct history_analysis *out);

#endif
