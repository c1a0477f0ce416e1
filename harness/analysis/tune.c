/* tune.c: see tune.h.  Long for the reason explain.c is: the steps (plan
 * the start, read the space, search in batches, minimise, confirm) all
 * work on one struct tune, its journal and its evaluations. */
#define _GNU_SOURCE
#include "analysis/tune.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/compare.h"
#include "core/runcmd.h"
#include "pipeline/build.h"
#include "pipeline/records.h"
#include "pipeline/schedule.h"
#include "pipeline/verify.h"
#include "results/reader.h"

#define TUNE_JOURNAL_KIND "flagbench-tune-journal"
/* the technique index of the minimisation's own candidates */
#define TUNE_MINIMISE ((size_t)-1)

int tune_parse_budget(const char *text, double *seconds, unsigned *candidates)
{
	char *end;
	errno = 0;
	double v = strtod(text, &end);
	if (errno || end == text || !(v > 0) || !isfinite(v))
		return -1;
	*seconds = 0;
	*candidates = 0;
	if (!*end) {
		if (v != floor(v) || v > 1e6)
			return -1;
		*candidates = (unsigned)v;
		return 0;
	}
	double unit = !strcmp(end, "s") ? 1 : !strcmp(end, "m") ? 60 : !strcmp(end, "h") ? 3600 : 0;
	if (!unit)
		return -1;
	*seconds = v * unit;
	return 0;
}

/* ---- delta debugging ---- */

static void subset_without(const struct strvec *set, size_t from, size_t to, struct strvec *out)
{
	for (size_t i = 0; i < set->n; i++)
		if (i < from || i >= to)
			sv_push(out, set->v[i]);
}

void tune_ddmin(const struct strvec *flags, tune_keeps_fn keeps, void *ctx, struct strvec *out, size_t *steps)
{
	struct strvec cur = STRVEC_INIT;
	sv_pushv(&cur, flags->v);
	size_t parts = 2;
	*steps = 0;
	while (cur.n >= 1 && !fb_interrupted) {
		if (parts > cur.n)
			parts = cur.n;
		/* the complements of the parts, asked together (one part: the empty set) */
		size_t asked = parts;
		struct strvec *subs = xcalloc(asked, sizeof(*subs));
		int *ok = xcalloc(asked, sizeof(int));
		for (size_t k = 0; k < asked; k++)
			subset_without(&cur, cur.n * k / asked, cur.n * (k + 1) / asked, &subs[k]);
		keeps(ctx, subs, asked, ok);
		(*steps)++;
		size_t found = asked;
		for (size_t k = 0; k < asked && found == asked; k++)
			if (ok[k])
				found = k;
		int reduced = found < asked;
		if (reduced) {
			sv_clear(&cur);
			sv_pushv(&cur, subs[found].v);
			parts = parts > 2 ? parts - 1 : 2;
		}
		for (size_t k = 0; k < asked; k++)
			sv_clear(&subs[k]);
		free(subs);
		free(ok);
		if (reduced)
			continue;
		if (parts >= cur.n)
			break; /* every single flag is needed: 1-minimal */
		parts = parts * 2 < cur.n ? parts * 2 : cur.n;
	}
	sv_pushv(out, cur.v);
	sv_clear(&cur);
}

/* ---- the start ---- */

static const char *jstr(const json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));
	return s ? s : "";
}

/* The start's family, variant, compiler, -O and -march from cell CELL of
 * RUN: tune starts where the run measured. */
struct start_names {
	char *variant, *compiler, *opt, *march, *suite, *cpu;
	uint64_t size;
	json_t *run;
	char *dir; /* the run's folder */
};

static int names_from_run(const struct tune_opts *o, struct start_names *sn)
{
	sn->run = results_load(o->run, &sn->dir);
	if (!sn->run)
		return -1;
	const json_t *found = results_json_cell(sn->run, o->cell);
	if (!found)
		return error("no cell '%s' in %s (flagbench report %s lists the cells)", o->cell, o->run, o->run);
	if (!strcmp(jstr(found, "compiler"), "none") || !*jstr(found, "variant"))
		return error("%s is a reference program: tune builds a variant", o->cell);
	if (json_is_object(json_object_get(found, "pgo")) || json_is_true(json_object_get(found, "emulated")))
		return error("tune starts from a native build without pgo; %s is not one", o->cell);
	sn->variant = xasprintf("%s/%s", jstr(found, "family"), jstr(found, "variant"));
	sn->compiler = xstrdup(jstr(found, "compiler"));
	sn->opt = xstrdup(jstr(found, "opt"));
	sn->march = xstrdup(jstr(found, "march"));
	sn->size = (uint64_t)json_integer_value(json_object_get(found, "size"));
	const json_t *run = json_object_get(sn->run, "run");
	/* the suite file the run read where it is still there, else its name */
	if (*jstr(run, "suite_path") && access(jstr(run, "suite_path"), R_OK) == 0)
		sn->suite = xstrdup(jstr(run, "suite_path"));
	else if (*jstr(run, "suite"))
		sn->suite = xstrdup(jstr(run, "suite"));
	if (*jstr(run, "cpu_profile"))
		sn->cpu = xstrdup(jstr(run, "cpu_profile"));
	return 0;
}

static void free_names(struct start_names *sn)
{
	free(sn->variant);
	free(sn->compiler);
	free(sn->opt);
	free(sn->march);
	free(sn->suite);
	free(sn->cpu);
	json_decref(sn->run);
	free(sn->dir);
}

static void sv_set1(struct strvec *sv, const char *v)
{
	sv_clear(sv);
	sv_push(sv, v);
}

/* The start planned as `flagbench run` plans it: the suite's sizes and the
 * profile's pins, one variant x one compiler x one -O x one -march. */
