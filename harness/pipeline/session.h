/* session.h: one measuring session, the path every command that builds
 * and measures takes: plan -> build -> dedupe -> prepare -> verify ->
 * count -> time.
 *
 * run, tune, explain and compare's confirmation each make cells (a plan,
 * clones of a cell with other flags, or cells replayed from a record) and
 * hand them to one call, session_ready(), which owns the order of the
 * stages before the timing; none of them sequences a stage itself.  So
 * every family kind works the same in all of them: built-in checkers,
 * declared checks (same_as, sha256, command, none), {input} files, a
 * family's own build system, folders outside the repo, layouts,
 * allocators; and no command can count or time a cell it did not verify.
 * The stages are the executor's (executor.h), so --dry-run mocks every
 * command alike.
 *
 * The limits of every child are derived once (session_limits_derive) from
 * the two a user sets, one run and one compile; a caller times with
 * s->lim.run_s.  Timing goes through the one scheduler (schedule.h) with
 * the session's executor and its handoff gate (session_handoff), so a
 * stream cell's runs are known by where the host had its two CPUs, in
 * every command alike.
 */
#ifndef FLAGBENCH_SESSION_H
#define FLAGBENCH_SESSION_H

#include <jansson.h>

#include "pipeline/executor.h"
#include "pipeline/plan.h"
#include "system/handoff.h"

struct session_limits {
	double run_s;    /* one timed run of a program */
	double build_s;  /* one compile (a pgo build: each phase) */
	/* the verification run streams the whole output through its check,
	 * which reads slower than the meter drains */
	double verify_s;
	/* a counting run: under callgrind a program runs 20-50 times slower */
	double count_s;
	double input_s;  /* a family's input command (once per size) */
};

#define SESSION_VERIFY_FACTOR 4
#define SESSION_COUNT_FACTOR 20

/* The limits from the run's and the compile's; verify_s 0: derived. */
void session_limits_derive(struct session_limits *l, double run_s, double build_s, double verify_s);

struct session_ref; /* a same_as reference the session built (session.c) */

struct session {
	const struct executor *x;
	char *cache;                 /* the build cache */
	unsigned jobs;               /* parallel compilers */
	struct session_limits lim;
	FILE *progress;              /* the builds' progress lines (build_progress.h): stderr, or NULL */
	double pretend_build_s;      /* the mock executor's pretend compile (--dry-run --pretend-build) */
	struct session_ref *refs;
	size_t nrefs;
	struct handoff_gate handoff; /* each pair of CPUs' readings and levels (system/handoff.h) */
};

/* cache NULL: the project's build/cache; jobs 0: the online CPUs;
 * progress lines on stderr. */
void session_open(struct session *s, const struct executor *x, const char *cache, unsigned jobs,
		  const struct session_limits *lim);
/* The program the executor drives (hyperfine), found on PATH: 0 with its
 * path in *path (NULL for an executor that drives none, the mock), or -1
 * when it is not on PATH (*path NULL; the caller says what to install). */
int session_find_tool(const struct session *s, char **path);
/* The gate the scheduler probes stream cells' CPUs through
 * (schedule.handoff), with the executor's probe (executor.h); NULL where
 * the executor makes its times up and has no probe. */
struct handoff_gate *session_handoff(struct session *s);
/* Frees what the session holds; a zeroed session (never opened) too. */
void session_close(struct session *s);

/* How far session_ready() takes a batch: each stage includes the ones
 * before it. */
enum session_stage {
	SESSION_NOTHING,   /* not begun */
	SESSION_BUILT,     /* built, deduped, prepared */
	SESSION_VERIFIED,  /* and every distinct pending program verified */
	SESSION_COUNTED,   /* and the verified compute cells counted */
};

/* A batch: the plan's cells [from, n), what the caller asks of them and
 * what the session found.  Zero it, set from, upto and what applies. */
struct session_batch {
	size_t from;
	enum session_stage upto;
	/* the binaries came from elsewhere (--binaries-from, a replay of a
	 * stored run): nothing is compiled, everything else is done */
	int stored;
	/* with upto SESSION_COUNTED: the source (session_counter_source, or
	 * counters_probe for a run); quiet: no counting lines, the
	 * heartbeat names the counting instead (the caller says what a batch
	 * found) */
	enum counter_source counters;
	int quiet;
	/* where a caller legitimately differs: 1 when the caller has cell
	 * i's figure already (tune: the start, proven before the first
	 * batch; a binary an earlier batch measured).  Such a cell is neither
	 * verified nor counted, stays pending and is in no list; its twins
	 * stay pending too.  NULL: none is known. */
	int (*known)(void *ctx, const struct plan *p, size_t i);
	void *ctx;

	/* what the session found */
	enum session_stage reached;
	struct build_stats built;           /* this batch's compiles (none when stored) */
	double build_s, verify_s, count_s;  /* the wall seconds of each stage */
	unsigned verified;                  /* checks that ran */
	/* the cells to measure, in plan order: distinct programs, verified,
	 * still pending, not known (after SESSION_VERIFIED; NULL before) */
	size_t *measure;
	size_t nmeasure;
};

/* Takes the batch's cells from b->reached to b->upto, in this order:
 *   build    the pending cells that have no binary are compiled (the
 *            build cache spares the rest; nothing when b->stored)
 *   dedupe   a cell that is the same program as an earlier one (plan.h's
 *            program identity, program_id_same) is its twin:
 *            build.same_binary_as; it is never verified, counted or timed,
 *            and its figure is its source's (the caller gives it: run
 *            ends it with its source, tune records its source's figure)
 *   prepare  the families' {input} files (inputs.h), and the reference
 *            binary of each same_as check: the plan's first cell of that
 *            variant (plan order: the run's first configuration), or,
 *            where the plan has none (tune, explain, --only), the variant
 *            built by the session with the configuration of the family's
 *            first cell; a reference that cannot be had leaves the
 *            family's cells unsupported with the reason
 *   verify   every distinct pending program not known, its output through
 *            its check (stored binaries too: a replay skips the build,
 *            not the verification); then each twin takes its source's
 *            verdict (a refused source refuses its twins)
 *   count    the verified compute cells with a binary whose counters
 *            have not run (of b->measure), each into its
 *            measure.counters (counters.h), s->jobs at once: counts are
 *            exact under any load, so unlike times they may share the
 *            machine, and all are done before the timing, which must have
 *            it alone.  Every BUILD_PROGRESS_S seconds a line says how it
 *            goes (done, running, eta); the last counts only the builds
 *            that were counted, and below it, once per family, those that
 *            could not be and each reason once ("not counted in F (2 of 6
 *            builds): WHY")
 * A stage that refuses a cell sets its status and reason (build_failed,
 * unsupported, wrong_output, crashed, failed, timeout); a cell still
 * CELL_PENDING may be measured.  An interrupt stops the verification and
 * the counting: the cells not reached stay pending, in no list, and
 * their counters not run.
 *
 * A caller that stops after building (upto SESSION_BUILT: run keeps its
 * binaries and tune's probe times one compile before anything runs)
 * hands the same batch again with a later upto: the session goes on
 * from b->reached.  Release the batch with session_batch_release().
 * -1 when the cache cannot be made (every cell then says so), else 0. */
int session_ready(struct session *s, struct plan *p, struct session_batch *b);
void session_batch_release(struct session_batch *b);

/* What counts a family's cells: COUNTERS_NONE, with the reason in why,
 * for a stream family, an executor that counts nothing (the mock), or a
 * machine with neither perf counters nor callgrind. */
enum counter_source session_counter_source(const struct session *s, const struct family *f, char *why, size_t n);

#endif
