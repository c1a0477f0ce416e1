/* history.h: the nightly history, one SQLite file (`flagbench history`).
 *
 * results.json stays the record of a run; the history is an index of many
 * runs built from them (history_import, through results/reader.h), so it
 * can always be rebuilt from the runs.  This module is the one writer and
 * the one reader of the file: no other module speaks SQL.
 *
 * The file: SQLite 3 with application_id HISTORY_APP_ID and user_version
 * HISTORY_SCHEMA; tables
 *   runs   one row per imported run: its id (unique: importing a run twice
 *          adds nothing), cpu profile, host (host.hostname, else "unknown"),
 *          start (run.started, else the id's stamp), run.statistic, and the
 *          results.json it was read from
 *   facts  what the run ran on, KEY = VALUE per run: kernel, libc,
 *          microcode, governor, turbo, cpu_model (host.*), tool:NAME (the
 *          versions in results.json "tools", compilers included) and
 *          family:NAME (the content hash of the family's folder,
 *          families.NAME.hash)
 *   cells  one row per cell of a run: id, family, status, size, the run
 *          times (a JSON array of seconds), instructions per unit (NULL
 *          where not counted), the binary's sha256, argv, cflags and
 *          compiler version, and what the run measured of it beside an
 *          earlier run's binary (results.json "beside", results/beside.h:
 *          JSON text, NULL without), and a stream's state before each
 *          run (its level's round trip in ns, a JSON array parallel to
 *          the times; NULL without)
 *   libs   per cell of a run, the shared libraries its binary loads
 *          (binary.libraries: path and sha256)
 * A machine is a (cpu profile, host) pair: runs of several machines share
 * one history and are never mixed in one series.
 *
 * history_open() refuses a file that is not such a history (not SQLite,
 * truncated or corrupt: SQLite's quick_check, another application or
 * schema) with a message that says how to rebuild it (import --rebuild);
 * a schema 1 history gains cells.beside in place, a schema 2 one
 * cells.states;
 * the caller exits 2.  Every failure is said as "flagbench: FILE: ...".
 */
#ifndef FLAGBENCH_HISTORY_H
#define FLAGBENCH_HISTORY_H

#include <stddef.h>

#include "results/reader.h"

#define HISTORY_APP_ID 0x46424853 /* "FBHS" */
#define HISTORY_SCHEMA 3
#define HISTORY_DEFAULT_DB "results/history.db"

struct history;

/* Opens path; create: make it (with its folder) when it does not exist.
 * 0, or -1 after a message (missing without create, not a history,
 * corrupt): exit 2. */
int history_open(const char *path, int create, struct history **out);
void history_close(struct history *h);

/* Imports one run as the reader gave it, in one transaction: 1 added, 0
 * already there (by run id: nothing changes), -1 after a message. */
int history_import(struct history *h, const struct results_run *run);

/* A fact: key and value. */
struct hist_fact {
	char *key, *value;
};

/* One imported run (a night). */
struct hist_run {
	char *run_id, *profile, *host, *started, *statistic, *source;
	struct hist_fact *facts; /* sorted by key */
	size_t nfacts;
	size_t ncells;
};

/* What a night measured of a cell beside an earlier night's binary, in
 * interleaved rounds (results/beside.h); run NULL without. */
struct hist_beside {
	char *run;                  /* the earlier night's run id */
	char *base_sha256;          /* the binary measured beside (NULL unknown) */
	char *verdict;              /* the comparison's word: slower, faster, same, inconclusive */
	unsigned rounds;
	double ratio, low, high;    /* this night's time over the earlier binary's, and its interval */
	double level;               /* the interval's two-sided level */
	double threshold;           /* the smallest change that counted (a fraction; NAN unknown) */
	int libraries;              /* 1: the same binary, each night on its own kept libraries */
};

/* One cell on one night. */
struct hist_point {
	size_t run;                 /* index into history_data.runs */
	char *status;
	double size;                /* 0 unknown */
	double *times;              /* seconds per run, as recorded */
	size_t ntimes;
	/* a stream's state before each run (system/handoff.h), as its level's
	 * round trip in ns, parallel to times (NAN: not known); NULL: none */
	double *level_ns;
	double instructions;        /* per unit; NAN where not counted */
	char *sha256, *argv, *cflags, *compiler_version, *family; /* NULL unknown */
	struct hist_fact *libs;     /* path = sha256, sorted by path */
	size_t nlibs;
	int libs_listed;            /* the run listed the binary's libraries */
	struct hist_beside beside;  /* measured beside an earlier night's binary */
};

/* One cell of one machine over its nights, oldest first. */
struct hist_series {
	char *profile, *host, *cell;
	struct hist_point *pts;
	size_t n;
};

struct history_data {
	struct hist_run *runs;      /* oldest first, every machine */
	size_t nruns;
	struct hist_series *series; /* by machine, then cell id */
	size_t nseries;
};

/* Loads the runs (with their facts) and the series of cells whose id is
 * cell (NULL: every cell) of cpu profile profile (NULL: every one).  0,
 * or -1 after a message. */
int history_load(struct history *h, const char *profile, const char *cell, struct history_data *d);
void history_data_free(struct history_data *d);

/* The value of fact key of run r, or NULL. */
const char *hist_fact_get(const struct hist_fact *f, size_t n, const char *key);

#endif
