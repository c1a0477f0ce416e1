/* undecided.c: see undecided.h */
#define _GNU_SOURCE
#include "analysis/undecided.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/comparison.h"
#include "analysis/gap_pairs.h"

/* A cell the answer may rank: a native build of a variant, with runs. */
static int rankable(const struct cell *c)
{
	return c->spec.variant && !c->spec.cross && c->spec.layouts <= 1 && c->build.same_binary_as < 0 &&
	       (c->status == CELL_PENDING || c->status == CELL_OK) && c->measure.time.n >= 3;
}

/* The work of one run: a stream's bytes, a compute program's size; 0 unknown. */
static double work_of(const struct cell *c)
{
	if (c->spec.family->kind == KIND_STREAM)
		return c->spec.expected_bytes == UINT64_MAX ? 0 : (double)c->spec.expected_bytes;
	return (double)c->spec.size;
}

static struct comparison_run *runs_of(const struct cell *c)
{
	const struct cell_measurement *m = &c->measure;
	struct comparison_run *r = xmalloc((m->time.n + 1) * sizeof(*r));
	double w = work_of(c) > 0 ? work_of(c) : 1;
	unsigned *st;
	cell_run_states(m, &st);
	for (size_t i = 0; i < m->time.n; i++)
		r[i] = (struct comparison_run){ .seconds = m->time.runs[i] / w,
						.round = m->nrounds == m->time.n ? m->rounds[i] : COMPARISON_UNKNOWN,
						.pass = (int)m->pass,
						.layout = COMPARISON_UNKNOWN,
						.state = st ? st[i] : 0 };
	free(st);
	return r;
}

/* The one comparison of b against a (paired over their rounds) at level,
 * with what the machine's earlier runs say such a ratio moves between
 * runs; -1 where it gives nothing. */
static int ask(const struct cell *a, const struct cell *b, const struct between_runs *between, double level,
	       struct comparison_policy *pol, struct comparison_result *res)
{
	struct comparison_run *ra = runs_of(a), *rb = runs_of(b);
	struct program_id pa, pb;
	program_id_from_cell(&pa, a);
	program_id_from_cell(&pb, b);
	struct comparison_side sa = { .runs = ra, .n = a->measure.time.n, .program = &pa };
	struct comparison_side sb = { .runs = rb, .n = b->measure.time.n, .program = &pb };
	*pol = (struct comparison_policy)COMPARISON_POLICY_DEFAULT;
	pol->quantile = a->measure.time.quantile;
	pol->level = level;
	pol->ratio_drift = results_between_drift(between, a->spec.family->name, a->spec.variant->name,
						 b->spec.variant->name);
	int rc = comparison_compute(&sa, &sb, pol, res);
	free(ra);
	free(rb);
	program_id_clear(&pa);
	program_id_clear(&pb);
	return rc;
}

/* Whether the comparison of two cells may not give its verdict again in a
 * second run (comparison_may_flip): a real lead that may not repeat, or an
 * inconclusive one that may turn real.  A tie whose chance to turn real is
 * small is decided for what a second run says, however wide its interval:
 * runs spent there change no verdict. */
static int open_at(const struct cell *a, const struct cell *b, const struct between_runs *between, double level)
{
	struct comparison_policy pol;
	struct comparison_result res;
	int open = ask(a, b, between, level, &pol, &res) == 0 &&
		   comparison_may_flip(res.verdict, comparison_repeat_chance(&res, pol.threshold));
	/* with the runs' noise gone, only the drift between runs is left: where
	 * the answer would still be open then, no number of runs settles it */
	if (open && pol.ratio_drift > 0 && res.ratio > 0) {
		double settled = comparison_repeat_chance_at(fabs(log(res.ratio)) / pol.ratio_drift, pol.level);
		open = settled >= COMPARISON_REPEAT_SURE || settled < COMPARISON_REPEAT_SHOWN;
	}
	return open;
}

static int open_question(const struct cell *a, const struct cell *b, const struct between_runs *between)
{
	return open_at(a, b, between, UNDECIDED_LEVEL) || open_at(a, b, between, UNDECIDED_LEVEL_LOW);
}

/* The first rankable cell from `from` on of like's variant and size built
 * with config, or p->n. */
static size_t built_as(const struct plan *p, size_t from, const struct cell *like, const char *config)
{
	for (size_t b = from; b < p->n; b++) {
		const struct cell *c = &p->cells[b];
		if (c->spec.family == like->spec.family && c->spec.variant == like->spec.variant &&
		    c->spec.size == like->spec.size && rankable(c) && !strcmp(c->spec.config, config))
			return b;
	}
	return p->n;
}

