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
#include "config/suite.h"
#include "results/results.h"

const char *const RESULTS_HOST_FACTS[RESULTS_NHOST_FACTS + 1] = { "kernel",   "libc",  "microcode", "governor",
								 "turbo",    "cpu_model", NULL };

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

/* An array of strings (a non-string NULL), allocated; NULL without an array. */
static const char **strings_of(const json_t *a, size_t *n)
{
	*n = 0;
	if (!json_is_array(a))
		return NULL;
	const char **v = xcalloc(json_array_size(a) + 1, sizeof(*v));
	size_t i;
	const json_t *x;
	json_array_foreach(a, i, x) v[(*n)++] = json_string_value(x);
	return v;
}

static void times_view(struct results_times *t, const json_t *ts)
{
	const json_t *runs = json_object_get(ts, "runs");
	t->recorded = json_is_array(runs);
	t->nruns = json_array_size(runs);
	t->runs = t->nruns ? xcalloc(t->nruns, sizeof(double)) : NULL;
	for (size_t i = 0; i < t->nruns; i++) {
		const json_t *x = json_array_get(runs, i);
		t->runs[i] = json_is_number(x) ? json_number_value(x) : NAN;
	}
	t->statistic = jstr_opt(ts, "statistic");
	t->value = jnum(ts, "value");
	t->median = jnum(ts, "median");
}

