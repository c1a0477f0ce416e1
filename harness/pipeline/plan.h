/* plan.h: the matrix, expanded into cells.
 *
 * plan_build() crosses the suite's variant globs with compilers x opt x
 * march x flag sets x allocators, adds the families' reference programs (compiler
 * "none"), and drops nothing silently: a cell that cannot run here (a
 * missing compiler, a CPU feature the host lacks, an allocator that is not
 * installed, a -march the compiler rejects) is kept with status
 * "unsupported" and a reason.  --only keeps the cells whose id its glob
 * matches and drops the rest, which then appear nowhere (results, progress,
 * tables); a glob that matches no cell makes plan_build() return -1 with
 * plan.refused saying why and naming the nearest glob (only.h).
 *
 * Compilers: a suite names them plainly ("gcc", "clang-19") or by glob
 * ("gcc-*", "clang-*"): a glob stands for every NAME-VERSION on PATH that
 * matches it (gcc-11, gcc-12; never gcc-ar-12), in version order.  A named
 * compiler that is missing gives unsupported cells naming the Debian
 * package to install.  Flag sets ("flags" of a suite) cross the matrix
 * after -march: the set's name joins config and id
 * ("gcc-12/-O2/native/lto"), its flags follow the profile's; a "pgo" set
 * marks the cell pgo (build.h does the two phases), and a clang PGO cell
 * without the llvm-profdata of its version is unsupported.
 *
 * The plan also resolves where and how each cell runs, so that later
 * stages only read the spec: the profile's pins (a pin class such as
 * "same_l3" becomes a CPU pair from the topology; a CPU this host lacks is
 * remapped, with a warning), a suite's placement class (its pair, or
 * "unsupported" when the machine has none), and an allocator (the library
 * to preload, or "unsupported" when it is not installed).
 *
 * The rest of struct cell is filled by the stages in order: build
 * (struct cell_build), verify (struct cell_verification), measure
 * (struct cell_measurement), and compute_speedups() (results.h).
 */
#ifndef FLAGBENCH_PLAN_H
#define FLAGBENCH_PLAN_H

#include <jansson.h>
#include <stdint.h>

#include "config/cpu_profile.h"
#include "config/family.h"
#include "config/suite.h"
#include "pipeline/compilers.h"
#include "core/stats.h"
#include "core/levels.h"
#include "system/thermal.h"
#include "system/topology.h"

enum cell_status {
	CELL_PENDING = 0, /* not finished yet */
	CELL_OK,
	CELL_BUILD_FAILED,
	CELL_UNSUPPORTED,
	CELL_WRONG_OUTPUT,
	CELL_CRASHED,     /* killed by a signal */
	CELL_TIMEOUT,
	CELL_SKIPPED,
	CELL_FAILED,      /* exited with a non-zero status, or could not be started */
};
const char *cell_status_name(enum cell_status s);
int cell_status_parse(const char *name, enum cell_status *out);
/* Whether the status counts as a failure for the exit code (1). */
int cell_status_failed(enum cell_status s);


/* CPUs a cell runs on: a CPU number, or PIN_NONE (not pinned). */
struct pins {
	int producer, consumer; /* stream families: the program and the meter */
	int single;             /* compute families */
};

/* What the plan decided about a cell: read-only after plan_build().
 * A new dimension (a flag set, say) is one more field here, one more
 * segment of config and id, and one more loop in plan_build(). */
