/* render.c: `flagbench report` and `flagbench merge` (see render.h).
 *
 * The table rules are those of plots/common.jq: families in the order their
 * cells appear; variants in order, references last; build configurations
 * ("config") in order; a reference cell stands in every column; a cell that
 * is not ok shows its status word, a missing one "absent"; a cell whose
 * binary was measured under another id (same_binary_as) shows that value;
 * speedup is the cell's own field, else its value over the baseline
 * variant's with the same config.  A reference row shows in each column the
 * reference cell with that column's placement and consumer.  A figure carries
 * its ± (time_s.ci95_percent, none for fewer than 3 runs) and its marks (†
 * throttled, ‡ warnings); a speedup's ± combines both cells' intervals.
 */
#define _GNU_SOURCE
#include "render.h"
#include "util.h"

#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define SCHEMA_PREFIX "flagbench-results/"
#define PLUS_MINUS "\xc2\xb1"    /* ± */
#define MARK_THROTTLED "\xe2\x80\xa0" /* † */
#define MARK_WARNED "\xe2\x80\xa1"    /* ‡ */
#define SCHEMA_CURRENT "flagbench-results/1"

/* One cell of a family, with the texts the tables key on. */
struct cellref {
	json_t *j;
	const char *variant, *config, *status;
	int ref;
};

struct variant {
	const char *name, *title;
	int ref;
};

struct family {
	const char *name, *title, *kind, *unit, *baseline;
	struct cellref *cells;
	size_t ncells;
	const char **configs;
	const char **cplace, **ccons; /* each config's placement and consumer, or NULL */
	size_t nconfigs;
	struct variant *vars;
	size_t nvars;
};

struct run {
	char *path;             /* the results.json read */
	json_t *root;
	char *label;            /* the machine, for merged columns */
	struct family *fams;
	size_t nfams;
	struct strvec owned;    /* strings made here (texts of non-string values) */
};

/* ------------------------------------------------------------------ */
/* Formatting. */

static int is_per_op(const char *unit)
{
	return unit && (!strcmp(unit, "ops/s") || !strcmp(unit, "op/s"));
}

/* Microseconds per operation, as plots/common.jq's fmt_usec. */
static void format_usec(double usec, char *buf, size_t n)
{
	int d = 3;
	if (!(usec >= 0.01)) {
		double e = 2 - floor(log10(usec));
		d = e <= 9 ? (int)e : 9;
	}
	snprintf(buf, n, "%.*f usec/op", d, usec);
}

void render_format_value(double value, const char *unit, char *buf, size_t n)
{
	if (!unit || !strcmp(unit, "bytes/s") || !strcmp(unit, "B/s"))
		format_rate(value, buf, n);
	else if (is_per_op(unit) && value > 0)
		format_usec(1e6 / value, buf, n);
	else if (value >= 1e9)
		snprintf(buf, n, "%.2f G%s", value / 1e9, unit);
	else if (value >= 1e6)
		snprintf(buf, n, "%.2f M%s", value / 1e6, unit);
	else if (value >= 1e3)
		snprintf(buf, n, "%.2f k%s", value / 1e3, unit);
	else
		snprintf(buf, n, "%.2f %s", value, unit);
}

void render_format_ratio(double ratio, char *buf, size_t n)
{
	int d = 2;
	if (ratio < 0.01 && ratio > 0) {
		double e = 2 - floor(log10(ratio));
		d = e <= 9 ? (int)e : 9;
	}
	snprintf(buf, n, "%.*fx", d, ratio);
}

void render_format_cell(const char *figure, double ci, const char *marks, char *buf, size_t n)
{
	char pm[48] = "";
	if (ci >= 0)
		snprintf(pm, sizeof(pm), " " PLUS_MINUS "%.1f%%", ci);
	snprintf(buf, n, "%s%s%s%s", figure, pm, marks && *marks ? " " : "", marks && *marks ? marks : "");
}

size_t render_width(const char *s)
{
	size_t w = 0;
	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			w++;
	return w;
}

/* Markdown text as plots/common.jq's md: entities for & < >, escaped pipes, one line. */
static void sb_add_md(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': sb_adds(sb, "&amp;"); break;
		case '<': sb_adds(sb, "&lt;"); break;
		case '>': sb_adds(sb, "&gt;"); break;
		case '|': sb_adds(sb, "\\|"); break;
		case '\r': case '\n': case '\t': sb_adds(sb, " "); break;
		default: sb_add(sb, s, 1);
		}
	}
}

/* Text for a terminal: control characters (C0, DEL, C1 in UTF-8) become '?'. */
static char *term_clean(const char *s)
{
	char *d = xstrdup(s);
	unsigned char *p = (unsigned char *)d;
	for (; *p; p++) {
		if (*p < 0x20 || *p == 0x7f)
			*p = '?';
		else if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) {
			p[0] = '?';
			p[1] = '?';
			p++;
		}
	}
	return d;
}

/* ------------------------------------------------------------------ */
/* Reading a run. */

/* jq's tostring: a string as is, anything else as compact JSON. */
static const char *run_text(struct run *r, json_t *v)
{
	if (!v)
		return "null";
	if (json_is_string(v))
		return json_string_value(v);
	char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
	if (!s)
		return "?";
	sv_push(&r->owned, s);
	free(s);
	return r->owned.v[r->owned.n - 1];
}

static const char *get_str(json_t *obj, const char *key)
{
	return json_string_value(json_object_get(obj, key));
}

/* jq's `a // b`: null and false count as missing. */
static json_t *truthy(json_t *v)
{
	return (v && !json_is_null(v) && !json_is_false(v)) ? v : NULL;
}

