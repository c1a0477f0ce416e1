/* model_tables.c: see model_tables.h */
#define _GNU_SOURCE
#include "report/model_tables.h"
#include "report/model_answer.h"
#include "report/model_gaps.h"
#include "report/model_compare.h"
#include "core/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Tables. */

/* A table's cell from variant v and column k. */
typedef struct mcell (*cell_fn)(struct model *m, struct fsrc *f, const struct var *v, size_t k, const void *arg);

/* A variant whose every cell is unsupported here (RISC-V vector code on
 * x86, AVX-512 where the CPU lacks it): one line under the table, not a
 * row of the same word. */
static int not_for_this_machine(const struct fsrc *f, const struct var *v)
{
	size_t n = 0;
	if (v->ref)
		return 0;
	for (size_t i = 0; i < f->n; i++) {
		const struct results_cell *c = f->cells[i];
		if (strcmp(c->variant, v->name) || c->reference != v->ref)
			continue;
		if (c->status != CELL_UNSUPPORTED)
			return 0;
		n++;
	}
	/* a cell in every column, each unsupported: an absent one is another matter */
	return n > 0 && n >= f->ncfgs;
}

/* A table of the family: a row per variant (with the references when refs),
 * a column per name in cols; titles say what it is. */
static struct mtable *table(struct model *m, struct mfamily *fam, struct fsrc *f, const char *name, enum mfmt fmt,
			    const char **cols, size_t ncols, int refs, cell_fn fn, const void *arg)
{
	fam->tables = xrealloc(fam->tables, (fam->ntables + 1) * sizeof(*fam->tables));
	struct mtable *t = &fam->tables[fam->ntables++];
	*t = (struct mtable){ .name = name, .fmt = fmt, .unit = "x", .col2 = "title", .cols = cols, .ncols = ncols };
	t->rows = model_alloc(m, f->nvars * sizeof(*t->rows));
	for (size_t v = 0; v < f->nvars; v++) {
		if (f->vars[v].ref && !refs)
			continue;
		if (not_for_this_machine(f, &f->vars[v])) {
			t->folded = model_own(m, "%s%s%s", t->folded ? t->folded : "", t->folded ? ", " : "", f->vars[v].name);
			continue;
		}
		struct mrow *r = &t->rows[t->nrows++];
		*r = (struct mrow){ f->vars[v].ref ? model_own(m, "%s (reference)", f->vars[v].name) : f->vars[v].name,
				    f->vars[v].title, f->vars[v].ref, model_alloc(m, ncols * sizeof(*r->cells)) };
		for (size_t k = 0; k < ncols; k++)
			r->cells[k] = fn(m, f, &f->vars[v], k, arg);
		/* a value table marks builds of a row that are one binary (≡), so
		 * "-O2 = -O3" is seen, not two figures that happen to agree */
		for (size_t a = 0; a < ncols && fmt == MF_VALUE && f->run && !r->ref; a++)
			for (size_t b = a + 1; b < ncols; b++) {
				struct results_cell *ca = model_cell_of(f, &r->cells[a]), *cb = model_cell_of(f, &r->cells[b]);
				if (r->cells[a].state == MS_OK && r->cells[b].state == MS_OK && ca && cb &&
				    model_same_binary(f, ca, cb)) {
					r->cells[a].marks |= MARK_SAME_BINARY;
					r->cells[b].marks |= MARK_SAME_BINARY;
				}
			}
	}
	return t;
}

/* " Each interval includes ...": the runs' ratio drift (results/ratio_drift.h), or "". */
static const char *drift_words(struct model *m)
{
	double most = 0;
	for (size_t k = 0; k < m->nruns; k++)
		if (m->runs[k].ratio_drift > most)
			most = m->runs[k].ratio_drift;
	if (!(most > 0))
		return "";
	return model_own(m, " Each interval includes the drift of the run's paired ratios between its first and "
			    "second half of rounds, beyond their noise (sd %.1f %%%s): a second run meets the machine "
			    "changed, and builds that meet it differently move their ratio.",
			 100 * most, m->nruns > 1 ? ", the most of the runs" : "");
}

/* " Each also includes ...": the largest drift between runs a ratio of
 * this family takes (results/ratio_drift.h), or "". */
