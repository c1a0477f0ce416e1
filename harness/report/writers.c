/* writers.c: one writer per format over the results model (see model.h), and
 * the commands that print it.  Writers lay texts out; every number and its
 * digits come from model.c.  Each format escapes text its own way: Markdown
 * pipes and line breaks, CSV quotes, JSON through jansson, control
 * characters scrubbed for the terminal, tabs and quotes out of gnuplot data. */
#define _GNU_SOURCE
#include "report/model.h"
#include "report/answers_writer.h"
#include "report/across_writer.h"
#include "report/model_compare.h"
#include "core/json_util.h"
#include "core/stats.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

static const char *want_family, *want_table;

static int wanted(const struct mfamily *f, const struct mtable *t)
{
	return (!want_family || !strcmp(f->name, want_family) || !strcmp(f->slug, want_family)) &&
	       (!t || !want_table || !strcmp(t->name, want_table));
}

/* Text for one format: 'm' Markdown, 't' terminal, 'g' gnuplot data. */
static void add_clean(struct strbuf *sb, const char *s, char how)
{
	if (how == 't') {
		sb_add_printable(sb, s, 0);
		return;
	}
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (how == 'm' && strchr("&<>|\r\n\t", *p))
			sb_adds(sb, *p == '&' ? "&amp;" : *p == '<' ? "&lt;" : *p == '>' ? "&gt;" : *p == '|' ? "\\|" : " ");
		else if (how == 'g' && strchr("\"\r\n\t", *p))
			sb_adds(sb, *p == '"' ? "'" : " ");
		else
			sb_add(sb, (const char *)p, 1);
	}
}

static size_t width(const char *s)
{
	return utf8_columns(s, strlen(s));
}

/* ------------------------------------------------------------------ */
/* term and md ('t', 'm'): one layout, in aligned columns or in Markdown. */


static size_t term_columns; /* of the model being written (model.h) */

static void text_table(const struct mtable *t, char how, struct strbuf *out)
{
	int md = how == 'm', two = md || !strcmp(t->col2, "config");
	size_t nc = t->ncols + 1 + two, nr = t->nrows + 1, *w = xcalloc(nc, sizeof(*w));
	struct strbuf *g = xcalloc(nc * nr, sizeof(*g));
	const char *legend[MODEL_LEGEND_MAX];
	char buf[256];
	for (size_t r = 0; r < nr; r++)
		for (size_t c = 0; c < nc; c++) {
			const char *x = c == 0 ? (r ? t->rows[r - 1].label : "variant")
					: c == 1 && two ? (r ? t->rows[r - 1].title : t->col2)
					: !r ? t->cols[c - 1 - two] : buf;
			if (r && c > (size_t)two)
				model_text(t, &t->rows[r - 1].cells[c - 1 - two], buf, sizeof(buf), NULL, NULL);
			add_clean(&g[r * nc + c], x, how);
			w[c] = md || width(g[r * nc + c].buf) < w[c] ? w[c] : width(g[r * nc + c].buf);
		}
	sb_adds(out, !md ? "\n" : want_table ? "\n## " : "\n### ");
	add_clean(out, t->title, how);
	if (md) {
		sb_adds(out, "\n\n");
		add_clean(out, t->caption, how);
		sb_adds(out, " Cells that are not ok show their status word.\n");
	}
	sb_adds(out, "\n");
	/* the terminal's table in blocks of columns that fit its width, each
	 * with the row labels again; Markdown in one */
	size_t lead = (size_t)two + 1, used_lead = 0;
	for (size_t c = 0; c < lead; c++)
		used_lead += (c ? 2 : 0) + w[c];
	for (size_t from = lead; from < nc || from == lead;) {
		size_t to = from, used = used_lead;
		while (to < nc && (to == from || md || !term_columns || used + 2 + w[to] <= term_columns))
			used += 2 + w[to++];
		if (from > lead)
			sb_adds(out, "\n");
		for (size_t r = 0; r < nr; r++) {
			size_t start = out->len;
			for (size_t c = 0; c < to; c++) {
				if (c >= lead && c < from)
					continue;
				const char *x = g[r * nc + c].buf;
				int pad = md ? 0 : (int)(w[c] - width(x)), left = c <= (size_t)two;
				sb_addf(out, "%s%*s%s%*s", md ? (c ? " | " : "| ") : c ? "  " : "", left ? 0 : pad, "", x,
					left ? pad : 0, "");
			}
			while (out->len > start && out->buf[out->len - 1] == ' ')
				out->buf[--out->len] = '\0';
			sb_adds(out, md ? " |\n" : "\n");
			for (size_t c = 0; md && !r && c < nc; c++)
				sb_adds(out, c == 0 ? "| --- |" : c == 1 ? " --- |" : " ---: |");
			sb_adds(out, md && !r ? "\n" : "");
		}
		if (to >= nc)
			break;
		from = to;
	}
	for (size_t i = 0; i < nc * nr; i++)
		sb_release(&g[i]);
	for (size_t i = 0, n = model_legend(t, legend); i < n; i++)
		sb_addf(out, "%s%s\n", md && !i ? "\n" : "", legend[i]);
	free(g);
	free(w);
}

