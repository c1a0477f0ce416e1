/* results.h: results.json and journal.jsonl (schema "flagbench-results/1").
 *
 * results_write() rebuilds the whole document from the run state and
 * replaces DIR/results.json atomically (temporary file, fsync, rename):
 * it is called after every finished cell, so a crash or Ctrl-C leaves the
 * last complete state.  results_journal_append() adds one line per
 * finished cell to DIR/journal.jsonl (append-only, fsynced); --resume
 * reads it back and runs only the cells it lacks.  A restored cell is
 * a full cell again (times, counters, thermal...), so speedups against
 * it are computed as if it had been measured in this run.
 * See docs/results-schema.md for every field.
 */
#ifndef FLAGBENCH_RESULTS_H
#define FLAGBENCH_RESULTS_H

#include <jansson.h>

#include "pipeline/plan.h"
#include "pipeline/shard.h"
#include "system/cooldown.h"

#define RESULTS_SCHEMA "flagbench-results/1"

struct phases {
	double plan_s, build_s, verify_s, measure_s, cooldown_s;
	double count_s; /* counting the compute builds (counters.h), before the timing */
};

/* The machine's drift over the run (stats.h: stats_machine_drift); why
 * says why there is none (NULL when sd is measured). */
struct run_drift {
	double sd;
	size_t rounds, cells;
	const char *why;
};

struct run_state {
	char *id, *dir;
	char *name; /* run.name: the folder the user chose (-o), NULL: none */
	double started_wall, started_mono, finished_wall;
	int interrupted, finished;
	json_t *argv, *host, *tools, *profile;
	const struct suite *suite;
	const struct cpu_profile *cpu_profile;
	struct plan *plan;
	struct strvec warnings;
	struct phases phases;
	double quantile; /* the statistic the cells report (stats.h): run.statistic */
	struct run_drift drift; /* run.drift: the tables widen every rerun interval by it */
	/* run.steal: the host's share of this VM's CPU time while timed, over
	 * the run and in its worst round (system/steal.h); NAN unknown */
	double steal_share, steal_worst;
	const struct cooldown_policy *cool; /* run.cooldown: the pauses as run.c took them (compare --confirm too) */
	json_t *kept_families; /* pipeline/store.h run_keep_families(): merged into families.NAME; NULL: none */
	char *earlier_dir; /* run.earlier_runs_dir: --earlier-runs, absolute; NULL: none */
	int earlier_any_host; /* run.earlier_runs_of "cpu": any host of the CPU model counts (--earlier-runs-of) */
	json_t *matrix; /* run.matrix: the command line's matrix (config/suite.h suite_matrix_parse); NULL: none */
	/* run.shard (--shard): K of N, and the whole plan's hash and cell
	 * count, which flagbench join checks (results/join.h); of 0: none */
	struct shard shard;
	char plan_sha256[65];
	size_t plan_cells;
	size_t *shard_cells; /* run.shard.plan_index: each cell's place in the whole plan */
};

/* Writes doc to path as results.json is written (indented, sorted keys,
 * 10 significant digits, a final newline), atomically: results_write, and
 * compare --record's additions (results/beside.h).  0, or -1 (errno set,
 * or after a message when it cannot be encoded). */
int results_write_document(const char *path, const json_t *doc);

/* The one serializer of a cell: its spec and every stage record, as a
 * results.json cell (docs/results-schema.md); the journal holds the same
 * objects, one per line. */
json_t *cell_to_json(const struct cell *c, const struct plan *p);
/* The one parser: reads back what cell_to_json() wrote into the outcome
 * and stage records of a cell whose spec the plan made (same id).
 * same_binary_as names a cell id, looked up in p.  Returns -1 when the
 * status is missing or unknown. */
int cell_from_json(struct cell *c, const json_t *j, const struct plan *p);
json_t *results_to_json(const struct run_state *rs);
int results_write(const struct run_state *rs);
int results_journal_append(const struct run_state *rs, const struct cell *c);

/* Reads DIR/journal.jsonl and restores the plan's cells found there with
 * cell_from_json() (origin CELL_FROM_JOURNAL); cells that were skipped or
 * interrupted run again.  Returns how many were restored, -1 on error. */
int results_resume(struct plan *p, const char *dir);

/* Throughput (stream) or rate (compute) of an ok cell, from its
 * statistic's time (stats.h: the point); NAN when unknown.  lo/hi from the
 * max/min times. */
double cell_rate(const struct cell *c, double *lo, double *hi);
/* Speedups against each family's baseline with the same config. */
void compute_speedups(struct plan *p);

/* time_s.rounds or time_s.places: one integer per run (-1 where one is
 * not), allocated; NULL unless the array has exactly nruns entries. */
int *results_per_run(const json_t *time_s, const char *key, size_t nruns);

#endif