/* The gaps' questions (analysis/gap_pairs.h): per family, its builds'
 * configurations in the plan's order; per pair of them that a gap
 * compares, each variant's two cells of that pair at one size. */
static void gaps_undecided(const struct plan *p, const struct between_runs *between, unsigned char *mark)
{
	unsigned char *seen = xcalloc(p->n + 1, 1);
	const char **cfgs = xmalloc((p->n + 1) * sizeof(*cfgs));
	for (size_t i = 0; i < p->n; i++) {
		const struct family *fam = p->cells[i].spec.family;
		if (seen[i] || !rankable(&p->cells[i]))
			continue;
		size_t n = 0;
		for (size_t j = i; j < p->n; j++) {
			const struct cell *c = &p->cells[j];
			if (c->spec.family != fam || !rankable(c))
				continue;
			seen[j] = 1;
			size_t k = 0;
			while (k < n && strcmp(cfgs[k], c->spec.config))
				k++;
			if (k == n)
				cfgs[n++] = c->spec.config;
		}
		struct gap_pair *pairs;
		size_t np = gap_pairs(cfgs, n, &pairs, NULL);
		for (size_t a = i; a < p->n; a++) {
			const struct cell *ca = &p->cells[a];
			if (ca->spec.family != fam || !rankable(ca))
				continue;
			for (size_t k = 0; k < np; k++) {
				size_t b = strcmp(ca->spec.config, cfgs[pairs[k].a]) ? p->n : built_as(p, i, ca, cfgs[pairs[k].b]);
				if (b < p->n && (!mark[a] || !mark[b]) && open_question(ca, &p->cells[b], between))
					mark[a] = mark[b] = 1;
			}
		}
		free(pairs);
	}
	free(cfgs);
	free(seen);
}

void answers_undecided(const struct plan *p, const struct between_runs *between, unsigned char *mark)
{
	memset(mark, 0, p->n);
	unsigned char *seen = xcalloc(p->n + 1, 1);
	size_t *cols = xmalloc((p->n + 1) * sizeof(*cols));
	for (size_t i = 0; i < p->n; i++) {
		const struct cell *ci = &p->cells[i];
		if (seen[i] || !rankable(ci))
			continue;
		/* the variant's cells at the same size: its columns in the tables */
		size_t n = 0, best = i;
		for (size_t j = i; j < p->n; j++) {
			const struct cell *cj = &p->cells[j];
			if (!rankable(cj) || cj->spec.variant != ci->spec.variant || cj->spec.size != ci->spec.size)
				continue;
			seen[j] = 1;
			cols[n++] = j;
			if (cj->measure.time.point < p->cells[best].measure.time.point)
				best = j;
		}
		/* as the answer ranks them (report/model_answer.c): the leader is
		 * the fastest by the one comparison against the fastest by
		 * figure, and its lead is a claim against every other build */
		size_t leader = best;
		double fastest = 1;
		for (size_t k = 0; k < n; k++) {
			struct comparison_policy pol;
			struct comparison_result res;
			if (cols[k] != best && ask(&p->cells[best], &p->cells[cols[k]], between, UNDECIDED_LEVEL, &pol, &res) == 0 &&
			    res.ratio > 0 && res.ratio < fastest)
				fastest = res.ratio, leader = cols[k];
		}
		for (size_t k = 0; k < n; k++)
			if (cols[k] != leader && open_question(&p->cells[cols[k]], &p->cells[leader], between))
				mark[leader] = mark[cols[k]] = 1;
	}
	free(cols);
	free(seen);
	/* the speedup tables' answers: each variant against the family's
	 * baseline variant built the same way, per unit of work */
	for (size_t i = 0; i < p->n; i++) {
		const struct cell *c = &p->cells[i];
		const char *base = c->spec.family->baseline;
		if (!rankable(c) || !base || !strcmp(c->spec.variant->name, base) || !(work_of(c) > 0))
			continue;
		for (size_t j = 0; j < p->n; j++) {
			const struct cell *b = &p->cells[j];
			if (b->spec.family != c->spec.family || !rankable(b) || strcmp(b->spec.variant->name, base) ||
			    strcmp(b->spec.config, c->spec.config) || !(work_of(b) > 0))
				continue;
			if (open_question(b, c, between))
				mark[i] = mark[j] = 1;
			break;
		}
	}
	gaps_undecided(p, between, mark);
}