/* A list: the answer (head NULL), or the cells not ok or with warnings under a heading. */
static void text_list(const char *head, const char *title, const struct strvec *v, char how, struct strbuf *out)
{
	for (size_t i = 0; i < v->n; i++) {
		if (!i && head) {
			sb_adds(out, "\n");
			add_clean(out, title, how);
			sb_addf(out, ": %s\n", head);
		}
		sb_adds(out, i || (head && how == 't') ? "" : "\n");
		sb_adds(out, how == 'm' ? "- " : head ? "  " : "");
		add_clean(out, v->v[i], how);
		sb_adds(out, "\n");
	}
}

/* The run's line per run (id, suite, machine, cells) and its warnings. */
static void run_lines(struct model *m, char how, struct strbuf *out)
{
	for (size_t k = 0; k < m->nruns; k++) {
		struct mrun *r = &m->runs[k];
		const struct results_settings *run = &r->run.settings;
		const char *cpu = r->run.host.cpu_model, *suite = r->run.suite, *name = run->name;
		char away[64] = "";
		if (r->nunsupported)
			snprintf(away, sizeof(away), ", %zu not for this machine", r->nunsupported);
		char *line = xasprintf("run %s: suite %s on %s (%s): %zu cells, %zu ok%s%s", name ? name : r->id, suite ? suite : "?",
				       r->label, cpu ? cpu : "unknown cpu", r->ncells, r->nok, away,
				       run->finished ? "" : ", not finished");
		sb_adds(out, how == 'm' ? "- " : "");
		add_clean(out, line, how);
		sb_adds(out, "\n");
		free(line);
		for (size_t i = 0; i < run->nwarnings; i++) {
			sb_adds(out, how == 'm' ? "- warning: " : "warning: ");
			add_clean(out, run->warnings[i], how);
			sb_adds(out, "\n");
		}
		/* the machine's state between this run and its last one: the
		 * figures carry it, ratios cancel what both builds meet alike */
		const struct between_runs *b = &r->between;
		if (b->level_cells >= BETWEEN_LEVEL_MIN_CELLS && fabs(b->level_shift) >= BETWEEN_LEVEL_SAID) {
			char *said = xasprintf("the machine ran %.1f %% %s than %s (%s): the median of the same "
					       "%zu binaries; the figures carry it, a ratio only where its two builds met it "
					       "differently",
					       100 * fabs(b->level_shift), b->level_shift > 0 ? "slower" : "faster",
					       b->any_host ? "the last run of its CPU model on any host" : "in its last run here",
					       b->run_ids[0], b->level_cells);
			sb_adds(out, how == 'm' ? "- note: " : "note: ");
			add_clean(out, said, how);
			sb_adds(out, "\n");
			free(said);
		}
	}
}

