/* eta.c: see eta.h */
#include "driver/eta.h"

#include "pipeline/schedule.h"

static unsigned at_most(unsigned a, unsigned b)
{
	return a < b ? a : b;
}

static unsigned at_least(unsigned a, unsigned b)
{
	return a > b ? a : b;
}

unsigned eta_expected_runs(const struct eta_policy *p, const struct eta_cell *c, double per_run_s)
{
	if (c->emulated)
		return at_most(p->runs, p->emulated_runs);
	unsigned most = at_least(p->max_runs, p->runs), want = p->runs;
	if (p->precision <= 0 || per_run_s <= 0)
		return want;
	/* the runs a 95 % interval needs, within SCHEDULE_LEVEL_BUDGETS budgets
	 * (schedule_wants_more), then the precision target within one budget:
	 * reached somewhere between there and the budget's end, counted
	 * halfway, which is within 2x either way */
	double level = SCHEDULE_LEVEL_BUDGETS * p->cell_budget / per_run_s, budget = p->cell_budget / per_run_s;
	unsigned need = level < (double)p->runs_for_rerun ? (unsigned)level + 1 : p->runs_for_rerun;
	want = at_least(want, need);
	if (budget > (double)want) {
		double top = budget < (double)most ? budget : (double)most;
		want = (unsigned)(((double)want + top) / 2);
	}
	return at_most(want, most);
}

/* What a cell that still wants runs after those expected takes: half the
 * way to its budget's end; past its budget it is an answer still open
 * (analysis/undecided.h), which mostly stays open to its end,
 * SCHEDULE_UNDECIDED_BUDGETS budgets (or max_runs): all the way there. */
static double past_expected(const struct eta_policy *p, const struct eta_cell *c, double own)
{
	unsigned most = at_least(p->max_runs, p->runs);
	if (p->precision <= 0 || c->emulated || c->state != ETA_MEASURING || c->runs >= most)
		return 0;
	int open = c->spent_s >= p->cell_budget;
	double end = open ? SCHEDULE_UNDECIDED_BUDGETS * p->cell_budget : p->cell_budget;
	double by_budget = c->spent_s < end ? (end - c->spent_s) / own : 0;
	double cap = by_budget < (double)(most - c->runs) ? by_budget : (double)(most - c->runs);
	return open ? cap : cap / 2;
}

/* The share of cells whose answer stays open past their budget: of the
 * cells whose fate is known (past their budget, or done within it), those
 * past it; ETA_OPEN_PRIOR before any is known.  (A quick run here: 76 of
 * 115 cells went on to 2 budgets, and an eta that left them out said 45 s
 * with 111 s to go.) */
#define ETA_OPEN_PRIOR 0.5
static double open_share(const struct eta_policy *p, const struct eta_cell *cells, size_t n)
{
	size_t open = 0, known = 0;
	for (size_t i = 0; i < n && p->precision > 0; i++) {
		const struct eta_cell *c = &cells[i];
		if (c->emulated || !c->runs)
			continue;
		if (c->spent_s >= p->cell_budget)
			open++, known++;
		else if (c->state == ETA_DONE)
			known++;
	}
	return known ? (double)open / (double)known : ETA_OPEN_PRIOR;
}

/* The runs beyond its budget that a cell not yet past it may still get,
 * weighed by the share of cells that do. */
static double open_runs(const struct eta_policy *p, const struct eta_cell *c, double own, unsigned want, double share)
{
	unsigned most = at_least(p->max_runs, p->runs);
	if (p->precision <= 0 || c->emulated || c->spent_s >= p->cell_budget || own <= 0 || want >= most)
		return 0;
	double more = (SCHEDULE_UNDECIDED_BUDGETS - 1) * p->cell_budget / own;
	return share * (more < (double)(most - want) ? more : (double)(most - want));
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
	double left = 0, share = open_share(p, cells, n);
	for (size_t i = 0; i < n; i++) {
		const struct eta_cell *c = &cells[i];
		if (c->state == ETA_DONE)
			continue;
		/* a cell's own seconds per run once it has runs, else the run's */
		double own = c->runs ? c->spent_s / c->runs : (per_run - extra) / ratio;
		unsigned want = eta_expected_runs(p, c, own);
		double more = want > c->runs ? (double)(want - c->runs) : past_expected(p, c, own);
		more += open_runs(p, c, own, want > c->runs ? want : c->runs, share);
		left += more * (own * ratio + extra);
		if (!c->runs)
			left += pause;
		if (c->state == ETA_TO_VERIFY)
			left += verify;
	}
	return left;
}
