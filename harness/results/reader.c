/* reader.c: see reader.h */
#define _GNU_SOURCE
#include "results/reader.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/config.h"
#include "core/json_util.h"
#include "core/util.h"
#include "results/results.h"

const char *const RESULTS_HOST_FACTS[] = { "kernel", "libc", "microcode", "governor", "turbo", "cpu_model", NULL };

static uint64_t count(const json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	return json_is_integer(v) && json_integer_value(v) > 0 ? (uint64_t)json_integer_value(v) : 0;
}

static int pin(const json_t *p, const char *key)
{
	json_t *v = json_object_get(p, key);
	return json_is_integer(v) ? (int)json_integer_value(v) : PIN_NONE;
}

/* The config as plan.c composes it, or NULL where the parts are missing. */
static char *compose_config(const struct results_cell *c, int allocators)
{
	const char *id = c->id;
	size_t fl = strlen(c->family), vl = strlen(c->variant);
	/* the id is FAMILY/VARIANT@CONFIG: the config exactly as written */
	if (!strncmp(id, c->family, fl) && id[fl] == '/' && !strncmp(id + fl + 1, c->variant, vl) && id[fl + 1 + vl] == '@' &&
	    id[fl + 2 + vl])
		return xstrdup(id + fl + 2 + vl);
	struct strbuf sb = STRBUF_INIT;
	if (c->reference) {
		sb_adds(&sb, "reference");
	} else if (c->compiler && c->opt && c->march) {
		sb_addf(&sb, "%s/%s/%s", c->compiler, c->opt, c->march);
		if (c->flags)
			sb_addf(&sb, "/%s", c->flags);
		if (allocators)
			sb_addf(&sb, "/%s", c->allocator ? c->allocator : "glibc");
	} else {
		return NULL;
	}
	if (c->placement)
		sb_addf(&sb, "/%s", c->placement);
	if (c->consumer)
		sb_addf(&sb, "/%s", c->consumer);
	return sb_detach(&sb);
}

static void counters_view(struct results_cell *c, const json_t *k)
{
	c->instructions_per_unit = jnum(k, "instructions_per_unit");
	c->cycles_per_unit = jnum(k, "cycles_per_unit");
	c->counters_unit = jstr_opt(k, "unit");
	c->counters_skipped = jstr_opt(k, "skipped");
}

static void handoff_view(struct results_cell *c, const json_t *h, size_t nruns)
{
	json_t *r = json_object_get(h, "readings"), *x;
	size_t i, covered = 0;
	json_array_foreach(json_object_get(h, "levels_ns"), i, x)
		if (i < LEVELS_MAX) {
			c->level_ns[i] = json_number_value(x);
			c->handoff_states = (unsigned)i + 1;
		}
	json_array_foreach(r, i, x) {
		covered += (size_t)json_integer_value(json_object_get(x, "runs"));
		json_int_t st = json_integer_value(json_object_get(x, "state"));
		if (st >= 1 && st <= LEVELS_MAX)
			c->state_batches[st - 1]++;
	}
	if (!covered || covered > nruns || !c->handoff_states)
		return;
	c->states = xcalloc(nruns + 1, sizeof(*c->states));
	size_t k = nruns - covered;
	json_array_foreach(r, i, x) {
		json_int_t runs = json_integer_value(json_object_get(x, "runs")), st = json_integer_value(json_object_get(x, "state"));
		for (json_int_t n = 0; n < runs; n++)
			c->states[k++] = st >= 1 && st <= LEVELS_MAX ? (unsigned)st : 0;
	}
}