static int plan_start(struct tune *t)
{
	const struct tune_opts *o = t->o;
	struct start_names sn;
	memset(&sn, 0, sizeof(sn));
	int rc = -1;
	if (o->run) {
		if (names_from_run(o, &sn) < 0)
			goto done;
	} else {
		sn.variant = xstrdup(o->variant);
		sn.compiler = xstrdup(o->compiler);
		sn.opt = xstrdup(o->opt);
		sn.march = o->march ? xstrdup(o->march) : NULL;
	}
	if (!strchr(sn.variant, '/')) {
		error("'%s': name the variant as FAMILY/VARIANT (flagbench list shows them)", sn.variant);
		goto done;
	}
	if (load_cpu_profile(sn.cpu ? sn.cpu : o->cpu, &t->prof) < 0)
		goto done;
	if (load_suite(sn.suite ? sn.suite : o->suite, &t->suite) < 0) {
		free_cpu_profile(&t->prof);
		memset(&t->prof, 0, sizeof(t->prof));
		goto done;
	}
	struct strvec dirs = STRVEC_INIT;
	sv_pushv(&dirs, t->suite.family_dirs.v);
	sv_pushv(&dirs, o->family_dirs.v);
	t->nfam = load_families(&dirs, &t->fams);
	if (sn.run && t->nfam >= 0) {
		/* the run's own family folders too, wherever they live, unless known already */
		struct strvec rd = STRVEC_INIT, names = STRVEC_INIT;
		results_family_dirs(sn.run, sn.dir, t->fams, (size_t)t->nfam, &rd, &names);
		if (rd.n) {
			for (int i = 0; i < t->nfam; i++)
				free_family(&t->fams[i]);
			free(t->fams);
			t->fams = NULL;
			sv_pushv(&dirs, rd.v);
			t->nfam = load_families(&dirs, &t->fams);
		}
		sv_clear(&rd);
		sv_clear(&names);
	}
	sv_clear(&dirs);
	if (t->nfam < 0)
		goto done;
	int known = 0;
	for (int i = 0; i < t->nfam && !known; i++)
		for (size_t k = 0; k < t->fams[i].nvariants && !known; k++) {
			char *id = xasprintf("%s/%s", t->fams[i].name, t->fams[i].variants[k].name);
			known = !strcmp(id, sn.variant);
			free(id);
		}
	if (!known) {
		error("no variant '%s' here (flagbench list variants; --family-dir DIR for a family elsewhere)", sn.variant);
		goto done;
	}
	struct suite *s = &t->suite;
	sv_set1(&s->variants, sn.variant);
	sv_set1(&s->compilers, sn.compiler);
	sv_set1(&s->opt, sn.opt);
	if (sn.march) {
		sv_set1(&s->march, sn.march);
		s->march_from_profile = 0;
	} else if (s->march_from_profile && t->prof.march.n) {
		sv_set1(&s->march, t->prof.march.v[0]);
		s->march_from_profile = 0;
	} else if (s->march.n > 1) {
		char *first = xstrdup(s->march.v[0]);
		sv_set1(&s->march, first);
		free(first);
	}
	sv_clear(&s->allocators);
	if (s->placements.n > 1) {
		char *first = xstrdup(s->placements.v[0]);
		sv_set1(&s->placements, first);
		free(first);
	}
	if (s->consumers.n > 1) {
		char *first = xstrdup(s->consumers.v[0]);
		sv_set1(&s->consumers, first);
		free(first);
	}
	s->nflagsets = 0; /* the start is the plain build */
	s->ncross = 0;
	s->layouts = 1;
	if (sn.size) {
		if (!s->sizes)
			s->sizes = json_object();
		json_object_set_new(s->sizes, sn.variant, json_integer((json_int_t)sn.size));
	}
	if (suite_check_globs(s, t->fams, (size_t)t->nfam) < 0)
		goto done;
	struct topology topo;
	int have_topo = topology_load("/", &topo) == 0;
	struct plan_input in = { .suite = s, .profile = &t->prof, .families = t->fams, .nfamilies = (size_t)t->nfam,
				 .topology = have_topo ? &topo : NULL };
	int built = plan_build(&in, &t->base);
	if (have_topo)
		topology_free(&topo);
	if (built < 0) {
		error("%s", t->base.refused);
		goto done;
	}
	t->proto = -1;
	for (size_t i = 0; i < t->base.n && t->proto < 0; i++)
		if (t->base.cells[i].spec.variant)
			t->proto = (int)i;
	if (t->proto < 0) {
		error("no build of %s with %s %s here", sn.variant, sn.compiler, sn.opt);
		goto done;
	}
	const struct cell *pc = &t->base.cells[t->proto];
	if (pc->status == CELL_UNSUPPORTED) {
		error("%s cannot be built here: %s", pc->spec.id, pc->reason ? pc->reason : "unsupported");
		goto done;
	}
	if (pc->spec.compiler->cross || pc->spec.cross) {
		error("tune builds for this machine; %s is a cross build", pc->spec.id);
		goto done;
	}
	rc = 0;
done:
	free_names(&sn);
	return rc;
}

/* ---- candidates: built, checked, measured, journaled ---- */

/* One candidate of a batch. */
struct pending {
	size_t track;      /* TUNE_MINIMISE for the minimisation's */
	size_t *val;       /* the search's point; NULL for the minimisation's */
	char *key;
	const char *op;
	int cell;          /* in the batch's plan; -1 when its figure is known already */
	int twin;          /* an earlier candidate of the batch with this binary, or -1 */
	int measure;       /* to be counted or timed */
	int fresh;         /* timed again even where its binary has a figure (the best, before minimising) */
	size_t ev;         /* its record in t->ev, once recorded */
	int recorded;
};

static const char *track_name(const struct tune *t, size_t track)
{
	return track == TUNE_MINIMISE ? "minimise" : tune_technique_name(t->tracks[track].technique);
}

/* The words of a key ("-mllvm -x=1 -fno-y" is three argv words). */
static void key_words(const char *key, struct strvec *out)
{
	char *copy = xstrdup(key), *save = NULL;
	for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save))
		sv_push(out, w);
	free(copy);
}

/* A cell of plan p built like the start, its flags followed by key's;
 * with opt, the start's -O word replaced by it instead.  layout k of K. */
static int add_clone(struct plan *p, size_t *alloc, const struct cell_spec *proto, const char *key, const char *opt,
		     const char *tag, unsigned layout, unsigned layouts)
{
	if (p->n == *alloc) {
		*alloc = *alloc ? *alloc * 2 : 16;
		p->cells = xrealloc(p->cells, *alloc * sizeof(*p->cells));
	}
	struct cell *c = &p->cells[p->n];
	memset(c, 0, sizeof(*c));
	cell_reset(c);
	cell_spec_copy(&c->spec, proto);
	struct cell_spec *sp = &c->spec;
	if (opt) {
		for (size_t i = 0; i < sp->cflags.n; i++)
			if (!strcmp(sp->cflags.v[i], proto->opt)) {
				free(sp->cflags.v[i]);
				sp->cflags.v[i] = xstrdup(opt);
			}
		free(sp->opt);
		sp->opt = xstrdup(opt);
	}
	if (key && *key)
		key_words(key, &sp->cflags);
	free(sp->id);
	free(sp->config);
	sp->config = xasprintf("%s%s%s", proto->config, key && *key ? " " : "", key ? key : "");
	sp->layout = layout;
	sp->layouts = layouts ? layouts : 1;
	plan_layout_pads(layout, &sp->code_pad, &sp->env_pad);
	sp->id = layouts > 1 ? xasprintf("%s/%s@%s~L%u", proto->family->name, proto->variant->name, tag, layout)
			     : xasprintf("%s/%s@%s", proto->family->name, proto->variant->name, tag);
	return (int)p->n++;
}

/* Frees a plan of add_clone()'s cells (the compilers are the base plan's). */
static void free_clones(struct plan *p)
{
	for (size_t i = 0; i < p->n; i++) {
		cell_reset(&p->cells[i]);
		cell_spec_clear(&p->cells[i].spec);
	}
	free(p->cells);
	memset(p, 0, sizeof(*p));
}

/* The latest figure of a binary (a re-measured one supersedes the first). */
static struct tune_eval *eval_by_sha(struct tune *t, const char *sha)
{
	for (size_t i = t->nev; i-- > 0;)
		if (t->ev[i].sha256[0] && !strcmp(t->ev[i].sha256, sha))
			return &t->ev[i];
	return NULL;
}

