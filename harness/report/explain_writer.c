/* explain_writer.c: see explain_writer.h */
#define _GNU_SOURCE
#include "report/explain_writer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json_util.h"
#include "core/runcmd.h"
#include "results/results.h"

static const char *metric_unit(const struct explain *e)
{
	return e->metric == METRIC_TIME ? "s" : "instr/unit";
}

static void format_value(const struct explain *e, int cell, char *buf, size_t n)
{
	int r = explain_rep(e, cell);
	if (r < 0) {
		snprintf(buf, n, "-");
		return;
	}
	const struct cell *c = &e->plan.cells[cell];
	if (c->status != CELL_OK && c->status != CELL_PENDING) {
		snprintf(buf, n, "%s", cell_status_name(c->status));
		return;
	}
	if (!isfinite(e->val[r].v))
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, e->val[r].v >= 1000 ? "%.0f %s%s" : "%.4g %s%s", e->val[r].v, metric_unit(e),
			 r == explain_rep(e, e->b) && cell != e->b   ? " (=B)"
			 : r == explain_rep(e, e->a) && cell != e->a ? " (=A)"
								     : "");
}

static void format_share(const struct explain *e, double v, double lo, double hi, char *buf, size_t n)
{
	if (!isfinite(v))
		snprintf(buf, n, "-");
	else if (e->metric == METRIC_TIME && isfinite(lo) && isfinite(hi) && explain_share_meaningless(lo, hi))
		snprintf(buf, n, "too noisy [%.0f%%, %.0f%%]", lo * 100, hi * 100);
	else if (e->metric == METRIC_TIME && isfinite(lo) && isfinite(hi))
		snprintf(buf, n, "%.0f%% [%.0f%%, %.0f%%]", v * 100, lo * 100, hi * 100);
	else
		snprintf(buf, n, "%.0f%%", v * 100);
}

/* The search's way, and the other one, as a table says them. */
static const char *way_words(const struct explain *e, int other)
{
	return (e->way == EXPLAIN_WAY_B_WITHOUT) != (other != 0) ? "B without" : "A with";
}

static const char *metric_words(const struct explain *e)
{
	return e->metric == METRIC_TIME ? "median time per run (hyperfine, interleaved)"
	       : e->counters == COUNTERS_CALLGRIND ? "instructions per unit (callgrind: deterministic)"
						   : "instructions per unit (perf)";
}

/* The flags [from, to) of the search's order, as `a`, `b`, ... */
static void group_names(const struct explain *e, size_t from, size_t to, struct strbuf *sb)
{
	for (size_t i = from; i < to; i++)
		sb_addf(sb, "%s`%s`", i > from ? ", " : "", e->cand[i].name);
}

static void format_group_value(const struct explain *e, size_t g, char *buf, size_t n)
{
	int cell = e->gi[g].cell;
	if (cell >= 0) {
		format_value(e, cell, buf, n);
		return;
	}
	double v = e->gi[g].value;
	if (isfinite(v))
		snprintf(buf, n, v >= 1000 ? "%.0f %s" : "%.4g %s", v, metric_unit(e));
	else
		snprintf(buf, n, "-");
}

static const char *end_words(enum explain_end end)
{
	switch (end) {
	case EXPLAIN_END_DONE:
		return "complete";
	case EXPLAIN_END_BUDGET:
		return "partial: the budget is spent";
	case EXPLAIN_END_INTERRUPTED:
		return "partial: interrupted";
	case EXPLAIN_END_FAILED:
		break;
	}
	return "partial";
}

/* The search's groups, one row each, in the order they were measured. */
static void groups_md(const struct explain *e, struct strbuf *md)
{
	sb_addf(md, "| flags | %s them | share of the gap | finding |\n| --- | --- | ---: | --- |\n", way_words(e, 0));
	for (size_t i = 0; i < e->gs.n; i++) {
		const struct gs_group *g = &e->gs.g[i];
		if (g->state == GS_WAITING)
			continue;
		struct strbuf names = STRBUF_INIT;
		if (g->to - g->from > 4) {
			sb_addf(&names, "%zu flags: `%s` .. `%s`", g->to - g->from, e->cand[g->from].name,
				e->cand[g->to - 1].name);
		} else {
			group_names(e, g->from, g->to, &names);
		}
		char v[64], sh[64];
		format_group_value(e, i, v, sizeof(v));
		format_share(e, g->share, g->lo, g->hi, sh, sizeof(sh));
		const char *finding = g->state == GS_FAILED ? "could not be built, checked or measured"
				      : g->unchanged      ? (e->way == EXPLAIN_WAY_B_WITHOUT ? "change nothing (B's own binary)"
											      : "change nothing (A's own binary)")
				      : gs_answer(&e->gs, i) && g->to - g->from == 1 ? "carries the gap"
				      : gs_answer(&e->gs, i) ? "carry it together (neither half does)"
				      : g->carries ? "carry the gap: split in halves"
						   : "cleared (less than 5 %, or not real)";
		sb_addf(md, "| %s | %s | %s | %s%s |\n", names.buf, v, sh, finding,
			i < e->resumed ? " (resumed)" : "");
		sb_release(&names);
	}
	sb_adds(md, "\n");
}

