/* model_evidence.c: see model_evidence.h */
#define _GNU_SOURCE
#include "report/model_evidence.h"

#include <math.h>
#include <string.h>

#include "core/json_util.h"
#include "core/util.h"

/* default of --precision (driver/run_options.c) where a record has none */
#define DEFAULT_TARGET 3.0

static double target_of(const struct results_cell *c)
{
	double t = c ? c->precision_target : NAN;
	return t > 0 ? t : DEFAULT_TARGET;
}

/* The runs a cell had and the seconds of one (its statistic's). */
static void runs_of(const struct results_cell *c, double *n, double *per_run)
{
	*n = c ? (double)c->time.nruns : 0;
	/* value: the run's statistic; median: runs written before it existed */
	*per_run = !c ? 0 : !isnan(c->time.value) ? c->time.value : isnan(c->time.median) ? 0 : c->time.median;
}

static void counts(const struct results_cell *ca, const struct results_cell *cb, const char *la, const char *lb,
		   const struct mview *v, struct mevidence *e, struct strbuf *sb)
{
	double ia = ca ? ca->instructions_per_unit : NAN, ib = cb ? cb->instructions_per_unit : NAN;
	/* counting was asked and could not be done: say why, so a reader does
	 * not take the missing counts for counts that agree */
	const char *why = ca && ca->counters_skipped ? ca->counters_skipped : cb ? cb->counters_skipped : NULL;
	if ((!(ia > 0) || !(ib > 0)) && why && v->verdict != VERDICT_FASTER)
		sb_addf(sb, "no exact counts: %s", why);
	if (!(ia > 0) || !(ib > 0))
		return;
	e->count_ratio = ib / ia;
	double d = fabs(ib - ia) / (ia > ib ? ib : ia);
	if (d < EVIDENCE_SAME_COUNT) {
		sb_addf(sb, "by instructions (exact): %s and %s run the same count", la, lb);
		return;
	}
	/* the build with fewer named first, by the share of the larger count
	 * it saves: "gcc/-O2 runs 5.4 % fewer than clang/-O2" */
	sb_addf(sb, "by instructions (exact): %s runs %.1f %% fewer than %s", ia < ib ? la : lb,
		100 * fabs(ib - ia) / (ia > ib ? ia : ib), ia < ib ? lb : la);
	e->disagree = v->verdict == VERDICT_FASTER && ia > ib;
	if (e->disagree)
		sb_adds(sb, ": time and counts disagree (counts are not time: memory, branches and vector width weigh "
			    "each instruction differently)");
}

static void time_needed(const struct results_cell *ca, const struct results_cell *cb, const struct mview *v,
			struct mevidence *e, struct strbuf *sb)
{
	if (v->verdict != VERDICT_INCONCLUSIVE || !(v->ratio > 0) || isnan(v->low) || isnan(v->high))
		return;
	e->half = 100 * fmax(v->high / v->ratio - 1, 1 - v->low / v->ratio);
	e->target = target_of(ca);
	if (!(e->half > e->target))
		return;
	double na, nb, ta, tb;
	runs_of(ca, &na, &ta);
	runs_of(cb, &nb, &tb);
	double n = v->method == COMPARISON_PAIRED && v->pairs ? (double)v->pairs : fmin(na, nb);
	if (!(n > 0))
		return;
	double scale = (e->half / e->target) * (e->half / e->target);
	e->need_runs = ceil(n * scale);
	e->need_s = e->need_runs * fmax(ta > 0 ? ta : 0, tb > 0 ? tb : 0);
	char d[32];
	format_duration(e->need_s, d, sizeof(d));
	sb_addf(sb, "%stime could not decide (its interval reaches %.0f %% from the ratio): to reach %g %% would take "
		    "about %.0f runs a cell, %s for the slower one (--cell-budget)",
		sb->len ? "; " : "", e->half, e->target, e->need_runs, d);
}

void model_evidence(struct model *m, struct fsrc *f, const struct mcell *a, const struct mcell *b, const char *la,
		    const char *lb, const struct mview *v, struct mevidence *e)
{
	*e = (struct mevidence){ .count_ratio = NAN, .half = NAN, .target = NAN, .need_runs = NAN, .need_s = NAN };
	const struct results_cell *ca = model_cell_of(f, a), *cb = model_cell_of(f, b);
	struct strbuf sb = STRBUF_INIT;
	counts(ca, cb, la, lb, v, e, &sb);
	time_needed(ca, cb, v, e, &sb);
	if (sb.len)
		e->words = model_own(m, "%s", sb.buf);
	sb_release(&sb);
}
