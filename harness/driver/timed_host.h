/* timed_host.h: what the host did while a run's cells were timed, into
 * the run's record (results.h's struct run_state) and its warnings.
 *
 *   timed_steal()    the host's share of the CPU (system/steal.h): run.steal,
 *                    and a warning past STEAL_WARN
 *   timed_handoff()  where the host had the stream cells' two CPUs
 *                    (system/handoff.h): settles every batch's state from
 *                    all the run's readings (schedule_settle_states), a
 *                    line with the mix where there was more than one
 *                    state, a warning where the probe could not run
 *   timed_drift()    the machine's drift over the rounds (stats.h), run.drift
 *
 * Made-up times (--dry-run) met no host: steal records nothing then, and
 * handoff only what a made-up probe read (FLAGBENCH_MOCK_HANDOFF).  Cells read back from the journal (--resume) were timed by an
 * earlier process and are left out.
 */
#ifndef FLAGBENCH_TIMED_HOST_H
#define FLAGBENCH_TIMED_HOST_H

#include "pipeline/executor.h"
#include "pipeline/plan.h"
#include "results/results.h"
#include "system/handoff.h"
#include "system/steal.h"

/* Ends w (begun before the timing) and records it. */
void timed_steal(struct steal_watch *w, enum executor_times times, struct run_state *rs);
/* g: the session's gate (NULL: none). */
void timed_handoff(struct plan *p, const struct handoff_gate *g, enum executor_times times,
		   struct run_state *rs);
/* sequential: the cells ran back to back, so no rounds to compare. */
void timed_drift(const struct plan *p, int sequential, struct run_drift *d);

#endif
