/* reader.h: the one reader of results.json.
 *
 * Every command that takes a run folder (tables, compare, baseline,
 * explain, rerun, compare --confirm's replay) loads it here: the file
 * parses, its schema is RESULTS_SCHEMA (results.h), "cells" is an array
 * of objects, each with a string id, no id twice, and a typed view of
 * every cell (struct results_cell) with the fields the model, compare,
 * explain and replay read.
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

/* The host facts (keys of results.json's "host") a same binary's time
 * depends on: what the history records per night and compare and the
 * change points' causes name when they differ.  NULL-terminated. */
extern const char *const RESULTS_HOST_FACTS[];

/* One cell as read.  Strings point into the document (or, for config,
 * at the derived text it now holds). */
struct results_cell {
	json_t *j;                       /* the record itself, for what the view leaves out */
	const char *id, *family, *variant, *title, *kind, *config;
	enum cell_status status;
	const char *status_name, *reason;
	int reference;                   /* a reference program: compiler "none" or config "reference" */
	int emulated;                    /* run under an emulator: never ranked with native cells */
	const char *language;            /* "c", "c++"; NULL: a reference, or a run before C++ */
	const char *compiler, *compiler_version, *opt, *march, *flags, *allocator, *placement, *consumer;
	uint64_t size;                   /* N of the run; 0 unknown */
	uint64_t bytes;                  /* a stream's exact output bytes; UINT64_MAX unknown */
	json_t *argv;                    /* array of strings, or NULL */
	json_t *cflags;                  /* the compile's flags, array of strings, or NULL */
	int pin_producer, pin_consumer, pin_single; /* PIN_NONE where not pinned */
	const char *sha256;              /* the binary's, NULL when none was built */
	uint64_t binary_bytes, text_bytes; /* 0 unknown */
	const char *same_binary_as;      /* the id of the cell measured for this one, or NULL */
	json_t *time_s;                  /* the times (stats_from_json reads it), or NULL */
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

/* A run as read. */
struct results_run {
	json_t *root;
	char *file, *dir;                /* the results.json read, and its run folder */
	const char *id, *statistic, *cpu_profile, *cpu_model; /* statistic: "median" for older runs */
	const char *suite, *suite_path;  /* the suite's name and the file the run read; NULL unknown */
	double drift_sd;                 /* run.drift.sd_percent / 100; 0 when none */
	json_t *families;                /* the "families" object, or NULL */
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
 * folder (families.NAME.kept, relative to run_dir: what it built from),
 * else the folder results.json names (families.NAME.dir) where it still
 * exists: what the commands that rebuild or replay its cells (compare
 * --confirm, explain, tune) load beside variants/.  A family
 * named in known[0..nknown) (those found already) or in names (those pushed
 * already, from another run) is left out, so no name is loaded twice; each
 * pushed folder's family name goes to names. */
void results_family_dirs(const json_t *root, const char *run_dir, const struct family *known, size_t nknown,
			 struct strvec *out, struct strvec *names);

/* The families of variants/ and, beside them, those of runs a and b (b may
 * be NULL) in folders a_dir and b_dir, from their own folders:
 * load_families() over results_family_dirs().  Their count, or -1 after a
 * message. */
int load_families_of_runs(const json_t *a, const char *a_dir, const json_t *b, const char *b_dir, struct family **out);

/* The cell record with this id in a document results_load() gave (whose
 * cells all have unique string ids), or NULL. */
const json_t *results_json_cell(const json_t *root, const char *id);

/* results_open()'s checked document alone (compare, baseline, rerun):
 * NULL after a message; *dir receives the run folder (allocated). */
json_t *results_load(const char *path, char **dir);

#endif
