/* explain.c: see explain.h.  Over 700 lines for a reason: its steps (read the
 * pair, ask the comparison, build, verify, count or schedule the timing,
 * attribute, check) all work on one struct explain and its plan, and split
 * apart each would need the whole of it. */
#define _GNU_SOURCE
#include "driver/explain.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "checks/check.h"
#include "core/runcmd.h"
#include "pipeline/build.h"
#include "analysis/compare.h"
#include "analysis/ddmin.h"
#include "pipeline/schedule.h"
#include "pipeline/records.h"
#include "pipeline/executor.h"
#include "results/reader.h"

/* The cflags of a cell, as the run built it. */
static void flags_of(const struct results_cell *cell, struct strvec *out)
{
	size_t i;
	json_t *f;
	json_array_foreach(cell->cflags, i, f)
		sv_push(out, json_string_value(f));
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
	c->without = c->with = -1;
	c->rem = c->rem_lo = c->rem_hi = c->add = c->add_lo = c->add_hi = c->score = NAN;
}

/* A plan cell built like the run's cell A (b_side 0) or B, planned
 * again as the run planned it, with the flags the run built it with plus
 * extra ones. */
static int add_cell(struct explain *e, const struct explain_run *r, int b_side, const char *config, const char *extra1,
		    const struct strvec *extra)
{
	int idx = plan_add_copy(&e->plan, &e->alloc, &r->rebuild.plan.cells[b_side ? r->pb : r->pa].spec);
	struct cell_spec *sp = &e->plan.cells[idx].spec;
	free(sp->config);
	free(sp->id);
	sp->config = xstrdup(config);
	sp->id = xasprintf("%s/%s@%s", sp->family->name, sp->variant->name, config);
	sv_clear(&sp->cflags);
	flags_of(b_side ? r->cb : r->ca, &sp->cflags);
	if (extra1)
		sv_push(&sp->cflags, extra1);
	if (extra)
		sv_pushv(&sp->cflags, extra->v);
	e->val = xrealloc(e->val, e->alloc * sizeof(*e->val));
	e->val[idx] = (struct metric_value){ NAN, NAN, NAN };
	return idx;
}

int explain_rep(const struct explain *e, int i)
{
	if (i < 0)
		return -1;
	const struct cell *c = &e->plan.cells[i];
	return c->build.same_binary_as >= 0 ? c->build.same_binary_as : i;
}

int explain_changes_something(const struct explain *e, const struct candidate *c)
{
	int same_b = c->without < 0 || explain_rep(e, c->without) == explain_rep(e, e->b);
	int same_a = c->with < 0 || explain_rep(e, c->with) == explain_rep(e, e->a);
	return !(same_a && same_b);
}

static int measurable(const struct explain *e, size_t i)
{
	const struct cell *c = &e->plan.cells[i];
	return c->status == CELL_PENDING && c->build.same_binary_as < 0;
}

/* Instructions per unit of distinct, verified binary i. */
static void count_cell(struct explain *e, size_t i)
{
	struct cell *c = &e->plan.cells[i];
	json_t *k = session_count(&e->session, c, e->counters);
	cell_counters_free(&c->measure.counters);
	cell_counters_from_json(&c->measure.counters, k);
	json_decref(k);
	const struct cell_counters *kc = &c->measure.counters;
	if (kc->state == COUNTERS_COUNTED && isfinite(kc->instructions_per_unit)) {
		double v = kc->instructions_per_unit;
		e->val[i] = (struct metric_value){ v, v, v };
		c->status = CELL_OK;
	} else {
		cell_set_status(c, CELL_UNSUPPORTED, "not counted: %s", kc->why ? kc->why : "no instruction count");
	}
}

/* Instructions per unit of every distinct, verified binary in [from, n). */
static void count_from(struct explain *e, size_t from)
{
	for (size_t i = from; i < e->plan.n && !fb_interrupted; i++)
		if (measurable(e, i))
			count_cell(e, i);
}

/* The cells of a time_cells schedule: those still pending or ok are timed. */
struct timing {
	struct explain *e;
	const int *list;
};

