/* eta.c: see eta.h */
#include "driver/eta.h"

#include <math.h>
#include <stdlib.h>

#include "core/util.h"
#include "pipeline/schedule.h"

static unsigned at_most(unsigned a, unsigned b)
{
	return a < b ? a : b;
}

static unsigned at_least(unsigned a, unsigned b)
{
	return a > b ? a : b;
}

/* Where a cell with `own` seconds a run stands against the stop rules
 * (schedule_wants_more): the runs it must have (--runs, and the runs a 95 %
 * interval needs within SCHEDULE_LEVEL_BUDGETS budgets), the run at which
 * its budget is spent, and the end of an open answer's budgets
 * (schedule_open_budget_left), all within max_runs. */
struct marks {
	unsigned need, budget, open_end;
};

/* the run at which `seconds` of runs of `own` each are spent */
static unsigned runs_for(double seconds, double own)
{
	double r = ceil(seconds / own - 1e-9);
	return r > 1e7 ? 10000000u : (unsigned)r;
}

/* The checks for content a cell with `runs` has passed: one after each
 * run from the runs it must have up to its budget. */
static unsigned chances_of(const struct marks *m, unsigned runs)
{
	return runs >= m->need ? at_most(runs, m->budget) - m->need + 1 : 0;
}

static struct marks marks_of(const struct eta_policy *p, double own)
{
	unsigned most = at_least(p->max_runs, p->runs);
	double level = SCHEDULE_LEVEL_BUDGETS * p->cell_budget / own;
	unsigned need = level < (double)p->runs_for_rerun ? (unsigned)level + 1 : p->runs_for_rerun;
	struct marks m;
	m.need = at_most(at_least(need, p->runs), most);
	m.budget = at_most(at_least(runs_for(p->cell_budget, own), m.need), most);
	/* schedule_open_budget_left: the open budgets, or the runs for 95 %
	 * within the level budgets and the open ones together */
	unsigned open_level = at_most(runs_for((SCHEDULE_LEVEL_BUDGETS + SCHEDULE_UNDECIDED_BUDGETS) * p->cell_budget, own),
				      p->runs_for_rerun);
	unsigned open_end = at_least(runs_for(SCHEDULE_UNDECIDED_BUDGETS * p->cell_budget, own), open_level);
	m.open_end = at_most(at_least(open_end, m.budget), most);
	return m;
}

/* How cells stop, learnt from this run so far.  A cell whose answer is
 * open (analysis/undecided.h) takes runs to the end of its open budgets,
 * whatever its precision; any other cell, once it has the runs it must
 * have, may be content after each run (its precision reached), and stops
 * at its budget at the latest.  So a cell is one of two kinds, and its
 * runs say which only in part: past its budget it is open; stopped before
 * it, it was not; still short of it, either (censored).  `open` (the share
 * of open answers) and `content` (the chance per run of being content)
 * are their maximum-likelihood values for that mixture, by EM, each with a
 * prior worth one cell: one answer in two open, one cell in two content by
 * its budget.  A share counted over finished cells alone reads the early
 * finishers only: half way through a quick run it said "eta 22s" with 51 s
 * to go. */
struct stopping {
	double open, content;
};

/* what one cell's runs say, for learn() */
struct seen {
	enum { SEEN_OPEN, SEEN_NOT_OPEN, SEEN_SHORT } kind;
	double chances; /* checks after the runs it must have, up to its budget */
};

static double own_seconds(const struct eta_cell *c, double fallback)
{
	return c->runs && c->spent_s > 0 ? c->spent_s / c->runs : fallback;
}

