/* model_answer.c: see model_answer.h */
#define _GNU_SOURCE
#include "report/model_answer.h"
#include "report/model_cells.h"

#include <math.h>
#include <string.h>

static const char *lead_words(const struct mcell *a, const struct mcell *b)
{
	if (isnan(a->lo) || isnan(b->hi))
		return "no interval to tell";
	return a->lo > b->hi ? "beyond both intervals" : "a tie within the intervals";
}

/* The answer in words, from the throughput table; for emulated cells, whose
 * times say little about the target, from the instructions table (fewest). */
void model_answer(struct model *m, struct mfamily *fam, const struct mtable *t, int fewest)
{
	const char **won = model_alloc(m, 2 * t->nrows * sizeof(*won));
	size_t n = 0, real = 0;
	char r1[32], r2[32];
	for (size_t r = 0; r < t->nrows; r++) {
		const struct mcell *c = t->rows[r].cells;
		int order[t->ncols + 1], k = 0;
		for (size_t i = 0; i < t->ncols; i++)
			if (c[i].state == MS_OK && !t->rows[r].ref) {
				int j = k++;
				for (; j > 0 && (fewest ? c[order[j - 1]].value > c[i].value : c[order[j - 1]].value < c[i].value); j--)
					order[j] = order[j - 1];
				order[j] = (int)i;
			}
		if (k == 1)
			sv_pushf(&fam->answer, "%s/%s: only %s measured", fam->name, t->rows[r].label, t->cols[order[0]]);
		if (k < 2)
			continue;
		const struct mcell *a = &c[order[0]], *b = &c[order[1]], *z = &c[order[k - 1]];
		model_format_ratio(fewest ? b->value / a->value : a->value / b->value, r1, sizeof(r1));
		model_format_ratio(fewest ? z->value / a->value : a->value / z->value, r2, sizeof(r2));
		if (fewest)
			sv_pushf(&fam->answer, "%s/%s: %s fewest instructions, the runner-up %s counts %s as many%s%s%s%s",
				 fam->name, t->rows[r].label, t->cols[order[0]], t->cols[order[1]], r1,
				 k > 2 ? ", the most " : "", k > 2 ? t->cols[order[k - 1]] : "", k > 2 ? " " : "", k > 2 ? r2 : "");
		else
			sv_pushf(&fam->answer, "%s/%s: %s fastest, %s the runner-up %s (%s)%s%s%s%s", fam->name, t->rows[r].label,
			 t->cols[order[0]], r1, t->cols[order[1]], lead_words(a, b), k > 2 ? ", " : "", k > 2 ? r2 : "",
			 k > 2 ? " the slowest " : "", k > 2 ? t->cols[order[k - 1]] : "");
		real += fewest || !strcmp(lead_words(a, b), "beyond both intervals"); /* counts are exact */
		won[2 * n] = model_config_part(m, t->cols[order[0]], 0, 1);
		won[2 * n++ + 1] = model_config_part(m, t->cols[order[0]], 1, -1);
	}
	if (n < 2)
		return;
	size_t best[2] = { 0, 0 }, count[2] = { 0, 0 };
	for (int part = 0; part < 2; part++)
		for (size_t i = 0; i < n; i++) {
			size_t c = 0;
			for (size_t j = 0; j < n; j++)
				c += !strcmp(won[2 * i + part], won[2 * j + part]);
			if (c > count[part])
				best[part] = i, count[part] = c;
		}
	sv_pushf(&fam->answer, fewest ? "%s: most often fewest instructions: compiler %s for %zu of %zu variants, flags %s for "
					"%zu of %zu; %zu of these %zu leads are exact counts"
				      : "%s: most often fastest: compiler %s for %zu of %zu variants, flags %s for %zu of %zu; "
			       "%zu of these %zu leads are beyond both intervals", fam->name, won[2 * best[0]], count[0],
		 n, won[2 * best[1] + 1], count[1], n, real, n);
}

