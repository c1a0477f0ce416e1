/* tune_state.h: what a tune holds, for its stages and its writers.
 *
 * struct tune, one per `flagbench tune` (tune.h): the start, the space,
 * every candidate's outcome (the journal's lines), each technique's track,
 * the best minimised and the confirmation, with the session, folder and
 * journal they share.  Below every stage (tune_start.h, tune_eval.h,
 * tune_journal.h, tune_loop.h, tune_minimise.h, tune_confirm.h) so that
 * each reads and fills it without including another that includes it
 * back; report/tune_writer.c includes it to render a finished tune.
 * tune.h does not, so a caller of tune_main() sees none of these names.
 */
#ifndef FLAGBENCH_TUNE_STATE_H
#define FLAGBENCH_TUNE_STATE_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/comparison.h"
#include "analysis/tune_budget.h"
#include "analysis/tune_search.h"
#include "pipeline/tune_space.h"
#include "core/util.h"
#include "driver/replan.h"
#include "driver/tune_opts.h"
#include "pipeline/counters.h"
#include "pipeline/plan.h"
#include "pipeline/session.h"
#include "results/tune_record.h"

/* the technique index of the minimisation's own candidates */
#define TUNE_MINIMISE ((size_t)-1)
/* ... and of the -O levels measured before the search (tune_probe.h) */
#define TUNE_PROBE ((size_t)-2)

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
	enum metric metric;       /* the screen its score is of (the screen may turn to time, tune_screen.h) */
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

/* An -O level other than the start's, measured before the search
 * (tune_probe.h). */
struct tune_level {
	char *opt;                /* "-O3": its key too */
	double count;             /* instructions per unit, NAN when not counted */
	double time_ratio;        /* its time to the start's, paired; NAN when not timed */
	enum comparison_verdict time_verdict; /* against the start, by time */
};

/* What one batch cost (tune_evaluate fills it): the probe's figures, and
 * the search's own rate. */
struct tune_batch_cost {
	double build_s;           /* the build's wall time */
	unsigned compiled;        /* compiles it ran (not the cache's) */
	double check_s, screen_s; /* the checks' and the screen's wall time */
	unsigned checked, screened;
	unsigned timed_cells;     /* cells in a time screen's rounds (the start's included) */
};

/* A flag of the minimal set and its share of the gain. */
struct tune_share {
	char *flag;
	double without;           /* screen score without it */
	double share;             /* ln(without / minimal) / ln(start / minimal) */
};

struct tune {
	const struct tune_opts *o;
	/* the start, planned as run plans it; proto indexes start.plan.cells */
	struct replan start;
	int proto;
	struct tune_space space;
	char *space_hash;         /* sha256 of every choice: a resume must find the same space */
	enum metric metric;       /* instructions or time, as chosen */
	enum counter_source counters;
	char *metric_why;
	double start_score;       /* instructions per unit of the start; 1 for time */
	double count_start;       /* the start's instructions per unit, NAN when never counted */
	/* before the search (tune_probe.h): what a candidate costs, what the
	 * budget buys, what the search needs, the -O levels measured */
	struct tune_cost cost;
	struct tune_budget_plan plan;
	size_t nseeds, needed;
	struct tune_level levels[TUNE_OPT_LEVELS_MAX];
	size_t nlevels;
	struct tune_batch_cost start_cost; /* the start's build, check and count */
	struct tune_batch_cost last; /* the latest batch's */
	double search_wall_s;     /* the searches' batches, all techniques */
	size_t search_candidates;
	/* the counting screen checked against time (tune_screen.h) */
	size_t screen_from;       /* ev before it are of another screen: no figure of this one */
	unsigned screen_checks;   /* checks made (the probe's the first) */
	double checked_best;      /* the count ratio the last check reached */
	struct strvec check_lines;/* each check, in words */
	char *switch_why;         /* why the screen turned to time, or NULL */
	size_t switched_after;    /* candidates of the searches before it */
	/* the journal read back (--resume, results/tune_record.h): the
	 * probe's line and each check's are replayed from it */
	struct tune_record *journaled; /* NULL: none */
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
	struct session session;   /* every build, check and count of the tune */
	char *dir, *work, *hyperfine, *journal_path;
	FILE *journal;
	double started, batch_t0;
	unsigned rounds_done;
	unsigned batch_no;
	char stamp[32];
};

#endif
