/* explain_journal.c: see explain_journal.h */
#define _GNU_SOURCE
#include "driver/explain_journal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json_util.h"
#include "core/runcmd.h"

#define JOURNAL_SCHEMA EXPLAIN_JOURNAL_SCHEMA

static const char *metric_key(enum metric m)
{
	return m == METRIC_TIME ? "time_s" : "instructions_per_unit";
}

static const char *state_name(enum gs_state st)
{
	return st == GS_WAITING ? "waiting" : st == GS_MEASURED ? "measured" : "failed";
}

int explain_journal_read(const char *dir, struct explain_journal *j, const char **run, const char **a, const char **b)
{
	if (explain_record_load(dir, &j->rec) < 0)
		return -1;
	j->read = 1;
	const char *jr = j->rec.run, *ja = j->rec.a, *jb = j->rec.b;
	int r = 0;
	if ((*a && strcmp(*a, ja)) || (*b && strcmp(*b, jb)))
		r = error("--resume %s explains %s against %s, not %s against %s", dir, ja, jb, *a, *b);
	if (r == 0) {
		if (!*run)
			*run = jr;
		*a = ja;
		*b = jb;
	}
	return r;
}

int explain_journal_metric(const struct explain_journal *j, struct explain_opts *o)
{
	if (!j->read)
		return 0;
	const char *m = j->rec.metric;
	if (!m)
		return 0;
	o->metric_asked = 1;
	o->metric = !strcmp(m, "time_s") ? METRIC_TIME : METRIC_INSTRUCTIONS;
	return 0;
}

int explain_journal_replay(struct explain *e, const struct explain_journal *j)
{
	if (!j->read)
		return 0;
	const struct explain_record *rec = &j->rec;
	const char *way = rec->way;
	if (!way || strcmp(way, e->way == EXPLAIN_WAY_B_WITHOUT ? "b_without" : "a_with"))
		return error("--resume: the journal moved the flags another way (%s): start a new explain", way ? way : "none");
	int same = rec->flags.n == e->ncand;
	for (size_t i = 0; same && i < e->ncand; i++)
		same = !strcmp(rec->flags.v[i], e->cand[i].name);
	if (!same)
		return error("--resume: the candidate flags are not the journal's (%zu now, %zu then): the compiler or the "
			     "run changed; start a new explain",
			     e->ncand, rec->flags.n);
	for (size_t i = 0; i < rec->ngroups; i++) {
		const struct explain_record_group *g = &rec->groups[i];
		int k = gs_find_waiting(&e->gs, g->from, g->to);
		if (k < 0)
			return error("--resume: the journal's group %zu of [%zu, %zu) is not one the search asks", i, g->from,
				     g->to);
		gs_record(&e->gs, (size_t)k, g->failed ? GS_FAILED : GS_MEASURED, g->share, g->share_low, g->share_high,
			  g->unchanged, g->carries);
		if (e->gi_alloc < e->gs.n) {
			size_t was = e->gi_alloc;
			e->gi_alloc = e->gs.n * 2;
			e->gi = xrealloc(e->gi, e->gi_alloc * sizeof(*e->gi));
			for (size_t m = was; m < e->gi_alloc; m++)
				e->gi[m] = (struct group_info){ -1, NAN };
		}
		e->gi[k].value = g->value;
		e->resumed++;
	}
	e->builds = e->builds_resumed = rec->builds;
	fprintf(stderr, "flagbench: explain: --resume: %zu groups measured already (%zu builds), %zu waiting\n",
		e->resumed, e->builds, gs_waiting(&e->gs, NULL, e->gs.n));
	return 0;
}

void explain_journal_free(struct explain_journal *j)
{
	if (j->read)
		explain_record_free(&j->rec);
	j->read = 0;
}

void explain_journal_write(const struct explain *e, const struct explain_run *r)
{
	json_t *flags = json_array(), *groups = json_array();
	for (size_t i = 0; i < e->ncand; i++)
		json_array_append_new(flags, json_string(e->cand[i].name));
	for (size_t i = 0; i < e->gs.n; i++) {
		const struct gs_group *g = &e->gs.g[i];
		if (g->state == GS_WAITING)
			continue;
		json_array_append_new(groups,
				      json_pack("{s:I, s:I, s:s, s:o, s:[o, o], s:b, s:b, s:o}", "from", (json_int_t)g->from,
						"to", (json_int_t)g->to, "state", state_name(g->state), "share",
						jnum_or_null(g->share), "share_ci95", jnum_or_null(g->lo), jnum_or_null(g->hi),
						"unchanged", g->unchanged, "carries", g->carries, "value",
						jnum_or_null(e->gi[i].value)));
	}
	json_t *doc = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:o, s:I, s:o}", "schema", JOURNAL_SCHEMA, "way",
				e->way == EXPLAIN_WAY_B_WITHOUT ? "b_without" : "a_with", "run", r->run_dir,
				"a", r->id_a, "b", r->id_b, "mode",
				e->mode == EXPLAIN_MODE_OPT ? "optimizer flags" : "isa extensions", "metric",
				metric_key(e->metric), "flags", flags, "builds", (json_int_t)e->builds, "groups", groups);
	char *text = json_dumps(doc, JSON_INDENT(1) | JSON_SORT_KEYS | JSON_REAL_PRECISION(10));
	char *path = xasprintf("%s/journal.json", r->out);
	struct strbuf sb = STRBUF_INIT;
	sb_adds(&sb, text ? text : "{}");
	sb_adds(&sb, "\n");
	if (write_file_atomic(path, sb.buf, sb.len) < 0)
		warning("cannot write %s: %s; --resume cannot go on from here", path, strerror(errno));
	sb_release(&sb);
	free(path);
	free(text);
	json_decref(doc);
}

