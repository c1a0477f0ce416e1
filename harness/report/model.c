/* model.c: the results model (see model.h). */
#define _GNU_SOURCE
#include "report/model.h"
#include "core/stats.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define SCHEMA_PREFIX "flagbench-results/"
#define SCHEMA_CURRENT "flagbench-results/1"

/* One results.json cell, with the texts the tables key on. */
struct src {
	json_t *j;
	const char *variant, *config, *status, *id;
	int ref;
};

struct var {
	const char *name, *title;
	int ref;
};

/* One family of one run, as read. */
struct fsrc {
	struct mrun *run;
	const char *name, *title, *kind, *unit, *baseline;
	int unchecked;     /* family.json "check": "none": outputs not proven right */
	struct src *cells;
	size_t n, ncfgs, nvars;
	const char **cfgs; /* non-reference configurations in order */
	struct var *vars;  /* variants in order, references last */
	struct fsrc *runs; /* tables across runs: the family in each run, rows (variant, config) */
};

/* p, freed with the model. */
static void *keep(struct model *m, void *p)
{
	if (m->nmem == m->amem)
		m->mem = xrealloc(m->mem, (m->amem = m->amem ? 2 * m->amem : 64) * sizeof(*m->mem));
	return m->mem[m->nmem++] = p;
}

static void *alloc(struct model *m, size_t n)
{
	return keep(m, xcalloc(1, n ? n : 1));
}

static const char *own(struct model *m, const char *fmt, ...) FB_PRINTF(2, 3);
static const char *own(struct model *m, const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		die(EXIT_USAGE, "out of memory");
	va_end(ap);
	return keep(m, s);
}

