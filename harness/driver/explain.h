/* explain.h: which flags make cell B of a run faster than cell A, within a
 * budget, and what a compiler carries against another.
 *
 * A and B are two cells of one run of the same variant.  With one compiler
 * they differ in -O level or in -march (not both), and the candidate flags
 * are:
 *   -O levels (gcc only): the optimizer flags whose state differs between
 *     the two cells, as `gcc -Q --help=optimizers <cflags>` lists them,
 *     and the --param values that differ in `gcc -Q --help=params`.
 *     clang's -O levels choose pass pipelines that no flag names (exit 2).
 *   -march: the ISA extensions whose predefined macro differs between the
 *     two cells' `-dM -E`, as -m<ext> / -mno-<ext> that the compiler
 *     accepts (both gcc and clang).
 * The flags are searched by halves (analysis/group_search.h): all of
 * them moved first, then each half of a group that carries the gap, so k
 * carrying flags among n cost about 1 + 2 k log2(n) builds, not one build
 * per flag (nor one per ISA extension).  Optimizer flags are moved out of
 * B (B without them: a group's share of the gap G = ln(m(A) / m(B)) is
 * ln(m(B without it) / m(B)) / G); ISA extensions into A (A with them:
 * ln(m(A) / m(A with it)) / G), since -mavx2 brings what it needs along
 * while -mno-sse3 takes away every extension above it.  Each share's
 * interval is the comparison's (analysis/comparison.h); a group carries
 * where its share is at least 5 % and (for time) the comparison calls
 * the move real.
 * The answer: the single flags that carry (the claim, at most --top of
 * them, checked by B without all of them together where there are two or
 * more) and the groups that carry while neither half does (flags that
 * carry the gap together).  The claim is ranked by the search's
 * shares, at most --top flags until 90 % of the gap is covered; where two
 * ISA extensions or more carry it alone, each is also built the other way
 * (B without it) to break near-ties (-mf16c brings -mavx along as -mavx
 * itself does).
 *
 * With two compilers (gcc/-Os against clang/-Os, or gcc/-O2 against
 * clang/-O3): X = A's compiler with B's flags and Y = B's compiler with
 * A's flags are built beside A and B, and the gap splits two ways: the
 * compiler at A's flags (A / Y) then the flags within B's compiler (Y / B),
 * and the flags within A's compiler (A / X) then the compiler at B's flags
 * (X / B).  At the same flags the whole gap is the compiler's.
 *
 * Every build goes through the session (pipeline/session.h: the build
 * cache first, argv only, the family's check), every distinct binary is
 * counted (instructions per unit, deterministic under callgrind) or timed
 * through the scheduler beside A and B again in each batch, so drift
 * spreads over all of them.  First it asks the comparison whether B is
 * faster than A at all in the run's times; where not it says so in the
 * comparison's words and stops, exit 0, nothing built.
 *
 * Budget and journal.  --budget is a time (10m) or a count of builds; up
 * front explain says what a full explanation needs (one build per flag,
 * and about how many by halves), at about how long a build (the run's own
 * build time, then this explain's) and what the budget buys; a batch that
 * would end past the budget is not started.  After every batch the
 * findings are written, each file atomically: OUT/journal.json (the
 * groups measured, what --resume replays), explain.md and results.json
 * with the partial answer (the flags tested, those that carry the gap so
 * far, the groups still waiting).  So a budget's end or an interrupt
 * (SIGINT, SIGTERM) leaves the answer so far; `--resume OUT` goes on from
 * there, measuring only the groups still waiting (the cache spares the
 * builds an interrupted batch finished).
 *
 * What it found is reported through an explain_view (report/explain_writer.h),
 * so analysis needs no report/ code.
 */
#ifndef FLAGBENCH_EXPLAIN_H
#define FLAGBENCH_EXPLAIN_H

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
	json_t *run;            /* its document (results.root) */
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

/* One explain: RUN (a run folder or its results.json), cells A and B of
 * it (all three NULL with o->resume: the journal's), the command line it
 * records.  Returns the exit code: 0 done or the budget spent (the
 * answer says which), 1 A or B could not be rebuilt or verified (or an
 * output not written), 2 bad input, 130 interrupted (the partial answer
 * written). */
int explain_main(const char *run, const char *id_a, const char *id_b, int argc, char **argv,
		 const struct explain_opts *o, const struct explain_view *view);

/* The cell whose figure stands for cell i (itself, or its identical twin);
 * -1 for -1. */
int explain_rep(const struct explain *e, int i);
/* A share whose interval spans more than the whole gap says nothing:
 * it is printed as "too noisy", never as a share. */
int explain_share_meaningless(double lo, double hi);
/* The smallest measured group holding candidate i, or -1 (untested). */
int explain_group_of(const struct explain *e, size_t i);

#endif