/* The run's own pace: its build phase over its cells, at this explain's jobs. */
static double run_build_s(const struct explain *e, const struct explain_run *r)
{
	double build = r->results.settings.build_s;
	size_t cells = r->results.ncells;
	unsigned jobs = e->session.jobs ? e->session.jobs : 1;
	return isfinite(build) && build > 0 && cells ? build * jobs / (double)cells : NAN;
}

/* One binary's timing in a batch: warmup and runs of the slower of A and B. */
static double run_measure_s(const struct explain *e, const struct explain_run *r)
{
	if (e->metric != METRIC_TIME)
		return 0;
	double t = 0;
	const struct results_cell *c[2] = { r->ca, r->cb };
	for (int k = 0; k < 2; k++) {
		double m = c[k]->time.median;
		if (isfinite(m) && m > t)
			t = m;
	}
	return t * (double)((e->o->runs ? e->o->runs : 5) + e->o->warmup);
}

/* The seconds of a batch of n builds, measured beside A and B. */
static double batch_s(const struct explain *e, size_t n)
{
	unsigned jobs = e->session.jobs ? e->session.jobs : 1;
	double b = isfinite(e->build_s) ? e->build_s : 0, m = isfinite(e->measure_s) ? e->measure_s : 0;
	return (double)((n + jobs - 1) / jobs) * b + (double)(n + 2) * m;
}

void explain_estimate(struct explain *e, const struct explain_run *r)
{
	if (!isfinite(e->build_s))
		e->build_s = run_build_s(e, r);
	if (!isfinite(e->measure_s))
		e->measure_s = run_measure_s(e, r);
	unsigned jobs = e->session.jobs ? e->session.jobs : 1;
	if (e->mode == EXPLAIN_MODE_CROSS) {
		fprintf(stderr, "flagbench: explain across compilers: building 2 programs (each compiler with the other's "
				"flags), %u at a time\n", jobs);
		return;
	}
	e->full_builds = e->ncand + 1;
	e->est_low = gs_estimate(e->ncand, 1);
	e->est_high = gs_estimate(e->ncand, 2);
	char one[32] = "unknown", lo[32], hi[32], budget[64] = "";
	if (isfinite(e->build_s) && e->build_s > 0)
		format_duration(e->build_s, one, sizeof(one));
	format_duration(batch_s(e, e->est_low), lo, sizeof(lo));
	format_duration(batch_s(e, e->est_high), hi, sizeof(hi));
	if (e->o->budget_builds)
		snprintf(budget, sizeof(budget), "; the budget buys %u builds", e->o->budget_builds);
	else if (e->o->budget_s > 0 && batch_s(e, 1) > 0) {
		char b[32];
		format_duration(e->o->budget_s, b, sizeof(b));
		size_t k = 0;
		while (k < 2 * e->ncand && batch_s(e, k + 1) <= e->o->budget_s)
			k++;
		snprintf(budget, sizeof(budget), "; the budget (%s) buys about %zu", b, k);
	}
	fprintf(stderr, "flagbench: explain: %zu candidate flags: one build per flag needs %zu builds; by halves about %zu "
			"(one flag carrying the gap) to %zu (two); building %u at a time, a build about %s%s: about %s to "
			"%s%s\n",
		e->ncand, e->full_builds, e->est_low, e->est_high, jobs, one,
		isfinite(e->build_s) ? " (the run's pace)" : "", lo, hi, budget);
}

size_t explain_budget_admits(const struct explain *e, const struct explain_run *r, size_t waiting)
{
	size_t n = waiting;
	if (e->o->budget_builds) {
		size_t spent = e->builds - e->builds_resumed;
		n = spent >= e->o->budget_builds ? 0 : e->o->budget_builds - spent;
		return n < waiting ? n : waiting;
	}
	if (e->o->budget_s > 0) {
		double left = r->started + e->o->budget_s - now_wall();
		while (n > 0 && batch_s(e, n) > left)
			n--;
	}
	return n;
}

void explain_progress(const struct explain *e, const struct explain_run *r)
{
	size_t measured = 0, waiting = 0;
	for (size_t i = 0; i < e->gs.n; i++) {
		measured += e->gs.g[i].state != GS_WAITING;
		waiting += e->gs.g[i].state == GS_WAITING;
	}
	char eta[32], left[64] = "";
	format_duration(batch_s(e, waiting), eta, sizeof(eta));
	if (e->o->budget_s > 0) {
		char b[32];
		double l = r->started + e->o->budget_s - now_wall();
		format_duration(l > 0 ? l : 0, b, sizeof(b));
		snprintf(left, sizeof(left), ", budget left %s", b);
	} else if (e->o->budget_builds) {
		size_t spent = e->builds - e->builds_resumed;
		snprintf(left, sizeof(left), ", budget left %zu builds",
			 spent >= e->o->budget_builds ? 0 : e->o->budget_builds - spent);
	}
	fprintf(stderr, "flagbench: explain: %zu builds, %zu groups measured, %zu waiting; eta %s%s\n", e->builds, measured,
		waiting, waiting ? eta : "0s", left);
}
