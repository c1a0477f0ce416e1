/* explain.c: see explain.h.  Its steps (read the pair, ask the comparison,
 * build, verify, search, check) work on one struct explain and its plan;
 * measuring a cell and reading a share are explain_measure.c's, the
 * journal, the budget and the estimate explain_journal.c's. */
#define _GNU_SOURCE
#include "driver/explain.h"
#include "driver/explain_journal.h"
#include "driver/explain_measure.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "checks/check.h"
#include "core/runcmd.h"
#include "pipeline/build.h"
#include "analysis/compare.h"
#include "pipeline/schedule.h"
#include "pipeline/records.h"
#include "pipeline/executor.h"
#include "results/reader.h"

/* The cflags of a cell, as the run built it. */
static void flags_of(const struct results_cell *cell, struct strvec *out)
{
	for (size_t i = 0; i < cell->ncflags; i++)
		sv_push(out, cell->cflags[i]);
}

/* A candidate of change ch, whose strings it takes. */
static void add_candidate(struct explain *e, struct flag_change *ch)
{
	e->cand = xrealloc(e->cand, (e->ncand + 1) * sizeof(*e->cand));
	struct candidate *c = &e->cand[e->ncand++];
	memset(c, 0, sizeof(*c));
	c->name = ch->name;
	c->toward_a = ch->toward_a;
	c->toward_b = ch->toward_b;
	c->other = -1;
	c->other_share = (struct share){ NAN, NAN, NAN };
	c->score = NAN;
}

/* A plan cell built like the run's cell A (b_side 0) or B, planned
 * again as the run planned it, with the flags the run built A (flags_b 0)
 * or B with plus extra ones. */
static int add_cell_from(struct explain *e, const struct explain_run *r, int b_side, int flags_b, const char *config,
			 const char *extra1, const struct strvec *extra)
{
	const struct cell *src = b_side ? &(r->rebuild_b.plan.n ? &r->rebuild_b : &r->rebuild)->plan.cells[r->pb]
					: &r->rebuild.plan.cells[r->pa];
	int idx = plan_add_copy(&e->plan, &e->alloc, &src->spec);
	struct cell_spec *sp = &e->plan.cells[idx].spec;
	free(sp->config);
	free(sp->id);
	sp->config = xstrdup(config);
	sp->id = xasprintf("%s/%s@%s", sp->family->name, sp->variant->name, config);
	sv_clear(&sp->cflags);
	flags_of(flags_b ? r->cb : r->ca, &sp->cflags);
	if (extra1)
		sv_push(&sp->cflags, extra1);
	if (extra)
		sv_pushv(&sp->cflags, extra->v);
	e->val = xrealloc(e->val, e->alloc * sizeof(*e->val));
	e->val[idx] = (struct metric_value){ NAN, NAN, NAN };
	return idx;
}

static int add_cell(struct explain *e, const struct explain_run *r, int b_side, const char *config, const char *extra1,
		    const struct strvec *extra)
{
	return add_cell_from(e, r, b_side, b_side, config, extra1, extra);
}


int explain_group_of(const struct explain *e, size_t i)
{
	int best = -1;
	for (size_t k = 0; k < e->gs.n; k++) {
		const struct gs_group *g = &e->gs.g[k];
		if (g->state == GS_WAITING || i < g->from || i >= g->to)
			continue;
		if (best < 0 || g->to - g->from < e->gs.g[best].to - e->gs.g[best].from)
			best = (int)k;
	}
	return best;
}

static void free_explain(struct explain *e)
{
	for (size_t i = 0; i < e->ncand; i++) {
		free(e->cand[i].name);
		free(e->cand[i].toward_a);
		free(e->cand[i].toward_b);
	}
	free(e->cand);
	free(e->val);
	free(e->gi);
	gs_free(&e->gs);
	sv_clear(&e->notes);
	sv_clear(&e->selected);
	free(e->not_faster);
	/* the cells are copies: their compiler and family are rebuild's */
	plan_free_copies(&e->plan);
	session_close(&e->session);
}

static void free_run(struct explain_run *r)
{
	replan_free(&r->rebuild);
	replan_free(&r->rebuild_b);
	results_close(&r->results);
	free(r->run_dir);
	free(r->out);
	free(r->work);
	free(r->hyperfine);
}

static const char *or_empty(const char *s)
{
	return s ? s : "";
}

