/* explain_writer.c: see explain_writer.h */
#define _GNU_SOURCE
#include "report/explain_writer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/ddmin.h"
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

/* The report as Markdown (also printed on stdout). */
static void report_md(const struct explain *e, struct strbuf *md)
{
	const struct cell *a = &e->plan.cells[e->a], *b = &e->plan.cells[e->b];
	char va[64], vb[64];
	format_value(e, e->a, va, sizeof(va));
	format_value(e, e->b, vb, sizeof(vb));
	sb_addf(md, "# Why %s/%s is faster: %s (A) vs %s (B)\n\n", a->spec.family->name, a->spec.variant->name,
		a->spec.config, b->spec.config);
	sb_addf(md, "Metric: %s. A: %s, B: %s",
		e->metric == METRIC_TIME     ? "median time per run (hyperfine, interleaved)"
		: e->counters == COUNTERS_CALLGRIND ? "instructions per unit (callgrind: deterministic)"
						    : "instructions per unit (perf)",
		va, vb);
	if (isfinite(e->gap))
		sb_addf(md, ": B is %.3gx %s.\n\n", exp(fabs(e->gap)), e->gap >= 0 ? "better" : "worse");
	else
		sb_adds(md, ".\n\n");
	if (e->unchanged)
		sb_addf(md, "%zu candidate flags, %zu distinct binaries measured; %zu of the %zu single flags change nothing "
			    "(identical binaries both ways).\n\n",
			e->ncand, e->distinct, e->unchanged, e->ncand);
	else
		sb_addf(md, "%zu candidate flags, %zu distinct binaries measured; all %zu single flags change the binary.\n\n",
			e->ncand, e->distinct, e->ncand);
	sb_adds(md, "| flag | B without it | share of the gap | A with it | share of the gap |\n");
	sb_adds(md, "| --- | --- | ---: | --- | ---: |\n");
	struct strbuf none = STRBUF_INIT;
	for (size_t i = 0; i < e->ncand; i++) {
		const struct candidate *c = &e->cand[i];
		if (!explain_changes_something(e, c)) {
			sb_addf(&none, "%s%s", none.len ? ", " : "", c->name);
			continue;
		}
		if (explain_meaningless(c))
			continue;
		char w[64], wo[64], s1[64], s2[64];
		format_value(e, c->without, wo, sizeof(wo));
		format_value(e, c->with, w, sizeof(w));
		format_share(e, c->rem, c->rem_lo, c->rem_hi, s1, sizeof(s1));
		format_share(e, c->add, c->add_lo, c->add_hi, s2, sizeof(s2));
		sb_addf(md, "| `%s` | %s (`%s`) | %s | %s | %s |\n", c->name, wo, c->toward_a, s1, w, s2);
	}
	sb_adds(md, "\n");
	if (e->meaningless)
		sb_addf(md, "%zu flag%s left out: %s share's interval spans more than the whole gap (noise).\n\n",
			e->meaningless, e->meaningless > 1 ? "s" : "", e->meaningless > 1 ? "their" : "its");
	if (none.len)
		sb_addf(md, "Identical binaries both ways (change nothing here): %s.\n\n", none.buf);
	sb_release(&none);
	if (!isfinite(e->gap) || fabs(e->gap) < 1e-9) {
		sb_adds(md, "**Answer**: A and B do not differ in this metric: nothing to explain.\n\n");
	} else if (!e->selected.n) {
		sb_adds(md, "**Answer**: no single flag carries 5 % or more of the gap (the difference comes from several "
			    "flags together, or from what no flag names).\n\n");
	} else {
		struct strbuf names = STRBUF_INIT;
		for (size_t i = 0; i < e->selected.n; i++)
			sb_addf(&names, "%s`%s`", i ? ", " : "", e->selected.v[i]);
		char ex[192] = "not measured";
		if (e->check >= 0) {
			char v[64];
			format_value(e, e->check, v, sizeof(v));
			if (isfinite(e->explained)) {
				if (e->metric == METRIC_TIME && explain_share_meaningless(e->explained_lo, e->explained_hi))
					snprintf(ex, sizeof(ex), "%s; time cannot tell how much of the gap [%.0f%%, %.0f%%]", v,
						 e->explained_lo * 100, e->explained_hi * 100);
				else if (e->metric == METRIC_TIME)
					snprintf(ex, sizeof(ex), "%s, %.0f%% of the gap [%.0f%%, %.0f%%]", v, e->explained * 100,
						 e->explained_lo * 100, e->explained_hi * 100);
				else
					snprintf(ex, sizeof(ex), "%s, %.0f%% of the gap", v, e->explained * 100);
			} else {
				snprintf(ex, sizeof(ex), "%s", v);
			}
		}
		sb_addf(md, "**Answer**: %s carr%s most of the speedup. Check: B without %s: %s.\n\n", names.buf,
			e->selected.n > 1 ? "y" : "ies", e->selected.n > 1 ? "them" : "it", ex);
		sb_release(&names);
	}
	if (e->joint.n) {
		struct strbuf names = STRBUF_INIT;
		for (size_t i = 0; i < e->joint.n; i++)
			sb_addf(&names, "%s`%s`", i ? ", " : "", e->joint.v[i]);
		sb_addf(md, "**Together**: %s carr%s %.0f%% of the gap (B without %s), the smallest such set: delta debugging "
			    "over the %zu flags that change the binary, %zu step%s, a set counting where B without it loses %.0f %% "
			    "of the gap.\n\n",
			names.buf, e->joint.n > 1 ? "y" : "ies", e->joint_share * 100, e->joint.n > 1 ? "them" : "it",
			e->joint_from, e->joint_steps, e->joint_steps == 1 ? "" : "s", TUNE_KEEP * 100);
		sb_release(&names);
	} else if (isfinite(e->all_share) && e->all_share > 0) {
		sb_addf(md, "**Together**: even all %zu flags that change the binary carry %.0f%% of the gap (B without all of "
			    "them): the rest comes from what no flag names (the -O level's --param values, or pass order).\n\n",
			e->joint_from, e->all_share * 100);
	} else if (isfinite(e->all_share)) {
		/* a negative share is no finding: B without them did not move toward A */
		sb_addf(md, "**Together**: B without all %zu flags that change the binary is no closer to A: the gap comes "
			    "from what no flag names (the -O level's --param values, or pass order).\n\n",
			e->joint_from);
	}
	for (size_t i = 0; i < e->notes.n; i++)
		sb_addf(md, "- %s\n", e->notes.v[i]);
}

