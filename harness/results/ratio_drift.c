/* ratio_drift.c: see ratio_drift.h */
#define _GNU_SOURCE
#include "results/ratio_drift.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/json_util.h"
#include "core/stats.h"
#include "core/util.h"
#include "results/results.h"

static int timed(const struct results_cell *c)
{
	return c->status == CELL_OK && !c->same_binary_as && !c->emulated && c->time.recorded && c->rounds;
}

static int same_block(const struct results_cell *a, const struct results_cell *b)
{
	return !strcmp(a->family, b->family) && !strcmp(a->variant, b->variant) && a->reference == b->reference &&
	       a->layout == b->layout && a->pass == b->pass;
}

/* b's runs over a's, paired by round, in b's order; how many. */
static size_t paired(const struct results_cell *a, const struct results_cell *b, double *out)
{
	size_t n = 0;
	for (size_t i = 0; i < b->nrounds && i < b->time.nruns; i++) {
		if (b->rounds[i] < 0)
			continue;
		for (size_t k = 0; k < a->nrounds && k < a->time.nruns; k++) {
			if (a->rounds[k] != b->rounds[i])
				continue;
			double ta = a->time.runs[k], tb = b->time.runs[i];
			if (ta > 0 && tb > 0)
				out[n++] = log(tb / ta);
			break;
		}
	}
	return n;
}

double results_ratio_drift(const struct results_run *run, size_t *used)
{
	double **seq = xcalloc(run->ncells + 1, sizeof(*seq));
	size_t *n = xcalloc(run->ncells + 1, sizeof(*n)), k = 0;
	for (size_t i = 0; i < run->ncells; i++) {
		const struct results_cell *b = &run->cells[i];
		if (!timed(b))
			continue;
		const struct results_cell *a = NULL;
		for (size_t j = 0; j < i && !a; j++)
			if (timed(&run->cells[j]) && same_block(&run->cells[j], b))
				a = &run->cells[j];
		if (!a)
			continue;
		seq[k] = xcalloc(b->nrounds + 1, sizeof(double));
		n[k] = paired(a, b, seq[k]);
		k++;
	}
	double sd = stats_ratio_drift((const double *const *)seq, n, k, used);
	for (size_t i = 0; i < k; i++)
		free(seq[i]);
	free(seq);
	free(n);
	return sd;
}

/* One ratio a run measured: the median of b's log runs over a's by round,
 * and that median's noise. */
struct ratio {
	const char *family, *variant; /* the run's; b's variant */
	enum between_kind kind;
	char *key;          /* the two binaries: ids, sizes, sha256 */
	double m, v;
};

struct ratios {
	struct ratio *v;
	size_t n;
};

static const char *baseline_of(const struct results_run *run, const char *family)
{
	const struct results_family *f = results_family_by_name(run, family);
	return f ? f->baseline : NULL;
}

/* a: the baseline variant's cell built as b is */
static int same_build(const struct results_cell *a, const struct results_cell *b, const char *baseline)
{
	return !strcmp(a->family, b->family) && !strcmp(a->variant, baseline) && a->config && b->config &&
	       !strcmp(a->config, b->config) && a->reference == b->reference && a->layout == b->layout &&
	       a->pass == b->pass;
}

static void add_ratio(struct ratios *r, const struct results_cell *a, const struct results_cell *b,
		      enum between_kind kind)
{
	if (!a->sha256 || !b->sha256)
		return;
	double *lr = xmalloc((b->nrounds + 1) * sizeof(double)), m;
	size_t k = paired(a, b, lr);
	double v = stats_median_noise(lr, k, &m);
	free(lr);
	if (k < 5 || !isfinite(v) || !isfinite(m))
		return;
	r->v = xrealloc(r->v, (r->n + 1) * sizeof(*r->v));
	r->v[r->n++] = (struct ratio){ b->family, b->variant, kind,
				       xasprintf("%d %s %s %s %s %llu %llu", (int)kind, a->id, b->id, a->sha256,
						 b->sha256, (unsigned long long)a->size, (unsigned long long)b->size),
				       m, v };
}

