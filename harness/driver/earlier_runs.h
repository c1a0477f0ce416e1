/* earlier_runs.h: this host's earlier runs beside a run, read before its rounds.
 *
 * The tables widen each ratio by how far the same two binaries' ratio
 * moved between the runs beside a run (results/ratio_drift.h); the run's
 * spare runs go by the same figures (analysis/undecided.h), so they are
 * read before the rounds, from the run folder's parent, for the host the
 * run records and the time it started, and said in one line on stderr:
 * how many runs, the newest, and the ratio that moved most.
 */
#ifndef FLAGBENCH_EARLIER_RUNS_H
#define FLAGBENCH_EARLIER_RUNS_H

#include <jansson.h>

#include "results/ratio_drift.h"

/* Fills *out (results_between_release() frees it); more_dir: --earlier-runs
 * (NULL: none); any_host: --earlier-runs-of cpu, any host's runs of the
 * same CPU model; host: the run's host_json(); started_wall: the run's
 * start (now_wall()). */
void earlier_runs_read(const char *run_dir, const char *more_dir, int any_host, const json_t *host,
		       double started_wall, struct between_runs *out);

#endif
