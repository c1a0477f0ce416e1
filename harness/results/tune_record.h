/* tune_record.h: tune's journal (DIR/journal.jsonl, written by
 * driver/tune_journal.c) read back as typed records, for --resume.
 *
 * One JSON object a line: the header first ({"kind", "version", "argv",
 * "start", "start_sha256", "space", "metric", "seed", "techniques"}), then
 * per line the probe's ({"event": "probe", "build_s", "check_s",
 * "screen_s", "levels": [{"opt", "count", "time_ratio", "time_verdict"}],
 * "checked"}), a screen check's ({"event": "check", "line", "switch",
 * "why", "ev"}) or a candidate's ({"technique", "seq", "key", "op",
 * "status", "reason", "sha256", "same_as", "score", "at_s", "metric"}).
 * A line that does not parse (cut by a crash) is skipped with a note on
 * stderr; a field of another type reads as absent ("" for the strings a
 * candidate always has, NULL for the others, NAN for numbers).
 */
#ifndef FLAGBENCH_TUNE_RECORD_H
#define FLAGBENCH_TUNE_RECORD_H

#include <stddef.h>

#include "core/util.h"

struct tune_record_header {
	int argv_recorded;       /* argv is an array */
	struct strvec argv;      /* the command line ("" for a non-string) */
	char *kind, *start, *start_sha256, *space, *metric; /* NULL where missing */
	int seeded;              /* seed is recorded, an integer */
	long long seed;
	int techniques_recorded; /* techniques is an array */
	struct strvec techniques;
};

struct tune_record_level {
	char *opt;               /* "" where missing */
	double count, time_ratio;
	char *time_verdict;      /* NULL where missing */
};

struct tune_record_probe {
	double build_s, check_s, screen_s;
	struct tune_record_level *levels;
	size_t nlevels;
	int checked;
};

struct tune_record_check {
	char *line;              /* "" where missing */
	char *why;               /* NULL where missing */
	int turned;              /* "switch": the screen turned to time here */
	size_t ev;               /* candidates before it */
};

struct tune_record_eval {
	char *technique, *key, *op, *status, *sha256; /* "" where missing */
	char *reason, *same_as, *metric;              /* NULL where missing */
	size_t seq;
	double score, at_s;      /* NAN where missing (a score written as null too) */
};

struct tune_record {
	size_t lines;            /* lines read, the header's included */
	int has_header;
	struct tune_record_header header;
	int has_probe;           /* the last probe line is probe */
	struct tune_record_probe probe;
	struct tune_record_check *checks; /* in order */
	size_t nchecks;
	struct tune_record_eval *evals;   /* in order */
	size_t nevals;
};

/* Reads the journal at path into r; header_only: its first line alone.
 * 0, or -1 with errno set when it cannot be opened (nothing said: the
 * caller names the tune).  An empty journal is lines 0. */
int tune_record_load(const char *path, int header_only, struct tune_record *r);
void tune_record_free(struct tune_record *r);

#endif
