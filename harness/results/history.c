/* history.c: see history.h */
#define _GNU_SOURCE
#include "results/history.h"

#include <errno.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/json_util.h"
#include "core/util.h"

struct history {
	sqlite3 *db;
	char *path;
};

static const char *const SCHEMA_SQL =
	"CREATE TABLE runs(id INTEGER PRIMARY KEY, run_id TEXT NOT NULL UNIQUE, profile TEXT NOT NULL,"
	" host TEXT NOT NULL, started TEXT NOT NULL, statistic TEXT, source TEXT);"
	"CREATE TABLE facts(run INTEGER NOT NULL REFERENCES runs(id), key TEXT NOT NULL, value TEXT NOT NULL,"
	" PRIMARY KEY(run, key));"
	"CREATE TABLE cells(run INTEGER NOT NULL REFERENCES runs(id), cell TEXT NOT NULL, family TEXT,"
	" status TEXT NOT NULL, size REAL, times TEXT, instructions REAL, sha256 TEXT, argv TEXT, cflags TEXT,"
	" compiler_version TEXT, libs_listed INTEGER NOT NULL DEFAULT 0, beside TEXT, states TEXT,"
	" PRIMARY KEY(run, cell));"
	"CREATE TABLE libs(run INTEGER NOT NULL, cell TEXT NOT NULL, path TEXT NOT NULL, sha256 TEXT,"
	" PRIMARY KEY(run, cell, path));"
	"CREATE INDEX runs_machine ON runs(profile, host, started);";

/* every refusal ends with how to rebuild the history from the runs */
#define REBUILD_HINT "rebuild it from the runs: flagbench history import --rebuild --db %s RUN..."

/* "flagbench: FILE: what: sqlite's message" */
static int db_error(const struct history *h, const char *what)
{
	return error("%s: %s: %s", h->path, what, sqlite3_errmsg(h->db));
}