static struct stopping learn(const struct eta_policy *p, const struct eta_cell *cells, size_t n)
{
	struct stopping st = { 0.5, 0 };
	struct seen *seen = xcalloc(n + 1, sizeof(*seen));
	size_t k = 0;
	unsigned most = at_least(p->max_runs, p->runs);
	double spans = 0, stops = 1; /* the prior's stop */
	for (size_t i = 0; i < n && p->precision > 0; i++) {
		const struct eta_cell *c = &cells[i];
		if (c->emulated || !c->runs || !(c->spent_s > 0))
			continue;
		double own = c->spent_s / c->runs;
		struct marks m = marks_of(p, own);
		int past_budget = c->spent_s >= p->cell_budget, done = c->state == ETA_DONE;
		struct seen *e = &seen[k++];
		spans += m.budget > m.need ? m.budget - m.need : 1;
		/* a cell that is not open stops within a run of its budget */
		e->kind = past_budget && (!done || c->spent_s >= p->cell_budget + own) ? SEEN_OPEN
			  : done							   ? SEEN_NOT_OPEN
										   : SEEN_SHORT;
		e->chances = chances_of(&m, c->runs);
		/* content: stopped short of its budget and of max_runs */
		stops += done && !past_budget && c->runs < most && c->runs >= m.need;
	}
	/* the prior's chances: one cell in two content over a typical span */
	double prior = 1 / (1 - pow(0.5, 1 / (k ? spans / (double)k : 1)));
	st.content = 1 / prior;
	/* EM: weigh each censored cell by how likely it is open, refit both */
	for (int iter = 0; iter < 30 && k; iter++) {
		double open = 0.5, chances = prior; /* the prior's half open cell, and its chances */
		for (size_t i = 0; i < k; i++) {
			const struct seen *e = &seen[i];
			double w = e->kind == SEEN_OPEN;
			if (e->kind == SEEN_SHORT) {
				double went_on = pow(1 - st.content, e->chances);
				w = st.open / (st.open + (1 - st.open) * went_on);
			}
			open += w;
			chances += (1 - w) * e->chances;
		}
		st.open = open / (double)(k + 1);
		st.content = stops / chances;
	}
	free(seen);
	return st;
}

/* The runs a cell not done yet is expected to take from here: open, to
 * the end of its open budgets; else those it must have, then each only
 * while it is not content, to its budget.  Open or not is weighed by what
 * its runs so far say (learn()). */
static double runs_left(const struct eta_policy *p, const struct eta_cell *c, double own, const struct stopping *st)
{
	unsigned k = c->runs;
	if (c->emulated) {
		unsigned want = at_most(p->runs, p->emulated_runs);
		return k < want ? want - k : 0;
	}
	if (p->precision <= 0 || own <= 0)
		return k < p->runs ? p->runs - k : 0;
	struct marks m = marks_of(p, own);
	double content = st->content;
	double went_on = pow(1 - content, chances_of(&m, k));
	double open = c->spent_s >= p->cell_budget ? 1 : st->open / (st->open + (1 - st->open) * went_on);
	double if_open = m.open_end > k ? m.open_end - k : 0, if_not = 0;
	if (k < m.need)
		if_not += m.need - k;
	unsigned from = k + 1 > m.need + 1 ? k + 1 : m.need + 1;
	if (c->spent_s < p->cell_budget && m.budget >= from) {
		/* the first run from here is certain when it is past the runs it
		 * must have (it wants more), else after one check */
		double runs = m.budget - from + 1, first = k >= m.need ? 1 : 1 - content;
		if_not += first * (content > 0 ? (1 - pow(1 - content, runs)) / content : runs);
	}
	return open * if_open + (1 - open) * if_not;
}

double eta_estimate(const struct eta_policy *p, const struct eta_cell *cells, size_t n, const struct eta_history *h)
{
	double spent = 0;
	unsigned runs = 0;
	for (size_t i = 0; i < n; i++) {
		spent += cells[i].spent_s;
		runs += cells[i].runs;
	}
	/* hyperfine's and the meter's share, as measured so far: in rounds a
	 * batch is one run, so a cost per run; back to back, batches of many
	 * runs, so a proportion of their time */
	double extra = p->rounds && runs && h->measure_s > spent ? (h->measure_s - spent) / runs : 0;
	double ratio = !p->rounds && spent > 0 && h->measure_s > spent ? h->measure_s / spent : 1;
	double per_run = runs ? h->measure_s / runs : h->verified ? h->verify_s / (double)h->verified : -1;
	if (per_run < 0)
		return -1;
	double verify = h->verified ? h->verify_s / (double)h->verified : per_run;
	double pause = h->paused ? h->cooldown_s / (double)h->paused : 0;
	struct stopping st = learn(p, cells, n);
	double left = 0;
	for (size_t i = 0; i < n; i++) {
		const struct eta_cell *c = &cells[i];
		if (c->state == ETA_DONE)
			continue;
		/* a cell's own seconds per run once it has runs, else the run's */
		double own = own_seconds(c, (per_run - extra) / ratio);
		left += runs_left(p, c, own, &st) * (own * ratio + extra);
		if (!c->runs)
			left += pause;
		if (c->state == ETA_TO_VERIFY)
			left += verify;
	}
	return left;
}

double eta_cell_planned(const struct eta_policy *p, int emulated, double run_s, double pause_s)
{
	struct eta_cell c = { .state = ETA_TO_VERIFY, .emulated = emulated };
	struct stopping st = learn(p, &c, 1); /* no runs: the priors */
	return runs_left(p, &c, run_s, &st) * run_s + run_s + pause_s;
}