struct cell_spec {
	char *id;       /* fizzbuzz/sse@clang/-O3/x86-64-v3 */
	char *config;   /* clang/-O3/x86-64-v3 (+ /allocator), or "reference" */
	struct family *family;
	struct variant *variant;     /* NULL for a reference */
	struct reference *reference; /* NULL for a variant */
	struct compiler *compiler;   /* NULL for a reference */
	const struct cross_target *cross; /* a cross build run under an emulator, or NULL */
	char *opt, *march, *allocator;
	char *flagset;               /* the suite's flag-set name, or NULL when it has none */
	int pgo;                     /* a profile-guided build (flag set "pgo") */
	char *profdata;              /* clang pgo: the llvm-profdata of the compiler's version */
	uint64_t train_size;         /* pgo: size of the training run */
	char *placement;             /* a placement class, or NULL for the profile's pins */
	char *consumer;              /* the meter's consumer, or NULL for the default (splice) */
	struct strvec cflags;        /* the full flag list given to the compiler */
	struct strvec run_args;      /* argv after the program: N and extra arguments */
	uint64_t size;
	uint64_t expected_bytes;     /* stream: exact output bytes, UINT64_MAX when unknown */
	char *preload;               /* allocator library to LD_PRELOAD, or NULL */
	/* before the binary: an earlier run's kept loader and its library
	 * folder (results/replay.h replay_cell_libraries), so the same binary
	 * runs on the libraries that run loaded; empty: the binary as itself */
	struct strvec loader;
	struct pins pin;             /* the profile's pins, or the placement's pair */
	/* The layout (--layouts K): the same configuration built and run K
	 * ways that differ only where its code and stack land, so that a lead
	 * can be told from a lucky alignment.  Layout 0 is the natural one
	 * (no padding); layout k > 0 links code_pad bytes of padding before
	 * the program's code and runs it with env_pad bytes more environment
	 * (plan_layout_pads), the same for every configuration, so layout k
	 * of two configurations compare like with like.  The id ends "~Lk";
	 * config does not change: the tables fold a configuration's layouts. */
	unsigned layout, layouts;    /* k of K; K is 1 without layouts */
	unsigned code_pad, env_pad;  /* bytes */
};

/* What the build stage produced (build.h). */
struct cell_build {
	char *binary;                /* path of the built binary (cache); NULL when not built here */
	char sha256[65];             /* "" when unknown */
	uint64_t bytes;
	int same_binary_as;          /* index of the cell measured for this one, or -1 */
	uint64_t text_bytes;         /* size of the binary's .text section, 0 when unknown */
	double train_s;              /* pgo: the training run's seconds (NAN when unknown) */
	json_t *libraries;           /* what it loads (pipeline/libraries.h); NULL: not listed */
};

enum verify_status {
	VERIFY_NOT_RUN = 0, /* not yet, shares another cell's binary, or a dry run */
	VERIFY_PASSED,
	VERIFY_FAILED,      /* the cell's status and reason say how */
};

/* What verification found (verify.h). */
struct cell_verification {
	enum verify_status status;
	double seconds;
};

/* One timed run as the meter reported it (meter.h, --report). */
struct meter_run {
	uint64_t bytes;
	double seconds;
	char *producer, *status, *consumer;
	char *wait; /* how the consumer waited: spin, sleep, none (pv, compute), "" (older records) */
};

/* Temperatures and clocks around the cell (thermal.h). */
struct cell_thermal {
	int taken;                       /* 0 until the cell was measured */
	enum throttle_verdict throttled;
	char *why;
	double celsius_before, celsius_after; /* NAN without a sensor */
	/* the two snapshots as thermal_snapshot_to_json() wrote them: kept
	 * for the record (results.json "details"), never read back */
	json_t *before, *after;
};

enum counters_state {
	COUNTERS_NOT_RUN = 0, /* not a compute cell, --no-counters, or not yet */
	COUNTERS_COUNTED,
	COUNTERS_SKIPPED,     /* why says why */
};

/* Cycles and instructions per unit (counters.h). */
struct cell_counters {
	enum counters_state state;
	char *source;                /* perf, callgrind, qemu (emulated cells) */
	uint64_t size;
	char *unit;
	double cycles_per_unit, instructions_per_unit; /* NAN when not counted */
	char *why;
};

/* Whether a cell's interval reached the run's precision target (run.c). */
enum precision_status {
	PRECISION_OFF = 0,       /* no target (--precision 0) */
	PRECISION_REACHED,       /* the interval is within the target, at 95 % */
	PRECISION_NOT_REACHED,   /* the cell's budget or --max-runs ran out first */
};

struct cell_precision {
	enum precision_status status;
	double target_percent;   /* half-width of the interval, % of the figure (the statistic) */
	double budget_s, spent_s; /* the cell's time budget for runs, what it took */
};