static void write_text(struct model *m, char how, struct strbuf *out)
{
	if (how == 'm' && !want_table)
		sb_addf(out, "# flagbench: %s\n\n", m->nruns > 1 ? "results across machines" : "run");
	if (!want_table) {
		run_lines(m, how, out);
		/* several machines: their answers first (across_writer.h) */
		across_write_head(m, how, term_columns, out);
	}
	for (size_t i = 0; i < m->nfams; i++) {
		struct mfamily *f = &m->fams[i];
		int head = !want_table || !strcmp(want_table, "throughput");
		if (!wanted(f, NULL))
			continue;
		if (how == 'm') {
			sb_adds(out, want_table ? "# " : "\n## ");
			add_clean(out, f->title, how);
			sb_adds(out, "\n");
		}
		if (head) {
			if (!want_table) /* with the level it is shown at, which --table leaves out */
				across_write_family(f, how, term_columns, out);
			text_list(NULL, NULL, &f->answer, how, out);
		}
		for (size_t k = 0; k < f->ntables; k++)
			if (wanted(f, &f->tables[k]))
				text_table(&f->tables[k], how, out);
		if (head) {
			text_list("cells that are not ok", f->title, &f->problems, how, out);
			text_list("cell warnings", f->title, &f->warnings, how, out);
		}
	}
}

/* ------------------------------------------------------------------ */
/* csv and tsv ('c', 'g'): a line per cell.  csv: every table, each line naming
 * its family, table, row and column, numbers in the table's unit (ci_percent
 * a value's ±, empty for a ratio, whose interval is low and high).  tsv: one
 * table as gnuplot data: first line "#" then has-data ncols nrows hline
 * title ylabel; a block per column (ending with two blank lines), its
 * first line the column's name, then per row
 *   row  value  low  high  share  ok(1|0)  text  row-label  column-name
 * in the unit of the y axis (GiB/s; usec/op, lower is faster). */

static const char *marks(unsigned k)
{
	static char buf[16];
	return model_marks(k, buf, sizeof(buf));
}

static void field(struct strbuf *out, const char *s, char how, const char *sep)
{
	if (how == 'g')
		add_clean(out, s, how);
	for (sb_adds(out, how == 'c' ? "\"" : ""); how == 'c' && *s; s++)
		sb_adds(out, *s == '"' ? "\"\"" : (char[]){ *s, 0 });
	sb_addf(out, "%s%s", how == 'c' ? "\"" : "", sep);
}

static void number(struct strbuf *out, double v, char how)
{
	sb_addf(out, isnan(v) ? (how == 'c' ? "," : "NaN\t") : (how == 'c' ? "%.10g," : "%.10g\t"), v);
}

static void cell_lines(const struct mfamily *f, const struct mtable *t, char how, struct strbuf *out)
{
	struct mscale s = how == 'g' ? model_scale(t) : (struct mscale){ 1, 0, NULL };
	char buf[256];
#define SCALED(v) (s.inv ? s.div / (v) : (v) / s.div)
	for (size_t c = 0; c < t->ncols; c++) {
		if (how == 'g')
			field(out, t->cols[c], how, "\n");
		for (size_t r = 0; r < t->nrows; r++) {
			struct mcell *x = &t->rows[r].cells[c];
			int ok = x->state == MS_OK && x->value > 0;
			const char *names[] = { f->name, t->name, t->rows[r].label, t->rows[r].title, t->cols[c], ok ? "ok" : x->word };
			for (size_t i = 0; i < 6 && how == 'c'; i++)
				field(out, names[i], how, ",");
			if (how == 'g')
				sb_addf(out, "%zu\t", r);
			number(out, ok ? SCALED(x->value) : NAN, how);
			if (how == 'c')
				field(out, t->unit, how, ",");
			number(out, ok ? SCALED(s.inv ? x->hi : x->lo) : NAN, how);
			number(out, ok ? SCALED(s.inv ? x->lo : x->hi) : NAN, how);
			number(out, how == 'c' ? x->ci : x->share, how);
			if (how == 'c')
				number(out, x->level, how);
			if (how == 'c')
				field(out, marks(x->marks), how, ",");
			else
				sb_addf(out, "%d\t", ok);
			model_text(t, x, buf, sizeof(buf), NULL, NULL);
			field(out, buf, how, how == 'c' ? "\r\n" : "\t");
			if (how == 'g') {
				field(out, t->rows[r].label, how, "\t");
				field(out, t->cols[c], how, "\n");
			}
		}
		sb_adds(out, how == 'g' ? "\n\n" : "");
	}
}