/* One of A and B planned again as the run planned it (driver/replan.h). */
static int replan_one(const char *run, const char *id, const struct results_cell *c, struct replan *out, int *idx)
{
	struct replan_request rq = { .run = run, .cells = { id, NULL } };
	if (replan_plan(&rq, out) < 0)
		return -1;
	*idx = replan_find(out, c->opt, c->march);
	if (*idx < 0)
		return error("%s is not planned here again (flagbench list variants)", id);
	return 0;
}

/* A and B from the run (the one reader checks it): one variant, native
 * and without pgo; with one compiler differing in exactly one of -O and
 * -march, which sets the mode; with two, the mode is across compilers.
 * Then both planned again as the run planned them (driver/replan.h). */
static int read_pair(struct explain *e, struct explain_run *r, const char *run)
{
	if (results_open(run, &r->results) < 0)
		return -1;
	r->run_dir = xstrdup(r->results.dir);
	const struct results_cell *ca = r->ca = results_cell_by_id(&r->results, r->id_a),
				  *cb = r->cb = results_cell_by_id(&r->results, r->id_b);
	if (!ca || !cb)
		return error("no cell '%s' in %s (flagbench tables %s lists the cells)", !ca ? r->id_a : r->id_b,
			     r->results.file, r->run_dir);
	if (strcmp(ca->family, cb->family) || strcmp(ca->variant, cb->variant) || ca->reference || cb->reference)
		return error("explain compares two builds of one variant; %s and %s differ in variant", r->id_a, r->id_b);
	if (ca->emulated || cb->emulated || ca->pgo || cb->pgo)
		return error("explain works on native, non-pgo builds");
	if (strcmp(or_empty(ca->compiler), or_empty(cb->compiler))) {
		e->mode = EXPLAIN_MODE_CROSS;
		return replan_one(run, r->id_a, ca, &r->rebuild, &r->pa) < 0 ||
				       replan_one(run, r->id_b, cb, &r->rebuild_b, &r->pb) < 0
			       ? -1
			       : (r->fam = r->rebuild.plan.cells[r->pa].spec.family,
				  r->var = r->rebuild.plan.cells[r->pa].spec.variant, 0);
	}
	int opt_differs = strcmp(or_empty(ca->opt), or_empty(cb->opt)) != 0;
	int march_differs = strcmp(or_empty(ca->march), or_empty(cb->march)) != 0;
	if (opt_differs == march_differs)
		return error(opt_differs ? "%s and %s differ in both -O level and -march: explain one difference at a time"
					 : "%s and %s differ in neither -O level nor -march: nothing for explain to attribute",
			     r->id_a, r->id_b);
	e->mode = opt_differs ? EXPLAIN_MODE_OPT : EXPLAIN_MODE_MARCH;
	e->way = opt_differs ? EXPLAIN_WAY_B_WITHOUT : EXPLAIN_WAY_A_WITH;
	struct replan_request rq = { .run = run, .cells = { r->id_a, r->id_b } };
	if (replan_plan(&rq, &r->rebuild) < 0)
		return -1;
	r->pa = replan_find(&r->rebuild, ca->opt, ca->march);
	r->pb = replan_find(&r->rebuild, cb->opt, cb->march);
	if (r->pa < 0 || r->pb < 0)
		return error("%s is not planned here again (flagbench list variants)", r->pa < 0 ? r->id_a : r->id_b);
	r->fam = r->rebuild.plan.cells[r->pa].spec.family;
	r->var = r->rebuild.plan.cells[r->pa].spec.variant;
	return 0;
}

/* The run's compilers, as planned here; a different version is noted, not refused. */
static int probe_compiler(struct explain *e, const struct explain_run *r)
{
	for (int side = 0; side < 2; side++) {
		if (side && e->mode != EXPLAIN_MODE_CROSS)
			break;
		const struct cell *pc = side ? &r->rebuild_b.plan.cells[r->pb] : &r->rebuild.plan.cells[r->pa];
		const struct results_cell *rc = side ? r->cb : r->ca;
		const struct compiler *comp = pc->spec.compiler;
		if (pc->status == CELL_UNSUPPORTED)
			return error("%s cannot be built here: %s", pc->spec.id, pc->reason ? pc->reason : "unsupported");
		if (e->mode == EXPLAIN_MODE_OPT && comp->is_clang)
			return error("clang has no per-pass -O flags (its -O levels select pass pipelines that no flag names): "
				     "explain attributes only -march differences for clang");
		if (rc->compiler_version && comp->version && strcmp(rc->compiler_version, comp->version))
			sv_pushf(&e->notes, "the run was built with '%s', this explain with '%s'", rc->compiler_version,
				 comp->version);
		if (e->mode == EXPLAIN_MODE_MARCH && comp->is_clang)
			sv_push(&e->notes, "clang: -march attribution only (its -O levels have no per-pass flags)");
	}
	return 0;
}

