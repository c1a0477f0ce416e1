/* model_across.c: see model_across.h */
#define _GNU_SOURCE
#include "report/model_across.h"
#include "report/model_answer.h"
#include "report/model_compare.h"
#include "report/model_gaps.h"
#include "report/model_tables.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* the flips a variant's sentence names; the rest are counted (all are in its flips) */
#define ACROSS_FLIPS_NAMED 3

/* One machine of a family: its run's cells and what its own run answers. */
struct mach {
	struct fsrc *f;
	const char *label;
	struct mfamily own; /* a family of its own: the run's throughput table and answers */
};

static int is_real(enum comparison_verdict v)
{
	return v == VERDICT_FASTER || v == VERDICT_SLOWER;
}

/* "5700X and J4205", "5700X, J4205 and 2700" */
static const char *and_list(struct model *m, const char **v, size_t n)
{
	const char *s = "";
	for (size_t i = 0; i < n; i++)
		s = model_own(m, "%s%s%s", s, !i ? "" : i + 1 == n ? " and " : ", ", v[i]);
	return s;
}

static const char *every(size_t n)
{
	return n == 2 ? "both" : "every machine";
}

/* "0.84x [0.83x, 0.85x]", as the tables print a ratio */
static const char *ratio_text(struct model *m, double r, double lo, double hi)
{
	struct mratio_text rt;
	model_format_interval(r, lo, hi, 2, &rt);
	return model_own(m, "%s%s%s", rt.ratio, *rt.interval ? " " : "", rt.interval);
}

static int ok_cell(const struct results_cell *c)
{
	return c && c->status == CELL_OK && !c->reference;
}

/* B's throughput over A's in one machine's run, through the one comparison;
 * -1 when either has no figure. */