static int cell_is_ref(struct run *r, json_t *c)
{
	const char *compiler = get_str(c, "compiler");
	return !strcmp(run_text(r, json_object_get(c, "config")), "reference") ||
	       (compiler && !strcmp(compiler, "none"));
}

static int has_str(const char **v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return 1;
	return 0;
}

static void add_variants(struct family *f, int ref)
{
	for (size_t i = 0; i < f->ncells; i++) {
		struct cellref *c = &f->cells[i];
		if (c->ref != ref)
			continue;
		int seen = 0;
		for (size_t k = 0; k < f->nvars; k++)
			if (f->vars[k].ref == ref && !strcmp(f->vars[k].name, c->variant))
				seen = 1;
		if (seen)
			continue;
		struct variant *v = &f->vars[f->nvars++];
		v->name = c->variant;
		v->ref = ref;
		const char *title = get_str(c->j, "title");
		v->title = title ? title : c->variant;
	}
}

static void build_family(struct run *r, struct family *f, const char *name)
{
	json_t *cells = json_object_get(r->root, "cells");
	json_t *meta = json_object_get(json_object_get(r->root, "families"), name);
	size_t n = json_array_size(cells);

	memset(f, 0, sizeof(*f));
	f->name = name;
	f->cells = xcalloc(n, sizeof(*f->cells));
	for (size_t i = 0; i < n; i++) {
		json_t *c = json_array_get(cells, i);
		const char *fam = get_str(c, "family");
		if (!fam || strcmp(fam, name))
			continue;
		struct cellref *cr = &f->cells[f->ncells++];
		cr->j = c;
		cr->variant = run_text(r, json_object_get(c, "variant"));
		cr->config = run_text(r, json_object_get(c, "config"));
		cr->status = run_text(r, json_object_get(c, "status"));
		cr->ref = cell_is_ref(r, c);
	}

	f->title = get_str(meta, "title");
	if (!f->title)
		f->title = name;
	f->kind = get_str(meta, "kind");
	for (size_t i = 0; !f->kind && i < f->ncells; i++)
		f->kind = get_str(f->cells[i].j, "kind");
	if (!f->kind)
		f->kind = "stream";
	f->baseline = get_str(meta, "baseline");
	if (!strcmp(f->kind, "compute")) {
		for (size_t i = 0; !f->unit && i < f->ncells; i++)
			f->unit = get_str(json_object_get(f->cells[i].j, "rate"), "unit");
		if (!f->unit)
			f->unit = get_str(meta, "rate_unit");
		if (!f->unit) {
			const char *u = get_str(meta, "unit");
			sv_pushf(&r->owned, "%s/s", u ? u : "ops");
			f->unit = r->owned.v[r->owned.n - 1];
		}
	} else {
		f->unit = "bytes/s";
	}

	f->configs = xcalloc(f->ncells, sizeof(*f->configs));
	f->cplace = xcalloc(f->ncells, sizeof(*f->cplace));
	f->ccons = xcalloc(f->ncells, sizeof(*f->ccons));
	for (size_t i = 0; i < f->ncells; i++)
		if (!f->cells[i].ref && !has_str(f->configs, f->nconfigs, f->cells[i].config)) {
			f->cplace[f->nconfigs] = get_str(f->cells[i].j, "placement");
			f->ccons[f->nconfigs] = get_str(f->cells[i].j, "consumer");
			f->configs[f->nconfigs++] = f->cells[i].config;
		}
	f->vars = xcalloc(f->ncells, sizeof(*f->vars));
	add_variants(f, 0);
	add_variants(f, 1);
}

static void run_free(struct run *r)
{
	for (size_t i = 0; i < r->nfams; i++) {
		free(r->fams[i].cells);
		free(r->fams[i].configs);
		free(r->fams[i].cplace);
		free(r->fams[i].ccons);
		free(r->fams[i].vars);
	}
	free(r->fams);
	free(r->label);
	free(r->path);
	sv_clear(&r->owned);
	json_decref(r->root);
	memset(r, 0, sizeof(*r));
}

/* Loads RUN_DIR/results.json (or the file itself); 0, or -1 after a message. */
/* For merged tables: when every run was built for a single -march (its
 * profile's), that march becomes "(profile march)" in the configs, so that
 * the same build meets its twin on another machine; runs with several
 * marches are matched as they are (plots/merge.jq unify_march). */
static int merge_unify_march;

static int native_cell(json_t *c)
{
	const char *comp = json_string_value(json_object_get(c, "compiler"));
	return comp && strcmp(comp, "none") && !json_is_true(json_object_get(c, "emulated")) &&
	       json_is_string(json_object_get(c, "config"));
}

/* The one -march of a run's native cells, or NULL when it has several or none. */
static const char *single_march(json_t *root)
{
	const char *march = NULL;
	size_t i;
	json_t *c;
	json_array_foreach(json_object_get(root, "cells"), i, c) {
		if (!native_cell(c))
			continue;
		const char *m = json_string_value(json_object_get(c, "march"));
		if (!m || (march && strcmp(march, m)))
			return NULL;
		march = m;
	}
	return march;
}

static void unify_march(json_t *root)
{
	size_t i;
	json_t *c;
	json_array_foreach(json_object_get(root, "cells"), i, c) {
		if (!native_cell(c))
			continue;
		const char *cfg = json_string_value(json_object_get(c, "config"));
		const char *a = strchr(cfg, '/');
		const char *b = a ? strchr(a + 1, '/') : NULL;
		if (!b)
			continue;
		const char *rest = strchr(b + 1, '/');
		char *nc = xasprintf("%.*s(profile march)%s", (int)(b + 1 - cfg), cfg, rest ? rest : "");
		json_object_set_new(c, "config", json_string(nc));
		free(nc);
	}
}