/* Is B faster than A at all?  The comparison of the run's stored times
 * by its statistic (paired where both cells have rounds of one pass).
 * 1 yes; 0 no, and e->not_faster says so in the comparison's words; -1
 * when the runs cannot tell (too few of them). */
static int b_is_faster(struct explain *e, const struct explain_run *r)
{
	struct comparison_side A = { 0 }, B = { 0 };
	struct comparison_run *ra = compare_stored_runs(r->ca, 1, 1, &A.n), *rb = compare_stored_runs(r->cb, 1, 1, &B.n);
	struct program_id pa, pb;
	program_id_from_record(&pa, r->ca);
	program_id_from_record(&pb, r->cb);
	A.runs = ra;
	B.runs = rb;
	A.program = &pa;
	B.program = &pb;
	const char *stat = r->results.statistic;
	double q = 0.5;
	if (!stat || stats_statistic_parse(stat, &q) < 0 || !(q > 0))
		q = 0.5; /* the minimum has no interval: the median */
	struct comparison_policy pol;
	compare_policy(&pol, 0, q, 2000, 1, 0.95);
	struct comparison_result c;
	int v = -1;
	if (ra && rb && comparison_compute(&A, &B, &pol, &c) == 0 && c.method != COMPARISON_NONE) {
		v = c.verdict == VERDICT_FASTER;
		char text[256];
		comparison_describe(&c, text, sizeof(text));
		/* "..., inconclusive" reads "...: inconclusive" after a colon of its own */
		char *comma = strrchr(text, ',');
		if (comma && !strcmp(comma + 2, comparison_verdict_word(c.verdict)))
			*comma = ':';
		if (!v)
			e->not_faster = xasprintf("B is not faster than A: %s", text);
		else
			sv_pushf(&e->notes, "B is faster than A in the run's times: %s", text);
	}
	free(ra);
	free(rb);
	program_id_clear(&pa);
	program_id_clear(&pb);
	return v;
}

/* The metric: time where the run's times show B's lead real, else
 * deterministic instruction counts where the family allows, else time
 * (which needs hyperfine); --metric instructions insists. */
static int choose_metric(struct explain *e, const struct explain_opts *o, struct explain_run *r, int faster)
{
	char why[256] = "";
	if (!o->metric_asked && faster == 1) {
		/* the lead to explain is a time lead, and a real one */
		e->metric = METRIC_TIME;
		sv_push(&e->notes, "metric: time (B's lead in the run's times is real; --metric instructions counts instead)");
	} else if (!o->metric_asked || o->metric != METRIC_TIME) {
		e->counters = session_counter_source(&e->session, r->fam, why, sizeof(why));
		if (e->counters == COUNTERS_NONE && o->metric_asked)
			return error("--metric instructions: %s", why);
		e->metric = e->counters == COUNTERS_NONE ? METRIC_TIME : METRIC_INSTRUCTIONS;
		if (e->counters == COUNTERS_NONE)
			sv_pushf(&e->notes, "metric: time (%s)", why);
	} else {
		e->metric = METRIC_TIME;
	}
	if (session_find_tool(&e->session, &r->hyperfine) < 0 && e->metric == METRIC_TIME)
		return error("%s not found on PATH: install the Debian package %s", e->session.x->tool, e->session.x->tool);
	return 0;
}

/* Twins (the same binary as an earlier cell) among [from, n) share its verdict. */
static void twins_take_status(struct explain *e, size_t from)
{
	for (size_t i = from; i < e->plan.n; i++) {
		struct cell *c = &e->plan.cells[i];
		if (c->build.same_binary_as >= 0 && c->status == CELL_PENDING)
			c->status = e->plan.cells[c->build.same_binary_as].status;
	}
}