/* Which flags are tested, cleared, unchanged, left. */
static void tally_md(const struct explain *e, struct strbuf *md)
{
	size_t tested = 0, unchanged = 0, cleared = 0;
	struct strbuf left = STRBUF_INIT;
	for (size_t i = 0; i < e->ncand; i++) {
		int g = explain_group_of(e, i);
		tested += g >= 0;
		if (g < 0)
			continue;
		const struct gs_group *gg = &e->gs.g[g];
		unchanged += gg->unchanged;
		cleared += !gg->unchanged && !gg->carries;
		if (gg->carries && gg->to - gg->from > 1 && !gs_answer(&e->gs, (size_t)g))
			sb_addf(&left, "%s`%s`", left.len ? ", " : "", e->cand[i].name);
	}
	sb_addf(md, "%zu candidate flags, %zu tested in %zu builds (a full explanation one flag at a time needs %zu): "
		    "%zu change nothing, %zu more cleared in groups.\n\n",
		e->ncand, tested, e->builds, e->ncand + 1, unchanged, cleared);
	if (left.len)
		sb_addf(md, "**Left**: %s are in a group that carries the gap and is not yet narrowed down.\n\n", left.buf);
	sb_release(&left);
}

static void claim_md(const struct explain *e, struct strbuf *md)
{
	if (!e->selected.n) {
		sb_adds(md, e->end == EXPLAIN_END_DONE ? "**Answer**: no single flag carries 5 % or more of the gap.\n\n"
						       : "**Answer so far**: no single flag found yet (the gap is in the flags left).\n\n");
	} else {
		struct strbuf names = STRBUF_INIT;
		for (size_t i = 0; i < e->selected.n; i++)
			sb_addf(&names, "%s`%s`", i ? ", " : "", e->selected.v[i]);
		char ex[192] = "not measured";
		if (e->check >= 0 || isfinite(e->explained.v)) {
			char v[64] = "-";
			if (e->check >= 0)
				format_value(e, e->check, v, sizeof(v));
			const struct share *x = &e->explained;
			if (e->metric == METRIC_TIME && explain_share_meaningless(x->lo, x->hi))
				snprintf(ex, sizeof(ex), "%s; time cannot tell how much of the gap [%.0f%%, %.0f%%]", v, x->lo * 100,
					 x->hi * 100);
			else if (e->metric == METRIC_TIME && isfinite(x->lo))
				snprintf(ex, sizeof(ex), "%s, %.0f%% of the gap [%.0f%%, %.0f%%]", v, x->v * 100, x->lo * 100,
					 x->hi * 100);
			else if (isfinite(x->v))
				snprintf(ex, sizeof(ex), "%s, %.0f%% of the gap", v, x->v * 100);
		}
		sb_addf(md, "**%s**: %s carr%s most of the speedup. Check: %s %s: %s.\n\n",
			e->end == EXPLAIN_END_DONE ? "Answer" : "Answer so far", names.buf, e->selected.n > 1 ? "y" : "ies",
			way_words(e, 0), e->selected.n > 1 ? "them" : "it", ex);
		sb_release(&names);
	}
	struct strbuf all = STRBUF_INIT;
	size_t single = 0;
	for (size_t i = 0; i < e->gs.n; i++)
		if (gs_answer(&e->gs, i) && e->gs.g[i].to - e->gs.g[i].from == 1)
			sb_addf(&all, "%s`%s`", single++ ? ", " : "", e->cand[e->gs.g[i].from].name);
	if (single > e->selected.n && e->gs.g[0].state == GS_MEASURED)
		sb_addf(md, "**All that carry**: %zu flags carry the gap each (%s); %s every candidate flag: %.0f%% of "
			    "the gap.\n\n",
			single, all.buf, way_words(e, 0), e->gs.g[0].share * 100);
	sb_release(&all);
	int back = 0;
	for (size_t i = 0; i < e->ncand; i++)
		back |= e->cand[i].other >= 0;
	if (back) {
		sb_addf(md, "The extensions that carry it, each built both ways (the other way breaks near-ties):\n\n"
			    "| flag | share: %s it | %s it | share |\n| --- | ---: | --- | ---: |\n",
			way_words(e, 0), way_words(e, 1));
		for (size_t i = 0; i < e->ncand; i++) {
			const struct candidate *c = &e->cand[i];
			int g = explain_group_of(e, i);
			if (c->other < 0 || g < 0)
				continue;
			char s1[64], s2[64], w[64];
			format_share(e, e->gs.g[g].share, e->gs.g[g].lo, e->gs.g[g].hi, s1, sizeof(s1));
			format_share(e, c->other_share.v, c->other_share.lo, c->other_share.hi, s2, sizeof(s2));
			format_value(e, c->other, w, sizeof(w));
			sb_addf(md, "| `%s` | %s | %s (`%s`) | %s |\n", c->name, s1, w,
				e->way == EXPLAIN_WAY_B_WITHOUT ? c->toward_b : c->toward_a, s2);
		}
		sb_adds(md, "\n");
	}
	for (size_t i = 0; i < e->gs.n; i++) {
		const struct gs_group *g = &e->gs.g[i];
		if (!gs_answer(&e->gs, i) || g->to - g->from < 2)
			continue;
		struct strbuf names = STRBUF_INIT;
		group_names(e, g->from, g->to, &names);
		sb_addf(md, "**Together**: %s carry %.0f%% of the gap (%s them), while neither half of them does.\n\n",
			names.buf, g->share * 100, way_words(e, 0));
		sb_release(&names);
	}
	if (e->gs.n && e->gs.g[0].state == GS_MEASURED && !e->gs.g[0].carries) {
		const struct gs_group *root = &e->gs.g[0];
		if (root->share >= 0.05)
			/* moved, but not by a move the comparison calls real: say so, never "little closer" */
			sb_addf(md, "**Together**: %s all %zu flags moves %.0f%% of the gap [%.0f%%, %.0f%%], a move these "
				    "times cannot call real: measure with more runs (or --metric instructions) before "
				    "reading it either way.\n\n",
				way_words(e, 0), e->ncand, root->share * 100, root->lo * 100, root->hi * 100);
		else
			sb_addf(md, "**Together**: %s all %zu flags is %s: the gap comes from what no flag names (the -O "
				    "level's --param values, or pass order).\n\n",
				way_words(e, 0), e->ncand, root->share > 0 ? "little closer" : "no closer");
	}
}

