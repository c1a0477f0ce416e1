/* tune_budget.c: see tune_budget.h */
#include "analysis/tune_budget.h"

#include <math.h>

unsigned tune_default_batch(unsigned jobs)
{
	if (!jobs)
		jobs = 1;
	return jobs * ((4 + jobs - 1) / jobs);
}

/* One batch of k candidates. */
static double batch_seconds(const struct tune_cost *c, unsigned jobs, size_t k)
{
	size_t waves = (k + jobs - 1) / jobs;
	return (double)waves * c->build_s + (double)k * c->check_s +
	       (double)(c->screen_in_waves ? waves : k) * c->screen_s;
}

double tune_budget_seconds(const struct tune_cost *c, unsigned jobs, unsigned batch, size_t n)
{
	if (!jobs)
		jobs = 1;
	if (!batch)
		batch = 1;
	size_t full = n / batch, rest = n % batch;
	return (double)full * batch_seconds(c, jobs, batch) + (rest ? batch_seconds(c, jobs, rest) : 0);
}

void tune_budget_plan(const struct tune_cost *c, unsigned jobs, unsigned batch, double budget_s,
		      unsigned budget_candidates, struct tune_budget_plan *out)
{
	if (!jobs)
		jobs = 1;
	if (!batch)
		batch = 1;
	out->jobs = jobs;
	out->batch = batch;
	out->candidate_s = c->build_s + c->check_s + c->screen_s;
	out->batch_s = batch_seconds(c, jobs, batch);
	if (budget_s > 0) {
		/* a batch starts while any budget is left */
		double b = out->batch_s > 0 ? ceil(budget_s / out->batch_s) : 1;
		out->batches = b < 1 ? 1 : b > 1e6 ? 1000000 : (unsigned)b;
		out->candidates = out->batches * batch;
		out->seconds = out->batches * out->batch_s;
	} else {
		out->candidates = budget_candidates;
		out->batches = (budget_candidates + batch - 1) / batch;
		out->seconds = tune_budget_seconds(c, jobs, batch, budget_candidates);
	}
	out->per_minute = out->batch_s > 0 ? 60.0 * batch / out->batch_s : INFINITY;
	out->compile_per_minute = c->build_s > 0 ? 60.0 * jobs / c->build_s : INFINITY;
}

size_t tune_candidates_needed(size_t nseeds)
{
	return nseeds + TUNE_NEEDED_ROUNDS * TUNE_OPERATORS;
}

size_t tune_rank_disagreements(const double *counts, const enum comparison_verdict *verdict, size_t n, size_t *a,
			       size_t *b)
{
	size_t bad = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++) {
			if (!isfinite(counts[i]) || !isfinite(counts[j]))
				continue;
			enum comparison_verdict v = verdict[i * n + j];
			int wrong = (v == VERDICT_FASTER && counts[j] > counts[i]) ||
				    (v == VERDICT_SLOWER && counts[j] < counts[i]);
			if (!wrong)
				continue;
			if (!bad) {
				if (a)
					*a = i;
				if (b)
					*b = j;
			}
			bad++;
		}
	return bad;
}

unsigned tune_check_rounds(size_t n)
{
	double pairs = n > 1 ? (double)n * (double)(n - 1) / 2 : 1;
	unsigned k = 2;
	/* the smallest k with 2^(1-k) <= 0.05 / pairs */
	while (ldexp(1.0, 1 - (int)k) > 0.05 / pairs && k < 64)
		k++;
	return k;
}