static void write_csv(struct model *m, struct strbuf *out)
{
	sb_adds(out, "family,table,variant,title,column,status,value,unit,low,high,ci_percent,ci_level,marks,text\r\n");
	for (size_t i = 0; i < m->nfams; i++)
		for (size_t k = 0; k < m->fams[i].ntables; k++)
			if (wanted(&m->fams[i], &m->fams[i].tables[k]))
				cell_lines(&m->fams[i], &m->fams[i].tables[k], 'c', out);
}

static int write_tsv(struct model *m, struct strbuf *out)
{
	struct mfamily *f = want_family ? model_family(m, want_family) : NULL;
	struct mtable *t = NULL;
	for (size_t k = 0; f && want_table && k < f->ntables; k++)
		t = strcmp(f->tables[k].name, want_table) ? t : &f->tables[k];
	if (!t)
		return error("tables: --format tsv needs --family and --table of a table the run has");
	struct mscale s = model_scale(t);
	int has = 0;
	for (size_t r = 0; r < t->nrows; r++)
		for (size_t c = 0; c < t->ncols; c++)
			has |= t->rows[r].cells[c].state == MS_OK && t->rows[r].cells[c].value > 0;
	sb_addf(out, "#\t%d\t%zu\t%zu\t%s\t", has, t->ncols, t->nrows, t->fmt == MF_RATIO ? "1" : "none");
	field(out, t->title, 'g', "\t");
	field(out, !strcmp(t->name, "compilers") ? "gcc / clang" : t->fmt == MF_RATIO ? "ratio" : s.label, 'g',
	      s.inv ? " (lower is faster)\n" : "\n");
	cell_lines(f, t, 'g', out);
	return 0;
}

/* ------------------------------------------------------------------ */
/* json: the model as it is, for plots/render.sh and plots/publish.sh. */

static json_t *json_table(const struct mtable *t)
{
	static const char *states[] = { "ok", "status", "absent", "n/a" };
	json_t *cols = json_array(), *rows = json_array(), *leg = json_array();
	const char *legend[MODEL_LEGEND_MAX];
	char buf[256], fig[MODEL_PART], spread[MODEL_PART];
	int ratio = t->fmt == MF_RATIO;
	for (size_t c = 0; c < t->ncols; c++)
		json_array_append_new(cols, json_string(t->cols[c]));
	for (size_t l = 0, n = model_legend(t, legend); l < n; l++)
		json_array_append_new(leg, json_string(legend[l]));
	for (size_t r = 0; r < t->nrows; r++) {
		json_t *cells = json_array();
		for (size_t c = 0; c < t->ncols; c++) {
			struct mcell *x = &t->rows[r].cells[c];
			model_text(t, x, buf, sizeof(buf), fig, spread);
			/* pm: a value's ± alone; interval: a ratio's [low, high], whose ends are low and high */
			json_array_append_new(cells, json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:s?}",
				"text", buf, "figure", fig, "pm", ratio ? "" : spread, "interval", ratio ? spread : "",
				"state", states[x->state],
				"marks", marks(x->marks),
				"value", jnum_or_null(x->state == MS_OK ? x->value : NAN), "low", jnum_or_null(x->lo),
				"high", jnum_or_null(x->hi), "ci_percent", jnum_or_null(x->ci), "share", jnum_or_null(x->share),
				"id", x->id));
			json_t *cell = json_array_get(cells, json_array_size(cells) - 1);
			jset_num(cell, "ci_level", x->level);
			/* the one comparison's word for a ratio; the layouts of a value */
			if (t->fmt == MF_RATIO && x->state == MS_OK && x->verdict != VERDICT_NO_DATA)
				json_object_set_new(cell, "verdict", json_string(comparison_verdict_word(x->verdict)));
			if (x->layouts > 1) {
				json_object_set_new(cell, "layouts", json_integer((json_int_t)x->layouts));
				jset_num(cell, "layout_spread_percent", 100 * (exp(x->spread) - 1));
			}
			jset_num(cell, "ci95_percent", x->level >= STATS_CI_TARGET ? x->ci : NAN);
			/* where the run saw more than one state of the host's two CPUs */
			if (x->marks & (MARK_NEAR | MARK_FAR | MARK_ACROSS_STATES))
				json_object_set_new(cell, "cpus", json_string(x->marks & MARK_NEAR ? "near"
									      : x->marks & MARK_FAR ? "far"
												     : "across"));
		}
		json_array_append_new(rows, json_pack("{s:s, s:s, s:b, s:o}", "label", t->rows[r].label, "title",
						      t->rows[r].title, "ref", t->rows[r].ref, "cells", cells));
	}
	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:o, s:o, s:o}", "name", t->name, "title", t->title, "caption",
			 t->caption, "col2", t->col2, "unit", t->unit, "columns", cols, "rows", rows, "legend", leg);
}

