/* tune_budget.h: what a tune's budget buys, and what a search needs.
 *
 * Before it searches, tune measures what one candidate costs (its
 * compile, its run through the family's check, its screen: a count, or its
 * share of a batch's timed rounds) and says what the budget buys: a
 * candidate takes hours where a compile takes a minute, and a search that
 * cannot reach its first -O level within the budget is worth knowing
 * about before it starts (driver/tune_probe.h prints it).  Pure
 * arithmetic, no measurement.
 *
 * A batch builds its candidates --jobs compilers at once (pipeline/build.h),
 * checks them one after the other, and screens them: a count --jobs at
 * once (counts are exact under load), a time alone (no timed run ever
 * overlaps a compile or another measurement):
 *   batch_s = W x build_s + batch x check_s + (W or batch) x screen_s,
 *   W = ceil(batch / jobs), the waves of --jobs
 * A time budget runs batches while any is left, so the last one ends past
 * it: ceil(budget / batch_s) batches.  A count budget runs ceil(N / batch)
 * batches, the last one short.
 *
 * What a search needs to do better than chance: its seeds (tune_search.h:
 * the -O levels other than the start's and the single flags and params in
 * which they differ from it, what is known to matter) and then
 * TUNE_NEEDED_ROUNDS uses of each of the ensemble's TUNE_OPERATORS
 * operators, the fewest after which its bandit has credited one operator
 * over another.  Before that, what it proposes is no better informed than
 * a random draw from the space.
 *
 * Whether a counting screen ranks builds as time does: the pairs that
 * time tells apart (paired over rounds) in the other order than their
 * instruction counts (tune_rank_disagreements).
 */
#ifndef FLAGBENCH_TUNE_BUDGET_H
#define FLAGBENCH_TUNE_BUDGET_H

#include <stddef.h>

#include "analysis/comparison.h"

#define TUNE_NEEDED_ROUNDS 3
#define TUNE_OPERATORS 5

/* What one candidate costs, in seconds of wall time. */
struct tune_cost {
	double build_s;  /* one compile */
	double check_s;  /* one run through the family's check */
	double screen_s; /* its count, or its share of its batch's timed rounds */
	int screen_in_waves; /* counts: --jobs at once, like the compiles */
};

struct tune_budget_plan {
	unsigned jobs, batch;
	double candidate_s;      /* build + check + screen */
	double batch_s;          /* one full batch */
	unsigned batches;        /* what the budget runs */
	unsigned candidates;     /* the candidates those batches hold */
	double seconds;          /* and how long they take */
	double per_minute;       /* candidates a minute */
	double compile_per_minute; /* jobs x one compile's rate: what the compilers alone allow */
};

/* The smallest multiple of jobs that is 4 or more: a batch keeps every
 * compiler busy, and is large enough for the bandit to try several ops. */
unsigned tune_default_batch(unsigned jobs);

/* Seconds that n candidates take in batches of batch with jobs compilers. */
double tune_budget_seconds(const struct tune_cost *c, unsigned jobs, unsigned batch, size_t n);

/* What budget_s seconds (or budget_candidates candidates, when budget_s
 * is 0) buy, per technique. */
void tune_budget_plan(const struct tune_cost *c, unsigned jobs, unsigned batch, double budget_s,
		      unsigned budget_candidates, struct tune_budget_plan *out);

/* The candidates a search with nseeds seeds needs to do better than chance. */
size_t tune_candidates_needed(size_t nseeds);

/* The rounds a check of n builds by time needs (tune_screen.h): the
 * paired comparison's sign-test interval of k pairs reaches at most
 * 1 - 2^(1-k), and each of the n(n-1)/2 pairs is asked at the Bonferroni
 * level 1 - 0.05 / pairs, so fewer rounds than this can decide nothing:
 * 7 for 3 builds, 8 for 4, 10 for 6. */
unsigned tune_check_rounds(size_t n);

/* Of n builds with instruction counts counts[], the pairs whose order by
 * time (verdict[a * n + b]: b against a, paired) is decided the other way:
 * b faster while it counts more, or slower while it counts fewer.  How
 * many; the first such pair in *a, *b (may be NULL). */
size_t tune_rank_disagreements(const double *counts, const enum comparison_verdict *verdict, size_t n, size_t *a,
			       size_t *b);

#endif