/* A journaled candidate of this track not yet told again (--resume). */
static struct tune_eval *journaled(struct tune *t, size_t track, const char *key)
{
	for (size_t i = 0; i < t->nev; i++) {
		struct tune_eval *e = &t->ev[i];
		if (e->from_journal && !e->replayed && e->technique == track && !strcmp(e->key, key))
			return e;
	}
	return NULL;
}

/* Any finished figure of a key (the minimisation asks configurations the
 * search may have measured). */
static struct tune_eval *eval_by_key(struct tune *t, const char *key)
{
	for (size_t i = t->nev; i-- > 0;)
		if (!strcmp(t->ev[i].key, key))
			return &t->ev[i];
	return NULL;
}

static json_t *eval_json(const struct tune *t, const struct tune_eval *e)
{
	json_t *o = json_pack("{s:s, s:I, s:s, s:s, s:s, s:f}", "technique", track_name(t, e->technique), "seq",
			      (json_int_t)e->seq, "key", e->key, "op", e->op ? e->op : "", "status",
			      cell_status_name(e->status), "at_s", e->at_s);
	json_object_set_new(o, "score", isfinite(e->score) ? json_real(e->score) : json_null());
	if (e->reason)
		json_object_set_new(o, "reason", json_string(e->reason));
	if (e->sha256[0])
		json_object_set_new(o, "sha256", json_string(e->sha256));
	if (e->same_as)
		json_object_set_new(o, "same_as", json_string(e->same_as));
	return o;
}

/* One journal line, synced: what finished survives Ctrl-C and power loss. */
static void journal_write(struct tune *t, json_t *line)
{
	if (!t->journal) {
		json_decref(line);
		return;
	}
	char *s = json_dumps(line, JSON_COMPACT);
	json_decref(line);
	fprintf(t->journal, "%s\n", s);
	free(s);
	fflush(t->journal);
	fsync(fileno(t->journal));
}

static void record(struct tune *t, struct pending *p, enum cell_status st, const char *reason, const char *sha,
		   const char *same_as, double score)
{
	if (t->nev == t->ev_alloc) {
		t->ev_alloc = t->ev_alloc ? t->ev_alloc * 2 : 64;
		t->ev = xrealloc(t->ev, t->ev_alloc * sizeof(*t->ev));
	}
	struct tune_eval *e = &t->ev[t->nev];
	memset(e, 0, sizeof(*e));
	e->technique = p->track;
	size_t seq = 1;
	for (size_t i = 0; i < t->nev; i++)
		seq += t->ev[i].technique == p->track;
	e->seq = seq;
	e->key = xstrdup(p->key);
	e->op = xstrdup(p->op ? p->op : "");
	e->status = st;
	e->reason = reason ? xstrdup(reason) : NULL;
	if (sha)
		snprintf(e->sha256, sizeof(e->sha256), "%s", sha);
	e->same_as = same_as ? xstrdup(same_as) : NULL;
	e->score = st == CELL_OK ? score : INFINITY;
	e->verdict = st != CELL_OK ? VERDICT_NO_DATA
		     : same_as && !*same_as ? VERDICT_SAME_BINARY
					    : comparison_decide(score / t->start_score, score / t->start_score, 0, 0);
	if (p->track != TUNE_MINIMISE)
		e->at_s = t->tracks[p->track].spent_s + (now_monotonic() - t->batch_t0);
	p->ev = t->nev++;
	p->recorded = 1;
	journal_write(t, eval_json(t, e));
}

/* Instructions per unit of a built, checked cell; NAN (and *why) when not counted. */
static double count_one(struct tune *t, struct cell *c, char *why, size_t n)
{
	json_t *k = counters_measure(c, t->counters, t->o->timeout * 20);
	cell_counters_free(&c->measure.counters);
	cell_counters_from_json(&c->measure.counters, k);
	json_decref(k);
	const struct cell_counters *kc = &c->measure.counters;
	if (kc->state == COUNTERS_COUNTED && isfinite(kc->instructions_per_unit) && kc->instructions_per_unit > 0)
		return kc->instructions_per_unit;
	snprintf(why, n, "not counted: %s", kc->why ? kc->why : "no instruction count");
	return NAN;
}

/* Times cells in rounds in the order listed (schedule.h): a round's runs
 * pair up in the comparison, so drift cancels. */
static void time_rounds(struct tune *t, struct cell **cells, size_t n, unsigned runs)
{
	struct schedule_listed l = {
		.hyperfine = t->hyperfine,
		.workdir = t->work,
		.run_timeout_s = t->o->timeout,
		.round_base = t->rounds_done,
		.runs = runs,
		.warmup = t->o->warmup,
	};
	schedule_listed_run(cells, n, &l);
	t->rounds_done += runs;
}

/* The runs of cells[0..n) (a configuration's layouts) for the comparison. */
static struct comparison_run *runs_of_cells(struct cell *const *cells, size_t n, size_t *count)
{
	struct comparison_run *all = NULL;
	*count = 0;
	for (size_t i = 0; i < n; i++) {
		size_t k = 0;
		struct comparison_run *r = compare_cell_runs(cells[i], 1, &k);
		all = xrealloc(all, (*count + k + 1) * sizeof(*all));
		for (size_t j = 0; j < k; j++) {
			all[*count + j] = r[j];
			all[*count + j].layout = cells[i]->spec.layouts > 1 ? (int)cells[i]->spec.layout : COMPARISON_UNKNOWN;
		}
		*count += k;
		free(r);
	}
	return all;
}

/* B / A by the one comparison, over the runs of a's and b's cells. */
static int compare_groups(struct cell *const *a, size_t na, struct cell *const *b, size_t nb, double level,
			  struct comparison_result *out)
{
	struct comparison_side A = { 0 }, B = { 0 };
	struct comparison_run *ra = runs_of_cells(a, na, &A.n), *rb = runs_of_cells(b, nb, &B.n);
	A.runs = ra;
	B.runs = rb;
	A.sha256 = na == 1 && a[0]->build.sha256[0] ? a[0]->build.sha256 : NULL;
	B.sha256 = nb == 1 && b[0]->build.sha256[0] ? b[0]->build.sha256 : NULL;
	struct comparison_policy pol;
	compare_policy(&pol, 0, 0.5, 2000, 1, level);
	int v = comparison_compute(&A, &B, &pol, out);
	free(ra);
	free(rb);
	return v < 0 || out->method == COMPARISON_NONE ? -1 : 0;
}

/* Times again, beside the start, the candidates of a batch that would be
 * their track's new best: the best of many noisy screens is the one that
 * drew luck (the winner's curse), and a search builds on its best.  Their
 * new rounds join their first ones in the comparison. */
static void rescreen_leaders(struct tune *t, struct cell **cells, size_t m, double best, unsigned runs)
{
	struct cell **again = xcalloc(m + 1, sizeof(*again));
	size_t na = 0;
	again[na++] = cells[0];
	for (size_t i = 1; i < m; i++) {
		struct comparison_result r;
		struct cell *c = cells[i];
		if ((c->status == CELL_PENDING || c->status == CELL_OK) && c->measure.time.n &&
		    compare_groups(&cells[0], 1, &c, 1, 0.95, &r) == 0 && r.ratio < best)
			again[na++] = c;
	}
	if (na > 1 && !fb_interrupted)
		time_rounds(t, again, na, runs);
	free(again);
}