/* The family's gaps (model_gaps.h) in their order: B against A. */
static json_t *json_gaps(const struct mfamily *f)
{
	json_t *gaps = json_array();
	for (size_t i = 0; i < f->ngaps; i++) {
		const struct mgap *g = &f->gaps[i];
		json_t *entries = json_array();
		char text[32];
		for (size_t k = 0; k < g->n; k++) {
			model_format_ratio(g->v[k].ratio, text, sizeof(text));
			json_array_append_new(entries, json_pack("{s:s, s:o, s:s, s:o, s:o, s:s, s:o}", "variant",
								 g->v[k].variant, "ratio", jnum_or_null(g->v[k].ratio), "text",
								 text, "low", jnum_or_null(g->v[k].low), "high",
								 jnum_or_null(g->v[k].high), "verdict",
								 comparison_verdict_word(g->v[k].verdict), "count_ratio",
								 jnum_or_null(g->v[k].count_ratio)));
			json_object_set_new(json_array_get(entries, k), "repeat_chance", jnum_or_null(g->v[k].repeat));
			/* the answers' rule for saying it (model_compare.h) */
			json_object_set_new(json_array_get(entries, k), "repeat_unsure",
					    json_boolean(model_repeat_unsure(g->v[k].verdict, g->v[k].repeat)));
		}
		json_array_append_new(gaps, json_pack("{s:s, s:s, s:s, s:i, s:o}", "b", g->b, "a", g->a, "context", g->context,
						      "real", (int)g->real, "entries", entries));
	}
	return gaps;
}

/* The answers as data (struct manswer), beside their sentences in "answer". */
static json_t *json_answers(const struct mfamily *f)
{
	json_t *answers = json_array();
	for (size_t i = 0; i < f->nanswers; i++) {
		const struct manswer *a = &f->answers[i];
		json_t *j = json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:s, s:o, s:b, s:o}", "variant", a->variant,
				      "leader", jstr_or_null(a->leader), "twins", jstr_or_null(a->twins), "runner_up",
				      jstr_or_null(a->runner), "lead", jnum_or_null(a->lead), "low", jnum_or_null(a->low),
				      "high", jnum_or_null(a->high), "verdict", comparison_verdict_word(a->verdict), "words",
				      jstr_or_null(a->words), "fewest", a->fewest, "note", jstr_or_null(a->note));
		/* the rest of the evidence (model_evidence.h) */
		/* where runner_up is a build further back that the leader does not clearly lead */
		json_object_set_new(j, "runner_up_by_figure", jstr_or_null(a->second));
		json_object_set_new(j, "repeat_chance", jnum_or_null(a->repeat));
		json_object_set_new(j, "evidence", jstr_or_null(a->evidence));
		json_object_set_new(j, "count_ratio", jnum_or_null(a->count_ratio));
		json_object_set_new(j, "counts_disagree", json_boolean(a->counts_disagree));
		json_object_set_new(j, "need_s_per_cell", jnum_or_null(a->need_s));
		json_array_append_new(answers, j);
	}
	return answers;
}
/* results/ratio_drift.h: what this machine's earlier runs say of the
 * ratios' drift from run to run, per variant and per family */
