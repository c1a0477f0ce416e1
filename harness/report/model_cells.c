/* model_cells.c: the model's cells as read, their values and ratios (see model_cells.h). */
#define _GNU_SOURCE
#include "report/model_cells.h"
#include "core/json_util.h"
#include "core/stats.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* The model's memory. */

void *model_keep(struct model *m, void *p)
{
	if (m->nmem == m->amem)
		m->mem = xrealloc(m->mem, (m->amem = m->amem ? 2 * m->amem : 64) * sizeof(*m->mem));
	return m->mem[m->nmem++] = p;
}

void *model_alloc(struct model *m, size_t n)
{
	return model_keep(m, xcalloc(1, n ? n : 1));
}

const char *model_own(struct model *m, const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		die(EXIT_USAGE, "out of memory");
	va_end(ap);
	return model_keep(m, s);
}

int model_index_of(const char **v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return (int)i;
	return -1;
}

const char *model_slug(struct model *m, const char *s, const char **used, size_t n)
{
	char *b = (char *)model_own(m, "%s", *s ? s : "_");
	for (char *p = b; *p; p++)
		if (!strchr("._-", *p) && !(*p >= 'a' && *p <= 'z') && !(*p >= 'A' && *p <= 'Z') && !(*p >= '0' && *p <= '9'))
			*p = '_';
	if (*b == '.')
		*b = '_';
	const char *u = b;
	for (int k = 2; model_index_of(used, n, u) >= 0; k++)
		u = model_own(m, "%s-%d", b, k);
	return u;
}

/* ------------------------------------------------------------------ */
/* Cells as read. */

struct results_cell *model_find(struct fsrc *f, const char *variant, const char *config)
{
	for (size_t i = 0; f && variant && i < f->n; i++)
		if (!strcmp(f->cells[i]->variant, variant) && !strcmp(f->cells[i]->config, config))
			return f->cells[i];
	return NULL;
}

/* A reference stands in every column: its cell with the column's placement
 * and consumer, else its only cell. */
struct results_cell *model_cell_at(struct fsrc *f, const struct var *v, const char *config)
{
	if (!v->ref)
		return model_find(f, v->name, config);
	struct results_cell *col = NULL, *only = NULL;
	size_t count = 0;
	for (size_t i = 0; i < f->n && !col; i++)
		if (!f->cells[i]->reference && !strcmp(f->cells[i]->config, config))
			col = f->cells[i];
	for (size_t i = 0; i < f->n; i++) {
		struct results_cell *c = f->cells[i];
		if (strcmp(c->variant, v->name) || model_find(f, c->variant, c->config) != c)
			continue;
		if (col && str_equal_or_null(c->placement, col->placement) && str_equal_or_null(c->consumer, col->consumer))
			return c;
		if (!count++)
			only = c;
	}
	return count == 1 ? only : NULL;
}

/* The cell whose measurement c shows: itself, or the one it shares its binary with. */
const struct results_cell *model_measured(struct fsrc *f, const struct results_cell *c)
{
	const struct results_cell *m = isnan(c->value) ? results_cell_by_id(&f->run->run, c->same_binary_as) : NULL;
	return m ? m : c;
}

static int throttled(struct fsrc *f, struct results_cell *c)
{
	return c->throttled == THROTTLE_YES || model_measured(f, c)->throttled == THROTTLE_YES;
}

size_t model_warnings(struct fsrc *f, struct results_cell *c, struct strvec *out)
{
	size_t n = 0;
	for (size_t i = 0; i < c->nwarnings; i++) {
		const char *t = c->warnings[i];
		if (!strncmp(t, "throttled", 9) && c->status == CELL_OK && throttled(f, c))
			continue;
		if (out)
			sv_pushf(out, "%s: %s", c->id, t);
		n++;
	}
	return n;
}

struct results_cell *model_cell_of(struct fsrc *f, const struct mcell *x)
{
	return x->id ? results_cell_by_id(&f->run->run, x->id) : NULL;
}

struct mcell model_word(const char *w)
{
	return (struct mcell){ !strcmp(w, "absent") ? MS_ABSENT : !strcmp(w, "n/a") ? MS_NA : MS_STATUS,
			       w, NAN, NAN, NAN, NAN, NAN, 0, NULL, NAN, VERDICT_NO_DATA, COMPARISON_NONE, 0, 0 };
}