static void measurement_view(struct results_cell *c, const json_t *j)
{
	json_t *t = json_object_get(j, "time_s");
	c->time_s = json_is_object(t) ? t : NULL;
	size_t nruns = json_array_size(json_object_get(t, "runs"));
	c->rounds = results_per_run(t, "rounds", nruns);
	c->nrounds = c->rounds ? nruns : 0;
	c->pass = (unsigned)json_integer_value(json_object_get(t, "pass"));
	handoff_view(c, json_object_get(json_object_get(j, "details"), "handoff"), nruns);
	json_t *lay = json_object_get(j, "layout");
	c->layouts = json_is_object(lay) ? (unsigned)json_integer_value(json_object_get(lay, "of")) : 1;
	if (c->layouts < 1)
		c->layouts = 1;
	c->layout = (unsigned)json_integer_value(json_object_get(lay, "index"));
	c->code_pad = (unsigned)json_integer_value(json_object_get(lay, "code_pad_bytes"));
	json_t *s = json_object_get(j, "throughput_Bps");
	json_t *rate = json_is_object(s) ? s : json_object_get(j, "rate");
	/* value: the run's statistic; median: runs written before it existed */
	c->value = jnum(rate, "value");
	if (isnan(c->value))
		c->value = jnum(rate, "median");
	c->rate_unit = json_is_object(s) ? NULL : jstr_opt(rate, "unit");
	const char *ps = jstr_opt(json_object_get(j, "precision"), "status");
	c->precision = !ps ? PRECISION_OFF : !strcmp(ps, "reached") ? PRECISION_REACHED
				   : !strcmp(ps, "not_reached") ? PRECISION_NOT_REACHED : PRECISION_OFF;
	counters_view(c, json_object_get(j, "counters"));
	const char *th = jstr_opt(j, "throttled");
	c->throttled = !th ? THROTTLE_UNKNOWN : !strcmp(th, "yes") ? THROTTLE_YES : !strcmp(th, "no") ? THROTTLE_NO
												: THROTTLE_UNKNOWN;
	json_t *tc = json_object_get(j, "temperature_c");
	c->celsius_before = jnum(tc, "before");
	c->celsius_after = jnum(tc, "after");
}

/* The fields of a record that make its program (program_id_from_record),
 * as results.c writes them: allocator, placement, consumer, argv,
 * binary.sha256 and layout.env_pad_bytes. */
static void program_view(struct results_cell *c, const json_t *j)
{
	c->allocator = jstr_opt(j, "allocator");
	c->placement = jstr_opt(j, "placement");
	c->consumer = jstr_opt(j, "consumer");
	c->argv = json_is_array(json_object_get(j, "argv")) ? json_object_get(j, "argv") : NULL;
	c->cflags = json_is_array(json_object_get(j, "cflags")) ? json_object_get(j, "cflags") : NULL;
	c->sha256 = jstr_opt(json_object_get(j, "binary"), "sha256");
	c->env_pad = (unsigned)json_integer_value(json_object_get(json_object_get(j, "layout"), "env_pad_bytes"));
}

