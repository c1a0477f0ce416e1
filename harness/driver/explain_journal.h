/* explain_journal.h: explain's journal, budget, estimate and progress
 * (driver/explain.h), on its state (explain_state.h).
 *
 * OUT/journal.json, rewritten atomically after every batch of the
 * search: {"schema": "flagbench-explain-journal/1", "way"
 * ("b_without" or "a_with"), "run", "a", "b",
 * "mode", "metric", "flags": [names in the search's order], "builds",
 * "groups": [{"from", "to", "state", "share", "share_ci95", "unchanged",
 * "carries", "value"}] in the order they were recorded}.  --resume reads
 * it back (results/explain_record.h): the run and the pair, the metric, and the groups, replayed in
 * their order into the search (group_search.h), so only the groups still
 * waiting are built and measured.
 */
#ifndef FLAGBENCH_EXPLAIN_JOURNAL_H
#define FLAGBENCH_EXPLAIN_JOURNAL_H

#include "driver/explain_state.h"
#include "results/explain_record.h"

struct explain_journal {
	int read;                 /* 0: none read */
	struct explain_record rec; /* as results/explain_record.h read it */
};

/* DIR/journal.json: *run, *a, *b from it where the caller gave none
 * (NULL), else they must be its (the strings are the journal's).  0, or
 * -1 after a message. */
int explain_journal_read(const char *dir, struct explain_journal *j, const char **run, const char **a, const char **b);
/* The journal's metric, as if --metric had asked it; 0 without a journal. */
int explain_journal_metric(const struct explain_journal *j, struct explain_opts *o);
/* The journal's groups into e->gs; -1 after a message where its flags are
 * not e's (the compiler or the run changed since). */
int explain_journal_replay(struct explain *e, const struct explain_journal *j);
void explain_journal_free(struct explain_journal *j);
/* Writes r->out/journal.json; a failure is a warning. */
void explain_journal_write(const struct explain *e, const struct explain_run *r);

/* Says up front what a full explanation needs and what the budget buys. */
void explain_estimate(struct explain *e, const struct explain_run *r);
/* How many of the waiting groups the next batch measures: all that the
 * budget buys (a count of builds, or a time at the estimate's pace);
 * 0 when it buys none. */
size_t explain_budget_admits(const struct explain *e, const struct explain_run *r, size_t waiting);
/* One line after a batch: builds, groups measured and waiting, the eta. */
void explain_progress(const struct explain *e, const struct explain_run *r);

#endif