static int admit_timed(void *ctx, size_t k)
{
	const struct timing *t = ctx;
	enum cell_status st = t->e->plan.cells[t->list[k]].status;
	return st == CELL_PENDING || st == CELL_OK ? 0 : -1;
}

static void timed_done(void *ctx, size_t k, enum schedule_end end, double spent_s)
{
	(void)spent_s;
	struct timing *t = ctx;
	struct cell *c = &t->e->plan.cells[t->list[k]];
	const struct stats *s = &c->measure.time;
	if (end == SCHEDULE_MEASURED && s->n && !fb_interrupted) {
		c->status = CELL_OK;
		t->e->val[t->list[k]] = (struct metric_value){ s->median, s->ci_low, s->ci_high };
	}
}

/* Times every distinct, verified binary in the list through the
 * scheduler, in rounds in the list's order, so that drift (heat, other
 * load) spreads over all of them and each run has the round it pairs by;
 * a second schedule's rounds follow the first's. */
static void time_cells(struct explain *e, const int *list, size_t n, const char *work, const char *hyperfine)
{
	struct cell **cells = xcalloc(n + 1, sizeof(*cells));
	for (size_t k = 0; k < n; k++)
		cells[k] = &e->plan.cells[list[k]];
	struct timing t = { e, list };
	struct schedule_listed l = {
		.x = e->session.x,
		.hyperfine = hyperfine,
		.workdir = work,
		.run_timeout_s = e->o->timeout,
		.round_base = e->rounds_done,
		.runs = e->o->runs ? e->o->runs : 5,
		.warmup = e->o->warmup,
		.hooks = { .ctx = &t, .admit = admit_timed, .done = timed_done },
		.handoff = session_handoff(&e->session),
	};
	schedule_listed_run(cells, n, &l);
	e->rounds_done += l.runs;
	free(cells);
}

/* B / A of two plan cells' figures by the comparison (comparison.h):
 * times paired over the rounds they shared, counts as points. */
static int compare_cells(const struct explain *e, int a, int b, struct comparison_result *out)
{
	struct comparison_policy pol;
	compare_policy(&pol, 0, 0.5, 2000, 1, 0.95);
	struct cell *ca = &e->plan.cells[a], *cb = &e->plan.cells[b];
	if (e->metric != METRIC_INSTRUCTIONS)
		return compare_cell_groups(&ca, 1, &cb, 1, &pol, out);
	struct program_id pa, pb;
	program_id_from_cell(&pa, ca);
	program_id_from_cell(&pb, cb);
	int v = comparison_counts(e->val[a].v, e->val[b].v, &pa, &pb, &pol, out);
	program_id_clear(&pa);
	program_id_clear(&pb);
	return v;
}

/* ln(m(x) / m(y)) / gap with its interval, from the comparison of x to
 * y; *v NAN when they cannot be compared. */
static void share(const struct explain *e, int x, int y, double *v, double *lo, double *hi,
		  enum comparison_verdict *verdict)
{
	*v = *lo = *hi = NAN;
	if (verdict)
		*verdict = VERDICT_NO_DATA;
	int rx = explain_rep(e, x), ry = explain_rep(e, y);
	struct comparison_result c;
	if (rx < 0 || ry < 0 || !isfinite(e->val[rx].v) || !isfinite(e->val[ry].v) || !isfinite(e->gap) ||
	    e->gap == 0)
		return;
	if (rx == ry) {
		*v = *lo = *hi = 0; /* the same binary: no share */
		return;
	}
	if (compare_cells(e, ry, rx, &c) < 0)
		return;
	*v = log(c.ratio) / e->gap;
	double s1 = log(c.low) / e->gap, s2 = log(c.high) / e->gap;
	*lo = s1 < s2 ? s1 : s2;
	*hi = s1 < s2 ? s2 : s1;
	if (verdict)
		*verdict = c.verdict;
}