/* The candidate flags between A and B (none across compilers). */
static int find_candidates(struct explain *e, struct explain_run *r)
{
	if (e->mode == EXPLAIN_MODE_CROSS)
		return 0;
	const struct compiler *comp = r->rebuild.plan.cells[r->pa].spec.compiler;
	struct strvec fa = STRVEC_INIT, fb = STRVEC_INIT;
	struct flag_changes fc = { NULL, 0 };
	flags_of(r->ca, &fa);
	flags_of(r->cb, &fb);
	int found = e->mode == EXPLAIN_MODE_OPT ? flags_optimizer_changes(comp, &fa, &fb, &fc, &e->notes)
						: flags_isa_changes(comp, &fa, &fb, &fc, &e->notes);
	for (size_t i = 0; i < fc.n; i++)
		add_candidate(e, &fc.v[i]);
	free(fc.v);
	sv_clear(&fa);
	sv_clear(&fb);
	return found;
}

/* --out, --resume's folder, or RUN/explain-<start time>, with .work inside for hyperfine's files. */
static int make_out_dir(struct explain_run *r, const struct explain_opts *o)
{
	if (o->resume)
		r->out = xstrdup(o->resume);
	else if (o->out)
		r->out = xstrdup(o->out);
	else
		r->out = xasprintf("%s/explain-%s%s", r->run_dir, o->dry_run ? "dry-run-" : "", r->stamp);
	r->work = xasprintf("%s/.work", r->out);
	if (mkdir_p(r->work, 0755) < 0)
		return error("cannot create %s: %s", r->work, strerror(errno));
	return 0;
}

/* Marks the cells before from final, so a build or a timing takes only the new ones. */
static void settle(struct explain *e, size_t from)
{
	for (size_t i = 0; i < from; i++)
		if (e->plan.cells[i].status == CELL_PENDING)
			e->plan.cells[i].status = CELL_OK;
}

/* The cells [from, n) counted, or timed beside A and B again (whose new
 * runs join theirs); a first batch (from 0) measures A and B alone with
 * the rest. */
static void measure_batch(struct explain *e, const struct explain_run *r, size_t from)
{
	if (e->metric == METRIC_INSTRUCTIONS) {
		explain_take_counts(e, from);
	} else {
		int *list = xcalloc(e->plan.n + 3, sizeof(int));
		size_t m = 0;
		int ra = explain_rep(e, e->a), rb = explain_rep(e, e->b);
		if (from > 0) {
			list[m++] = ra;
			list[m++] = rb;
			e->plan.cells[ra].status = e->plan.cells[rb].status = CELL_PENDING;
		}
		for (size_t i = from; i < e->plan.n; i++)
			if (explain_measurable(e, i))
				list[m++] = (int)i;
		double t0 = now_monotonic();
		explain_time_cells(e, list, m, r->work, r->hyperfine);
		if (m)
			e->measure_s = (now_monotonic() - t0) / (double)m;
		if (from > 0 && e->plan.cells[ra].status == CELL_PENDING)
			e->plan.cells[ra].status = CELL_OK;
		if (from > 0 && e->plan.cells[rb].status == CELL_PENDING)
			e->plan.cells[rb].status = CELL_OK;
		free(list);
	}
	twins_take_status(e, from);
	explain_measure_gap(e);
}

/* [from, n) through the session: built, verified and, under
 * instructions, counted; the build's seconds feed the estimate. */
static int build_batch(struct explain *e, size_t from, struct build_stats *bs)
{
	struct session_batch b = { .from = from,
				   .upto = e->metric == METRIC_INSTRUCTIONS ? SESSION_COUNTED : SESSION_VERIFIED,
				   .counters = e->counters };
	int r = session_ready(&e->session, &e->plan, &b);
	*bs = b.built;
	unsigned jobs = e->session.jobs ? e->session.jobs : 1;
	if (r == 0 && bs->compiled && !fb_interrupted)
		e->build_s = b.build_s / (double)((bs->compiled + jobs - 1) / jobs);
	session_batch_release(&b);
	return r;
}

/* A and B, built (the cache spares what the run compiled), verified and
 * measured; where counting cannot run for both, time them. */
