/* writers.c: one writer per format over the results model (see model.h), and
 * the commands that print it.  Writers lay texts out; every number and its
 * digits come from model.c.  Each format escapes text its own way: Markdown
 * pipes and line breaks, CSV quotes, JSON through jansson, control
 * characters scrubbed for the terminal, tabs and quotes out of gnuplot data. */
#define _GNU_SOURCE
#include "model.h"
#include "options.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

static const char *want_family, *want_table;

static int wanted(const struct mfamily *f, const struct mtable *t)
{
	return (!want_family || !strcmp(f->name, want_family) || !strcmp(f->slug, want_family)) &&
	       (!t || !want_table || !strcmp(t->name, want_table));
}

/* Text for one format: 'm' Markdown, 't' terminal, 'g' gnuplot data. */
static void add_clean(struct strbuf *sb, const char *s, char how)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (how == 'm' && strchr("&<>|\r\n\t", *p))
			sb_adds(sb, *p == '&' ? "&amp;" : *p == '<' ? "&lt;" : *p == '>' ? "&gt;" : *p == '|' ? "\\|" : " ");
		else if (how == 'g' && strchr("\"\r\n\t", *p))
			sb_adds(sb, *p == '"' ? "'" : " ");
		else if (how == 't' && (*p < 0x20 || *p == 0x7f || (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)))
			sb_adds(sb, *p == 0xc2 ? (p++, "??") : "?");
		else
			sb_add(sb, (const char *)p, 1);
	}
}

