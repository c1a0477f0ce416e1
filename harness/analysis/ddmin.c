/* ddmin.c: see ddmin.h */
#include "analysis/ddmin.h"

#include <stdlib.h>

#include "core/runcmd.h"

static void subset_without(const struct strvec *set, size_t from, size_t to, struct strvec *out)
{
	for (size_t i = 0; i < set->n; i++)
		if (i < from || i >= to)
			sv_push(out, set->v[i]);
}

void tune_ddmin(const struct strvec *flags, tune_keeps_fn keeps, void *ctx, struct strvec *out, size_t *steps)
{
	struct strvec cur = STRVEC_INIT;
	sv_pushv(&cur, flags->v);
	size_t parts = 2;
	*steps = 0;
	while (cur.n >= 1 && !fb_interrupted) {
		if (parts > cur.n)
			parts = cur.n;
		/* the complements of the parts, asked together (one part: the empty set) */
		size_t asked = parts;
		struct strvec *subs = xcalloc(asked, sizeof(*subs));
		int *ok = xcalloc(asked, sizeof(int));
		for (size_t k = 0; k < asked; k++)
			subset_without(&cur, cur.n * k / asked, cur.n * (k + 1) / asked, &subs[k]);
		keeps(ctx, subs, asked, ok);
		(*steps)++;
		size_t found = asked;
		for (size_t k = 0; k < asked && found == asked; k++)
			if (ok[k])
				found = k;
		int reduced = found < asked;
		if (reduced) {
			sv_clear(&cur);
			sv_pushv(&cur, subs[found].v);
			parts = parts > 2 ? parts - 1 : 2;
		}
		for (size_t k = 0; k < asked; k++)
			sv_clear(&subs[k]);
		free(subs);
		free(ok);
		if (reduced)
			continue;
		if (parts >= cur.n)
			break; /* every single flag is needed: 1-minimal */
		parts = parts * 2 < cur.n ? parts * 2 : cur.n;
	}
	sv_pushv(out, cur.v);
	sv_clear(&cur);
}
