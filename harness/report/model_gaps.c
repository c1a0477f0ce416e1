/* model_gaps.c: see model_gaps.h */
#include "report/model_gaps.h"
#include "analysis/gap_pairs.h"
#include "report/model_compare.h"
#include "report/model_evidence.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int is_real(enum comparison_verdict v)
{
	return v == VERDICT_FASTER || v == VERDICT_SLOWER;
}

static double size_of(const struct mgap_entry *e)
{
	return isfinite(e->ratio) && e->ratio > 0 ? fabs(log(e->ratio)) : 0;
}

static int by_entry(const void *pa, const void *pb)
{
	const struct mgap_entry *a = pa, *b = pb;
	if (is_real(a->verdict) != is_real(b->verdict))
		return is_real(b->verdict) - is_real(a->verdict);
	double x = size_of(a), y = size_of(b);
	return x < y ? 1 : x > y ? -1 : strcmp(a->variant, b->variant);
}

static int by_gap(const void *pa, const void *pb)
{
	const struct mgap *a = pa, *b = pb;
	if (!a->real != !b->real)
		return !a->real - !b->real;
	return a->largest < b->largest ? 1 : a->largest > b->largest ? -1 : 0;
}

/* The group of (a, b, context), made where new. */
static struct mgap *group(struct model *m, struct mfamily *fam, const char *a, const char *b, const char *context,
			  size_t rows)
{
	for (size_t i = 0; i < fam->ngaps; i++)
		if (!strcmp(fam->gaps[i].a, a) && !strcmp(fam->gaps[i].b, b) && !strcmp(fam->gaps[i].context, context))
			return &fam->gaps[i];
	struct mgap *g = &fam->gaps[fam->ngaps++];
	*g = (struct mgap){ .a = a, .b = b, .context = context };
	g->v = model_alloc(m, (rows + 1) * sizeof(*g->v));
	return g;
}

/* A part of a configuration, in the model's memory. */
static const char *part_of(struct model *m, const char *cfg, size_t d)
{
	size_t len;
	const char *s = gap_part(cfg, d, &len);
	return model_own(m, "%.*s", (int)len, s ? s : "");
}

size_t model_gap_pairs(struct model *m, const char *const *cfgs, size_t n, struct mgap_pair **out)
{
	struct gap_pair *pairs;
	size_t values[GAP_PARTS_MAX], np = gap_pairs(cfgs, n, &pairs, values);
	*out = model_alloc(m, (np + 1) * sizeof(**out));
	for (size_t k = 0; k < np; k++) {
		size_t a = pairs[k].a, b = pairs[k].b, d = pairs[k].part;
		/* the parts both share that vary elsewhere among them */
		struct strbuf ctx = STRBUF_INIT;
		size_t len;
		for (size_t q = 0; q < GAP_PARTS_MAX && gap_part(cfgs[a], q, &len); q++)
			if (q != d && values[q] > 1)
				sb_addf(&ctx, "%s%s", ctx.len ? "/" : "", part_of(m, cfgs[a], q));
		(*out)[k] = (struct mgap_pair){ a, b, part_of(m, cfgs[a], d), part_of(m, cfgs[b], d),
						model_own(m, "%s", ctx.buf ? ctx.buf : "") };
		sb_release(&ctx);
	}
	free(pairs);
	return np;
}

void model_gaps(struct model *m, struct mfamily *fam, struct fsrc *f, const struct mtable *t)
{
	size_t nc = t->ncols;
	fam->gaps = model_alloc(m, (nc * nc + 1) * sizeof(*fam->gaps));
	fam->ngaps = 0;
	if (nc < 2)
		return;
	struct mgap_pair *pairs;
	size_t np = model_gap_pairs(m, (const char *const *)t->cols, nc, &pairs);
	for (size_t pi = 0; pi < np; pi++) {
		size_t ca = pairs[pi].a, cb = pairs[pi].b;
		struct mgap *g = group(m, fam, pairs[pi].va, pairs[pi].vb, pairs[pi].context, t->nrows);
		for (size_t r = 0; r < t->nrows; r++) {
			const struct mcell *xa = &t->rows[r].cells[ca], *xb = &t->rows[r].cells[cb];
			if (t->rows[r].ref || xa->state != MS_OK || xb->state != MS_OK)
				continue;
			struct results_cell *a = model_cell_of(f, xa), *b = model_cell_of(f, xb);
			struct mview v;
			if (!a || !b || model_compare(m, f, model_group_of(m, f, a), model_group_of(m, f, b), &v) < 0 ||
			    v.verdict == VERDICT_NO_DATA)
				continue;
			double na = a->instructions_per_unit, nb = b->instructions_per_unit;
			g->v[g->n++] = (struct mgap_entry){ .variant = t->rows[r].label, .ratio = v.ratio,
							    .low = v.low, .high = v.high, .verdict = v.verdict,
							    .repeat = v.repeat, .count_ratio = na > 0 && nb > 0 ? na / nb : NAN };
		}
	}
	/* groups without one comparison say nothing */
	size_t kept = 0;
	for (size_t i = 0; i < fam->ngaps; i++) {
		struct mgap *g = &fam->gaps[i];
		if (!g->n)
			continue;
		qsort(g->v, g->n, sizeof(*g->v), by_entry);
		g->real = 0;
		g->counted_apart = 0;
		for (size_t k = 0; k < g->n; k++) {
			g->real += is_real(g->v[k].verdict);
			g->counted_apart += !is_real(g->v[k].verdict) && g->v[k].verdict != VERDICT_SAME_BINARY &&
					    fabs(log(g->v[k].count_ratio)) >= EVIDENCE_GAP_COUNT;
		}
		g->largest = g->real ? size_of(&g->v[0]) : 0;
		fam->gaps[kept++] = *g;
	}
	fam->ngaps = kept;
	/* stable among equals: the suite's order */
	for (size_t i = 1; i < kept; i++)
		for (size_t k = i; k > 0 && by_gap(&fam->gaps[k - 1], &fam->gaps[k]) > 0; k--) {
			struct mgap tmp = fam->gaps[k];
			fam->gaps[k] = fam->gaps[k - 1];
			fam->gaps[k - 1] = tmp;
		}
}