static int exec(struct history *h, const char *sql)
{
	char *msg = NULL;
	if (sqlite3_exec(h->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		error("%s: %s", h->path, msg ? msg : sqlite3_errmsg(h->db));
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

static sqlite3_stmt *prepare(struct history *h, const char *sql)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(h->db, sql, -1, &st, NULL) != SQLITE_OK) {
		db_error(h, "cannot read the history");
		return NULL;
	}
	return st;
}

/* One integer of a pragma, or -1. */
static long long pragma_int(struct history *h, const char *sql)
{
	sqlite3_stmt *st = prepare(h, sql);
	long long v = -1;
	if (st && sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* The first bytes of a SQLite file; an empty file is no history either
 * (SQLite would take it as a new database and the runs would be lost
 * silently). */
static int looks_like_sqlite(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return -1;
	char head[16] = { 0 };
	size_t n = fread(head, 1, sizeof(head), f);
	fclose(f);
	return n == sizeof(head) && !memcmp(head, "SQLite format 3", 16);
}

/* Refuses what is not a whole history of this schema. */
static int check_history(struct history *h)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(h->db, "PRAGMA quick_check", -1, &st, NULL) != SQLITE_OK)
		return error("%s: not a readable history, truncated or corrupt (%s); " REBUILD_HINT, h->path,
			     sqlite3_errmsg(h->db), h->path);
	int rc = sqlite3_step(st);
	const char *ok = rc == SQLITE_ROW ? (const char *)sqlite3_column_text(st, 0) : NULL;
	if (!ok || strcmp(ok, "ok")) {
		error("%s: a corrupt history (%s); " REBUILD_HINT, h->path, ok ? ok : sqlite3_errmsg(h->db), h->path);
		sqlite3_finalize(st);
		return -1;
	}
	sqlite3_finalize(st);
	long long app = pragma_int(h, "PRAGMA application_id"), ver = pragma_int(h, "PRAGMA user_version");
	if (app != HISTORY_APP_ID)
		return error("%s: a SQLite file, but not a flagbench history; " REBUILD_HINT, h->path, h->path);
	if (ver != HISTORY_SCHEMA && ver != 1 && ver != 2)
		return error("%s: history schema %lld, this flagbench reads %d; " REBUILD_HINT, h->path, ver, HISTORY_SCHEMA,
			     h->path);
	long long tables = pragma_int(h, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN "
					 "('runs', 'facts', 'cells', 'libs')");
	if (tables != 4)
		return error("%s: a history with tables missing; " REBUILD_HINT, h->path, h->path);
	/* schema 1 lacked what a night measured beside the night before
	 * (cells.beside): added, its runs keep none */
	if (ver == 1 && exec(h, "BEGIN IMMEDIATE; ALTER TABLE cells ADD COLUMN beside TEXT; PRAGMA user_version = 2; "
				"COMMIT;") < 0)
		return -1;
	/* schema 2 lacked the state of each run (cells.states): added, its
	 * runs keep none */
	if (ver <= 2 && exec(h, "BEGIN IMMEDIATE; ALTER TABLE cells ADD COLUMN states TEXT; PRAGMA user_version = 3; "
				"COMMIT;") < 0)
		return -1;
	return 0;
}

int history_open(const char *path, int create, struct history **out)
{
	*out = NULL;
	struct stat st;
	int exists = stat(path, &st) == 0;
	if (!exists && !create)
		return error("%s: no such history (flagbench history import --db %s RUN... makes it)", path, path);
	if (exists) {
		int s = looks_like_sqlite(path);
		if (s < 0)
			return error("%s: cannot read: %s", path, strerror(errno));
		if (!s)
			return error("%s: not a flagbench history (not a SQLite file, or empty); " REBUILD_HINT, path, path);
	} else {
		char *dir = xstrdup(path), *slash = strrchr(dir, '/');
		if (slash && slash != dir) {
			*slash = 0;
			if (mkdir_p(dir, 0755) < 0) {
				error("%s: cannot make the folder: %s", dir, strerror(errno));
				free(dir);
				return -1;
			}
		}
		free(dir);
	}
	struct history *h = xcalloc(1, sizeof(*h));
	h->path = xstrdup(path);
	int flags = SQLITE_OPEN_READWRITE | (exists ? 0 : SQLITE_OPEN_CREATE);
	if (sqlite3_open_v2(path, &h->db, flags, NULL) != SQLITE_OK) {
		db_error(h, "cannot open");
		history_close(h);
		return -1;
	}
	sqlite3_busy_timeout(h->db, 5000);
	if (!exists) {
		char *sql = xasprintf("BEGIN; %s PRAGMA application_id = %d; PRAGMA user_version = %d; COMMIT;", SCHEMA_SQL,
				      HISTORY_APP_ID, HISTORY_SCHEMA);
		int r = exec(h, sql);
		free(sql);
		if (r < 0) {
			history_close(h);
			return -1;
		}
	} else if (check_history(h) < 0) {
		history_close(h);
		return -1;
	}
	*out = h;
	return 0;
}

void history_close(struct history *h)
{
	if (!h)
		return;
	sqlite3_close(h->db);
	free(h->path);
	free(h);
}

/* ---- import ---- */

static void bind_text(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

static void bind_num(sqlite3_stmt *st, int i, double x)
{
	if (isfinite(x))
		sqlite3_bind_double(st, i, x);
	else
		sqlite3_bind_null(st, i);
}

/* A JSON value as a fact's text: strings as they are, booleans on/off. */
static int add_fact(struct history *h, sqlite3_stmt *st, sqlite3_int64 run, const char *key, const char *text)
{
	if (!text)
		return 0;
	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, run);
	bind_text(st, 2, key);
	bind_text(st, 3, text);
	return sqlite3_step(st) == SQLITE_DONE ? 0 : db_error(h, "cannot write a fact");
}

/* What the run ran on (history.h lists the keys), from the reader's typed
 * host facts, tools and families. */
static int add_facts(struct history *h, sqlite3_int64 id, const struct results_run *run)
{
	sqlite3_stmt *st = prepare(h, "INSERT OR REPLACE INTO facts(run, key, value) VALUES (?, ?, ?)");
	if (!st)
		return -1;
	int r = 0;
	for (int i = 0; i < RESULTS_NHOST_FACTS && r == 0; i++)
		r = add_fact(h, st, id, RESULTS_HOST_FACTS[i], run->host.fact[i]);
	for (size_t i = 0; i < run->host.ntools && r == 0; i++) {
		char *key = xasprintf("tool:%s", run->host.tools[i].key);
		r = add_fact(h, st, id, key, run->host.tools[i].value);
		free(key);
	}
	for (size_t i = 0; i < run->nfamilies && r == 0; i++) {
		char *key = xasprintf("family:%s", run->families[i].name);
		r = add_fact(h, st, id, key, run->families[i].hash);
		free(key);
	}
	sqlite3_finalize(st);
	return r;
}

static char *dump_or_null(const json_t *v)
{
	return v && !json_is_null(v) ? json_dumps(v, JSON_COMPACT) : NULL;
}

/* What the run measured of cell id beside an earlier run's binary
 * (results/beside.h), as the JSON text the history keeps: the entry of
 * root.beside.cells with the earlier run's id added; NULL without one. */
static char *beside_text(const json_t *root, const char *id)
{
	const json_t *b = json_object_get(root, "beside"), *e;
	const char *base = json_string_value(json_object_get(b, "run"));
	size_t i;
	if (!base)
		return NULL;
	json_array_foreach(json_object_get(b, "cells"), i, e) {
		const char *cell = json_string_value(json_object_get(e, "cell"));
		if (!cell || strcmp(cell, id))
			continue;
		json_t *copy = json_deep_copy(e);
		json_object_set_new(copy, "run", json_string(base));
		json_object_set(copy, "threshold_percent", json_object_get(b, "threshold_percent"));
		char *text = json_dumps(copy, JSON_COMPACT | JSON_SORT_KEYS);
		json_decref(copy);
		return text;
	}
	return NULL;
}

/* Each run's state as the round trip of its level (system/handoff.h), a
 * JSON array parallel to the times, null where not known; NULL for a cell
 * with no states. */
static char *states_text(const struct results_cell *c)
{
	if (!c->states)
		return NULL;
	size_t n = c->time.nruns;
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++) {
		unsigned st = c->states[i];
		json_array_append_new(a, st >= 1 && st <= c->handoff_states ? json_real(c->level_ns[st - 1]) : json_null());
	}
	char *s = json_dumps(a, JSON_COMPACT);
	json_decref(a);
	return s;
}

