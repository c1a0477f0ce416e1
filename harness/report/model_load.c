/* model_load.c: model_load, model_family and model_free (model.h): the
 * runs loaded through the reader (results/reader.h), their families built
 * into tables (model_tables.c). */
#define _GNU_SOURCE
#include "report/model_across.h"
#include "report/model_compare.h"
#include "report/model_tables.h"
#include "results/ratio_drift.h"

#include <stdlib.h>
#include <string.h>

struct mfamily *model_family(struct model *m, const char *name)
{
	for (size_t i = 0; i < m->nfams; i++)
		if (!strcmp(m->fams[i].name, name) || !strcmp(m->fams[i].slug, name))
			return &m->fams[i];
	return NULL;
}

static void build_families(struct model *m, const char **names, size_t nnames, const char **labels,
			   const char *against);
static void free_families(struct model *m);

int model_load(struct model *m, char **paths, size_t n, const char *against)
{
	memset(m, 0, sizeof(*m));
	m->runs = model_alloc(m, n * sizeof(*m->runs));
	int unify = n > 1;
	for (; m->nruns < n; m->nruns++) {
		struct mrun *r = &m->runs[m->nruns];
		if (model_read_run(m, r, paths[m->nruns]) < 0)
			return -1;
		unify &= model_one_march(m, r, 0);
	}
	const char **names = NULL, **labels = model_alloc(m, n * sizeof(*labels)), **slugs = model_alloc(m, n * sizeof(*slugs));
	size_t nnames = 0;
	for (size_t k = 0; k < n; k++) {
		struct mrun *r = &m->runs[k];
		if (unify)
			model_one_march(m, r, 1);
		const char *prof = r->run.cpu_profile, *cpu = r->run.cpu_model;
		r->id = r->run.id;
		r->statistic = r->run.statistic;
		r->drift_sd = r->run.drift_sd;
		r->ratio_drift = results_ratio_drift(&r->run, &r->ratio_drift_pairs);
		results_between_runs(&r->run, &r->between);
		r->label = prof && strcmp(prof, "host") ? prof : cpu ? cpu : *r->id ? r->id : "unknown";
		r->slug = slugs[k] = model_slug(m, *r->id ? r->id : "run", slugs, k);
		for (size_t i = 0; i < r->run.ncells; i++) {
			const char *f = r->run.cells[i].family;
			r->ncells++;
			r->nok += r->run.cells[i].status == CELL_OK;
			r->nunsupported += r->run.cells[i].status == CELL_UNSUPPORTED;
			if (!names || model_index_of(names, nnames, f) < 0) {
				names = xrealloc(names, (nnames + 1) * sizeof(*names));
				names[nnames++] = f;
			}
		}
	}
	for (size_t k = 0; k < n; k++) {
		size_t same = 0;
		for (size_t j = 0; j < n; j++)
			same += !strcmp(m->runs[j].label, m->runs[k].label);
		labels[k] = same > 1 ? model_own(m, "%s (%s)", m->runs[k].label,
						 *m->runs[k].id ? m->runs[k].id : model_own(m, "run %zu", k + 1))
				     : m->runs[k].label;
	}
	/* twice: the first pass asks every comparison, the second shows each
	 * at the level all of them settle on (model_compare.h) */
	for (int pass = 0; pass < 2; pass++) {
		if (pass) {
			model_compare_settle(m);
			free_families(m);
		}
		build_families(m, names, nnames, labels, against);
	}
	free(names);
	return 0;
}

static void build_families(struct model *m, const char **names, size_t nnames, const char **labels,
			   const char *against)
{
	size_t n = m->nruns;
	m->fams = model_alloc(m, nnames * sizeof(*m->fams));
	const char **fslugs = model_alloc(m, nnames * sizeof(*fslugs));
	struct fsrc *fs = model_alloc(m, n * sizeof(*fs));
	for (size_t i = 0; i < nnames; i++) {
		struct mfamily *fam = &m->fams[m->nfams++];
		for (size_t k = 0; k < n; k++)
			model_read_family(m, &m->runs[k], names[i], &fs[k]);
		fam->name = names[i];
		fam->slug = fslugs[i] = model_slug(m, names[i], fslugs, i);
		for (size_t k = 0; k < n && !fam->title; k++)
			if (fs[k].n)
				fam->title = fs[k].title, fam->kind = fs[k].kind;
		if (n == 1)
			model_one_run_family(m, fam, &fs[0], against);
		else
			model_merged_family(m, fam, fs, labels);
		/* several machines: which flags win where (model_across.h), from
		 * the runs that have the family; not for emulated cells */
		size_t nr = 0;
		struct fsrc *with = model_alloc(m, n * sizeof(*with));
		const char **wl = model_alloc(m, n * sizeof(*wl));
		for (size_t k = 0; k < n && n > 1; k++)
			if (fs[k].n)
				with[nr] = fs[k], wl[nr++] = labels[k];
		if (nr > 1 && !model_emulated_len(fam->name))
			model_across(m, fam, with, wl, nr);
	}
}

static void free_families(struct model *m)
{
	for (size_t i = 0; i < m->nfams; i++) {
		free(m->fams[i].tables);
		sv_clear(&m->fams[i].answer);
		sv_clear(&m->fams[i].problems);
		sv_clear(&m->fams[i].warnings);
	}
	m->nfams = 0;
}

void model_free(struct model *m)
{
	free_families(m);
	model_compare_free(m);
	for (size_t k = 0; k < m->nruns; k++) {
		results_close(&m->runs[k].run);
		results_between_release(&m->runs[k].between);
	}
	for (size_t i = m->nmem; i > 0; i--)
		free(m->mem[i - 1]);
	free(m->mem);
	memset(m, 0, sizeof(*m));
}
