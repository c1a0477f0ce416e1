/* explain_measure.c: see explain_measure.h. */
#define _GNU_SOURCE
#include "driver/explain_measure.h"

#include <math.h>
#include <stdlib.h>

#include "analysis/compare.h"
#include "core/runcmd.h"
#include "pipeline/counters.h"
#include "pipeline/records.h"
#include "pipeline/schedule.h"
#include "pipeline/session.h"

int explain_rep(const struct explain *e, int i)
{
	if (i < 0)
		return -1;
	const struct cell *c = &e->plan.cells[i];
	return c->build.same_binary_as >= 0 ? c->build.same_binary_as : i;
}

int explain_measurable(const struct explain *e, size_t i)
{
	const struct cell *c = &e->plan.cells[i];
	return c->status == CELL_PENDING && c->build.same_binary_as < 0;
}

/* Instructions per unit of distinct, verified binary i, as counted. */
void explain_take_count(struct explain *e, size_t i)
{
	struct cell *c = &e->plan.cells[i];
	const struct cell_counters *kc = &c->measure.counters;
	if (kc->state == COUNTERS_COUNTED && isfinite(kc->instructions_per_unit)) {
		double v = kc->instructions_per_unit;
		e->val[i] = (struct metric_value){ v, v, v };
		c->status = CELL_OK;
	} else {
		cell_set_status(c, CELL_UNSUPPORTED, "not counted: %s", kc->why ? kc->why : "no instruction count");
	}
}

/* Instructions per unit of every distinct, verified binary in [from, n). */
void explain_take_counts(struct explain *e, size_t from)
{
	for (size_t i = from; i < e->plan.n && !fb_interrupted; i++)
		if (explain_measurable(e, i))
			explain_take_count(e, i);
}

/* The cells of a time_cells schedule: those still pending or ok are timed. */
struct timing {
	struct explain *e;
	const int *list;
};

static int admit_timed(void *ctx, size_t k)
{
	const struct timing *t = ctx;
	enum cell_status st = t->e->plan.cells[t->list[k]].status;
	return st == CELL_PENDING || st == CELL_OK ? 0 : -1;
}

static void timed_done(void *ctx, size_t k, enum schedule_end end, double spent_s)
{
	(void)spent_s;
	struct timing *t = ctx;
	struct cell *c = &t->e->plan.cells[t->list[k]];
	const struct stats *s = &c->measure.time;
	if (end == SCHEDULE_MEASURED && s->n && !fb_interrupted) {
		c->status = CELL_OK;
		t->e->val[t->list[k]] = (struct metric_value){ s->median, s->ci_low, s->ci_high };
	}
}

/* Times every distinct, verified binary in the list through the
 * scheduler, in rounds in the list's order, so that drift (heat, other
 * load) spreads over all of them and each run has the round it pairs by;
 * a second schedule's rounds follow the first's. */
void explain_time_cells(struct explain *e, const int *list, size_t n, const char *work, const char *hyperfine)
{
	struct cell **cells = xcalloc(n + 1, sizeof(*cells));
	for (size_t k = 0; k < n; k++)
		cells[k] = &e->plan.cells[list[k]];
	struct timing t = { e, list };
	struct schedule_listed l = {
		.x = e->session.x,
		.hyperfine = hyperfine,
		.workdir = work,
		.run_timeout_s = e->session.lim.run_s,
		.round_base = e->rounds_done,
		.runs = e->o->runs ? e->o->runs : 5,
		.warmup = e->o->warmup,
		.hooks = { .ctx = &t, .admit = admit_timed, .done = timed_done },
		.handoff = session_handoff(&e->session),
	};
	schedule_listed_run(cells, n, &l);
	e->rounds_done += l.runs;
	free(cells);
}

/* B / A of two plan cells' figures by the comparison (comparison.h):
 * times paired over the rounds they shared, counts as points. */
int explain_compare_cells(const struct explain *e, int a, int b, struct comparison_result *out)
{
	struct comparison_policy pol;
	compare_policy(&pol, 0, 0.5, 2000, 1, 0.95);
	struct cell *ca = &e->plan.cells[a], *cb = &e->plan.cells[b];
	if (e->metric != METRIC_INSTRUCTIONS)
		return compare_cell_groups(&ca, 1, &cb, 1, &pol, out);
	struct program_id pa, pb;
	program_id_from_cell(&pa, ca);
	program_id_from_cell(&pb, cb);
	int v = comparison_counts(e->val[a].v, e->val[b].v, &pa, &pb, &pol, out);
	program_id_clear(&pa);
	program_id_clear(&pb);
	return v;
}

/* ln(m(x) / m(y)) / gap with its interval, from the comparison of x to
 * y; *v NAN when they cannot be compared. */
void explain_share(const struct explain *e, int x, int y, double *v, double *lo, double *hi,
		  enum comparison_verdict *verdict)
{
	*v = *lo = *hi = NAN;
	if (verdict)
		*verdict = VERDICT_NO_DATA;
	int rx = explain_rep(e, x), ry = explain_rep(e, y);
	struct comparison_result c;
	if (rx < 0 || ry < 0 || !isfinite(e->val[rx].v) || !isfinite(e->val[ry].v) || !isfinite(e->gap) ||
	    e->gap == 0)
		return;
	if (rx == ry) {
		*v = *lo = *hi = 0; /* the same binary: no share */
		return;
	}
	if (explain_compare_cells(e, ry, rx, &c) < 0)
		return;
	*v = log(c.ratio) / e->gap;
	double s1 = log(c.low) / e->gap, s2 = log(c.high) / e->gap;
	*lo = s1 < s2 ? s1 : s2;
	*hi = s1 < s2 ? s2 : s1;
	if (verdict)
		*verdict = c.verdict;
}

/* The gap ln(m(A) / m(B)), from the comparison of B to A. */
void explain_measure_gap(struct explain *e)
{
	struct comparison_result c;
	int ra = explain_rep(e, e->a), rb = explain_rep(e, e->b);
	e->gap = NAN;
	if (isfinite(e->val[ra].v) && isfinite(e->val[rb].v) && explain_compare_cells(e, ra, rb, &c) == 0)
		e->gap = -log(c.ratio);
}

int explain_share_meaningless(double lo, double hi)
{
	return isfinite(lo) && isfinite(hi) && hi - lo > 1;
}


int explain_share_carries(int timed, double gap, double v, enum comparison_verdict verdict)
{
	if (!isfinite(v) || v < 0.05)
		return 0;
	return !timed || verdict == (gap > 0 ? VERDICT_SLOWER : VERDICT_FASTER);
}