/* Two compilers: the gap split both ways. */
static void cross_md(const struct explain *e, struct strbuf *md)
{
	const struct explain_cross *x = &e->cross;
	const struct cell *a = &e->plan.cells[e->a], *b = &e->plan.cells[e->b];
	const char *ca = a->spec.compiler->name, *cb = b->spec.compiler->name;
	char s1[64], s2[64], s3[64], s4[64], vx[64], vy[64];
	format_share(e, x->compiler_at_a.v, x->compiler_at_a.lo, x->compiler_at_a.hi, s1, sizeof(s1));
	format_share(e, x->flags_in_b.v, x->flags_in_b.lo, x->flags_in_b.hi, s2, sizeof(s2));
	format_share(e, x->flags_in_a.v, x->flags_in_a.lo, x->flags_in_a.hi, s3, sizeof(s3));
	format_share(e, x->compiler_at_b.v, x->compiler_at_b.lo, x->compiler_at_b.hi, s4, sizeof(s4));
	if (x->same_flags) {
		const char *flags = strchr(a->spec.config, '/');
		sb_addf(md, "A and B have the same flags: the whole gap is the compiler's (%s against %s at `%s`): %s.\n\n", ca,
			cb, flags ? flags + 1 : a->spec.config, s1);
		if (e->metric == METRIC_TIME && explain_share_meaningless(x->compiler_at_a.lo, x->compiler_at_a.hi))
			sb_addf(md, "**Answer**: A and B differ only in the compiler, and these times cannot tell a gap between %s "
				    "and %s (its interval spans more than the gap itself).\n\n", ca, cb);
		else
			sb_addf(md, "**Answer**: the compiler carries the gap: %s is %.3gx %s than %s at the same flags.\n\n", cb,
				exp(fabs(e->gap)), e->gap >= 0 ? "better" : "worse", ca);
		return;
	}
	format_value(e, x->x, vx, sizeof(vx));
	format_value(e, x->y, vy, sizeof(vy));
	sb_addf(md, "X: %s with B's flags (%s); Y: %s with A's flags (%s).\n\n", ca, vx, cb, vy);
	sb_adds(md, "| step | cells | share of the gap |\n| --- | --- | ---: |\n");
	sb_addf(md, "| the compiler at A's flags | A / Y (%s to %s) | %s |\n", ca, cb, s1);
	sb_addf(md, "| then the flags within %s | Y / B | %s |\n", cb, s2);
	sb_addf(md, "| the flags within %s | A / X | %s |\n", ca, s3);
	sb_addf(md, "| then the compiler at B's flags | X / B (%s to %s) | %s |\n\n", ca, cb, s4);
	double comp = NAN;
	if (isfinite(x->compiler_at_a.v) && isfinite(x->compiler_at_b.v))
		comp = (x->compiler_at_a.v + x->compiler_at_b.v) / 2;
	int noisy = e->metric == METRIC_TIME && (explain_share_meaningless(x->compiler_at_a.lo, x->compiler_at_a.hi) ||
						 explain_share_meaningless(x->compiler_at_b.lo, x->compiler_at_b.hi));
	if (isfinite(comp) && noisy)
		sb_adds(md, "**Answer**: these times cannot tell the compiler's part from the flags' (an interval spans more "
			    "than the whole gap).\n\n");
	else if (isfinite(comp))
		sb_addf(md, "**Answer**: the compiler carries about %.0f%% of the gap, the flags about %.0f%% (the mean of the "
			    "two ways).\n\n",
			comp * 100, (1 - comp) * 100);
}