static int one_ratio(struct model *m, struct fsrc *f, struct results_cell *b, struct results_cell *a,
		     struct macross_on *on)
{
	if (!ok_cell(a) || !ok_cell(b))
		return -1;
	if (model_same_binary(f, a, b)) {
		on->ratio = 1, on->low = on->high = NAN, on->verdict = VERDICT_SAME_BINARY;
		return 0;
	}
	struct mcell r = model_ratio(m, f, b, a);
	if (r.state != MS_OK || !(r.value > 0))
		return -1;
	on->ratio = r.value, on->low = r.lo, on->high = r.hi;
	on->verdict = r.marks & MARK_SAME_BINARY ? VERDICT_SAME_BINARY : r.verdict;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Each machine's fastest build: model_answer over its run's own table. */

static const struct manswer *answer_of(const struct mach *k, const char *variant)
{
	for (size_t i = 0; i < k->own.nanswers; i++)
		if (!strcmp(k->own.answers[i].variant, variant))
			return &k->own.answers[i];
	return NULL;
}

/* Why a machine names no fastest build of variant: its cells' statuses. */
static const char *no_leader(struct model *m, const struct mach *k, const char *variant)
{
	const char *s = NULL;
	size_t n = 0;
	for (size_t i = 0; i < k->f->n; i++) {
		const struct results_cell *c = k->f->cells[i];
		if (c->reference || strcmp(c->variant, variant))
			continue;
		n++;
		if (!s || !strstr(s, c->status_name))
			s = model_own(m, "%s%s%s", s ? s : "", s ? ", " : "", c->status_name);
	}
	return n ? model_own(m, "no build measured (%s)", s) : model_own(m, "its run has no cell of %s", variant);
}

static void machine_answer(struct model *m, const struct mach *k, const char *variant, struct macross_machine *x)
{
	const struct manswer *a = answer_of(k, variant);
	*x = (struct macross_machine){ .machine = k->label, .lead = NAN, .low = NAN, .high = NAN,
				       .verdict = VERDICT_NO_DATA };
	if (!a) {
		x->words = no_leader(m, k, variant);
		return;
	}
	x->leader = a->leader;
	x->runner = a->runner;
	if (!a->runner) {
		x->words = a->note ? a->note : "no other build to compare";
		return;
	}
	x->lead = a->lead, x->low = a->low, x->high = a->high, x->verdict = a->verdict;
	x->words = model_own(m, "%s over %s: %s%s%s", ratio_text(m, a->lead, a->verdict == VERDICT_SAME_BINARY ? NAN : a->low,
							   a->verdict == VERDICT_SAME_BINARY ? NAN : a->high),
			     a->runner, a->words ? a->words : "no interval to tell", a->twins ? "; the same binary as " : "",
			     a->twins ? a->twins : "");
}

/* ------------------------------------------------------------------ */
/* The gaps: B against A on each machine, where the two differ in one part. */

/* "1.16x on 5700X, 0.58x on J4205", each machine's figure in words */
static const char *on_words(struct model *m, const struct macross_gap *g)
{
	const char *s = "";
	char r[32];
	for (size_t i = 0; i < g->n; i++) {
		const struct macross_on *o = &g->on[i];
		model_format_ratio(o->ratio, r, sizeof(r));
		const char *w = o->verdict == VERDICT_SAME_BINARY ? model_own(m, "the same binary on %s", o->machine)
				: is_real(o->verdict)			? model_own(m, "%s on %s", r, o->machine)
				: o->verdict == VERDICT_NO_DATA ? model_own(m, "%s on %s (no interval to tell)", r, o->machine)
								: model_own(m, "no real difference on %s (%s)", o->machine, r);
		s = model_own(m, "%s%s%s", s, i ? ", " : "", w);
	}
	return s;
}

/* What the machines say of one gap, and its words with the verdict. */
static void classify(struct model *m, struct macross_gap *g)
{
	int faster = 0, slower = 0, other = 0;
	double lo = INFINITY, hi = -INFINITY;
	const char *where = NULL;
	size_t nreal = 0;
	for (size_t i = 0; i < g->n; i++) {
		enum comparison_verdict v = g->on[i].verdict;
		faster |= v == VERDICT_FASTER;
		slower |= v == VERDICT_SLOWER;
		other |= !is_real(v) && v != VERDICT_NO_DATA;
		if (is_real(v)) {
			where = model_own(m, "%s%s%s", where ? where : "", where ? ", " : "", g->on[i].machine);
			nreal++;
		}
		lo = fmin(lo, log(g->on[i].ratio));
		hi = fmax(hi, log(g->on[i].ratio));
	}
	g->kind = faster && slower ? ACROSS_FLIPS : (faster || slower) && other ? ACROSS_SOME : ACROSS_AGREES;
	g->spread = g->n ? hi - lo : 0;
	const char *list = on_words(m, g);
	if (g->kind == ACROSS_AGREES && !nreal) /* nothing to list: the figures are in the tables */
		g->words = model_own(m, "no real difference on %s", every(g->n));
	else if (g->kind == ACROSS_FLIPS)
		g->words = model_own(m, "%s: depends on the machine", list);
	else if (g->kind == ACROSS_SOME)
		g->words = model_own(m, "%s: real on %s only", list, where);
	else
		g->words = list;
}

static struct macross_group *group(struct model *m, struct macross *x, const char *a, const char *b, const char *ctx,
				   size_t nvars)
{
	for (size_t i = 0; i < x->ngroups; i++)
		if (!strcmp(x->groups[i].a, a) && !strcmp(x->groups[i].b, b) && !strcmp(x->groups[i].context, ctx))
			return &x->groups[i];
	struct macross_group *g = &x->groups[x->ngroups++];
	*g = (struct macross_group){ .a = a, .b = b, .context = ctx };
	g->name = model_own(m, "%s against %s%s%s%s", b, a, *ctx ? " (" : "", ctx, *ctx ? ")" : "");
	g->v = model_alloc(m, (nvars + 1) * sizeof(*g->v));
	return g;
}

static int group_before(const struct macross_group *a, const struct macross_group *b)
{
	if (a->kind != b->kind)
		return a->kind > b->kind;
	return a->largest > b->largest;
}

static int gap_before(const struct macross_gap *a, const struct macross_gap *b)
{
	if (a->kind != b->kind)
		return a->kind > b->kind;
	return a->spread > b->spread;
}

/* Every gap of every variant (x->v, skipped ones aside) on every machine. */
static void gaps(struct model *m, struct macross *x, struct mach *k, size_t n, const char **cfgs, size_t ncfgs)
{
	x->groups = model_alloc(m, (ncfgs * ncfgs + 1) * sizeof(*x->groups));
	/* the pairs model_gaps.h asks of one run */
	struct mgap_pair *pairs;
	size_t np = model_gap_pairs(m, cfgs, ncfgs, &pairs);
	for (size_t pi = 0; pi < np; pi++) {
		size_t ca = pairs[pi].a, cb = pairs[pi].b;
		struct macross_group *g = group(m, x, pairs[pi].va, pairs[pi].vb, pairs[pi].context, x->nv);
		for (size_t v = 0; v < x->nv; v++) {
			if (x->v[v].skipped)
				continue;
			struct macross_gap e = { .variant = x->v[v].variant };
			e.on = model_alloc(m, n * sizeof(*e.on));
			for (size_t r = 0; r < n; r++) {
				struct macross_on o = { .machine = k[r].label };
				if (one_ratio(m, k[r].f, model_find(k[r].f, e.variant, cfgs[cb]),
					      model_find(k[r].f, e.variant, cfgs[ca]), &o) == 0)
					e.on[e.n++] = o;
			}
			if (e.n < 2) /* a gap of one machine is that run's own (flagbench tables RUN) */
				continue;
			classify(m, &e);
			g->v[g->n++] = e;
		}
	}
	/* each group: its variants, those that flip first; then the groups */
	size_t kept = 0;
	for (size_t i = 0; i < x->ngroups; i++) {
		struct macross_group *g = &x->groups[i];
		if (!g->n)
			continue;
		for (size_t a = 1; a < g->n; a++)
			for (size_t b = a; b > 0 && gap_before(&g->v[b], &g->v[b - 1]); b--) {
				struct macross_gap t = g->v[b];
				g->v[b] = g->v[b - 1];
				g->v[b - 1] = t;
			}
		g->kind = g->v[0].kind;
		g->largest = g->kind != ACROSS_AGREES ? g->v[0].spread : 0;
		const char *w = "";
		for (size_t e = 0; e < g->n; e++)
			w = model_own(m, "%s%s%s %s", w, e ? "; " : "", g->v[e].variant, g->v[e].words);
		g->words = w;
		x->groups[kept++] = *g;
	}
	x->ngroups = kept;
	for (size_t a = 1; a < kept; a++)
		for (size_t b = a; b > 0 && group_before(&x->groups[b], &x->groups[b - 1]); b--) {
			struct macross_group t = x->groups[b];
			x->groups[b] = x->groups[b - 1];
			x->groups[b - 1] = t;
		}
	/* each variant's flips, largest first: the groups are in that order */
	for (size_t v = 0; v < x->nv; v++) {
		struct macross_variant *xv = &x->v[v];
		xv->flips = model_alloc(m, (x->ngroups + 1) * sizeof(*xv->flips));
		xv->flip_names = model_alloc(m, (x->ngroups + 1) * sizeof(*xv->flip_names));
		for (size_t i = 0; i < x->ngroups; i++)
			for (size_t e = 0; e < x->groups[i].n; e++)
				if (x->groups[i].v[e].kind == ACROSS_FLIPS && !strcmp(x->groups[i].v[e].variant, xv->variant)) {
					xv->flips[xv->nflips] = &x->groups[i].v[e];
					xv->flip_names[xv->nflips++] = x->groups[i].name;
				}
		for (size_t a = 1; a < xv->nflips; a++)
			for (size_t b = a; b > 0 && xv->flips[b]->spread > xv->flips[b - 1]->spread; b--) {
				struct macross_gap *t = xv->flips[b];
				const char *tn = xv->flip_names[b];
				xv->flips[b] = xv->flips[b - 1], xv->flip_names[b] = xv->flip_names[b - 1];
				xv->flips[b - 1] = t, xv->flip_names[b - 1] = tn;
			}
	}
}

/* ------------------------------------------------------------------ */
/* The portable choice. */

/* Why a configuration is no single build: native, or another -march per machine. */
enum { NOT_NATIVE = 1, NOT_ONE_MARCH = 2 };

static unsigned not_portable(struct mach **k, size_t n, const char *variant, const char *cfg)
{
	const char *march = NULL;
	int seen = 0;
	for (size_t r = 0; r < n; r++) {
		const struct results_cell *c = model_find(k[r]->f, variant, cfg);
		if (!c)
			continue;
		if (c->march && !strcmp(c->march, "native"))
			return NOT_NATIVE;
		if (seen && !str_equal_or_null(march, c->march))
			return NOT_ONE_MARCH;
		march = c->march, seen = 1;
	}
	return 0;
}

/* The loss of cfg on machine r: its throughput over that machine's fastest. */
static void loss_on(struct model *m, struct mach *kr, const char *variant, const char *cfg, const char *leader,
		    struct macross_loss *l)
{
	*l = (struct macross_loss){ .machine = kr->label, .ratio = 1, .low = NAN, .high = NAN, .verdict = VERDICT_NO_DATA };
	if (!strcmp(cfg, leader)) {
		l->best = 1;
		return;
	}
	struct macross_on o;
	if (one_ratio(m, kr->f, model_find(kr->f, variant, cfg), model_find(kr->f, variant, leader), &o) < 0) {
		l->ratio = NAN;
		return;
	}
	l->ratio = o.ratio, l->low = o.low, l->high = o.high, l->verdict = o.verdict;
}

static const char *loss_words(struct model *m, const struct macross_loss *l)
{
	if (l->best)
		return model_own(m, "the best on %s", l->machine);
	if (l->verdict == VERDICT_SAME_BINARY)
		return model_own(m, "the same binary as the best on %s", l->machine);
	return model_own(m, "%s on %s%s", ratio_text(m, l->ratio, l->low, l->high), l->machine,
			 l->verdict == VERDICT_NO_DATA ? " (no interval to tell)" : is_real(l->verdict) ? "" : " (not a real loss)");
}

/* What each machine's own fastest build costs on the others. */
static const char *contrast(struct model *m, struct mach **k, const struct macross_variant *xv, const char *portable)
{
	const char *s = NULL, **done = model_alloc(m, (xv->nmachines + 1) * sizeof(*done));
	size_t ndone = 0;
	for (size_t r = 0; r < xv->nmachines; r++) {
		const char *lead = xv->machines[r].leader;
		if (!lead || (portable && !strcmp(lead, portable)) || model_index_of(done, ndone, lead) >= 0)
			continue;
		done[ndone++] = lead;
		const char *where = xv->machines[r].machine, *worst = NULL;
		double w = INFINITY;
		for (size_t j = 0; j < xv->nmachines; j++) {
			const char *other = xv->machines[j].leader;
			if (j == r || !other)
				continue;
			if (!strcmp(other, lead)) { /* that machine's best too */
				where = model_own(m, "%s and %s", where, xv->machines[j].machine);
				continue;
			}
			struct results_cell *c = model_find(k[j]->f, xv->variant, lead);
			struct macross_loss l;
			if (!ok_cell(c)) {
				worst = model_own(m, "is %s on %s", c ? c->status_name : "not measured", k[j]->label);
				w = -1;
				continue;
			}
			loss_on(m, k[j], xv->variant, lead, other, &l);
			if (w >= 0 && l.ratio < w)
				w = l.ratio, worst = l.verdict == VERDICT_SAME_BINARY ? loss_words(m, &l)
						  : model_own(m, "%s %.0f %% on %s: %s%s", l.ratio < 1 ? "loses" : "gains",
							      fabs(100 * (1 - l.ratio)), l.machine, ratio_text(m, l.ratio, l.low, l.high),
							      l.verdict == VERDICT_NO_DATA ? " (no interval to tell)"
							      : is_real(l.verdict)	   ? ""
											   : " (not a real loss)");
		}
		if (!worst)
			continue;
		unsigned why = not_portable(k, xv->nmachines, xv->variant, lead);
		s = model_own(m, "%s%sthe best on %s, %s%s, %s", s ? s : "", s ? "; " : "", where, lead,
			      why == NOT_NATIVE ? " (each machine's own build)" : why ? " (another -march on each machine)" : "",
			      worst);
	}
	return s;
}

static void portable(struct model *m, struct mach **k, struct macross_variant *xv, unsigned *why_not)
{
	struct macross_portable *p = &xv->portable;
	size_t n = xv->nmachines;
	*p = (struct macross_portable){ .worst = NAN };
	const char **cfgs = NULL;
	size_t ncfgs = 0, cap = 0;
	for (size_t r = 0; r < n; r++) {
		cap += k[r]->f->n;
		cfgs = xrealloc(cfgs, (cap + 1) * sizeof(*cfgs));
		for (size_t i = 0; i < k[r]->f->n; i++) {
			const struct results_cell *c = k[r]->f->cells[i];
			if (!c->reference && !strcmp(c->variant, xv->variant) && model_index_of(cfgs, ncfgs, c->config) < 0)
				cfgs[ncfgs++] = c->config;
		}
	}
	p->left = model_alloc(m, (ncfgs * n + 1) * sizeof(*p->left));
	struct macross_loss *best = NULL, *loss = model_alloc(m, (n + 1) * sizeof(*loss));
	for (size_t c = 0; c < ncfgs; c++) {
		unsigned why = not_portable(k, n, xv->variant, cfgs[c]);
		*why_not |= why;
		if (why)
			continue;
		int left = 0;
		for (size_t r = 0; r < n; r++) {
			const struct results_cell *cell = model_find(k[r]->f, xv->variant, cfgs[c]);
			if (!ok_cell(cell) || !xv->machines[r].leader) {
				p->left[p->nleft++] = (struct macross_left){ cfgs[c], k[r]->label,
									     cell ? cell->status_name : "absent" };
				left = 1;
			}
		}
		if (left)
			continue;
		double worst = INFINITY;
		const char *at = NULL;
		for (size_t r = 0; r < n; r++) {
			loss_on(m, k[r], xv->variant, cfgs[c], xv->machines[r].leader, &loss[r]);
			if (!(loss[r].ratio >= worst)) /* NAN: no figure, the worst there is */
				worst = isnan(loss[r].ratio) ? -INFINITY : loss[r].ratio, at = k[r]->label;
		}
		/* the smallest worst loss; among equals the first in the suite's order */
		if (!p->config || worst > p->worst) {
			p->config = cfgs[c], p->worst = worst, p->worst_machine = at;
			best = loss;
			loss = model_alloc(m, (n + 1) * sizeof(*loss));
		}
	}
	free(cfgs);
	p->loss = best;
	if (!p->config) {
		p->words = model_own(m, "none: no build was measured ok on %s with one -march that %s ran%s",
				     every(n), n == 2 ? "both" : "all", *why_not & NOT_NATIVE ? " (-march=native is each machine's own code)" : "");
	} else {
		const char *pieces = "";
		int all_best = 1;
		for (size_t r = 0; r < n; r++) {
			pieces = model_own(m, "%s%s%s", pieces, r ? ", " : "", loss_words(m, &best[r]));
			all_best &= best[r].best || best[r].verdict == VERDICT_SAME_BINARY;
		}
		if (all_best)
			p->words = model_own(m, "%s: the fastest on %s", p->config, every(n));
		else if (!(p->worst > 0))
			p->words = model_own(m, "%s: %s", p->config, pieces);
		else
			p->words = model_own(m, "%s: within %.0f %% of the best on %s: %s", p->config,
					     ceil(100 * (1 - p->worst) - 1e-9), every(n), pieces);
	}
	p->contrast = contrast(m, k, xv, p->config);
	/* the builds left out, by machine and status */
	const char *w = NULL;
	int *said = model_alloc(m, (p->nleft + 1) * sizeof(*said));
	for (size_t i = 0; i < p->nleft; i++) {
		if (said[i])
			continue;
		const char *list = "";
		for (size_t j = i; j < p->nleft; j++)
			if (!said[j] && !strcmp(p->left[j].machine, p->left[i].machine) && !strcmp(p->left[j].status, p->left[i].status)) {
				list = model_own(m, "%s%s%s", list, *list ? ", " : "", p->left[j].config);
				said[j] = 1;
			}
		w = model_own(m, "%s%s%s on %s: %s", w ? w : "", w ? "; " : "", p->left[i].status, p->left[i].machine, list);
	}
	p->left_words = w;
}

/* ------------------------------------------------------------------ */
/* The variants. */

/* The size of variant's cells on machine k: 0 none known, UINT64_MAX several. */
static uint64_t size_on(const struct mach *k, const char *variant)
{
	uint64_t s = 0;
	for (size_t i = 0; i < k->f->n; i++) {
		const struct results_cell *c = k->f->cells[i];
		if (c->reference || strcmp(c->variant, variant) || !c->size)
			continue;
		if (s && s != c->size)
			return UINT64_MAX;
		s = c->size;
	}
	return s;
}

static int has_variant(const struct mach *k, const char *variant)
{
	for (size_t i = 0; i < k->f->n; i++)
		if (!k->f->cells[i]->reference && !strcmp(k->f->cells[i]->variant, variant))
			return 1;
	return 0;
}

static const char *variant_words(struct model *m, const struct macross_variant *xv)
{
	if (xv->nflips) {
		const char *s = "depends on the machine: ";
		for (size_t i = 0; i < xv->nflips && i < ACROSS_FLIPS_NAMED; i++)
			s = model_own(m, "%s%s%s: %s", s, i ? "; " : "", xv->flip_names[i],
				      model_own(m, "%.*s", (int)(strlen(xv->flips[i]->words) - strlen(": depends on the machine")),
						xv->flips[i]->words));
		if (xv->nflips > ACROSS_FLIPS_NAMED)
			s = model_own(m, "%s; and %zu more gap%s that flip%s", s, xv->nflips - ACROSS_FLIPS_NAMED,
				      xv->nflips - ACROSS_FLIPS_NAMED == 1 ? "" : "s", xv->nflips - ACROSS_FLIPS_NAMED == 1 ? "s" : "");
		return s;
	}
	if (xv->same_leader)
		return model_own(m, "the machines agree: %s fastest on %s, and no gap goes one way on one machine and the "
				    "other way on another",
				 xv->machines[0].leader, every(xv->nmachines));
	return "the machines agree on every gap (none goes one way on one machine and the other way on another); their "
	       "fastest builds differ";
}

void model_across(struct model *m, struct mfamily *fam, struct fsrc *fs, const char **labels, size_t n)
{
	if (n < 2)
		return;
	struct macross *x = model_alloc(m, sizeof(*x));
	struct mach *k = model_alloc(m, n * sizeof(*k));
	x->machines = labels;
	x->nmachines = n;
	size_t cap = 0;
	for (size_t r = 0; r < n; r++) {
		k[r].f = &fs[r];
		k[r].label = labels[r];
		k[r].own = (struct mfamily){ .name = fam->name, .slug = fam->slug, .title = fam->title, .kind = fam->kind };
		model_answer(m, &k[r].own, k[r].f, model_throughput_table(m, &k[r].own, k[r].f), 0);
		cap += fs[r].n;
	}
	/* the variants and the configurations, in the order they first appear */
	const char **names = model_alloc(m, (cap + 1) * sizeof(*names)), **cfgs = model_alloc(m, (cap + 1) * sizeof(*cfgs));
	size_t nnames = 0, ncfgs = 0;
	for (size_t r = 0; r < n; r++)
		for (size_t i = 0; i < fs[r].n; i++) {
			const struct results_cell *c = fs[r].cells[i];
			if (c->reference)
				continue;
			if (model_index_of(names, nnames, c->variant) < 0)
				names[nnames++] = c->variant;
			if (model_index_of(cfgs, ncfgs, c->config) < 0)
				cfgs[ncfgs++] = c->config;
		}
	x->v = model_alloc(m, (nnames + 1) * sizeof(*x->v));
	unsigned why_not = 0;
	size_t agree = 0, compared = 0;
	for (size_t i = 0; i < nnames; i++) {
		struct macross_variant *xv = &x->v[x->nv++];
		*xv = (struct macross_variant){ .variant = names[i], .agree = 1 };
		xv->machines = model_alloc(m, n * sizeof(*xv->machines));
		/* the machines that ran it; a different size is another question */
		const char *sizes = "", *lacking = NULL;
		uint64_t size = 0;
		int differ = 0;
		for (size_t r = 0; r < n; r++) {
			if (!has_variant(&k[r], names[i])) {
				lacking = model_own(m, "%s%s%s", lacking ? lacking : "", lacking ? ", " : "", k[r].label);
				continue;
			}
			uint64_t s = size_on(&k[r], names[i]);
			differ |= s == UINT64_MAX || (size && s != size);
			size = size ? size : s;
			sizes = model_own(m, "%s%s%s on %s", sizes, *sizes ? ", " : "",
					  s == UINT64_MAX ? "several" : model_own(m, "%llu", (unsigned long long)s), k[r].label);
			xv->nmachines++;
		}
		if (xv->nmachines < 2)
			xv->skipped = model_own(m, "measured on one machine only (%s's run has no cell of it)", lacking);
		else if (differ)
			xv->skipped = model_own(m, "not compared across machines: its sizes differ (%s)", sizes);
	}
	/* the machines of each variant (km[i]: whose answer is machines[i]) */
	struct mach ***km = model_alloc(m, (x->nv + 1) * sizeof(*km));
	for (size_t i = 0; i < x->nv; i++) {
		struct macross_variant *xv = &x->v[i];
		xv->nmachines = 0;
		km[i] = model_alloc(m, n * sizeof(**km));
		if (xv->skipped) {
			xv->words = xv->skipped;
			continue;
		}
		for (size_t r = 0; r < n; r++)
			if (has_variant(&k[r], xv->variant)) {
				km[i][xv->nmachines] = &k[r];
				machine_answer(m, &k[r], xv->variant, &xv->machines[xv->nmachines++]);
			}
	}
	gaps(m, x, k, n, cfgs, ncfgs);
	for (size_t i = 0; i < x->nv; i++) {
		struct macross_variant *xv = &x->v[i];
		if (xv->skipped)
			continue;
		compared++;
		xv->agree = !xv->nflips;
		xv->same_leader = 1;
		for (size_t r = 0; r < xv->nmachines; r++)
			xv->same_leader &= xv->machines[r].leader && !strcmp(xv->machines[r].leader, xv->machines[0].leader ? xv->machines[0].leader : "");
		agree += xv->agree;
		xv->words = variant_words(m, xv);
		if (xv->nmachines < n) /* another suite's run: compared where it matches, named */
			for (size_t r = 0; r < n; r++)
				if (!has_variant(&k[r], xv->variant))
					xv->words = model_own(m, "%s; %s's run has no cell of it", xv->words, k[r].label);
		portable(m, km[i], xv, &why_not);
	}
	size_t flips = 0;
	for (size_t i = 0; i < x->ngroups; i++)
		for (size_t e = 0; e < x->groups[i].n; e++)
			flips += x->groups[i].v[e].kind == ACROSS_FLIPS;
	x->summary = model_own(m, "%s across %s: the machines agree on %zu of %zu variants%s", fam->name,
			       and_list(m, labels, n), agree, compared,
			       flips ? model_own(m, "; %zu gaps of a variant flip between them, below first", flips) : "");
	/* what was left out, and why */
	const char *note = NULL, **suites = model_alloc(m, (m->nruns + 1) * sizeof(*suites));
	int other_suite = 0;
	for (size_t r = 0; r < n; r++) {
		const char *s = fs[r].run->run.suite ? fs[r].run->run.suite : "?";
		suites[r] = model_own(m, "%s on %s", s, labels[r]);
		other_suite |= r && strcmp(s, fs[0].run->run.suite ? fs[0].run->run.suite : "?");
	}
	if (other_suite)
		note = model_own(m, "runs of different suites (%s): compared only where the family, the variant and its size "
				    "match", and_list(m, suites, n));
	for (size_t j = 0; j < m->nruns; j++) {
		int in = 0;
		for (size_t r = 0; r < n; r++)
			in |= fs[r].run == &m->runs[j];
		if (!in)
			note = model_own(m, "%s%s%s's run has no %s", note ? note : "", note ? "; " : "", m->runs[j].label, fam->name);
	}
	if (why_not & NOT_NATIVE)
		note = model_own(m, "%s%s-march=native is each machine's own code (another program on each): a machine's "
				    "fastest may be one, the portable choice never", note ? note : "", note ? "; " : "");
	if (why_not & NOT_ONE_MARCH)
		note = model_own(m, "%s%sa build with another -march on each machine (each run's own profile march) is no "
				    "portable choice", note ? note : "", note ? "; " : "");
	x->note = note;
	for (size_t r = 0; r < n; r++) {
		free(k[r].own.tables);
		sv_clear(&k[r].own.answer);
		sv_clear(&k[r].own.problems);
		sv_clear(&k[r].own.warnings);
	}
	fam->across = x;
}

const char *model_across_level(struct model *m)
{
	if (!m->cmp_asked)
		return "no comparison has an interval to tell (too few runs a cell): each machine's fastest is its figures' "
		       "alone, and no lead, loss or gap is called real";
	return model_own(m, "every lead, loss and gap below is the one comparison inside one machine's run (paired over its "
			    "rounds where it has them; machines share no rounds, so they are set side by side, never "
			    "divided); every interval is at %.3g %%, the level at which this view's %zu comparisons keep the "
			    "share of false leads among the real ones at 5 %% at most",
			 100 * m->cmp_level, m->cmp_asked);
}