static int measure_pair(struct explain *e, struct explain_run *r)
{
	e->a = add_cell(e, r, 0, r->ca->config, NULL, NULL);
	e->b = add_cell(e, r, 1, r->cb->config, NULL, NULL);
	struct build_stats bs;
	if (build_batch(e, 0, &bs) < 0)
		return -1;
	fprintf(stderr, "flagbench: explain: A and B built (compiled %u, cached %u, failed %u)\n", bs.compiled, bs.cached,
		bs.failed);
	if (e->metric == METRIC_INSTRUCTIONS) {
		for (int k = 0; k < 2; k++)
			if (explain_measurable(e, (size_t)(k ? e->b : e->a)))
				explain_take_count(e, (size_t)(k ? e->b : e->a));
		struct cell *ca = &e->plan.cells[explain_rep(e, e->a)], *cb = &e->plan.cells[explain_rep(e, e->b)];
		const struct cell *bad = ca->status != CELL_OK ? ca : cb->status != CELL_OK ? cb : NULL;
		if (bad && r->hyperfine && !fb_interrupted && !e->o->metric_asked) {
			sv_pushf(&e->notes, "metric: time (instructions could not be counted for %s: %s)", bad->spec.id,
				 bad->reason ? bad->reason : "no count");
			e->metric = METRIC_TIME;
			ca->status = cb->status = CELL_PENDING;
		}
	}
	if (e->metric == METRIC_TIME)
		measure_batch(e, r, 0);
	twins_take_status(e, 0);
	explain_measure_gap(e);
	const struct cell *bad = e->plan.cells[e->a].status != CELL_OK ? &e->plan.cells[e->a]
				 : e->plan.cells[e->b].status != CELL_OK ? &e->plan.cells[e->b]
									 : NULL;
	if (bad) {
		if (fb_interrupted)
			return error("interrupted while A and B were built and measured: nothing found yet");
		return error("%s: %s: %s", bad->spec.id, cell_status_name(bad->status), bad->reason ? bad->reason : "");
	}
	return 0;
}

/* ---- the search by halves ---- */

/* B without the candidates [from, to) (b_without), or A with them. */
static int add_moved(struct explain *e, struct explain_run *r, int b_without, size_t from, size_t to)
{
	struct strvec extra = STRVEC_INIT;
	struct strbuf cfg = STRBUF_INIT;
	sb_adds(&cfg, b_without ? r->cb->config : r->ca->config);
	for (size_t i = from; i < to; i++) {
		const char *f = b_without ? e->cand[i].toward_a : e->cand[i].toward_b;
		sv_push(&extra, f);
		sb_addf(&cfg, " %s", f);
	}
	int cell = add_cell(e, r, b_without, cfg.buf, NULL, &extra);
	sb_release(&cfg);
	sv_clear(&extra);
	return cell;
}

/* The share of the gap that cell carries, moved b_without or A with. */
static void moved_share(const struct explain *e, int b_without, int cell, struct share *s, enum comparison_verdict *v)
{
	if (b_without)
		explain_share(e, cell, e->b, &s->v, &s->lo, &s->hi, v);
	else
		explain_share(e, e->a, cell, &s->v, &s->lo, &s->hi, v);
}

static void grow_info(struct explain *e)
{
	if (e->gi_alloc >= e->gs.n)
		return;
	size_t was = e->gi_alloc;
	e->gi_alloc = e->gs.n * 2;
	e->gi = xrealloc(e->gi, e->gi_alloc * sizeof(*e->gi));
	for (size_t i = was; i < e->gi_alloc; i++)
		e->gi[i] = (struct group_info){ -1, NAN };
}

static int carries(const struct explain *e, const struct share *s, enum comparison_verdict v)
{
	return explain_share_carries(e->metric == METRIC_TIME, e->gap, s->v, v);
}

/* One batch: the groups idx[0..n) built, verified, measured and recorded. */
static void search_batch(struct explain *e, struct explain_run *r, const size_t *idx, size_t n)
{
	size_t from = e->plan.n;
	settle(e, from);
	int *cells = xcalloc(n + 1, sizeof(int));
	for (size_t k = 0; k < n; k++)
		cells[k] = add_moved(e, r, e->way == EXPLAIN_WAY_B_WITHOUT, e->gs.g[idx[k]].from, e->gs.g[idx[k]].to);
	struct build_stats bs;
	if (build_batch(e, from, &bs) < 0 || fb_interrupted) {
		free(cells);
		return;
	}
	measure_batch(e, r, from);
	if (fb_interrupted) {
		free(cells);
		return; /* the batch is not recorded: --resume measures it again (its builds are cached) */
	}
	e->builds += n;
	for (size_t k = 0; k < n; k++) {
		struct share s;
		enum comparison_verdict v = VERDICT_NO_DATA;
		int bw = e->way == EXPLAIN_WAY_B_WITHOUT;
		moved_share(e, bw, cells[k], &s, &v);
		int same = explain_rep(e, cells[k]) == explain_rep(e, bw ? e->b : e->a);
		int ok = e->plan.cells[cells[k]].status == CELL_OK;
		size_t g = idx[k];
		gs_record(&e->gs, g, ok ? GS_MEASURED : GS_FAILED, s.v, s.lo, s.hi, same, ok && carries(e, &s, v));
		grow_info(e);
		e->gi[g].cell = cells[k];
		e->gi[g].value = e->val[explain_rep(e, cells[k])].v;
	}
	free(cells);
}

