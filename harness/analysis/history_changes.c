/* history_changes.c: see history_changes.h */
#define _GNU_SOURCE
#include "analysis/history_changes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/levels.h"
#include "core/stats.h"
#include "core/util.h"

/* Whether two runs, or two series, are of one machine (profile and host). */
static int same_machine(const char *profile_a, const char *host_a, const char *profile_b, const char *host_b)
{
	return !strcmp(profile_a, profile_b) && !strcmp(host_a, host_b);
}

/* How many runs of r's machine lie in runs [from, to): runs are oldest
 * first, so from r + 1 on they are newer, below r older. */
static size_t machine_runs(const struct history_data *d, size_t r, size_t from, size_t to)
{
	size_t n = 0;
	for (size_t i = from; i < to; i++)
		n += same_machine(d->runs[i].profile, d->runs[i].host, d->runs[r].profile, d->runs[r].host);
	return n;
}

int history_run_is_newest(const struct history_data *d, size_t r)
{
	return machine_runs(d, r, r + 1, d->nruns) == 0;
}

/* The history's point of night x of c, and the run index of a night. */
static const struct hist_point *point_of(const struct hcell *c, size_t x)
{
	return &c->s->pts[c->nights[x].pt];
}

size_t hcell_run_of(const struct hcell *c, size_t x)
{
	return point_of(c, x)->run;
}

/* The nights of series s for metric m: a value per night and its summary. */
/* Whether two levels' round trips are one state (as compare has it). */
static int one_state(double a, double b)
{
	return a < LEVELS_MIN_FACTOR * b && b < LEVELS_MIN_FACTOR * a;
}

/* The runs of night p in the state of level (all with level NAN, or a
 * night without states). */
static size_t runs_in(const struct hist_point *p, double level)
{
	size_t k = 0;
	for (size_t i = 0; i < p->ntimes; i++)
		k += isnan(level) || !p->level_ns || one_state(p->level_ns[i], level);
	return k;
}

/* The state a stream series is read in: the level in which the most
 * nights have COMPARISON_MIN_RUNS runs, the nearest of equals; NAN where
 * no night has states. */
static double series_level(const struct hist_series *s)
{
	double best = NAN;
	size_t most = 0;
	for (size_t i = 0; i < s->n; i++)
		for (size_t r = 0; s->pts[i].level_ns && r < s->pts[i].ntimes; r++) {
			double l = s->pts[i].level_ns[r];
			if (!(l > 0))
				continue;
			size_t nights = 0;
			for (size_t j = 0; j < s->n; j++)
				nights += s->pts[j].level_ns && runs_in(&s->pts[j], l) >= COMPARISON_MIN_RUNS;
			if (nights > most || (nights == most && l < best && !one_state(l, best))) {
				most = nights;
				best = l;
			}
		}
	return best;
}

static void nights_of(const struct hist_series *s, enum metric m, struct hcell *c)
{
	c->s = s;
	c->nights = xcalloc(s->n + 1, sizeof(*c->nights));
	c->cs.y = xcalloc(s->n + 1, sizeof(double));
	c->cs.w = xcalloc(s->n + 1, sizeof(double));
	c->p_first = 1;
	c->level_ns = m == METRIC_TIME ? series_level(s) : NAN;
	c->other_state = 0;
	for (size_t i = 0; i < s->n; i++) {
		const struct hist_point *p = &s->pts[i];
		if (!p->status || strcmp(p->status, "ok"))
			continue;
		double y, w;
		size_t k = 0;
		if (m == METRIC_TIME) {
			/* a night with too few runs in the series' state ran in
			 * another: its figure is the machine's mix, not the code */
			if (!isnan(c->level_ns) && p->level_ns && runs_in(p, c->level_ns) < COMPARISON_MIN_RUNS) {
				c->other_state++;
				continue;
			}
			double per = p->size > 0 ? p->size : 1;
			double *x = xcalloc(p->ntimes + 1, sizeof(double));
			for (size_t r = 0; r < p->ntimes; r++)
				if (isnan(c->level_ns) || !p->level_ns || one_state(p->level_ns[r], c->level_ns))
					x[k++] = p->times[r] / per;
			cp_night(x, k, CP_QUANTILE, &y, &w);
			free(x);
		} else {
			if (!(p->instructions > 0))
				continue;
			k = 1;
			cp_night(&p->instructions, 1, CP_QUANTILE, &y, &w);
		}
		if (!isfinite(y))
			continue;
		c->nights[c->n] = (struct hnight){ .pt = i, .value = exp(y), .runs = k };
		c->cs.y[c->n] = y;
		c->cs.w[c->n] = w;
		c->n++;
	}
	c->cs.n = c->n;
}