/* The report as Markdown (also printed on stdout). */
static void report_md(const struct explain *e, struct strbuf *md)
{
	const struct cell *a = &e->plan.cells[e->a], *b = &e->plan.cells[e->b];
	char va[64], vb[64];
	format_value(e, e->a, va, sizeof(va));
	format_value(e, e->b, vb, sizeof(vb));
	sb_addf(md, "# Why %s/%s is faster: %s (A) vs %s (B)\n\n", a->spec.family->name, a->spec.variant->name,
		a->spec.config, b->spec.config);
	sb_addf(md, "Metric: %s. A: %s, B: %s", metric_words(e), va, vb);
	if (isfinite(e->gap))
		sb_addf(md, ": B is %.3gx %s.\n\n", exp(fabs(e->gap)), e->gap >= 0 ? "better" : "worse");
	else
		sb_adds(md, ".\n\n");
	sb_addf(md, "State: %s.\n\n", end_words(e->end));
	if (e->mode == EXPLAIN_MODE_CROSS) {
		cross_md(e, md);
	} else if (!isfinite(e->gap) || fabs(e->gap) < 1e-9) {
		sb_adds(md, "**Answer**: A and B do not differ in this metric: nothing to explain.\n\n");
	} else {
		tally_md(e, md);
		groups_md(e, md);
		claim_md(e, md);
	}
	for (size_t i = 0; i < e->notes.n; i++)
		sb_addf(md, "- %s\n", e->notes.v[i]);
}

static json_t *share_json(const struct share *s)
{
	return json_pack("{s:o, s:[o, o]}", "share", jnum_or_null(s->v), "share_ci95", jnum_or_null(s->lo),
			 jnum_or_null(s->hi));
}

static json_t *cross_json(const struct explain *e)
{
	const struct explain_cross *x = &e->cross;
	const struct plan *p = &e->plan;
	return json_pack("{s:b, s:o, s:o, s:o, s:o, s:o, s:o}", "same_flags", x->same_flags, "x",
			 x->x < 0 ? json_null() : json_string(p->cells[x->x].spec.id), "y",
			 x->y < 0 ? json_null() : json_string(p->cells[x->y].spec.id), "compiler_at_a",
			 share_json(&x->compiler_at_a), "flags_in_b", share_json(&x->flags_in_b), "flags_in_a",
			 share_json(&x->flags_in_a), "compiler_at_b", share_json(&x->compiler_at_b));
}

/* A candidate's finding: its smallest measured group says it. */
static const char *candidate_finding(const struct explain *e, size_t i)
{
	int g = explain_group_of(e, i);
	if (g < 0)
		return "untested";
	const struct gs_group *gg = &e->gs.g[g];
	return gg->state == GS_FAILED		? "failed"
	       : gg->unchanged		? "changes nothing"
	       : gs_answer(&e->gs, (size_t)g) ? (gg->to - gg->from == 1 ? "carries" : "carries together")
	       : gg->carries		? "in a carrying group"
					: "cleared";
}