/* The ratios the tables print: each cell against its variant's first
 * build, and against the baseline variant built the same way. */
static void ratios_of(const struct results_run *run, struct ratios *out)
{
	*out = (struct ratios){ NULL, 0 };
	for (size_t i = 0; i < run->ncells; i++) {
		const struct results_cell *b = &run->cells[i];
		if (!timed(b))
			continue;
		for (size_t j = 0; j < i; j++)
			if (timed(&run->cells[j]) && same_block(&run->cells[j], b)) {
				add_ratio(out, &run->cells[j], b, BETWEEN_SAME_VARIANT);
				break;
			}
		const char *base = baseline_of(run, b->family);
		if (!base || !strcmp(b->variant, base))
			continue;
		for (size_t j = 0; j < run->ncells; j++)
			if (timed(&run->cells[j]) && same_build(&run->cells[j], b, base)) {
				add_ratio(out, &run->cells[j], b, BETWEEN_ACROSS_VARIANTS);
				break;
			}
	}
}

static void ratios_release(struct ratios *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->v[i].key);
	free(r->v);
}

static const char *hostname_of(const json_t *root)
{
	return jstr_opt(json_object_get(root, "host"), "hostname");
}

static const char *started_of(const json_t *root)
{
	return jstr_opt(json_object_get(root, "run"), "started");
}

struct candidate {
	char *file, *real; /* as found, and its real path (a run found twice is one) */
	double mtime;
};

static int by_mtime_newest(const void *pa, const void *pb)
{
	const struct candidate *a = pa, *b = pb;
	/* a checkout gives every file one time: the names, stamped with the
	 * run's start, newest first */
	return a->mtime < b->mtime ? 1 : a->mtime > b->mtime ? -1 : strcmp(b->file, a->file);
}

/* The results.json files in folder dir: its folders' results.json, and
 * with files, its *.json files too (a nightly's kept nights); not self. */
static void runs_in(const char *dir, const char *self, int files, struct candidate **out, size_t *n)
{
	DIR *d = opendir(*dir ? dir : "/");
	struct dirent *e;
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		size_t len = strlen(e->d_name);
		int json = files && len > 5 && !strcmp(e->d_name + len - 5, ".json");
		char *file = json ? xasprintf("%s/%s", dir, e->d_name) : xasprintf("%s/%s/results.json", dir, e->d_name),
		     *real = realpath(file, NULL);
		struct stat st;
		int known = 0;
		for (size_t i = 0; real && i < *n && !known; i++)
			known = !strcmp((*out)[i].real, real);
		if (real && !known && (!self || strcmp(real, self)) && stat(real, &st) == 0 && S_ISREG(st.st_mode)) {
			*out = xrealloc(*out, (*n + 1) * sizeof(**out));
			(*out)[(*n)++] = (struct candidate){ file, real,
							     (double)st.st_mtim.tv_sec + 1e-9 * (double)st.st_mtim.tv_nsec };
			file = real = NULL;
		}
		free(real);
		free(file);
	}
	if (d)
		closedir(d);
}

/* The results.json files beside the run folder dir (its parent's other
 * folders; not self, the run's own file, which may not exist yet) and in
 * more_dir (NULL: none; --earlier-runs), newest first. */
static size_t beside(const char *run_dir, const char *more_dir, const char *self_file, struct candidate **out)
{
	*out = NULL;
	char *dir = realpath(run_dir, NULL), *self = self_file ? realpath(self_file, NULL) : NULL;
	size_t n = 0;
	char *slash = dir ? strrchr(dir, '/') : NULL;
	if (slash) {
		*slash = '\0';
		runs_in(dir, self, 0, out, &n);
	}
	if (more_dir)
		runs_in(more_dir, self, 1, out, &n);
	free(dir);
	free(self);
	if (n)
		qsort(*out, n, sizeof(**out), by_mtime_newest);
	return n;
}

/* Who is asking: the host and start of the run whose earlier runs are read
 * (hostname NULL: any host of its CPU model). */
struct asking {
	const char *hostname, *cpu_model, *started, *id; /* id may be NULL */
};

/* Folders looked at, at most: a results/ of many suites' runs is not all read. */
#define BETWEEN_RUNS_LOOKED_AT 32

