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

double tune_counts_of(const struct cell *c, char *why, size_t n)
{
	const struct cell_counters *kc = &c->measure.counters;
	if (kc->state == COUNTERS_COUNTED && isfinite(kc->instructions_per_unit) && kc->instructions_per_unit > 0)
		return kc->instructions_per_unit;
	snprintf(why, n, "not counted: %s", kc->why ? kc->why : "no instruction count");
	return NAN;
}

/* The measured candidates of a batch, counted by the session, recorded. */
static void record_counts(struct tune *t, struct plan *bp, struct tune_pending *pd, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (!pd[i].measure)
			continue;
		struct cell *c = &bp->cells[pd[i].cell];
		if (c->measure.counters.state == COUNTERS_NOT_RUN && fb_interrupted)
			continue; /* not counted: not journaled */
		char why[512];
		double v = tune_counts_of(c, why, sizeof(why));
		if (isfinite(v))
			record(t, &pd[i], CELL_OK, NULL, c->build.sha256, NULL, v);
		else
			record(t, &pd[i], CELL_UNSUPPORTED, why, c->build.sha256, NULL, INFINITY);
	}
}

/* Times cells in rounds in the order listed (schedule.h): a round's runs
 * pair up in the comparison, so drift cancels. */
void tune_time_rounds(struct tune *t, struct cell **cells, size_t n, unsigned runs)
{
	struct schedule_listed l = {
		.x = t->session.x,
		.hyperfine = t->hyperfine,
		.workdir = t->work,
		.run_timeout_s = t->session.lim.run_s,
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

/* The session's known hook for a batch (session.h): the start's clone,
 * and a candidate whose binary an earlier screen measured, have figures. */
struct batch_known {
	struct tune *t;
	const struct tune_pending *pd;
	size_t n;
	int start_cell;
};

static int known_figure(void *ctx, const struct plan *p, size_t i)
{
	const struct batch_known *k = ctx;
	if ((int)i == k->start_cell)
		return 1;
	for (size_t j = 0; j < k->n; j++)
		if (k->pd[j].cell == (int)i)
			return !k->pd[j].fresh && eval_by_sha(k->t, p->cells[i].build.sha256) != NULL;
	return 0;
}

/* What the session found of candidate p, recorded where it is decided:
 * a failure, the start's program, a figure of an earlier batch; else its
 * twin in the batch, or whether it is to be measured. */
static void take_verdict(struct tune *t, struct plan *bp, struct tune_pending *pd, size_t i, int start_cell,
			 const unsigned char *ready)
{
	struct tune_pending *p = &pd[i];
	struct cell *c = &bp->cells[p->cell];
	int src = c->build.same_binary_as;
	if (c->status != CELL_PENDING || !c->build.sha256[0]) {
		record(t, p, c->status == CELL_PENDING ? CELL_BUILD_FAILED : c->status, c->reason,
		       c->build.sha256[0] ? c->build.sha256 : NULL, NULL, INFINITY);
		return;
	}
	if (src == start_cell) {
		record(t, p, CELL_OK, NULL, c->build.sha256, "", t->start_score);
		return;
	}
	struct tune_eval *e = src < 0 && !p->fresh ? eval_by_sha(t, c->build.sha256) : NULL;
	if (e) {
		char *same = xstrdup(e->key);
		record(t, p, e->status, e->reason, c->build.sha256, same, e->score);
		free(same);
		return;
	}
	for (size_t k = 0; src >= 0 && k < i; k++)
		if (pd[k].cell == src)
			p->twin = (int)k;
	/* not ready and no twin: a check cut short by Ctrl-C decided nothing (not journaled) */
	p->measure = p->twin < 0 && ready[p->cell];
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
	size_t todo = 0;
	for (size_t i = 0; i < n; i++)
		todo += !pd[i].recorded;
	if (!todo)
		return;
	t->batch_no++;
	memset(&t->last, 0, sizeof(t->last));
	/* the start beside them: timed with them under time, and the program
	 * a candidate that changes nothing is */
	int start_cell = tune_add_clone(&bp, &alloc, proto, "", NULL, proto->config, 0, 1);
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
	struct batch_known kn = { t, pd, n, start_cell };
	struct session_batch b = { .upto = t->metric == METRIC_INSTRUCTIONS ? SESSION_COUNTED : SESSION_VERIFIED,
				   .counters = t->counters, .known = known_figure, .ctx = &kn,
				   /* the counting's lines only where a count takes long enough to wait for */
				   .quiet = t->start_cost.screen_s < 10 };
	session_ready(&t->session, &bp, &b);
	t->last.build_s = b.build_s;
	t->last.compiled = b.built.compiled;
	t->last.check_s = b.verify_s;
	t->last.checked = b.verified;
	unsigned char *ready = xcalloc(bp.n + 1, 1);
	for (size_t k = 0; k < b.nmeasure; k++)
		ready[b.measure[k]] = 1;
	for (size_t i = 0; i < n && !fb_interrupted; i++)
		if (!pd[i].recorded)
			take_verdict(t, &bp, pd, i, start_cell, ready);
	free(ready);
	if (t->metric == METRIC_INSTRUCTIONS) {
		t->last.screen_s = b.count_s;
		for (size_t i = 0; i < n; i++)
			t->last.screened += (unsigned)pd[i].measure;
		if (!fb_interrupted)
			record_counts(t, &bp, pd, n);
	} else {
		struct cell **cells = xcalloc(n + 2, sizeof(*cells));
		size_t m = 0;
		cells[m++] = &bp.cells[start_cell];
		for (size_t i = 0; i < n; i++)
			if (pd[i].measure)
				cells[m++] = &bp.cells[pd[i].cell];
		if (m > 1 && !fb_interrupted) {
			double w = now_monotonic();
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
	session_batch_release(&b);
	plan_free_copies(&bp);
}