/* Searches the flags by halves, batch after batch, within the budget;
 * after every batch the journal and the partial answer are written. */
static void search(struct explain *e, struct explain_run *r, const struct explain_view *view)
{
	size_t *idx = xcalloc(e->gs.n * 2 + 2 * e->ncand + 2, sizeof(size_t));
	for (;;) {
		size_t waiting = gs_waiting(&e->gs, idx, e->gs.n);
		if (!waiting) {
			e->end = EXPLAIN_END_DONE;
			break;
		}
		if (fb_interrupted) {
			e->end = EXPLAIN_END_INTERRUPTED;
			break;
		}
		size_t n = explain_budget_admits(e, r, waiting);
		if (!n) {
			e->end = EXPLAIN_END_BUDGET;
			break;
		}
		search_batch(e, r, idx, n);
		if (fb_interrupted) {
			e->end = EXPLAIN_END_INTERRUPTED;
			break;
		}
		explain_progress(e, r);
		explain_journal_write(e, r);
		view->report(e, r, 0);
		idx = xrealloc(idx, (e->gs.n * 2 + 2) * sizeof(size_t));
	}
	free(idx);
}

static int by_score(const void *x, const void *y, void *ctx)
{
	const struct explain *e = ctx;
	double a = e->cand[e->gs.g[*(const size_t *)x].from].score, b = e->cand[e->gs.g[*(const size_t *)y].from].score;
	return a < b ? 1 : a > b ? -1 : 0;
}

/* The claim's order: each single flag's share the search's way; for ISA
 * extensions, where two or more carry, each is also built the other way
 * (B without it) in one batch where the budget buys it, which breaks
 * near-ties: -mf16c brings -mavx along as -mavx itself does. */
static void score_both_ways(struct explain *e, struct explain_run *r, const size_t *single, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		struct candidate *c = &e->cand[e->gs.g[single[k]].from];
		c->score = e->gs.g[single[k]].share;
	}
	if (n < 2 || e->way != EXPLAIN_WAY_A_WITH || e->end != EXPLAIN_END_DONE || explain_budget_admits(e, r, n) < n)
		return;
	size_t from = e->plan.n;
	settle(e, from);
	int other_bw = e->way != EXPLAIN_WAY_B_WITHOUT;
	for (size_t k = 0; k < n; k++) {
		size_t i = e->gs.g[single[k]].from;
		e->cand[i].other = add_moved(e, r, other_bw, i, i + 1);
	}
	struct build_stats bs;
	if (build_batch(e, from, &bs) < 0 || fb_interrupted)
		return;
	measure_batch(e, r, from);
	e->builds += n;
	for (size_t k = 0; k < n && !fb_interrupted; k++) {
		struct candidate *c = &e->cand[e->gs.g[single[k]].from];
		moved_share(e, other_bw, c->other, &c->other_share, NULL);
		/* the search's way first; the other way breaks near-ties (the
		 * extensions that bring the same ones along) */
		if (isfinite(c->other_share.v))
			c->score = e->gs.g[single[k]].share + 0.1 * c->other_share.v;
	}
}

/* The claim: single flags that carry, best first, at most --top and until
 * 90 % of the gap is covered; with two or more, checked by moving all of
 * them together. */