/* The document in file where it is a run of the asking run's host that
 * started before it, else NULL (a cheap look before the cells are viewed). */
static json_t *earlier_on_host(const struct asking *q, const char *file)
{
	if (!q->started || !q->cpu_model)
		return NULL;
	json_t *root = json_load_file(file, JSON_REJECT_DUPLICATES, NULL);
	const char *schema = jstr_opt(root, "schema"), *h = hostname_of(root), *s = started_of(root),
		   *cpu = jstr_opt(json_object_get(root, "host"), "cpu_model"),
		   *id = jstr_opt(json_object_get(root, "run"), "id");
	int ok = schema && !strcmp(schema, RESULTS_SCHEMA) && (!q->hostname || (h && !strcmp(h, q->hostname))) && cpu &&
		 !strcmp(cpu, q->cpu_model) && s && strcmp(s, q->started) < 0 && id && (!q->id || strcmp(id, q->id));
	if (!ok) {
		json_decref(root);
		return NULL;
	}
	return root;
}

/* The differences of a group: a family's of a kind, or one variant's. */
struct bucket {
	const char *family, *variant;
	enum between_kind kind;
	double *d2, *v;
	size_t n;
};

static void add_to(struct bucket **b, size_t *nb, const char *family, const char *variant, enum between_kind kind,
		   double d2, double v)
{
	struct bucket *k = NULL;
	for (size_t i = 0; i < *nb && !k; i++)
		if ((*b)[i].kind == kind && !strcmp((*b)[i].family, family) &&
		    (variant ? (*b)[i].variant && !strcmp((*b)[i].variant, variant) : !(*b)[i].variant))
			k = &(*b)[i];
	if (!k) {
		*b = xrealloc(*b, (*nb + 1) * sizeof(**b));
		k = &(*b)[(*nb)++];
		*k = (struct bucket){ .family = family, .variant = variant, .kind = kind };
	}
	k->d2 = xrealloc(k->d2, (k->n + 1) * sizeof(double));
	k->v = xrealloc(k->v, (k->n + 1) * sizeof(double));
	k->d2[k->n] = d2;
	k->v[k->n++] = v;
}

/* Every ratio of `newer` that `older` measured of the same two binaries. */
static void differences(const struct ratios *newer, const struct ratios *older, struct bucket **b, size_t *nb)
{
	for (size_t i = 0; i < newer->n; i++) {
		const struct ratio *x = &newer->v[i];
		for (size_t j = 0; j < older->n; j++) {
			const struct ratio *y = &older->v[j];
			if (strcmp(x->key, y->key))
				continue;
			double d2 = (x->m - y->m) * (x->m - y->m), v = x->v + y->v;
			add_to(b, nb, x->family, NULL, x->kind, d2, v);
			add_to(b, nb, x->family, x->variant, x->kind, d2, v);
			break;
		}
	}
}

/* The figures of the earlier runs beside run_dir, with own (NULL: none
 * yet) as the newest run's ratios. */
/* log(run's time / then's) of each binary both ran with the same work,
 * each run's statistic of its times (time_s.value), into d; how many. */
static size_t same_binaries(const struct results_run *run, const struct results_run *then, double *d)
{
	size_t n = 0;
	for (size_t i = 0; i < run->ncells; i++) {
		const struct results_cell *a = &run->cells[i], *b = results_cell_by_id(then, a->id);
		double ta = a->time.value, tb = b ? b->time.value : NAN;
		if (!b || !timed(a) || !timed(b) || !a->sha256 || !b->sha256 || strcmp(a->sha256, b->sha256) ||
		    a->size != b->size || !(ta > 0) || !(tb > 0))
			continue;
		d[n++] = log(ta / tb);
	}
	return n;
}