static const char *str(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* A text field of a results.json object; "?" where it is missing or not a string. */
static const char *text(json_t *o, const char *key)
{
	return str(o, key) ? str(o, key) : "?";
}

static int index_of(const char **v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return (int)i;
	return -1;
}

/* A name safe as a file name ([A-Za-z0-9._-], no leading dot), unique among used[0..n). */
static const char *slug(struct model *m, const char *s, const char **used, size_t n)
{
	char *b = (char *)own(m, "%s", *s ? s : "_");
	for (char *p = b; *p; p++)
		if (!strchr("._-", *p) && !(*p >= 'a' && *p <= 'z') && !(*p >= 'A' && *p <= 'Z') && !(*p >= '0' && *p <= '9'))
			*p = '_';
	if (*b == '.')
		*b = '_';
	const char *u = b;
	for (int k = 2; index_of(used, n, u) >= 0; k++)
		u = own(m, "%s-%d", b, k);
	return u;
}

/* ------------------------------------------------------------------ */
/* Number formats: the one place a figure gets its digits. */

static int per_op(const char *unit)
{
	return unit && (!strcmp(unit, "ops/s") || !strcmp(unit, "op/s"));
}

static int bytes_unit(const char *unit)
{
	return !unit || !strcmp(unit, "bytes/s") || !strcmp(unit, "B/s");
}

/* 3 decimals, or 3 significant digits for tiny figures. */
static int digits(double x, int d)
{
	if (x > 0 && x < 0.01) {
		double e = 2 - floor(log10(x));
		return e <= 9 ? (int)e : 9;
	}
	return d;
}

void model_format_value(double v, const char *unit, char *buf, size_t n)
{
	if (bytes_unit(unit))
		format_rate(v, buf, n);
	else if (!strcmp(unit, "bytes")) /* a size: 1024-based, whole bytes below 1 KiB */
		snprintf(buf, n, v < 1024 ? "%.0f B" : v < 1048576 ? "%.1f KiB" : "%.2f MiB", v < 1024 ? v : v < 1048576 ? v / 1024 : v / 1048576);
	else if (per_op(unit) && v > 0)
		snprintf(buf, n, "%.*f usec/op", digits(1e6 / v, 3), 1e6 / v);
	else if (v >= 1e9)
		snprintf(buf, n, "%.2f G%s", v / 1e9, unit);
	else if (v >= 1e6)
		snprintf(buf, n, "%.2f M%s", v / 1e6, unit);
	else if (v >= 1e3)
		snprintf(buf, n, "%.2f k%s", v / 1e3, unit);
	else
		snprintf(buf, n, "%.2f %s", v, unit);
}

void model_format_ratio(double r, char *buf, size_t n)
{
	snprintf(buf, n, "%.*fx", digits(r, 2), r);
}

void model_text(const struct mtable *t, const struct mcell *c, char *buf, size_t n, char *figure, char *pm)
{
	char fig[64] = "", p[32] = "";
	if (c->state != MS_OK) {
		snprintf(buf, n, "%s", c->word);
	} else {
		if (t->fmt == MF_VALUE)
			model_format_value(c->value, t->unit, fig, sizeof(fig));
		else
			model_format_ratio(c->value, fig, sizeof(fig));
		if (!isnan(c->ci) && c->level >= STATS_CI_TARGET)
			snprintf(p, sizeof(p), "\xc2\xb1%.1f%%", c->ci);
		else if (!isnan(c->ci)) /* never a 95 % it does not have: the level it has */
			snprintf(p, sizeof(p), "\xc2\xb1%.1f%% (%g%%)", c->ci, floor(c->level * 1000) / 10);
		char mk[16];
		snprintf(buf, n, "%s%s%s%s%s", fig, *p ? " " : "", p, c->marks ? " " : "", model_marks(c->marks, mk, sizeof(mk)));
	}
	if (figure)
		strcpy(figure, fig);
	if (pm)
		strcpy(pm, p);
}

const char *model_marks(unsigned marks, char *buf, size_t n)
{
	snprintf(buf, n, "%s%s%s%s", marks & MARK_THROTTLED ? "\xe2\x80\xa0" : "", marks & MARK_WARNED ? "\xe2\x80\xa1" : "",
		 marks & MARK_IMPRECISE ? "\xc2\xa7" : "", marks & MARK_UNCHECKED ? "\xc2\xb6" : "");
	return buf;
}

struct mscale model_scale(const struct mtable *t)
{
	double max = 0;
	for (size_t r = 0; r < t->nrows; r++)
		for (size_t c = 0; c < t->ncols; c++)
			if (t->rows[r].cells[c].state == MS_OK && t->rows[r].cells[c].value > max)
				max = t->rows[r].cells[c].value;
	if (t->fmt == MF_RATIO)
		return (struct mscale){ 1, 0, t->unit };
	if (bytes_unit(t->unit))
		return max >= 1073741824.0 ? (struct mscale){ 1073741824.0, 0, "GiB/s" }
					   : (struct mscale){ 1048576, 0, "MiB/s" };
	if (per_op(t->unit))
		return (struct mscale){ 1e6, 1, "usec/op" };
	return (struct mscale){ 1, 0, t->unit };
}

size_t model_legend(const struct mtable *t, const char *lines[MODEL_LEGEND_MAX])
{
	size_t n = 0;
	int value = t->fmt != MF_RATIO;
	if (t->shown & SHOWN_CI)
		lines[n++] = value ? "\xc2\xb1 is the half-width of the rerun interval, in percent: a rerun's figure falls "
				     "inside with 95 % probability (order statistics of the runs, exact and "
				     "distribution-free for runs alike and independent); a figure without \xc2\xb1 has "
				     "none (fewer than 3 runs)."
				   : "\xc2\xb1 is the half-width of the 95 % bootstrap interval of the ratio of the two "
				     "cells' figures, from both cells' runs, in percent; none where either cell has too few "
				     "runs for a 95 % interval of its own.";
	if (value && (t->shown & SHOWN_CI) && t->drift_note)
		lines[n++] = t->drift_note;
	if (t->shown & SHOWN_LOW_LEVEL)
		lines[n++] = "(83%) after a \xc2\xb1: too few runs for 95 %; the interval's exact confidence is that level.";
	if (t->shown & MARK_THROTTLED)
		lines[n++] = value ? "\xe2\x80\xa0 the CPU throttled while this cell was measured (throttled: yes): its "
				     "figure may be too low."
				   : "\xe2\x80\xa0 one of the two cells compared was measured while the CPU throttled.";
	if (t->shown & MARK_WARNED)
		lines[n++] = "\xe2\x80\xa1 the cell has warnings, listed below the tables.";
	if (t->shown & MARK_UNCHECKED)
		lines[n++] = "\xc2\xb6 unchecked: the family declares \"check\": \"none\", so this output was not proven right.";
	if (t->shown & MARK_IMPRECISE)
		lines[n++] = value ? (t->drift_note ? "\xc2\xa7 the cell's interval from its own runs (the machine's drift aside) did "
						      "not reach the run's precision target within its time budget (results.json: "
						      "precision)."
						    : "\xc2\xa7 the cell's interval did not reach the run's precision target within its time "
						      "budget (results.json: precision).")
				   : "\xc2\xa7 one of the two cells compared did not reach the run's precision target.";
	if (t->shown & SHOWN_REF)
		lines[n++] = "A reference row shows in each column the reference measured with that column's placement "
			     "and consumer, or its one measurement in every column.";
	return n;
}

/* ------------------------------------------------------------------ */
/* Cells as read. */

static struct src *find(struct fsrc *f, const char *variant, const char *config)
{
	for (size_t i = 0; f && variant && i < f->n; i++)
		if (!strcmp(f->cells[i].variant, variant) && !strcmp(f->cells[i].config, config))
			return &f->cells[i];
	return NULL;
}

/* The cell of variant v in column config.  A reference stands in every column:
 * its cell with the column's placement and consumer, else its only cell. */
static struct src *cell_at(struct fsrc *f, const struct var *v, const char *config)
{
	if (!v->ref)
		return find(f, v->name, config);
	struct src *col = NULL, *only = NULL;
	size_t count = 0;
	for (size_t i = 0; i < f->n && !col; i++)
		if (!f->cells[i].ref && !strcmp(f->cells[i].config, config))
			col = &f->cells[i];
	for (size_t i = 0; i < f->n; i++) {
		struct src *c = &f->cells[i];
		if (strcmp(c->variant, v->name) || find(f, c->variant, c->config) != c)
			continue;
		if (col && str_equal_or_null(str(c->j, "placement"), str(col->j, "placement")) &&
		    str_equal_or_null(str(c->j, "consumer"), str(col->j, "consumer")))
			return c;
		if (!count++)
			only = c;
	}
	return count == 1 ? only : NULL;
}

static int own_value(json_t *j, double *v)
{
	json_t *s = json_object_get(j, "throughput_Bps");
	json_t *rate = json_is_object(s) ? s : json_object_get(j, "rate");
	/* value: the run's statistic; median: runs written before it existed */
	json_t *figure = json_object_get(rate, "value");
	if (!json_is_number(figure))
		figure = json_object_get(rate, "median");
	*v = json_number_value(figure);
	return json_is_number(figure);
}

/* The cell whose measurement c shows: itself, or the one it shares its binary with. */
static json_t *measured(struct fsrc *f, struct src *c)
{
	double v;
	const char *same = str(c->j, "same_binary_as");
	size_t i;
	json_t *o;
	if (own_value(c->j, &v) || !same)
		return c->j;
	json_array_foreach(json_object_get(f->run->root, "cells"), i, o) {
		const char *id = str(o, "id");
		if (id && !strcmp(id, same))
			return o;
	}
	return c->j;
}

static int throttled(struct fsrc *f, struct src *c)
{
	const char *a = str(c->j, "throttled"), *b = str(measured(f, c), "throttled");
	return (a && !strcmp(a, "yes")) || (b && !strcmp(b, "yes"));
}

/* The cell's warnings but the throttle note that † already says. */
static size_t warnings(struct fsrc *f, struct src *c, struct strvec *out)
{
	json_t *w = json_object_get(c->j, "warnings");
	size_t n = 0, i;
	json_t *x;
	json_array_foreach(w, i, x) {
		const char *t = json_string_value(x) ? json_string_value(x) : "?";
		if (!strncmp(t, "throttled", 9) && !strcmp(c->status, "ok") && throttled(f, c))
			continue;
		if (out)
			sv_pushf(out, "%s: %s", c->id, t);
		n++;
	}
	return n;
}

static struct mcell word(const char *w)
{
	return (struct mcell){ !strcmp(w, "absent") ? MS_ABSENT : !strcmp(w, "n/a") ? MS_NA : MS_STATUS,
			       w, NAN, NAN, NAN, NAN, NAN, 0, NULL, NAN };
}

/* The runs of a measurement (time_s.runs) as stats; 0 when it has none. */
static int time_stats(json_t *mj, struct stats *st)
{
	json_t *t = json_object_get(mj, "time_s");
	if (!json_is_array(json_object_get(t, "runs")) || stats_from_json(st, t) < 0)
		return 0;
	if (st->n && st->point > 0)
		return 1;
	stats_free(st);
	return 0;
}

static int imprecise(json_t *mj)
{
	const char *s = str(json_object_get(mj, "precision"), "status");
	return s && !strcmp(s, "not_reached");
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

/* A measured cell: value, the rerun interval of its statistic's time from
 * its runs (none under 3 runs), marks.  With keep, the time stats go to the
 * caller (*kept 1; free them) instead of being freed. */
static struct mcell cell_with_stats(struct model *m, struct fsrc *f, struct src *c, struct stats *keep, int *kept)
{
	if (kept)
		*kept = 0;
	if (!c)
		return word("absent");
	if (strcmp(c->status, "ok"))
		return word(c->status);
	struct mcell x = word("no data");
	json_t *mj = measured(f, c);
	struct stats st;
	if (!own_value(mj, &x.value))
		return x;
	x.state = MS_OK;
	x.id = c->id;
	if (time_stats(mj, &st)) {
		model_rate_interval(&x, &st, f->run->drift_sd);
		if (keep) {
			*keep = st;
			*kept = 1;
		} else {
			stats_free(&st);
		}
	}
	x.marks = (throttled(f, c) ? MARK_THROTTLED : 0) | (warnings(f, c, NULL) ? MARK_WARNED : 0) |
		  (f->unchecked ? MARK_UNCHECKED : 0) | (imprecise(mj) ? MARK_IMPRECISE : 0);
	return x;
}

static struct mcell value_cell(struct model *m, struct fsrc *f, struct src *c)
{
	return cell_with_stats(m, f, c, NULL, NULL);
}

/* a / b built from two cells; the interval by bootstrap from both cells'
 * runs where both have a 95 % interval of their own (the value is a rate, so
 * a / b = time point of b / time point of a, times the ratio of the units);
 * † when either throttled, § when either missed its precision target; b's
 * own measurement against itself is exactly 1 with neither. */
static struct mcell ratio_cell(struct model *m, struct fsrc *f, struct src *a, struct src *b)
{
	struct stats sa, sb;
	int has_a, has_b;
	struct mcell x = cell_with_stats(m, f, a, &sa, &has_a), y = cell_with_stats(m, f, b, &sb, &has_b);
	if (x.state != MS_OK || y.state != MS_OK || !(y.value > 0)) {
		x = x.state != MS_OK ? x : word("n/a");
	} else {
		x.value /= y.value;
		x.marks = (x.marks | y.marks) & (MARK_THROTTLED | MARK_IMPRECISE | MARK_UNCHECKED);
		x.ci = x.lo = x.hi = x.level = NAN;
		double lo, hi;
		if (measured(f, a) == measured(f, b)) {
			x.marks = 0;
		} else if (has_a && has_b && sa.ci_level >= STATS_CI_TARGET && sb.ci_level >= STATS_CI_TARGET &&
			   stats_bootstrap_point_ratio(sb.runs, sb.n, sa.runs, sa.n, sa.quantile, STATS_CI_TARGET,
						       STATS_BOOTSTRAP_RESAMPLES, 0x5eedULL, &lo, &hi) == 0) {
			/* a 95 % interval of the statistic on both sides (not the
			 * wider rerun interval: the ratio is of the statistics) */
			double point = sb.point / sa.point;
			x.lo = x.value * lo / point;
			x.hi = x.value * hi / point;
			x.ci = 100 * (x.hi - x.lo) / 2 / x.value;
			x.level = STATS_CI_TARGET;
		}
	}
	if (has_a)
		stats_free(&sa);
	if (has_b)
		stats_free(&sb);
	return x;
}

/* ------------------------------------------------------------------ */
/* Reading runs. */

#define EMULATED_SUFFIX " (emulated)"

/* The length of the family name before EMULATED_SUFFIX, or 0 when name has none. */
static size_t emulated_base_len(const char *name)
{
	size_t len = strlen(name), k = strlen(EMULATED_SUFFIX);
	return len > k && !strcmp(name + len - k, EMULATED_SUFFIX) ? len - k : 0;
}

/* Cells run under an emulator become "<family> (emulated)": never ranked with native ones. */
static void separate_emulated(json_t *root)
{
	size_t i;
	json_t *c;
	json_array_foreach(json_object_get(root, "cells"), i, c)
		if (str(c, "family") && json_is_true(json_object_get(c, "emulated")))
			json_object_set_new(c, "family", json_sprintf("%s" EMULATED_SUFFIX, str(c, "family")));
}

/* Runs each built for their own profile's single -march meet build for build:
 * whether the run's native cells have one -march; apply: it becomes "(profile march)". */
static int one_march(json_t *root, int apply)
{
	const char *march = NULL;
	size_t i;
	json_t *c;
	json_array_foreach(json_object_get(root, "cells"), i, c) {
		const char *comp = str(c, "compiler"), *cfg = str(c, "config"), *ma = str(c, "march");
		if (!comp || !strcmp(comp, "none") || json_is_true(json_object_get(c, "emulated")) || !cfg)
			continue;
		if (!ma || (march && strcmp(march, ma)))
			return 0;
		march = ma;
		const char *a = strchr(cfg, '/'), *b = a ? strchr(a + 1, '/') : NULL, *rest = b ? strchr(b + 1, '/') : NULL;
		if (apply && b)
			json_object_set_new(c, "config", json_sprintf("%.*s(profile march)%s", (int)(b + 1 - cfg), cfg, rest ? rest : ""));
	}
	return march != NULL;
}

static int load_run(struct mrun *r, const char *arg)
{
	struct stat st;
	json_error_t err;
	if (stat(arg, &st) < 0)
		return error("%s: %s", arg, errno == ENOENT ? "no such run folder" : strerror(errno));
	char *path = S_ISDIR(st.st_mode) ? xasprintf("%s/results.json", arg) : xstrdup(arg);
	if (S_ISDIR(st.st_mode) && stat(path, &st) < 0) {
		free(path);
		return error("%s: no results.json in this run folder", arg);
	}
	r->root = json_load_file(path, JSON_REJECT_DUPLICATES, &err);
	const char *schema = str(r->root, "schema");
	if (!r->root)
		error("%s:%d:%d: %s", path, err.line, err.column, err.text);
	else if (!schema || strncmp(schema, SCHEMA_PREFIX, strlen(SCHEMA_PREFIX)))
		error("%s: not a flagbench results file (schema %s, expected \"%s\")", path, schema ? schema : "missing",
		      SCHEMA_CURRENT);
	else if (!json_is_array(json_object_get(r->root, "cells")))
		error("%s: no cells array", path);
	else {
		if (strcmp(schema, SCHEMA_CURRENT))
			warning("%s: schema %s, this flagbench knows %s: reading what matches", path, schema, SCHEMA_CURRENT);
		r->path = path;
		separate_emulated(r->root);
		return 0;
	}
	json_decref(r->root);
	r->root = NULL;
	free(path);
	return -1;
}

static void read_family(struct model *m, struct mrun *r, const char *name, struct fsrc *f)
{
	size_t n = json_array_size(json_object_get(r->root, "cells")), blen = emulated_base_len(name);
	int emulated = blen > 0;
	const char *base = emulated ? own(m, "%.*s", (int)blen, name) : name;
	json_t *cells = json_object_get(r->root, "cells"), *meta = json_object_get(json_object_get(r->root, "families"), base);
	memset(f, 0, sizeof(*f));
	f->run = r;
	f->name = name;
	f->cells = alloc(m, n * sizeof(*f->cells));
	f->cfgs = alloc(m, n * sizeof(*f->cfgs));
	f->vars = alloc(m, n * sizeof(*f->vars));
	for (size_t i = 0; i < n; i++) {
		json_t *c = json_array_get(cells, i);
		if (!str(c, "family") || strcmp(str(c, "family"), name))
			continue;
		struct src *s = &f->cells[f->n++];
		*s = (struct src){ c, text(c, "variant"), text(c, "config"), text(c, "status"), text(c, "id"), 0 };
		s->ref = !strcmp(s->config, "reference") || (str(c, "compiler") && !strcmp(str(c, "compiler"), "none"));
		if (!s->ref && index_of(f->cfgs, f->ncfgs, s->config) < 0)
			f->cfgs[f->ncfgs++] = s->config;
	}
	for (int ref = 0; ref <= 1; ref++)
		for (size_t i = 0; i < f->n; i++) {
			size_t k = 0;
			while (k < f->nvars && !(f->vars[k].ref == ref && !strcmp(f->vars[k].name, f->cells[i].variant)))
				k++;
			if (f->cells[i].ref == ref && k == f->nvars) {
				const char *t = str(f->cells[i].j, "title");
				f->vars[f->nvars++] = (struct var){ f->cells[i].variant, t ? t : f->cells[i].variant, ref };
			}
		}
	f->title = str(meta, "title") ? str(meta, "title") : base;
	if (emulated)
		f->title = own(m, "%s (emulated: times are not comparable with native ones)", f->title);
	f->unchecked = str(meta, "check") && !strcmp(str(meta, "check"), "none");
	f->kind = str(meta, "kind");
	for (size_t i = 0; !f->kind && i < f->n; i++)
		f->kind = str(f->cells[i].j, "kind");
	f->kind = f->kind ? f->kind : "stream";
	f->baseline = str(meta, "baseline");
	if (strcmp(f->kind, "compute"))
		f->unit = "bytes/s";
	for (size_t i = 0; !f->unit && i < f->n; i++)
		f->unit = str(json_object_get(f->cells[i].j, "rate"), "unit");
	if (!f->unit)
		f->unit = str(meta, "rate_unit");
	if (!f->unit)
		f->unit = own(m, "%s/s", str(meta, "unit") ? str(meta, "unit") : "ops");
}

/* ------------------------------------------------------------------ */
/* Tables. */

/* A table's cell from variant v and column k. */
typedef struct mcell (*cell_fn)(struct model *m, struct fsrc *f, const struct var *v, size_t k, const void *arg);

/* A table of the family: a row per variant (with the references when refs),
 * a column per name in cols; titles say what it is. */
static struct mtable *table(struct model *m, struct mfamily *fam, struct fsrc *f, const char *name, enum mfmt fmt,
			    const char **cols, size_t ncols, int refs, cell_fn fn, const void *arg)
{
	fam->tables = xrealloc(fam->tables, (fam->ntables + 1) * sizeof(*fam->tables));
	struct mtable *t = &fam->tables[fam->ntables++];
	*t = (struct mtable){ .name = name, .fmt = fmt, .unit = "x", .col2 = "title", .cols = cols, .ncols = ncols };
	t->rows = alloc(m, f->nvars * sizeof(*t->rows));
	for (size_t v = 0; v < f->nvars; v++) {
		if (f->vars[v].ref && !refs)
			continue;
		struct mrow *r = &t->rows[t->nrows++];
		*r = (struct mrow){ f->vars[v].ref ? own(m, "%s (reference)", f->vars[v].name) : f->vars[v].name,
				    f->vars[v].title, f->vars[v].ref, alloc(m, ncols * sizeof(*r->cells)) };
		for (size_t k = 0; k < ncols; k++)
			r->cells[k] = fn(m, f, &f->vars[v], k, arg);
	}
	return t;
}

/* What a table shows, for its legend.  A ratio table without one ratio of two
 * measurements (all n/a, or every cell its own baseline) is dropped. */
static void finish_table(struct mfamily *fam, struct mtable *t, const char *title, const char *caption)
{
	int any = t->fmt != MF_RATIO;
	t->title = title;
	t->caption = caption;
	for (size_t r = 0; r < t->nrows; r++)
		for (size_t c = 0; c < t->ncols; c++) {
			struct mcell *x = &t->rows[r].cells[c];
			t->shown |= x->marks | (isnan(x->ci) ? 0 : SHOWN_CI) | (t->rows[r].ref && t->ncols > 1 ? SHOWN_REF : 0) |
				    (!isnan(x->ci) && x->level < STATS_CI_TARGET ? SHOWN_LOW_LEVEL : 0);
			any |= x->state == MS_OK && (x->value != 1 || !isnan(x->ci));
		}
	if (!any || !t->ncols || !t->nrows)
		fam->ntables--;
}

/* Heatmap colours: in each row, cells in order of speed; a cell whose interval
 * overlaps that of the fastest of its group joins the group and its colour. */
static void shares(struct mtable *t)
{
	for (size_t r = 0; r < t->nrows; r++) {
		struct mcell *c = t->rows[r].cells, *lead = NULL;
		double best = 0;
		for (size_t k = 0; k < t->ncols; k++)
			if (c[k].state == MS_OK && c[k].value > best)
				best = c[k].value;
		for (;;) {
			struct mcell *next = NULL;
			for (size_t k = 0; k < t->ncols; k++)
				if (c[k].state == MS_OK && isnan(c[k].share) && (!next || c[k].value > next->value))
					next = &c[k];
			if (!next)
				break;
			if (!lead || !(next->hi >= lead->lo))
				lead = next;
			next->share = best > 0 ? lead->value / best : 0;
		}
	}
}

/* Components [from, to) of a configuration "gcc/-O2/native/..." (to -1: the rest). */
static const char *config_part(struct model *m, const char *cfg, int from, int to)
{
	int k = 0;
	const char *p = cfg, *start = from ? NULL : cfg;
	for (; *p; p++)
		if (*p == '/' && ++k == from)
			start = p + 1;
		else if (*p == '/' && k == to)
			break;
	return start ? own(m, "%.*s", (int)(p - start), start) : "";
}

static struct mcell value_fn(struct model *m, struct fsrc *f, const struct var *v, size_t k, const void *arg)
{
	return value_cell(m, f, cell_at(f, v, f->cfgs[k]));
}

static struct mcell speedup_fn(struct model *m, struct fsrc *f, const struct var *v, size_t k, const void *arg)
{
	return ratio_cell(m, f, cell_at(f, v, f->cfgs[k]), find(f, f->baseline, f->cfgs[k]));
}

/* Against the same variant built as "gcc/-O2" with the same other flags (arg),
 * or with glibc's malloc (arg NULL). */
static struct mcell against_fn(struct model *m, struct fsrc *f, const struct var *v, size_t k, const void *arg)
{
	const char *cfg = f->cfgs[k], *rest = config_part(m, cfg, 2, -1), *alloc = NULL, *base = cfg;
	struct src *c = find(f, v->name, cfg);
	if (arg)
		base = own(m, "%s%s%s", (const char *)arg, *rest ? "/" : "", rest);
	else if ((alloc = c ? str(c->j, "allocator") : NULL)) {
		size_t n = strlen(cfg), a = strlen(alloc);
		if (n > a && cfg[n - a - 1] == '/' && !strcmp(cfg + n - a, alloc))
			base = own(m, "%.*sglibc", (int)(n - a), cfg);
	}
	return ratio_cell(m, f, c, find(f, v->name, base));
}

/* Counters per unit of work: arg "instructions" or "cycles"; or the .text size: "text_bytes". */
static struct mcell counter_fn(struct model *m, struct fsrc *f, const struct var *v, size_t k, const void *arg)
{
	struct src *s = find(f, v->name, f->cfgs[k]);
	json_t *cell = s ? s->j : NULL, *x = !strcmp(arg, "text_bytes") ? json_object_get(cell, "text_bytes")
		: json_object_get(json_object_get(cell, "counters"), own(m, "%s_per_unit", (const char *)arg));
	if (!s || strcmp(s->status, "ok") || !json_is_number(x))
		return word(!s ? "absent" : strcmp(s->status, "ok") ? s->status : "n/a");
	return (struct mcell){ MS_OK, NULL, json_number_value(x), NAN, NAN, NAN, NAN, 0, s->id, NAN };
}

/* Why counts are missing, once per reason: "instructions not counted
 * (N cells): WHY", so a table without them says why. */
static void counts_skipped(struct fsrc *f, struct strvec *out)
{
	struct strvec whys = STRVEC_INIT;
	size_t *count = calloc(f->n ? f->n : 1, sizeof(size_t));
	for (size_t i = 0; i < f->n; i++) {
		const char *why = str(json_object_get(f->cells[i].j, "counters"), "skipped");
		if (!why || strcmp(f->cells[i].status, "ok"))
			continue;
		size_t k = 0;
		while (k < whys.n && strcmp(whys.v[k], why))
			k++;
		if (k == whys.n)
			sv_push(&whys, why);
		count[k]++;
	}
	for (size_t k = 0; k < whys.n; k++)
		sv_pushf(out, "instructions not counted (%zu cell%s): %s", count[k], count[k] == 1 ? "" : "s", whys.v[k]);
	free(count);
	sv_clear(&whys);
}

/* gcc against clang with the same other flags: the pairs of configurations. */
struct pairs {
	size_t n;
	int *g, *c;
};

static struct mcell compilers_fn(struct model *m, struct fsrc *f, const struct var *v, size_t k, const void *arg)
{
	const struct pairs *p = arg;
	struct src *a = find(f, v->name, f->cfgs[p->g[k]]), *b = find(f, v->name, f->cfgs[p->c[k]]);
	/* which build is not ok: "clang: timeout"; both the same way: "timeout" */
	struct src *bad = a && strcmp(a->status, "ok") ? a : b && strcmp(b->status, "ok") ? b : NULL;
	if (!a || !b || !bad)
		return !a || !b ? word("absent") : ratio_cell(m, f, a, b);
	return word(!strcmp(a->status, b->status) ? a->status : own(m, "%s: %s", config_part(m, bad->config, 0, 1), bad->status));
}

static void compilers_table(struct model *m, struct mfamily *fam, struct fsrc *f)
{
	struct pairs p = { 0, alloc(m, f->ncfgs * f->ncfgs * sizeof(int)), alloc(m, f->ncfgs * f->ncfgs * sizeof(int)) };
	const char **cols = alloc(m, f->ncfgs * f->ncfgs * sizeof(*cols)), *pair = NULL;
	int names = 0;
	for (size_t g = 0; g < f->ncfgs; g++)
		for (size_t c = 0; c < f->ncfgs; c++) {
			const char *cg = config_part(m, f->cfgs[g], 0, 1), *cc = config_part(m, f->cfgs[c], 0, 1);
			const char *rest = config_part(m, f->cfgs[g], 1, -1);
			if (!strstr(cg, "gcc") || strstr(cg, "clang") || !strstr(cc, "clang") ||
			    strcmp(rest, config_part(m, f->cfgs[c], 1, -1)))
				continue;
			names += !pair || strcmp(pair, own(m, "%s vs %s", cg, cc));
			pair = own(m, "%s vs %s", cg, cc);
			cols[p.n] = own(m, "%s, %s", pair, rest);
			p.g[p.n] = (int)g;
			p.c[p.n++] = (int)c;
		}
	for (size_t k = 0; k < p.n && names == 1; k++)
		cols[k] = config_part(m, f->cfgs[p.g[k]], 1, -1);
	finish_table(fam, table(m, fam, f, "compilers", MF_RATIO, cols, p.n, 0, compilers_fn, &p),
		     own(m, "%s: gcc against clang, built with the same other flags", f->title),
		     "Throughput of the gcc build divided by that of the clang build with the same other flags: above "
		     "1.00x gcc is faster.");
}

static const char *lead_words(const struct mcell *a, const struct mcell *b)
{
	if (isnan(a->lo) || isnan(b->hi))
		return "no interval to tell";
	return a->lo > b->hi ? "beyond both intervals" : "a tie within the intervals";
}

/* The answer in words, from the throughput table; for emulated cells, whose
 * times say little about the target, from the instructions table (fewest). */
static void answer(struct model *m, struct mfamily *fam, const struct mtable *t, int fewest)
{
	const char **won = alloc(m, 2 * t->nrows * sizeof(*won));
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
		won[2 * n] = config_part(m, t->cols[order[0]], 0, 1);
		won[2 * n++ + 1] = config_part(m, t->cols[order[0]], 1, -1);
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

/* "median", "minimum", "lower quartile (p25)", "p10": how a title names the run's statistic. */
static const char *statistic_words(struct model *m, const char *name)
{
	if (!strcmp(name, "min"))
		return "minimum";
	if (!strcmp(name, "p25"))
		return "lower quartile (p25)";
	return own(m, "%s", name);
}

static void one_run_family(struct model *m, struct mfamily *fam, struct fsrc *f, const char *against)
{
	int perop = per_op(f->unit), hasbase = 0;
	struct mtable *t = table(m, fam, f, "throughput", MF_VALUE, f->cfgs, f->ncfgs, 1, value_fn, NULL);
	t->unit = f->unit;
	int emulated = emulated_base_len(f->name) > 0;
	shares(t);
	if (!emulated)
		answer(m, fam, t, 0);
	const char *stat = statistic_words(m, f->run->statistic);
	if (f->run->drift_sd > 0)
		t->drift_note = own(m, "\xc2\xb1 includes the machine's drift over the run, %.1f %% either way (twice the "
				       "spread of its speed over the rounds, results.json run.drift): a rerun meets the "
				       "machine at another time.",
				    100 * (exp(STATS_DRIFT_SIGMAS * f->run->drift_sd) - 1));
	finish_table(fam, t,
		     own(m, "%s (%s): %s, %s", f->title, f->name,
			 perop ? "time per operation (usec/op, lower is faster)"
			 : strcmp(f->kind, "compute") ? "throughput" : "work per second",
			 stat),
		     perop ? own(m, "Microseconds per operation (usec/op: 10^6 divided by the %s), from the %s of the timed runs, lower is faster.", f->unit, stat)
		     : strcmp(f->kind, "compute") ? own(m, "Output bytes per second (1024-based: MiB/s, GiB/s), from the %s of the timed runs.", stat)
						  : own(m, "Work per second (%s), from the %s of the timed runs.", f->unit, stat));
	for (size_t v = 0; v < f->nvars; v++)
		hasbase |= f->baseline && !f->vars[v].ref && !strcmp(f->vars[v].name, f->baseline);
	if (hasbase)
		finish_table(fam, table(m, fam, f, "speedup", MF_RATIO, f->cfgs, f->ncfgs, 1, speedup_fn, NULL),
			     own(m, "%s: speedup against %s built the same way", f->title, f->baseline),
			     own(m, "Speedup against the baseline variant %s built with the same configuration%s.", f->baseline,
				 perop ? " (its time per operation divided by the variant's)" : ""));
	against = against ? against : f->ncfgs ? config_part(m, f->cfgs[0], 0, 2) : "";
	for (int glibc = 0; glibc <= 1; glibc++) {
		const char *base = glibc ? "glibc's malloc" : against;
		finish_table(fam, table(m, fam, f, glibc ? "vs_glibc" : "against", MF_RATIO, f->cfgs, f->ncfgs, 0, against_fn,
					glibc ? NULL : against),
			     own(m, "%s: against %s, built with the same other flags", f->title, base),
			     own(m, "Each variant's throughput divided by its own with %s and the same other flags: above "
				    "1.00x it is faster.", base));
	}
	compilers_table(m, fam, f);
	for (int cy = 0; cy <= 1; cy++) {
		const char *what = cy ? "cycles" : "instructions", *unit = NULL;
		t = table(m, fam, f, what, MF_VALUE, f->cfgs, f->ncfgs, 0, counter_fn, what);
		for (size_t i = 0; i < f->n && !unit; i++) {
			json_t *k = json_object_get(f->cells[i].j, "counters");
			if (json_is_number(json_object_get(k, own(m, "%s_per_unit", what))))
				unit = own(m, "%s/%s", what, str(k, "unit") ? str(k, "unit") : "unit");
		}
		t->unit = unit;
		t->nrows = unit ? t->nrows : 0;
		if (!cy)
			counts_skipped(f, &fam->warnings);
		finish_table(fam, t, own(m, "%s: %s per unit of work", f->title, what),
			     own(m, "%s per unit of work, counted in one run of the program (perf, callgrind, or qemu for "
				    "emulated cells).", what));
		if (emulated && !cy && t->nrows)
			answer(m, fam, t, 1);
	}
	t = table(m, fam, f, "text_bytes", MF_VALUE, f->cfgs, f->ncfgs, 0, counter_fn, "text_bytes");
	t->unit = "bytes";
	int sized = 0; /* results from before text_bytes have no such table */
	for (size_t i = 0; i < f->n; i++)
		sized |= json_is_integer(json_object_get(f->cells[i].j, "text_bytes"));
	t->nrows = sized ? t->nrows : 0;
	finish_table(fam, t, own(m, "%s: size of the code (.text)", f->title),
		     "The size of each binary's .text section: what a flag set costs in code.");
	for (size_t i = 0; i < f->n; i++) {
		struct src *c = &f->cells[i];
		const char *why = str(c->j, "reason");
		if (strcmp(c->status, "ok"))
			sv_pushf(&fam->problems, "%s: %s%s%s", c->id, c->status, why ? ": " : "", why ? why : "");
		warnings(f, c, &fam->warnings);
	}
}

/* Several runs: a row per (variant, config) of the family, a column per machine;
 * rows found in one run only come last. */
static struct mcell across_fn(struct model *m, struct fsrc *f, const struct var *v, size_t k, const void *sp)
{
	struct fsrc *r = &f->runs[k];
	struct src *c = find(r, v->name, v->title);
	return sp ? ratio_cell(m, r, c, find(r, r->baseline, v->title)) : value_cell(m, r, c);
}

static void merged_family(struct model *m, struct mfamily *fam, struct fsrc *all, const char **names)
{
	size_t nr = 0, cap = 0;
	struct fsrc rows = { .runs = alloc(m, m->nruns * sizeof(*all)) }, *fs = rows.runs;
	const char **labels = alloc(m, m->nruns * sizeof(*labels));
	for (size_t k = 0; k < m->nruns; k++) /* the runs that have the family */
		if (all[k].n) {
			labels[nr] = names[k];
			fs[nr++] = all[k];
			cap += all[k].n;
		}
	rows.vars = alloc(m, cap * sizeof(*rows.vars));
	for (int pass = 0; pass < 4; pass++) /* (count >= 2, single) x (variants, references) */
		for (size_t k = 0; k < nr; k++)
			for (size_t i = 0; i < fs[k].n; i++) {
				struct src *c = &fs[k].cells[i];
				size_t r = 0, count = 0;
				while (r < rows.nvars && (strcmp(rows.vars[r].name, c->variant) || strcmp(rows.vars[r].title, c->config)))
					r++;
				for (size_t j = 0; j < nr; j++)
					count += find(&fs[j], c->variant, c->config) != NULL;
				if (r == rows.nvars && c->ref == pass % 2 && (count < 2) == pass / 2)
					rows.vars[rows.nvars++] = (struct var){ c->variant, c->config, 0 };
			}
	/* the statistic of the figures: one for all runs, or each run's named */
	const char *stat = own(m, "from the %s of each cell's runs", statistic_words(m, fs[0].run->statistic));
	for (size_t k = 1; k < nr; k++)
		if (strcmp(fs[k].run->statistic, fs[0].run->statistic)) {
			stat = "from each run's own statistic, not alike:";
			for (size_t j = 0; j < nr; j++)
				stat = own(m, "%s%s %s %s", stat, j ? "," : "", labels[j], statistic_words(m, fs[j].run->statistic));
			break;
		}
	for (int sp = 0; sp <= 1; sp++) {
		struct mtable *t = table(m, fam, &rows, sp ? "speedup" : "throughput", sp ? MF_RATIO : MF_VALUE, labels, nr, 1,
					 across_fn, sp ? "" : NULL);
		t->col2 = "config";
		t->unit = sp ? "x" : fs[0].unit;
		for (size_t k = 0; k < nr && !sp; k++)
			if (fs[k].run->drift_sd > 0)
				t->drift_note = "\xc2\xb1 includes each machine's drift over its run (results.json run.drift): a "
						"rerun meets the machine at another time.";
		finish_table(fam, t, own(m, "%s: %s on each machine", fam->title, sp ? "speedup against the baseline" : "throughput"),
			     own(m, "Cells are matched by family, variant and build configuration; rows found in one run only "
				    "come last. Speedup is against the family baseline built the same way on the same machine. "
				    "Figures %s.", stat));
	}
}

struct mfamily *model_family(struct model *m, const char *name)
{
	for (size_t i = 0; i < m->nfams; i++)
		if (!strcmp(m->fams[i].name, name) || !strcmp(m->fams[i].slug, name))
			return &m->fams[i];
	return NULL;
}

int model_load(struct model *m, char **paths, size_t n, const char *against)
{
	memset(m, 0, sizeof(*m));
	m->runs = alloc(m, n * sizeof(*m->runs));
	int unify = n > 1;
	for (; m->nruns < n; m->nruns++) {
		struct mrun *r = &m->runs[m->nruns];
		if (load_run(r, paths[m->nruns]) < 0)
			return -1;
		unify &= one_march(r->root, 0);
	}
	const char **names = NULL, **labels = alloc(m, n * sizeof(*labels)), **slugs = alloc(m, n * sizeof(*slugs));
	size_t nnames = 0;
	for (size_t k = 0; k < n; k++) {
		struct mrun *r = &m->runs[k];
		json_t *run = json_object_get(r->root, "run"), *c;
		size_t i;
		if (unify)
			one_march(r->root, 1);
		const char *prof = str(run, "cpu_profile"), *cpu = str(json_object_get(r->root, "host"), "cpu_model");
		r->id = str(run, "id") ? str(run, "id") : "";
		r->statistic = str(run, "statistic") ? str(run, "statistic") : "median";
		double sd = json_number_value(json_object_get(json_object_get(run, "drift"), "sd_percent")) / 100;
		r->drift_sd = isfinite(sd) && sd > 0 ? sd : 0;
		r->label = prof && strcmp(prof, "host") ? prof : cpu ? cpu : *r->id ? r->id : "unknown";
		r->slug = slugs[k] = slug(m, *r->id ? r->id : "run", slugs, k);
		json_array_foreach(json_object_get(r->root, "cells"), i, c) {
			const char *f = str(c, "family");
			r->ncells++;
			r->nok += str(c, "status") && !strcmp(str(c, "status"), "ok");
			if (f && (!names || index_of(names, nnames, f) < 0)) {
				names = xrealloc(names, (nnames + 1) * sizeof(*names));
				names[nnames++] = f;
			}
		}
	}
	for (size_t k = 0; k < n; k++) {
		size_t same = 0;
		for (size_t j = 0; j < n; j++)
			same += !strcmp(m->runs[j].label, m->runs[k].label);
		labels[k] = same > 1 ? own(m, "%s (%s)", m->runs[k].label, *m->runs[k].id ? m->runs[k].id : own(m, "run %zu", k + 1))
				     : m->runs[k].label;
	}
	m->fams = alloc(m, nnames * sizeof(*m->fams));
	const char **fslugs = alloc(m, nnames * sizeof(*fslugs));
	struct fsrc *fs = alloc(m, n * sizeof(*fs));
	for (size_t i = 0; i < nnames; i++) {
		struct mfamily *fam = &m->fams[m->nfams++];
		for (size_t k = 0; k < n; k++)
			read_family(m, &m->runs[k], names[i], &fs[k]);
		fam->name = names[i];
		fam->slug = fslugs[i] = slug(m, names[i], fslugs, i);
		for (size_t k = 0; k < n && !fam->title; k++)
			if (fs[k].n)
				fam->title = fs[k].title, fam->kind = fs[k].kind;
		if (n == 1)
			one_run_family(m, fam, &fs[0], against);
		else
			merged_family(m, fam, fs, labels);
	}
	free(names);
	return 0;
}

void model_free(struct model *m)
{
	for (size_t i = 0; i < m->nfams; i++) {
		free(m->fams[i].tables);
		sv_clear(&m->fams[i].answer);
		sv_clear(&m->fams[i].problems);
		sv_clear(&m->fams[i].warnings);
	}
	for (size_t k = 0; k < m->nruns; k++) {
		json_decref(m->runs[k].root);
		free((char *)m->runs[k].path);
	}
	for (size_t i = m->nmem; i > 0; i--)
		free(m->mem[i - 1]);
	free(m->mem);
	memset(m, 0, sizeof(*m));
}