static void measurement_view(struct results_cell *c, const json_t *j)
{
	json_t *t = json_object_get(j, "time_s");
	times_view(&c->time, json_is_object(t) ? t : NULL);
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
	double target = jnum(json_object_get(j, "precision"), "target_percent");
	c->precision_target = target > 0 ? target : NAN;
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
	c->argv = strings_of(json_object_get(j, "argv"), &c->nargv);
	c->cflags = strings_of(json_object_get(j, "cflags"), &c->ncflags);
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
	json_t *libs = json_object_get(bin, "libraries"), *l;
	size_t k;
	c->libs_listed = json_is_array(libs);
	c->libs = xcalloc(json_array_size(libs) + 1, sizeof(*c->libs));
	json_array_foreach(libs, k, l) c->libs[c->nlibs++] = (struct results_lib){ jstr_opt(l, "path"), jstr_opt(l, "sha256") };
	c->pgo = json_is_object(json_object_get(j, "pgo"));
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
	free(c->argv);
	free(c->cflags);
	free(c->libs);
	free(c->time.runs);
	c->argv = c->cflags = NULL;
	c->libs = NULL;
	c->time.runs = NULL;
	c->nargv = c->ncflags = c->nlibs = c->time.nruns = 0;
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
	size_t n = c->nargv;
	const char **argv = xcalloc(n + 1, sizeof(*argv));
	int known = c->sha256 && c->sha256[0] && c->argv;
	for (size_t i = 0; i < n; i++) {
		argv[i] = c->argv[i];
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
	/* the id keeps argv's strings, not the view's array */
	free(c.argv);
	free(c.cflags);
}

/* ---- the run's own records ---- */

/* A host fact or a tool's version as text (struct results_fact). */
static char *fact_text(const json_t *v)
{
	if (json_is_string(v))
		return xstrdup(json_string_value(v));
	if (json_is_boolean(v))
		return xstrdup(json_is_true(v) ? "on" : "off");
	if (!v || json_is_null(v))
		return NULL;
	return json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
}

/* run.cooldown, else the profile's (runs before run.cooldown). */
static void cooldown_view(struct results_cooldown *c, const json_t *root)
{
	const json_t *cd = json_object_get(json_object_get(root, "run"), "cooldown");
	c->override = json_is_true(json_object_get(cd, "override"));
	if (!json_is_object(cd))
		cd = json_object_get(json_object_get(root, "profile"), "cooldown");
	c->seconds = jnum(cd, "seconds");
	c->below_celsius = jnum(cd, "below_celsius");
	c->max_wait_seconds = jnum(cd, "max_wait_seconds");
}

static void settings_view(struct results_settings *s, const json_t *root)
{
	const json_t *run = json_object_get(root, "run"), *a = json_object_get(run, "argv"), *x;
	size_t i;
	if (json_is_array(a)) {
		s->argv = xcalloc(json_array_size(a) + 1, sizeof(*s->argv));
		json_array_foreach(a, i, x) s->argv[s->nargv++] = json_string_value(x);
	}
	s->name = jstr_opt(run, "name");
	s->started = jstr_opt(run, "started");
	s->finished = !json_is_null(json_object_get(run, "finished"));
	s->interrupted = json_is_true(json_object_get(run, "interrupted"));
	const json_t *w = json_object_get(run, "warnings");
	s->warnings = xcalloc(json_array_size(w) + 1, sizeof(*s->warnings));
	json_array_foreach(w, i, x) s->warnings[s->nwarnings++] = json_string_value(x) ? json_string_value(x) : "?";
	cooldown_view(&s->cooldown, root);
	s->build_s = jnum(json_object_get(run, "phases"), "build_s");
}

static void host_view(struct results_host *h, const json_t *root)
{
	const json_t *host = json_object_get(root, "host"), *tools = json_object_get(root, "tools"), *v;
	h->hostname = jstr_opt(host, "hostname");
	h->cpu_model = jstr_opt(host, "cpu_model");
	for (int i = 0; i < RESULTS_NHOST_FACTS; i++)
		h->fact[i] = fact_text(json_object_get(host, RESULTS_HOST_FACTS[i]));
	const char *k;
	h->tools = xcalloc(json_object_size(tools) + 1, sizeof(*h->tools));
	json_object_foreach((json_t *)tools, k, v) h->tools[h->ntools++] = (struct results_fact){ k, fact_text(v) };
}

static int family_cmp(const void *a, const void *b)
{
	return strcmp(((const struct results_family *)a)->name, ((const struct results_family *)b)->name);
}

static void families_view(struct results_run *r)
{
	const json_t *fams = json_object_get(r->root, "families"), *f;
	const char *name;
	r->families = xcalloc(json_object_size(fams) + 1, sizeof(*r->families));
	json_object_foreach((json_t *)fams, name, f) {
		r->families[r->nfamilies++] = (struct results_family){
			.name = name,
			.dir = jstr_opt(f, "dir"),
			.kept = jstr_opt(f, "kept"),
			.hash = jstr_opt(f, "hash"),
			.title = jstr_opt(f, "title"),
			.check = jstr_opt(f, "check"),
			.kind = jstr_opt(f, "kind"),
			.baseline = jstr_opt(f, "baseline"),
			.unit = jstr_opt(f, "unit"),
			.rate_unit = jstr_opt(f, "rate_unit"),
		};
	}
	qsort(r->families, r->nfamilies, sizeof(*r->families), family_cmp);
}

/* The run's own records, typed: settings, host facts and tools, families. */
static void run_view(struct results_run *r)
{
	r->schema = jstr_opt(r->root, "schema");
	settings_view(&r->settings, r->root);
	host_view(&r->host, r->root);
	families_view(r);
}

static void run_view_release(struct results_run *r)
{
	free(r->settings.argv);
	free(r->settings.warnings);
	for (int i = 0; i < RESULTS_NHOST_FACTS; i++)
		free(r->host.fact[i]);
	for (size_t i = 0; i < r->host.ntools; i++)
		free(r->host.tools[i].value);
	free(r->host.tools);
	free(r->families);
	memset(&r->settings, 0, sizeof(r->settings));
	memset(&r->host, 0, sizeof(r->host));
	r->families = NULL;
	r->nfamilies = 0;
}

const struct results_family *results_family_by_name(const struct results_run *r, const char *name)
{
	struct results_family key = { .name = name };
	return name && r->nfamilies ? bsearch(&key, r->families, r->nfamilies, sizeof(key), family_cmp) : NULL;
}

static json_t *object_or_empty(const json_t *v)
{
	return json_is_object(v) ? json_incref((json_t *)v) : json_object();
}

void results_run_provenance(const struct results_run *r, json_t **host, json_t **tools, json_t **profile)
{
	*host = object_or_empty(json_object_get(r->root, "host"));
	*tools = object_or_empty(json_object_get(r->root, "tools"));
	*profile = object_or_empty(json_object_get(r->root, "profile"));
}

int results_run_matrix(const struct results_run *r, struct suite *s)
{
	json_t *m = json_object_get(json_object_get(r->root, "run"), "matrix");
	return m ? suite_set_matrix(s, m, r->file) : 0;
}

const char *results_run_option(const struct results_run *r, const char *name)
{
	const struct results_settings *s = &r->settings;
	size_t len = strlen(name);
	for (size_t i = 0; i < s->nargv; i++) {
		const char *a = s->argv[i];
		if (!a || strncmp(a, "--", 2) || strncmp(a + 2, name, len))
			continue;
		if (a[2 + len] == '=')
			return a + 3 + len;
		if (!a[2 + len])
			return i + 1 < s->nargv ? s->argv[i + 1] : NULL;
	}
	return NULL;
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
	run_view(r);
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
	run_view_release(r);
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

static int is_dir(const char *path)
{
	struct stat st;
	return path && stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

void results_family_dirs(const struct results_run *run, const struct family *known, size_t nknown,
			 struct strvec *out, struct strvec *names)
{
	const char *run_dir = run->dir;
	for (size_t f = 0; f < run->nfamilies; f++) {
		const char *key = run->families[f].name, *dir = run->families[f].dir, *kept = run->families[f].kept;
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

int load_families_of_runs(const struct results_run *a, const struct results_run *b, struct family **out)
{
	struct family *fams;
	int n = load_all_families(&fams);
	if (n < 0)
		return -1;
	struct strvec dirs = STRVEC_INIT, names = STRVEC_INIT;
	results_family_dirs(a, fams, (size_t)n, &dirs, &names);
	if (b)
		results_family_dirs(b, fams, (size_t)n, &dirs, &names);
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