static void claim(struct explain *e, struct explain_run *r)
{
	size_t *single = xcalloc(e->gs.n + 1, sizeof(size_t)), n = 0;
	for (size_t i = 0; i < e->gs.n; i++)
		if (gs_answer(&e->gs, i) && e->gs.g[i].to - e->gs.g[i].from == 1)
			single[n++] = i;
	score_both_ways(e, r, single, n);
	qsort_r(single, n, sizeof(size_t), by_score, e);
	unsigned top = e->o->top ? e->o->top : 3;
	double covered = 0;
	for (size_t k = 0; k < n && k < top && covered < 0.9; k++) {
		sv_push(&e->selected, e->cand[e->gs.g[single[k]].from].name);
		covered += e->gs.g[single[k]].share;
	}
	if (e->selected.n == 1) {
		/* the claim's one flag was measured alone: that is its check */
		const struct gs_group *g = &e->gs.g[single[0]];
		e->check = e->gi[single[0]].cell;
		e->explained = (struct share){ g->share, g->lo, g->hi };
	} else if (e->selected.n >= 2 && e->end == EXPLAIN_END_DONE && !fb_interrupted && explain_budget_admits(e, r, 1)) {
		int bw = e->way == EXPLAIN_WAY_B_WITHOUT;
		struct strvec extra = STRVEC_INIT;
		struct strbuf cfg = STRBUF_INIT;
		sb_adds(&cfg, bw ? r->cb->config : r->ca->config);
		for (size_t k = 0; k < e->selected.n; k++) {
			const struct candidate *c = &e->cand[e->gs.g[single[k]].from];
			const char *f = bw ? c->toward_a : c->toward_b;
			sv_push(&extra, f);
			sb_addf(&cfg, " %s", f);
		}
		size_t from = e->plan.n;
		settle(e, from);
		e->check = add_cell(e, r, bw, cfg.buf, NULL, &extra);
		sb_release(&cfg);
		sv_clear(&extra);
		struct build_stats bs;
		if (build_batch(e, from, &bs) == 0 && !fb_interrupted)
			measure_batch(e, r, from);
		e->builds++;
		moved_share(e, bw, e->check, &e->explained, NULL);
	}
	if (fb_interrupted)
		e->end = EXPLAIN_END_INTERRUPTED;
	free(single);
}

/* ---- across compilers ---- */

/* A's compiler with B's flags (X) and B's with A's (Y), measured beside
 * A and B; the gap split both ways. */
static void cross(struct explain *e, struct explain_run *r)
{
	struct explain_cross *x = &e->cross;
	struct strvec fa = STRVEC_INIT, fb = STRVEC_INIT;
	flags_of(r->ca, &fa);
	flags_of(r->cb, &fb);
	x->same_flags = fa.n == fb.n;
	for (size_t i = 0; x->same_flags && i < fa.n; i++)
		x->same_flags = !strcmp(fa.v[i], fb.v[i]);
	sv_clear(&fa);
	sv_clear(&fb);
	x->x = e->a;
	x->y = e->b;
	if (!x->same_flags) {
		const char *ta = strchr(r->ca->config, '/'), *tb = strchr(r->cb->config, '/');
		char *cx = xasprintf("%s%s", or_empty(r->ca->compiler), tb ? tb : ""),
		     *cy = xasprintf("%s%s", or_empty(r->cb->compiler), ta ? ta : "");
		size_t from = e->plan.n;
		settle(e, from);
		x->x = add_cell_from(e, r, 0, 1, cx, NULL, NULL);
		x->y = add_cell_from(e, r, 1, 0, cy, NULL, NULL);
		free(cx);
		free(cy);
		struct build_stats bs;
		if (build_batch(e, from, &bs) == 0 && !fb_interrupted)
			measure_batch(e, r, from);
		e->builds += 2;
	}
	explain_share(e, e->a, x->y, &x->compiler_at_a.v, &x->compiler_at_a.lo, &x->compiler_at_a.hi, NULL);
	explain_share(e, x->y, e->b, &x->flags_in_b.v, &x->flags_in_b.lo, &x->flags_in_b.hi, NULL);
	explain_share(e, e->a, x->x, &x->flags_in_a.v, &x->flags_in_a.lo, &x->flags_in_a.hi, NULL);
	explain_share(e, x->x, e->b, &x->compiler_at_b.v, &x->compiler_at_b.lo, &x->compiler_at_b.hi, NULL);
	e->end = fb_interrupted ? EXPLAIN_END_INTERRUPTED : EXPLAIN_END_DONE;
}

static void init_explain(struct explain *e, const struct explain_opts *o)
{
	memset(e, 0, sizeof(*e));
	e->o = o;
	e->a = e->b = e->check = -1;
	e->explained = (struct share){ NAN, NAN, NAN };
	e->cross.x = e->cross.y = -1;
	struct share none = { NAN, NAN, NAN };
	e->cross.compiler_at_a = e->cross.flags_in_b = e->cross.flags_in_a = e->cross.compiler_at_b = none;
	e->build_s = e->measure_s = NAN;
	e->end = EXPLAIN_END_FAILED;
}

