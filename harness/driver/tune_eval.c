/* tune_eval.c: see tune_eval.h */
#define _GNU_SOURCE
#include "driver/tune_eval.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"
#include "core/runcmd.h"
#include "driver/tune_journal.h"
#include "pipeline/records.h"
#include "pipeline/schedule.h"

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
int tune_add_clone(struct plan *p, size_t *alloc, const struct cell_spec *proto, const char *key, const char *opt,
		     const char *tag, unsigned layout, unsigned layouts)
{
	int idx = plan_add_copy(p, alloc, proto);
	struct cell_spec *sp = &p->cells[idx].spec;
	/* a key's -O level takes the start's place, as --opt would (the
	 * confirmation's -O3 line is then the same command, and binary) */
	char *key_opt = NULL, *rest = tune_key_split_opt(key, &key_opt);
	if (!opt)
		opt = key_opt;
	if (opt) {
		for (size_t i = 0; i < sp->cflags.n; i++)
			if (!strcmp(sp->cflags.v[i], proto->opt)) {
				free(sp->cflags.v[i]);
				sp->cflags.v[i] = xstrdup(opt);
			}
		free(sp->opt);
		sp->opt = xstrdup(opt);
	}
	if (*rest)
		key_words(rest, &sp->cflags);
	free(rest);
	free(key_opt);
	free(sp->id);
	free(sp->config);
	sp->config = xasprintf("%s%s%s", proto->config, key && *key ? " " : "", key ? key : "");
	sp->layout = layout;
	sp->layouts = layouts ? layouts : 1;
	plan_layout_pads(layout, &sp->code_pad, &sp->env_pad);
	sp->id = layouts > 1 ? xasprintf("%s/%s@%s~L%u", proto->family->name, proto->variant->name, tag, layout)
			     : xasprintf("%s/%s@%s", proto->family->name, proto->variant->name, tag);
	return idx;
}

/* The latest figure of a binary (a re-measured one supersedes the first). */
static struct tune_eval *eval_by_sha(struct tune *t, const char *sha)
{
	/* a figure of another screen (before it turned to time) is none */
	for (size_t i = t->nev; i-- > t->screen_from;)
		if (t->ev[i].sha256[0] && !strcmp(t->ev[i].sha256, sha))
			return &t->ev[i];
	return NULL;
}

static void record(struct tune *t, struct tune_pending *p, enum cell_status st, const char *reason, const char *sha,
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
	e->metric = t->metric;
	/* a count against the start's is exact (a time screen's verdict is
	 * the paired comparison's, set by the caller) */
	struct comparison_policy pol;
	struct comparison_result cr;
	compare_policy(&pol, 0, 0.5, 2000, 1, 0.95);
	e->verdict = st != CELL_OK ? VERDICT_NO_DATA
		     : same_as && !*same_as ? VERDICT_SAME_BINARY
		     : comparison_counts(t->start_score, score, NULL, NULL, &pol, &cr) == 0 ? cr.verdict
											: VERDICT_NO_DATA;
	if (p->track < t->ntracks)
		e->at_s = t->tracks[p->track].spent_s + (now_monotonic() - t->batch_t0);
	p->ev = t->nev++;
	p->recorded = 1;
	tune_journal_write(t, tune_eval_json(t, e));
}

/* Instructions per unit of c from its counters' JSON k (taken). */
static double counts_of(struct cell *c, json_t *k, char *why, size_t n)
{
	cell_counters_free(&c->measure.counters);
	cell_counters_from_json(&c->measure.counters, k);
	json_decref(k);
	const struct cell_counters *kc = &c->measure.counters;
	if (kc->state == COUNTERS_COUNTED && isfinite(kc->instructions_per_unit) && kc->instructions_per_unit > 0)
		return kc->instructions_per_unit;
	snprintf(why, n, "not counted: %s", kc->why ? kc->why : "no instruction count");
	return NAN;
}

/* Instructions per unit of a built, checked cell; NAN (and *why) when not counted. */
double tune_count_one(struct tune *t, struct cell *c, char *why, size_t n)
{
	return counts_of(c, session_count(&t->session, c, t->counters), why, n);
}

/* The measured candidates of a batch counted --jobs at once (counts are
 * exact under load, session.h) and recorded. */
static void count_batch(struct tune *t, struct plan *bp, struct tune_pending *pd, size_t n)
{
	const struct cell **cells = xcalloc(n + 1, sizeof(*cells));
	size_t *which = xcalloc(n + 1, sizeof(*which));
	json_t **out = xcalloc(n + 1, sizeof(*out));
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (pd[i].measure) {
			which[m] = i;
			cells[m++] = &bp->cells[pd[i].cell];
		}
	/* the session's lines for a count only where one takes long enough
	 * to wait for: tune says what each batch found */
	FILE *progress = t->session.progress;
	if (t->start_cost.screen_s < 10)
		t->session.progress = NULL;
	double w = now_monotonic();
	if (m)
		session_count_cells(&t->session, cells, m, t->counters, out);
	t->session.progress = progress;
	t->last.screen_s = now_monotonic() - w;
	t->last.screened = (unsigned)m;
	for (size_t k = 0; k < m; k++) {
		struct cell *c = &bp->cells[pd[which[k]].cell];
		if (!out[k] && fb_interrupted)
			continue; /* not counted: not journaled */
		char why[512];
		double v = counts_of(c, out[k], why, sizeof(why));
		if (isfinite(v))
			record(t, &pd[which[k]], CELL_OK, NULL, c->build.sha256, NULL, v);
		else
			record(t, &pd[which[k]], CELL_UNSUPPORTED, why, c->build.sha256, NULL, INFINITY);
	}
	free(cells);
	free(which);
	free(out);
}

