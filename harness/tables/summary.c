/* summary.c: see summary.h */
#define _GNU_SOURCE
#include "summary.h"

#include <math.h>
#include <string.h>

#include "results.h"

static void format_compute(double rate, const char *unit, char *buf, size_t n)
{
	if (!strcmp(unit, "bytes/s")) {
		format_rate(rate, buf, n);
		return;
	}
	const char *prefix = "";
	double v = rate;
	if (v >= 1e9) {
		v /= 1e9;
		prefix = "G";
	} else if (v >= 1e6) {
		v /= 1e6;
		prefix = "M";
	} else if (v >= 1e3) {
		v /= 1e3;
		prefix = "k";
	}
	snprintf(buf, n, "%.3g %s%s", v, prefix, unit);
}

void format_cell_value(const struct cell *c, const struct plan *p, char *buf, size_t n)
{
	const struct cell *m = c->build.same_binary_as >= 0 ? &p->cells[c->build.same_binary_as] : c;
	if (c->status != CELL_OK) {
		snprintf(buf, n, "%s", cell_status_name(c->status));
		return;
	}
	char rate[48];
	double r = cell_rate(m, NULL, NULL);
	if (!isfinite(r)) {
		snprintf(buf, n, "?");
		return;
	}
	if (c->spec.family->kind == KIND_STREAM)
		format_rate(r, rate, sizeof(rate));
	else
		format_compute(r, c->spec.family->rate_unit, rate, sizeof(rate));
	/* ± only where there is an interval (3 runs or more), as in the tables */
	char pm[32] = "";
	if (m->measure.time.n >= 3)
		snprintf(pm, sizeof(pm), " ±%.1f%%", stats_ci_percent(&m->measure.time));
	if (isfinite(c->vs_glibc))
		snprintf(buf, n, "%s%s %.3gx glibc", rate, pm, c->vs_glibc);
	else if (isfinite(c->speedup) && c->spec.variant && c->spec.family->baseline &&
		 strcmp(c->spec.variant->name, c->spec.family->baseline))
		snprintf(buf, n, "%s%s %.3gx", rate, pm, c->speedup);
	else
		snprintf(buf, n, "%s%s", rate, pm);
}

static int same_dims(const struct cell *a, const struct cell *b)
{
	return str_equal_or_null(a->spec.placement, b->spec.placement) && str_equal_or_null(a->spec.consumer, b->spec.consumer);
}

/* One table per family, and emulated cells (cross builds) in a table of
 * their own: their times never rank against native ones. */
static int same_table(const struct cell *a, const struct cell *b)
{
	return a->spec.family == b->spec.family && !a->spec.cross == !b->spec.cross;
}

void print_summary(FILE *out, const struct plan *p)
{
	for (size_t fi = 0; fi < p->n; fi++) {
		const struct family *f = p->cells[fi].spec.family;
		const struct cell *first = &p->cells[fi];
		/* first cell of each table only */
		int seen = 0;
		for (size_t k = 0; k < fi; k++)
			seen |= same_table(&p->cells[k], first);
		if (seen)
			continue;
		/* columns: distinct configs in plan order (references excluded) */
		const char *cols[256];
		const struct cell *colcell[256];
		size_t ncols = 0;
		const char *rows[256];
		size_t nrows = 0;
		for (size_t i = fi; i < p->n; i++) {
			const struct cell *c = &p->cells[i];
			if (!same_table(c, first))
				continue;
			const char *row = c->spec.variant ? c->spec.variant->name : c->spec.reference->name;
			size_t k;
			for (k = 0; k < nrows && strcmp(rows[k], row); k++)
				;
			if (k == nrows && nrows < 256)
				rows[nrows++] = row;
			if (!c->spec.variant)
				continue;
			for (k = 0; k < ncols && strcmp(cols[k], c->spec.config); k++)
				;
			if (k == ncols && ncols < 256) {
				colcell[ncols] = c;
				cols[ncols++] = c->spec.config;
			}
		}
		const char *emu = first->spec.cross ? " (emulated: not comparable with native)" : "";
		if (f->baseline)
			fprintf(out, "\n%s%s: %s ±95%% interval, speedup against %s built the same way\n", f->title, emu,
				f->kind == KIND_STREAM ? "throughput" : "rate", f->baseline);
		else
			fprintf(out, "\n%s%s: %s ±95%% interval\n", f->title, emu,
				f->kind == KIND_STREAM ? "throughput" : "rate");
		/* one block of at most 3 columns per line, to stay readable */
		for (size_t c0 = 0; c0 < (ncols ? ncols : 1); c0 += 3) {
			fprintf(out, "  %-14s", "variant");
			for (size_t c = c0; c < c0 + 3 && c < ncols; c++)
				fprintf(out, " | %-30s", cols[c]);
			fprintf(out, "\n");
			for (size_t r = 0; r < nrows; r++) {
				fprintf(out, "  %-14s", rows[r]);
				for (size_t c = c0; c < c0 + 3 && c < (ncols ? ncols : 1); c++) {
					char val[96] = "-";
					for (size_t i = fi; i < p->n; i++) {
						const struct cell *x = &p->cells[i];
						const char *xr = x->spec.variant ? x->spec.variant->name : x->spec.reference->name;
						if (!same_table(x, first) || strcmp(xr, rows[r]))
							continue;
						/* a reference row fills every column of its placement and consumer */
						if ((x->spec.reference && (!ncols || same_dims(x, colcell[c]))) ||
						    (ncols && !strcmp(x->spec.config, cols[c]))) {
							format_cell_value(x, p, val, sizeof(val));
							break;
						}
					}
					fprintf(out, " | %-30s", val);
				}
				fprintf(out, "\n");
			}
		}
	}
}