int model_time_stats(const struct results_cell *mc, struct stats *st)
{
	if (!mc->time.recorded)
		return 0;
	double q;
	if (stats_statistic_parse(mc->time.statistic, &q) < 0)
		q = 0.5;
	/* a non-number reads 0, as the times were always read */
	double *v = xcalloc(mc->time.nruns + 1, sizeof(double));
	for (size_t i = 0; i < mc->time.nruns; i++)
		v[i] = isnan(mc->time.runs[i]) ? 0 : mc->time.runs[i];
	stats_compute_at(st, v, mc->time.nruns, q);
	free(v);
	if (st->n && st->point > 0)
		return 1;
	stats_free(st);
	return 0;
}

void model_rate_interval(struct mcell *x, const struct stats *st, double drift_sd)
{
	if (st->n < 3)
		return;
	double widen = exp(STATS_DRIFT_SIGMAS * drift_sd);
	/* the rerun interval: a published figure says where a rerun lands,
	 * not only where the statistic is; the value is a rate, so the slow
	 * end of the time is its low end */
	x->lo = x->value * st->point / (st->rerun_high * widen);
	x->hi = x->value * st->point * widen / st->rerun_low;
	x->ci = 100 * (x->hi - x->lo) / 2 / x->value;
	x->level = st->rerun_level;
}

/* The state a stream cell's figure is of, where its run saw more than one
 * (system/handoff.h): the one most of the family's batches ran in, where
 * the cell has COMPARISON_MIN_RUNS runs in it, else the one most of its own
 * runs are in; 0: all its runs (one state, or none known). */
static unsigned figure_state(const struct fsrc *f, const struct results_cell *mc, const struct stats *st)
{
	if (!mc->states || mc->handoff_states < 2)
		return 0;
	size_t batches[LEVELS_MAX] = { 0 }, mine[LEVELS_MAX] = { 0 };
	for (size_t i = 0; i < f->n; i++)
		for (unsigned g = 0; g < LEVELS_MAX; g++)
			batches[g] += f->cells[i]->state_batches[g];
	for (size_t r = 0; r < st->n; r++)
		if (mc->states[r] >= 1 && mc->states[r] <= LEVELS_MAX)
			mine[mc->states[r] - 1]++;
	unsigned most = 0, own = 0;
	for (unsigned g = 0; g < LEVELS_MAX; g++) {
		if (batches[g] > batches[most])
			most = g;
		if (mine[g] > mine[own])
			own = g;
	}
	return mine[most] >= COMPARISON_MIN_RUNS ? most + 1 : mine[own] ? own + 1 : 0;
}

/* st (all of mc's runs) becomes the stats of its runs in state `in`. */
static void state_stats(const struct results_cell *mc, unsigned in, struct stats *st)
{
	double *v = xmalloc((st->n + 1) * sizeof(*v));
	size_t n = 0;
	for (size_t r = 0; r < st->n; r++)
		if (mc->states[r] == in)
			v[n++] = st->runs[r];
	double q = st->quantile;
	stats_free(st);
	stats_compute_at(st, v, n, q);
	free(v);
}

/* A measured cell: value, the rerun interval of its statistic's time from
 * its runs (none under 3 runs), marks.  With keep, the time stats go to the
 * caller (*kept 1; free them) instead of being freed. */
static struct mcell cell_with_stats(struct fsrc *f, struct results_cell *c, struct stats *keep, int *kept)
{
	if (kept)
		*kept = 0;
	if (!c)
		return model_word("absent");
	if (c->status != CELL_OK)
		return model_word(c->status_name);
	struct mcell x = model_word("no data");
	const struct results_cell *mc = model_measured(f, c);
	struct stats st;
	if (isnan(mc->value))
		return x;
	x.value = mc->value;
	x.state = MS_OK;
	x.id = c->id;
	unsigned in = 0;
	if (model_time_stats(mc, &st)) {
		in = figure_state(f, mc, &st);
		if (in) {
			/* a rate is work over time: the state's statistic moves it */
			double all = st.point;
			state_stats(mc, in, &st);
			x.value = mc->value * all / st.point;
		}
		model_rate_interval(&x, &st, f->run->drift_sd);
		if (keep) {
			*keep = st;
			*kept = 1;
		} else {
			stats_free(&st);
		}
	}
	x.marks = (throttled(f, c) ? MARK_THROTTLED : 0) | (model_warnings(f, c, NULL) ? MARK_WARNED : 0) |
		  (f->unchecked ? MARK_UNCHECKED : 0) | (mc->precision == PRECISION_NOT_REACHED ? MARK_IMPRECISE : 0) |
		  (in == 1 ? MARK_NEAR : in > 1 ? MARK_FAR : 0);
	return x;
}

struct mcell model_value(struct model *m, struct fsrc *f, struct results_cell *c)
{
	return cell_with_stats(f, c, NULL, NULL);
}