/* One machine's cells (profile and host) share their night noise and
 * scale (cp_pool): the series come by machine. */
static void pool_machines(struct history_analysis *out, double floor)
{
	struct cp_series **group = xcalloc(out->ncells + 1, sizeof(*group));
	for (size_t i = 0; i < out->ncells;) {
		size_t j = i, k = 0;
		const struct hist_series *first = out->cells[i].s;
		while (j < out->ncells &&
		       same_machine(out->cells[j].s->profile, out->cells[j].s->host, first->profile, first->host))
			group[k++] = &out->cells[j++].cs;
		cp_pool(group, k, floor);
		i = j;
	}
	free(group);
}

/* A real difference: the measured interval excludes 1.  A step, however
 * small; whether it fails the night is the threshold's (beyond_threshold). */
static int measured_real(const struct hist_beside *m)
{
	return m->low > 1 || m->high < 1;
}

/* The comparison's verdict at the recorded threshold: slower or faster beyond it. */
static int beyond_threshold(const struct hist_beside *m)
{
	return !strcmp(m->verdict, "slower") || !strcmp(m->verdict, "faster");
}

int history_alarm(const struct history_data *d, const struct hcell *c, size_t k)
{
	const struct hchange *h = &c->cps[k];
	size_t at = h->point.at, run = hcell_run_of(c, at), last = hcell_run_of(c, c->n - 1);
	if (h->measured == HISTORY_MEASURED_NONE)
		return 0;
	/* a measured step within the threshold is a step, not a regression to fail on */
	if (h->measured == HISTORY_MEASURED_STEP && !beyond_threshold(&point_of(c, at)->beside))
		return 0;
	if (h->cause.kind != CAUSE_MACHINE)
		return history_run_is_newest(d, run);
	return machine_runs(d, run, run + 1, d->nruns) == 1 && at + 2 == c->n && history_run_is_newest(d, last);
}

/* What was recorded as changed between nights x - 1 and x of c: 1 with
 * *near filled when something was, else 0 (nothing to free). */
static int recorded_at(const struct history_data *d, const struct hcell *c, size_t x, struct cp_cause *near)
{
	cp_cause_of(d, point_of(c, x - 1), point_of(c, x), near);
	if (near->kind != CAUSE_MACHINE)
		return 1;
	cp_cause_free(near);
	return 0;
}

/* Change point h is named by cause, with text (taken) for its words. */
static void name_cause(struct hchange *h, struct cp_cause *cause, char *text)
{
	free(cause->text);
	cause->text = text;
	cp_cause_free(&h->cause);
	h->cause = *cause;
}

/* Pass 1, a night either side: a step's night is an estimate; where
 * nothing changed there, a change recorded one night either side of it
 * is named (and said to be a night off). */
static void cause_night_either_side(const struct history_data *d, struct hcell *c, size_t k)
{
	struct hchange *h = &c->cps[k];
	size_t at = h->point.at;
	for (int off = 1; off >= -1 && h->cause.kind == CAUSE_MACHINE; off -= 2) {
		size_t x = at + (size_t)off;
		if (x < 1 || x >= c->n || (off < 0 && at < 2))
			continue;
		struct cp_cause near;
		if (!recorded_at(d, c, x, &near))
			continue;
		h->off = 1;
		name_cause(h, &near,
			   xasprintf("%s (recorded a night %s the step's estimate)", near.text, off > 0 ? "after" : "before"));
	}
}

/* Pass 2, farther than a night: on a noisy machine the runs put a step
 * some nights from the change that made it.  The nearest night of the
 * step's segment (between its neighbours) where a change was recorded
 * and a step fits the runs nearly as well (cp_fits_at) becomes the step's
 * night, named so.  Without it a compiler's step found 3 nights early was
 * "the machine" on the wrong night. */
static void cause_move_to_recorded(const struct history_data *d, struct hcell *c, size_t k)
{
	struct hchange *h = &c->cps[k];
	const struct cp_point *p = &h->point;
	size_t lo = k ? c->cps[k - 1].point.at : p->from, hi = k + 1 < c->ncps ? c->cps[k + 1].point.at : p->to;
	lo = lo > p->from ? lo : p->from;
	hi = hi < p->to ? hi : p->to;
	for (size_t dist = 2; dist < c->n; dist++) {
		for (int sign = 1; sign >= -1; sign -= 2) {
			if (sign < 0 ? p->at < dist + 1 : p->at + dist >= c->n)
				continue;
			size_t x = sign > 0 ? p->at + dist : p->at - dist;
			if (x <= lo || x >= hi)
				continue;
			struct cp_cause near;
			struct cp_point moved;
			if (!recorded_at(d, c, x, &near))
				continue;
			if (cp_fits_at(&c->cs, p, x, &moved) < 0) {
				cp_cause_free(&near);
				continue;
			}
			h->point = moved;
			h->off = 1;
			name_cause(h, &near,
				   xasprintf("%s (the runs alone put the step %zu nights %s; a step at this change fits them too)",
					     near.text, dist, sign > 0 ? "earlier" : "later"));
			return;
		}
	}
}