/* between_runs.time_spread over the runs chain[0..n), newest first. */
static double time_spread(const struct results_run *const *chain, size_t n, size_t *ratios)
{
	double ss = 0;
	*ratios = 0;
	for (size_t i = 0; i + 1 < n; i++) {
		double *d = xcalloc(chain[i]->ncells + 1, sizeof(double));
		size_t k = same_binaries(chain[i], chain[i + 1], d);
		for (size_t j = 0; j < k; j++)
			ss += d[j] * d[j];
		*ratios += k;
		free(d);
	}
	return *ratios >= BETWEEN_SPREAD_MIN_CELLS ? sqrt(ss / (double)*ratios) : NAN;
}

/* How much slower run's cells ran than the same binaries in `then`
 * (between_runs.level_shift), over *cells cells; NAN with too few. */
static double level_shift(const struct results_run *run, const struct results_run *then, size_t *cells)
{
	double *d = xcalloc(run->ncells + 1, sizeof(double));
	size_t n = same_binaries(run, then, d);
	double shift = NAN;
	*cells = n;
	if (n >= BETWEEN_LEVEL_MIN_CELLS) {
		shift = expm1(stats_median_sort(d, n));
	}
	free(d);
	return shift;
}

static void between(const char *run_dir, const char *more_dir, const char *self_file, const struct asking *q,
		    const struct ratios *own, const struct results_run *self_run, struct between_runs *out)
{
	*out = (struct between_runs){ .level_shift = NAN, .time_spread = NAN };
	struct candidate *c;
	size_t nc = beside(run_dir, more_dir, self_file, &c);
	struct results_run *earlier = xcalloc(BETWEEN_RUNS_BACK + 1, sizeof(*earlier));
	size_t ne = 0;
	for (size_t i = 0; i < nc && i < BETWEEN_RUNS_LOOKED_AT && ne < BETWEEN_RUNS_BACK; i++) {
		/* read once: the look and the view share the document */
		json_t *root = earlier_on_host(q, c[i].file);
		/* one run kept in two places (its folder, a nightly's copy) is one */
		const char *id = jstr_opt(json_object_get(root, "run"), "id");
		for (size_t k = 0; root && k < ne; k++)
			if (earlier[k].id && !strcmp(earlier[k].id, id)) {
				json_decref(root);
				root = NULL;
			}
		if (root && results_open_loaded(c[i].file, root, &earlier[ne]) == 0)
			ne++;
	}
	for (size_t i = 0; i < nc; i++) {
		free(c[i].file);
		free(c[i].real);
	}
	free(c);
	/* newest first by their start, whatever touched the files since */
	for (size_t i = 1; i < ne; i++)
		for (size_t k = i; k > 0 && strcmp(started_of(earlier[k - 1].root), started_of(earlier[k].root)) < 0; k--) {
			struct results_run t = earlier[k];
			earlier[k] = earlier[k - 1];
			earlier[k - 1] = t;
		}
	if (self_run && ne)
		out->level_shift = level_shift(self_run, &earlier[0], &out->level_cells);
	const struct results_run **chain = xcalloc(ne + 2, sizeof(*chain));
	size_t nchain = 0;
	if (self_run)
		chain[nchain++] = self_run;
	for (size_t i = 0; i < ne; i++)
		chain[nchain++] = &earlier[i];
	out->time_spread = time_spread(chain, nchain, &out->time_ratios);
	free(chain);
	/* r[0] the asking run's own (none before it has measured) */
	struct ratios *r = xcalloc(ne + 2, sizeof(*r));
	for (size_t i = 0; i < ne; i++)
		ratios_of(&earlier[i], &r[i + 1]);
	struct bucket *b = NULL;
	size_t nb = 0;
	for (size_t i = 0; i < ne; i++)
		differences(i ? &r[i] : own ? own : &r[0], &r[i + 1], &b, &nb);
	out->run_ids = xcalloc(ne + 1, sizeof(*out->run_ids));
	for (size_t i = 0; i < ne; i++)
		out->run_ids[out->nruns++] = xstrdup(earlier[i].id ? earlier[i].id : "");
	out->groups = xcalloc(nb + 1, sizeof(*out->groups));
	for (size_t i = 0; i < nb; i++) {
		struct between_group *g = &out->groups[out->ngroups++];
		*g = (struct between_group){ xstrdup(b[i].family), b[i].variant ? xstrdup(b[i].variant) : NULL, b[i].kind,
					     b[i].n >= BETWEEN_RUNS_MIN_RATIOS
						     ? sqrt(stats_excess_variance(b[i].d2, b[i].v, b[i].n))
						     : NAN,
					     b[i].n };
		free(b[i].d2);
		free(b[i].v);
	}
	free(b);
	for (size_t i = 0; i <= ne; i++)
		ratios_release(&r[i]);
	free(r);
	for (size_t i = 0; i < ne; i++)
		results_close(&earlier[i]);
	free(earlier);
}