static size_t width(const char *s)
{
	size_t w = 0;
	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

static void cell_text(const struct mtable *t, size_t r, size_t c, char *buf, size_t n)
{
	model_text(t, &t->rows[r].cells[c], buf, n, NULL, NULL);
}

/* ------------------------------------------------------------------ */
/* term: aligned columns, the first left, the rest right. */

static void term_table(const struct mtable *t, struct strbuf *out)
{
	int two = !strcmp(t->col2, "config");
	size_t nc = t->ncols + 1 + two, nr = t->nrows + 1, *w = xcalloc(nc, sizeof(*w));
	struct strbuf *g = xcalloc(nc * nr, sizeof(*g));
	char buf[256];
	add_clean(&g[0], "variant", 't');
	if (two)
		add_clean(&g[1], "config", 't');
	for (size_t c = 0; c < t->ncols; c++)
		add_clean(&g[1 + two + c], t->cols[c], 't');
	for (size_t r = 0; r < t->nrows; r++) {
		add_clean(&g[(r + 1) * nc], t->rows[r].label, 't');
		if (two)
			add_clean(&g[(r + 1) * nc + 1], t->rows[r].title, 't');
		for (size_t c = 0; c < t->ncols; c++) {
			cell_text(t, r, c, buf, sizeof(buf));
			add_clean(&g[(r + 1) * nc + 1 + two + c], buf, 't');
		}
	}
	for (size_t i = 0; i < nc * nr; i++)
		if (g[i].buf && width(g[i].buf) > w[i % nc])
			w[i % nc] = width(g[i].buf);
	sb_addf(out, "\n");
	add_clean(out, t->title, 't');
	sb_adds(out, "\n");
	for (size_t r = 0; r < nr; r++) {
		size_t start = out->len;
		for (size_t c = 0; c < nc; c++) {
			const char *s = g[r * nc + c].buf ? g[r * nc + c].buf : "";
			int left = c < 1u + two;
			sb_addf(out, "%s%*s%s%*s", c ? "  " : "", left ? 0 : (int)(w[c] - width(s)), "", s,
				left ? (int)(w[c] - width(s)) : 0, "");
			sb_release(&g[r * nc + c]);
		}
		while (out->len > start && out->buf[out->len - 1] == ' ')
			out->buf[--out->len] = '\0';
		sb_adds(out, "\n");
	}
	const char *legend[3];
	for (size_t i = 0, n = model_legend(t, legend); i < n; i++)
		sb_addf(out, "%s\n", legend[i]);
	free(g);
	free(w);
}

static void term_list(const char *head, const char *title, const struct strvec *v, struct strbuf *out)
{
	for (size_t i = 0; i < v->n; i++) {
		if (!i) {
			sb_adds(out, "\n");
			add_clean(out, title, 't');
			sb_addf(out, ": %s\n", head);
		}
		sb_adds(out, "  ");
		add_clean(out, v->v[i], 't');
		sb_adds(out, "\n");
	}
}

static void write_term(struct model *m, struct strbuf *out)
{
	for (size_t k = 0; k < m->nruns; k++) {
		struct mrun *r = &m->runs[k];
		json_t *run = json_object_get(r->root, "run"), *w;
		const char *cpu = json_string_value(json_object_get(json_object_get(r->root, "host"), "cpu_model"));
		char *line = xasprintf("run %s: suite %s on %s (%s): %zu cells, %zu ok%s", r->id,
				       json_string_value(json_object_get(run, "suite")) ?: "?", r->label, cpu ? cpu : "unknown cpu",
				       r->ncells, r->nok, json_is_null(json_object_get(run, "finished")) ? ", not finished" : "");
		add_clean(out, line, 't');
		sb_adds(out, "\n");
		free(line);
		size_t i;
		json_array_foreach(json_object_get(run, "warnings"), i, w) {
			sb_adds(out, "warning: ");
			add_clean(out, json_string_value(w) ?: "?", 't');
			sb_adds(out, "\n");
		}
	}
	for (size_t i = 0; i < m->nfams; i++) {
		struct mfamily *f = &m->fams[i];
		if (!wanted(f, NULL))
			continue;
		for (size_t k = 0; k < f->answer.n; k++) {
			sb_adds(out, k ? "" : "\n");
			add_clean(out, f->answer.v[k], 't');
			sb_adds(out, "\n");
		}
		for (size_t k = 0; k < f->ntables; k++)
			if (wanted(f, &f->tables[k]))
				term_table(&f->tables[k], out);
		term_list("cells that are not ok", f->title, &f->problems, out);
		term_list("cell warnings", f->title, &f->warnings, out);
	}
}

/* ------------------------------------------------------------------ */
/* md */

static void md_row(struct strbuf *out, const char *a, const char *b, const struct mtable *t, size_t r)
{
	char buf[256];
	sb_adds(out, "| ");
	add_clean(out, a, 'm');
	sb_adds(out, " | ");
	add_clean(out, b, 'm');
	for (size_t c = 0; c < t->ncols; c++) {
		sb_adds(out, " | ");
		if (r == (size_t)-1)
			add_clean(out, t->cols[c], 'm');
		else {
			cell_text(t, r, c, buf, sizeof(buf));
			add_clean(out, buf, 'm');
		}
	}
	sb_adds(out, " |\n");
}

static void md_list(const char *head, const struct strvec *v, struct strbuf *out)
{
	for (size_t i = 0; i < v->n; i++) {
		sb_addf(out, "%s- ", i ? "" : head);
		add_clean(out, v->v[i], 'm');
		sb_adds(out, "\n");
	}
}

static void write_md(struct model *m, struct strbuf *out)
{
	const char *legend[3];
	if (!want_table) {
		sb_adds(out, m->nruns > 1 ? "# flagbench: results across machines\n\n" : "# flagbench run\n\n");
		sb_adds(out, "| machine | run | suite | cpu model | schema | cells | ok |\n| --- | --- | --- | --- | --- | ---: | ---: |\n");
		for (size_t k = 0; k < m->nruns; k++) {
			json_t *root = m->runs[k].root;
			const char *v[] = { m->runs[k].label, m->runs[k].id,
					    json_string_value(json_object_get(json_object_get(root, "run"), "suite")),
					    json_string_value(json_object_get(json_object_get(root, "host"), "cpu_model")),
					    json_string_value(json_object_get(root, "schema")) };
			for (size_t i = 0; i < 5; i++) {
				sb_adds(out, "| ");
				add_clean(out, v[i] ? v[i] : "?", 'm');
				sb_adds(out, " ");
			}
			sb_addf(out, "| %zu | %zu |\n", m->runs[k].ncells, m->runs[k].nok);
		}
	}
	for (size_t i = 0; i < m->nfams; i++) {
		struct mfamily *f = &m->fams[i];
		int head = !want_table || !strcmp(want_table, "throughput");
		if (!wanted(f, NULL))
			continue;
		sb_adds(out, want_table ? "# " : "\n## ");
		add_clean(out, f->title, 'm');
		sb_adds(out, "\n");
		if (head)
			md_list("\n", &f->answer, out);
		for (size_t k = 0; k < f->ntables; k++) {
			struct mtable *t = &f->tables[k];
			if (!wanted(f, t))
				continue;
			sb_adds(out, want_table ? "\n## " : "\n### ");
			add_clean(out, t->title, 'm');
			sb_adds(out, "\n\n");
			add_clean(out, t->caption, 'm');
			sb_adds(out, " Cells that are not ok show their status word.\n\n");
			md_row(out, "variant", t->col2, t, (size_t)-1);
			sb_adds(out, "| --- | --- |");
			for (size_t c = 0; c < t->ncols; c++)
				sb_adds(out, " ---: |");
			sb_adds(out, "\n");
			for (size_t r = 0; r < t->nrows; r++)
				md_row(out, t->rows[r].label, t->rows[r].title, t, r);
			for (size_t l = 0, n = model_legend(t, legend); l < n; l++)
				sb_addf(out, "%s%s\n", l ? "" : "\n", legend[l]);
		}
		if (head) {
			md_list("\nCells that are not ok:\n\n", &f->problems, out);
			md_list("\nCell warnings:\n\n", &f->warnings, out);
		}
	}
}

/* ------------------------------------------------------------------ */
/* csv: one line per cell, every table of every family. */

static void csv_field(struct strbuf *out, const char *s, int last)
{
	sb_adds(out, "\"");
	for (; *s; s++)
		sb_add(out, s, 1 + (*s == '"'));
	sb_adds(out, last ? "\"\r\n" : "\",");
}

static void csv_num(struct strbuf *out, double v)
{
	if (!isnan(v))
		sb_addf(out, "%.10g", v);
	sb_adds(out, ",");
}

static void write_csv(struct model *m, struct strbuf *out)
{
	char buf[256];
	sb_adds(out, "family,table,variant,title,column,status,value,unit,low,high,ci95_percent,marks,text\r\n");
	for (size_t i = 0; i < m->nfams; i++)
		for (size_t k = 0; k < m->fams[i].ntables; k++) {
			struct mtable *t = &m->fams[i].tables[k];
			for (size_t r = 0; r < t->nrows && wanted(&m->fams[i], t); r++)
				for (size_t c = 0; c < t->ncols; c++) {
					struct mcell *x = &t->rows[r].cells[c];
					const char *f[] = { m->fams[i].name, t->name, t->rows[r].label, t->rows[r].title, t->cols[c],
							    x->state == MS_OK ? "ok" : x->word };
					for (size_t j = 0; j < 6; j++)
						csv_field(out, f[j], 0);
					csv_num(out, x->state == MS_OK ? x->value : NAN);
					csv_field(out, t->unit, 0);
					csv_num(out, x->lo);
					csv_num(out, x->hi);
					csv_num(out, x->ci);
					csv_field(out, x->marks & MARK_THROTTLED ? (x->marks & MARK_WARNED ? "†‡" : "†")
										 : (x->marks & MARK_WARNED ? "‡" : ""), 0);
					cell_text(t, r, c, buf, sizeof(buf));
					csv_field(out, buf, 1);
				}
		}
}

/* ------------------------------------------------------------------ */
/* json: the model as it is, for plots/render.sh and plots/publish.sh. */

static json_t *num(double v)
{
	return isnan(v) ? json_null() : json_real(v);
}

static json_t *strs(const struct strvec *v)
{
	json_t *a = json_array();
	for (size_t i = 0; i < v->n; i++)
		json_array_append_new(a, json_string(v->v[i]));
	return a;
}

static json_t *json_table(const struct mtable *t)
{
	static const char *states[] = { "ok", "status", "absent", "n/a" };
	json_t *cols = json_array(), *rows = json_array(), *leg = json_array();
	const char *legend[3];
	char buf[256], fig[64], pm[32];
	for (size_t c = 0; c < t->ncols; c++)
		json_array_append_new(cols, json_string(t->cols[c]));
	for (size_t l = 0, n = model_legend(t, legend); l < n; l++)
		json_array_append_new(leg, json_string(legend[l]));
	for (size_t r = 0; r < t->nrows; r++) {
		json_t *cells = json_array();
		for (size_t c = 0; c < t->ncols; c++) {
			struct mcell *x = &t->rows[r].cells[c];
			model_text(t, x, buf, sizeof(buf), fig, pm);
			json_array_append_new(cells, json_pack("{s:s, s:s, s:s, s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:s?}",
				"text", buf, "figure", fig, "pm", pm, "state", states[x->state],
				"marks", x->marks & MARK_THROTTLED ? (x->marks & MARK_WARNED ? "†‡" : "†") : (x->marks & MARK_WARNED ? "‡" : ""),
				"value", num(x->state == MS_OK ? x->value : NAN), "low", num(x->lo), "high", num(x->hi),
				"ci95_percent", num(x->ci), "share", num(x->share), "id", x->id));
		}
		json_array_append_new(rows, json_pack("{s:s, s:s, s:b, s:o}", "label", t->rows[r].label, "title",
						      t->rows[r].title, "ref", t->rows[r].ref, "cells", cells));
	}
	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:o, s:o, s:o}", "name", t->name, "title", t->title, "caption",
			 t->caption, "col2", t->col2, "unit", t->unit, "columns", cols, "rows", rows, "legend", leg);
}

