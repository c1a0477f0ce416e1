/* tune_minimise.h: the best point's flags minimised, and each one's share.
 *
 * The best over every technique is the point whose flags differ from the
 * start; most are passengers.  When timed, it is first screened again with
 * --confirm-runs rounds (the best of many noisy screens drew luck), and a
 * lead within the noise is left unminimised, with a note.  Then ddmin
 * (analysis/ddmin.h) drops flags while a subset keeps TUNE_KEEP of the
 * best's gain in log space, each step's subsets built and measured as one
 * batch (tune_eval.h; a subset measured before is not again), and each
 * flag left gets its share: the gain lost without it, as explain's.
 */
#ifndef FLAGBENCH_TUNE_MINIMISE_H
#define FLAGBENCH_TUNE_MINIMISE_H

#include <stddef.h>

#include "driver/tune_state.h"

/* t->best_key and t->best_score from the tracks; t->minimal, its score,
 * t->shares and t->minimise_note. */
void tune_minimise(struct tune *t);
/* v[0..n) joined by spaces, a key; allocated. */
char *tune_join_words(char *const *v, size_t n);

#endif
