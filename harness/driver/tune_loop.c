/* tune_loop.c: see tune_loop.h */
#include "driver/tune_loop.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/runcmd.h"
#include "core/util.h"
#include "driver/tune_eval.h"
#include "driver/tune_screen.h"

/* A journaled candidate of this track not yet told again (--resume). */
static struct tune_eval *journaled(struct tune *t, size_t track, const char *key)
{
	/* none of another screen's (before the screen turned to time) */
	for (size_t i = t->screen_from; i < t->nev; i++) {
		struct tune_eval *e = &t->ev[i];
		if (e->from_journal && !e->replayed && e->technique == track && !strcmp(e->key, key))
			return e;
	}
	return NULL;
}

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
	if (t->metric == METRIC_INSTRUCTIONS)
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
	else if (e->same_as && strcmp(e->same_as, e->key))
		k->same_binary++; /* the same flags measured before (a seed the probe measured) are no repeat */
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
	/* as many as the compilers keep busy (tune_budget.h) */
	size_t want = t->o->batch ? t->o->batch : tune_default_batch(t->o->jobs);
	if (want > cl)
		want = cl;
	struct tune_pending *pd = xcalloc(want, sizeof(*pd));
	size_t n = 0;
	int exhausted = 0;
	while (n < want) {
		size_t *val = xcalloc(t->space.n + 1, sizeof(size_t));
		if (tune_search_ask(k->search, val) < 0) {
			free(val);
			exhausted = 1;
			break;
		}
		struct tune_pending *p = &pd[n++];
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
	size_t fresh = 0;
	for (size_t i = 0; i < n; i++)
		fresh += !pd[i].recorded;
	double w = now_monotonic();
	if (n)
		tune_evaluate(t, pd, n, t->o->screen_runs);
	/* the searches' own rate, against what the compilers allow */
	if (fresh) {
		t->search_wall_s += now_monotonic() - w;
		t->search_candidates += fresh;
	}
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

void tune_run_searches(struct tune *t)
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
			tune_screen_check(t, i);
		}
		if (!active || fb_interrupted)
			break;
	}
}
