/* ratio_drift.c: see ratio_drift.h */
#include "results/ratio_drift.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/stats.h"
#include "core/util.h"

static int timed(const struct results_cell *c)
{
	return c->status == CELL_OK && !c->same_binary_as && !c->emulated && c->time_s && c->rounds;
}

static int same_block(const struct results_cell *a, const struct results_cell *b)
{
	return !strcmp(a->family, b->family) && !strcmp(a->variant, b->variant) && a->reference == b->reference &&
	       a->layout == b->layout && a->pass == b->pass;
}

/* b's runs over a's, paired by round, in b's order; how many. */
static size_t paired(const struct results_cell *a, const struct results_cell *b, double *out)
{
	json_t *ra = json_object_get(a->time_s, "runs"), *rb = json_object_get(b->time_s, "runs");
	size_t n = 0;
	for (size_t i = 0; i < b->nrounds && i < json_array_size(rb); i++) {
		if (b->rounds[i] < 0)
			continue;
		for (size_t k = 0; k < a->nrounds && k < json_array_size(ra); k++) {
			if (a->rounds[k] != b->rounds[i])
				continue;
			double ta = json_number_value(json_array_get(ra, k)), tb = json_number_value(json_array_get(rb, i));
			if (ta > 0 && tb > 0)
				out[n++] = log(tb / ta);
			break;
		}
	}
	return n;
}

double results_ratio_drift(const struct results_run *run, size_t *used)
{
	double **seq = xcalloc(run->ncells + 1, sizeof(*seq));
	size_t *n = xcalloc(run->ncells + 1, sizeof(*n)), k = 0;
	for (size_t i = 0; i < run->ncells; i++) {
		const struct results_cell *b = &run->cells[i];
		if (!timed(b))
			continue;
		const struct results_cell *a = NULL;
		for (size_t j = 0; j < i && !a; j++)
			if (timed(&run->cells[j]) && same_block(&run->cells[j], b))
				a = &run->cells[j];
		if (!a)
			continue;
		seq[k] = xcalloc(b->nrounds + 1, sizeof(double));
		n[k] = paired(a, b, seq[k]);
		k++;
	}
	double sd = stats_ratio_drift((const double *const *)seq, n, k, used);
	for (size_t i = 0; i < k; i++)
		free(seq[i]);
	free(seq);
	free(n);
	return sd;
}