static json_t *explain_json(const struct explain *e)
{
	const struct plan *p = &e->plan;
	json_t *cands = json_array(), *groups = json_array(), *left = json_array();
	size_t unchanged = 0;
	for (size_t i = 0; i < e->ncand; i++) {
		const struct candidate *c = &e->cand[i];
		int g = explain_group_of(e, i);
		const char *finding = candidate_finding(e, i);
		unchanged += !strcmp(finding, "changes nothing");
		json_t *j = json_pack("{s:s, s:s, s:s, s:s, s:b}", "flag", c->name, "toward_a", c->toward_a, "toward_b",
				      c->toward_b, "finding", finding, "selected", 0);
		for (size_t k = 0; k < e->selected.n; k++)
			if (!strcmp(e->selected.v[k], c->name))
				json_object_set_new(j, "selected", json_true());
		/* alone: this flag moved the search's way */
		const struct gs_group *gg = g >= 0 ? &e->gs.g[g] : NULL;
		json_object_set_new(j, "alone",
				    !gg || gg->to - gg->from != 1
					    ? json_null()
					    : json_pack("{s:o, s:o, s:o, s:[o, o]}", "cell",
							e->gi[g].cell >= 0 ? json_string(p->cells[e->gi[g].cell].spec.id) : json_null(),
							"value", jnum_or_null(e->gi[g].value), "share", jnum_or_null(gg->share),
							"share_ci95", jnum_or_null(gg->lo), jnum_or_null(gg->hi)));
		json_object_set_new(j, "other_way",
				    c->other < 0 ? json_null()
						 : json_pack("{s:s, s:o, s:o, s:[o, o]}", "cell", p->cells[c->other].spec.id,
							     "value", jnum_or_null(e->val[explain_rep(e, c->other)].v), "share",
							     jnum_or_null(c->other_share.v), "share_ci95",
							     jnum_or_null(c->other_share.lo), jnum_or_null(c->other_share.hi)));
		json_object_set_new(j, "score", jnum_or_null(c->score));
		json_array_append_new(cands, j);
		if (!strcmp(finding, "in a carrying group") || !strcmp(finding, "untested"))
			json_array_append_new(left, json_string(c->name));
	}
	for (size_t i = 0; i < e->gs.n; i++) {
		const struct gs_group *g = &e->gs.g[i];
		json_t *flags = json_array();
		for (size_t k = g->from; k < g->to; k++)
			json_array_append_new(flags, json_string(e->cand[k].name));
		json_array_append_new(groups, json_pack("{s:o, s:s, s:o, s:[o, o], s:b, s:b, s:b, s:o, s:b}", "flags", flags,
							"state",
							g->state == GS_WAITING	  ? "waiting"
							: g->state == GS_MEASURED ? "measured"
										  : "failed",
							"share", jnum_or_null(g->share), "share_ci95", jnum_or_null(g->lo),
							jnum_or_null(g->hi), "unchanged", g->unchanged, "carries", g->carries,
							"answer", gs_answer(&e->gs, i), "value", jnum_or_null(e->gi[i].value),
							"resumed", i < e->resumed));
	}
	json_t *root = json_pack(
		"{s:s, s:s, s:s, s:s, s:s, s:o, s:o, s:o, s:I, s:I, s:o, s:o, s:o, s:s, s:o, s:I, s:I, s:o}", "a",
		p->cells[e->a].spec.id, "b", p->cells[e->b].spec.id, "mode",
		e->mode == EXPLAIN_MODE_OPT ? "optimizer flags" : e->mode == EXPLAIN_MODE_MARCH ? "isa extensions"
												: "compilers",
		"metric", e->metric == METRIC_TIME ? "time_s" : "instructions_per_unit", "counter_source",
		e->metric == METRIC_TIME ? "hyperfine" : e->counters == COUNTERS_CALLGRIND ? "callgrind" : "perf", "value_a",
		jnum_or_null(e->val[explain_rep(e, e->a)].v), "value_b", jnum_or_null(e->val[explain_rep(e, e->b)].v),
		"gap_ln", jnum_or_null(e->gap), "builds", (json_int_t)e->builds, "unchanged_flags", (json_int_t)unchanged,
		"candidates", cands, "groups", groups, "selected", jstrvec(&e->selected), "state",
		e->end == EXPLAIN_END_DONE ? "complete" : e->end == EXPLAIN_END_BUDGET ? "budget" : "interrupted", "left",
		left, "full_builds", (json_int_t)(e->ncand + 1), "estimated_builds", (json_int_t)e->est_low, "notes",
		jstrvec(&e->notes));
	json_object_set_new(root, "check",
			    e->check < 0 && !isfinite(e->explained.v)
				    ? json_null()
				    : json_pack("{s:o, s:o, s:o, s:[o, o]}", "cell",
						e->check >= 0 ? json_string(p->cells[e->check].spec.id) : json_null(), "value",
						e->check >= 0 ? jnum_or_null(e->val[explain_rep(e, e->check)].v) : json_null(),
						"explained", jnum_or_null(e->explained.v), "explained_ci95",
						jnum_or_null(e->explained.lo), jnum_or_null(e->explained.hi)));
	json_object_set_new(root, "way", json_string(e->way == EXPLAIN_WAY_B_WITHOUT ? "b_without" : "a_with"));
	if (e->mode == EXPLAIN_MODE_CROSS)
		json_object_set_new(root, "cross", cross_json(e));
	return root;
}

