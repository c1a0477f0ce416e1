/* progress.c: see progress.h */
#define _GNU_SOURCE
#include "report/progress.h"
#include "report/model.h"
#include "results/results.h"

#include <math.h>

void format_cell_value(const struct cell *c, const struct plan *p, char *buf, size_t n)
{
	const struct cell *m = c->build.same_binary_as >= 0 ? &p->cells[c->build.same_binary_as] : c;
	if (c->status != CELL_OK) {
		snprintf(buf, n, "%s", cell_status_name(c->status));
		return;
	}
	/* the model's text and interval, so the progress line follows the tables' rule for ± */
	const struct stats *t = &m->measure.time;
	struct mtable tab = { .fmt = MF_VALUE,
			      .unit = c->spec.family->kind == KIND_STREAM ? "bytes/s" : c->spec.family->rate_unit };
	struct mcell x = { .state = MS_OK, .value = cell_rate(m, NULL, NULL), .ci = NAN, .level = NAN };
	if (!isfinite(x.value)) {
		snprintf(buf, n, "?");
		return;
	}
	/* the drift is known when the rounds are done: the tables add it */
	model_rate_interval(&x, t, 0);
	model_text(&tab, &x, buf, n, NULL, NULL);
}
