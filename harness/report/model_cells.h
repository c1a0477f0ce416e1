/* model_cells.h: the results model's cells, inside the model (model.h).
 *
 * A run comes from results/reader.h, one typed view per cell; here it
 * becomes families of cells (struct fsrc) with their configurations in
 * order and their variants (references last), and a cell of a table gets
 * its value, interval and marks (model_value) or a ratio of two cells
 * (model_ratio).  model_tables.c lays the tables out of these, and
 * model_answer.c words the answer; model.c loads and frees.  Everything
 * allocated is kept by the model (model_keep) and freed with it.
 */
#ifndef FLAGBENCH_MODEL_CELLS_H
#define FLAGBENCH_MODEL_CELLS_H

#include "report/model.h"
#include "results/reader.h"

struct var {
	const char *name, *title;
	int ref;
};

/* One family of one run, as read. */
struct fsrc {
	struct mrun *run;
	const char *name, *title, *kind, *unit, *baseline;
	int unchecked;     /* family.json "check": "none": outputs not proven right */
	struct results_cell **cells;
	size_t n, ncfgs, nvars;
	const char **cfgs; /* non-reference configurations in order */
	struct var *vars;  /* variants in order, references last */
	struct fsrc *runs; /* tables across runs: the family in each run, rows (variant, config) */
};

/* p, freed with the model. */
void *model_keep(struct model *m, void *p);
void *model_alloc(struct model *m, size_t n);
const char *model_own(struct model *m, const char *fmt, ...) FB_PRINTF(2, 3);
int model_index_of(const char **v, size_t n, const char *s);
/* A name safe as a file name ([A-Za-z0-9._-], no leading dot), unique among used[0..n). */
const char *model_slug(struct model *m, const char *s, const char **used, size_t n);

/* Loads one run (results_open) into r, its emulated cells a family of their own. */
int model_read_run(struct model *m, struct mrun *r, const char *arg);
/* Runs each built for their own profile's single -march meet build for build:
 * whether the run's native cells have one -march; apply: it becomes "(profile march)". */
int model_one_march(struct model *m, struct mrun *r, int apply);
/* The cells of family name in run r. */
void model_read_family(struct model *m, struct mrun *r, const char *name, struct fsrc *f);
/* The length of the family name before " (emulated)", or 0 when name has none. */
size_t model_emulated_len(const char *name);

/* The cell of variant in config, or NULL. */
struct results_cell *model_find(struct fsrc *f, const char *variant, const char *config);
/* The cell of variant v in column config; a reference stands in every column. */
struct results_cell *model_cell_at(struct fsrc *f, const struct var *v, const char *config);
/* The cell whose measurement c shows: itself, or the one it shares its binary with. */
const struct results_cell *model_measured(struct fsrc *f, const struct results_cell *c);
/* The runs of a measurement (time_s.runs) as stats; 0 when it has none. */
int model_time_stats(const struct results_cell *mc, struct stats *st);
/* The results.json cell a table cell shows (its id), or NULL. */
struct results_cell *model_cell_of(struct fsrc *f, const struct mcell *x);
/* A cell shown as a word: a status, "absent", "n/a". */
struct mcell model_word(const char *w);
/* The cell's warnings but the throttle note that a mark already says, pushed
 * to out as "id: warning" (out NULL: only counted). */
size_t model_warnings(struct fsrc *f, struct results_cell *c, struct strvec *out);
/* A measured cell: value, interval, marks; absent when c is NULL. */
struct mcell model_value(struct model *m, struct fsrc *f, struct results_cell *c);
/* Components [from, to) of a configuration "gcc/-O2/native/..." (to -1: the rest). */
const char *model_config_part(struct model *m, const char *cfg, int from, int to);

#endif