int results_cell_view(struct results_cell *c, json_t *j, const char *file, int allocators)
{
	memset(c, 0, sizeof(*c));
	c->j = j;
	c->id = jstr_opt(j, "id");
	if (!c->id)
		return error("%s: a cell without an id: field id missing", file);
	/* family and variant: from an id FAMILY/VARIANT@CONFIG where missing */
	const char *slash = strchr(c->id, '/'), *at = slash ? strchr(slash + 1, '@') : NULL;
	if (!jstr_opt(j, "family") && at && slash > c->id)
		json_object_set_new(j, "family", json_stringn(c->id, (size_t)(slash - c->id)));
	if (!jstr_opt(j, "variant") && at && at > slash + 1)
		json_object_set_new(j, "variant", json_stringn(slash + 1, (size_t)(at - slash - 1)));
	static const char *const required[] = { "family", "variant", "status" };
	for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++)
		if (!jstr_opt(j, required[i]))
			return error("%s: cell %s: field %s missing", file, c->id, required[i]);
	c->family = jstr_opt(j, "family");
	c->variant = jstr_opt(j, "variant");
	c->status_name = jstr_opt(j, "status");
	if (cell_status_parse(c->status_name, &c->status) < 0)
		return error("%s: cell %s: status %s unknown", file, c->id, c->status_name);
	c->title = jstr_opt(j, "title");
	c->kind = jstr_opt(j, "kind");
	c->reason = jstr_opt(j, "reason");
	c->compiler = jstr_opt(j, "compiler");
	c->compiler_version = jstr_opt(j, "compiler_version");
	c->language = jstr_opt(j, "language");
	c->opt = jstr_opt(j, "opt");
	c->march = jstr_opt(j, "march");
	c->flags = jstr_opt(j, "flags");
	program_view(c, j);
	c->emulated = json_is_true(json_object_get(j, "emulated"));
	c->config = jstr_opt(j, "config");
	c->reference = (c->config && !strcmp(c->config, "reference")) || (c->compiler && !strcmp(c->compiler, "none"));
	if (!c->config) {
		char *cfg = compose_config(c, allocators);
		if (!cfg)
			return error("%s: cell %s: field config missing (and no compiler, opt and march to derive it from)",
				     file, c->id);
		json_object_set_new(j, "config", json_string(cfg));
		free(cfg);
		c->config = jstr_opt(j, "config");
	}
	c->size = count(j, "size");
	json_t *b = json_object_get(j, "bytes");
	c->bytes = json_is_integer(b) && json_integer_value(b) >= 0 ? (uint64_t)json_integer_value(b) : UINT64_MAX;
	json_t *p = json_object_get(j, "pin");
	c->pin_producer = pin(p, "producer");
	c->pin_consumer = pin(p, "consumer");
	c->pin_single = pin(p, "single");
	json_t *bin = json_object_get(j, "binary");
	c->binary_bytes = count(bin, "bytes");
	c->text_bytes = count(j, "text_bytes");
	c->same_binary_as = jstr_opt(j, "same_binary_as");
	measurement_view(c, j);
	json_int_t shard = json_integer_value(json_object_get(j, "shard"));
	c->shard = shard > 0 ? (unsigned)shard : 0;
	c->speedup = jnum(j, "speedup");
	c->vs_glibc = jnum(j, "vs_glibc");
	json_t *w = json_object_get(j, "warnings"), *x;
	size_t i;
	c->warnings = xcalloc(json_array_size(w) + 1, sizeof(*c->warnings));
	json_array_foreach(w, i, x) c->warnings[c->nwarnings++] = json_string_value(x) ? json_string_value(x) : "?";
	return 0;
}

void results_cell_release(struct results_cell *c)
{
	free(c->rounds);
	c->rounds = NULL;
	c->nrounds = 0;
	free(c->states);
	c->states = NULL;
	free(c->warnings);
	c->warnings = NULL;
	c->nwarnings = 0;
}

void program_id_from_record(struct program_id *id, const struct results_cell *c)
{
	size_t n = json_array_size(c->argv), i;
	const char **argv = xcalloc(n + 1, sizeof(*argv));
	int known = c->sha256 && c->sha256[0] && c->argv;
	json_t *a;
	json_array_foreach(c->argv, i, a) {
		argv[i] = json_string_value(a);
		known &= argv[i] != NULL;
	}
	*id = (struct program_id){
		.sha256 = known ? c->sha256 : NULL,
		.argv = argv,
		.argc = n,
		.allocator = c->allocator ? c->allocator : "glibc",
		.placement = c->placement,
		.consumer = c->consumer,
		.env_pad = c->env_pad,
		.owned = argv,
	};
}

void program_id_from_json(struct program_id *id, const json_t *record)
{
	struct results_cell c;
	memset(&c, 0, sizeof(c));
	program_view(&c, record);
	program_id_from_record(id, &c);
}

/* The results.json a path names: the file itself, or DIR/results.json. */
static int results_file(const char *path, char **file, char **dir)
{
	struct stat st;
	size_t len = strlen(path);
	int dir_arg = stat(path, &st) == 0 && S_ISDIR(st.st_mode);
	if (!dir_arg && (len >= 5 && !strcmp(path + len - 5, ".json") ? 1 : stat(path, &st) == 0)) {
		*file = xstrdup(path);
		const char *slash = strrchr(path, '/');
		*dir = slash ? xasprintf("%.*s", (int)(slash - path), path) : xstrdup(".");
		return 0;
	}
	if (!dir_arg)
		return error("%s: %s", path, errno == ENOENT ? "no such run folder" : strerror(errno));
	*file = xasprintf("%s/results.json", path);
	if (stat(*file, &st) < 0) {
		free(*file);
		*file = NULL;
		return error("%s: no results.json in this run folder", path);
	}
	*dir = xstrdup(path);
	return 0;
}