/* Builds, checks and measures a batch's candidates (those without a
 * figure), records each, and charges the batch's time to its track. */
static void evaluate(struct tune *t, struct pending *pd, size_t n, unsigned runs)
{
	double t0 = t->batch_t0 = now_monotonic();
	const struct cell_spec *proto = &t->base.cells[t->proto].spec;
	struct plan bp;
	memset(&bp, 0, sizeof(bp));
	size_t alloc = 0;
	int start_cell = -1;
	size_t todo = 0;
	for (size_t i = 0; i < n; i++)
		todo += !pd[i].recorded;
	if (!todo)
		return;
	t->batch_no++;
	if (t->metric == TUNE_METRIC_TIME)
		start_cell = add_clone(&bp, &alloc, proto, "", NULL, proto->config, 0, 1);
	for (size_t i = 0; i < n; i++) {
		pd[i].twin = -1;
		pd[i].measure = 0;
		pd[i].cell = -1;
		if (pd[i].recorded)
			continue;
		char *tag = xasprintf("%s+b%u.%zu", proto->config, t->batch_no, i);
		pd[i].cell = add_clone(&bp, &alloc, proto, pd[i].key, NULL, tag, 0, 1);
		free(tag);
	}
	struct build_stats bs;
	unsigned jobs = t->o->jobs ? t->o->jobs : 1;
	build_plan(&bp, t->cache, jobs, t->o->build_timeout, &bs);
	for (size_t i = 0; i < n && !fb_interrupted; i++) {
		struct pending *p = &pd[i];
		if (p->recorded)
			continue;
		struct cell *c = &bp.cells[p->cell];
		if (c->status != CELL_PENDING || !c->build.sha256[0]) {
			record(t, p, c->status == CELL_PENDING ? CELL_BUILD_FAILED : c->status, c->reason, NULL, NULL, INFINITY);
			continue;
		}
		if (!strcmp(c->build.sha256, t->start_sha)) {
			record(t, p, CELL_OK, NULL, c->build.sha256, "", t->start_score);
			continue;
		}
		struct tune_eval *e = p->fresh ? NULL : eval_by_sha(t, c->build.sha256);
		if (e) {
			char *same = xstrdup(e->key);
			record(t, p, e->status, e->reason, c->build.sha256, same, e->score);
			free(same);
			continue;
		}
		for (size_t k = 0; k < i && p->twin < 0; k++)
			if (pd[k].cell >= 0 && pd[k].measure && !strcmp(bp.cells[pd[k].cell].build.sha256, c->build.sha256))
				p->twin = (int)k;
		if (p->twin >= 0)
			continue;
		verify_cell(c, t->o->timeout * 4);
		if (c->status != CELL_PENDING) {
			record(t, p, c->status, c->reason, c->build.sha256, NULL, INFINITY);
			continue;
		}
		p->measure = 1;
	}
	if (t->metric == TUNE_METRIC_INSTRUCTIONS) {
		for (size_t i = 0; i < n && !fb_interrupted; i++) {
			if (!pd[i].measure)
				continue;
			struct cell *c = &bp.cells[pd[i].cell];
			char why[512];
			double v = count_one(t, c, why, sizeof(why));
			if (fb_interrupted)
				break;
			if (isfinite(v))
				record(t, &pd[i], CELL_OK, NULL, c->build.sha256, NULL, v);
			else
				record(t, &pd[i], CELL_UNSUPPORTED, why, c->build.sha256, NULL, INFINITY);
		}
	} else {
		struct cell **cells = xcalloc(n + 2, sizeof(*cells));
		size_t m = 0;
		cells[m++] = &bp.cells[start_cell];
		for (size_t i = 0; i < n; i++)
			if (pd[i].measure)
				cells[m++] = &bp.cells[pd[i].cell];
		if (m > 1 && !fb_interrupted) {
			time_rounds(t, cells, m, runs);
			if (pd[0].track != TUNE_MINIMISE)
				rescreen_leaders(t, cells, m, t->tracks[pd[0].track].best, runs);
			for (size_t i = 0; i < n && !fb_interrupted; i++) {
				if (!pd[i].measure)
					continue;
				struct cell *c = &bp.cells[pd[i].cell];
				struct comparison_result r;
				struct cell *sc = &bp.cells[start_cell];
				if ((c->status == CELL_PENDING || c->status == CELL_OK) && c->measure.time.n &&
				    compare_groups(&sc, 1, &c, 1, 0.95, &r) == 0 && isfinite(r.ratio)) {
					record(t, &pd[i], CELL_OK, NULL, c->build.sha256, NULL, r.ratio);
					t->ev[pd[i].ev].verdict = r.verdict;
					char text[256];
					comparison_describe(&r, text, sizeof(text));
					free(t->ev[pd[i].ev].reason);
					t->ev[pd[i].ev].reason = xstrdup(text);
				}
				else
					record(t, &pd[i], c->status != CELL_PENDING && c->status != CELL_OK ? c->status : CELL_FAILED,
					       c->reason ? c->reason : "not timed", c->build.sha256, NULL, INFINITY);
			}
		}
		free(cells);
	}
	/* identical binaries within the batch take their twin's figure */
	for (size_t i = 0; i < n && !fb_interrupted; i++) {
		struct pending *p = &pd[i];
		if (p->recorded || p->twin < 0 || !pd[p->twin].recorded)
			continue;
		const struct tune_eval *e = &t->ev[pd[p->twin].ev];
		char *same = xstrdup(e->key), *reason = e->reason ? xstrdup(e->reason) : NULL;
		char sha[65];
		snprintf(sha, sizeof(sha), "%s", e->sha256);
		record(t, p, e->status, reason, sha, same, e->score);
		free(same);
		free(reason);
	}
	if (pd[0].track != TUNE_MINIMISE)
		t->tracks[pd[0].track].spent_s += now_monotonic() - t0;
	free_clones(&bp);
}

/* ---- the start and the metric ---- */

/* The start built, checked and measured: its sha256 names the binary every
 * candidate is compared with; the metric is chosen on it. */
