/* progress.c: see progress.h */
#define _GNU_SOURCE
#include "progress.h"
#include "model.h"
#include "results.h"

#include <math.h>

void format_cell_value(const struct cell *c, const struct plan *p, char *buf, size_t n)
{
	const struct cell *m = c->build.same_binary_as >= 0 ? &p->cells[c->build.same_binary_as] : c;
	double r = cell_rate(m, NULL, NULL);
	char fig[64] = "?";
	if (isfinite(r))
		model_format_value(r, c->spec.family->kind == KIND_STREAM ? "bytes/s" : c->spec.family->rate_unit, fig, sizeof(fig));
	if (c->status != CELL_OK)
		snprintf(buf, n, "%s", cell_status_name(c->status));
	else
		snprintf(buf, n, m->measure.time.n >= 3 ? "%s \xc2\xb1%.1f%%" : "%s", fig, stats_ci_percent(&m->measure.time));
}