/* Where the host had a stream cell's two CPUs before each of its batches
 * (system/handoff.h): the probe's reading, the runs the batch added and
 * the state the reading falls in among the run's readings (1 the nearest
 * level, 0 none).  Batches in the order run; their runs are the last
 * time.n runs' in order, so each run has the state of its batch
 * (cell_run_states).  Empty where none was probed (a compute cell,
 * made-up times, one CPU). */
struct handoff_batch {
	double ns;
	unsigned runs;
	unsigned state;
};

struct cell_handoff {
	struct handoff_batch *batch;
	size_t batches, cap;
	unsigned states;  /* how many levels the run's readings show (1: one state) */
	double level_ns[LEVELS_MAX]; /* their centres, nearest first */
};

/* What measuring found: hyperfine's times and what came with them. */
struct cell_measurement {
	struct stats time;           /* seconds per run; time.n == 0: not measured */
	/* The round of each timed run, parallel to time.runs (schedule.h): two
	 * cells' runs of one round ran back to back, so the one comparison
	 * (analysis/comparison.h) pairs them and the machine's drift cancels.
	 * nrounds 0: none recorded (back to back, or an older run); a run
	 * outside the rounds is -1.  pass: the measuring pass the cell was
	 * measured in (0, then one more each --resume): rounds pair only
	 * within a pass. */
	int *rounds, *places; /* places: each run's place in its round's order (0: first) */
	size_t nrounds;
	unsigned pass;
	double user_s, system_s;     /* hyperfine's mean user and system time; NAN when unknown */
	struct meter_run *runs;
	size_t nruns;
	struct cooldown_record *cooldown; /* the pause before the cell, then waits between runs */
	size_t ncooldown;
	struct cell_precision precision;
	struct cell_thermal thermal;
	struct cell_counters counters;
	struct cell_handoff handoff;
};

/* Where a cell's outcome comes from. */
enum cell_origin {
	CELL_FROM_THIS_RUN = 0,
	CELL_FROM_JOURNAL,           /* finished before, read back by --resume */
};

/* A cell: its spec, then one record per stage.  Serialized by
 * cell_to_json() and read back by cell_from_json() (results.h). */
struct cell {
	struct cell_spec spec;
	enum cell_status status;
	char *reason;
	struct strvec warnings;
	enum cell_origin origin;
	struct cell_build build;
	struct cell_verification verify;
	struct cell_measurement measure;
	/* derived by compute_speedups() from the measurements */
	double speedup;              /* NAN when unknown */
	double vs_glibc;             /* rate against the glibc-malloc twin; NAN when none */
};

struct plan {
	struct cell *cells;
	size_t n;
	struct compiler *compilers;
	size_t ncompilers;
	struct family *families;
	size_t nfamilies;
	struct pins pins_requested;  /* the profile's pins (a pin class resolved) */
	struct pins pins_used;       /* remapped to CPUs this host has */
	struct strvec warnings;
	char *refused;               /* why plan_build() returned -1, or NULL */
};

struct plan_input {
	const struct suite *suite;
	const struct cpu_profile *profile;
	struct family *families; /* all loaded families */
	size_t nfamilies;
	const char *only;        /* glob on cell ids, or NULL */
	unsigned layouts;        /* --layouts: layouts per configuration; 0: the suite's (one when it says none) */
	/* the host's CPUs, or NULL when unreadable (placements are then
	 * unsupported and a pin class falls back to the profile's numbers) */
	const struct topology *topology;
	/* for tests: pretend the host lacks/has CPU flags, compilers
	 * and allocators; NULL asks the host */
	int (*has_cpu_flag)(const char *flag);
	int (*probe_march)(struct compiler *c, const char *march, char *why, size_t n);
	const char *(*allocator_library)(const char *name, char *reason, size_t n);
};

/* 0, or -1 when --only selects no cell (out->refused says why); either
 * way plan_free() frees out. */
int plan_build(const struct plan_input *in, struct plan *out);
/* Keeps the cells with keep[i] set, in plan order, and frees the rest
 * (--only, --shard): they appear nowhere after.  Before the build: no
 * index between cells (same_binary_as) is set yet. */
void plan_keep(struct plan *p, const unsigned char *keep);
/* The padding of layout k (0 for the natural layout 0): code bytes in
 * [0, 4096), environment bytes in [0, 4096) in steps of 16 (the stack's
 * alignment), from a fixed generator, so every run pads layout k alike. */