static int add_cell(struct history *h, sqlite3_stmt *cs, sqlite3_stmt *ls, sqlite3_int64 run, const json_t *root,
		    const struct results_cell *c)
{
	/* the history keeps times, argv and cflags as the record's JSON text */
	char *beside = beside_text(root, c->id);
	char *times = dump_or_null(json_object_get(json_object_get(c->j, "time_s"), "runs"));
	char *states = states_text(c);
	char *argv = dump_or_null(c->argv ? json_object_get(c->j, "argv") : NULL);
	char *cflags = dump_or_null(c->cflags ? json_object_get(c->j, "cflags") : NULL);
	sqlite3_reset(cs);
	sqlite3_bind_int64(cs, 1, run);
	bind_text(cs, 2, c->id);
	bind_text(cs, 3, c->family);
	bind_text(cs, 4, c->status_name ? c->status_name : "unknown");
	bind_num(cs, 5, c->size ? (double)c->size : NAN);
	bind_text(cs, 6, times);
	bind_num(cs, 7, c->instructions_per_unit);
	bind_text(cs, 8, c->sha256);
	bind_text(cs, 9, argv);
	bind_text(cs, 10, cflags);
	bind_text(cs, 11, c->compiler_version);
	bind_text(cs, 14, states);
	sqlite3_bind_int(cs, 12, c->libs_listed);
	bind_text(cs, 13, beside);
	int r = sqlite3_step(cs) == SQLITE_DONE ? 0 : db_error(h, "cannot write a cell");
	free(beside);
	free(states);
	free(times);
	free(argv);
	free(cflags);
	for (size_t i = 0; i < c->nlibs; i++) {
		const char *path = c->libs[i].path;
		if (r < 0 || !path)
			continue;
		sqlite3_reset(ls);
		sqlite3_bind_int64(ls, 1, run);
		bind_text(ls, 2, c->id);
		bind_text(ls, 3, path);
		bind_text(ls, 4, c->libs[i].sha256);
		/* a library listed twice (an allocator preloaded and linked) is one */
		int rc = sqlite3_step(ls);
		if (rc != SQLITE_DONE && rc != SQLITE_CONSTRAINT)
			r = db_error(h, "cannot write a library");
	}
	return r;
}

/* The start of a run: run.started, else the stamp its id begins with. */
static char *run_started(const struct results_run *run)
{
	const char *s = run->settings.started;
	if (s)
		return xstrdup(s);
	const char *id = run->id;
	/* 20261201T120000Z-...: 2026-12-01T12:00:00Z */
	if (id && strlen(id) >= 16 && id[8] == 'T' && id[15] == 'Z')
		return xasprintf("%.4s-%.2s-%.2sT%.2s:%.2s:%.2sZ", id, id + 4, id + 6, id + 9, id + 11, id + 13);
	return xstrdup(id ? id : "");
}