static json_t *explain_json(const struct explain *e)
{
	const struct plan *p = &e->plan;
	json_t *cands = json_array();
	for (size_t i = 0; i < e->ncand; i++) {
		const struct candidate *c = &e->cand[i];
		json_t *j = json_pack("{s:s, s:s, s:s, s:o, s:o, s:o}", "flag", c->name, "toward_a", c->toward_a, "toward_b",
				      c->toward_b, "changes_something", json_boolean(explain_changes_something(e, c)), "score",
				      jnum_or_null(c->score), "selected", json_false());
		for (size_t k = 0; k < e->selected.n; k++)
			if (!strcmp(e->selected.v[k], c->name))
				json_object_set_new(j, "selected", json_true());
		json_object_set_new(j, "without",
				    c->without < 0 ? json_null()
						   : json_pack("{s:s, s:o, s:o, s:[o, o]}", "cell", p->cells[c->without].spec.id,
							       "value", jnum_or_null(e->val[explain_rep(e, c->without)].v),
							       "share", jnum_or_null(c->rem), "share_ci95", jnum_or_null(c->rem_lo),
							       jnum_or_null(c->rem_hi)));
		json_object_set_new(j, "with",
				    c->with < 0 ? json_null()
						: json_pack("{s:s, s:o, s:o, s:[o, o]}", "cell", p->cells[c->with].spec.id, "value",
							    jnum_or_null(e->val[explain_rep(e, c->with)].v), "share", jnum_or_null(c->add),
							    "share_ci95", jnum_or_null(c->add_lo), jnum_or_null(c->add_hi)));
		json_array_append_new(cands, j);
	}
	json_t *sel = jstrvec(&e->selected);
	json_t *notes = jstrvec(&e->notes);
	json_t *joint = jstrvec(&e->joint);
	json_t *root = json_pack("{s:s, s:s, s:s, s:s, s:s, s:o, s:o, s:o, s:I, s:I, s:o, s:o, s:o, s:o}", "a", p->cells[e->a].spec.id,
			 "b", p->cells[e->b].spec.id, "mode", e->mode == EXPLAIN_MODE_OPT ? "optimizer flags" : "isa extensions",
			 "metric", e->metric == METRIC_TIME ? "time_s" : "instructions_per_unit", "counter_source",
			 e->metric == METRIC_TIME ? "hyperfine" : e->counters == COUNTERS_CALLGRIND ? "callgrind" : "perf",
			 "value_a", jnum_or_null(e->val[explain_rep(e, e->a)].v), "value_b",
			 jnum_or_null(e->val[explain_rep(e, e->b)].v), "gap_ln", jnum_or_null(e->gap), "distinct_binaries", (json_int_t)e->distinct, "unchanged_flags",
			 (json_int_t)e->unchanged, "candidates", cands, "selected", sel, "check",
			 e->check < 0 ? json_null()
				      : json_pack("{s:s, s:o, s:o, s:[o, o]}", "cell", p->cells[e->check].spec.id, "value",
						  jnum_or_null(e->val[explain_rep(e, e->check)].v), "explained",
						  jnum_or_null(e->explained), "explained_ci95", jnum_or_null(e->explained_lo),
						  jnum_or_null(e->explained_hi)),
			 "notes", notes);
	/* the flags that carry the gap together, where no single one does */
	json_object_set_new(root, "joint",
			    json_pack("{s:o, s:o, s:o, s:I, s:I}", "flags", joint, "share", jnum_or_null(e->joint_share),
				      "all_share", jnum_or_null(e->all_share), "from", (json_int_t)e->joint_from, "steps",
				      (json_int_t)e->joint_steps));
	return root;
}