/* How many other cells of c's machine (cells[i]) moved as change point h
 * did, with nothing recorded changed, within a night of the night h was
 * found on; *tested: the machine's cells with CP_MIN_NIGHTS nights. */
static size_t shared_shift(const struct history_analysis *out, size_t i, const struct hchange *h, size_t *tested)
{
	const struct history_data *d = &out->d;
	const struct hcell *c = &out->cells[i];
	size_t run = hcell_run_of(c, h->found.at), night = machine_runs(d, run, 0, run), shared = 0;
	int up = h->point.ratio > 1;
	*tested = 0;
	for (size_t j = 0; j < out->ncells; j++) {
		const struct hcell *o = &out->cells[j];
		if (!same_machine(o->s->profile, o->s->host, c->s->profile, c->s->host))
			continue;
		*tested += o->n >= CP_MIN_NIGHTS;
		if (j == i)
			continue;
		for (size_t m = 0; m < o->ncps; m++) {
			const struct hchange *x = &o->cps[m];
			size_t orun = hcell_run_of(o, x->point.at), on = machine_runs(d, orun, 0, orun);
			shared += x->cause.kind == CAUSE_MACHINE && !x->off && (x->point.ratio > 1) == up &&
				  (on > night ? on - night : night - on) <= 1;
		}
	}
	return shared;
}

/* Pass 3, across cells: a step named after a change recorded off its
 * night, while HISTORY_SHARED_SHIFT_CELLS other cells of the machine (and
 * a tenth of those tested) moved the same way within a night of it with
 * nothing recorded changed, is the machine's: a shift the cells share is
 * not the recorded change of one of them. */
static void cause_machine_shifts(struct history_analysis *out)
{
	for (size_t i = 0; i < out->ncells; i++) {
		struct hcell *c = &out->cells[i];
		for (size_t k = 0; k < c->ncps; k++) {
			struct hchange *h = &c->cps[k];
			size_t tested;
			if (!h->off)
				continue;
			size_t shared = shared_shift(out, i, h, &tested);
			if (shared < HISTORY_SHARED_SHIFT_CELLS || (double)shared < HISTORY_SHARED_SHIFT_SHARE * (double)tested)
				continue;
			/* the step where the scan found it, with what changed there */
			h->point = h->found;
			struct cp_cause own;
			cp_cause_of(&out->d, point_of(c, h->point.at - 1), point_of(c, h->point.at), &own);
			name_cause(h, &own,
				   xasprintf("%s; %zu other cells moved the same way within a night of it: a shift of the "
					     "machine, not %s",
					     own.text, shared, h->cause.text));
			h->off = 0;
		}
	}
}

/* What night x of c measured beside night x - 1's binary: the record
 * names that night's run and binary, and the binary changed, or (a
 * library step) the binary is the same and each night ran on its own
 * kept libraries; else NULL. */
static const struct hist_beside *beside_at(const struct history_data *d, const struct hcell *c, size_t x)
{
	const struct hist_point *a = point_of(c, x - 1), *b = point_of(c, x);
	const struct hist_beside *m = &b->beside;
	if (!m->run || strcmp(m->run, d->runs[a->run].run_id) || !a->sha256 || !b->sha256 ||
	    (strcmp(a->sha256, b->sha256) == 0) != (m->libraries != 0) || (m->base_sha256 && strcmp(m->base_sha256, a->sha256)))
		return NULL;
	return m;
}

/* "measured beside night RUN's binary in N interleaved rounds: R [L, H] at P %" (allocated) */
static char *measured_words(const struct hist_beside *m)
{
	return xasprintf("measured beside night %s's %s in %u interleaved rounds: %.3fx [%.3fx, %.3fx] at %.4g %%",
			 m->run, m->libraries ? "libraries (the same binary)" : "binary", m->rounds, m->ratio, m->low,
			 m->high, 100 * m->level);
}