/* The end's exit code and last words. */
static int finish(struct explain *e, struct explain_run *r, const struct explain_view *view)
{
	if (e->mode != EXPLAIN_MODE_CROSS)
		explain_journal_write(e, r);
	int wr = view->report(e, r, 1);
	if (e->end == EXPLAIN_END_INTERRUPTED)
		fprintf(stderr, "flagbench: explain interrupted: the answer so far is in %s (flagbench explain --resume %s "
				"goes on)\n", r->out, r->out);
	else if (e->end == EXPLAIN_END_BUDGET)
		fprintf(stderr, "flagbench: explain: the budget is spent: the answer so far is in %s (flagbench explain "
				"--resume %s goes on)\n", r->out, r->out);
	return e->end == EXPLAIN_END_INTERRUPTED ? EXIT_INTERRUPTED : wr < 0 ? EXIT_CELL_FAILED : EXIT_ALL_OK;
}

int explain_main(const char *run, const char *id_a, const char *id_b, int argc, char **argv,
		 const struct explain_opts *o, const struct explain_view *view)
{
	int code = EXIT_USAGE;
	struct explain e;
	init_explain(&e, o);
	struct explain_run r;
	memset(&r, 0, sizeof(r));
	r.started = now_wall();
	format_utc_stamp(r.started, r.stamp, sizeof(r.stamp));
	r.argc = argc;
	r.argv = argv;
	struct explain_journal j;
	memset(&j, 0, sizeof(j));
	if (o->resume && explain_journal_read(o->resume, &j, &run, &id_a, &id_b) < 0)
		goto done;
	r.id_a = id_a;
	r.id_b = id_b;
	if (read_pair(&e, &r, run) < 0 || probe_compiler(&e, &r) < 0)
		goto done;
	install_interrupt_handler();
	int faster = b_is_faster(&e, &r);
	/* counts asked for: exact, they decide whether there is a gap, not
	 * the run's times (which a busy machine leaves undecided) */
	struct explain_opts oj = *o;
	if (o->resume && explain_journal_metric(&j, &oj) < 0)
		goto done;
	e.o = &oj;
	int counts_asked = oj.metric_asked && oj.metric == METRIC_INSTRUCTIONS;
	if (faster == 0 && (counts_asked || e.mode == EXPLAIN_MODE_CROSS) && e.not_faster) {
		/* across compilers the split is asked whichever is faster */
		sv_pushf(&e.notes, "%s%s", e.not_faster, counts_asked ? "; the instruction counts asked for decide" : "");
		free(e.not_faster);
		e.not_faster = NULL;
		faster = -1;
	}
	if (faster == 0) {
		/* nothing to attribute: the comparison's answer is the report */
		code = view->report(&e, &r, 1) < 0 ? EXIT_CELL_FAILED : EXIT_ALL_OK;
		goto done;
	}
	struct session_limits lim;
	session_limits_derive(&lim, oj.timeout, oj.build_timeout, 0);
	session_open(&e.session, oj.dry_run ? &executor_mock : &executor_hyperfine, oj.cache, oj.jobs, &lim);
	if (e.session.x->warning)
		sv_push(&e.notes, e.session.x->warning);
	if (choose_metric(&e, &oj, &r, faster) < 0 || find_candidates(&e, &r) < 0 || make_out_dir(&r, &oj) < 0)
		goto done;
	gs_init(&e.gs, e.ncand);
	grow_info(&e);
	if (o->resume && explain_journal_replay(&e, &j) < 0)
		goto done;
	explain_estimate(&e, &r);
	if (measure_pair(&e, &r) < 0) {
		code = fb_interrupted ? EXIT_INTERRUPTED : EXIT_CELL_FAILED;
		goto done;
	}
	if (e.mode == EXPLAIN_MODE_CROSS) {
		cross(&e, &r);
	} else if (isfinite(e.gap) && fabs(e.gap) > 1e-9) {
		search(&e, &r, view);
		claim(&e, &r);
	} else {
		e.end = EXPLAIN_END_DONE;
	}
	code = finish(&e, &r, view);
done:
	explain_journal_free(&j);
	free_explain(&e);
	free_run(&r);
	return code;
}
