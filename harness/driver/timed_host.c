/* timed_host.c: see timed_host.h */
#include "driver/timed_host.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/stats.h"
#include "core/util.h"

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

void timed_handoff(const struct plan *p, const struct handoff_gate *g, enum executor_times times,
		   struct run_state *rs)
{
	if (times != EXECUTOR_TIMES_MEASURED)
		return;
	unsigned batches = 0, put_off = 0, kept_batches = 0, kept = 0, cells_kept = 0;
	for (size_t i = 0; i < p->n; i++) {
		const struct cell_handoff *h = &p->cells[i].measure.handoff;
		if (p->cells[i].origin == CELL_FROM_JOURNAL)
			continue;
		batches += h->batches;
		put_off += h->skipped;
		kept_batches += h->far_kept;
		kept += h->runs_far_kept;
		cells_kept += h->runs_far_kept > 0;
	}
	if (g && g->status == HANDOFF_UNAVAILABLE)
		warn_run(rs, xasprintf("the stream cells' two CPUs could not be probed for where the host put them "
				       "(%s): a run timed while the host had them far apart is not told from the others",
				       g->why.buf ? g->why.buf : ""));
	else if (kept)
		warn_run(rs, xasprintf("the host had the stream cells' two CPUs far apart before %u of %u batches: "
				       "they were put off to later rounds, but %u runs of %u cells ran far past what a "
				       "cell puts off and were kept (their warnings say so): a rerun may find other "
				       "figures",
				       put_off + kept_batches, batches, kept, cells_kept));
	else if (put_off)
		fprintf(stderr,
			"flagbench: the host had the stream cells' two CPUs far apart before %u of %u batches: they "
			"were put off to later rounds\n",
			put_off, batches);
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