const char *model_config_part(struct model *m, const char *cfg, int from, int to)
{
	int k = 0;
	const char *p = cfg, *start = from ? NULL : cfg;
	for (; *p; p++)
		if (*p == '/' && ++k == from)
			start = p + 1;
		else if (*p == '/' && k == to)
			break;
	return start ? model_own(m, "%.*s", (int)(p - start), start) : "";
}

/* ------------------------------------------------------------------ */
/* Reading runs. */

#define EMULATED_SUFFIX " (emulated)"

size_t model_emulated_len(const char *name)
{
	size_t len = strlen(name), k = strlen(EMULATED_SUFFIX);
	return len > k && !strcmp(name + len - k, EMULATED_SUFFIX) ? len - k : 0;
}

/* Cells run under an emulator become "<family> (emulated)": never ranked
 * with native ones (in the view only: the document stays as read). */
static void separate_emulated(struct model *m, struct results_run *run)
{
	for (size_t i = 0; i < run->ncells; i++)
		if (run->cells[i].emulated)
			run->cells[i].family = model_own(m, "%s" EMULATED_SUFFIX, run->cells[i].family);
}

int model_one_march(struct model *m, struct mrun *r, int apply)
{
	const char *march = NULL;
	for (size_t i = 0; i < r->run.ncells; i++) {
		struct results_cell *c = &r->run.cells[i];
		const char *cfg = c->config, *ma = c->march;
		if (c->reference || !c->compiler || c->emulated)
			continue;
		if (!ma || (march && strcmp(march, ma)))
			return 0;
		march = ma;
		const char *a = strchr(cfg, '/'), *b = a ? strchr(a + 1, '/') : NULL, *rest = b ? strchr(b + 1, '/') : NULL;
		if (apply && b)
			c->config = model_own(m, "%.*s(profile march)%s", (int)(b + 1 - cfg), cfg, rest ? rest : "");
	}
	return march != NULL;
}

int model_read_run(struct model *m, struct mrun *r, const char *arg)
{
	if (results_open(arg, &r->run) < 0)
		return -1;
	r->path = r->run.file;
	separate_emulated(m, &r->run);
	return 0;
}

void model_read_family(struct model *m, struct mrun *r, const char *name, struct fsrc *f)
{
	size_t n = r->run.ncells, blen = model_emulated_len(name);
	int emulated = blen > 0;
	const char *base = emulated ? model_own(m, "%.*s", (int)blen, name) : name;
	const struct results_family *meta = results_family_by_name(&r->run, base);
	struct results_family none = { .name = base };
	if (!meta)
		meta = &none;
	memset(f, 0, sizeof(*f));
	f->run = r;
	f->name = name;
	f->cells = model_alloc(m, n * sizeof(*f->cells));
	f->cfgs = model_alloc(m, n * sizeof(*f->cfgs));
	f->vars = model_alloc(m, n * sizeof(*f->vars));
	for (size_t i = 0; i < n; i++) {
		struct results_cell *c = &r->run.cells[i];
		if (strcmp(c->family, name))
			continue;
		f->cells[f->n++] = c;
		if (!c->reference && model_index_of(f->cfgs, f->ncfgs, c->config) < 0)
			f->cfgs[f->ncfgs++] = c->config;
	}
	for (int ref = 0; ref <= 1; ref++)
		for (size_t i = 0; i < f->n; i++) {
			size_t k = 0;
			while (k < f->nvars && !(f->vars[k].ref == ref && !strcmp(f->vars[k].name, f->cells[i]->variant)))
				k++;
			if (f->cells[i]->reference == ref && k == f->nvars) {
				const char *t = f->cells[i]->title;
				f->vars[f->nvars++] = (struct var){ f->cells[i]->variant, t ? t : f->cells[i]->variant, ref };
			}
		}
	f->title = meta->title ? meta->title : base;
	if (emulated)
		f->title = model_own(m, "%s (emulated: times are not comparable with native ones)", f->title);
	f->unchecked = meta->check && !strcmp(meta->check, "none");
	f->kind = meta->kind;
	for (size_t i = 0; !f->kind && i < f->n; i++)
		f->kind = f->cells[i]->kind;
	f->kind = f->kind ? f->kind : "stream";
	f->baseline = meta->baseline;
	if (strcmp(f->kind, "compute"))
		f->unit = "bytes/s";
	for (size_t i = 0; !f->unit && i < f->n; i++)
		f->unit = f->cells[i]->rate_unit;
	if (!f->unit)
		f->unit = meta->rate_unit;
	if (!f->unit)
		f->unit = model_own(m, "%s/s", meta->unit ? meta->unit : "ops");
}