static const char *between_words(struct model *m, const char *family)
{
	const struct between_group *most = NULL;
	size_t earlier = 0;
	for (size_t k = 0; k < m->nruns; k++) {
		const struct between_runs *b = &m->runs[k].between;
		const struct between_group *g = results_between_most(b, family);
		earlier = b->nruns > earlier ? b->nruns : earlier;
		if (g && (!most || g->drift > most->drift))
			most = g;
	}
	if (!most)
		return "";
	return model_own(m, " Each also includes how far the same two binaries' ratio moved from this machine's "
			    "earlier runs (%zu read beside this one), beyond their noise: up to sd %.1f %% (%s %s).",
			 earlier, 100 * most->drift, most->variant ? most->variant : "every variant",
			 results_between_kind_words(most->kind));
}

/* What a table shows, for its legend.  A ratio table without one ratio of two
 * measurements (all n/a, or every cell its own baseline) is dropped. */
static void finish_table(struct model *m, struct mfamily *fam, struct mtable *t, const char *title,
			 const char *caption)
{
	int any = t->fmt != MF_RATIO;
	t->title = title;
	t->caption = caption;
	for (size_t r = 0; r < t->nrows; r++)
		for (size_t c = 0; c < t->ncols; c++) {
			struct mcell *x = &t->rows[r].cells[c];
			/* a value folded over layouts has the layouts' ± (SHOWN_LAYOUTS), not the rerun interval's */
			int folded = x->layouts > 1 && t->fmt != MF_RATIO;
			int has = x->state == MS_OK && model_has_interval(t, x);
			t->shown |= x->marks | (!has || folded ? 0 : SHOWN_CI) | (t->rows[r].ref && t->ncols > 1 ? SHOWN_REF : 0) |
				    (has && x->level < STATS_CI_TARGET ? SHOWN_LOW_LEVEL : 0) | (folded ? SHOWN_LAYOUTS : 0);
			any |= x->state == MS_OK && (x->value != 1 || has || (x->marks & MARK_SAME_BINARY));
		}
	if (t->folded)
		t->folded_note = model_own(m, "Not for this machine, so not shown: %s (unsupported in every configuration; "
					   "the reasons are below the tables).", t->folded);
	if (t->fmt == MF_RATIO)
		t->ci_note = model_own(m, "[low, high] after a ratio is its interval, from the one comparison: paired over "
				       "the rounds both cells ran in, across code layouts where there are several, else a "
				       "bootstrap of both cells' runs; at %.3g %%, the level at which the run's %zu "
				       "comparisons keep the share of false leads among those called real at 5 %% at most "
				       "(Benjamini-Hochberg). A lead is real exactly when its interval excludes 1.00x, both "
				       "ends above it or both below (with the decimals that show it); none where a cell has "
				       "fewer than 3 runs.%s%s",
				       100 * m->cmp_level, m->cmp_asked, drift_words(m), between_words(m, fam->name));
	if (!any || !t->ncols || !t->nrows)
		fam->ntables--;
}

/* Heatmap colours: in each row, cells in order of speed; a cell that the
 * one comparison does not call slower than the fastest of its group (not a
 * real lead, the same, the same binary) joins the group and its colour. */
static void shares(struct model *m, struct fsrc *f, struct mtable *t)
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
			struct mview v = { .verdict = VERDICT_NO_DATA };
			struct results_cell *cl = lead ? model_cell_of(f, lead) : NULL, *cn = model_cell_of(f, next);
			if (cl && cn)
				model_compare(m, f, model_group_of(m, f, cn), model_group_of(m, f, cl), &v);
			if (!lead || v.verdict == VERDICT_FASTER)
				lead = next;
			next->share = best > 0 ? lead->value / best : 0;
		}
	}
}

/* Components [from, to) of a configuration "gcc/-O2/native/..." (to -1: the rest). */
static struct mcell value_fn(struct model *m, struct fsrc *f, const struct var *v, size_t k, const void *arg)
{
	return model_config_value(m, f, model_cell_at(f, v, f->cfgs[k]));
}

static struct mcell speedup_fn(struct model *m, struct fsrc *f, const struct var *v, size_t k, const void *arg)
{
	struct results_cell *c = model_cell_at(f, v, f->cfgs[k]);
	/* a joined run: the baseline measured in c's shard */
	return model_ratio(m, f, c, results_cell_beside(&f->run->run, model_find(f, f->baseline, f->cfgs[k]), c));
}

/* Against the same variant built as "gcc/-O2" with the same other flags (arg),
 * or with glibc's malloc (arg NULL). */