int history_import(struct history *h, const struct results_run *run)
{
	if (!run->id)
		return error("%s: no run.id: cannot be imported (a history holds runs by id)", run->file);
	const char *hostname = run->host.hostname;
	char *started = run_started(run);
	sqlite3_stmt *q = prepare(h, "SELECT host, started, source FROM runs WHERE run_id = ?");
	if (!q) {
		free(started);
		return -1;
	}
	bind_text(q, 1, run->id);
	int there = sqlite3_step(q) == SQLITE_ROW;
	/* the same id from another run (ids are stamped to the second: two
	 * machines of one profile starting together) is not that run again */
	int other = there && (strcmp((const char *)sqlite3_column_text(q, 0), hostname ? hostname : "unknown") ||
			      strcmp((const char *)sqlite3_column_text(q, 1), started));
	if (other)
		error("%s: run id %s is in the history already from another run (host %s, started %s, read from %s): not "
		      "imported; give one of them another run.id",
		      run->file, run->id, (const char *)sqlite3_column_text(q, 0), (const char *)sqlite3_column_text(q, 1),
		      sqlite3_column_text(q, 2) ? (const char *)sqlite3_column_text(q, 2) : "?");
	sqlite3_finalize(q);
	if (there) {
		free(started);
		return other ? -1 : 0;
	}
	if (exec(h, "BEGIN IMMEDIATE") < 0) {
		free(started);
		return -1;
	}
	sqlite3_stmt *rs = prepare(h, "INSERT INTO runs(run_id, profile, host, started, statistic, source) "
				      "VALUES (?, ?, ?, ?, ?, ?)");
	int r = rs ? 0 : -1;
	if (rs) {
		bind_text(rs, 1, run->id);
		bind_text(rs, 2, run->cpu_profile ? run->cpu_profile : "unknown");
		bind_text(rs, 3, hostname ? hostname : "unknown");
		bind_text(rs, 4, started);
		bind_text(rs, 5, run->statistic);
		bind_text(rs, 6, run->file);
		r = sqlite3_step(rs) == SQLITE_DONE ? 0 : db_error(h, "cannot write the run");
		sqlite3_finalize(rs);
	}
	free(started);
	sqlite3_int64 id = sqlite3_last_insert_rowid(h->db);
	if (r == 0)
		r = add_facts(h, id, run);
	sqlite3_stmt *cs = prepare(h, "INSERT INTO cells(run, cell, family, status, size, times, instructions, sha256, "
				      "argv, cflags, compiler_version, libs_listed, beside, states) "
				      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
	sqlite3_stmt *ls = prepare(h, "INSERT INTO libs(run, cell, path, sha256) VALUES (?, ?, ?, ?)");
	if (!cs || !ls)
		r = -1;
	for (size_t i = 0; i < run->ncells && r == 0; i++)
		r = add_cell(h, cs, ls, id, run->root, &run->cells[i]);
	sqlite3_finalize(cs);
	sqlite3_finalize(ls);
	if (r < 0) {
		exec(h, "ROLLBACK");
		return -1;
	}
	return exec(h, "COMMIT") < 0 ? -1 : 1;
}

/* ---- load ---- */

static char *col_text(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);
	return t ? xstrdup((const char *)t) : NULL;
}

static double col_num(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

const char *hist_fact_get(const struct hist_fact *f, size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(f[i].key, key))
			return f[i].value;
	return NULL;
}

/* Each run's state as its level's round trip (NAN: not known), from
 * their JSON text (states_text); none where the count is not the times'. */
static void parse_states(const char *text, struct hist_point *p)
{
	json_t *a = text ? json_loads(text, 0, NULL) : NULL;
	if (json_array_size(a) == p->ntimes && p->ntimes) {
		p->level_ns = xcalloc(p->ntimes + 1, sizeof(double));
		for (size_t i = 0; i < p->ntimes; i++)
			p->level_ns[i] = json_is_number(json_array_get(a, i)) ? json_number_value(json_array_get(a, i)) : NAN;
	}
	json_decref(a);
}

/* The times of a cell from their JSON text. */
static void parse_times(const char *text, struct hist_point *p)
{
	json_t *a = text ? json_loads(text, 0, NULL) : NULL;
	size_t n = json_array_size(a), i;
	json_t *v;
	p->times = xcalloc(n + 1, sizeof(double));
	json_array_foreach(a, i, v) if (json_is_number(v) && json_number_value(v) > 0) p->times[p->ntimes++] =
		json_number_value(v);
	json_decref(a);
}