static void write_json(struct model *m, struct strbuf *out)
{
	json_t *runs = json_array(), *fams = json_array();
	for (size_t k = 0; k < m->nruns; k++) {
		json_t *root = m->runs[k].root, *run = json_object_get(root, "run");
		json_array_append_new(runs, json_pack("{s:s, s:s, s:s, s:i, s:i, s:O, s:O, s:O, s:O}", "label", m->runs[k].label,
						      "id", m->runs[k].id, "slug", m->runs[k].slug, "cells", (int)m->runs[k].ncells,
						      "ok", (int)m->runs[k].nok, "suite", json_object_get(run, "suite") ?: json_null(),
						      "started", json_object_get(run, "started") ?: json_null(), "schema",
						      json_object_get(root, "schema"), "cpu_model",
						      json_object_get(json_object_get(root, "host"), "cpu_model") ?: json_null()));
	}
	for (size_t i = 0; i < m->nfams; i++) {
		struct mfamily *f = &m->fams[i];
		json_t *tables = json_array();
		for (size_t k = 0; k < f->ntables; k++)
			if (wanted(f, &f->tables[k]))
				json_array_append_new(tables, json_table(&f->tables[k]));
		if (wanted(f, NULL))
			json_array_append_new(fams, json_pack("{s:s, s:s, s:s, s:s, s:o, s:o, s:o, s:o}", "name", f->name, "slug",
							      f->slug, "title", f->title, "kind", f->kind ? f->kind : "stream",
							      "answer", strs(&f->answer), "tables", tables, "problems",
							      strs(&f->problems), "warnings", strs(&f->warnings)));
	}
	json_t *root = json_pack("{s:s, s:o, s:o}", "schema", "flagbench-tables/1", "runs", runs, "families", fams);
	char *s = json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	sb_addf(out, "%s\n", s);
	free(s);
	json_decref(root);
}