static json_t *between_json(const struct between_runs *b)
{
	json_t *ids = json_array(), *groups = json_array();
	for (size_t i = 0; i < b->nruns; i++)
		json_array_append_new(ids, json_string(b->run_ids[i]));
	for (size_t i = 0; i < b->ngroups; i++) {
		const struct between_group *g = &b->groups[i];
		json_array_append_new(groups, json_pack("{s:s, s:o, s:s, s:o, s:i}", "family", g->family, "variant",
							jstr_or_null(g->variant), "kind",
							g->kind == BETWEEN_SAME_VARIANT ? "same variant" : "across variants",
							"drift_percent", jnum_or_null(100 * g->drift), "ratios",
							(int)g->ratios));
	}
	int level = b->level_cells >= BETWEEN_LEVEL_MIN_CELLS && isfinite(b->level_shift);
	return json_pack("{s:o, s:s, s:o, s:o}", "runs", ids, "of", b->any_host ? "cpu" : "host", "groups", groups, "level_shift",
			 level ? json_pack("{s:f, s:i, s:s}", "slower_percent", 100 * b->level_shift, "cells",
					   (int)b->level_cells, "against", b->run_ids[0])
			       : json_null());
}


static void write_json(struct model *m, struct strbuf *out)
{
	json_t *runs = json_array(), *fams = json_array();
	for (size_t k = 0; k < m->nruns; k++) {
		const struct results_run *run = &m->runs[k].run;
		json_t *rj = json_pack("{s:s, s:s, s:s, s:i, s:i, s:o, s:o, s:o, s:o}", "label", m->runs[k].label, "id",
				       m->runs[k].id, "slug", m->runs[k].slug, "cells", (int)m->runs[k].ncells, "ok",
				       (int)m->runs[k].nok, "suite", jstr_or_null(run->suite), "started",
				       jstr_or_null(run->settings.started), "schema", jstr_or_null(run->schema), "cpu_model",
				       jstr_or_null(run->host.cpu_model));
		/* results/ratio_drift.h: what every ratio's interval includes */
		json_object_set_new(rj, "ratio_drift_percent", jnum_or_null(100 * m->runs[k].ratio_drift));
		json_object_set_new(rj, "ratio_drift_pairs", json_integer((json_int_t)m->runs[k].ratio_drift_pairs));
		json_object_set_new(rj, "between_runs", between_json(&m->runs[k].between));
		json_array_append_new(runs, rj);
	}
	for (size_t i = 0; i < m->nfams; i++) {
		struct mfamily *f = &m->fams[i];
		if (!wanted(f, NULL)) /* before its tables: an array made for nothing would leak */
			continue;
		json_t *tables = json_array();
		for (size_t k = 0; k < f->ntables; k++)
			if (wanted(f, &f->tables[k]))
				json_array_append_new(tables, json_table(&f->tables[k]));
		json_array_append_new(fams, json_pack("{s:s, s:s, s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:o}", "name", f->name,
						      "slug", f->slug, "title", f->title, "kind", f->kind ? f->kind : "stream",
						      "answer", jstrvec(&f->answer), "answers", json_answers(f), "gaps",
						      json_gaps(f), "tables", tables, "problems", jstrvec(&f->problems),
						      "warnings", jstrvec(&f->warnings)));
		/* several machines: the answers across them (across_writer.h), else null */
		json_object_set_new(json_array_get(fams, json_array_size(fams) - 1), "across", across_json(m, f));
	}
	json_t *root = json_pack("{s:s, s:o, s:o}", "schema", "flagbench-tables/1", "runs", runs, "families", fams);
	char *s = json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	sb_addf(out, "%s\n", s);
	free(s);
	json_decref(root);
}

int model_write(struct model *m, enum mformat f, const char *family, const char *table, struct strbuf *out)
{
	want_family = family;
	want_table = table;
	term_columns = m->term_columns;
	int found = !table;
	if (family && !model_family(m, family))
		return error("tables: no family %s in these results", family);
	for (size_t i = 0; i < m->nfams; i++)
		for (size_t k = 0; k < m->fams[i].ntables; k++)
			found |= wanted(&m->fams[i], &m->fams[i].tables[k]);
	if (!found)
		return error("tables: no table %s in these results", table);
	if (f == FMT_TSV)
		return write_tsv(m, out);
	if (f == FMT_TERM || f == FMT_MD)
		write_text(m, f == FMT_MD ? 'm' : 't', out);
	else
		(f == FMT_CSV ? write_csv : write_json)(m, out);
	return 0;
}

