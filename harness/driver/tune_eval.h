/* tune_eval.h: candidates built, checked, measured and recorded.
 *
 * A candidate is the start's build with its key's flags added
 * (tune_add_clone()).  tune_evaluate() takes a batch to the session
 * (session_ready: built together with --jobs compilers, deduped by the
 * program identity, verified, counted), with the start's build beside
 * them: a candidate that is the start's program, or a binary seen in an
 * earlier batch, takes that figure and is never measured again (the
 * search is told the same score for the same code; every candidate runs
 * as the start does, layout 0, so between batches the binary names the
 * program), a new one must pass the family's check, and the rest are
 * counted (instructions: deterministic, one count) or timed
 * in rounds beside the start (time: each scored by its ratio to the start
 * paired over the batch's rounds, so drift between batches cancels).
 * Each outcome goes to t->ev and, at once, to the journal
 * (tune_journal.h), so an interrupt loses only what had not finished.
 * The start, the minimisation and the confirmation use the same pieces.
 */
#ifndef FLAGBENCH_TUNE_EVAL_H
#define FLAGBENCH_TUNE_EVAL_H

#include <stddef.h>

#include "driver/tune_state.h"

/* One candidate of a batch. */
struct tune_pending {
	size_t track;      /* TUNE_MINIMISE for the minimisation's */
	size_t *val;       /* the search's point; NULL for the minimisation's */
	char *key;
	const char *op;
	int cell;          /* in the batch's plan; -1 when its figure is known already */
	int twin;          /* an earlier candidate of the batch that is the same program, or -1 */
	int measure;       /* to be counted or timed */
	int fresh;         /* timed again even where its binary has a figure (the best, before minimising) */
	size_t ev;         /* its record in t->ev, once recorded */
	int recorded;
};

/* A cell of plan p built like the start, its flags followed by key's;
 * with opt, the start's -O word replaced by it instead.  layout k of K;
 * returns its index in p. */
int tune_add_clone(struct plan *p, size_t *alloc, const struct cell_spec *proto, const char *key, const char *opt,
		   const char *tag, unsigned layout, unsigned layouts);
/* Instructions per unit of a cell the session counted (its
 * measure.counters); NAN (and *why) when not counted. */
double tune_counts_of(const struct cell *c, char *why, size_t n);
/* Times cells in rounds in the order listed (schedule.h): a round's runs
 * pair up in the comparison, so drift cancels. */
void tune_time_rounds(struct tune *t, struct cell **cells, size_t n, unsigned runs);
/* B / A by the one comparison, over the runs of a's and b's cells (a
 * build's layouts): 0, or -1 when it could not compare. */
int tune_compare_groups(struct cell *const *a, size_t na, struct cell *const *b, size_t nb, double level,
			struct comparison_result *out);
/* Builds, checks and measures the batch pd[0..n) (those not recorded yet;
 * runs rounds when timed), records each, and charges the batch's time to
 * its track. */
void tune_evaluate(struct tune *t, struct tune_pending *pd, size_t n, unsigned runs);

#endif
