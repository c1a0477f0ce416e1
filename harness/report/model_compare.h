/* model_compare.h: every "faster" the tables say, through the one comparison.
 *
 * A table cell stands for a configuration of a variant: one results.json
 * cell, or, with --layouts K, the K cells of its layouts (a group).  Each
 * ratio the tables print (speedup, against, vs_glibc, compilers), each
 * lead the answer names and each heatmap colour group asks
 * model_compare() for B against A; the comparison itself is
 * analysis/comparison.h's, on each side's run times per unit of work (so
 * cells of different sizes compare by throughput), with their rounds,
 * pass and layout: paired where both ran in the same rounds, across
 * layouts where both have several, the same binary where their programs
 * are the same (pipeline/plan.h's program_id).  Asked twice, in either order, the same pair is one
 * comparison.
 *
 * The run's error rate.  A run asks many questions at once; at 95 % each,
 * one pair of identical builds in twenty would be called a lead.  The
 * model is built twice: the first pass collects every comparison (at
 * 95 %), model_compare_settle() applies Benjamini-Hochberg to their
 * p-values at MODEL_FALSE_LEAD_RATE, and the second pass shows every
 * interval at the level that gives (1 - R alpha / m for R leads of m),
 * so a lead is called real exactly when its printed interval excludes
 * 1.00x, and among the leads called the expected share of false ones is
 * at most 5 %.
 */
#ifndef FLAGBENCH_MODEL_COMPARE_H
#define FLAGBENCH_MODEL_COMPARE_H

#include "analysis/comparison.h"
#include "report/model_cells.h"

#define MODEL_FALSE_LEAD_RATE 0.05

/* A configuration of a variant as a table shows it: its cells, one per layout. */
struct mgroup {
	struct results_cell **cells;
	size_t n;
};

/* B against A, as the tables show it: B's throughput over A's. */
struct mview {
	double ratio, low, high; /* throughput of B / A, and its interval; NAN without */
	double level;            /* of the interval */
	enum comparison_verdict verdict; /* FASTER: B is faster */
	enum comparison_method method;
	size_t pairs, layouts;
	double layout_spread;    /* sd of the layouts' log ratios; NAN without layouts */
	/* the chance a second run calls the lead real again (comparison_repeat_chance):
	 * for a real lead, or for an inconclusive one the chance it turns real; else NAN */
	double repeat;
	/* where the host had a stream's two CPUs (analysis/comparison.h): the
	 * state compared within (COMPARISON_ACROSS_STATES: none had the runs;
	 * 0: not known), and how many states the run found (0 or 1: nothing
	 * to say) */
	unsigned state, states;
};

/* A real lead whose chance to repeat (struct mview's repeat) is below
 * MODEL_REPEAT_SURE may not repeat: the rule the answers, the gaps, the
 * family's line and the JSON say it by (comparison_may_flip, which also
 * says an inconclusive one may turn real). */
#define MODEL_REPEAT_SURE COMPARISON_REPEAT_SURE
int model_repeat_unsure(enum comparison_verdict verdict, double repeat);
/* The chance in whole percent, never 100 or 0 for a chance short of sure. */
double model_repeat_percent(double repeat);
/* "; a second run calls it real about 60 % of the time" for a real lead
 * that may not repeat or an inconclusive one that may turn real; else "". */
void model_repeat_words(enum comparison_verdict verdict, double repeat, char *buf, size_t n);

/* The cells of variant in config (with layouts, all of them), or n 0. */
struct mgroup model_group(struct model *m, struct fsrc *f, const char *variant, const char *config);
struct mgroup model_group_of(struct model *m, struct fsrc *f, struct results_cell *c);
/* Whether two cells ran the same program (pipeline/plan.h's program_id,
 * from their records: results/reader.h program_id_from_record), as
 * compare and the run's dedupe decide it: asks no comparison, so counts
 * in no error rate.  With layouts, a group's program is its first cell's. */
int model_same_binary(struct fsrc *f, const struct results_cell *a, const struct results_cell *b);
/* B against A: 0 with *v filled, -1 when either side has no runs to compare. */
int model_compare(struct model *m, struct fsrc *f, struct mgroup a, struct mgroup b, struct mview *v);
/* A table's ratio cell: a's throughput over b's, with the comparison's
 * interval, verdict and marks (≡ the same binary, ~ not a real
 * difference); b against itself is exactly 1.00x. */
struct mcell model_ratio(struct model *m, struct fsrc *f, struct results_cell *a, struct results_cell *b);
/* A table's value cell for the configuration of c: with layouts, the
 * geometric mean of its layouts' figures, a 95 % t interval of that mean
 * over the layouts, and their spread. */
struct mcell model_config_value(struct model *m, struct fsrc *f, struct results_cell *c);
/* After the first pass: the run's level from all comparisons asked. */
void model_compare_settle(struct model *m);
/* "a real lead", "not a real lead (the interval holds 1.00x)", "the same binary", ... */
const char *model_verdict_words(const struct mview *v);
void model_compare_free(struct model *m);

#endif