/* What a night measured beside an earlier night's binary, from its JSON
 * text (beside_text); b->run NULL without one, or one not understood. */
static void parse_beside(const char *text, struct hist_beside *b)
{
	memset(b, 0, sizeof(*b));
	json_t *j = text ? json_loads(text, 0, NULL) : NULL;
	const char *run = json_string_value(json_object_get(j, "run"));
	const char *verdict = json_string_value(json_object_get(j, "verdict"));
	const json_t *ci = json_object_get(j, "ci");
	double ratio = jnum(j, "ratio"), low = json_number_value(json_array_get(ci, 0)),
	       high = json_number_value(json_array_get(ci, 1));
	if (run && verdict && ratio > 0 && low > 0 && high >= low) {
		b->run = xstrdup(run);
		b->verdict = xstrdup(verdict);
		const char *bs = json_string_value(json_object_get(j, "base_sha256"));
		b->base_sha256 = bs ? xstrdup(bs) : NULL;
		b->rounds = (unsigned)json_integer_value(json_object_get(j, "rounds"));
		b->ratio = ratio;
		b->low = low;
		b->high = high;
		b->level = jnum(j, "level");
		b->threshold = jnum(j, "threshold_percent") / 100;
		b->libraries = json_is_true(json_object_get(j, "libraries"));
	}
	json_decref(j);
}

static void push_fact(struct hist_fact **v, size_t *n, sqlite3_stmt *st, int k)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[*n].key = col_text(st, k);
	(*v)[*n].value = col_text(st, k + 1);
	if (!(*v)[*n].key)
		(*v)[*n].key = xstrdup("");
	if (!(*v)[*n].value)
		(*v)[*n].value = xstrdup("");
	(*n)++;
}

static int load_runs(struct history *h, struct history_data *d, size_t **index, size_t *nindex)
{
	sqlite3_stmt *st = prepare(h, "SELECT id, run_id, profile, host, started, statistic, source, "
				      "(SELECT count(*) FROM cells WHERE cells.run = runs.id) FROM runs ORDER BY started, run_id");
	if (!st)
		return -1;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		sqlite3_int64 id = sqlite3_column_int64(st, 0);
		if (id < 0 || id > 100000000)
			continue;
		if ((size_t)id >= *nindex) {
			size_t n = (size_t)id + 64;
			*index = xrealloc(*index, n * sizeof(size_t));
			for (size_t i = *nindex; i < n; i++)
				(*index)[i] = (size_t)-1;
			*nindex = n;
		}
		(*index)[id] = d->nruns;
		d->runs = xrealloc(d->runs, (d->nruns + 1) * sizeof(*d->runs));
		struct hist_run *r = &d->runs[d->nruns++];
		memset(r, 0, sizeof(*r));
		r->run_id = col_text(st, 1);
		r->profile = col_text(st, 2);
		r->host = col_text(st, 3);
		r->started = col_text(st, 4);
		r->statistic = col_text(st, 5);
		r->source = col_text(st, 6);
		r->ncells = (size_t)sqlite3_column_int64(st, 7);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_error(h, "cannot read the runs");
	st = prepare(h, "SELECT run, key, value FROM facts ORDER BY run, key");
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		sqlite3_int64 id = sqlite3_column_int64(st, 0);
		if (id < 0 || (size_t)id >= *nindex || (*index)[id] == (size_t)-1)
			continue;
		struct hist_run *r = &d->runs[(*index)[id]];
		push_fact(&r->facts, &r->nfacts, st, 1);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : db_error(h, "cannot read the facts");
}

#define SERIES_ORDER " ORDER BY r.profile, r.host, c.cell, r.started, r.run_id"
#define SERIES_WHERE " WHERE (?1 IS NULL OR r.profile = ?1) AND (?2 IS NULL OR c.cell = ?2)"

