/* tune_confirm.h: the confirmation, the only figures the answer rests on.
 *
 * The start, each technique's best, the minimal set and -O2/-O3/-Os of the
 * same compiler and -march are built (--layouts code layouts each), lines
 * whose builds are the same binaries merged, and all timed together in
 * rounds (--confirm-runs): the screen's figures chose them, so they cannot
 * also judge them.  Each line is compared with the start by the one
 * comparison, paired over the rounds (across layouts), at a Bonferroni
 * level for the lines; the answer is the minimal set where that says
 * faster, else a best that is, and every line is compared with it too.
 */
#ifndef FLAGBENCH_TUNE_CONFIRM_H
#define FLAGBENCH_TUNE_CONFIRM_H

#include "driver/tune_state.h"

/* t->confirm_plan, t->confirmed, t->better and t->better_index. */
void tune_confirm(struct tune *t);

#endif