/* ------------------------------------------------------------------ */
/* tsv: one table as gnuplot data.  First line "#" then ncols nrows log
 * ybottom hline title ylabel; then a block per column (blocks end with two blank
 * lines), its header line the column's name, then per row:
 *   row  value  low  high  share  ok(1|0)  text  row-label  column-name
 * in the unit of the y axis (GiB/s, usec/op: lower is faster). */

static void tsv_num(struct strbuf *out, double v)
{
	sb_addf(out, isnan(v) ? "NaN\t" : "%.10g\t", v);
}

static int write_tsv(struct model *m, struct strbuf *out)
{
	struct mfamily *f = want_family ? model_family(m, want_family) : NULL;
	struct mtable *t = NULL;
	for (size_t k = 0; f && want_table && k < f->ntables; k++)
		if (!strcmp(f->tables[k].name, want_table))
			t = &f->tables[k];
	if (!t)
		return error("tables: --format tsv needs --family and --table of a table the run has");
	struct mscale s = model_scale(t);
	double min = INFINITY, max = 0;
	char buf[256];
#define SCALED(v) (s.inv ? s.div / (v) : (v) / s.div)
	for (size_t r = 0; r < t->nrows; r++)
		for (size_t c = 0; c < t->ncols; c++) {
			struct mcell *x = &t->rows[r].cells[c];
			double v[] = { x->state == MS_OK ? x->value : NAN, x->lo, x->hi };
			for (size_t i = 0; i < 3; i++)
				if (v[i] > 0) {
					min = fmin(min, SCALED(v[i]));
					max = fmax(max, SCALED(v[i]));
				}
		}
	int log = max > 0 && max / min > 10;
	char *title = xasprintf("%.90s%s", t->title, width(t->title) > 90 ? "..." : "");
	sb_addf(out, "#\t%zu\t%zu\t%d\t%g\t%s\t", t->ncols, t->nrows, log, log ? pow(10, floor(log10(min) - 0.05)) : 0,
		t->fmt == MF_RATIO ? "1" : "none");
	add_clean(out, title, 'g');
	sb_adds(out, "\t");
	add_clean(out, !strcmp(t->name, "compilers") ? "gcc / clang" : t->fmt == MF_RATIO ? "ratio" : s.label, 'g');
	sb_adds(out, s.inv ? " (lower is faster)\n" : "\n");
	free(title);
	for (size_t c = 0; c < t->ncols; c++) {
		add_clean(out, t->cols[c], 'g');
		sb_adds(out, "\n");
		for (size_t r = 0; r < t->nrows; r++) {
			struct mcell *x = &t->rows[r].cells[c];
			int ok = x->state == MS_OK && x->value > 0;
			sb_addf(out, "%zu\t", r);
			tsv_num(out, ok ? SCALED(x->value) : NAN);
			tsv_num(out, ok ? SCALED(s.inv ? x->hi : x->lo) : NAN);
			tsv_num(out, ok ? SCALED(s.inv ? x->lo : x->hi) : NAN);
			tsv_num(out, x->share);
			cell_text(t, r, c, buf, sizeof(buf));
			sb_addf(out, "%d\t", ok);
			add_clean(out, buf, 'g');
			sb_adds(out, "\t");
			add_clean(out, t->rows[r].label, 'g');
			sb_adds(out, "\t");
			add_clean(out, t->cols[c], 'g');
			sb_adds(out, "\n");
		}
		sb_adds(out, "\n\n");
	}
	return 0;
}

