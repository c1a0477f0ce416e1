/* reader.h: the one reader of results.json.
 *
 * Every command that takes a run folder (tables, compare, baseline,
 * explain, rerun, compare --confirm's replay) loads it here: the file
 * parses, its schema is RESULTS_SCHEMA (results.h), "cells" is an array
 * of objects, each with a string id, no id twice, and a typed view of
 * every cell (struct results_cell) with the fields the model, compare,
 * explain and replay read.
 *
 * Typed: every field a command reads of a stored run is a plain C field
 * here (strings, numbers, arrays with counts, enums): the cell, its times
 * and libraries, the run's settings, its host facts and its families.  No
 * json_t leaves this module but the record handles results/ itself takes
 * back (results_cell.j for replay.h, results_run.root for the history's
 * import and join), which no caller outside results/ reads.
 *
 * Required per cell: id, family, variant and a known status; a cell
 * without one is refused as "FILE: cell ID: field F missing" (the caller
 * exits 2).  Derived where missing: family, variant and config from an id
 * "FAMILY/VARIANT@CONFIG", as plan.c makes it; else config composed as
 * plan.c composes it
 * (compiler/opt/march, then the flag set, the allocator where the run has
 * more than glibc, the placement and the consumer; "reference" for a
 * reference); the derived config is written into the document too, so a
 * caller reading the JSON sees it.  Optional fields read as absent (NULL,
 * NAN, 0) when missing or of another type.
 */
#ifndef FLAGBENCH_READER_H
#define FLAGBENCH_READER_H

#include <jansson.h>
#include <stdint.h>

#include "pipeline/plan.h"

struct suite;

/* The host facts (keys of results.json's "host") a same binary's time
 * depends on: what the history records per night and compare and the
 * change points' causes name when they differ.  NULL-terminated, in the
 * order of struct results_host's fact[]. */
#define RESULTS_NHOST_FACTS 6
extern const char *const RESULTS_HOST_FACTS[RESULTS_NHOST_FACTS + 1];

/* A shared library a binary loads (binary.libraries[]). */
struct results_lib {
	const char *path, *sha256;       /* NULL where not a string */
};

/* A cell's times (time_s), seconds per run in the order measured. */
struct results_times {
	int recorded;                    /* time_s.runs is an array (perhaps empty) */
	double *runs;                    /* allocated; a non-number reads NAN */
	size_t nruns;
	const char *statistic;           /* time_s.statistic; NULL: the median */
	double value, median;            /* time_s.value (the statistic's), time_s.median; NAN */
};

/* One cell as read.  Strings point into the document (or, for config,
 * at the derived text it now holds). */