static void cps_remove(struct hcell *c, size_t k)
{
	cp_cause_free(&c->cps[k].cause);
	memmove(&c->cps[k], &c->cps[k + 1], (c->ncps - k - 1) * sizeof(*c->cps));
	c->ncps--;
}

/* The measured step at night x of c (HISTORY_MEASURED_STEP), in night
 * order; the scan's steps it stands for go. */
static void measured_step(const struct history_data *d, struct hcell *c, size_t x, const struct hist_beside *m)
{
	int up = m->ratio > 1;
	for (size_t k = c->ncps; k-- > 0;) {
		size_t at = c->cps[k].point.at, dist = at > x ? at - x : x - at;
		if (!c->cps[k].measured && (dist == 0 || (dist <= HISTORY_MEASURED_NEAR && (c->cps[k].point.ratio > 1) == up)))
			cps_remove(c, k);
	}
	c->cps = xrealloc(c->cps, (c->ncps + 2) * sizeof(*c->cps));
	size_t k = 0;
	while (k < c->ncps && c->cps[k].point.at < x)
		k++;
	memmove(&c->cps[k + 1], &c->cps[k], (c->ncps - k) * sizeof(*c->cps));
	c->ncps++;
	struct hchange *h = &c->cps[k];
	memset(h, 0, sizeof(*h));
	h->point = (struct cp_point){
		.at = x,
		.from = k ? c->cps[k - 1].point.at : 0,
		.to = k + 1 < c->ncps ? c->cps[k + 1].point.at : c->n,
		.ratio = m->ratio,
		.low = m->low,
		.high = m->high,
		.t = NAN,
		.p = NAN,
	};
	h->found = h->point;
	h->measured = HISTORY_MEASURED_STEP;
	struct cp_cause cause;
	cp_cause_of(d, point_of(c, x - 1), point_of(c, x), &cause);
	char *words = measured_words(m);
	/* real, but not what the night fails on (history_alarm) */
	char within[64] = "";
	if (!beyond_threshold(m))
		snprintf(within, sizeof(within), isnan(m->threshold) ? "; within the threshold" : "; within the %g %% threshold",
			 100 * m->threshold);
	name_cause(h, &cause, xasprintf("%s; %s%s", cause.text, words, within));
	free(words);
}

/* Pass 4, the measurement: the nights measured beside the night before's
 * binary (HISTORY_MEASURED_STEP, HISTORY_MEASURED_NONE in the header). */
static void measured_steps(struct history_analysis *out)
{
	for (size_t i = 0; i < out->ncells; i++) {
		struct hcell *c = &out->cells[i];
		int counted = 0;
		for (size_t x = 1; x < c->n; x++) {
			const struct hist_beside *m = beside_at(&out->d, c, x);
			if (!m)
				continue;
			if (measured_real(m)) {
				/* a cell too short for the scan is tested by the measurement */
				out->tested += c->n < CP_MIN_NIGHTS && !counted;
				counted = 1;
				measured_step(&out->d, c, x, m);
				continue;
			}
			for (size_t k = 0; k < c->ncps; k++) {
				struct hchange *h = &c->cps[k];
				if (h->point.at != x || h->measured)
					continue;
				char *words = measured_words(m);
				char *text = xasprintf("%s; %s: no real step of the binary", h->cause.text, words);
				free(words);
				free(h->cause.text);
				h->cause.text = text;
				h->measured = HISTORY_MEASURED_NONE;
			}
		}
	}
}

/* What a quiet history can say of each cell (cp_step_seen,
 * cp_runs_for_step), its first scan's p into p[out->tested++], and the
 * cells' medians of them. */