int model_write(struct model *m, enum mformat f, const char *family, const char *table, struct strbuf *out)
{
	want_family = family;
	want_table = table;
	if (family && !model_family(m, family))
		return error("tables: no family %s in these results", family);
	if (f == FMT_TSV)
		return write_tsv(m, out);
	(f == FMT_TERM ? write_term : f == FMT_MD ? write_md : f == FMT_CSV ? write_csv : write_json)(m, out);
	return 0;
}

/* ------------------------------------------------------------------ */
/* The commands. */

struct tables_opts {
	char *format, *family, *table, *against, *out;
	int help;
};

#define TO(f) offsetof(struct tables_opts, f)
static const struct option_def tables_options[] = {
	{ "format", 0, OPT_STRING, TO(format), "term|md|csv|json|tsv", 0, 0, "output format (default term)" },
	{ "family", 0, OPT_STRING, TO(family), "F", 0, 0, "only family F (its name or file-name slug)" },
	{ "table", 0, OPT_STRING, TO(table), "T", 0, 0, "only table T: throughput, speedup, against, compilers, "
							"instructions, cycles" },
	{ "against", 0, OPT_STRING, TO(against), "COMPILER/-OLEVEL", 0, 0, "the configuration ratios are against "
									  "(default: the first compiler at its first -O level)" },
	{ "out", 0, OPT_STRING, TO(out), "FILE", 0, 0, "write FILE (atomically) instead of stdout" },
	{ "help", 'h', OPT_FLAG, TO(help), NULL, 0, 0, "this help" },
	{ NULL, 0, 0, 0, NULL, 0, 0, NULL },
};

