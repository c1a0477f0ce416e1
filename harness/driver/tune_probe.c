/* tune_probe.c: see tune_probe.h */
#define _GNU_SOURCE
#include "driver/tune_probe.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/json_util.h"
#include "core/runcmd.h"
#include "core/util.h"
#include "driver/tune_eval.h"
#include "driver/tune_journal.h"
#include "driver/tune_screen.h"
#include "driver/tune_start.h"
#include "pipeline/build_progress.h"

void tune_format_seconds(double s, char *buf, size_t n)
{
	if (!isfinite(s) || s < 0)
		snprintf(buf, n, "?");
	else if (s < 0.095)
		snprintf(buf, n, "%.2f s", s);
	else if (s < 9.95)
		snprintf(buf, n, "%.1f s", s);
	else if (s < 119.5)
		snprintf(buf, n, "%.0f s", s);
	else
		format_duration(s, buf, n);
}

static unsigned batch_of(const struct tune *t)
{
	return t->o->batch ? t->o->batch : tune_default_batch(t->o->jobs);
}

/* One compile of the start into a cache of its own: what a compile takes
 * when every build so far came from the cache.  NAN when it could not. */
static double compile_once(struct tune *t)
{
	char *cache = xasprintf("%s/probe-cache-%s", t->work, t->stamp);
	struct session ps;
	session_open(&ps, t->session.x, cache, 1, &t->session.lim);
	struct plan bp;
	struct session_batch b;
	double dt = tune_build_start(t, &ps, &bp, &b);
	unsigned compiled = b.built.compiled;
	session_batch_release(&b);
	plan_free_copies(&bp);
	session_close(&ps);
	free(cache);
	return compiled ? dt : NAN;
}

/* A candidate's share of its batch's timed rounds: per_cell_round is one
 * cell's run in one round; a batch of b times b + 1 cells (the start's
 * too) for --screen-runs rounds. */
static double time_screen_s(const struct tune *t, double per_cell_round)
{
	unsigned b = batch_of(t);
	return per_cell_round * t->o->screen_runs * (double)(b + 1) / (double)b;
}

/* The cost of a candidate from the start's figures and the levels' batch. */
static void figure_cost(struct tune *t, int levels_built, double per_cell_round)
{
	const struct tune_batch_cost *s = &t->start_cost, *l = &t->last;
	unsigned jobs = t->o->jobs ? t->o->jobs : 1;
	if (levels_built && l->compiled)
		/* the levels compiled in waves of --jobs: one wave, one compile */
		t->cost.build_s = l->build_s / (double)((l->compiled + jobs - 1) / jobs);
	else if (s->compiled)
		t->cost.build_s = s->build_s;
	else
		t->cost.build_s = compile_once(t);
	if (!isfinite(t->cost.build_s))
		t->cost.build_s = s->build_s;
	unsigned checked = s->checked + (levels_built ? l->checked : 0);
	t->cost.check_s = checked ? (s->check_s + (levels_built ? l->check_s : 0)) / checked : 0;
	t->cost.screen_in_waves = t->metric == METRIC_INSTRUCTIONS;
	if (t->metric == METRIC_INSTRUCTIONS) {
		/* the levels counted --jobs at once: a wave, one count */
		if (levels_built && l->screened)
			t->cost.screen_s = l->screen_s / (double)((l->screened + jobs - 1) / jobs);
		else
			t->cost.screen_s = s->screened ? s->screen_s : 0;
	} else if (isfinite(per_cell_round)) {
		t->cost.screen_s = time_screen_s(t, per_cell_round);
	} else {
		/* nothing timed yet: a run is about what a check takes, and each
		 * round a warmup run goes first */
		double run = t->cost.check_s;
		t->cost.screen_s = time_screen_s(t, run * (1 + t->o->warmup));
	}
}

static json_t *probe_event(const struct tune *t, int checked)
{
	json_t *lv = json_array();
	for (size_t i = 0; i < t->nlevels; i++) {
		const struct tune_level *l = &t->levels[i];
		json_t *o = json_pack("{s:s, s:s}", "opt", l->opt, "time_verdict", comparison_verdict_word(l->time_verdict));
		jset_num(o, "count", l->count);
		jset_num(o, "time_ratio", l->time_ratio);
		json_array_append_new(lv, o);
	}
	json_t *o = json_pack("{s:s, s:o, s:b}", "event", "probe", "levels", lv, "checked", checked);
	jset_num(o, "build_s", t->cost.build_s);
	jset_num(o, "check_s", t->cost.check_s);
	jset_num(o, "screen_s", t->cost.screen_s);
	return o;
}

static enum comparison_verdict verdict_of(const char *word)
{
	for (int v = VERDICT_NO_DATA; v <= VERDICT_SAME_BINARY; v++)
		if (word && !strcmp(word, comparison_verdict_word((enum comparison_verdict)v)))
			return (enum comparison_verdict)v;
	return VERDICT_NO_DATA;
}