static struct mcell against_fn(struct model *m, struct fsrc *f, const struct var *v, size_t k, const void *arg)
{
	const char *cfg = f->cfgs[k], *rest = model_config_part(m, cfg, 2, -1), *alloc = NULL, *base = cfg;
	struct results_cell *c = model_find(f, v->name, cfg);
	if (arg)
		base = model_own(m, "%s%s%s", (const char *)arg, *rest ? "/" : "", rest);
	else if ((alloc = c ? c->allocator : NULL)) {
		size_t n = strlen(cfg), a = strlen(alloc);
		if (n > a && cfg[n - a - 1] == '/' && !strcmp(cfg + n - a, alloc))
			base = model_own(m, "%.*sglibc", (int)(n - a), cfg);
	}
	return model_ratio(m, f, c, model_find(f, v->name, base));
}

/* Counters per unit of work: arg "instructions" or "cycles"; or the .text size: "text_bytes". */
static struct mcell counter_fn(struct model *m, struct fsrc *f, const struct var *v, size_t k, const void *arg)
{
	struct results_cell *s = model_find(f, v->name, f->cfgs[k]);
	double x = !s ? NAN : !strcmp(arg, "text_bytes") ? (s->text_bytes ? (double)s->text_bytes : NAN)
		 : !strcmp(arg, "cycles") ? s->cycles_per_unit : s->instructions_per_unit;
	if (!s || s->status != CELL_OK || isnan(x))
		return model_word(!s ? "absent" : s->status != CELL_OK ? s->status_name : "n/a");
	return (struct mcell){ MS_OK, NULL, x, NAN, NAN, NAN, NAN, 0, s->id, NAN, VERDICT_NO_DATA, COMPARISON_NONE, 0, 0 };
}

/* Why counts are missing, once per reason: "instructions not counted
 * (N cells): WHY", so a table without them says why. */
static void counts_skipped(struct fsrc *f, struct strvec *out)
{
	struct strvec whys = STRVEC_INIT;
	size_t *count = calloc(f->n ? f->n : 1, sizeof(size_t));
	for (size_t i = 0; i < f->n; i++) {
		const char *why = f->cells[i]->counters_skipped;
		if (!why || f->cells[i]->status != CELL_OK)
			continue;
		size_t k = 0;
		while (k < whys.n && strcmp(whys.v[k], why))
			k++;
		if (k == whys.n)
			sv_push(&whys, why);
		count[k]++;
	}
	for (size_t k = 0; k < whys.n; k++)
		sv_pushf(out, MODEL_NOT_COUNTED " (%zu cell%s): %s", count[k], count[k] == 1 ? "" : "s", whys.v[k]);
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
	struct results_cell *a = model_find(f, v->name, f->cfgs[p->g[k]]), *b = model_find(f, v->name, f->cfgs[p->c[k]]);
	/* which build is not ok: "clang: timeout"; both the same way: "timeout" */
	struct results_cell *bad = a && a->status != CELL_OK ? a : b && b->status != CELL_OK ? b : NULL;
	if (!a || !b || !bad)
		return !a || !b ? model_word("absent") : model_ratio(m, f, a, b);
	return model_word(a->status == b->status ? a->status_name
			  : model_own(m, "%s: %s", model_config_part(m, bad->config, 0, 1), bad->status_name));
}

static void compilers_table(struct model *m, struct mfamily *fam, struct fsrc *f)
{
	struct pairs p = { 0, model_alloc(m, f->ncfgs * f->ncfgs * sizeof(int)), model_alloc(m, f->ncfgs * f->ncfgs * sizeof(int)) };
	const char **cols = model_alloc(m, f->ncfgs * f->ncfgs * sizeof(*cols)), *pair = NULL;
	int names = 0;
	for (size_t g = 0; g < f->ncfgs; g++)
		for (size_t c = 0; c < f->ncfgs; c++) {
			const char *cg = model_config_part(m, f->cfgs[g], 0, 1), *cc = model_config_part(m, f->cfgs[c], 0, 1);
			const char *rest = model_config_part(m, f->cfgs[g], 1, -1);
			if (!strstr(cg, "gcc") || strstr(cg, "clang") || !strstr(cc, "clang") ||
			    strcmp(rest, model_config_part(m, f->cfgs[c], 1, -1)))
				continue;
			names += !pair || strcmp(pair, model_own(m, "%s vs %s", cg, cc));
			pair = model_own(m, "%s vs %s", cg, cc);
			cols[p.n] = model_own(m, "%s, %s", pair, rest);
			p.g[p.n] = (int)g;
			p.c[p.n++] = (int)c;
		}
	for (size_t k = 0; k < p.n && names == 1; k++)
		cols[k] = model_config_part(m, f->cfgs[p.g[k]], 1, -1);
	finish_table(m, fam, table(m, fam, f, "compilers", MF_RATIO, cols, p.n, 0, compilers_fn, &p),
		     model_own(m, "%s: gcc against clang, built with the same other flags", f->title),
		     "Throughput of the gcc build divided by that of the clang build with the same other flags: above "
		     "1.00x gcc is faster.");
}

