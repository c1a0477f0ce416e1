/* model_compare.c: see model_compare.h */
#define _GNU_SOURCE
#include "report/model_compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/stats.h"

/* One comparison asked of the model: B against A, both sides' runs kept
 * so that model_compare_settle() can ask again at the run's level. */
struct mcmp {
	const struct results_cell *a0, *b0; /* the key: each group's first cell */
	struct comparison_side sa, sb;
	struct comparison_run *ra, *rb;
	struct program_id *pa, *pb; /* the sides' programs (their first cells') */
	double quantile;
	double thin_level; /* the lowest level a side's statistic reaches on its own runs */
	double ratio_drift; /* the run's (results/ratio_drift.h); 0 or NAN: none */
	struct comparison_result res;
};

struct mgroup model_group(struct model *m, struct fsrc *f, const char *variant, const char *config)
{
	struct mgroup g = { NULL, 0 };
	for (size_t i = 0; f && variant && i < f->n; i++)
		if (!strcmp(f->cells[i]->variant, variant) && !strcmp(f->cells[i]->config, config)) {
			if (!g.cells)
				g.cells = model_alloc(m, f->n * sizeof(*g.cells));
			g.cells[g.n++] = f->cells[i];
		}
	return g;
}

struct mgroup model_group_of(struct model *m, struct fsrc *f, struct results_cell *c)
{
	if (!c)
		return (struct mgroup){ NULL, 0 };
	struct mgroup g = model_group(m, f, c->variant, c->config);
	if (!g.n) { /* a reference standing in a column: itself */
		g.cells = model_alloc(m, sizeof(*g.cells));
		g.cells[g.n++] = c;
	}
	return g;
}

int model_same_binary(struct fsrc *f, const struct results_cell *a, const struct results_cell *b)
{
	struct program_id pa, pb;
	program_id_from_record(&pa, a);
	program_id_from_record(&pb, b);
	struct comparison_side sa = { .program = &pa }, sb = { .program = &pb };
	int same = comparison_same_binary(&sa, &sb);
	program_id_clear(&pa);
	program_id_clear(&pb);
	return same;
}

static void free_program(struct program_id *p)
{
	if (p)
		program_id_clear(p);
	free(p);
}

/* A side: every run of every cell of the group, as seconds per unit of
 * work (the cell's rate of its statistic times that statistic's time), so
 * two cells of different sizes compare by throughput; with its round,
 * pass and layout.  -1 when a cell is not ok or has no runs. */
static int side_of(struct fsrc *f, struct mgroup g, struct comparison_side *s, struct comparison_run **runs,
		   struct program_id **program, double *quantile, double *level)
{
	size_t n = 0, cap = 0;
	struct comparison_run *r = NULL;
	for (size_t k = 0; k < g.n; k++) {
		const struct results_cell *c = g.cells[k];
		if (c->status != CELL_OK)
			goto bad;
		const struct results_cell *mc = model_measured(f, c);
		struct stats st;
		if (isnan(mc->value) || !model_time_stats(mc, &st))
			goto bad;
		double work = mc->value * st.point;
		*quantile = st.quantile;
		if (st.ci_level < *level)
			*level = st.ci_level;
		if (!(work > 0)) {
			stats_free(&st);
			goto bad;
		}
		if (n + st.n > cap)
			r = xrealloc(r, (cap = 2 * (n + st.n)) * sizeof(*r));
		for (size_t i = 0; i < st.n; i++)
			r[n++] = (struct comparison_run){
				.seconds = st.runs[i] / work,
				.round = mc->nrounds == st.n && mc->rounds[i] >= 0 ? mc->rounds[i] : COMPARISON_UNKNOWN,
				.pass = (int)mc->pass,
				.layout = g.n > 1 ? (int)c->layout : COMPARISON_UNKNOWN,
				.state = mc->states ? mc->states[i] : 0,
			};
		stats_free(&st);
	}
	if (!n)
		goto bad;
	*runs = r;
	*program = xmalloc(sizeof(**program));
	program_id_from_record(*program, g.cells[0]);
	*s = (struct comparison_side){ .runs = r, .n = n, .program = *program };
	return 0;
bad:
	free(r);
	return -1;
}

static void compute(struct mcmp *k, double level)
{
	struct comparison_policy p = COMPARISON_POLICY_DEFAULT;
	p.quantile = k->quantile;
	p.level = level;
	p.ratio_drift = k->ratio_drift > 0 ? k->ratio_drift : 0;
	comparison_compute(&k->sa, &k->sb, &p, &k->res);
}