static int measure_start(struct tune *t)
{
	const struct cell_spec *proto = &t->base.cells[t->proto].spec;
	struct plan bp;
	memset(&bp, 0, sizeof(bp));
	size_t alloc = 0;
	add_clone(&bp, &alloc, proto, "", NULL, proto->config, 0, 1);
	struct build_stats bs;
	build_plan(&bp, t->cache, 1, t->o->build_timeout, &bs);
	struct cell *c = &bp.cells[0];
	int rc = -1;
	if (c->status != CELL_PENDING) {
		error("the start %s did not build: %s", c->spec.id, c->reason ? c->reason : cell_status_name(c->status));
		goto done;
	}
	snprintf(t->start_sha, sizeof(t->start_sha), "%s", c->build.sha256);
	verify_cell(c, t->o->timeout * 4);
	if (c->status != CELL_PENDING) {
		error("the start %s fails its check: %s: %s", c->spec.id, cell_status_name(c->status),
		      c->reason ? c->reason : "");
		goto done;
	}
	char why[512] = "";
	if (t->o->metric != TUNE_METRIC_TIME) {
		if (proto->family->kind != KIND_COMPUTE)
			snprintf(why, sizeof(why), "%s is a stream family: instructions are counted for compute families only",
				 proto->family->name);
		else
			t->counters = counters_probe(why, sizeof(why));
		if (proto->family->kind == KIND_COMPUTE && t->counters != COUNTERS_NONE) {
			t->start_score = count_one(t, c, why, sizeof(why));
			if (isfinite(t->start_score))
				t->metric = TUNE_METRIC_INSTRUCTIONS;
		}
		if (t->metric != TUNE_METRIC_INSTRUCTIONS && t->o->metric == TUNE_METRIC_INSTRUCTIONS) {
			error("--metric instructions: %s", why);
			goto done;
		}
	}
	if (t->metric != TUNE_METRIC_INSTRUCTIONS) {
		t->metric = TUNE_METRIC_TIME;
		t->start_score = 1;
		if (*why)
			t->metric_why = xstrdup(why);
	}
	t->hyperfine = find_on_path("hyperfine");
	if (!t->hyperfine) {
		error("hyperfine not found on PATH: install the Debian package hyperfine");
		goto done;
	}
	rc = 0;
done:
	free_clones(&bp);
	return rc;
}

/* ---- the journal ---- */

static char *space_hash(const struct tune_space *s)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < s->n; i++) {
		for (size_t k = 0; k < s->dims[i].nchoices; k++)
			sb_addf(&sb, "%s\n", s->dims[i].choices[k]);
		sb_addf(&sb, "start %zu\n", s->dims[i].start);
	}
	char hex[65];
	sha256_hex(sb.buf ? sb.buf : "", sb.len, hex);
	sb_release(&sb);
	return xstrdup(hex);
}

static const char *metric_word(enum tune_metric m)
{
	return m == TUNE_METRIC_INSTRUCTIONS ? "instructions" : "time";
}

static json_t *journal_header(const struct tune *t)
{
	json_t *argv = json_array(), *tech = json_array();
	json_array_append_new(argv, json_string("flagbench"));
	for (int i = 0; i < t->o->argc; i++)
		json_array_append_new(argv, json_string(t->o->argv[i]));
	for (size_t i = 0; i < t->ntracks; i++)
		json_array_append_new(tech, json_string(tune_technique_name(t->tracks[i].technique)));
	return json_pack("{s:s, s:i, s:o, s:s, s:s, s:s, s:s, s:I, s:o}", "kind", TUNE_JOURNAL_KIND, "version", 1, "argv",
			 argv, "start", t->base.cells[t->proto].spec.id, "start_sha256", t->start_sha, "space", t->space_hash,
			 "metric", metric_word(t->metric), "seed", (json_int_t)t->o->seed, "techniques", tech);
}

static enum cell_status status_of(const char *word)
{
	enum cell_status st = CELL_FAILED;
	cell_status_parse(word, &st);
	return st;
}

/* --resume: the journal's candidates, to be told again; a journal of
 * another start, space, metric, seed or techniques is refused. */
static int journal_load(struct tune *t)
{
	FILE *f = fopen(t->journal_path, "r");
	if (!f)
		return error("--resume %s: no journal: %s", t->dir, strerror(errno));
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int lineno = 0, rc = 0;
	json_t *want = journal_header(t);
	while ((len = getline(&line, &cap, f)) > 0 && rc == 0) {
		lineno++;
		json_error_t err;
		json_t *o = json_loadb(line, (size_t)len, 0, &err);
		if (!o) {
			/* a line cut by a crash is the last one: what it said is lost */
			fprintf(stderr, "flagbench: %s:%d: an unfinished line is skipped\n", t->journal_path, lineno);
			continue;
		}
		if (lineno == 1) {
			static const char *const must[] = { "kind", "start", "start_sha256", "space", "metric", "seed",
							    "techniques", NULL };
			for (const char *const *k = must; *k && rc == 0; k++)
				if (!json_equal(json_object_get(o, *k), json_object_get(want, *k)))
					rc = error("%s:1: the journal's %s differs from this tune's: --resume continues the same "
						   "tune (the same start, compiler, space, metric, seed and techniques)",
						   t->journal_path, *k);
			json_decref(o);
			continue;
		}
		const char *tech = jstr(o, "technique");
		size_t track = TUNE_MINIMISE;
		for (size_t i = 0; i < t->ntracks; i++)
			if (!strcmp(tech, tune_technique_name(t->tracks[i].technique)))
				track = i;
		if (track == TUNE_MINIMISE && strcmp(tech, "minimise")) {
			json_decref(o);
			continue;
		}
		if (t->nev == t->ev_alloc) {
			t->ev_alloc = t->ev_alloc ? t->ev_alloc * 2 : 64;
			t->ev = xrealloc(t->ev, t->ev_alloc * sizeof(*t->ev));
		}
		struct tune_eval *e = &t->ev[t->nev++];
		memset(e, 0, sizeof(*e));
		e->technique = track;
		e->seq = (size_t)json_integer_value(json_object_get(o, "seq"));
		e->key = xstrdup(jstr(o, "key"));
		e->op = xstrdup(jstr(o, "op"));
		e->status = status_of(jstr(o, "status"));
		const char *reason = json_string_value(json_object_get(o, "reason"));
		e->reason = reason ? xstrdup(reason) : NULL;
		snprintf(e->sha256, sizeof(e->sha256), "%s", jstr(o, "sha256"));
		const char *same = json_string_value(json_object_get(o, "same_as"));
		e->same_as = same ? xstrdup(same) : NULL;
		json_t *sc = json_object_get(o, "score");
		e->score = json_is_number(sc) ? json_number_value(sc) : INFINITY;
		e->at_s = json_number_value(json_object_get(o, "at_s"));
		e->from_journal = 1;
		json_decref(o);
	}
	free(line);
	fclose(f);
	json_decref(want);
	if (lineno == 0)
		rc = error("--resume %s: the journal is empty", t->dir);
	return rc;
}

static int journal_open(struct tune *t)
{
	t->journal_path = xasprintf("%s/journal.jsonl", t->dir);
	if (t->o->resume && journal_load(t) < 0)
		return -1;
	t->journal = fopen(t->journal_path, t->o->resume ? "a" : "w");
	if (!t->journal)
		return error("cannot write %s: %s", t->journal_path, strerror(errno));
	if (!t->o->resume)
		journal_write(t, journal_header(t));
	return 0;
}

/* ---- the search ---- */

static double track_budget_left(const struct tune *t, const struct tune_track *k, size_t *candidates_left)
{
	*candidates_left = SIZE_MAX;
	if (t->o->budget_candidates) {
		*candidates_left = k->evaluated >= t->o->budget_candidates ? 0 : t->o->budget_candidates - k->evaluated;
		return INFINITY;
	}
	return t->o->budget_s - k->spent_s;
}

