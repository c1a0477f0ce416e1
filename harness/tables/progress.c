/* progress.c: see progress.h */
#define _GNU_SOURCE
#include "progress.h"
#include "model.h"
#include "results.h"

#include <math.h>

void format_cell_value(const struct cell *c, const struct plan *p, char *buf, size_t n)
{
	const struct cell *m = c->same_binary_as >= 0 ? &p->cells[c->same_binary_as] : c;
	const char *unit = c->family->kind == KIND_STREAM ? "bytes/s" : c->family->rate_unit;
	char fig[64];
	if (c->status != CELL_OK) {
		snprintf(buf, n, "%s", cell_status_name(c->status));
		return;
	}
	if (c->restored) { /* resumed: the figures are in the journal's JSON */
		json_t *t = json_object_get(c->restored, "throughput_Bps");
		model_format_value(json_number_value(json_object_get(json_is_object(t) ? t : json_object_get(c->restored, "rate"),
								     "median")), json_is_object(t) ? "bytes/s" : unit, buf, n);
		return;
	}
	double r = cell_rate(m, NULL, NULL);
	model_format_value(r, unit, fig, sizeof(fig));
	if (m->time.n >= 3)
		snprintf(buf, n, "%s \xc2\xb1%.1f%%", isfinite(r) ? fig : "?", stats_ci_percent(&m->time));
	else
		snprintf(buf, n, "%s", isfinite(r) ? fig : "?");
}