/* Whether any cell ran under an allocator besides glibc: then the suite
 * listed allocators, and every config ends with its cell's. */
static int has_allocators(const json_t *cells)
{
	size_t i;
	json_t *c;
	json_array_foreach(cells, i, c) {
		const char *a = jstr_opt(c, "allocator");
		if (a && strcmp(a, "glibc"))
			return 1;
	}
	return 0;
}

static int check_cells(struct results_run *r, json_t *cells)
{
	int allocators = has_allocators(cells);
	size_t i;
	json_t *c;
	r->cells = xcalloc(json_array_size(cells) + 1, sizeof(*r->cells));
	json_array_foreach(cells, i, c) {
		if (!json_is_object(c))
			return error("%s: cells[%zu] is not an object", r->file, i);
		if (results_cell_view(&r->cells[r->ncells], c, r->file, allocators) < 0) {
			results_cell_release(&r->cells[r->ncells]);
			return -1;
		}
		r->ncells++;
		if (results_cell_by_id(r, r->cells[r->ncells - 1].id) != &r->cells[r->ncells - 1])
			return error("%s: cell id %s appears twice", r->file, r->cells[r->ncells - 1].id);
	}
	return 0;
}

/* A joined run's baseline copies (run.shards[].copies). */
static int check_copies(struct results_run *r, const json_t *shards)
{
	size_t i, k, n = 0;
	json_t *s, *c;
	json_array_foreach(shards, i, s) n += json_array_size(json_object_get(s, "copies"));
	r->copies = xcalloc(n + 1, sizeof(*r->copies));
	json_array_foreach(shards, i, s) json_array_foreach(json_object_get(s, "copies"), k, c) {
		if (!json_is_object(c) || results_cell_view(&r->copies[r->ncopies], c, r->file, 0) < 0) {
			results_cell_release(&r->copies[r->ncopies]);
			return error("%s: run.shards[%zu].copies[%zu] is not a cell", r->file, i, k);
		}
		r->ncopies++;
	}
	return 0;
}

/* The view of r->root, read from r->file; closes r on failure. */
static int view_root(struct results_run *r)
{
	const char *schema = jstr_opt(r->root, "schema");
	if (!schema || strcmp(schema, RESULTS_SCHEMA)) {
		error("%s: not a flagbench results file (schema %s, expected %s)", r->file, schema ? schema : "missing",
		      RESULTS_SCHEMA);
		goto bad;
	}
	json_t *cells = json_object_get(r->root, "cells");
	if (!json_is_array(cells)) {
		error("%s: \"cells\" must be an array", r->file);
		goto bad;
	}
	json_t *run = json_object_get(r->root, "run");
	if (check_cells(r, cells) < 0 || check_copies(r, json_object_get(run, "shards")) < 0)
		goto bad;
	r->id = jstr(run, "id");
	r->statistic = jstr_opt(run, "statistic") ? jstr_opt(run, "statistic") : "median";
	r->cpu_profile = jstr_opt(run, "cpu_profile");
	r->suite = jstr_opt(run, "suite");
	r->suite_path = jstr_opt(run, "suite_path");
	r->cpu_model = jstr_opt(json_object_get(r->root, "host"), "cpu_model");
	double sd = jnum(json_object_get(run, "drift"), "sd_percent") / 100;
	r->drift_sd = isfinite(sd) && sd > 0 ? sd : 0;
	json_t *fams = json_object_get(r->root, "families");
	r->families = json_is_object(fams) ? fams : NULL;
	return 0;
bad:
	results_close(r);
	return -1;
}

int results_open(const char *path, struct results_run *r)
{
	memset(r, 0, sizeof(*r));
	if (results_file(path, &r->file, &r->dir) < 0)
		return -1;
	json_error_t je;
	r->root = json_load_file(r->file, JSON_REJECT_DUPLICATES, &je);
	if (!r->root) {
		if (je.line < 0 || access(r->file, R_OK) < 0)
			error("%s: %s", r->file, je.text);
		else
			error("%s:%d:%d: %s", r->file, je.line, je.column, je.text);
		results_close(r);
		return -1;
	}
	return view_root(r);
}

