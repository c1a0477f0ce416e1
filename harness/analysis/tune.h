/* tune.h: `flagbench tune`, a search of one compiler's flag space for the
 * fastest build of one variant, and the flags that carry its gain.
 *
 * The start: a variant built by one compiler at one -O level and -march
 * (a cell of a run, or named on the command line), planned as `flagbench
 * run` would plan it (plan.h: its cflags, size, arguments, pins).  The
 * space: what the compiler itself lists for that start (tune_space.h).
 *
 * Every candidate, a point of the space, is compiled (build.h: argv only,
 * the cache, --jobs compilers at once), and its binary is known by its
 * sha256: a binary seen before takes that figure and is never measured
 * again.  A new binary must pass the family's check (verify.h) before it is
 * measured; one the compiler rejects, crashes on or times out on is
 * recorded as build_failed, one whose output is wrong as wrong_output, and
 * the search goes on (their score is infinite).  The screen, the score the
 * search is told (lower is better):
 *   instructions  callgrind's (or perf's) instructions per unit, for compute
 *                 families where a counter source exists: deterministic,
 *                 so one count is the figure;
 *   time          otherwise (streams, or a build valgrind cannot run): the
 *                 candidates of one batch timed in rounds with the start
 *                 (schedule.h), each scored by its ratio to the start paired
 *                 over those rounds (comparison.h), so drift between
 *                 batches cancels; a candidate that would be its
 *                 technique's new best is timed again beside the start
 *                 first (the best of many noisy screens drew luck).
 * The techniques (tune_search.h) of --technique run side by side, a batch
 * each in turn, each with the whole --budget (a time of its own batches, or
 * a count of candidates), so a search and the random baseline meet the same
 * machine.
 *
 * Then, on the best point by the screen: the flags in which it differs
 * from the start are minimised by delta debugging (Zeller's ddmin over
 * complements): a subset is kept when it holds TUNE_KEEP of the best's gain
 * (in log space), until no flag can go; each remaining flag's share is the
 * gain lost without it, as explain's.  Last, the confirmation: the start,
 * each technique's best, the minimal set and -O2/-O3/-Os of the same
 * compiler and -march, timed in rounds (--confirm-runs, --layouts code
 * layouts), and each compared with the start by the one comparison, paired
 * over the rounds (across layouts with --layouts); the result is called
 * better than the start only where that comparison says faster.
 *
 * Everything goes to the tune folder (--out, default
 * results/tune-<time>-<family>-<variant>): journal.jsonl (a header with the
 * command line and the space, then one line per candidate, written as it
 * finishes and synced, so Ctrl-C loses nothing; --resume replays it: the
 * searches are deterministic, so a journaled candidate is told its figure
 * again instead of being built), results.json (the whole outcome,
 * atomically) and what report/tune_writer.h renders from it.
 */
#ifndef FLAGBENCH_TUNE_H
#define FLAGBENCH_TUNE_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "analysis/comparison.h"
#include "analysis/tune_search.h"
#include "analysis/tune_space.h"
#include "config/config.h"
#include "pipeline/counters.h"
#include "pipeline/plan.h"

/* A subset of the best's flags stands for it when it keeps this share of
 * the best's gain over the start, ln(start / subset) / ln(start / best). */
#define TUNE_KEEP 0.95
/* The most techniques side by side. */
#define TUNE_TECHNIQUES_MAX 4

enum tune_metric { TUNE_METRIC_ANY, TUNE_METRIC_INSTRUCTIONS, TUNE_METRIC_TIME };

/* The settings; the caller fills every field (cmd/tune.c: the table's
 * defaults). */
struct tune_opts {
	/* the start: run + cell, or variant + compiler (+ opt, march) */
	char *run, *cell, *variant, *compiler, *opt, *march, *suite, *cpu;
	struct strvec family_dirs;
	char *out, *cache, *resume;
	enum tune_technique techniques[TUNE_TECHNIQUES_MAX];
	size_t ntechniques;
	double budget_s;          /* per technique; 0 when a count is given */
	unsigned budget_candidates; /* per technique; 0 when a time is given */
	unsigned jobs, batch;     /* parallel compilers; candidates per batch */
	unsigned screen_runs, confirm_runs, warmup, layouts;
	uint64_t seed;
	enum tune_metric metric;
	int allow_unsafe, list_space, no_render;
	double timeout, build_timeout;
	int argc;                 /* the command line, for the journal and results.json */
	char **argv;
};

