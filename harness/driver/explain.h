/* explain.h: which flags make cell B of a run faster than cell A.
 *
 * A and B are two cells of one run with the same variant and compiler that
 * differ in -O level or in -march (not both).  The candidate flags are:
 *   -O levels (gcc only): the optimizer flags whose state differs between
 *     the two cells, as `gcc -Q --help=optimizers <cflags>` lists them
 *     (-fpeel-loops, -fvect-cost-model=dynamic, ...), and the --param
 *     values that differ in `gcc -Q --help=params` (inline limits).  clang's -O levels
 *     choose pass pipelines that no flag names, so clang cells get -march
 *     attribution only, and explain says so (exit 2).
 *   -march: the ISA extensions whose predefined macro (__AVX2__, __FMA__)
 *     differs between the two cells' `-dM -E`, as -m<ext> / -mno-<ext> that
 *     the compiler accepts (both gcc and clang).
 * For each candidate it builds B moved one flag toward A ("B without it")
 * and A moved one flag toward B ("A with it"), through the build stage (the
 * cache, argv only), verifies every distinct binary with the family's
 * checker, and measures each distinct binary once (identical binaries
 * share a figure: most single flags change nothing, and the output says how
 * many).
 * First it asks the comparison (analysis/comparison.h) whether B is faster
 * than A at all, by time from the run's stored runs at the run's
 * statistic (paired where both cells have rounds of one pass): where not,
 * it says so in the comparison's words ("B is not faster than A: 1.020x
 * [0.980, 1.060] paired over 17 rounds: inconclusive") and stops, exit 0,
 * with nothing built.  Metric: time where that lead is real (--metric
 * any), else instructions per unit counted by callgrind or perf
 * (deterministic under callgrind) for compute families where a counter
 * source exists, else time; where counting fails for A or B (valgrind
 * cannot run a build) it falls back to time with a note.  Times come
 * from the scheduler (pipeline/schedule.h) in rounds over all distinct
 * binaries, in the list's order (a second schedule's rounds follow the
 * first's); every "faster" between two of them is the comparison's,
 * paired over their rounds.
 *
 * The share of a flag is measured in log space against the gap
 * G = ln(m(A) / m(B)):  without = ln(m(B without f) / m(B)) / G,
 * with = ln(m(A) / m(A with f)) / G, each ratio and its interval the
 * comparison's; its score is their mean.  A flag whose shares' intervals
 * span more than the whole gap says nothing: it is left out of the table,
 * which says how many were.  The flags with the highest scores (at least
 * 5 % each, at most --top, until 90 % of the gap is covered; for time, a
 * share the comparison calls real) are the
 * claim, which is then checked by building and measuring B without all of
 * them together ("explained" = that build's share of the gap).  Where no
 * flag is claimed, or the check explains less than TUNE_KEEP of the gap, the
 * flags that carry it together are searched (struct explain: joint).
 *
 * The candidates come from flags.h; this file builds, verifies and
 * measures, then attributes the gap.  What it found is reported through
 * an explain_view (report/explain_writer.h: explain.md on stdout and in
 * --out, results.json beside it), so analysis needs no report/ code.
 */
#ifndef FLAGBENCH_EXPLAIN_H
#define FLAGBENCH_EXPLAIN_H

#include <jansson.h>

#include "analysis/comparison.h"
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
};

enum explain_mode { EXPLAIN_MODE_OPT, EXPLAIN_MODE_MARCH };

/* One flag that differs between A and B, with what it measured. */
struct candidate {
	char *name;             /* as B has it: -mavx2, -fvect-cost-model=dynamic, -fno-x */
	char *toward_a;         /* appended to B's flags: B without it */
	char *toward_b;         /* appended to A's flags: A with it */
	int without, with;      /* plan cells, -1 when not built */
	double rem, rem_lo, rem_hi, add, add_lo, add_hi, score;
	/* the comparison's verdicts (comparison.h) of B without it over B,
	 * and of A over A with it: a time share counts only where it is real */
	enum comparison_verdict rem_v, add_v;
};

struct metric_value {
	double v, lo, hi; /* lower is better; NAN when unknown */
};

struct explain {
	const struct explain_opts *o;
	enum explain_mode mode;
	enum metric metric;
	enum counter_source counters;
	struct session session;   /* every build, check and count (pipeline/session.h) */
	struct plan plan;         /* copies of A's and B's cells (their compiler is rebuild's) */
	size_t alloc;
	struct metric_value *val; /* per plan cell */
	struct candidate *cand;
	size_t ncand;
	int a, b, check;          /* plan cells */
	double gap;               /* ln(m(A) / m(B)) */
	double explained, explained_lo, explained_hi;
	size_t distinct, unchanged;
	size_t meaningless;       /* flags whose share's interval spans more than the whole gap: left out */
	unsigned rounds_done;     /* of the schedules so far: the next one's round_base */
	char *not_faster;         /* "B is not faster than A: ...": said instead of an attribution */
	struct strvec notes;      /* said in every output */
	struct strvec selected;   /* the claim */
	/* Where no single flag carries the gap (or the claim's check explains
	 * less than TUNE_KEEP of it): the smallest set of flags that carries it
	 * together, by delta debugging (tune.h: tune_ddmin) over the flags
	 * that change the binary; a set carries it when B without all of it
	 * loses TUNE_KEEP of the gap.  joint_share is that set's share of the
	 * gap; all_share the share of every changing flag together (when even
	 * that falls short, nothing is minimised). */
	struct strvec joint;
	double joint_share, all_share;
	size_t joint_steps, joint_from;
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
	int pa, pb;             /* their cells in rebuild.plan */
	struct family *fam;     /* of both cells, inside rebuild */
	struct variant *var;
	char *out, *work, *hyperfine;
	double started;
	char stamp[32];         /* started as 20261130T092200Z: names the run id and the default --out alike */
};

/* How a finished explain is reported: 0, or -1 when an output could not
 * be written. */
struct explain_view {
	int (*report)(const struct explain *e, const struct explain_run *r);
};

/* One explain: RUN (a run folder or its results.json), cells A and B of
 * it, the command line it records.  Returns the exit code: 0 done, 1 A or
 * B could not be rebuilt or verified (or an output not written), 2 bad
 * input, 130 interrupted. */
int explain_main(const char *run, const char *id_a, const char *id_b, int argc, char **argv,
		 const struct explain_opts *o, const struct explain_view *view);

/* The cell whose figure stands for cell i (itself, or its identical twin);
 * -1 for -1. */
int explain_rep(const struct explain *e, int i);
/* Whether moving the flag either way gave another binary. */
int explain_changes_something(const struct explain *e, const struct candidate *c);
/* A share whose interval spans more than the whole gap says nothing:
 * it is printed as "too noisy", never as a share. */
int explain_share_meaningless(double lo, double hi);
/* Whether every share the flag has spans more than the whole gap (its
 * interval wider than 100 %): it says nothing, and is left out. */
int explain_meaningless(const struct candidate *c);

#endif