/* Writes results.json (cells of the explain run plus "explain") and explain.md. */
static int write_outputs(const struct explain *e, const char *dir, const struct results_run *run, const char *run_dir,
			 json_t *argv_json, double started, const char *stamp, const struct strbuf *md)
{
	struct suite suite;
	memset(&suite, 0, sizeof(suite));
	suite.name = (char *)"explain";
	suite.path = xasprintf("%s/results.json", run_dir);
	struct cpu_profile prof;
	memset(&prof, 0, sizeof(prof));
	const char *pname = run->cpu_profile;
	prof.name = (char *)(pname ? pname : "");
	struct run_state rs;
	memset(&rs, 0, sizeof(rs));
	rs.id = xasprintf("%s-explain-%s", stamp, prof.name);
	rs.dir = (char *)dir;
	rs.started_wall = started;
	rs.finished_wall = now_wall();
	rs.interrupted = fb_interrupted != 0;
	rs.finished = e->end == EXPLAIN_END_DONE;
	rs.argv = argv_json;
	/* the new record carries the measured run's host, tools and profile */
	results_run_provenance(run, &rs.host, &rs.tools, &rs.profile);
	rs.suite = &suite;
	rs.cpu_profile = &prof;
	rs.plan = (struct plan *)&e->plan; /* results_to_json only reads it */
	sv_pushf(&rs.warnings, "explain of %s: the machine's load during this run shapes the times; "
			       "instruction counts do not depend on it", run_dir);
	json_t *doc = results_to_json(&rs);
	json_object_set_new(doc, "explain", explain_json(e));
	char *text = json_dumps(doc, JSON_INDENT(1) | JSON_SORT_KEYS | JSON_REAL_PRECISION(10));
	json_decref(doc);
	char *path = xasprintf("%s/results.json", dir);
	struct strbuf sb = STRBUF_INIT;
	sb_adds(&sb, text ? text : "{}");
	sb_adds(&sb, "\n");
	int r = write_file_atomic(path, sb.buf, sb.len);
	free(path);
	sb_release(&sb);
	free(text);
	path = xasprintf("%s/explain.md", dir);
	if (write_file_atomic(path, md->buf, md->len) < 0)
		r = -1;
	free(path);
	free(rs.id);
	free(suite.path);
	json_decref(rs.host);
	json_decref(rs.tools);
	json_decref(rs.profile);
	sv_clear(&rs.warnings);
	return r;
}

int explain_report(const struct explain *e, const struct explain_run *r, int final)
{
	if (e->not_faster) {
		/* the comparison's answer, and nothing built or measured to write */
		printf("%s: nothing to attribute.\n", e->not_faster);
		return 0;
	}
	struct strbuf md = STRBUF_INIT;
	report_md(e, &md);
	if (final)
		fputs(md.buf, stdout);
	json_t *argv_json = json_array();
	json_array_append_new(argv_json, json_string("flagbench"));
	for (int i = 0; i < r->argc; i++)
		json_array_append_new(argv_json, json_string(r->argv[i]));
	int wr = write_outputs(e, r->out, &r->results, r->run_dir, argv_json, r->started, r->stamp, &md);
	sb_release(&md);
	json_decref(argv_json);
	if (final)
		fprintf(stderr, "flagbench: explain in %s/explain.md and %s/results.json\n", r->out, r->out);
	return wr;
}