void results_between_runs(const struct results_run *run, struct between_runs *out)
{
	/* a run folder's: a results.json saved under another name stands alone */
	const char *base = run->file ? strrchr(run->file, '/') : NULL;
	if (!run->file || strcmp(base ? base + 1 : run->file, "results.json")) {
		*out = (struct between_runs){ .level_shift = NAN, .time_spread = NAN };
		return;
	}
	/* any host of its CPU model where the run read those (--earlier-runs-of cpu) */
	const json_t *info = json_object_get(run->root, "run");
	const char *of = jstr_opt(info, "earlier_runs_of");
	int any = of && !strcmp(of, "cpu");
	struct asking q = { any ? NULL : hostname_of(run->root), run->cpu_model, started_of(run->root), run->id };
	struct ratios own;
	ratios_of(run, &own);
	/* and where the run read more of them (--earlier-runs) */
	const char *more = jstr_opt(info, "earlier_runs_dir");
	between(run->dir ? run->dir : ".", more, run->file, &q, &own, run, out);
	out->any_host = any;
	ratios_release(&own);
}

void results_between_before(const char *run_dir, const char *more_dir, const char *hostname, const char *cpu_model,
			    const char *started, struct between_runs *out)
{
	struct asking q = { hostname, cpu_model, started, NULL };
	char *self = xasprintf("%s/results.json", run_dir);
	between(run_dir, more_dir, self, &q, NULL, NULL, out);
	out->any_host = !hostname;
	free(self);
}

static double group_drift(const struct between_runs *b, const char *family, const char *variant,
			  enum between_kind kind)
{
	for (size_t i = 0; i < b->ngroups; i++) {
		const struct between_group *g = &b->groups[i];
		if (g->kind == kind && !strcmp(g->family, family) &&
		    (variant ? g->variant && !strcmp(g->variant, variant) : !g->variant))
			return g->drift;
	}
	return NAN;
}

double results_between_drift(const struct between_runs *b, const char *family, const char *variant_a,
			     const char *variant_b)
{
	if (!b || !family || !variant_a || !variant_b)
		return 0;
	enum between_kind kind = strcmp(variant_a, variant_b) ? BETWEEN_ACROSS_VARIANTS : BETWEEN_SAME_VARIANT;
	double x = group_drift(b, family, variant_a, kind), y = group_drift(b, family, variant_b, kind);
	double d = isfinite(x) || isfinite(y) ? fmax(isfinite(x) ? x : 0, isfinite(y) ? y : 0)
					       : group_drift(b, family, NULL, kind);
	return d > 0 ? d : 0;
}

const struct between_group *results_between_most(const struct between_runs *b, const char *family)
{
	const struct between_group *most = NULL;
	for (size_t i = 0; i < b->ngroups; i++) {
		const struct between_group *g = &b->groups[i];
		if (!(g->drift > 0) || (family && strcmp(g->family, family)))
			continue;
		if (!most || g->drift > most->drift || (g->drift == most->drift && !most->variant && g->variant))
			most = g;
	}
	return most;
}

const char *results_between_kind_words(enum between_kind kind)
{
	return kind == BETWEEN_ACROSS_VARIANTS ? "against the baseline" : "between its builds";
}

void results_between_release(struct between_runs *b)
{
	for (size_t i = 0; i < b->nruns; i++)
		free(b->run_ids[i]);
	free(b->run_ids);
	for (size_t i = 0; i < b->ngroups; i++) {
		free(b->groups[i].family);
		free(b->groups[i].variant);
	}
	free(b->groups);
	*b = (struct between_runs){ .level_shift = NAN, .time_spread = NAN };
}
