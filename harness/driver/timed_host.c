/* timed_host.c: see timed_host.h */
#include "driver/timed_host.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/stats.h"
#include "core/util.h"
#include "pipeline/schedule.h"

/* A warning into the run's record and on stderr. */
static void warn_run(struct run_state *rs, char *w)
{
	sv_push(&rs->warnings, w);
	warning("%s", w);
	free(w);
}

void timed_steal(struct steal_watch *w, enum executor_times times, struct run_state *rs)
{
	steal_watch_end(w, "/");
	if (times != EXECUTOR_TIMES_MEASURED)
		return;
	rs->steal_share = w->share;
	rs->steal_worst = w->worst;
	if (!(w->share >= STEAL_WARN))
		return;
	warn_run(rs, xasprintf("the host took %.1f %% of this machine's cpu time while it was timed (steal; %.0f %% "
			       "in the worst round): other guests share its cores, and a rerun may find other "
			       "figures than these intervals hold",
			       100 * w->share, 100 * (isnan(w->worst) ? w->share : w->worst)));
}

/* The stream batches of this process's cells by state. */
static void handoff_mix_of(const struct plan *p, struct handoff_mix *m)
{
	memset(m, 0, sizeof(*m));
	for (size_t i = 0; i < p->n; i++) {
		const struct cell_handoff *h = &p->cells[i].measure.handoff;
		if (p->cells[i].origin == CELL_FROM_JOURNAL || !h->batches)
			continue;
		m->states = h->states;
		memcpy(m->level_ns, h->level_ns, sizeof(m->level_ns));
		for (size_t b = 0; b < h->batches; b++)
			if (h->batch[b].state >= 1 && h->batch[b].state <= LEVELS_MAX) {
				m->batches[h->batch[b].state - 1]++;
				m->total++;
			}
	}
}

void timed_handoff(struct plan *p, const struct handoff_gate *g, enum executor_times times, struct run_state *rs)
{
	schedule_settle_states(p->cells, p->n);
	if (g && g->status == HANDOFF_UNAVAILABLE && times == EXECUTOR_TIMES_MEASURED) {
		warn_run(rs, xasprintf("the stream cells' two CPUs could not be probed for where the host put them "
				       "(%s): runs timed in different states are not told apart",
				       g->why.buf ? g->why.buf : ""));
		return;
	}
	struct handoff_mix mix;
	handoff_mix_of(p, &mix);
	if (mix.states < 2)
		return;
	struct strbuf sb = STRBUF_INIT;
	handoff_mix_say(&mix, &sb);
	fprintf(stderr, "flagbench: %s: each cell has a figure per state, and comparisons pair cells within one "
		"(docs/comparison.md)\n", sb.buf);
	sb_release(&sb);
}

void timed_drift(const struct plan *p, int sequential, struct run_drift *d)
{
	const double **runs = xcalloc(p->n + 1, sizeof(*runs));
	size_t *n = xcalloc(p->n + 1, sizeof(*n));
	d->cells = 0;
	for (size_t i = 0; i < p->n; i++) {
		const struct cell *c = &p->cells[i];
		if (c->status != CELL_OK || c->build.same_binary_as >= 0 || c->origin == CELL_FROM_JOURNAL ||
		    c->measure.time.n < 3)
			continue;
		runs[d->cells] = c->measure.time.runs;
		n[d->cells++] = c->measure.time.n;
	}
	/* back to back, a cell's runs share no round with another's */
	d->sd = sequential ? NAN : stats_machine_drift(runs, n, d->cells, &d->rounds);
	d->why = sequential ? "--order sequential: no rounds to compare"
		 : isnan(d->sd) ? "fewer than 5 rounds with 10 cells or half of them" : NULL;
	free(runs);
	free(n);
}
