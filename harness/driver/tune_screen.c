/* tune_screen.c: see tune_screen.h */
#define _GNU_SOURCE
#include "driver/tune_screen.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json_util.h"
#include "core/runcmd.h"
#include "core/util.h"
#include "driver/tune_eval.h"
#include "driver/tune_journal.h"

int tune_time_keys(struct tune *t, char *const *keys, size_t n, unsigned runs, double *ratio,
		   enum comparison_verdict *verdict, double *wall_s, size_t *cells)
{
	const struct cell_spec *proto = &t->start.plan.cells[t->proto].spec;
	size_t m = n + 1;
	struct plan bp;
	memset(&bp, 0, sizeof(bp));
	size_t alloc = 0;
	tune_add_clone(&bp, &alloc, proto, "", NULL, proto->config, 0, 1);
	for (size_t i = 0; i < n; i++) {
		char *tag = xasprintf("%s+check%u.%zu", proto->config, t->screen_checks, i);
		tune_add_clone(&bp, &alloc, proto, keys[i], NULL, tag, 0, 1);
		free(tag);
	}
	struct session_batch sb = { .upto = SESSION_VERIFIED };
	session_ready(&t->session, &bp, &sb);
	unsigned char *ready = xcalloc(m + 1, 1);
	for (size_t k = 0; k < sb.nmeasure; k++)
		ready[sb.measure[k]] = 1;
	/* a build that is the same program as an earlier one is timed once: src */
	size_t *src = xcalloc(m, sizeof(*src));
	struct cell **timed = xcalloc(m, sizeof(*timed));
	size_t nt = 0;
	int rc = 0;
	for (size_t i = 0; i < m && rc == 0 && !fb_interrupted; i++) {
		struct cell *c = &bp.cells[i];
		src[i] = c->build.same_binary_as >= 0 ? (size_t)c->build.same_binary_as : i;
		if (c->status != CELL_PENDING || !c->build.sha256[0])
			rc = -1;
		else if (ready[i])
			timed[nt++] = c;
		else if (src[i] == i)
			rc = -1; /* not proven: cut short */
	}
	free(ready);
	session_batch_release(&sb);
	double w = now_monotonic();
	if (rc == 0 && !fb_interrupted && nt > 1)
		tune_time_rounds(t, timed, nt, runs);
	*wall_s = now_monotonic() - w;
	*cells = nt;
	if (fb_interrupted)
		rc = -1;
	double level = comparison_bonferroni_level(0.05, m * (m - 1) / 2 ? m * (m - 1) / 2 : 1);
	for (size_t a = 0; a < m; a++)
		for (size_t b = 0; b < m; b++) {
			enum comparison_verdict *v = &verdict[a * m + b];
			*v = VERDICT_NO_DATA;
			struct comparison_result r;
			struct cell *ca = &bp.cells[src[a]], *cb = &bp.cells[src[b]];
			if (rc)
				continue;
			if (src[a] == src[b])
				*v = VERDICT_SAME_BINARY;
			else if (tune_compare_groups(&ca, 1, &cb, 1, level, &r) == 0)
				*v = r.verdict;
		}
	for (size_t i = 0; i < n; i++) {
		struct comparison_result r;
		struct cell *ca = &bp.cells[0], *cb = &bp.cells[src[i + 1]];
		ratio[i] = NAN;
		if (rc == 0 && src[i + 1] == 0)
			ratio[i] = 1;
		else if (rc == 0 && tune_compare_groups(&ca, 1, &cb, 1, 0.95, &r) == 0)
			ratio[i] = r.ratio;
	}
	free(src);
	free(timed);
	plan_free_copies(&bp);
	return rc;
}

/* Every technique from the start again, told times from here: what the
 * counts taught them would mislead them (their scores are another
 * measure), and what they asked is asked again. */
static void turn_to_time(struct tune *t, const char *why, size_t ev_from)
{
	t->switch_why = xstrdup(why);
	t->switched_after = 0;
	for (size_t i = 0; i < t->ntracks; i++)
		t->switched_after += t->tracks[i].evaluated;
	t->metric = METRIC_TIME;
	t->start_score = 1;
	free(t->metric_why);
	t->metric_why = xasprintf("instructions did not rank builds as time did: %s", why);
	t->screen_from = ev_from;
	for (size_t i = 0; i < t->ntracks; i++) {
		struct tune_track *k = &t->tracks[i];
		if (!k->search)
			continue; /* the probe's turn: the searches start under time */
		tune_search_free(k->search);
		k->search = tune_search_new(k->technique, &t->space, t->o->seed + i, t->start_score);
		k->best = t->start_score;
		free(k->best_key);
		k->best_key = xstrdup("");
		k->done = 0;
	}
	fprintf(stderr, "flagbench: tune: the screen is time from here, paired with the start in each batch: %s\n", why);
}

static json_t *check_event(const struct tune *t, const char *line, const char *why)
{
	json_t *o = json_pack("{s:s, s:I, s:s, s:b, s:I}", "event", "check", "n", (json_int_t)t->screen_checks, "line",
			      line, "switch", why != NULL, "ev", (json_int_t)t->nev);
	if (why)
		json_object_set_new(o, "why", json_string(why));
	return o;
}

