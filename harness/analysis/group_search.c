/* group_search.c: see group_search.h */
#include "analysis/group_search.h"

#include <math.h>
#include <stdlib.h>

#include "core/util.h"

static void add_group(struct group_search *s, size_t from, size_t to, int parent)
{
	if (s->n == s->alloc) {
		s->alloc = s->alloc ? 2 * s->alloc : 8;
		s->g = xrealloc(s->g, s->alloc * sizeof(*s->g));
	}
	s->g[s->n++] = (struct gs_group){ .from = from, .to = to, .parent = parent, .state = GS_WAITING,
					 .share = NAN, .lo = NAN, .hi = NAN };
}

void gs_init(struct group_search *s, size_t nflags)
{
	s->nflags = nflags;
	s->g = NULL;
	s->n = s->alloc = 0;
	if (nflags)
		add_group(s, 0, nflags, -1);
}

void gs_free(struct group_search *s)
{
	free(s->g);
	s->g = NULL;
	s->n = s->alloc = 0;
}

size_t gs_waiting(const struct group_search *s, size_t *idx, size_t max)
{
	size_t k = 0;
	for (size_t i = 0; i < s->n && k < max; i++)
		if (s->g[i].state == GS_WAITING) {
			if (idx)
				idx[k] = i;
			k++;
		}
	return k;
}

int gs_find_waiting(const struct group_search *s, size_t from, size_t to)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->g[i].state == GS_WAITING && s->g[i].from == from && s->g[i].to == to)
			return (int)i;
	return -1;
}

void gs_record(struct group_search *s, size_t i, enum gs_state st, double share, double lo, double hi, int unchanged,
	       int carries)
{
	struct gs_group *g = &s->g[i];
	g->state = st;
	g->share = share;
	g->lo = lo;
	g->hi = hi;
	g->unchanged = unchanged;
	g->carries = st == GS_MEASURED && !unchanged && carries;
	if (g->carries && g->to - g->from >= 2) {
		size_t from = g->from, to = g->to, mid = from + (to - from) / 2;
		add_group(s, from, mid, (int)i); /* g moves with the array */
		add_group(s, mid, to, (int)i);
	}
}

int gs_answer(const struct group_search *s, size_t i)
{
	const struct gs_group *g = &s->g[i];
	if (!g->carries)
		return 0;
	if (g->to - g->from == 1)
		return 1;
	int halves = 0, carrying = 0;
	for (size_t k = 0; k < s->n; k++)
		if (s->g[k].parent == (int)i) {
			halves += s->g[k].state != GS_WAITING;
			carrying += s->g[k].carries;
		}
	return halves == 2 && carrying == 0;
}

size_t gs_estimate(size_t n, size_t k)
{
	if (!n)
		return 0;
	size_t depth = 0;
	while (((size_t)1 << depth) < n)
		depth++;
	size_t e = 1 + 2 * k * depth;
	return e < 2 * n - 1 ? e : 2 * n - 1;
}