static void progress(const struct tune *t, const struct tune_track *k)
{
	char best[64], left[64] = "";
	if (t->metric == TUNE_METRIC_INSTRUCTIONS)
		snprintf(best, sizeof(best), "%.4gx the start's instructions", k->best / t->start_score);
	else
		snprintf(best, sizeof(best), "%.3fx the start's time", k->best);
	size_t cl;
	double sl = track_budget_left(t, k, &cl);
	if (isfinite(sl)) {
		char d[32];
		format_duration(sl > 0 ? sl : 0, d, sizeof(d));
		snprintf(left, sizeof(left), ", %s left", d);
	} else {
		snprintf(left, sizeof(left), ", %zu candidates left", cl);
	}
	const char *key = k->best_key && *k->best_key ? k->best_key : "(the start)";
	fprintf(stderr, "flagbench: tune %s: %zu candidates (%zu failed, %zu wrong output, %zu same binary), best %s: %.120s%s%s\n",
		tune_technique_name(k->technique), k->evaluated, k->failed, k->wrong, k->same_binary, best, key,
		strlen(key) > 120 ? "..." : "", left);
}

static void track_tally(struct tune_track *k, const struct tune_eval *e)
{
	k->evaluated++;
	if (e->status == CELL_WRONG_OUTPUT)
		k->wrong++;
	else if (e->status != CELL_OK)
		k->failed++;
	else if (e->same_as)
		k->same_binary++;
	if (e->status == CELL_OK && e->score < k->best) {
		k->best = e->score;
		free(k->best_key);
		k->best_key = xstrdup(e->key);
	}
}

/* One batch of track k: asked, the journaled ones told again, the rest
 * evaluated, all told in order.  0, or -1 when the space is exhausted. */
static int search_batch(struct tune *t, size_t track)
{
	struct tune_track *k = &t->tracks[track];
	size_t cl;
	track_budget_left(t, k, &cl);
	size_t want = t->o->batch ? t->o->batch : 4;
	if (want > cl)
		want = cl;
	struct pending *pd = xcalloc(want, sizeof(*pd));
	size_t n = 0;
	int exhausted = 0;
	while (n < want) {
		size_t *val = xcalloc(t->space.n + 1, sizeof(size_t));
		if (tune_search_ask(k->search, val) < 0) {
			free(val);
			exhausted = 1;
			break;
		}
		struct pending *p = &pd[n++];
		p->track = track;
		p->val = val;
		p->key = tune_point_key(&t->space, val);
		p->op = tune_search_operator(k->search);
		struct tune_eval *e = journaled(t, track, p->key);
		if (e) {
			e->replayed = 1;
			p->ev = (size_t)(e - t->ev);
			p->recorded = 1;
			if (e->at_s > k->spent_s)
				k->spent_s = e->at_s;
		}
	}
	if (n)
		evaluate(t, pd, n, t->o->screen_runs);
	for (size_t i = 0; i < n; i++) {
		if (!pd[i].recorded)
			continue; /* interrupted before it finished */
		const struct tune_eval *e = &t->ev[pd[i].ev];
		tune_search_tell(k->search, pd[i].val, e->score);
		track_tally(k, e);
	}
	for (size_t i = 0; i < n; i++) {
		free(pd[i].val);
		free(pd[i].key);
	}
	free(pd);
	return exhausted ? -1 : 0;
}

static void search(struct tune *t)
{
	for (size_t i = 0; i < t->ntracks; i++) {
		struct tune_track *k = &t->tracks[i];
		k->search = tune_search_new(k->technique, &t->space, t->o->seed + i, t->start_score);
		k->best = t->start_score;
		k->best_key = xstrdup("");
	}
	for (;;) {
		int active = 0;
		for (size_t i = 0; i < t->ntracks && !fb_interrupted; i++) {
			struct tune_track *k = &t->tracks[i];
			size_t cl;
			if (k->done || track_budget_left(t, k, &cl) <= 0 || cl == 0) {
				k->done = 1;
				continue;
			}
			active = 1;
			if (search_batch(t, i) < 0)
				k->done = 1;
			if (!fb_interrupted)
				progress(t, k);
		}
		if (!active || fb_interrupted)
			break;
	}
}

/* ---- minimising the best ---- */

/* The choices of a key's point that differ from the start, each one
 * element (a "-mllvm -x=1" choice is one). */
static void key_choices(const struct tune *t, const char *key, struct strvec *out)
{
	size_t *val = xcalloc(t->space.n + 1, sizeof(size_t));
	if (tune_point_parse(&t->space, key, val) == 0) {
		for (size_t i = 0; i < t->space.n; i++)
			if (val[i] != t->space.dims[i].start)
				sv_push(out, t->space.dims[i].choices[val[i]]);
	}
	free(val);
}

static char *join_words(char *const *v, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < n; i++)
		sb_addf(&sb, "%s%s", i ? " " : "", v[i]);
	return sb.buf ? sb_detach(&sb) : xstrdup("");
}

/* The screen figures of keys, measuring those without one (one batch). */
static void screen_keys(struct tune *t, char *const *keys, size_t n, double *score)
{
	struct pending *pd = xcalloc(n + 1, sizeof(*pd));
	for (size_t i = 0; i < n; i++) {
		pd[i].track = TUNE_MINIMISE;
		pd[i].key = keys[i];
		pd[i].op = "minimise";
		const struct tune_eval *e = !*keys[i] ? NULL : eval_by_key(t, keys[i]);
		if (e) {
			pd[i].ev = (size_t)(e - t->ev);
			pd[i].recorded = 1;
		}
	}
	/* time: more rounds than the search's screen, the flags' shares rest on them */
	evaluate(t, pd, n, t->o->confirm_runs);
	for (size_t i = 0; i < n; i++)
		score[i] = !*keys[i] ? t->start_score : pd[i].recorded ? t->ev[pd[i].ev].score : NAN;
	free(pd);
}

static double gain_of(const struct tune *t, double score)
{
	return isfinite(score) && score > 0 ? log(t->start_score / score) : -INFINITY;
}

static void keeps_gain(void *ctx, const struct strvec *subsets, size_t n, int *ok)
{
	struct tune *t = ctx;
	char **keys = xcalloc(n + 1, sizeof(char *));
	double *score = xcalloc(n + 1, sizeof(double));
	for (size_t i = 0; i < n; i++)
		keys[i] = join_words(subsets[i].v, subsets[i].n);
	screen_keys(t, keys, n, score);
	double need = TUNE_KEEP * gain_of(t, t->best_score);
	for (size_t i = 0; i < n; i++) {
		ok[i] = gain_of(t, score[i]) >= need;
		free(keys[i]);
	}
	free(keys);
	free(score);
}

/* The best over every technique, minimised by ddmin, and each remaining
 * flag's share of the gain. */
