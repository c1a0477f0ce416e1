/* explain_state.h: the state of one explain (driver/explain.h says what
 * explain does), shared by its steps (explain.c), its journal and budget
 * (explain_journal.h) and its writer (report/explain_writer.h).
 */
#ifndef FLAGBENCH_EXPLAIN_STATE_H
#define FLAGBENCH_EXPLAIN_STATE_H

#include <jansson.h>

#include "analysis/comparison.h"
#include "analysis/group_search.h"
#include "pipeline/flags.h"
#include "config/family.h"
#include "core/util.h"
#include "pipeline/counters.h"
#include "pipeline/plan.h"
#include "pipeline/session.h"
#include "results/reader.h"
#include "driver/replan.h"


/* The settings of one explain; 0 / NULL fields take the defaults below. */
struct explain_opts {
	char *out, *cache;      /* default RUN/explain-<time>, build/cache */
	/* --metric: the metric asked (metric_asked), else instructions where
	 * a counter source exists, else time */
	enum metric metric;
	int metric_asked;
	unsigned runs, warmup, top, jobs; /* runs 5 (time), top 3, jobs: online cpus */
	double timeout, build_timeout;    /* of one run, of one compile (set by the caller: the options' defaults) */
	int dry_run;            /* the mock executor (pipeline/executor.h): made-up figures */
	double budget_s;        /* --budget as a time; 0: none */
	unsigned budget_builds; /* --budget as a count of builds; 0: none */
	const char *resume;     /* --resume: the folder of an earlier explain of the pair */
};

enum explain_mode { EXPLAIN_MODE_OPT, EXPLAIN_MODE_MARCH, EXPLAIN_MODE_CROSS };

/* How the search moves a group of flags: B without them (optimizer
 * flags), or A with them (ISA extensions: -mavx2 brings the extensions it
 * needs along, while -mno-sse3 would take every one above it away). */
enum explain_way { EXPLAIN_WAY_B_WITHOUT, EXPLAIN_WAY_A_WITH };

/* How the search ended: a partial answer is written either way. */
enum explain_end { EXPLAIN_END_DONE, EXPLAIN_END_BUDGET, EXPLAIN_END_INTERRUPTED, EXPLAIN_END_FAILED };

/* A share of the gap with its interval (NAN where unknown). */
struct share {
	double v, lo, hi;
};

/* One flag that differs between A and B. */
struct candidate {
	char *name;             /* as B has it: -mavx2, -fvect-cost-model=dynamic, -fno-x */
	char *toward_a;         /* appended to B's flags: B without it */
	char *toward_b;         /* appended to A's flags: A with it */
	/* where two ISA extensions or more carry the gap alone: the flag
	 * moved the other way than the search's */
	int other;              /* plan cell, -1 when not built */
	struct share other_share;
	double score;           /* the claim's order: the mean of both ways, or the search's way alone */
};

/* What explain keeps of a group of the search beside group_search.h's
 * record: its plan cell (-1 for a group measured by an earlier explain
 * that --resume replays) and its figure. */
struct group_info {
	int cell;
	double value;
};

/* Two compilers: the cells built across, and the four shares of the gap. */
struct explain_cross {
	int x, y;                            /* A's compiler with B's flags, B's with A's */
	int same_flags;                      /* A and B have the same flags: X is A, Y is B */
	struct share compiler_at_a, flags_in_b; /* A / Y, Y / B */
	struct share flags_in_a, compiler_at_b; /* A / X, X / B */
};

struct metric_value {
	double v, lo, hi; /* lower is better; NAN when unknown */
};

struct explain {
	const struct explain_opts *o;
	enum explain_mode mode;
	enum explain_way way;
	enum metric metric;
	enum counter_source counters;
	struct session session;   /* every build, check and count (pipeline/session.h) */
	struct plan plan;         /* copies of A's and B's cells (their compiler is rebuild's) */
	size_t alloc;
	struct metric_value *val; /* per plan cell */
	struct candidate *cand;   /* in the search's order */
	size_t ncand;
	int a, b, check;          /* plan cells */
	double gap;               /* ln(m(A) / m(B)) */
	struct share explained;   /* B without the claim's flags together */
	struct group_search gs;   /* the search by halves */
	struct group_info *gi;    /* per group of gs */
	size_t gi_alloc;
	size_t builds;            /* the builds of the search and the check, over every resume */
	size_t resumed;           /* groups taken from the journal */
	size_t builds_resumed;
	unsigned rounds_done;     /* of the schedules so far: the next one's round_base */    /* of builds, those of earlier explains (--resume) */
	enum explain_end end;
	char *not_faster;         /* "B is not faster than A: ...": said instead of an attribution */
	struct strvec notes;      /* said in every output */
	struct strvec selected;   /* the claim: single flags that carry the gap, best first */
	struct explain_cross cross;
	/* the estimate said up front */
	size_t full_builds;       /* one build per flag, and B without all */
	size_t est_low, est_high; /* by halves: one flag carrying, two */
	double build_s;           /* one build, about (the run's, then this explain's) */
	double measure_s;         /* the timing of one binary in a batch, about */
};

/* The inputs and the places of one explain, owned here so the steps share
 * them and one function frees them. */
struct explain_run {
	char *run_dir;          /* the run folder */
	const char *id_a, *id_b;
	int argc;               /* the command line, for results.json run.argv */
	char **argv;
	struct results_run results; /* the run, through the one reader */
	const struct results_cell *ca, *cb; /* the two cells, inside results */
	/* A and B planned again as the run planned them (driver/replan.h):
	 * every rebuild is a copy of one of them with other flags */
	struct replan rebuild;
	struct replan rebuild_b; /* two compilers: B planned on its own */
	int pa, pb;             /* their cells in rebuild.plan (pb: in rebuild_b.plan with two compilers) */
	struct family *fam;     /* of both cells, inside rebuild */
	struct variant *var;
	char *out, *work, *hyperfine;
	double started;
	char stamp[32];         /* started as 20261130T092200Z: names the run id and the default --out alike */
};

/* How an explain is reported, after every batch (final 0: the files
 * alone) and at the end (final 1: explain.md on stdout too): 0, or -1
 * when an output could not be written. */
struct explain_view {
	int (*report)(const struct explain *e, const struct explain_run *r, int final);
};

#endif