struct results_cell {
	json_t *j;                       /* the record, for results/ alone (the replay, the history's import) */
	const char *id, *family, *variant, *title, *kind, *config;
	enum cell_status status;
	const char *status_name, *reason;
	int reference;                   /* a reference program: compiler "none" or config "reference" */
	int emulated;                    /* run under an emulator: never ranked with native cells */
	const char *language;            /* "c", "c++"; NULL: a reference, or a run before C++ */
	const char *compiler, *compiler_version, *opt, *march, *flags, *allocator, *placement, *consumer;
	uint64_t size;                   /* N of the run; 0 unknown */
	uint64_t bytes;                  /* a stream's exact output bytes; UINT64_MAX unknown */
	const char **argv;               /* argv[0..nargv) (a non-string NULL); NULL: none recorded */
	size_t nargv;
	const char **cflags;             /* the compile's flags, as argv; NULL: none recorded */
	size_t ncflags;
	struct results_lib *libs;        /* binary.libraries, as recorded */
	size_t nlibs;
	int libs_listed;                 /* binary.libraries is an array: the run listed them */
	int pgo;                         /* built with profile-guided optimisation (a "pgo" record) */
	double precision_target;         /* precision.target_percent; NAN none */
	int pin_producer, pin_consumer, pin_single; /* PIN_NONE where not pinned */
	const char *sha256;              /* the binary's, NULL when none was built */
	uint64_t binary_bytes, text_bytes; /* 0 unknown */
	const char *same_binary_as;      /* the id of the cell measured for this one, or NULL */
	struct results_times time;       /* time_s */
	int *rounds;                     /* the round of each of time_s.runs (-1: none); NULL: none recorded */
	size_t nrounds;
	unsigned pass;                   /* the measuring pass: rounds pair within one */
	/* where the host had a stream cell's two CPUs (measure.details.handoff,
	 * system/handoff.h): each run's state (1 nearest; 0 not known), NULL
	 * where none is; the states the run found, their round trips and this
	 * cell's batches in each */
	unsigned *states;
	unsigned handoff_states;
	double level_ns[LEVELS_MAX];
	size_t state_batches[LEVELS_MAX];
	unsigned layout, layouts;        /* layout k of K (plan.h); K 1 without layouts */
	unsigned code_pad, env_pad;      /* bytes */
	double value;                    /* the rate of the run's statistic (rate.median in older runs); NAN */
	const char *rate_unit;           /* compute cells: "ops/s"...; NULL for streams */
	enum precision_status precision;
	double instructions_per_unit, cycles_per_unit; /* NAN where not counted */
	const char *counters_unit, *counters_skipped;  /* counters.unit; why they were not counted */
	enum throttle_verdict throttled; /* THROTTLE_UNKNOWN where not measured */
	double celsius_before, celsius_after; /* NAN without a sensor */
	double speedup, vs_glibc;        /* as stored; NAN where none */
	size_t nwarnings;
	const char **warnings;           /* strings of "warnings" ("?" for a non-string) */
	unsigned shard;                  /* a joined run's shard K it was measured in (results/join.h); 0 none */
};

/* A key and its value as text: a string as is, a boolean "on"/"off",
 * anything else its compact JSON. */
struct results_fact {
	const char *key;
	char *value;
};

/* What the run ran on ("host", "tools"). */
struct results_host {
	const char *hostname, *cpu_model; /* NULL unknown */
	char *fact[RESULTS_NHOST_FACTS]; /* RESULTS_HOST_FACTS' values as text (results_fact); NULL unrecorded */
	struct results_fact *tools;      /* the tools' versions, compilers included, by name */
	size_t ntools;
};

/* The cooldown the run took (run.cooldown; the profile's for older runs). */
struct results_cooldown {
	int override;                    /* --cooldown replaced the profile's */
	double seconds, below_celsius, max_wait_seconds; /* NAN unrecorded */
};

/* How the run was asked for and how it went ("run"). */
struct results_settings {
	const char **argv;               /* run.argv (a non-string NULL); NULL: none recorded */
	size_t nargv;
	const char *name;                /* run.name: the folder chosen with -o; NULL none */
	const char *started;             /* run.started; NULL unknown */
	int finished;                    /* 0: run.finished is null (the run did not finish) */
	int interrupted;                 /* run.interrupted */
	const char **warnings;           /* run.warnings ("?" for a non-string) */
	size_t nwarnings;
	struct results_cooldown cooldown;
	double build_s;                  /* run.phases.build_s; NAN */
};

/* A family the run measured ("families".NAME). */
struct results_family {
	const char *name;
	const char *dir;                 /* the folder it was read from; NULL unknown */
	const char *kept;                /* the copy kept in the run folder, relative to it; NULL none */
	const char *hash;                /* the content hash of its folder */
	const char *title, *check, *kind, *baseline, *unit, *rate_unit; /* as family.json said; NULL */
};

/* A run as read. */
struct results_run {
	json_t *root;                    /* the document, for results/ alone */
	char *file, *dir;                /* the results.json read, and its run folder */
	const char *schema;
	const char *id, *statistic, *cpu_profile, *cpu_model; /* statistic: "median" for older runs */
	const char *suite, *suite_path;  /* the suite's name and the file the run read; NULL unknown */
	double drift_sd;                 /* run.drift.sd_percent / 100; 0 when none */
	struct results_settings settings;
	struct results_host host;
	struct results_family *families; /* sorted by name */
	size_t nfamilies;
	struct results_cell *cells;
	size_t ncells;
	/* a joined run: the baseline cells measured again in a later shard
	 * (run.shards[].copies, results/join.h), never among cells */
	struct results_cell *copies;
	size_t ncopies;
};