/* The gap ln(m(A) / m(B)), from the comparison of B to A. */
static void measure_gap(struct explain *e)
{
	struct comparison_result c;
	int ra = explain_rep(e, e->a), rb = explain_rep(e, e->b);
	e->gap = NAN;
	if (isfinite(e->val[ra].v) && isfinite(e->val[rb].v) && compare_cells(e, ra, rb, &c) == 0)
		e->gap = -log(c.ratio);
}

int explain_share_meaningless(double lo, double hi)
{
	return isfinite(lo) && isfinite(hi) && hi - lo > 1;
}

int explain_meaningless(const struct candidate *c)
{
	int rem = !isfinite(c->rem) || explain_share_meaningless(c->rem_lo, c->rem_hi);
	int add = !isfinite(c->add) || explain_share_meaningless(c->add_lo, c->add_hi);
	return rem && add && (isfinite(c->rem) || isfinite(c->add));
}

static int by_score(const void *x, const void *y)
{
	const struct candidate *a = x, *b = y;
	double sa = isfinite(a->score) ? a->score : -1e9, sb = isfinite(b->score) ? b->score : -1e9;
	return sa < sb ? 1 : sa > sb ? -1 : strcmp(a->name, b->name);
}

static void analyse(struct explain *e)
{
	measure_gap(e);
	for (size_t i = 0; i < e->ncand; i++) {
		struct candidate *c = &e->cand[i];
		if (c->without >= 0)
			share(e, c->without, e->b, &c->rem, &c->rem_lo, &c->rem_hi, &c->rem_v);
		if (c->with >= 0)
			share(e, e->a, c->with, &c->add, &c->add_lo, &c->add_hi, &c->add_v);
		if (isfinite(c->rem) && isfinite(c->add))
			c->score = (c->rem + c->add) / 2;
		else
			c->score = isfinite(c->rem) ? c->rem : c->add;
		e->unchanged += !explain_changes_something(e, c);
		e->meaningless += explain_changes_something(e, c) && explain_meaningless(c);
	}
	qsort(e->cand, e->ncand, sizeof(*e->cand), by_score);
	double covered = 0;
	unsigned top = e->o->top ? e->o->top : 3;
	for (size_t i = 0; i < e->ncand && e->selected.n < top && covered < 0.9; i++) {
		struct candidate *c = &e->cand[i];
		if (!isfinite(c->score) || c->score < 0.05)
			break;
		/* with times, a share is real only where the comparison says
		 * so: B without it slower than B, or A slower than A with it
		 * (for a gap the other way, faster) */
		enum comparison_verdict want = e->gap > 0 ? VERDICT_SLOWER : VERDICT_FASTER;
		int real = c->rem_v == want || c->add_v == want;
		if (e->metric == METRIC_TIME && (!real || explain_meaningless(c)))
			continue;
		sv_push(&e->selected, c->name);
		covered += c->score;
	}
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
	sv_clear(&e->notes);
	sv_clear(&e->selected);
	sv_clear(&e->joint);
	free(e->not_faster);
	/* the cells are copies: their compiler and family are rebuild's */
	plan_free_copies(&e->plan);
	session_close(&e->session);
}

