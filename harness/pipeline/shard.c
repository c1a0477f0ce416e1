/* shard.c: see shard.h */
#define _GNU_SOURCE
#include "pipeline/shard.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

int shard_parse(const char *text, struct shard *out, char *why, size_t n)
{
	char *end;
	errno = 0;
	unsigned long k = strtoul(text, &end, 10), of = 0;
	int ok = end != text && *end == '/' && text[0] >= '0' && text[0] <= '9';
	if (ok) {
		const char *s = end + 1;
		of = strtoul(s, &end, 10);
		ok = end != s && !*end && s[0] >= '0' && s[0] <= '9' && !errno;
	}
	if (!ok || k < 1 || of < 1 || k > of || of > SHARD_MAX) {
		snprintf(why, n, "--shard '%s': K/N with 1 <= K <= N <= %d, e.g. 2/4", text, SHARD_MAX);
		return -1;
	}
	out->index = (unsigned)k;
	out->of = (unsigned)of;
	return 0;
}

int shard_cell_is_baseline(const struct cell *c)
{
	const struct cell_spec *s = &c->spec;
	return s->variant && s->family->baseline && !strcmp(s->variant->name, s->family->baseline);
}

/* One block of the plan: its first cell, family, cost and shard. */
struct unit {
	size_t first;
	size_t family; /* index of the family's first unit */
	double cost;
	int baseline;  /* the family's baseline block, copied where the family is */
	unsigned shard;
};

static int by_cost(const void *a, const void *b)
{
	const struct unit *x = *(const struct unit *const *)a, *y = *(const struct unit *const *)b;
	if (x->cost != y->cost)
		return x->cost > y->cost ? -1 : 1;
	return x->first < y->first ? -1 : x->first > y->first;
}

/* The units of p; unit_of[i] the unit of cell i.  Returns their count. */
static size_t units_of(const struct plan *p, const double *cost, struct unit *u, size_t *unit_of)
{
	size_t n = 0;
	for (size_t i = 0; i < p->n; i++) {
		const struct cell_spec *s = &p->cells[i].spec;
		size_t k = 0;
		while (k < n && !(p->cells[u[k].first].spec.family == s->family &&
				  p->cells[u[k].first].spec.variant == s->variant &&
				  p->cells[u[k].first].spec.reference == s->reference))
			k++;
		if (k == n) {
			size_t fam = 0;
			while (fam < n && p->cells[u[fam].first].spec.family != s->family)
				fam++;
			u[n] = (struct unit){ i, fam, 0, shard_cell_is_baseline(&p->cells[i]), 0 };
			n++;
		}
		u[k].cost += cost[i] > 0 ? cost[i] : 0;
		unit_of[i] = k;
	}
	return n;
}

void shard_select(const struct plan *p, const double *cost, struct shard s, unsigned char *keep)
{
	struct unit *u = xcalloc(p->n + 1, sizeof(*u));
	size_t *unit_of = xcalloc(p->n + 1, sizeof(*unit_of));
	size_t nu = units_of(p, cost, u, unit_of);
	/* per family (by its first unit): its baseline unit, and whether it has another */
	size_t *base = xcalloc(nu + 1, sizeof(*base));
	unsigned char *others = xcalloc(nu + 1, 1);
	for (size_t k = 0; k < nu; k++)
		base[k] = SIZE_MAX;
	for (size_t k = 0; k < nu; k++) {
		if (u[k].baseline)
			base[u[k].family] = k;
		else
			others[u[k].family] = 1;
	}
	struct unit **order = xcalloc(nu + 1, sizeof(*order));
	size_t no = 0;
	for (size_t k = 0; k < nu; k++)
		if (!u[k].baseline || !others[u[k].family])
			order[no++] = &u[k];
	qsort(order, no, sizeof(*order), by_cost);
	double *load = xcalloc(s.of + 1, sizeof(*load));
	/* holds[shard * nu + family]: the shard holds the family */
	unsigned char *holds = xcalloc((size_t)s.of * nu + 1, 1);
	for (size_t o = 0; o < no; o++) {
		struct unit *x = order[o];
		size_t b = base[x->family];
		double bc = !x->baseline && b != SIZE_MAX ? u[b].cost : 0;
		unsigned best = 0;
		double best_load = 0;
		for (unsigned k = 0; k < s.of; k++) {
			double l = load[k] + x->cost + (holds[(size_t)k * nu + x->family] ? 0 : bc);
			if (k == 0 || l < best_load) {
				best = k;
				best_load = l;
			}
		}
		x->shard = best;
		load[best] = best_load;
		holds[(size_t)best * nu + x->family] = 1;
	}
	for (size_t i = 0; i < p->n; i++) {
		const struct unit *x = &u[unit_of[i]];
		keep[i] = x->baseline && others[x->family] ? holds[(size_t)(s.index - 1) * nu + x->family]
							    : x->shard == s.index - 1;
	}
	free(u);
	free(unit_of);
	free(base);
	free(others);
	free(order);
	free(load);
	free(holds);
}

static void hash_add(struct strbuf *sb, const char *s)
{
	/* NUL-separated: no two field lists give the same text */
	sb_adds(sb, s ? s : "");
	sb_add(sb, "", 1);
}

void plan_hash(const struct plan *p, const char *context, char out[65])
{
	struct strbuf sb = STRBUF_INIT;
	hash_add(&sb, context);
	for (size_t i = 0; i < p->n; i++) {
		const struct cell *c = &p->cells[i];
		hash_add(&sb, c->spec.id);
		for (size_t k = 0; k < c->spec.cflags.n; k++)
			hash_add(&sb, c->spec.cflags.v[k]);
		hash_add(&sb, "|");
		for (size_t k = 0; k < c->spec.run_args.n; k++)
			hash_add(&sb, c->spec.run_args.v[k]);
		hash_add(&sb, cell_status_name(c->status));
	}
	sha256_hex(sb.buf, sb.len, out);
	sb_release(&sb);
}

size_t *shard_apply(struct plan *p, const double *cost, struct shard s)
{
	unsigned char *keep = xcalloc(p->n + 1, 1);
	size_t *place = xcalloc(p->n + 1, sizeof(*place));
	shard_select(p, cost, s, keep);
	for (size_t i = 0, k = 0; i < p->n; i++)
		if (keep[i])
			place[k++] = i;
	plan_keep(p, keep);
	free(keep);
	return place;
}