static void minimise(struct tune *t)
{
	t->best_score = t->start_score;
	t->best_key = xstrdup("");
	for (size_t i = 0; i < t->ntracks; i++)
		if (t->tracks[i].best < t->best_score) {
			t->best_score = t->tracks[i].best;
			free(t->best_key);
			t->best_key = xstrdup(t->tracks[i].best_key);
		}
	t->minimal_score = t->best_score;
	if (!*t->best_key || fb_interrupted)
		return;
	if (t->metric == TUNE_METRIC_TIME) {
		/* the best of many noisy screens flatters itself (the winner's
		 * curse): its figure again, with the minimisation's rounds */
		struct pending p = { .track = TUNE_MINIMISE, .key = t->best_key, .op = "minimise", .fresh = 1 };
		evaluate(t, &p, 1, t->o->confirm_runs);
		if (p.recorded && isfinite(t->ev[p.ev].score))
			t->best_score = t->minimal_score = t->ev[p.ev].score;
		if (!p.recorded || t->ev[p.ev].verdict != VERDICT_FASTER) {
			/* a lead within the noise has no flags that carry it */
			t->minimise_note = xasprintf("not minimised: screened again, the best against the start is %s",
						     p.recorded && t->ev[p.ev].reason ? t->ev[p.ev].reason : "not measured");
			return;
		}
	}
	struct strvec flags = STRVEC_INIT;
	key_choices(t, t->best_key, &flags);
	tune_ddmin(&flags, keeps_gain, t, &t->minimal, &t->minimise_steps);
	sv_clear(&flags);
	if (fb_interrupted || !t->minimal.n)
		return;
	char *mkey = join_words(t->minimal.v, t->minimal.n);
	screen_keys(t, &mkey, 1, &t->minimal_score);
	free(mkey);
	/* each flag's share: the gain lost without it */
	size_t n = t->minimal.n;
	char **keys = xcalloc(n + 1, sizeof(char *));
	double *score = xcalloc(n + 1, sizeof(double));
	for (size_t i = 0; i < n; i++) {
		struct strvec rest = STRVEC_INIT;
		for (size_t k = 0; k < n; k++)
			if (k != i)
				sv_push(&rest, t->minimal.v[k]);
		keys[i] = join_words(rest.v, rest.n);
		sv_clear(&rest);
	}
	screen_keys(t, keys, n, score);
	t->shares = xcalloc(n, sizeof(*t->shares));
	t->nshares = n;
	double g = gain_of(t, t->minimal_score);
	for (size_t i = 0; i < n; i++) {
		t->shares[i].flag = xstrdup(t->minimal.v[i]);
		t->shares[i].without = score[i];
		t->shares[i].share = g > 0 && isfinite(score[i]) ? log(score[i] / t->minimal_score) / g : NAN;
		free(keys[i]);
	}
	free(keys);
	free(score);
}

/* ---- the confirmation ---- */

static void add_confirmed(struct tune *t, const char *label, const char *key, const char *opt, double screen)
{
	for (size_t i = 0; i < t->nconfirmed; i++)
		if (!opt && t->confirmed[i].key && !strcmp(t->confirmed[i].key, key)) {
			/* the same flags found twice: one line, both names */
			char *l = xasprintf("%s, %s", t->confirmed[i].label, label);
			free(t->confirmed[i].label);
			t->confirmed[i].label = l;
			return;
		}
	t->confirmed = xrealloc(t->confirmed, (t->nconfirmed + 1) * sizeof(*t->confirmed));
	struct tune_confirmed *c = &t->confirmed[t->nconfirmed++];
	memset(c, 0, sizeof(*c));
	c->label = xstrdup(label);
	c->key = opt ? xstrdup(opt) : xstrdup(key);
	c->cell = -1;
	c->screen = screen;
	c->vs_start.ratio = c->answer_vs.ratio = NAN;
	if (opt)
		c->cell = -2; /* an -O level: built with opt instead of the start's */
}

/* The cells of confirmed line i: its layouts, consecutive from ->cell. */
static size_t line_cells(const struct tune *t, size_t i, struct cell **out)
{
	const struct tune_confirmed *c = &t->confirmed[i];
	unsigned K = t->o->layouts ? t->o->layouts : 1;
	if (c->cell < 0)
		return 0;
	size_t n = 0;
	for (unsigned k = 0; k < K; k++) {
		struct cell *x = &t->confirm_plan.cells[(size_t)c->cell + k];
		if (x->measure.time.n)
			out[n++] = x;
	}
	return n;
}

/* Lines whose builds are the same binaries as an earlier line's (flags
 * that change nothing) are that line: one measurement, both names. */
static void merge_same_binaries(struct tune *t, unsigned K)
{
	for (size_t i = 1; i < t->nconfirmed; i++) {
		struct tune_confirmed *c = &t->confirmed[i];
		const struct cell *ci = c->cell >= 0 ? &t->confirm_plan.cells[c->cell] : NULL;
		if (!ci || !ci->build.sha256[0])
			continue;
		for (size_t j = 0; j < i; j++) {
			struct tune_confirmed *d = &t->confirmed[j];
			const struct cell *cj = d->cell >= 0 ? &t->confirm_plan.cells[d->cell] : NULL;
			if (!cj || strcmp(cj->build.sha256, ci->build.sha256))
				continue;
			char *l = xasprintf("%s, %s", d->label, c->label);
			free(d->label);
			d->label = l;
			for (unsigned k = 0; k < K; k++)
				cell_set_status(&t->confirm_plan.cells[(size_t)c->cell + k], CELL_SKIPPED, "the same binary as %s",
						d->label);
			free(c->label);
			free(c->key);
			memmove(c, c + 1, (t->nconfirmed - i - 1) * sizeof(*c));
			t->nconfirmed--;
			i--;
			break;
		}
	}
}

