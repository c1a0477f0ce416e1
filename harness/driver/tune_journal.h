/* tune_journal.h: the tune's journal, journal.jsonl in its folder.
 *
 * A header (the command line, the start's build and sha256, a hash of the
 * space, the metric, the seed and the techniques), then one line per
 * candidate as it finishes, flushed and synced: Ctrl-C or a power loss
 * loses nothing that finished.  --resume reads it back into t->ev: the
 * searches are deterministic, so each journaled candidate is told its
 * figure again instead of being built; a journal whose header differs
 * (another start, space, metric, seed or techniques) is refused, since
 * its figures would answer other questions.
 */
#ifndef FLAGBENCH_TUNE_JOURNAL_H
#define FLAGBENCH_TUNE_JOURNAL_H

#include <jansson.h>

#include "driver/tune_state.h"

/* sha256 of every choice of the space and its start (a resume must find
 * the same space); allocated. */
char *tune_journal_space_hash(const struct tune_space *s);
/* One candidate's line. */
json_t *tune_eval_json(const struct tune *t, const struct tune_eval *e);
/* One journal line (its reference is taken), synced. */
void tune_journal_write(struct tune *t, json_t *line);
/* t->journal_path in t->dir, read first with --resume, then open to
 * append (a new one starts with the header): 0, or -1 said on stderr. */
int tune_journal_open(struct tune *t);

#endif