static int tables_main(const char *name, const char *deflt, int argc, char **argv)
{
	static const char *formats[] = { "term", "md", "csv", "json", "tsv", NULL };
	struct tables_opts o = { 0 };
	char **pos = xcalloc((size_t)argc + 1, sizeof(*pos));
	int npos = options_parse(tables_options, &o, NULL, argc - 1, argv + 1, pos, argc), f = 0, rc = 0;
	const char *fmt = o.format ? o.format : deflt;
	while (formats[f] && strcmp(formats[f], fmt))
		f++;
	if (npos >= 0 && !o.help && (npos < 1 || !formats[f] || (!strcmp(name, "report") && npos != 1))) {
		if (!formats[f])
			error("%s: unknown format %s (term, md, csv, json or tsv)", name, fmt);
		else
			error("%s: expected %s", name, strcmp(name, "report") ? "RUN_DIR..." : "one RUN_DIR");
		npos = -1;
	}
	if (npos < 0 || o.help) {
		fprintf(o.help ? stdout : stderr, "usage: flagbench %s [options] RUN_DIR...\n  the tables of one run, "
			"or of several side by side (RUN_DIR or its results.json)\n", name);
		options_help(tables_options, o.help ? stdout : stderr);
		free(pos);
		return o.help ? 0 : EXIT_USAGE;
	}
	struct model m;
	struct strbuf sb = STRBUF_INIT;
	if (model_load(&m, pos, (size_t)npos, o.against) < 0 || model_write(&m, f, o.family, o.table, &sb) < 0)
		rc = EXIT_USAGE;
	else if (o.out ? write_file_atomic(o.out, sb.buf ? sb.buf : "", sb.len) < 0
		       : (fwrite(sb.buf ? sb.buf : "", 1, sb.len, stdout) != sb.len || fflush(stdout) != 0)) {
		if (!o.out)
			error("%s: cannot write: %s", name, strerror(errno));
		rc = EXIT_CELL_FAILED;
	}
	sb_release(&sb);
	model_free(&m);
	free(pos);
	return rc;
}

int cmd_tables(int argc, char **argv)
{
	return tables_main("tables", "term", argc, argv);
}

int cmd_report(int argc, char **argv)
{
	return tables_main("report", "term", argc, argv);
}

int cmd_merge(int argc, char **argv)
{
	return tables_main("merge", "md", argc, argv);
}

int tables_print_run(FILE *out, const char *run_dir)
{
	struct model m;
	struct strbuf sb = STRBUF_INIT;
	char *path = (char *)run_dir;
	int rc = model_load(&m, &path, 1, NULL) < 0 ? -1 : model_write(&m, FMT_TERM, NULL, NULL, &sb);
	if (!rc)
		fwrite(sb.buf ? sb.buf : "", 1, sb.len, out);
	sb_release(&sb);
	model_free(&m);
	return rc;
}