/* --resume: what the probe found, as journaled. */
static void probe_from_journal(struct tune *t)
{
	const struct tune_record_probe *p = &t->journaled->probe;
	t->cost.build_s = p->build_s;
	t->cost.check_s = p->check_s;
	t->cost.screen_s = p->screen_s;
	for (size_t i = 0; i < p->nlevels && t->nlevels < TUNE_OPT_LEVELS_MAX; i++) {
		struct tune_level *lv = &t->levels[t->nlevels++];
		lv->opt = xstrdup(p->levels[i].opt);
		lv->count = p->levels[i].count;
		lv->time_ratio = p->levels[i].time_ratio;
		lv->time_verdict = verdict_of(p->levels[i].time_verdict);
	}
	if (p->checked)
		tune_screen_replay(t);
}

/* The levels' own figures, and, where tune chose counts, their times. */
static int measure_levels(struct tune *t, double *per_cell_round)
{
	size_t n = t->nlevels;
	struct tune_pending *pd = xcalloc(n + 1, sizeof(*pd));
	struct strbuf names = STRBUF_INIT;
	for (size_t i = 0; i < n; i++) {
		pd[i] = (struct tune_pending){ .track = TUNE_PROBE, .key = t->levels[i].opt, .op = "probe" };
		sb_addf(&names, "%s%s", i ? ", " : "", t->levels[i].opt);
	}
	fprintf(stderr, "flagbench: tune: first the -O levels %s: built together, checked, %s\n", names.buf,
		t->metric == METRIC_INSTRUCTIONS ? "counted" : "timed beside the start");
	sb_release(&names);
	tune_evaluate(t, pd, n, t->o->screen_runs);
	if (t->metric == METRIC_TIME && t->last.timed_cells)
		*per_cell_round = t->last.screen_s / ((double)t->last.timed_cells * t->o->screen_runs);
	for (size_t i = 0; i < n; i++) {
		if (!pd[i].recorded)
			continue;
		const struct tune_eval *e = &t->ev[pd[i].ev];
		struct tune_level *l = &t->levels[i];
		if (t->metric == METRIC_INSTRUCTIONS) {
			l->count = e->score;
		} else {
			l->time_ratio = e->score;
			l->time_verdict = e->verdict;
		}
	}
	free(pd);
	return fb_interrupted ? -1 : 0;
}

/* Counts against time on the levels (tune_screen.h): 1 when checked.
 * Only the levels counted take part: one that did not build or run has
 * no rank to check. */
static int check_levels(struct tune *t, double *per_cell_round)
{
	size_t n = 0, *which = xcalloc(t->nlevels + 1, sizeof(*which));
	for (size_t i = 0; i < t->nlevels; i++)
		if (isfinite(t->levels[i].count))
			which[n++] = i;
	size_t m = n + 1;
	char **keys = xcalloc(n + 1, sizeof(*keys));
	double *counts = xcalloc(m, sizeof(*counts)), *ratio = xcalloc(m, sizeof(*ratio));
	enum comparison_verdict *verdict = xcalloc(m * m, sizeof(*verdict));
	counts[0] = t->count_start;
	for (size_t i = 0; i < n; i++) {
		keys[i] = t->levels[which[i]].opt;
		counts[i + 1] = t->levels[which[i]].count;
	}
	unsigned runs = tune_check_rounds(m);
	if (runs < t->o->screen_runs)
		runs = t->o->screen_runs;
	double wall;
	size_t cells;
	int checked = 0;
	if (n) {
		fprintf(stderr, "flagbench: tune: timing the -O levels beside the start, %u rounds: do instructions rank them "
				"as time does?\n",
			runs);
		if (tune_time_keys(t, keys, n, runs, ratio, verdict, &wall, &cells) == 0) {
			for (size_t i = 0; i < n; i++) {
				t->levels[which[i]].time_ratio = ratio[i];
				t->levels[which[i]].time_verdict = verdict[i + 1];
			}
			if (cells)
				*per_cell_round = wall / ((double)cells * runs);
			tune_screen_judge(t, "the -O levels", keys, n, counts, ratio, verdict);
			checked = 1;
		}
	}
	free(which);
	free(keys);
	free(counts);
	free(ratio);
	free(verdict);
	return checked;
}