static const char *statistic_words(struct model *m, const char *name)
{
	if (!strcmp(name, "min"))
		return "minimum";
	if (!strcmp(name, "p25"))
		return "lower quartile (p25)";
	return model_own(m, "%s", name);
}

struct mtable *model_throughput_table(struct model *m, struct mfamily *fam, struct fsrc *f)
{
	struct mtable *t = table(m, fam, f, "throughput", MF_VALUE, f->cfgs, f->ncfgs, 1, value_fn, NULL);
	t->unit = f->unit;
	return t;
}

void model_one_run_family(struct model *m, struct mfamily *fam, struct fsrc *f, const char *against)
{
	int perop = model_per_op(f->unit), hasbase = 0;
	struct mtable *t = table(m, fam, f, "throughput", MF_VALUE, f->cfgs, f->ncfgs, 1, value_fn, NULL);
	t->unit = f->unit;
	int emulated = model_emulated_len(f->name) > 0;
	shares(m, f, t);
	fam->unchecked = f->unchecked;
	if (!emulated) {
		model_answer(m, fam, f, t, 0);
		model_gaps(m, fam, f, t);
	}
	const char *stat = statistic_words(m, f->run->statistic);
	if (f->run->drift_sd > 0)
		t->drift_note = model_own(m, "\xc2\xb1 includes the machine's drift over the run, %.1f %% either way (twice the "
				       "spread of its speed over the rounds, results.json run.drift): a rerun meets the "
				       "machine at another time.",
				    100 * (exp(STATS_DRIFT_SIGMAS * f->run->drift_sd) - 1));
	finish_table(m, fam, t,
		     model_own(m, "%s (%s): %s, %s", f->title, f->name,
			 perop ? "time per operation (usec/op, lower is faster)"
			 : strcmp(f->kind, "compute") ? "throughput" : "work per second",
			 stat),
		     perop ? model_own(m, "Microseconds per operation (usec/op: 10^6 divided by the %s), from the %s of the timed runs, lower is faster.", f->unit, stat)
		     : strcmp(f->kind, "compute") ? model_own(m, "Output bytes per second (1024-based: MiB/s, GiB/s), from the %s of the timed runs.", stat)
						  : model_own(m, "Work per second (%s), from the %s of the timed runs.", f->unit, stat));
	for (size_t v = 0; v < f->nvars; v++)
		hasbase |= f->baseline && !f->vars[v].ref && !strcmp(f->vars[v].name, f->baseline);
	if (hasbase)
		finish_table(m, fam, table(m, fam, f, "speedup", MF_RATIO, f->cfgs, f->ncfgs, 1, speedup_fn, NULL),
			     model_own(m, "%s: speedup against %s built the same way", f->title, f->baseline),
			     model_own(m, "Speedup against the baseline variant %s built with the same configuration%s.", f->baseline,
				 perop ? " (its time per operation divided by the variant's)" : ""));
	against = against ? against : f->ncfgs ? model_config_part(m, f->cfgs[0], 0, 2) : "";
	for (int glibc = 0; glibc <= 1; glibc++) {
		const char *base = glibc ? "glibc's malloc" : against;
		finish_table(m, fam, table(m, fam, f, glibc ? "vs_glibc" : "against", MF_RATIO, f->cfgs, f->ncfgs, 0, against_fn,
					glibc ? NULL : against),
			     model_own(m, "%s: against %s, built with the same other flags", f->title, base),
			     model_own(m, "Each variant's throughput divided by its own with %s and the same other flags: above "
				    "1.00x it is faster.", base));
	}
	compilers_table(m, fam, f);
	for (int cy = 0; cy <= 1; cy++) {
		const char *what = cy ? "cycles" : "instructions", *unit = NULL;
		t = table(m, fam, f, what, MF_VALUE, f->cfgs, f->ncfgs, 0, counter_fn, what);
		for (size_t i = 0; i < f->n && !unit; i++) {
			const struct results_cell *k = f->cells[i];
			if (!isnan(cy ? k->cycles_per_unit : k->instructions_per_unit))
				unit = model_own(m, "%s/%s", what, k->counters_unit ? k->counters_unit : "unit");
		}
		t->unit = unit;
		t->nrows = unit ? t->nrows : 0;
		if (!cy)
			counts_skipped(f, &fam->warnings);
		finish_table(m, fam, t, model_own(m, "%s: %s per unit of work", f->title, what),
			     model_own(m, "%s per unit of work, counted in one run of the program (perf, callgrind, or qemu for "
				    "emulated cells).", what));
		if (emulated && !cy && t->nrows)
			model_answer(m, fam, f, t, 1);
	}
	t = table(m, fam, f, "text_bytes", MF_VALUE, f->cfgs, f->ncfgs, 0, counter_fn, "text_bytes");
	t->unit = "bytes";
	int sized = 0; /* results from before text_bytes have no such table */
	for (size_t i = 0; i < f->n; i++)
		sized |= f->cells[i]->text_bytes > 0;
	t->nrows = sized ? t->nrows : 0;
	finish_table(m, fam, t, model_own(m, "%s: size of the code (.text)", f->title),
		     "The size of each binary's .text section: what a flag set costs in code.");
	for (size_t i = 0; i < f->n; i++) {
		struct results_cell *c = f->cells[i];
		const char *why = c->reason;
		struct var v = { c->variant, NULL, c->reference };
		if (not_for_this_machine(f, &v)) {
			/* one line for the variant, at its first cell */
			size_t count = 0, first = i;
			for (size_t j = 0; j < f->n; j++)
				if (!strcmp(f->cells[j]->variant, c->variant) && f->cells[j]->reference == c->reference) {
					first = count++ ? first : j;
				}
			if (first == i)
				sv_pushf(&fam->problems, "%s/%s: " MODEL_NOT_FOR_THIS_MACHINE ": unsupported in all %zu configurations%s%s",
					 f->name, c->variant, count, why ? ": " : "", why ? why : "");
		} else if (c->status != CELL_OK) {
			sv_pushf(&fam->problems, "%s: %s%s%s", c->id, c->status_name, why ? ": " : "", why ? why : "");
		}
		model_warnings(f, c, &fam->warnings);
	}
}