/* Writes results.json (cells of the explain run plus "explain") and explain.md. */
static int write_outputs(const struct explain *e, const char *dir, const json_t *run, const char *run_dir,
			 json_t *argv_json, double started, const char *stamp, const struct strbuf *md)
{
	struct suite suite;
	memset(&suite, 0, sizeof(suite));
	suite.name = (char *)"explain";
	suite.path = xasprintf("%s/results.json", run_dir);
	struct cpu_profile prof;
	memset(&prof, 0, sizeof(prof));
	const char *pname = json_string_value(json_object_get(json_object_get(run, "run"), "cpu_profile"));
	prof.name = (char *)(pname ? pname : "");
	struct run_state rs;
	memset(&rs, 0, sizeof(rs));
	rs.id = xasprintf("%s-explain-%s", stamp, prof.name);
	rs.dir = (char *)dir;
	rs.started_wall = started;
	rs.finished_wall = now_wall();
	rs.finished = 1;
	rs.interrupted = fb_interrupted != 0;
	rs.argv = argv_json;
	rs.host = json_object_get(run, "host");
	rs.tools = json_object_get(run, "tools");
	rs.profile = json_object_get(run, "profile");
	if (!rs.host)
		rs.host = json_object();
	else
		json_incref(rs.host);
	rs.tools = rs.tools ? json_incref(rs.tools) : json_object();
	rs.profile = rs.profile ? json_incref(rs.profile) : json_object();
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

int explain_report(const struct explain *e, const struct explain_run *r)
{
	if (e->not_faster) {
		/* the comparison's answer, and nothing built or measured to write */
		printf("%s: nothing to attribute.\n", e->not_faster);
		return 0;
	}
	struct strbuf md = STRBUF_INIT;
	report_md(e, &md);
	fputs(md.buf, stdout);
	json_t *argv_json = json_array();
	json_array_append_new(argv_json, json_string("flagbench"));
	for (int i = 0; i < r->argc; i++)
		json_array_append_new(argv_json, json_string(r->argv[i]));
	int wr = write_outputs(e, r->out, r->run, r->run_dir, argv_json, r->started, r->stamp, &md);
	sb_release(&md);
	json_decref(argv_json);
	fprintf(stderr, "flagbench: explain in %s/explain.md and %s/results.json\n", r->out, r->out);
	return wr;
}