/* Cells run under an emulator ("emulated": true) become a family of their
 * own, "<family> (emulated)", as plots/emulated.jq does for the renderer:
 * no table or ranking mixes emulated times with native ones. */
static void separate_emulated(json_t *root)
{
	json_t *cells = json_object_get(root, "cells");
	json_t *fams = json_object_get(root, "families");
	size_t i;
	json_t *c;
	json_array_foreach(cells, i, c) {
		const char *f = json_string_value(json_object_get(c, "family"));
		if (!f || !json_is_true(json_object_get(c, "emulated")))
			continue;
		char *name = xasprintf("%s (emulated)", f);
		if (json_is_object(fams) && !json_object_get(fams, name)) {
			json_t *meta = json_object_get(fams, f);
			json_t *copy = json_is_object(meta) ? json_deep_copy(meta) : json_object();
			const char *title = json_string_value(json_object_get(copy, "title"));
			json_object_set_new(copy, "title", json_sprintf("%s (emulated: times are not comparable with native ones)",
									title ? title : f));
			json_object_set_new(fams, name, copy);
		}
		json_object_set_new(c, "family", json_string(name));
		free(name);
	}
}

static int run_load(struct run *r, const char *arg)
{
	struct stat st;
	json_error_t err;

	memset(r, 0, sizeof(*r));
	if (stat(arg, &st) < 0)
		return error("%s: %s", arg, errno == ENOENT ? "no such run folder" : strerror(errno));
	if (S_ISDIR(st.st_mode)) {
		size_t len = strlen(arg);
		r->path = xasprintf("%s%sresults.json", arg, len && arg[len - 1] == '/' ? "" : "/");
		if (stat(r->path, &st) < 0) {
			int e = errno;
			if (e == ENOENT)
				error("%s: no results.json in this run folder", arg);
			else
				error("%s: %s", r->path, strerror(e));
			free(r->path);
			r->path = NULL;
			return -1;
		}
	} else {
		r->path = xstrdup(arg);
	}

	r->root = json_load_file(r->path, JSON_REJECT_DUPLICATES, &err);
	if (!r->root) {
		error("%s:%d:%d: %s", r->path, err.line, err.column, err.text);
		run_free(r);
		return -1;
	}
	const char *schema = get_str(r->root, "schema");
	if (!json_is_object(r->root) || !schema || strncmp(schema, SCHEMA_PREFIX, strlen(SCHEMA_PREFIX))) {
		error("%s: not a flagbench results file (schema %s%s%s, expected \"%s\")", r->path,
		      schema ? "\"" : "", schema ? schema : "missing", schema ? "\"" : "", SCHEMA_CURRENT);
		run_free(r);
		return -1;
	}
	if (!json_is_array(json_object_get(r->root, "cells"))) {
		error("%s: no cells array", r->path);
		run_free(r);
		return -1;
	}
	separate_emulated(r->root);
	if (merge_unify_march)
		unify_march(r->root);
	if (strcmp(schema, SCHEMA_CURRENT))
		warning("%s: schema %s, this flagbench knows %s: reading what matches", r->path, schema,
			SCHEMA_CURRENT);

	/* Families in the order their cells appear. */
	json_t *cells = json_object_get(r->root, "cells");
	size_t n = json_array_size(cells);
	const char **names = xcalloc(n, sizeof(*names));
	size_t nnames = 0;
	for (size_t i = 0; i < n; i++) {
		const char *fam = get_str(json_array_get(cells, i), "family");
		if (fam && !has_str(names, nnames, fam))
			names[nnames++] = fam;
	}
	r->fams = xcalloc(nnames, sizeof(*r->fams));
	for (size_t i = 0; i < nnames; i++)
		build_family(r, &r->fams[i], names[i]);
	r->nfams = nnames;
	free(names);

	/* The machine: the cpu profile, or the host's cpu model for "host". */
	json_t *run = json_object_get(r->root, "run");
	json_t *profile = truthy(json_object_get(run, "cpu_profile"));
	if (profile && !(json_is_string(profile) && !strcmp(json_string_value(profile), "host")))
		r->label = xstrdup(run_text(r, profile));
	else {
		json_t *v = truthy(json_object_get(json_object_get(r->root, "host"), "cpu_model"));
		if (!v)
			v = truthy(json_object_get(run, "id"));
		r->label = xstrdup(v ? run_text(r, v) : "unknown");
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Cells and their values. */

static struct cellref *fam_cell(struct family *f, const char *variant, const char *config)
{
	if (!variant || !config)
		return NULL;
	for (size_t i = 0; i < f->ncells; i++)
		if (!strcmp(f->cells[i].variant, variant) && !strcmp(f->cells[i].config, config))
			return &f->cells[i];
	return NULL;
}

/* The cell of variant v in column config.  A reference stands in every column:
 * the reference cell measured with the column's placement and consumer, else its
 * only cell (several cells and none with these dimensions: absent). */
static struct cellref *cell_at(struct family *f, const struct variant *v, const char *config)
{
	if (!v->ref)
		return fam_cell(f, v->name, config);
	const char *place = NULL, *cons = NULL;
	for (size_t k = 0; k < f->nconfigs; k++)
		if (!strcmp(f->configs[k], config)) {
			place = f->cplace[k];
			cons = f->ccons[k];
			break;
		}
	struct cellref *only = NULL;
	size_t count = 0;
	for (size_t i = 0; i < f->ncells; i++) {
		struct cellref *c = &f->cells[i];
		if (strcmp(c->variant, v->name) || fam_cell(f, c->variant, c->config) != c)
			continue;
		if (str_equal_or_null(get_str(c->j, "placement"), place) && str_equal_or_null(get_str(c->j, "consumer"), cons))
			return c;
		if (!count++)
			only = c;
	}
	return count == 1 ? only : NULL;
}

static int own_value(json_t *c, double *out)
{
	json_t *s = truthy(json_object_get(c, "throughput_Bps"));
	if (!s)
		s = truthy(json_object_get(c, "rate"));
	json_t *m = json_object_get(s, "median");
	if (!json_is_number(m))
		return 0;
	*out = json_number_value(m);
	return 1;
}

static int cell_value(struct run *r, const struct cellref *c, double *out)
{
	if (!c || strcmp(c->status, "ok"))
		return 0;
	if (own_value(c->j, out))
		return 1;
	const char *same = get_str(c->j, "same_binary_as");
	if (!same)
		return 0;
	json_t *cells = json_object_get(r->root, "cells");
	for (size_t i = 0; i < json_array_size(cells); i++) {
		json_t *o = json_array_get(cells, i);
		json_t *id = json_object_get(o, "id");
		if (!strcmp(run_text(r, id), same))
			return own_value(o, out);
	}
	return 0;
}

/* The cell whose measurement c shows: itself, or the cell it shares its binary with. */
static json_t *measured(struct run *r, const struct cellref *c)
{
	double v;
	const char *same = get_str(c->j, "same_binary_as");
	if (own_value(c->j, &v) || !same)
		return c->j;
	json_t *cells = json_object_get(r->root, "cells");
	for (size_t i = 0; i < json_array_size(cells); i++) {
		json_t *o = json_array_get(cells, i);
		if (!strcmp(run_text(r, json_object_get(o, "id")), same))
			return o;
	}
	return c->j;
}

/* The half-width of the 95 % interval of the median time in percent
 * (time_s.ci95_percent): none in old files, none for fewer than 3 runs. */
static int own_ci(json_t *j, double *out)
{
	json_t *t = json_object_get(j, "time_s");
	json_t *p = json_object_get(t, "ci95_percent");
	json_t *runs = json_object_get(t, "runs");
	if (!json_is_object(t) || !json_is_number(p) || json_number_value(p) < 0)
		return 0;
	if (json_is_array(runs) && json_array_size(runs) < 3)
		return 0;
	*out = json_number_value(p);
	return 1;
}

static int cell_ci(struct run *r, const struct cellref *c, double *out)
{
	double v;
	if (!c || strcmp(c->status, "ok") || !cell_value(r, c, &v))
		return 0;
	return own_ci(measured(r, c), out);
}

static int is_yes(json_t *j)
{
	const char *t = get_str(j, "throttled");
	return t && !strcmp(t, "yes");
}

/* Measured while the CPU throttled (throttled: "yes"; "unknown" is not flagged). */
static int cell_throttled(struct run *r, const struct cellref *c)
{
	return c && !strcmp(c->status, "ok") && (is_yes(c->j) || is_yes(measured(r, c)));
}

/* The cell's warnings but the throttle note that † already says; returns how many. */
static size_t cell_warnings(struct run *r, const struct cellref *c, struct strvec *out)
{
	json_t *w = truthy(json_object_get(c->j, "warnings"));
	int throttled = cell_throttled(r, c);
	size_t n = 0;
	if (!w)
		return 0;
	for (size_t i = 0; i < (json_is_array(w) ? json_array_size(w) : 1); i++) {
		const char *text = run_text(r, json_is_array(w) ? json_array_get(w, i) : w);
		if (throttled && !strncmp(text, "throttled", strlen("throttled")))
			continue;
		if (out)
			sv_push(out, text);
		n++;
	}
	return n;
}

static int cell_warned(struct run *r, const struct cellref *c)
{
	return c && !strcmp(c->status, "ok") && cell_warnings(r, c, NULL) > 0;
}

static int cell_speedup(struct run *r, struct family *f, const struct cellref *c, const char *config, double *out)
{
	if (!c || strcmp(c->status, "ok"))
		return 0;
	json_t *sp = json_object_get(c->j, "speedup");
	if (!c->ref && json_is_number(sp)) {
		*out = json_number_value(sp);
		return 1;
	}
	double v, b;
	if (!cell_value(r, c, &v) || !cell_value(r, fam_cell(f, f->baseline ? f->baseline : "", config), &b) ||
	    !(b > 0))
		return 0;
	*out = v / b;
	return 1;
}

/* What a table shows of a cell, and which of ±, †, ‡ it used (for the legend). */
enum { SHOWN_CI = 1, SHOWN_THROTTLED = 2, SHOWN_WARNED = 4 };

/* warn: also mark a cell with warnings (‡), where the table lists them. */
static int value_text(struct run *r, struct family *f, const struct cellref *c, int warn, char *buf, size_t n)
{
	double v, ci = -1;
	char figure[64], marks[16] = "";
	int shown = 0;
	if (!c) {
		snprintf(buf, n, "absent");
	} else if (strcmp(c->status, "ok")) {
		snprintf(buf, n, "%s", c->status);
	} else if (!cell_value(r, c, &v)) {
		snprintf(buf, n, "no data");
	} else {
		render_format_value(v, f->unit, figure, sizeof(figure));
		if (cell_ci(r, c, &ci))
			shown |= SHOWN_CI;
		else
			ci = -1;
		if (cell_throttled(r, c)) {
			strcat(marks, MARK_THROTTLED);
			shown |= SHOWN_THROTTLED;
		}
		if (warn && cell_warned(r, c)) {
			strcat(marks, MARK_WARNED);
			shown |= SHOWN_WARNED;
		}
		render_format_cell(figure, ci, marks, buf, n);
	}
	return shown;
}

static struct cellref *baseline_cell(struct family *f, const char *config)
{
	return fam_cell(f, f->baseline ? f->baseline : "", config);
}

/* Is c the baseline's own measurement (its speedup exactly 1.00x)? */
static int is_own_baseline(struct run *r, const struct cellref *c, const struct cellref *b)
{
	return !strcmp(run_text(r, json_object_get(measured(r, c), "id")),
		       run_text(r, json_object_get(measured(r, b), "id")));
}

/* The speedup's interval: the cell's and the baseline's combined (root sum of
 * squares); none for the baseline itself (exactly 1.00x) or when either has none. */
static int speedup_ci(struct run *r, struct family *f, const struct cellref *c, const char *config, double *out)
{
	struct cellref *b = baseline_cell(f, config);
	double x, y;
	if (!c || !b || strcmp(c->status, "ok") || strcmp(b->status, "ok") || is_own_baseline(r, c, b))
		return 0;
	if (!cell_ci(r, c, &x) || !cell_ci(r, b, &y))
		return 0;
	*out = sqrt(x * x + y * y);
	return 1;
}

static int speedup_text(struct run *r, struct family *f, const struct cellref *c, const char *config, char *buf,
			size_t n)
{
	double s, ci;
	char figure[64];
	int shown = 0;
	if (!c) {
		snprintf(buf, n, "absent");
	} else if (strcmp(c->status, "ok")) {
		snprintf(buf, n, "%s", c->status);
	} else if (!cell_speedup(r, f, c, config, &s)) {
		snprintf(buf, n, "n/a");
	} else {
		/* † when the cell or its baseline throttled, not on the baseline's own 1.00x */
		struct cellref *b = baseline_cell(f, config);
		int throttled = !(b && is_own_baseline(r, c, b)) && (cell_throttled(r, c) || cell_throttled(r, b));
		render_format_ratio(s, figure, sizeof(figure));
		if (speedup_ci(r, f, c, config, &ci))
			shown |= SHOWN_CI;
		else
			ci = -1;
		if (throttled)
			shown |= SHOWN_THROTTLED;
		render_format_cell(figure, ci, throttled ? MARK_THROTTLED : "", buf, n);
	}
	return shown;
}

/* ------------------------------------------------------------------ */
/* report */

/* A text grid printed with aligned columns: column 0 left, the rest right. */
struct grid {
	size_t ncols, nrows;
	char **cell; /* nrows * ncols, owned */
};

static void grid_init(struct grid *g, size_t nrows, size_t ncols)
{
	g->nrows = nrows;
	g->ncols = ncols;
	g->cell = xcalloc(nrows * ncols, sizeof(*g->cell));
}

static void grid_set(struct grid *g, size_t row, size_t col, const char *s)
{
	free(g->cell[row * g->ncols + col]);
	g->cell[row * g->ncols + col] = term_clean(s);
}

static void grid_print(struct grid *g, FILE *out)
{
	size_t *w = xcalloc(g->ncols, sizeof(*w));
	for (size_t r = 0; r < g->nrows; r++)
		for (size_t c = 0; c < g->ncols; c++) {
			const char *s = g->cell[r * g->ncols + c];
			size_t l = s ? render_width(s) : 0;
			if (l > w[c])
				w[c] = l;
		}
	for (size_t r = 0; r < g->nrows; r++) {
		struct strbuf line = STRBUF_INIT;
		for (size_t c = 0; c < g->ncols; c++) {
			const char *s = g->cell[r * g->ncols + c];
			if (!s)
				s = "";
			size_t pad = w[c] - render_width(s);
			if (c)
				sb_adds(&line, "  ");
			if (c == 0) {
				sb_adds(&line, s);
				if (g->ncols > 1)
					for (size_t k = 0; k < pad; k++)
						sb_adds(&line, " ");
			} else {
				for (size_t k = 0; k < pad; k++)
					sb_adds(&line, " ");
				sb_adds(&line, s);
			}
		}
		while (line.len && line.buf[line.len - 1] == ' ')
			line.buf[--line.len] = '\0';
		fprintf(out, "%s\n", line.buf ? line.buf : "");
		sb_release(&line);
	}
	free(w);
	for (size_t i = 0; i < g->nrows * g->ncols; i++)
		free(g->cell[i]);
	free(g->cell);
}

static void variant_label(const struct variant *v, char *buf, size_t n)
{
	snprintf(buf, n, "%s%s", v->name, v->ref ? " (reference)" : "");
}

/* What the ±, † and ‡ of a table mean, for the marks it shows. */
static void print_legend(FILE *out, int shown, int speedup)
{
	if (shown & SHOWN_CI)
		fprintf(out, "%s\n", speedup ? PLUS_MINUS ": the 95 % intervals of the two medians compared, combined "
						"(root sum of squares, in percent)"
					      : PLUS_MINUS ": half-width of the 95 % interval of the median, in percent; "
						"none without one (fewer than 3 runs, or an older results file)");
	if (shown & SHOWN_THROTTLED)
		fprintf(out, "%s\n", speedup ? MARK_THROTTLED ": one of the two cells compared was measured while the "
						"CPU throttled"
					      : MARK_THROTTLED ": measured while the CPU throttled (throttled: yes): "
						"the figure may be too low");
	if (shown & SHOWN_WARNED)
		fprintf(out, "%s\n", MARK_WARNED ": the cell has warnings, listed below");
}

static void print_family(struct run *r, struct family *f, FILE *out)
{
	char buf[512], text[160];
	char *title = term_clean(f->title), *name = term_clean(f->name);
	size_t nc = f->nconfigs ? f->nconfigs : 1;

	for (int speedup = 0; speedup <= 1; speedup++) {
		int shown = 0;
		if (!speedup)
			fprintf(out, "\n%s (%s): %s, median\n", title, name,
				is_per_op(f->unit)              ? "time per operation (usec/op, lower is faster)"
				: strcmp(f->kind, "compute") ? "throughput"
							     : "work per second");
		else {
			char *base = term_clean(f->baseline ? f->baseline : "(no baseline named)");
			fprintf(out, "\n%s: speedup against %s built the same way\n", title, base);
			free(base);
		}
		struct grid g;
		grid_init(&g, f->nvars + 1, nc + 1);
		grid_set(&g, 0, 0, "variant");
		for (size_t c = 0; c < f->nconfigs; c++)
			grid_set(&g, 0, c + 1, f->configs[c]);
		if (!f->nconfigs)
			grid_set(&g, 0, 1, "(no configurations)");
		for (size_t v = 0; v < f->nvars; v++) {
			variant_label(&f->vars[v], buf, sizeof(buf));
			grid_set(&g, v + 1, 0, buf);
			for (size_t c = 0; c < f->nconfigs; c++) {
				struct cellref *cell = cell_at(f, &f->vars[v], f->configs[c]);
				if (speedup)
					shown |= speedup_text(r, f, cell, f->configs[c], text, sizeof(text));
				else
					shown |= value_text(r, f, cell, 1, text, sizeof(text));
				grid_set(&g, v + 1, c + 1, text);
			}
		}
		grid_print(&g, out);
		print_legend(out, shown, speedup);
	}

	int header = 0;
	for (size_t i = 0; i < f->ncells; i++) {
		struct cellref *c = &f->cells[i];
		if (!strcmp(c->status, "ok"))
			continue;
		if (!header++)
			fprintf(out, "\n%s: cells that are not ok\n", title);
		char *id = term_clean(run_text(r, json_object_get(c->j, "id")));
		char *st = term_clean(c->status);
		const char *why = get_str(c->j, "reason");
		char *reason = why ? term_clean(why) : NULL;
		fprintf(out, "  %s: %s%s%s\n", id, st, reason ? ": " : "", reason ? reason : "");
		free(id);
		free(st);
		free(reason);
	}

	header = 0;
	for (size_t i = 0; i < f->ncells; i++) {
		struct strvec w = STRVEC_INIT;
		cell_warnings(r, &f->cells[i], &w);
		if (w.n && !header++)
			fprintf(out, "\n%s: cell warnings\n", title);
		char *id = w.n ? term_clean(run_text(r, json_object_get(f->cells[i].j, "id"))) : NULL;
		for (size_t k = 0; k < w.n; k++) {
			char *t = term_clean(w.v[k]);
			fprintf(out, "  %s: %s\n", id, t);
			free(t);
		}
		free(id);
		sv_clear(&w);
	}
	free(title);
	free(name);
}

static void report(struct run *r, FILE *out)
{
	json_t *run = json_object_get(r->root, "run");
	json_t *cells = json_object_get(r->root, "cells");
	size_t ok = 0;
	for (size_t i = 0; i < json_array_size(cells); i++)
		if (!strcmp(run_text(r, json_object_get(json_array_get(cells, i), "status")), "ok"))
			ok++;
	const char *host = get_str(json_object_get(r->root, "host"), "cpu_model");
	char *id = term_clean(run_text(r, json_object_get(run, "id")));
	char *suite = term_clean(run_text(r, json_object_get(run, "suite")));
	char *label = term_clean(r->label);
	char *cpu = term_clean(host ? host : "unknown cpu");
	fprintf(out, "run %s: suite %s on %s (%s): %zu cells, %zu ok%s\n", id, suite, label, cpu,
		json_array_size(cells), ok,
		json_is_null(json_object_get(run, "finished")) ? ", not finished" : "");
	free(id);
	free(suite);
	free(label);
	free(cpu);

	json_t *warnings = json_object_get(run, "warnings");
	for (size_t i = 0; i < json_array_size(warnings); i++) {
		char *w = term_clean(run_text(r, json_array_get(warnings, i)));
		fprintf(out, "warning: %s\n", w);
		free(w);
	}
	for (size_t i = 0; i < r->nfams; i++)
		print_family(r, &r->fams[i], out);
}

static int usage_report(void)
{
	fprintf(stderr, "usage: flagbench report RUN_DIR\n"
			"  prints the throughput and speedup tables of a run (RUN_DIR/results.json)\n");
	return EXIT_USAGE;
}

int cmd_report(int argc, char **argv)
{
	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		usage_report();
		return 0;
	}
	int first = 1;
	if (argc > 1 && !strcmp(argv[1], "--"))
		first = 2;
	if (argc - first != 1) {
		error("report: expected one RUN_DIR");
		return usage_report();
	}
	if (argv[first][0] == '-' && first == 1) {
		error("report: unknown option %s", argv[first]);
		return usage_report();
	}
	struct run r;
	if (run_load(&r, argv[first]) < 0)
		return EXIT_USAGE;
	report(&r, stdout);
	run_free(&r);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		error("report: cannot write: %s", strerror(errno));
		return EXIT_CELL_FAILED;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* merge */

/* A cell of one run as a merged table needs it. */
struct entry {
	struct run *run;
	struct family *fam;
	struct cellref *cell;
	int ref;
};

struct entries {
	struct entry *v;
	size_t n, alloc;
};

/* Every cell of a run in table order: family, variant (references last), config. */
static void collect_entries(struct run *r, struct entries *out)
{
	for (size_t fi = 0; fi < r->nfams; fi++) {
		struct family *f = &r->fams[fi];
		for (size_t vi = 0; vi < f->nvars; vi++) {
			struct variant *v = &f->vars[vi];
			for (size_t ci = 0; ci < f->ncells; ci++) {
				struct cellref *c = &f->cells[ci];
				if (strcmp(c->variant, v->name) || fam_cell(f, c->variant, c->config) != c)
					continue;
				if (out->n == out->alloc) {
					out->alloc = out->alloc ? 2 * out->alloc : 64;
					out->v = xrealloc(out->v, out->alloc * sizeof(*out->v));
				}
				out->v[out->n++] = (struct entry){ r, f, c, v->ref };
			}
		}
	}
}

static struct entry *find_entry(struct entries *e, const char *fam, const char *variant, const char *config)
{
	for (size_t i = 0; i < e->n; i++)
		if (!strcmp(e->v[i].fam->name, fam) && !strcmp(e->v[i].cell->variant, variant) &&
		    !strcmp(e->v[i].cell->config, config))
			return &e->v[i];
	return NULL;
}

static void push_unique(const char ***v, size_t *n, size_t *alloc, const char *s)
{
	if (has_str(*v, *n, s))
		return;
	if (*n == *alloc) {
		*alloc = *alloc ? 2 * *alloc : 16;
		*v = xrealloc(*v, *alloc * sizeof(**v));
	}
	(*v)[(*n)++] = s;
}

static void add_entry_cells(struct strbuf *sb, struct entry *e, int trailing_bar)
{
	char text[160];
	value_text(e->run, e->fam, e->cell, 0, text, sizeof(text));
	sb_adds(sb, " ");
	sb_add_md(sb, text);
	sb_adds(sb, " | ");
	speedup_text(e->run, e->fam, e->cell, e->cell->config, text, sizeof(text));
	sb_add_md(sb, text);
	sb_adds(sb, trailing_bar ? " |" : "");
}

static void merge_markdown(struct run *runs, size_t n, struct strbuf *sb)
{
	struct entries *per = xcalloc(n, sizeof(*per));
	char **labels = xcalloc(n, sizeof(*labels));
	const char **fams = NULL;
	size_t nfams = 0, afams = 0;

	for (size_t k = 0; k < n; k++) {
		collect_entries(&runs[k], &per[k]);
		for (size_t i = 0; i < runs[k].nfams; i++)
			push_unique(&fams, &nfams, &afams, runs[k].fams[i].name);
		size_t same = 0;
		for (size_t j = 0; j < n; j++)
			if (!strcmp(runs[j].label, runs[k].label))
				same++;
		if (same > 1) {
			json_t *id = truthy(json_object_get(json_object_get(runs[k].root, "run"), "id"));
			if (id)
				labels[k] = xasprintf("%s (%s)", runs[k].label, run_text(&runs[k], id));
			else
				labels[k] = xasprintf("%s (run %zu)", runs[k].label, k + 1);
		} else {
			labels[k] = xstrdup(runs[k].label);
		}
	}

	sb_adds(sb, "# flagbench: results across machines\n\n"
		    "| machine | run | suite | cpu model | schema | cells |\n| --- | --- | --- | --- | --- | ---: |\n");
	for (size_t k = 0; k < n; k++) {
		json_t *root = runs[k].root, *run = json_object_get(root, "run");
		json_t *id = truthy(json_object_get(run, "id")), *suite = truthy(json_object_get(run, "suite"));
		json_t *cpu = truthy(json_object_get(json_object_get(root, "host"), "cpu_model"));
		json_t *schema = truthy(json_object_get(root, "schema"));
		sb_adds(sb, "| ");
		sb_add_md(sb, labels[k]);
		sb_adds(sb, " | ");
		sb_add_md(sb, id ? run_text(&runs[k], id) : "?");
		sb_adds(sb, " | ");
		sb_add_md(sb, suite ? run_text(&runs[k], suite) : "?");
		sb_adds(sb, " | ");
		sb_add_md(sb, cpu ? run_text(&runs[k], cpu) : "?");
		sb_adds(sb, " | ");
		sb_add_md(sb, schema ? run_text(&runs[k], schema) : "?");
		sb_addf(sb, " | %zu |\n", json_array_size(json_object_get(root, "cells")));
	}
	sb_adds(sb, "\nCells are matched by family, variant and build configuration. Throughput is the median "
		    "(1024-based MiB/s, GiB/s; usec/op for families counted in operations); speedup is against the "
		    "family baseline built the same way on the same machine. " PLUS_MINUS " is the half-width of the "
		    "95 % interval of the median (for a speedup, both intervals combined), in percent, where the run "
		    "has one; " MARK_THROTTLED " marks a cell measured while the CPU throttled.\n");

	/* Rows found in one run only, listed after the tables, by run. */
	struct entry **only = NULL;
	size_t nonly = 0, aonly = 0;

	for (size_t fi = 0; fi < nfams; fi++) {
		const char *fam = fams[fi];
		const char **vars = NULL, **cfgs = NULL;
		size_t nvars = 0, avars = 0, ncfgs = 0, acfgs = 0;
		for (int ref = 0; ref <= 1; ref++)
			for (size_t k = 0; k < n; k++)
				for (size_t i = 0; i < per[k].n; i++)
					if (!strcmp(per[k].v[i].fam->name, fam) && per[k].v[i].ref == ref)
						push_unique(&vars, &nvars, &avars, per[k].v[i].cell->variant);
		for (size_t k = 0; k < n; k++)
			for (size_t i = 0; i < per[k].n; i++)
				if (!strcmp(per[k].v[i].fam->name, fam))
					push_unique(&cfgs, &ncfgs, &acfgs, per[k].v[i].cell->config);

		int header = 0;
		struct entry **row = xcalloc(n, sizeof(*row));
		for (size_t vi = 0; vi < nvars; vi++) {
			for (size_t ci = 0; ci < ncfgs; ci++) {
				size_t count = 0;
				for (size_t k = 0; k < n; k++) {
					row[k] = find_entry(&per[k], fam, vars[vi], cfgs[ci]);
					count += row[k] != NULL;
				}
				if (!count)
					continue;
				if (n > 1 && count == 1) {
					for (size_t k = 0; k < n; k++)
						if (row[k]) {
							if (nonly == aonly) {
								aonly = aonly ? 2 * aonly : 32;
								only = xrealloc(only, aonly * sizeof(*only));
							}
							only[nonly++] = row[k];
						}
					continue;
				}
				if (!header++) {
					sb_adds(sb, "\n## ");
					sb_add_md(sb, fam);
					sb_adds(sb, "\n\n| variant | config |");
					for (size_t k = 0; k < n; k++) {
						sb_adds(sb, " ");
						sb_add_md(sb, labels[k]);
						sb_adds(sb, " | ");
						sb_add_md(sb, labels[k]);
						sb_adds(sb, " speedup |");
					}
					sb_adds(sb, "\n| --- | --- |");
					for (size_t k = 0; k < n; k++)
						sb_adds(sb, " ---: | ---: |");
					sb_adds(sb, "\n");
				}
				sb_adds(sb, "| ");
				sb_add_md(sb, vars[vi]);
				sb_adds(sb, " | ");
				sb_add_md(sb, cfgs[ci]);
				sb_adds(sb, " |");
				for (size_t k = 0; k < n; k++) {
					if (row[k])
						add_entry_cells(sb, row[k], 1);
					else
						sb_adds(sb, " absent | absent |");
				}
				sb_adds(sb, "\n");
			}
		}
		free(row);
		free(vars);
		free(cfgs);
	}

	if (n > 1) {
		sb_adds(sb, "\n## Cells found in one run only\n\n");
		if (!nonly) {
			sb_adds(sb, "None: every cell matched.\n");
		} else {
			sb_adds(sb, "| machine | family | variant | config | throughput | speedup |\n"
				    "| --- | --- | --- | --- | ---: | ---: |\n");
			for (size_t k = 0; k < n; k++)
				for (size_t i = 0; i < nonly; i++) {
					struct entry *e = only[i];
					if (e->run != &runs[k])
						continue;
					sb_adds(sb, "| ");
					sb_add_md(sb, labels[k]);
					sb_adds(sb, " | ");
					sb_add_md(sb, e->fam->name);
					sb_adds(sb, " | ");
					sb_add_md(sb, e->cell->variant);
					sb_adds(sb, " | ");
					sb_add_md(sb, e->cell->config);
					sb_adds(sb, " |");
					add_entry_cells(sb, e, 1);
					sb_adds(sb, "\n");
				}
		}
	}

	free(only);
	for (size_t k = 0; k < n; k++) {
		free(per[k].v);
		free(labels[k]);
	}
	free(per);
	free(labels);
	free(fams);
}

static int usage_merge(void)
{
	fprintf(stderr, "usage: flagbench merge [--out FILE] RUN_DIR...\n"
			"  prints (or writes) Markdown tables of several runs side by side, matched by\n"
			"  family, variant and build configuration\n");
	return EXIT_USAGE;
}

int cmd_merge(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "out", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *outpath = NULL;
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			outpath = optarg;
			break;
		case 'h':
			usage_merge();
			return 0;
		default:
			if (optopt == 'o')
				error("merge: --out needs a file name");
			else
				error("merge: unknown option %s", argv[optind - 1]);
			return usage_merge();
		}
	}
	if (optind >= argc) {
		error("merge: expected at least one RUN_DIR");
		return usage_merge();
	}

	size_t n = (size_t)(argc - optind);
	struct run *runs = xcalloc(n, sizeof(*runs));
	int rc = 0;
	size_t loaded = 0;
	/* load once as they are, to see whether every run has one march */
	int all_single = 1;
	for (; loaded < n; loaded++) {
		if (run_load(&runs[loaded], argv[optind + (int)loaded]) < 0) {
			rc = EXIT_USAGE;
			break;
		}
		all_single &= single_march(runs[loaded].root) != NULL;
	}
	if (!rc && all_single && n > 1) {
		merge_unify_march = 1;
		for (size_t i = 0; i < n; i++) {
			run_free(&runs[i]);
			memset(&runs[i], 0, sizeof(runs[i]));
			if (run_load(&runs[i], argv[optind + (int)i]) < 0) {
				rc = EXIT_USAGE;
				loaded = i;
				break;
			}
		}
	}
	if (!rc) {
		struct strbuf sb = STRBUF_INIT;
		merge_markdown(runs, n, &sb);
		if (outpath) {
			if (write_file_atomic(outpath, sb.buf, sb.len) < 0)
				rc = EXIT_CELL_FAILED;
		} else if (fwrite(sb.buf, 1, sb.len, stdout) != sb.len || fflush(stdout) != 0) {
			error("merge: cannot write: %s", strerror(errno));
			rc = EXIT_CELL_FAILED;
		}
		sb_release(&sb);
	}
	for (size_t k = 0; k < loaded; k++)
		run_free(&runs[k]);
	free(runs);
	return rc;
}
