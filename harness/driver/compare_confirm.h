/* compare_confirm.h: `flagbench compare` as the command asks it, and
 * --confirm, the part that measures.
 *
 * compare_main() loads NEW, then BASE (or the stored baseline of NEW's cpu
 * profile), compares them with analysis/compare.h (pure: records in, a
 * struct comparison out) and, with --confirm N, measures the suspect
 * cells again: both binaries replayed from the run folders' bin/
 * (results/replay.h), handed to the session as any build is
 * (pipeline/session.h session_ready: stored, so not compiled; prepared and
 * verified, so a binary whose output is wrong is reported with its status
 * and reason, never timed), then timed through the one scheduler
 * (schedule.h) with the session's executor and limits in N balanced
 * rounds, with NEW's own drain settings (--consumer, --consumer-wait,
 * --pipe-size) and its profile's cooldown; an answer still open gets the
 * rounds again, up to twice.
 *
 * --confirm measures every cell whose program changed and whose verdict
 * is not same, faster ones too (between two runs the machine may have
 * moved more than the change: a slowdown measured against a busier base
 * run reads faster), and the suspects among the rest
 * (analysis/compare.h compare_confirm_wanted); --confirm-changed every
 * cell whose program changed, those within the threshold too (the
 * nightly: the history's measured steps); what could not be done is said
 * in the warnings, each cell's note and comparison.confirm_status (no
 * hyperfine, no work folder under $TMPDIR); --record writes those measurements into
 * NEW's results.json as "beside" (results/beside.h).
 */
#ifndef FLAGBENCH_COMPARE_CONFIRM_H
#define FLAGBENCH_COMPARE_CONFIRM_H

#include "analysis/compare.h"
#include "pipeline/executor.h"
#include "pipeline/session.h"

/* One comparison as the command line asks it. */
struct compare_request {
	const char *base;          /* BASE: a run folder or results.json; unused with baseline */
	const char *new_run;       /* NEW, the same */
	const char *baseline;      /* NULL, or BASE is the stored baseline NAME of NEW's cpu profile */
	const char *baselines_dir; /* where baselines are stored (NULL: the project's baselines/) */
	struct compare_opts opts;
	unsigned confirm;          /* --confirm rounds; 0: none */
	int confirm_changed;       /* --confirm-changed: every cell whose program changed, not only the suspects */
	int record;                /* --record: what was measured goes into NEW's results.json (results/beside.h) */
	double alarm_rate;         /* fraction */
	/* the limits of every replay (session_limits_derive: the run's from
	 * --timeout, the verification's from it; nothing is built) */
	struct session_limits lim;
	/* what measures the replays: NULL the real one (executor_hyperfine);
	 * executor_mock with --dry-run, so the selection and the JSON are
	 * testable without hyperfine */
	const struct executor *executor;
};

/* Loads NEW, then BASE (or the baseline), compares them into out and,
 * with rq->confirm, measures the suspect cells again.  0, or -1 after an
 * error message (bad input: exit 2).  Free out with comparison_free
 * either way. */
int compare_main(const struct compare_request *rq, struct comparison *out);

#endif
