/* explain_record.h: explain's journal (OUT/journal.json, written by
 * driver/explain_journal.c) read back as a typed record, for --resume.
 *
 * {"schema": EXPLAIN_JOURNAL_SCHEMA, "way", "run", "a", "b", "mode",
 * "metric", "flags": [names], "builds", "groups": [{"from", "to",
 * "state", "share", "share_ci95", "unchanged", "carries", "value"}]}.
 * A field of another type reads as absent (NULL, NAN, 0); run, a and b
 * are required with the schema.
 */
#ifndef FLAGBENCH_EXPLAIN_RECORD_H
#define FLAGBENCH_EXPLAIN_RECORD_H

#include <stddef.h>

#include "core/util.h"

#define EXPLAIN_JOURNAL_SCHEMA "flagbench-explain-journal/1"

/* One group of the search as the journal recorded it. */
struct explain_record_group {
	size_t from, to;         /* the flags [from, to) */
	int failed;              /* state "failed"; else measured */
	double share, share_low, share_high; /* its share and 95 % interval; NAN unknown */
	double value;            /* its build's figure; NAN unknown */
	int unchanged, carries;
};

struct explain_record {
	char *run, *a, *b;       /* the run folder and the pair */
	char *metric, *way;      /* NULL where not recorded */
	struct strvec flags;     /* the candidate flags in the search's order ("" for a non-string) */
	struct explain_record_group *groups; /* in the order recorded */
	size_t ngroups;
	size_t builds;
};

/* DIR/journal.json into r.  0; -1 after a message (it cannot be read, or
 * it is no explain journal): the caller exits 2. */
int explain_record_load(const char *dir, struct explain_record *r);
void explain_record_free(struct explain_record *r);

#endif