static void free_run(struct explain_run *r)
{
	replan_free(&r->rebuild);
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

/* A and B from the run (the one reader checks it): one variant, one
 * compiler, native and without pgo, differing in exactly one of -O and
 * -march, which sets the mode; then both planned again as the run
 * planned them (driver/replan.h). */
static int read_pair(struct explain *e, struct explain_run *r, const char *run)
{
	if (results_open(run, &r->results) < 0)
		return -1;
	r->run = r->results.root;
	r->run_dir = xstrdup(r->results.dir);
	const struct results_cell *ca = r->ca = results_cell_by_id(&r->results, r->id_a),
				  *cb = r->cb = results_cell_by_id(&r->results, r->id_b);
	if (!ca || !cb)
		return error("no cell '%s' in %s (flagbench tables %s lists the cells)", !ca ? r->id_a : r->id_b,
			     r->results.file, r->run_dir);
	if (strcmp(ca->family, cb->family) || strcmp(ca->variant, cb->variant) ||
	    strcmp(or_empty(ca->compiler), or_empty(cb->compiler)) || ca->reference)
		return error("explain compares two builds of one variant with one compiler; %s and %s differ in %s",
			     r->id_a, r->id_b, strcmp(ca->variant, cb->variant) ? "variant" : "compiler");
	if (ca->emulated || json_is_object(json_object_get(ca->j, "pgo")) || json_is_object(json_object_get(cb->j, "pgo")))
		return error("explain works on native, non-pgo builds");
	int opt_differs = strcmp(or_empty(ca->opt), or_empty(cb->opt)) != 0;
	int march_differs = strcmp(or_empty(ca->march), or_empty(cb->march)) != 0;
	if (opt_differs == march_differs)
		return error(opt_differs ? "%s and %s differ in both -O level and -march: explain one difference at a time"
					 : "%s and %s differ in neither -O level nor -march: nothing for explain to attribute",
			     r->id_a, r->id_b);
	e->mode = opt_differs ? EXPLAIN_MODE_OPT : EXPLAIN_MODE_MARCH;
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

/* The run's compiler, as planned here; a different version is noted, not refused. */
static int probe_compiler(struct explain *e, const struct explain_run *r)
{
	const struct cell *pa = &r->rebuild.plan.cells[r->pa];
	const struct compiler *comp = pa->spec.compiler;
	if (pa->status == CELL_UNSUPPORTED)
		return error("%s cannot be built here: %s", pa->spec.id, pa->reason ? pa->reason : "unsupported");
	if (e->mode == EXPLAIN_MODE_OPT && comp->is_clang)
		return error("clang has no per-pass -O flags (its -O levels select pass pipelines that no flag names): "
			     "explain attributes only -march differences for clang");
	if (r->ca->compiler_version && comp->version && strcmp(r->ca->compiler_version, comp->version))
		sv_pushf(&e->notes, "the run was built with '%s', this explain with '%s'", r->ca->compiler_version,
			 comp->version);
	if (e->mode == EXPLAIN_MODE_MARCH && comp->is_clang)
		sv_push(&e->notes, "clang: -march attribution only (its -O levels have no per-pass flags)");
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

/* Cells A, B, then B without / A with each candidate flag, built (the cache
 * spares what the run already compiled) and verified. */
static int build_candidates(struct explain *e, struct explain_run *r)
{
	const struct compiler *comp = r->rebuild.plan.cells[r->pa].spec.compiler;
	const struct results_cell *ca = r->ca, *cb = r->cb;
	struct strvec fa = STRVEC_INIT, fb = STRVEC_INIT;
	struct flag_changes fc = { NULL, 0 };
	flags_of(ca, &fa);
	flags_of(cb, &fb);
	int found = e->mode == EXPLAIN_MODE_OPT ? flags_optimizer_changes(comp, &fa, &fb, &fc, &e->notes)
						: flags_isa_changes(comp, &fa, &fb, &fc, &e->notes);
	for (size_t i = 0; i < fc.n; i++)
		add_candidate(e, &fc.v[i]);
	free(fc.v);
	sv_clear(&fa);
	sv_clear(&fb);
	if (found < 0)
		return -1;
	fprintf(stderr, "flagbench: %zu candidate flags between %s and %s\n", e->ncand, r->id_a, r->id_b);
	e->a = add_cell(e, r, 0, ca->config, NULL, NULL);
	e->b = add_cell(e, r, 1, cb->config, NULL, NULL);
	for (size_t i = 0; i < e->ncand; i++) {
		struct candidate *c = &e->cand[i];
		char *cfg = xasprintf("%s %s", cb->config, c->toward_a);
		c->without = add_cell(e, r, 1, cfg, c->toward_a, NULL);
		free(cfg);
		cfg = xasprintf("%s %s", ca->config, c->toward_b);
		c->with = add_cell(e, r, 0, cfg, c->toward_b, NULL);
		free(cfg);
	}
	struct build_stats bs;
	if (session_build(&e->session, &e->plan, 0, &bs) < 0)
		return -1;
	for (size_t i = 0; i < e->plan.n; i++)
		e->distinct += e->plan.cells[i].build.binary && e->plan.cells[i].build.same_binary_as < 0;
	fprintf(stderr, "flagbench: %zu builds (compiled %u, cached %u, failed %u), %zu distinct binaries\n", e->plan.n,
		bs.compiled, bs.cached, bs.failed, e->distinct);
	session_verify_from(&e->session, &e->plan, 0);
	return 0;
}

/* --out, or RUN/explain-<start time>, with .work inside for hyperfine's files. */
static int make_out_dir(struct explain_run *r, const struct explain_opts *o)
{
	if (o->out) {
		r->out = xstrdup(o->out);
	} else {
		r->out = xasprintf("%s/explain-%s%s", r->run_dir, o->dry_run ? "dry-run-" : "", r->stamp);
	}
	r->work = xasprintf("%s/.work", r->out);
	if (mkdir_p(r->work, 0755) < 0)
		return error("cannot create %s: %s", r->work, strerror(errno));
	return 0;
}

/* Every distinct, verified binary: counted, or timed side by side. */
static void measure_all(struct explain *e, const struct explain_run *r)
{
	if (e->metric == METRIC_INSTRUCTIONS) {
		/* A and B first: where counting cannot run for both, time them all */
		for (int k = 0; k < 2; k++)
			if (measurable(e, (size_t)(k ? e->b : e->a)))
				count_cell(e, (size_t)(k ? e->b : e->a));
		struct cell *ca = &e->plan.cells[explain_rep(e, e->a)], *cb = &e->plan.cells[explain_rep(e, e->b)];
		const struct cell *bad = ca->status != CELL_OK ? ca : cb->status != CELL_OK ? cb : NULL;
		if (bad && r->hyperfine && !fb_interrupted) {
			sv_pushf(&e->notes, "metric: time (instructions could not be counted for %s: %s)", bad->spec.id,
				 bad->reason ? bad->reason : "no count");
			e->metric = METRIC_TIME;
			ca->status = cb->status = CELL_PENDING;
		} else {
			count_from(e, 0);
		}
	}
	if (e->metric == METRIC_TIME) {
		int *list = xcalloc(e->plan.n, sizeof(int));
		size_t n = 0;
		for (size_t i = 0; i < e->plan.n; i++)
			if (measurable(e, i))
				list[n++] = (int)i;
		time_cells(e, list, n, r->work, r->hyperfine);
		free(list);
	}
	twins_take_status(e, 0);
}

/* The check: B without every selected flag, built and measured. */
static void run_check(struct explain *e, struct explain_run *r)
{
	struct strvec extra = STRVEC_INIT;
	struct strbuf cfg = STRBUF_INIT;
	sb_adds(&cfg, r->cb->config);
	for (size_t i = 0; i < e->selected.n; i++)
		for (size_t k = 0; k < e->ncand; k++)
			if (!strcmp(e->cand[k].name, e->selected.v[i])) {
				sv_push(&extra, e->cand[k].toward_a);
				sb_addf(&cfg, " %s", e->cand[k].toward_a);
			}
	size_t from = e->plan.n;
	e->check = add_cell(e, r, 1, cfg.buf, NULL, &extra);
	sb_release(&cfg);
	sv_clear(&extra);
	/* earlier cells are final: only the check is built */
	for (size_t i = 0; i < from; i++)
		if (e->plan.cells[i].status == CELL_PENDING)
			e->plan.cells[i].status = CELL_OK;
	session_build(&e->session, &e->plan, from, NULL);
	session_verify_from(&e->session, &e->plan, from);
	if (e->metric == METRIC_INSTRUCTIONS) {
		count_from(e, from);
	} else if (measurable(e, (size_t)e->check)) {
		/* side by side with A and B again, whose new runs join theirs */
		int list[3] = { explain_rep(e, e->a), explain_rep(e, e->b), e->check };
		e->plan.cells[list[0]].status = e->plan.cells[list[1]].status = CELL_PENDING;
		time_cells(e, list, 3, r->work, r->hyperfine);
		e->plan.cells[list[0]].status = e->plan.cells[list[1]].status = CELL_OK;
		measure_gap(e);
	}
	twins_take_status(e, from);
	share(e, e->check, e->b, &e->explained, &e->explained_lo, &e->explained_hi, NULL);
}

/* ---- the flags that carry the gap together ---- */

struct joint_search {
	struct explain *e;
	struct explain_run *r;
};

static const struct candidate *candidate_named(const struct explain *e, const char *name)
{
	for (size_t i = 0; i < e->ncand; i++)
		if (!strcmp(e->cand[i].name, name))
			return &e->cand[i];
	return NULL;
}

/* The share of the gap that B loses without every flag of each subset:
 * built, checked and measured together (times beside A and B again). */
static void joint_shares(struct explain *e, struct explain_run *r, const struct strvec *subsets, size_t n, double *sh)
{
	size_t from = e->plan.n;
	int *cells = xcalloc(n + 1, sizeof(int));
	for (size_t i = 0; i < from; i++)
		if (e->plan.cells[i].status == CELL_PENDING)
			e->plan.cells[i].status = CELL_OK; /* earlier cells are final: only the new ones are built */
	for (size_t k = 0; k < n; k++) {
		struct strvec extra = STRVEC_INIT;
		struct strbuf cfg = STRBUF_INIT;
		sb_adds(&cfg, r->cb->config);
		for (size_t i = 0; i < subsets[k].n; i++) {
			const struct candidate *c = candidate_named(e, subsets[k].v[i]);
			sv_push(&extra, c->toward_a);
			sb_addf(&cfg, " %s", c->toward_a);
		}
		cells[k] = add_cell(e, r, 1, cfg.buf, NULL, &extra);
		sb_release(&cfg);
		sv_clear(&extra);
	}
	session_build(&e->session, &e->plan, from, NULL);
	session_verify_from(&e->session, &e->plan, from);
	if (e->metric == METRIC_INSTRUCTIONS) {
		count_from(e, from);
	} else {
		int *list = xcalloc(e->plan.n - from + 3, sizeof(int));
		size_t m = 0;
		list[m++] = explain_rep(e, e->a);
		list[m++] = explain_rep(e, e->b);
		for (size_t i = from; i < e->plan.n; i++)
			if (measurable(e, i))
				list[m++] = (int)i;
		e->plan.cells[list[0]].status = e->plan.cells[list[1]].status = CELL_PENDING;
		time_cells(e, list, m, r->work, r->hyperfine);
		e->plan.cells[list[0]].status = e->plan.cells[list[1]].status = CELL_OK;
		free(list);
		measure_gap(e);
	}
	twins_take_status(e, from);
	for (size_t k = 0; k < n; k++) {
		double lo, hi;
		share(e, cells[k], e->b, &sh[k], &lo, &hi, NULL);
	}
	free(cells);
}

static void joint_keeps(void *ctx, const struct strvec *subsets, size_t n, int *ok)
{
	struct joint_search *js = ctx;
	double *sh = xcalloc(n + 1, sizeof(double));
	joint_shares(js->e, js->r, subsets, n, sh);
	for (size_t k = 0; k < n; k++)
		ok[k] = isfinite(sh[k]) && sh[k] >= TUNE_KEEP;
	free(sh);
}

/* No single flag carries the gap: the smallest set that does together. */
static void joint_search(struct explain *e, struct explain_run *r)
{
	struct strvec all = STRVEC_INIT;
	for (size_t i = 0; i < e->ncand; i++)
		if (explain_changes_something(e, &e->cand[i]))
			sv_push(&all, e->cand[i].name);
	e->joint_from = all.n;
	if (all.n < 2) {
		sv_clear(&all);
		return;
	}
	if (e->selected.n)
		fprintf(stderr, "flagbench: the claim explains %.0f%% of the gap: searching the smallest set of the %zu flags "
				"that carries it together\n", e->explained * 100, all.n);
	else
		fprintf(stderr, "flagbench: no single flag carries the gap: searching the smallest set of the %zu flags that "
				"carries it together\n", all.n);
	joint_shares(e, r, &all, 1, &e->all_share);
	if (isfinite(e->all_share) && e->all_share >= TUNE_KEEP && !fb_interrupted) {
		struct joint_search js = { e, r };
		tune_ddmin(&all, joint_keeps, &js, &e->joint, &e->joint_steps);
		double sh = NAN;
		if (e->joint.n && !fb_interrupted)
			joint_shares(e, r, &e->joint, 1, &sh);
		e->joint_share = sh;
	}
	sv_clear(&all);
}

int explain_main(const char *run, const char *id_a, const char *id_b, int argc, char **argv,
		 const struct explain_opts *o, const struct explain_view *view)
{
	int code = EXIT_USAGE;
	struct explain e;
	memset(&e, 0, sizeof(e));
	e.o = o;
	e.a = e.b = e.check = -1;
	e.explained = e.explained_lo = e.explained_hi = NAN;
	e.joint_share = e.all_share = NAN;
	struct explain_run r;
	memset(&r, 0, sizeof(r));
	r.started = now_wall();
	format_utc_stamp(r.started, r.stamp, sizeof(r.stamp));
	r.id_a = id_a;
	r.id_b = id_b;
	r.argc = argc;
	r.argv = argv;
	if (read_pair(&e, &r, run) < 0 || probe_compiler(&e, &r) < 0)
		goto done;
	install_interrupt_handler();
	int faster = b_is_faster(&e, &r);
	/* counts asked for: exact, they decide whether there is a gap, not
	 * the run's times (which a busy machine leaves undecided) */
	int counts_asked = o->metric_asked && o->metric == METRIC_INSTRUCTIONS;
	if (faster == 0 && counts_asked && e.not_faster) {
		sv_pushf(&e.notes, "%s; the instruction counts asked for decide", e.not_faster);
		free(e.not_faster);
		e.not_faster = NULL;
		faster = -1;
	}
	if (faster == 0) {
		/* nothing to attribute: the comparison's answer is the report */
		code = view->report(&e, &r) < 0 ? EXIT_CELL_FAILED : EXIT_ALL_OK;
		goto done;
	}
	struct session_limits lim;
	session_limits_derive(&lim, o->timeout, o->build_timeout, 0);
	session_open(&e.session, o->dry_run ? &executor_mock : &executor_hyperfine, o->cache, o->jobs, &lim);
	if (e.session.x->warning)
		sv_push(&e.notes, e.session.x->warning);
	if (choose_metric(&e, o, &r, faster) < 0)
		goto done;
	if (build_candidates(&e, &r) < 0 || make_out_dir(&r, o) < 0)
		goto done;
	measure_all(&e, &r);
	if (e.plan.cells[e.a].status != CELL_OK || e.plan.cells[e.b].status != CELL_OK) {
		const struct cell *bad = e.plan.cells[e.a].status != CELL_OK ? &e.plan.cells[e.a] : &e.plan.cells[e.b];
		error("%s: %s: %s", bad->spec.id, cell_status_name(bad->status), bad->reason ? bad->reason : "");
		code = fb_interrupted ? EXIT_INTERRUPTED : EXIT_CELL_FAILED;
		goto done;
	}
	analyse(&e);
	if (e.selected.n && isfinite(e.gap) && !fb_interrupted)
		run_check(&e, &r);
	if (isfinite(e.gap) && fabs(e.gap) > 1e-9 && !fb_interrupted &&
	    (!e.selected.n || !isfinite(e.explained) || e.explained < TUNE_KEEP))
		joint_search(&e, &r);
	int wr = view->report(&e, &r);
	code = fb_interrupted ? EXIT_INTERRUPTED : wr < 0 ? EXIT_CELL_FAILED : EXIT_ALL_OK;
done:
	free_explain(&e);
	free_run(&r);
	return code;
}