static void first_scans(struct history_analysis *out, double *p)
{
	double *seen = xcalloc(out->ncells + 1, sizeof(double)), *need = xcalloc(out->ncells + 1, sizeof(double)),
	       *took = xcalloc(out->ncells + 1, sizeof(double));
	size_t nseen = 0;
	for (size_t i = 0; i < out->ncells; i++) {
		struct hcell *c = &out->cells[i];
		/* two nights cannot tell the nights' noise from a step between them */
		c->step_seen = c->n >= CP_MIN_NIGHTS ? cp_step_seen(&c->cs, HISTORY_SEEN_NIGHTS) : NAN;
		c->runs_typical = c->runs_for_step = NAN;
		if (c->n >= CP_MIN_NIGHTS) {
			double *r = xcalloc(c->n, sizeof(double));
			for (size_t k = 0; k < c->n; k++)
				r[k] = (double)c->nights[k].runs;
			qsort(r, c->n, sizeof(double), stats_cmp_double);
			/* a night's count of runs: the middle night's, not an average */
			c->runs_typical = r[c->n / 2];
			free(r);
			c->runs_for_step = cp_runs_for_step(&c->cs, c->runs_typical, HISTORY_SEEN_STEP, HISTORY_SEEN_NIGHTS);
		}
		if (!isnan(c->step_seen) && !isnan(c->runs_for_step)) {
			need[nseen] = c->runs_for_step;
			took[nseen] = c->runs_typical;
			seen[nseen++] = c->step_seen;
		}
		if (c->n >= CP_MIN_NIGHTS) {
			c->p_first = cp_first_p(&c->cs);
			p[out->tested++] = c->p_first;
		}
	}
	out->seen_median = out->seen_low = out->seen_high = out->runs_for_step_median = out->runs_typical_median = NAN;
	if (nseen) {
		/* the median cell's figures (a cell's, not an average of two) */
		qsort(seen, nseen, sizeof(double), stats_cmp_double);
		qsort(need, nseen, sizeof(double), stats_cmp_double);
		qsort(took, nseen, sizeof(double), stats_cmp_double);
		out->seen_median = seen[nseen / 2];
		out->seen_low = seen[0];
		out->seen_high = seen[nseen - 1];
		out->runs_for_step_median = need[nseen / 2];
		out->runs_typical_median = took[nseen / 2];
	}
	free(seen);
	free(need);
	free(took);
}

/* The change points of c at the cut, each named by what changed at its
 * night, else a night either side, else farther (passes 1 and 2). */
static void segment_and_name(const struct history_data *d, struct hcell *c, double cut)
{
	struct cp_point *pts = NULL;
	c->ncps = cp_segment(&c->cs, cut, &pts);
	c->cps = xcalloc(c->ncps + 1, sizeof(*c->cps));
	for (size_t k = 0; k < c->ncps; k++)
		c->cps[k].point = c->cps[k].found = pts[k];
	free(pts);
	for (size_t k = 0; k < c->ncps; k++) {
		struct hchange *h = &c->cps[k];
		cp_cause_of(d, point_of(c, h->point.at - 1), point_of(c, h->point.at), &h->cause);
		cause_night_either_side(d, c, k);
		if (h->cause.kind == CAUSE_MACHINE)
			cause_move_to_recorded(d, c, k);
	}
}

void history_analyse_data(const struct history_data *d, enum metric m, double alarm_rate,
			  struct history_analysis *out)
{
	memset(out, 0, sizeof(*out));
	out->metric = m;
	out->alarm_rate = alarm_rate;
	out->d = *d;
	out->ncells = out->d.nseries;
	out->cells = xcalloc(out->ncells + 1, sizeof(*out->cells));
	for (size_t i = 0; i < out->ncells; i++)
		nights_of(&out->d.series[i], m, &out->cells[i]);
	pool_machines(out, m == METRIC_TIME ? CP_FLOOR_TIME : CP_FLOOR_COUNT);
	double *p = xcalloc(out->ncells + 1, sizeof(double));
	first_scans(out, p);
	/* one cut for every cell: Benjamini-Hochberg over their first scans */
	out->cut = cp_bh_cut(p, out->tested, alarm_rate);
	free(p);
	for (size_t i = 0; i < out->ncells; i++) {
		struct hcell *c = &out->cells[i];
		if (c->n >= CP_MIN_NIGHTS && c->p_first <= out->cut)
			segment_and_name(&out->d, c, out->cut);
	}
	cause_machine_shifts(out);
	/* the measurement is of time: counts are exact without it */
	if (m == METRIC_TIME)
		measured_steps(out);
	for (size_t i = 0; i < out->ncells; i++) {
		struct hcell *c = &out->cells[i];
		for (size_t k = 0; k < c->ncps; k++) {
			out->alarms += (size_t)(c->cps[k].alarm = history_alarm(&out->d, c, k));
			if (history_run_is_newest(&out->d, hcell_run_of(c, c->cps[k].point.at)))
				c->newest_step = 1;
		}
		out->nchanges += c->ncps;
		out->newest_steps += (size_t)c->newest_step;
	}
}

void history_analysis_free(struct history_analysis *a)
{
	for (size_t i = 0; i < a->ncells; i++) {
		struct hcell *c = &a->cells[i];
		for (size_t k = 0; k < c->ncps; k++)
			cp_cause_free(&c->cps[k].cause);
		free(c->cps);
		free(c->nights);
		cp_series_free(&c->cs);
	}
	free(a->cells);
	if (a->owns)
		history_data_free(&a->d);
	memset(a, 0, sizeof(*a));
}