static struct mcmp *lookup(struct model *m, const struct results_cell *a0, const struct results_cell *b0, int *inverted)
{
	for (size_t i = 0; i < m->ncmps; i++) {
		struct mcmp *k = &m->cmps[i];
		if ((k->a0 == a0 && k->b0 == b0) || (k->a0 == b0 && k->b0 == a0)) {
			*inverted = k->a0 == b0 && a0 != b0;
			return k;
		}
	}
	return NULL;
}

static enum comparison_verdict flip(enum comparison_verdict v)
{
	return v == VERDICT_FASTER ? VERDICT_SLOWER : v == VERDICT_SLOWER ? VERDICT_FASTER : v;
}

int model_compare(struct model *m, struct fsrc *f, struct mgroup a, struct mgroup b, struct mview *v)
{
	*v = (struct mview){ NAN, NAN, NAN, NAN, VERDICT_NO_DATA, COMPARISON_NONE, 0, 0, NAN, NAN, 0, 0 };
	if (!a.n || !b.n)
		return -1;
	int inv = 0;
	struct mcmp *k = lookup(m, a.cells[0], b.cells[0], &inv);
	if (!k) {
		/* the run's own drift, or what its ratios of this kind moved
		 * from the machine's earlier runs, whichever is more */
		double between = results_between_drift(&f->run->between, a.cells[0]->family, a.cells[0]->variant,
						       b.cells[0]->variant);
		struct mcmp nk = { .a0 = a.cells[0], .b0 = b.cells[0], .quantile = 0.5, .thin_level = 1,
				   .ratio_drift = f->run->ratio_drift > between ? f->run->ratio_drift : between };
		if (side_of(f, a, &nk.sa, &nk.ra, &nk.pa, &nk.quantile, &nk.thin_level) < 0)
			return -1;
		if (side_of(f, b, &nk.sb, &nk.rb, &nk.pb, &nk.quantile, &nk.thin_level) < 0) {
			free(nk.ra);
			free_program(nk.pa);
			return -1;
		}
		compute(&nk, m->settled && m->cmp_level > 0 ? m->cmp_level : STATS_CI_TARGET);
		if (m->ncmps == m->acmps)
			m->cmps = xrealloc(m->cmps, (m->acmps = m->acmps ? 2 * m->acmps : 64) * sizeof(*m->cmps));
		k = &m->cmps[m->ncmps++];
		*k = nk;
	}
	const struct comparison_result *r = &k->res;
	/* a bootstrap of sides too thin for a 95 % interval of their own
	 * statistic would be sure of nothing it could know: no interval */
	if (r->method == COMPARISON_NONE || (r->method == COMPARISON_INDEPENDENT && k->thin_level < STATS_CI_TARGET))
		return -1;
	/* the comparison's ratio is of times B / A; the tables show throughput */
	v->ratio = inv ? r->ratio : 1 / r->ratio;
	v->low = inv ? r->low : 1 / r->high;
	v->high = inv ? r->high : 1 / r->low;
	v->level = r->level_reached < r->level ? r->level_reached : r->level;
	v->verdict = inv ? flip(r->verdict) : r->verdict;
	v->method = r->method;
	v->pairs = r->pairs;
	v->layouts = r->layouts;
	v->layout_spread = r->layout_spread;
	v->repeat = comparison_repeat_chance(r, 0);
	v->state = r->state;
	v->states = a.cells[0]->handoff_states > b.cells[0]->handoff_states ? a.cells[0]->handoff_states
										: b.cells[0]->handoff_states;
	return 0;
}

/* A comparison that tests something: not the same binary, not without an interval. */
static int asked(const struct mcmp *k)
{
	return k->res.method != COMPARISON_IDENTICAL && k->res.method != COMPARISON_NONE &&
	       !(k->res.method == COMPARISON_INDEPENDENT && k->thin_level < STATS_CI_TARGET);
}

void model_compare_settle(struct model *m)
{
	size_t n = 0;
	double *p = xmalloc((m->ncmps + 1) * sizeof(*p));
	enum comparison_lead *lead = xmalloc((m->ncmps + 1) * sizeof(*lead));
	for (size_t i = 0; i < m->ncmps; i++)
		if (asked(&m->cmps[i]))
			p[n++] = m->cmps[i].res.p_value;
	double level = NAN;
	m->cmp_real = comparison_select(p, n, MODEL_FALSE_LEAD_RATE, lead, &level);
	m->cmp_asked = n;
	m->cmp_level = n && !isnan(level) ? level : STATS_CI_TARGET;
	for (size_t i = 0; i < m->ncmps; i++)
		if (asked(&m->cmps[i]))
			compute(&m->cmps[i], m->cmp_level);
	m->settled = 1;
	free(p);
	free(lead);
}

int model_repeat_unsure(enum comparison_verdict verdict, double repeat)
{
	return (verdict == VERDICT_FASTER || verdict == VERDICT_SLOWER) && comparison_may_flip(verdict, repeat);
}