int history_load(struct history *h, const char *profile, const char *cell, struct history_data *d)
{
	memset(d, 0, sizeof(*d));
	size_t *index = NULL, nindex = 0;
	if (load_runs(h, d, &index, &nindex) < 0) {
		free(index);
		return -1;
	}
	sqlite3_stmt *st = prepare(h, "SELECT c.run, c.cell, c.status, c.size, c.times, c.instructions, c.sha256, c.argv, "
				      "c.cflags, c.compiler_version, c.family, c.libs_listed, c.beside, c.states FROM cells c "
				      "JOIN runs r ON r.id = c.run"
				      SERIES_WHERE SERIES_ORDER);
	sqlite3_stmt *ls = prepare(h, "SELECT c.run, c.cell, l.path, l.sha256 FROM libs l JOIN cells c ON c.run = l.run "
				      "AND c.cell = l.cell JOIN runs r ON r.id = c.run" SERIES_WHERE SERIES_ORDER ", l.path");
	int rc = SQLITE_DONE, lrc = SQLITE_DONE;
	if (st && ls) {
		bind_text(st, 1, profile);
		bind_text(st, 2, cell);
		bind_text(ls, 1, profile);
		bind_text(ls, 2, cell);
		lrc = sqlite3_step(ls);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			sqlite3_int64 id = sqlite3_column_int64(st, 0);
			if (id < 0 || (size_t)id >= nindex || index[id] == (size_t)-1)
				continue;
			const struct hist_run *run = &d->runs[index[id]];
			const char *cid = (const char *)sqlite3_column_text(st, 1);
			struct hist_series *s = d->nseries ? &d->series[d->nseries - 1] : NULL;
			if (!s || strcmp(s->cell, cid) || strcmp(s->profile, run->profile) || strcmp(s->host, run->host)) {
				d->series = xrealloc(d->series, (d->nseries + 1) * sizeof(*d->series));
				s = &d->series[d->nseries++];
				memset(s, 0, sizeof(*s));
				s->profile = xstrdup(run->profile);
				s->host = xstrdup(run->host);
				s->cell = xstrdup(cid);
			}
			s->pts = xrealloc(s->pts, (s->n + 1) * sizeof(*s->pts));
			struct hist_point *p = &s->pts[s->n++];
			memset(p, 0, sizeof(*p));
			p->run = index[id];
			p->status = col_text(st, 2);
			double size = col_num(st, 3);
			p->size = size > 0 ? size : 0;
			char *times = col_text(st, 4);
			parse_times(times, p);
			free(times);
			p->instructions = col_num(st, 5);
			p->sha256 = col_text(st, 6);
			p->argv = col_text(st, 7);
			p->cflags = col_text(st, 8);
			p->compiler_version = col_text(st, 9);
			p->family = col_text(st, 10);
			p->libs_listed = sqlite3_column_int(st, 11);
			char *beside = col_text(st, 12);
			parse_beside(beside, &p->beside);
			free(beside);
			char *states = col_text(st, 13);
			parse_states(states, p);
			free(states);
			/* the libraries come in the same order: this cell's are next */
			while (lrc == SQLITE_ROW && sqlite3_column_int64(ls, 0) == id &&
			       !strcmp((const char *)sqlite3_column_text(ls, 1), cid)) {
				push_fact(&p->libs, &p->nlibs, ls, 2);
				lrc = sqlite3_step(ls);
			}
		}
	}
	int bad = !st || !ls || rc != SQLITE_DONE || (lrc != SQLITE_DONE && lrc != SQLITE_ROW);
	if (bad && st && ls)
		db_error(h, "cannot read the cells");
	sqlite3_finalize(st);
	sqlite3_finalize(ls);
	free(index);
	if (bad) {
		history_data_free(d);
		return -1;
	}
	return 0;
}

static void facts_free(struct hist_fact *f, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(f[i].key);
		free(f[i].value);
	}
	free(f);
}

void history_data_free(struct history_data *d)
{
	for (size_t i = 0; i < d->nruns; i++) {
		struct hist_run *r = &d->runs[i];
		free(r->run_id);
		free(r->profile);
		free(r->host);
		free(r->started);
		free(r->statistic);
		free(r->source);
		facts_free(r->facts, r->nfacts);
	}
	free(d->runs);
	for (size_t i = 0; i < d->nseries; i++) {
		struct hist_series *s = &d->series[i];
		for (size_t k = 0; k < s->n; k++) {
			struct hist_point *p = &s->pts[k];
			free(p->status);
			free(p->times);
			free(p->level_ns);
			free(p->sha256);
			free(p->argv);
			free(p->cflags);
			free(p->compiler_version);
			free(p->family);
			free(p->beside.run);
			free(p->beside.verdict);
			free(p->beside.base_sha256);
			facts_free(p->libs, p->nlibs);
		}
		free(s->pts);
		free(s->profile);
		free(s->host);
		free(s->cell);
	}
	free(d->series);
	memset(d, 0, sizeof(*d));
}
