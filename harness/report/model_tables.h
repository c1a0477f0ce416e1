/* model_tables.h: the tables of a family (model.h says which and what
 * each cell of them means).
 *
 * One run: throughput (with the heatmap shares and the answer), speedup,
 * against, vs_glibc, compilers, instructions, cycles and text_bytes, each
 * with its title, caption and legend marks; a ratio table without one
 * ratio of two measurements is left out.  Several runs: throughput and
 * speedup with a column per machine, a row per (variant, configuration);
 * model_load.c adds the answers across machines (model_across.h).
 */
#ifndef FLAGBENCH_MODEL_TABLES_H
#define FLAGBENCH_MODEL_TABLES_H

#include "report/model_cells.h"

/* The tables of family f of one run; against: "COMPILER/-OLEVEL" or NULL. */
void model_one_run_family(struct model *m, struct mfamily *fam, struct fsrc *f, const char *against);
/* The tables of one family across the model's runs: all[k] is its cells in
 * run k (none where that run lacks it), names[k] the run's column label. */
void model_merged_family(struct model *m, struct mfamily *fam, struct fsrc *all, const char **names);
/* The throughput table of family f of one run, laid into fam (a family of
 * its own, whose tables the caller frees), as model_one_run_family makes
 * it: for the answers across machines (model_across.h). */
struct mtable *model_throughput_table(struct model *m, struct mfamily *fam, struct fsrc *f);

#endif
