/* model_across.h: the answers across machines.
 *
 * Runs of one suite from several machines (hosts or cpu profiles) put
 * side by side show columns of figures; what a reader asks is which flags
 * win where.  Per variant of a family that at least two runs measured:
 *
 * - each machine's fastest build and its lead over the runner-up, as that
 *   machine's run decides it: model_answer() over the run's own
 *   throughput table, so the one comparison (model_compare.h), paired
 *   over the rounds of that run.  Two machines never share rounds, so no
 *   figure of one machine is ever compared with one of another: every
 *   ratio here is inside one run, and a difference between machines is
 *   said as each machine's ratio side by side.
 * - the gaps: for every two configurations that differ in one part only
 *   (the compiler, the -O level, the -march, a flag set), B against A on
 *   each machine (the one comparison again).  A gap flips when it is a
 *   real lead one way on one machine and a real lead the other way on
 *   another ("depends on the machine"); it holds on some only when it is
 *   real on some and not on others; else the machines agree on it.  A
 *   variant's machines agree when none of its gaps flips.
 * - the portable choice: among the builds measured ok on every machine
 *   with one -march that every machine ran (the same compiler, -O level,
 *   flag set and -march string, that -march not "native"), the one whose
 *   worst ratio to each machine's own fastest is the largest (its worst
 *   loss the smallest), with that ratio per machine and its interval.
 *   -march=native is each machine's own code: "gcc/-O2/native" is another
 *   program on every machine, so it is never the portable choice (it can
 *   be a machine's fastest, and is named so).  A build that would be a
 *   candidate but lacks a cell or failed it on a machine is named with
 *   that machine and its status, never silently dropped.
 *
 * Every comparison is asked in the model's first pass, so it counts in
 * the view's error rate and is shown at the level the view settles on
 * (model_compare_settle), the same level for every answer of the view.
 * Runs of different suites are compared only where the family, the
 * variant and its size match; a variant measured at different sizes is
 * named and left out.  Emulated families are left out: their times say
 * little about the target.  Every sentence is made here; the writers
 * (across_writer.h) lay them out.
 */
#ifndef FLAGBENCH_MODEL_ACROSS_H
#define FLAGBENCH_MODEL_ACROSS_H

#include "report/model_cells.h"

enum across_kind { ACROSS_AGREES, ACROSS_SOME, ACROSS_FLIPS };

/* One machine's figure of one comparison: B's throughput over A's. */
struct macross_on {
	const char *machine;
	double ratio, low, high; /* NAN without an interval */
	enum comparison_verdict verdict;
};

/* A machine's fastest build of a variant, as its run decides it. */
struct macross_machine {
	const char *machine;
	const char *leader, *runner; /* NULL: no build measured; runner NULL: nothing to compare */
	double lead, low, high;      /* the leader over the runner-up; NAN without */
	enum comparison_verdict verdict;
	const char *words;           /* "1.02x [1.01x, 1.03x] over gcc/-O2/native: a real lead", or the note */
};

/* The portable build on one machine: its throughput over the machine's fastest. */
struct macross_loss {
	const char *machine;
	double ratio, low, high; /* 1 where it is the fastest; NAN ends without an interval */
	enum comparison_verdict verdict;
	int best;                /* it is that machine's fastest build */
};

/* A build left out of the portable choice: not measured ok on one machine. */
struct macross_left {
	const char *config, *machine, *status; /* status: "absent" where the run lacks the cell */
};

struct macross_portable {
	const char *config;      /* NULL: no build qualifies */
	double worst;            /* the smallest ratio to a machine's fastest (1: the fastest everywhere) */
	const char *worst_machine;
	struct macross_loss *loss; /* per machine, in the view's order */
	struct macross_left *left; /* candidates left out, by machine and status */
	size_t nleft;
	const char *words;       /* "gcc/-O2/x86-64-v2: within 16 % of the best on both: ..." or why there is none */
	const char *left_words;  /* "timeout on 2700: clang/-O2/x86-64-v2; ...", or NULL */
	const char *contrast;    /* what each machine's own fastest costs elsewhere, or NULL */
};

/* One gap of one variant on every machine that measured both builds. */
struct macross_gap {
	const char *variant;
	struct macross_on *on;
	size_t n;
	enum across_kind kind;
	double spread;           /* |log| of the largest over the smallest ratio */
	const char *words;       /* "1.16x on 5700X, 0.58x on J4205: depends on the machine" */
};

/* B against A where the two configurations differ in one part, per variant. */
struct macross_group {
	const char *a, *b, *context; /* "-O2", "-O3", "gcc/x86-64-v2" (the parts that vary elsewhere) */
	const char *name;            /* "-O3 against -O2 (gcc/x86-64-v2)" */
	struct macross_gap *v;
	size_t n;
	enum across_kind kind;       /* the most a variant of it does */
	double largest;              /* the largest spread of a variant that flips (or holds on some only) */
	const char *words;           /* the line: "depends on the machine for base (...), simd (...); ..." */
};

struct macross_variant {
	const char *variant;
	const char *skipped;     /* why it is not compared across machines, or NULL */
	struct macross_machine *machines;
	size_t nmachines;
	int agree;               /* no gap flips between the machines */
	int same_leader;         /* every machine's fastest is one configuration */
	const char *words;       /* "the machines agree: ..." or "depends on the machine: ..." */
	struct macross_gap **flips; /* its gaps that flip, largest first */
	const char **flip_names; /* their groups' names */
	size_t nflips;
	struct macross_portable portable;
};

struct macross {
	const char **machines;
	size_t nmachines;
	const char *summary;     /* "across 5700X and J4205: the machines agree on 1 of 3 variants" */
	const char *note;        /* what was left out: suites, machines without the family, -march=native; or NULL */
	struct macross_variant *v;
	size_t nv;
	struct macross_group *groups; /* those that flip first, largest first; then held on some only; then agreed */
	size_t ngroups;
};

/* Fills fam->across from fs[0..n), the family in each run that has it
 * (labels: the runs' column labels); nothing with fewer than 2 runs. */
void model_across(struct model *m, struct mfamily *fam, struct fsrc *fs, const char **labels, size_t n);
/* The sentence on the level every answer of the view is shown at. */
const char *model_across_level(struct model *m);

#endif