/* What became of one candidate. */
struct tune_eval {
	size_t technique;         /* index into the techniques */
	size_t seq;               /* its number within its technique, from 1 */
	char *key;                /* its flags (tune_point_key) */
	char *op;                 /* the operator that proposed it */
	enum cell_status status;  /* ok, build_failed, wrong_output, crashed, timeout ... */
	char *reason;
	char sha256[65];
	char *same_as;            /* the key of the first candidate with this binary, or NULL */
	double score;             /* lower is better; INFINITY when it failed */
	double at_s;              /* its technique's time when it finished */
	/* time: the comparison with the start in its batch's rounds; counts:
	 * faster exactly when fewer */
	enum comparison_verdict verdict;
	int from_journal;
	int replayed;             /* a journaled one told to its search again (--resume) */
};

/* One technique's search and its tally. */
struct tune_track {
	enum tune_technique technique;
	struct tune_search *search;
	double spent_s;           /* its batches' time, journal included */
	size_t evaluated, failed, wrong, same_binary;
	double best;              /* its best score */
	char *best_key;
	int done;                 /* budget spent or space exhausted */
};

/* One line of the confirmation: a build timed against the start. */
struct tune_confirmed {
	char *label;              /* "start", "best (ensemble)", "minimal", "-O3" */
	char *key;                /* its flags beyond the start's, or the -O level's cflags */
	int cell;                 /* in confirm_plan; -1 when not built */
	double screen;            /* its screen score, NAN when none */
	struct comparison_result vs_start; /* B = it, A = the start */
	char text[256];           /* comparison_describe */
	struct comparison_result answer_vs; /* B = the answer, A = it */
	char answer_text[256];
};

/* A flag of the minimal set and its share of the gain. */
struct tune_share {
	char *flag;
	double without;           /* screen score without it */
	double share;             /* ln(without / minimal) / ln(start / minimal) */
};

struct tune {
	const struct tune_opts *o;
	/* the start, planned as run plans it; proto indexes base.cells */
	struct plan base;
	int proto;
	struct family *fams;
	int nfam;
	struct suite suite;
	struct cpu_profile prof;
	struct tune_space space;
	char *space_hash;         /* sha256 of every choice: a resume must find the same space */
	enum tune_metric metric;  /* instructions or time, as chosen */
	enum counter_source counters;
	char *metric_why;
	double start_score;       /* instructions per unit of the start; 1 for time */
	char start_sha[65];
	struct tune_eval *ev;
	size_t nev, ev_alloc;
	struct tune_track tracks[TUNE_TECHNIQUES_MAX];
	size_t ntracks;
	/* the best point over all techniques, minimised */
	char *best_key;
	double best_score;
	struct strvec minimal;    /* its flags, minimised */
	double minimal_score;
	struct tune_share *shares;
	size_t nshares;
	size_t minimise_steps;
	char *minimise_note;      /* why nothing was minimised, or NULL */
	/* the confirmation */
	struct plan confirm_plan;
	struct tune_confirmed *confirmed;
	size_t nconfirmed;
	double confirm_level;
	int better;               /* 1 when the minimal set (or the best) is confirmed faster than the start */
	int better_index;         /* which confirmed line is the answer, -1 none */
	struct strvec notes;
	/* places and times */
	char *dir, *work, *cache, *hyperfine, *journal_path;
	FILE *journal;
	double started, batch_t0;
	unsigned rounds_done;
	unsigned batch_no;
	char stamp[32];
};

/* How a finished tune is reported (report/tune_writer.h): 0, or -1 when
 * an output could not be written. */
struct tune_view {
	int (*report)(const struct tune *t);
};

/* One tune; returns the exit code: 0 done (whether or not a better build
 * was found), 1 the start could not be built, verified or measured, 2 bad
 * input, 130 interrupted (the journal holds what finished). */
int tune_main(const struct tune_opts *o, const struct tune_view *view);

/* "10m", "90s", "1h": seconds into *seconds; "200": a count into
 * *candidates.  0, or -1 for junk. */
int tune_parse_budget(const char *text, double *seconds, unsigned *candidates);

/* The minimised subset of flags by ddmin over complements: keeps(set)
 * says whether a subset still holds the gain (it may be asked several
 * subsets in one call, to build them together: keeps_batch fills ok[i] for
 * each of n subsets).  Exposed for its tests. */
typedef void (*tune_keeps_fn)(void *ctx, const struct strvec *subsets, size_t n, int *ok);
void tune_ddmin(const struct strvec *flags, tune_keeps_fn keeps, void *ctx, struct strvec *out, size_t *steps);

#endif