/* Several runs: a row per (variant, config) of the family, a column per machine;
 * rows found in one run only come last. */
static struct mcell across_fn(struct model *m, struct fsrc *f, const struct var *v, size_t k, const void *sp)
{
	struct fsrc *r = &f->runs[k];
	struct results_cell *c = model_find(r, v->name, v->title);
	return sp ? model_ratio(m, r, c, results_cell_beside(&r->run->run, model_find(r, r->baseline, v->title), c))
		  : model_value(m, r, c);
}

void model_merged_family(struct model *m, struct mfamily *fam, struct fsrc *all, const char **names)
{
	size_t nr = 0, cap = 0;
	struct fsrc rows = { .runs = model_alloc(m, m->nruns * sizeof(*all)) }, *fs = rows.runs;
	const char **labels = model_alloc(m, m->nruns * sizeof(*labels));
	for (size_t k = 0; k < m->nruns; k++) /* the runs that have the family */
		if (all[k].n) {
			labels[nr] = names[k];
			fs[nr++] = all[k];
			cap += all[k].n;
		}
	rows.vars = model_alloc(m, cap * sizeof(*rows.vars));
	for (int pass = 0; pass < 4; pass++) /* (count >= 2, single) x (variants, references) */
		for (size_t k = 0; k < nr; k++)
			for (size_t i = 0; i < fs[k].n; i++) {
				struct results_cell *c = fs[k].cells[i];
				size_t r = 0, count = 0;
				while (r < rows.nvars && (strcmp(rows.vars[r].name, c->variant) || strcmp(rows.vars[r].title, c->config)))
					r++;
				for (size_t j = 0; j < nr; j++)
					count += model_find(&fs[j], c->variant, c->config) != NULL;
				if (r == rows.nvars && c->reference == pass % 2 && (count < 2) == pass / 2)
					rows.vars[rows.nvars++] = (struct var){ c->variant, c->config, 0 };
			}
	/* the statistic of the figures: one for all runs, or each run's named */
	const char *stat = model_own(m, "from the %s of each cell's runs", statistic_words(m, fs[0].run->statistic));
	for (size_t k = 1; k < nr; k++)
		if (strcmp(fs[k].run->statistic, fs[0].run->statistic)) {
			stat = "from each run's own statistic, not alike:";
			for (size_t j = 0; j < nr; j++)
				stat = model_own(m, "%s%s %s %s", stat, j ? "," : "", labels[j], statistic_words(m, fs[j].run->statistic));
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
		finish_table(m, fam, t, model_own(m, "%s: %s on each machine", fam->title, sp ? "speedup against the baseline" : "throughput"),
			     model_own(m, "Cells are matched by family, variant and build configuration; rows found in one run only "
				    "come last. Speedup is against the family baseline built the same way on the same machine. "
				    "Figures %s.", stat));
	}
}