static void confirm(struct tune *t)
{
	const struct cell_spec *proto = &t->base.cells[t->proto].spec;
	add_confirmed(t, "start", "", NULL, t->start_score);
	for (size_t i = 0; i < t->ntracks; i++)
		if (t->tracks[i].best_key && *t->tracks[i].best_key) {
			char *l = xasprintf("best (%s)", tune_technique_name(t->tracks[i].technique));
			add_confirmed(t, l, t->tracks[i].best_key, NULL, t->tracks[i].best);
			free(l);
		}
	char *mkey = join_words(t->minimal.v, t->minimal.n);
	if (*mkey)
		add_confirmed(t, "minimal", mkey, NULL, t->minimal_score);
	free(mkey);
	static const char *const levels[] = { "-O2", "-O3", "-Os", NULL };
	for (const char *const *l = levels; *l; l++)
		if (strcmp(*l, proto->opt))
			add_confirmed(t, *l, "", *l, NAN);
	unsigned K = t->o->layouts ? t->o->layouts : 1;
	size_t alloc = 0;
	for (size_t i = 0; i < t->nconfirmed; i++) {
		struct tune_confirmed *c = &t->confirmed[i];
		int is_opt = c->cell == -2;
		char *tag = xasprintf("%s %s", proto->config, is_opt ? c->key : c->label);
		for (unsigned k = 0; k < K; k++) {
			int idx = add_clone(&t->confirm_plan, &alloc, proto, is_opt ? "" : c->key, is_opt ? c->key : NULL,
					    tag, k, K);
			if (k == 0)
				c->cell = idx;
		}
		free(tag);
	}
	struct build_stats bs;
	build_plan(&t->confirm_plan, t->cache, t->o->jobs ? t->o->jobs : 1, t->o->build_timeout, &bs);
	merge_same_binaries(t, K);
	struct cell **cells = xcalloc(t->confirm_plan.n + 1, sizeof(*cells));
	size_t m = 0;
	for (size_t i = 0; i < t->confirm_plan.n && !fb_interrupted; i++) {
		struct cell *c = &t->confirm_plan.cells[i];
		if (c->status == CELL_PENDING)
			verify_cell(c, t->o->timeout * 4);
		if (c->status == CELL_PENDING)
			cells[m++] = c;
	}
	fprintf(stderr, "flagbench: tune: confirming %zu builds x %u layout%s, %u rounds\n", t->nconfirmed, K,
		K > 1 ? "s" : "", t->o->confirm_runs);
	if (m && !fb_interrupted)
		time_rounds(t, cells, m, t->o->confirm_runs);
	free(cells);
	t->confirm_level = comparison_bonferroni_level(0.05, t->nconfirmed > 1 ? t->nconfirmed - 1 : 1);
	struct cell **a = xcalloc(K + 1, sizeof(*a)), **b = xcalloc(K + 1, sizeof(*b));
	size_t na = line_cells(t, 0, a);
	t->better_index = -1;
	for (size_t i = 1; i < t->nconfirmed && na; i++) {
		struct tune_confirmed *c = &t->confirmed[i];
		size_t nb = line_cells(t, i, b);
		if (nb && compare_groups(a, na, b, nb, t->confirm_level, &c->vs_start) == 0)
			comparison_describe(&c->vs_start, c->text, sizeof(c->text));
	}
	/* the answer: the minimal set where it is faster, else a best that is */
	for (size_t i = 1; i < t->nconfirmed; i++) {
		const struct tune_confirmed *c = &t->confirmed[i];
		if (c->vs_start.verdict != VERDICT_FASTER || !strncmp(c->label, "-O", 2))
			continue;
		if (t->better_index < 0 || strstr(c->label, "minimal"))
			t->better_index = (int)i;
	}
	t->better = t->better_index >= 0;
	size_t ans = t->better ? (size_t)t->better_index : 0;
	size_t nans = line_cells(t, ans, a);
	for (size_t i = 0; i < t->nconfirmed && nans; i++) {
		struct tune_confirmed *c = &t->confirmed[i];
		size_t nb = line_cells(t, i, b);
		if (i != ans && nb && compare_groups(b, nb, a, nans, t->confirm_level, &c->answer_vs) == 0)
			comparison_describe(&c->answer_vs, c->answer_text, sizeof(c->answer_text));
	}
	free(a);
	free(b);
}

/* ---- the whole ---- */

static void free_tune(struct tune *t)
{
	for (size_t i = 0; i < t->nev; i++) {
		free(t->ev[i].key);
		free(t->ev[i].op);
		free(t->ev[i].reason);
		free(t->ev[i].same_as);
	}
	free(t->ev);
	for (size_t i = 0; i < t->ntracks; i++) {
		if (t->tracks[i].search)
			tune_search_free(t->tracks[i].search);
		free(t->tracks[i].best_key);
	}
	for (size_t i = 0; i < t->nshares; i++)
		free(t->shares[i].flag);
	free(t->shares);
	for (size_t i = 0; i < t->nconfirmed; i++) {
		free(t->confirmed[i].label);
		free(t->confirmed[i].key);
	}
	free(t->confirmed);
	free_clones(&t->confirm_plan);
	sv_clear(&t->minimal);
	sv_clear(&t->notes);
	free(t->best_key);
	free(t->metric_why);
	free(t->minimise_note);
	free(t->space_hash);
	tune_space_free(&t->space);
	plan_free(&t->base);
	for (int i = 0; i < t->nfam; i++)
		free_family(&t->fams[i]);
	free(t->fams);
	if (t->suite.name)
		free_suite(&t->suite);
	if (t->prof.name)
		free_cpu_profile(&t->prof);
	if (t->journal)
		fclose(t->journal);
	free(t->journal_path);
	free(t->dir);
	free(t->work);
	free(t->cache);
	free(t->hyperfine);
}

static int make_dir(struct tune *t)
{
	const struct cell_spec *proto = &t->base.cells[t->proto].spec;
	if (t->o->resume)
		t->dir = xstrdup(t->o->resume);
	else if (t->o->out)
		t->dir = xstrdup(t->o->out);
	else
		t->dir = xasprintf("%s/results/tune-%s-%s-%s", project_root(), t->stamp, proto->family->name,
				   proto->variant->name);
	t->work = xasprintf("%s/.work", t->dir);
	if (mkdir_p(t->work, 0755) < 0)
		return error("cannot create %s: %s", t->work, strerror(errno));
	return 0;
}

int tune_main(const struct tune_opts *o, const struct tune_view *view)
{
	struct tune t;
	memset(&t, 0, sizeof(t));
	t.o = o;
	t.proto = -1;
	t.started = now_wall();
	format_utc_stamp(t.started, t.stamp, sizeof(t.stamp));
	int code = EXIT_USAGE;
	if (plan_start(&t) < 0)
		goto done;
	const struct cell_spec *proto = &t.base.cells[t.proto].spec;
	if (tune_space_read(proto->compiler, proto->cflags.v, o->allow_unsafe, &t.space) < 0)
		goto done;
	if (o->list_space) {
		printf("start: %s (%s)\n", proto->id, proto->compiler->version);
		tune_space_print(&t.space, stdout);
		code = EXIT_ALL_OK;
		goto done;
	}
	if (!t.space.n) {
		error("%s lists no flag to search", proto->compiler->name);
		goto done;
	}
	t.space_hash = space_hash(&t.space);
	t.cache = o->cache ? xstrdup(o->cache) : xasprintf("%s/build/cache", project_root());
	install_interrupt_handler();
	if (make_dir(&t) < 0)
		goto done;
	code = EXIT_CELL_FAILED;
	if (measure_start(&t) < 0)
		goto done;
	t.ntracks = o->ntechniques;
	for (size_t i = 0; i < t.ntracks; i++)
		t.tracks[i].technique = o->techniques[i];
	code = EXIT_USAGE;
	if (journal_open(&t) < 0)
		goto done;
	fprintf(stderr, "flagbench: tune %s: %zu dimensions (%s), screen by %s%s%s\n", proto->id, t.space.n,
		proto->compiler->version, metric_word(t.metric), t.metric_why ? ": " : "", t.metric_why ? t.metric_why : "");
	search(&t);
	if (!fb_interrupted)
		minimise(&t);
	if (!fb_interrupted)
		confirm(&t);
	if (fb_interrupted) {
		fprintf(stderr, "flagbench: tune interrupted: the journal keeps %zu candidates; flagbench tune --resume %s "
				"continues\n", t.nev, t.dir);
		code = EXIT_INTERRUPTED;
		goto done;
	}
	code = view->report(&t) < 0 ? EXIT_CELL_FAILED : EXIT_ALL_OK;
done:
	free_tune(&t);
	return code;
}
