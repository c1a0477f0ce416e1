/* tune_search_seed.c: the ensemble's seeds (tune_search.h's
 * tune_search_seeds): what is known to matter, tried before anything is
 * sampled.  Where a compile takes a minute, a batch or two is all a budget
 * buys, and the next -O level and the flags it turns on are the
 * candidates most likely to pay (OpenTuner's gccflags seeds its search
 * with the -O levels for the same reason). */
#include "analysis/tune_search.h"

#include <stdlib.h>

static int seen(const struct tune_change *out, size_t n, size_t max, size_t dim, size_t choice)
{
	for (size_t i = 0; i < n && i < max; i++)
		if (out[i].dim == dim && out[i].choice == choice)
			return 1;
	return 0;
}

static void put(struct tune_change *out, size_t *n, size_t max, size_t dim, size_t choice)
{
	/* without out, duplicates cannot be told apart, so out is needed to count them */
	if (out && *n < max)
		out[*n] = (struct tune_change){ dim, choice };
	(*n)++;
}

size_t tune_search_seeds(const struct tune_space *s, struct tune_change *out, size_t max)
{
	size_t od = tune_space_opt_dim(s);
	if (od == (size_t)-1)
		return 0;
	const struct tune_dim *opt = &s->dims[od];
	/* counting alone needs a list to find repeats in */
	struct tune_change *list = out;
	size_t cap = max;
	if (!out) {
		cap = opt->nchoices;
		for (size_t d = 0; d < s->n; d++)
			cap += s->dims[d].level_choice ? opt->nchoices : 0;
		list = xcalloc(cap + 1, sizeof(*list));
	}
	size_t n = 0;
	for (size_t l = 0; l < opt->nchoices; l++)
		if (l != opt->start)
			put(list, &n, cap, od, l);
	for (size_t l = 0; l < opt->nchoices; l++) {
		if (l == opt->start)
			continue;
		for (size_t d = 0; d < s->n; d++) {
			const size_t *lc = s->dims[d].level_choice;
			if (!lc || lc[l] == lc[opt->start] || lc[l] == s->dims[d].start || lc[l] >= s->dims[d].nchoices ||
			    seen(list, n, cap, d, lc[l]))
				continue;
			put(list, &n, cap, d, lc[l]);
		}
	}
	if (!out)
		free(list);
	return n;
}