int tune_probe(struct tune *t)
{
	size_t od = tune_space_opt_dim(&t->space);
	t->nseeds = tune_search_seeds(&t->space, NULL, 0);
	t->needed = tune_candidates_needed(t->nseeds);
	t->checked_best = 1;
	if (t->journaled && t->journaled->has_probe) {
		probe_from_journal(t);
	} else {
		if (od != (size_t)-1) {
			const struct tune_dim *d = &t->space.dims[od];
			for (size_t c = 0; c < d->nchoices && t->nlevels < TUNE_OPT_LEVELS_MAX; c++)
				if (c != d->start)
					t->levels[t->nlevels++] = (struct tune_level){ .opt = xstrdup(d->choices[c]), .count = NAN,
										.time_ratio = NAN };
		}
		double per_cell_round = NAN;
		int built = t->nlevels > 0;
		if (built && measure_levels(t, &per_cell_round) < 0)
			return -1;
		int checked = 0;
		if (built && t->metric == METRIC_INSTRUCTIONS && !t->o->metric_asked)
			checked = check_levels(t, &per_cell_round);
		if (fb_interrupted)
			return -1;
		figure_cost(t, built, per_cell_round);
		tune_journal_write(t, probe_event(t, checked));
	}
	for (size_t i = 0; i < t->nlevels && t->metric == METRIC_INSTRUCTIONS; i++)
		if (t->levels[i].count / t->start_score < t->checked_best)
			t->checked_best = t->levels[i].count / t->start_score;
	tune_budget_plan(&t->cost, t->o->jobs, batch_of(t), t->o->budget_s, t->o->budget_candidates, &t->plan);
	/* a batch's build says how it goes only where a compile is long
	 * enough to wait for; tune says what each batch found */
	if (t->cost.build_s < BUILD_PROGRESS_S)
		t->session.progress = NULL;
	return 0;
}

/* "--budget 52m" for s seconds, rounded up. */
static void budget_words(double s, char *buf, size_t n)
{
	if (s <= 5940)
		snprintf(buf, n, "%.0fm", ceil(s / 60));
	else
		snprintf(buf, n, "%.1fh", ceil(s / 360) / 10);
}

void tune_announce(const struct tune *t)
{
	const struct tune_budget_plan *p = &t->plan;
	char all[32], build[32], check[32], screen[32], budget[256], cpus[64], need[256];
	tune_format_seconds(p->candidate_s, all, sizeof(all));
	tune_format_seconds(t->cost.build_s, build, sizeof(build));
	tune_format_seconds(t->cost.check_s, check, sizeof(check));
	tune_format_seconds(t->cost.screen_s, screen, sizeof(screen));
	const char *whose = t->ntracks > 1 ? "each technique's budget" : "the budget";
	if (t->o->budget_s > 0) {
		char b[32];
		tune_format_seconds(t->o->budget_s, b, sizeof(b));
		snprintf(budget, sizeof(budget), "%s of %s buys about %u candidates in %u batch%s", whose, b, p->candidates,
			 p->batches, p->batches == 1 ? "" : "es");
	} else {
		char d[32];
		tune_format_seconds(p->seconds, d, sizeof(d));
		snprintf(budget, sizeof(budget), "%s of %u candidates takes about %s in %u batch%s", whose, p->candidates, d,
			 p->batches, p->batches == 1 ? "" : "es");
	}
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	if (online > 0 && (unsigned long)online == p->jobs)
		snprintf(cpus, sizeof(cpus), "%u CPU%s", p->jobs, p->jobs == 1 ? "" : "s");
	else
		snprintf(cpus, sizeof(cpus), "%u compiler%s at once", p->jobs, p->jobs == 1 ? "" : "s");
	size_t od = tune_space_opt_dim(&t->space), nlev = od == (size_t)-1 ? 0 : t->space.dims[od].nchoices - 1;
	if (t->nseeds > nlev)
		snprintf(need, sizeof(need), "%zu seeds, the %zu other -O levels and the %zu flags and params in which they "
					     "differ, then %d rounds of the ensemble's %d operators",
			 t->nseeds, nlev, t->nseeds - nlev, TUNE_NEEDED_ROUNDS, TUNE_OPERATORS);
	else if (t->nseeds)
		snprintf(need, sizeof(need), "%zu seeds, the other -O levels, then %d rounds of the ensemble's %d operators",
			 t->nseeds, TUNE_NEEDED_ROUNDS, TUNE_OPERATORS);
	else
		snprintf(need, sizeof(need), "%d rounds of the ensemble's %d operators", TUNE_NEEDED_ROUNDS, TUNE_OPERATORS);
	fprintf(stderr, "flagbench: tune: one candidate costs about %s (build %s, check %s, screen %s); %s, batches of %u: "
			"%s; a search of this space (%zu dimensions) needs about %zu to do better than chance (%s)\n",
		all, build, check, screen, cpus, p->batch, budget, t->space.n, t->needed, need);
	if (p->candidates >= t->needed)
		return;
	double s = tune_budget_seconds(&t->cost, p->jobs, p->batch, t->needed);
	char d[32], b[32];
	tune_format_seconds(s, d, sizeof(d));
	budget_words(s, b, sizeof(b));
	if (t->o->budget_s > 0)
		fprintf(stderr, "flagbench: tune: the budget is short of that: --budget %s buys about %zu\n", b, t->needed);
	else
		fprintf(stderr, "flagbench: tune: the budget is short of that: --budget %zu takes about %s\n", t->needed, d);
}