/* Loads a run: DIR/results.json or a results.json path.  0, or -1 after
 * an error message naming the file (and line:column for bad JSON, the
 * cell and field for a missing one): the caller exits 2. */
int results_open(const char *path, struct results_run *run);
/* The same of a document already loaded from file (a results.json path),
 * which the run takes over: results_close() frees it, a failure too. */
int results_open_loaded(const char *file, json_t *root, struct results_run *run);
void results_close(struct results_run *run);
/* The family of this name, or NULL. */
const struct results_family *results_family_by_name(const struct results_run *run, const char *name);
/* The value of the run's option --NAME (run.argv: "--NAME=V" or "--NAME V"),
 * or NULL. */
const char *results_run_option(const struct results_run *run, const char *name);
/* The run's command-line matrix (run.matrix) set in s as its suite's
 * (config/suite.h suite_set_matrix), so the run is read again as it ran;
 * nothing without one.  0, or -1 after a message naming run->file. */
int results_run_matrix(const struct results_run *run, struct suite *s);
/* What a new record made from this run carries over verbatim (explain's
 * results.json): its "host", "tools" and "profile", as new references
 * (an empty object where one is missing); the caller decrefs them. */
void results_run_provenance(const struct results_run *run, json_t **host, json_t **tools, json_t **profile);
/* The cell with this id, or NULL. */
struct results_cell *results_cell_by_id(const struct results_run *run, const char *id);
/* The cell c is compared with in a joined run: the copy of cell other
 * measured in c's shard where there is one (a baseline in several
 * shards), else other itself. */
struct results_cell *results_cell_beside(const struct results_run *run, struct results_cell *other,
					 const struct results_cell *c);

/* One record viewed alone, as results_open() views each cell (file names
 * it in messages; allocators: whether the run has an allocator besides
 * glibc, for a config composed from its parts).  0, or -1 after a message.
 * c->warnings is allocated: results_cell_release(). */
int results_cell_view(struct results_cell *c, json_t *record, const char *file, int allocators);
void results_cell_release(struct results_cell *c);

/* The program a stored cell ran (pipeline/plan.h's struct program_id, as
 * program_id_from_cell() gives it for the cell results.c wrote): binary
 * sha256, argv, allocator ("glibc" where missing), placement, consumer
 * and layout.env_pad_bytes (0 without layouts).  Unknown (sha256 NULL)
 * without a binary or an argv of strings.  It borrows c's strings;
 * program_id_clear() frees it. */
void program_id_from_record(struct program_id *id, const struct results_cell *c);
/* The same of a cell record alone (its fields read as results_cell_view()
 * reads them), borrowing the record's strings. */
void program_id_from_json(struct program_id *id, const json_t *record);

/* The folders of a run's families that lie outside the project's variants/
 * (--family-dir, a suite's family_dirs): the copy the run kept in its
 * folder (families.NAME.kept, relative to run->dir: what it built from),
 * else the folder results.json names (families.NAME.dir) where it still
 * exists: what the commands that rebuild or replay its cells (compare
 * --confirm, explain, tune) load beside variants/.  A family
 * named in known[0..nknown) (those found already) or in names (those pushed
 * already, from another run) is left out, so no name is loaded twice; each
 * pushed folder's family name goes to names. */
void results_family_dirs(const struct results_run *run, const struct family *known, size_t nknown,
			 struct strvec *out, struct strvec *names);

/* The families of variants/ and, beside them, those of runs a and b (b may
 * be NULL), from their own folders: load_families() over
 * results_family_dirs().  Their count, or -1 after a message. */
int load_families_of_runs(const struct results_run *a, const struct results_run *b, struct family **out);

#endif
