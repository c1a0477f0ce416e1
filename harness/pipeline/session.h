/* session.h: one measuring session, the path every command that builds
 * and measures takes: plan -> build -> prepare -> verify -> time -> count.
 *
 * run, tune, explain and compare's confirmation each make cells (a plan,
 * clones of a cell with other flags, or cells replayed from a record) and
 * hand them to one session, so every family kind works the same in all
 * of them: built-in checkers, declared checks (same_as, sha256, command,
 * none), {input} files, a family's own build system, folders outside the
 * repo, layouts, allocators.  The stages are the executor's
 * (executor.h), so --dry-run mocks every command alike.
 *
 *   session_build()   compiles the plan's pending cells that have no
 *                     binary yet (the build cache spares the rest), marks
 *                     identical programs among [from, n) as twins of an
 *                     earlier cell, then prepares them
 *   session_prepare() the families' {input} files (inputs.h), and the
 *                     reference binary of each same_as check: the plan's
 *                     first cell of that variant (plan order: the run's
 *                     first configuration), or, where the plan has none
 *                     (tune, explain, --only), the variant built by the
 *                     session with the configuration of the family's
 *                     first cell; a reference that cannot be built leaves
 *                     the family's cells unsupported with the reason
 *   session_verify()  one cell's check before it is measured; a twin takes
 *                     its source's verdict and is not run
 *   session_count()   cycles or instructions of a compute cell
 *
 * The limits of every child are derived once (session_limits_derive) from
 * the two a user sets, one run and one compile.  Timing goes through the
 * one scheduler (schedule.h) with the session's executor and its handoff
 * gate (session_handoff), so a stream cell's runs are known by where the
 * host had its two CPUs, in every command alike.
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

/* Builds, dedupes [from, n) and prepares; *st (may be NULL) this call's
 * counts.  -1 when the cache cannot be made (every cell then says so). */
int session_build(struct session *s, struct plan *p, size_t from, struct build_stats *st);
/* The dedupe alone, for cells whose binaries came from elsewhere
 * (--binaries-from): a cell of [from, n) that is the same program as an
 * earlier one (plan.h's program identity) is its twin. */
void session_dedupe(struct plan *p, size_t from);
void session_prepare(struct session *s, struct plan *p, size_t from);

enum session_verdict {
	SESSION_MEASURE,   /* proven: to be timed or counted */
	SESSION_TWIN,      /* the same program as an earlier cell: its figure is that cell's */
	SESSION_REFUSED,   /* not to be measured: its status says why */
};
enum session_verdict session_verify(struct session *s, struct plan *p, struct cell *c);
/* Every cell of [from, n), then the twins take their source's verdict. */
void session_verify_from(struct session *s, struct plan *p, size_t from);

/* What counts a family's cells: COUNTERS_NONE, with the reason in why,
 * for a stream family, an executor that counts nothing (the mock), or a
 * machine with neither perf counters nor callgrind. */
enum counter_source session_counter_source(const struct session *s, const struct family *f, char *why, size_t n);
/* The counters' JSON (counters.h) of a built, proven compute cell; NULL
 * when the executor counts nothing. */
json_t *session_count(struct session *s, const struct cell *c, enum counter_source src);
/* Counts cells[0..n) with src, s->jobs at once, each one's JSON into
 * out[i] (NULL where the executor counts nothing).  Counts are exact
 * under any load, so unlike times they may share the machine: a run
 * counts every build at once before its timing, which must have the
 * machine alone, and says how the counting goes every BUILD_PROGRESS_S
 * seconds (done, running, eta).  The last line counts only the builds
 * that were counted; below it, once per family, the builds that could not
 * be and each reason once ("not counted in F (2 of 6 builds): WHY").  An
 * interrupt leaves the rest NULL. */
void session_count_cells(struct session *s, const struct cell *const *cells, size_t n, enum counter_source src,
			 json_t **out);

#endif