int results_open_loaded(const char *file, json_t *root, struct results_run *r)
{
	memset(r, 0, sizeof(*r));
	const char *slash = strrchr(file, '/');
	r->file = xstrdup(file);
	r->dir = slash ? xasprintf("%.*s", (int)(slash - file), file) : xstrdup(".");
	r->root = root;
	return view_root(r);
}

void results_close(struct results_run *r)
{
	for (size_t i = 0; i < r->ncells; i++)
		results_cell_release(&r->cells[i]);
	free(r->cells);
	for (size_t i = 0; i < r->ncopies; i++)
		results_cell_release(&r->copies[i]);
	free(r->copies);
	json_decref(r->root);
	free(r->file);
	free(r->dir);
	memset(r, 0, sizeof(*r));
}

struct results_cell *results_cell_by_id(const struct results_run *r, const char *id)
{
	for (size_t i = 0; id && i < r->ncells; i++)
		if (!strcmp(r->cells[i].id, id))
			return &r->cells[i];
	return NULL;
}

struct results_cell *results_cell_beside(const struct results_run *r, struct results_cell *other,
					 const struct results_cell *c)
{
	for (size_t i = 0; other && c && c->shard && other->shard != c->shard && i < r->ncopies; i++)
		if (r->copies[i].shard == c->shard && !strcmp(r->copies[i].id, other->id))
			return &r->copies[i];
	return other;
}

json_t *results_load(const char *path, char **dir)
{
	struct results_run r;
	*dir = NULL;
	if (results_open(path, &r) < 0)
		return NULL;
	json_t *root = json_incref(r.root);
	*dir = r.dir;
	r.dir = NULL;
	results_close(&r);
	return root;
}

static int is_dir(const char *path)
{
	struct stat st;
	return path && stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

void results_family_dirs(const json_t *root, const char *run_dir, const struct family *known, size_t nknown,
			 struct strvec *out, struct strvec *names)
{
	const char *key;
	json_t *fam;
	json_object_foreach(json_object_get(root, "families"), key, fam) {
		const char *dir = json_string_value(json_object_get(fam, "dir"));
		const char *kept = json_string_value(json_object_get(fam, "kept"));
		int have = sv_contains(names, key);
		for (size_t i = 0; i < nknown && !have; i++)
			have = !strcmp(known[i].name, key);
		char *copy = kept && run_dir && !strstr(kept, "..") ? xasprintf("%s/%s", run_dir, kept) : NULL;
		/* the run's own copy first, what it built from */
		const char *use = have ? NULL : is_dir(copy) ? copy : is_dir(dir) ? dir : NULL;
		if (use) {
			sv_push(out, use);
			sv_push(names, key);
		}
		free(copy);
	}
}

int load_families_of_runs(const json_t *a, const char *a_dir, const json_t *b, const char *b_dir, struct family **out)
{
	struct family *fams;
	int n = load_all_families(&fams);
	if (n < 0)
		return -1;
	struct strvec dirs = STRVEC_INIT, names = STRVEC_INIT;
	results_family_dirs(a, a_dir, fams, (size_t)n, &dirs, &names);
	if (b)
		results_family_dirs(b, b_dir, fams, (size_t)n, &dirs, &names);
	if (dirs.n) {
		for (int i = 0; i < n; i++)
			free_family(&fams[i]);
		free(fams);
		n = load_families(&dirs, &fams);
	}
	sv_clear(&dirs);
	sv_clear(&names);
	*out = n < 0 ? NULL : fams;
	return n;
}

const json_t *results_json_cell(const json_t *root, const char *id)
{
	size_t i;
	json_t *c;
	json_array_foreach(json_object_get(root, "cells"), i, c) {
		const char *cid = jstr_opt(c, "id");
		if (cid && !strcmp(cid, id))
			return c;
	}
	return NULL;
}