void plan_layout_pads(unsigned k, unsigned *code_pad, unsigned *env_pad);
void plan_free(struct plan *p);
/* A deep copy of a cell's spec (its strings; family, variant and compiler
 * stay borrowed), for a caller that builds cells of its own (tune.h);
 * cell_spec_clear() frees what it copied. */
void cell_spec_copy(struct cell_spec *dst, const struct cell_spec *src);
void cell_spec_clear(struct cell_spec *s);
/* Makes a spec build variant v of the same family instead (a same_as
 * reference): the compiler becomes the driver of v's language (gcc's C++
 * driver, or g++'s C compiler) where the plan has it, and the family's
 * -std follows the language. */
void cell_spec_set_variant(struct cell_spec *s, struct variant *v);
/* A cell of proto's spec (a deep copy), not run yet, appended to a plan
 * of such copies (tune's candidates, explain's rebuilds): its cells grow
 * by doubling, *alloc their room.  Returns its index.  plan_free_copies()
 * frees such a plan (its family, variant and compiler are borrowed). */
int plan_add_copy(struct plan *p, size_t *alloc, const struct cell_spec *proto);
void plan_free_copies(struct plan *p);
/* Frees a cell's outcome and stage records (not its spec) and sets them
 * back to "not run yet". */
void cell_reset(struct cell *c);
void cell_counters_free(struct cell_counters *k);
void meter_run_free(struct meter_run *r);
void cell_thermal_free(struct cell_thermal *t);
/* Empties a handoff record (frees its batches). */
void cell_handoff_clear(struct cell_handoff *h);
/* Appends a batch to the record. */
void cell_handoff_add(struct cell_handoff *h, double ns, unsigned runs, unsigned state);
/* The state of each of the cell's time.n runs, in *states (malloc'd,
 * time.n entries); 0 where the record does not cover the run.  0 returned
 * where no run has a state (nothing allocated), else the number of
 * states the run found. */
unsigned cell_run_states(const struct cell_measurement *m, unsigned **states);
void cell_set_status(struct cell *c, enum cell_status s, const char *fmt, ...) FB_PRINTF(3, 4);

/* Whether two cells run alike apart from their binary and allocator:
 * the same arguments, placement and consumer. */
int cell_spec_same_run(const struct cell_spec *a, const struct cell_spec *b);
/* Whether two cells are the same build of the same variant: compiler and
 * the full flag list (so every dimension that adds flags counts). */
int cell_spec_same_build(const struct cell_spec *a, const struct cell_spec *b);

/* The identity of a program: what two runs must share to be the same
 * program run twice, so that any difference between their times is the
 * machine's.  The one definition: the session's dedupe (session.h), the
 * tables' twin marks (report/model_compare.h), compare, the undecided
 * answers and every comparison side (analysis/comparison.h) ask it.
 *   sha256     the binary (its code pad is in it); hex in either case
 *   argv       the run arguments: once inputs_prepare() ran they hold the
 *              input file's path, so the input is part of them
 *   allocator  a missing one is "glibc", the default
 *   placement, consumer   NULL: the default (the profile's pins, splice)
 *   env_pad    the layout's environment pad, in bytes
 * An id borrows the strings of the cell or record it was filled from
 * (valid while that lives); program_id_clear() frees what it owns. */
struct program_id {
	const char *sha256;       /* NULL: unknown, never the same program as any */
	const char *const *argv;  /* argc run arguments */
	size_t argc;
	const char *allocator;    /* never NULL */
	const char *placement, *consumer;
	unsigned env_pad;
	void *owned;
};
/* The program a cell runs (its build, spec and layout); sha256 NULL
 * where it has no binary yet. */
void program_id_from_cell(struct program_id *id, const struct cell *c);
/* The program of a stored record: results/reader.h program_id_from_record(). */
void program_id_clear(struct program_id *id);
/* 1 when both are known and the same program, else 0. */
int program_id_same(const struct program_id *a, const struct program_id *b);
/* program_id_same() of the two cells' programs. */
int cells_same_program(const struct cell *a, const struct cell *b);

#endif