/* Times cells in rounds in the order listed (schedule.h): a round's runs
 * pair up in the comparison, so drift cancels. */
void tune_time_rounds(struct tune *t, struct cell **cells, size_t n, unsigned runs)
{
	struct schedule_listed l = {
		.x = t->session.x,
		.hyperfine = t->hyperfine,
		.workdir = t->work,
		.run_timeout_s = t->o->timeout,
		.round_base = t->rounds_done,
		.runs = runs,
		.warmup = t->o->warmup,
		.handoff = session_handoff(&t->session),
	};
	schedule_listed_run(cells, n, &l);
	t->rounds_done += runs;
}

/* B / A by the one comparison, over the runs of a's and b's cells. */
int tune_compare_groups(struct cell *const *a, size_t na, struct cell *const *b, size_t nb, double level,
			struct comparison_result *out)
{
	struct comparison_policy pol;
	compare_policy(&pol, 0, 0.5, 2000, 1, level);
	return compare_cell_groups(a, na, b, nb, &pol, out);
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
		    tune_compare_groups(&cells[0], 1, &c, 1, 0.95, &r) == 0 && r.ratio < best)
			again[na++] = c;
	}
	if (na > 1 && !fb_interrupted)
		tune_time_rounds(t, again, na, runs);
	free(again);
}

/* Builds, checks and measures a batch's candidates (those without a
 * figure), records each, and charges the batch's time to its track. */
void tune_evaluate(struct tune *t, struct tune_pending *pd, size_t n, unsigned runs)
{
	double t0 = t->batch_t0 = now_monotonic();
	const struct cell_spec *proto = &t->start.plan.cells[t->proto].spec;
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
	memset(&t->last, 0, sizeof(t->last));
	if (t->metric == METRIC_TIME)
		start_cell = tune_add_clone(&bp, &alloc, proto, "", NULL, proto->config, 0, 1);
	for (size_t i = 0; i < n; i++) {
		pd[i].twin = -1;
		pd[i].measure = 0;
		pd[i].cell = -1;
		if (pd[i].recorded)
			continue;
		char *tag = xasprintf("%s+b%u.%zu", proto->config, t->batch_no, i);
		pd[i].cell = tune_add_clone(&bp, &alloc, proto, pd[i].key, NULL, tag, 0, 1);
		free(tag);
	}
	struct build_stats bst = { 0 };
	double w = now_monotonic();
	session_build(&t->session, &bp, 0, &bst);
	t->last.build_s = now_monotonic() - w;
	t->last.compiled = bst.compiled;
	for (size_t i = 0; i < n && !fb_interrupted; i++) {
		struct tune_pending *p = &pd[i];
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
		w = now_monotonic();
		enum session_verdict v = session_verify(&t->session, &bp, c);
		t->last.check_s += now_monotonic() - w;
		t->last.checked++;
		for (size_t k = 0; v == SESSION_TWIN && k < i; k++)
			if (pd[k].cell == c->build.same_binary_as)
				p->twin = (int)k;
		if (p->twin >= 0)
			continue;
		if (v != SESSION_MEASURE) {
			/* a check cut short by Ctrl-C decided nothing: not journaled */
			if (c->status != CELL_PENDING)
				record(t, p, c->status, c->reason, c->build.sha256, NULL, INFINITY);
			continue;
		}
		p->measure = 1;
	}
	if (t->metric == METRIC_INSTRUCTIONS) {
		if (!fb_interrupted)
			count_batch(t, &bp, pd, n);
	} else {
		struct cell **cells = xcalloc(n + 2, sizeof(*cells));
		size_t m = 0;
		cells[m++] = &bp.cells[start_cell];
		for (size_t i = 0; i < n; i++)
			if (pd[i].measure)
				cells[m++] = &bp.cells[pd[i].cell];
		if (m > 1 && !fb_interrupted) {
			w = now_monotonic();
			tune_time_rounds(t, cells, m, runs);
			/* the cost of a batch's rounds, before any leader is timed again */
			t->last.screen_s = now_monotonic() - w;
			t->last.screened = (unsigned)(m - 1);
			t->last.timed_cells = (unsigned)m;
			if (pd[0].track < t->ntracks)
				rescreen_leaders(t, cells, m, t->tracks[pd[0].track].best, runs);
			for (size_t i = 0; i < n && !fb_interrupted; i++) {
				if (!pd[i].measure)
					continue;
				struct cell *c = &bp.cells[pd[i].cell];
				struct comparison_result r;
				struct cell *sc = &bp.cells[start_cell];
				if ((c->status == CELL_PENDING || c->status == CELL_OK) && c->measure.time.n &&
				    tune_compare_groups(&sc, 1, &c, 1, 0.95, &r) == 0 && isfinite(r.ratio)) {
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
		struct tune_pending *p = &pd[i];
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
	if (pd[0].track < t->ntracks)
		t->tracks[pd[0].track].spent_s += now_monotonic() - t0;
	plan_free_copies(&bp);
}