double model_repeat_percent(double repeat)
{
	return fmin(99, fmax(1, round(100 * repeat)));
}

void model_repeat_words(enum comparison_verdict verdict, double repeat, char *buf, size_t n)
{
	if (n)
		*buf = 0;
	if (!comparison_may_flip(verdict, repeat))
		return;
	snprintf(buf, n, "; a second run calls it real about %.0f %% of the time", model_repeat_percent(repeat));
}

const char *model_verdict_words(const struct mview *v)
{
	switch (v->verdict) {
	case VERDICT_SAME_BINARY: return "the same binary";
	case VERDICT_FASTER:
	case VERDICT_SLOWER: return v->method == COMPARISON_ACROSS_LAYOUTS ? "a real lead across the layouts" : "a real lead";
	case VERDICT_SAME: return "the same within 1 %";
	case VERDICT_INCONCLUSIVE:
		if (v->method == COMPARISON_ACROSS_LAYOUTS && fabs(log(v->ratio)) < 2 * v->layout_spread)
			return "within the spread of code layout, not attributable to the flags";
		return "not a real lead";
	case VERDICT_NO_DATA: break;
	}
	return "no interval to tell";
}

void model_compare_free(struct model *m)
{
	for (size_t i = 0; i < m->ncmps; i++) {
		free(m->cmps[i].ra);
		free(m->cmps[i].rb);
		free_program(m->cmps[i].pa);
		free_program(m->cmps[i].pb);
	}
	free(m->cmps);
	m->cmps = NULL;
	m->ncmps = m->acmps = 0;
}

struct mcell model_ratio(struct model *m, struct fsrc *f, struct results_cell *a, struct results_cell *b)
{
	struct mcell x = model_config_value(m, f, a), y = model_config_value(m, f, b);
	if (x.state != MS_OK || y.state != MS_OK || !(y.value > 0))
		return x.state != MS_OK ? x : model_word("n/a");
	struct mcell r = x;
	r.value = x.value / y.value;
	r.marks = (x.marks | y.marks) & (MARK_THROTTLED | MARK_IMPRECISE | MARK_UNCHECKED);
	r.ci = r.lo = r.hi = r.level = NAN;
	r.layouts = 0;
	r.spread = 0;
	if (model_measured(f, a) == model_measured(f, b)) { /* a cell against itself */
		r.value = 1;
		r.marks = 0;
		return r;
	}
	struct mview v;
	if (model_compare(m, f, model_group_of(m, f, b), model_group_of(m, f, a), &v) < 0)
		return r;
	r.verdict = v.verdict;
	r.method = v.method;
	if (v.verdict == VERDICT_SAME_BINARY) {
		r.value = 1;
		r.marks |= MARK_SAME_BINARY;
		return r;
	}
	r.value = v.ratio;
	/* no ci: a ratio's interval is not symmetric, and is shown by its ends */
	r.lo = v.low;
	r.hi = v.high;
	r.level = v.level;
	r.layouts = v.layouts;
	r.spread = v.layout_spread;
	if (v.verdict != VERDICT_FASTER && v.verdict != VERDICT_SLOWER)
		r.marks |= MARK_NOT_REAL;
	/* where the run saw more than one state: the one compared within */
	if (v.states > 1)
		r.marks |= v.state == COMPARISON_ACROSS_STATES ? MARK_ACROSS_STATES
			   : v.state == 1		      ? MARK_NEAR
			   : v.state > 1		      ? MARK_FAR
							      : 0;
	return r;
}

struct mcell model_config_value(struct model *m, struct fsrc *f, struct results_cell *c)
{
	struct mgroup g = model_group_of(m, f, c);
	if (g.n < 2)
		return model_value(m, f, c);
	double sum = 0, sq = 0;
	struct mcell x = model_value(m, f, g.cells[0]);
	unsigned marks = 0;
	for (size_t k = 0; k < g.n; k++) {
		struct mcell y = model_value(m, f, g.cells[k]);
		if (y.state != MS_OK)
			return y;
		marks |= y.marks;
		sum += log(y.value);
		sq += log(y.value) * log(y.value);
	}
	double mean = sum / (double)g.n, var = (sq - sum * mean) / (double)(g.n - 1);
	double sd = var > 0 ? sqrt(var) : 0, half = stats_t_critical(STATS_CI_TARGET, (double)(g.n - 1)) * sd / sqrt((double)g.n);
	x.value = exp(mean);
	x.lo = exp(mean - half);
	x.hi = exp(mean + half);
	x.ci = 100 * (x.hi - x.lo) / 2 / x.value;
	x.level = STATS_CI_TARGET;
	x.marks = marks;
	x.layouts = g.n;
	x.spread = sd;
	return x;
}