int tune_screen_replay(struct tune *t)
{
	if (!t->journaled || t->screen_checks >= t->journaled->nchecks)
		return 0;
	const struct tune_record_check *c = &t->journaled->checks[t->screen_checks];
	sv_push(&t->check_lines, c->line);
	fprintf(stderr, "flagbench: tune: (journaled) %s\n", c->line);
	if (c->turned && c->why)
		turn_to_time(t, c->why, c->ev);
	t->screen_checks++;
	return 1;
}

/* "1.04x", "-" */
static void fmt_ratio(double r, char *buf, size_t n)
{
	if (isfinite(r))
		snprintf(buf, n, "%.3gx", r);
	else
		snprintf(buf, n, "-");
}

int tune_screen_judge(struct tune *t, const char *what, char *const *names, size_t n, const double *counts,
		      const double *ratio, const enum comparison_verdict *verdict)
{
	size_t m = n + 1, a = 0, b = 0;
	size_t bad = tune_rank_disagreements(counts, verdict, m, &a, &b);
	struct strbuf line = STRBUF_INIT;
	char *why = NULL;
	if (bad) {
		/* the first pair the two order differently, in words: f counts
		 * fewer instructions than s, and is slower by time */
		size_t f = counts[a] < counts[b] ? a : b, sl = f == a ? b : a;
		char cf[32], cs[32], tf[32], ts[32];
		const char *nf = f ? names[f - 1] : "the start", *ns = sl ? names[sl - 1] : "the start";
		fmt_ratio(counts[f] / counts[0], cf, sizeof(cf));
		fmt_ratio(counts[sl] / counts[0], cs, sizeof(cs));
		fmt_ratio(f ? ratio[f - 1] : 1, tf, sizeof(tf));
		fmt_ratio(sl ? ratio[sl - 1] : 1, ts, sizeof(ts));
		if (!sl)
			why = xasprintf("%s: %s counts fewer instructions than the start (%s) but is slower by time (%s the "
					"start's time)",
					what, nf, cf, tf);
		else
			why = xasprintf("%s: %s counts fewer instructions than %s (%s against %s the start's) but is slower by "
					"time (%s against %s the start's time)",
					what, nf, ns, cf, cs, tf, ts);
		sb_addf(&line, "%s; %zu pair%s in the other order by time", why, bad, bad == 1 ? "" : "s");
	} else {
		sb_addf(&line, "%s: instructions rank them as time does (", what);
		for (size_t i = 0; i < n; i++) {
			char c[32], r[32];
			fmt_ratio(counts[i + 1] / counts[0], c, sizeof(c));
			fmt_ratio(ratio[i], r, sizeof(r));
			sb_addf(&line, "%s%s %s the instructions, %s the time", i ? "; " : "", names[i], c, r);
		}
		sb_adds(&line, ")");
	}
	fprintf(stderr, "flagbench: tune: %s\n", line.buf);
	sv_push(&t->check_lines, line.buf);
	tune_journal_write(t, check_event(t, line.buf, why));
	if (why)
		turn_to_time(t, why, t->nev);
	t->screen_checks++;
	sb_release(&line);
	free(why);
	return bad > 0;
}

void tune_screen_check(struct tune *t, size_t track)
{
	struct tune_track *k = &t->tracks[track];
	if (t->metric != METRIC_INSTRUCTIONS || t->o->metric_asked || t->switch_why || fb_interrupted ||
	    !k->best_key || !*k->best_key)
		return;
	double r = k->best / t->start_score;
	if (!(r < t->checked_best * (1 - TUNE_CHECK_STEP)))
		return;
	t->checked_best = r;
	if (tune_screen_replay(t))
		return;
	/* the best against the start and the -O level fastest by time */
	const struct tune_level *fast = NULL;
	for (size_t i = 0; i < t->nlevels; i++) {
		const struct tune_level *l = &t->levels[i];
		if (l->time_verdict == VERDICT_FASTER && isfinite(l->count) && (!fast || l->time_ratio < fast->time_ratio))
			fast = l;
	}
	char *keys[2], *names[2];
	double counts[3] = { t->start_score, NAN, NAN }, ratio[2];
	enum comparison_verdict verdict[9];
	size_t n = 0;
	if (fast) {
		keys[n] = fast->opt;
		names[n] = fast->opt;
		counts[++n] = fast->count;
	}
	keys[n] = k->best_key;
	names[n] = xasprintf("the best of %s", tune_technique_name(k->technique));
	counts[++n] = k->best;
	double wall, t0 = now_monotonic();
	size_t cells;
	fprintf(stderr, "flagbench: tune: timing %s (%.3gx the start's instructions) against the start%s%s\n", names[n - 1],
		r, fast ? " and " : "", fast ? fast->opt : "");
	unsigned runs = tune_check_rounds(n + 1);
	if (runs < t->o->screen_runs)
		runs = t->o->screen_runs;
	if (tune_time_keys(t, keys, n, runs, ratio, verdict, &wall, &cells) == 0)
		tune_screen_judge(t, "the search's best", names, n, counts, ratio, verdict);
	k->spent_s += now_monotonic() - t0;
	free(names[n - 1]);
}