int model_print(const char *name, char **paths, size_t n, const char *against, enum mformat f, const char *family,
		const char *table, const char *out, size_t width)
{
	struct model m = { 0 };
	struct strbuf sb = STRBUF_INIT;
	int rc = 0;
	int loaded = model_load(&m, paths, n, against) == 0;
	m.term_columns = width;
	if (!loaded || model_write(&m, f, family, table, &sb) < 0) {
		rc = EXIT_USAGE;
		goto done;
	}
	/* a saved run's report ends as the run did: with its answers, which
	 * are terminal text (the other formats carry them as data) */
	if (!strcmp(name, "report") && f == FMT_TERM && n == 1 && !out && !family && !table) {
		sb_adds(&sb, "\n");
		answers_write_term(&m, NULL, MODEL_TERM_COLUMNS, &sb);
	}
	if (out ? write_file_atomic(out, sb.buf ? sb.buf : "", sb.len) < 0
		     : (fwrite(sb.buf ? sb.buf : "", 1, sb.len, stdout) != sb.len || fflush(stdout) != 0))
		rc = out ? EXIT_CELL_FAILED : (error("%s: cannot write: %s", name, strerror(errno)), EXIT_CELL_FAILED);
done:
	sb_release(&sb);
	model_free(&m);
	return rc;
}

int model_print_each(char **paths, size_t n, const char *against, enum mformat f, const char *family, const char *table,
		     const char *dir, size_t width)
{
	static const char *ext[] = { [FMT_TERM] = "txt", [FMT_MD] = "md", [FMT_CSV] = "csv", [FMT_JSON] = "json",
				     [FMT_TSV] = "tsv" };
	struct model m = { 0 };
	int rc = EXIT_ALL_OK;
	if (model_load(&m, paths, n, against) < 0) {
		model_free(&m);
		return EXIT_USAGE;
	}
	m.term_columns = width;
	const struct mfamily *want = family ? model_family(&m, family) : NULL;
	if (family && !want)
		rc = (error("tables: no family %s in these results", family), EXIT_USAGE);
	else if (mkdir_p(dir, 0755) < 0)
		rc = (error("tables: cannot make %s: %s", dir, strerror(errno)), EXIT_CELL_FAILED);
	size_t written = 0;
	for (size_t i = 0; i < m.nfams && rc == EXIT_ALL_OK; i++) {
		const struct mfamily *fam = &m.fams[i];
		if (want && fam != want)
			continue;
		for (size_t k = 0; k < fam->ntables && rc == EXIT_ALL_OK; k++) {
			if (table && strcmp(table, fam->tables[k].name))
				continue;
			struct strbuf sb = STRBUF_INIT;
			char *path = xasprintf("%s/%s-%s.%s", dir, fam->slug, fam->tables[k].name, ext[f]);
			if (model_write(&m, f, fam->slug, fam->tables[k].name, &sb) < 0)
				rc = EXIT_USAGE;
			else if (write_file_atomic(path, sb.buf ? sb.buf : "", sb.len) < 0)
				rc = EXIT_CELL_FAILED;
			else
				written++;
			free(path);
			sb_release(&sb);
		}
	}
	if (rc == EXIT_ALL_OK && table && !written)
		rc = (error("tables: no table %s in these results", table), EXIT_USAGE);
	model_free(&m);
	return rc;
}

int tables_print_run(const char *run_dir, int verbose)
{
	char *paths[] = { (char *)run_dir };
	struct model m = { 0 };
	struct strbuf sb = STRBUF_INIT;
	int rc = 0;
	int loaded = model_load(&m, paths, 1, NULL) == 0;
	m.term_columns = MODEL_TERM_COLUMNS;
	if (!loaded || (verbose && model_write(&m, FMT_TERM, NULL, NULL, &sb) < 0)) {
		rc = EXIT_USAGE;
	} else {
		if (!verbose)
			run_lines(&m, 't', &sb);
		answers_write_term(&m, run_dir, MODEL_TERM_COLUMNS, &sb);
		if (fwrite(sb.buf ? sb.buf : "", 1, sb.len, stdout) != sb.len || fflush(stdout) != 0)
			rc = (error("run: cannot write the tables: %s", strerror(errno)), EXIT_CELL_FAILED);
	}
	sb_release(&sb);
	model_free(&m);
	return rc;
}
