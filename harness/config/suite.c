/* suite.c: configs/suites/NAME.json and the sizes it gives (suite.h). */
#define _GNU_SOURCE
#include "config/suite.h"

#include <string.h>
#include <unistd.h>

#include "config/jsoncfg.h"
#include "core/options.h"
#include "system/topology.h"

static int suite_family_dirs(struct cfg *c, json_t *root, struct suite *s)
{
	struct strvec rel = STRVEC_INIT;
	int r = cfg_string_list(c, root, "family_dirs", 0, &rel);
	char *base = xstrdup(s->path ? s->path : c->file);
	char *slash = strrchr(base, '/');
	if (slash)
		*slash = '\0';
	for (size_t i = 0; !r && i < rel.n; i++)
		if (rel.v[i][0] == '/')
			sv_push(&s->family_dirs, rel.v[i]);
		else
			sv_pushf(&s->family_dirs, "%s/%s", slash ? base : ".", rel.v[i]);
	free(base);
	sv_clear(&rel);
	return r;
}

/* "flags": {"base": [], "lto": ["-flto"], "pgo": "pgo"}: the set names
 * become part of cell ids, so they must be plain words. */
static int parse_flag_sets(struct cfg *c, json_t *flags, struct suite *s)
{
	if (!flags)
		return 0;
	cfg_push_key(c, "flags");
	int r = 0;
	if (!json_is_object(flags) || !json_object_size(flags))
		r = cfg_error(c, "must be an object of named flag lists like {\"base\": [], \"lto\": [\"-flto\"]}");
	else
		s->flagsets = xcalloc(json_object_size(flags), sizeof(*s->flagsets));
	const char *name;
	json_t *v;
	json_object_foreach(flags, name, v) {
		if (r)
			break;
		struct flag_set *fs = &s->flagsets[s->nflagsets];
		cfg_push_key(c, name);
		if (!*name || strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.+") !=
				      strlen(name))
			r = cfg_error(c, "a flag set's name must be a plain word (letters, digits, _ - . +)");
		else if (json_is_string(v) && !strcmp(json_string_value(v), "pgo"))
			fs->pgo = 1;
		else if (json_is_string(v))
			r = cfg_error(c, "must be a list of flags, or the string \"pgo\" for a profile-guided build");
		else if (!json_is_array(v))
			r = cfg_error(c, "must be a list of flags or \"pgo\", not %s", cfg_type_name(v));
		size_t i;
		json_t *e;
		json_array_foreach(v, i, e) {
			if (r)
				break;
			cfg_push_index(c, i);
			if (!json_is_string(e) || json_string_value(e)[0] != '-')
				r = cfg_error(c, "must be a compiler flag starting with '-'");
			else
				sv_push(&fs->flags, json_string_value(e));
			cfg_pop(c);
		}
		cfg_pop(c);
		fs->name = xstrdup(name);
		s->nflagsets++;
	}
	cfg_pop(c);
	return r;
}

/* The plain lists a suite names, and the name and title. */
static int suite_lists(struct cfg *c, json_t *root, struct suite *s)
{
	int r = cfg_string(c, root, "name", 1, &s->name);
	if (!r)
		r = cfg_check_name(c, "name", s->name);
	if (!r)
		r = cfg_string(c, root, "title", 0, &s->title);
	if (!r)
		r = cfg_string_list(c, root, "variants", 1, &s->variants);
	if (!r)
		r = cfg_string_list(c, root, "compilers", 1, &s->compilers);
	if (!r)
		r = cfg_string_list(c, root, "opt", 1, &s->opt);
	/* "march": "profile", or no "march" at all, takes the cpu profile's */
	json_t *m = json_object_get(root, "march");
	if (!r && m && json_is_string(m) && !strcmp(json_string_value(m), "profile"))
		s->march_from_profile = 1;
	else if (!r && m)
		r = cfg_string_list(c, root, "march", 0, &s->march);
	else if (!r)
		s->march_from_profile = 1;
	if (!r)
		r = cfg_string_list(c, root, "allocators", 0, &s->allocators);
	if (!r)
		r = cfg_string_list(c, root, "placements", 0, &s->placements);
	if (!r)
		r = cfg_string_list(c, root, "consumers", 0, &s->consumers);
	return r;
}

/* The error for entry i of the list under key, pointing at that entry. */
static int list_entry_error(struct cfg *c, const char *key, size_t i, const char *fmt, const char *word)
	FB_PRINTF(4, 0);
static int list_entry_error(struct cfg *c, const char *key, size_t i, const char *fmt, const char *word)
{
	cfg_push_key(c, key);
	cfg_push_index(c, i);
	int r = cfg_error(c, fmt, word);
	cfg_pop(c);
	cfg_pop(c);
	return r;
}

/* Placements, consumers and -O flags are closed sets: name the bad entry. */
static int suite_check_words(struct cfg *c, const struct suite *s)
{
	int r = 0;
	for (size_t i = 0; !r && i < s->placements.n; i++) {
		enum placement_class pc;
		if (placement_class_parse(s->placements.v[i], &pc) < 0)
			r = list_entry_error(c, "placements", i,
					     "'%s' is not a placement class (" PLACEMENT_CLASS_NAMES ")", s->placements.v[i]);
	}
	for (size_t i = 0; !r && i < s->consumers.n; i++) {
		const char *v = s->consumers.v[i];
		if (strcmp(v, "splice") && strcmp(v, "read") && strcmp(v, "pv"))
			r = list_entry_error(c, "consumers", i, "'%s' is not a consumer (splice, read, pv)", v);
	}
	for (size_t i = 0; !r && i < s->opt.n; i++)
		if (s->opt.v[i][0] != '-')
			r = list_entry_error(c, "opt", i, "'%s' is not a compiler flag (e.g. \"-O2\")", s->opt.v[i]);
	return r;
}

/* One entry of "cross": a compiler for another architecture and how to run
 * what it builds. */
static int load_cross_target(struct cfg *c, json_t *x, struct cross_target *t)
{
	static const char *const xkeys[] = { "compiler", "march",  "run_prefix", "packages",
					     "sizes",    "cflags", "variants",   NULL };
	int r = 0;
	if (!json_is_object(x))
		r = cfg_error(c, "must be an object");
	if (!r)
		r = cfg_check_keys(c, x, xkeys);
	if (!r)
		r = cfg_string(c, x, "compiler", 1, &t->compiler);
	if (!r)
		r = cfg_string_list(c, x, "march", 1, &t->march);
	if (!r)
		r = cfg_string_list(c, x, "run_prefix", 1, &t->run_prefix);
	if (!r)
		r = cfg_string(c, x, "packages", 0, &t->packages);
	if (!r)
		r = cfg_string_list(c, x, "cflags", 0, &t->cflags);
	if (!r)
		r = cfg_string_list(c, x, "variants", 0, &t->variants);
	json_t *xs = json_object_get(x, "sizes");
	if (!r && xs && !json_is_object(xs)) {
		cfg_push_key(c, "sizes");
		r = cfg_error(c, "must be an object like {\"chacha20\": 1048576}");
		cfg_pop(c);
	}
	if (!r && xs)
		t->sizes = json_incref(xs);
	return r;
}

/* "cross": the list of cross targets; ncross counts the good ones, so
 * free_suite frees what was filled. */
static int suite_cross(struct cfg *c, json_t *cross, struct suite *s)
{
	if (!cross)
		return 0;
	int r = 0;
	cfg_push_key(c, "cross");
	if (!json_is_array(cross))
		r = cfg_error(c, "must be a list of {\"compiler\", \"march\", \"run_prefix\", \"packages\"}");
	else
		s->cross = xcalloc(json_array_size(cross) + 1, sizeof(*s->cross));
	for (size_t i = 0; !r && i < json_array_size(cross); i++) {
		cfg_push_index(c, i);
		r = load_cross_target(c, json_array_get(cross, i), &s->cross[i]);
		s->ncross += !r;
		cfg_pop(c);
	}
	cfg_pop(c);
	return r;
}

/* "sizes": {"family": N}; kept even when one is bad, for free_suite. */
static int suite_sizes(struct cfg *c, json_t *sizes, struct suite *s)
{
	if (!sizes)
		return 0;
	int r = 0;
	cfg_push_key(c, "sizes");
	if (!json_is_object(sizes))
		r = cfg_error(c, "must be an object like {\"yes\": 100000000}");
	const char *k;
	json_t *sv;
	json_object_foreach(sizes, k, sv) {
		if (r)
			break;
		uint64_t n;
		cfg_push_key(c, k);
		r = cfg_size(c, sv, 1, &n);
		cfg_pop(c);
	}
	cfg_pop(c);
	s->sizes = json_incref(sizes);
	return r;
}

/* A key that is also a run option ("runs", "warmup", "cell_budget"): set
 * through its row of options_suite_keys (the option is "cell-budget"), so
 * the suite and --runs have one range. */
static int suite_key(struct cfg *c, json_t *root, const char *key, struct suite_key_opts *keys, int *has)
{
	json_t *v = json_object_get(root, key);
	if (!v)
		return 0;
	cfg_push_key(c, key);
	char text[32], err[256], option[32];
	snprintf(option, sizeof(option), "%s", key);
	for (char *p = option; *p; p++)
		if (*p == '_')
			*p = '-';
	/* the row says what the key holds: a number for a double, else an integer */
	const struct option_def *row = option_find(options_suite_keys, option);
	int decimal = row && row->type == OPT_DOUBLE;
	int r = 0;
	if (decimal ? !json_is_number(v) : !json_is_integer(v)) {
		r = cfg_error(c, "must be %s, not %s", decimal ? "a number" : "an integer", cfg_type_name(v));
	} else {
		if (decimal)
			snprintf(text, sizeof(text), "%.15g", json_number_value(v));
		else
			snprintf(text, sizeof(text), "%" JSON_INTEGER_FORMAT, json_integer_value(v));
		if (option_set(options_suite_keys, keys, option, text, err, sizeof(err)) < 0)
			r = cfg_error(c, "%s", err);
		else
			*has = 1;
	}
	cfg_pop(c);
	return r;
}

int load_suite(const char *name, struct suite *s)
{
	memset(s, 0, sizeof(*s));
	s->cooldown_s = -1;
	char *path = cfg_config_path("suites", name);
	if (access(path, R_OK) < 0 && !strchr(name, '/') && !strstr(name, ".json")) {
		free(path);
		return cfg_unknown_name("suites", "suite", name);
	}
	char *text = NULL;
	json_t *root = cfg_load_json(path, &text);
	if (!root) {
		free(path);
		return -1;
	}
	struct cfg c = { path, text, { { 0 } }, 0 };
	static const char *const keys[] = { "name", "title", "description", "variants", "compilers", "opt",
					    "march", "allocators", "placements", "consumers", "sizes", "runs",
					    "warmup", "cell_budget", "cooldown", "cross", "family_dirs", "flags", "layouts",
					    NULL };
	int r = cfg_check_keys(&c, root, keys);
	if (!r)
		r = suite_lists(&c, root, s);
	if (!r)
		r = suite_check_words(&c, s);
	struct suite_key_opts sk = { 0 };
	if (!r)
		r = suite_key(&c, root, "runs", &sk, &s->has_runs);
	if (!r)
		r = suite_key(&c, root, "warmup", &sk, &s->has_warmup);
	if (!r)
		r = suite_key(&c, root, "cell_budget", &sk, &s->has_cell_budget);
	s->runs = sk.runs;
	s->warmup = sk.warmup;
	s->cell_budget = sk.cell_budget;
	double v = 0;
	if (!r && json_object_get(root, "layouts") &&
	    !(r = cfg_number(&c, root, "layouts", 1, SUITE_LAYOUTS_MAX, 1, &v)))
		s->layouts = (unsigned)v;
	if (!r)
		r = cfg_number(&c, root, "cooldown", 0, 3600, 0, &s->cooldown_s);
	if (!r)
		r = suite_cross(&c, json_object_get(root, "cross"), s);
	if (!r)
		r = parse_flag_sets(&c, json_object_get(root, "flags"), s);
	if (!r)
		r = suite_sizes(&c, json_object_get(root, "sizes"), s);
	if (!r)
		r = suite_family_dirs(&c, root, s);
	if (!r)
		r = cfg_require(&c, s->variants.n > 0, "variants", "must name at least one variant glob");
	free(text);
	s->path = path;
	s->json = root;
	if (r < 0) {
		free_suite(s);
		return -1;
	}
	return 0;
}

/* "a,b" as a JSON list; an empty entry is refused. */
static json_t *comma_list(const char *option, const char *text)
{
	json_t *list = json_array();
	char *copy = xstrdup(text), *p = copy;
	for (;;) {
		char *comma = strchr(p, ',');
		if (comma)
			*comma = '\0';
		p += strspn(p, " \t");
		size_t len = strlen(p);
		while (len && (p[len - 1] == ' ' || p[len - 1] == '\t'))
			p[--len] = '\0';
		if (!len) {
			error("--%s '%s': an empty entry (a comma-separated list, e.g. %s)", option, text,
			      !strcmp(option, "opt") ? "-O2,-O3" : !strcmp(option, "march") ? "native,x86-64-v3" : "gcc,clang");
			json_decref(list);
			list = NULL;
			break;
		}
		json_array_append_new(list, json_string(p));
		if (!comma)
			break;
		p = comma + 1;
	}
	free(copy);
	return list;
}

/* 'NAME=FLAGS;NAME=FLAGS' as a suite's "flags": each set's flags split at
 * spaces (no shell), "pgo" alone the profile-guided build. */
static json_t *flag_sets_text(const char *text)
{
	json_t *sets = json_object();
	char *copy = xstrdup(text), *save = NULL;
	for (char *item = strtok_r(copy, ";", &save); item && sets; item = strtok_r(NULL, ";", &save)) {
		item += strspn(item, " \t");
		if (!*item)
			continue;
		char *eq = strchr(item, '=');
		if (!eq) {
			error("--flags: '%s' has no '=': name each set, e.g. 'base=;lto=-flto'", item);
			json_decref(sets);
			sets = NULL;
			break;
		}
		*eq = '\0';
		char *name = item;
		size_t nl = strlen(name);
		while (nl && (name[nl - 1] == ' ' || name[nl - 1] == '\t'))
			name[--nl] = '\0';
		if (json_object_get(sets, name)) {
			error("--flags: the set '%s' is named twice", name);
			json_decref(sets);
			sets = NULL;
			break;
		}
		json_t *flags = json_array();
		char *fsave = NULL;
		for (char *w = strtok_r(eq + 1, " \t", &fsave); w; w = strtok_r(NULL, " \t", &fsave))
			json_array_append_new(flags, json_string(w));
		if (json_array_size(flags) == 1 && !strcmp(json_string_value(json_array_get(flags, 0)), "pgo")) {
			json_decref(flags);
			flags = json_string("pgo");
		}
		json_object_set_new(sets, name, flags);
	}
	free(copy);
	if (sets && !json_object_size(sets)) {
		error("--flags '%s': no set (e.g. 'base=;lto=-flto')", text);
		json_decref(sets);
		sets = NULL;
	}
	return sets;
}

int suite_matrix_parse(const struct matrix_opts *m, json_t **out)
{
	*out = NULL;
	if (!m->compilers && !m->opt && !m->march && !m->flags)
		return 0;
	json_t *j = json_object();
	const char *names[] = { "compilers", "opt", "march" };
	const char *texts[] = { m->compilers, m->opt, m->march };
	for (int i = 0; i < 3; i++) {
		if (!texts[i])
			continue;
		/* "profile": the cpu profile's, as a suite says it */
		json_t *v = i == 2 && !strcmp(texts[i], "profile") ? json_string("profile") : comma_list(names[i], texts[i]);
		if (!v) {
			json_decref(j);
			return -1;
		}
		json_object_set_new(j, names[i], v);
	}
	if (m->flags) {
		json_t *sets = flag_sets_text(m->flags);
		if (!sets) {
			json_decref(j);
			return -1;
		}
		json_object_set_new(j, "flags", sets);
	}
	*out = j;
	return 0;
}

/* One list of the matrix in place of the suite's. */
static int replace_list(struct cfg *c, json_t *matrix, const char *key, struct strvec *dst)
{
	struct strvec v = STRVEC_INIT;
	int r = cfg_string_list(c, matrix, key, 1, &v);
	if (!r && !v.n)
		r = cfg_require(c, 0, key, "must name at least one");
	if (!r) {
		sv_clear(dst);
		sv_pushv(dst, v.v);
	}
	sv_clear(&v);
	return r;
}

int suite_set_matrix(struct suite *s, json_t *matrix, const char *origin)
{
	struct cfg c = { origin, NULL, { { 0 } }, 0 };
	static const char *const keys[] = { "compilers", "opt", "march", "flags", NULL };
	int r = json_is_object(matrix) ? cfg_check_keys(&c, matrix, keys) : cfg_error(&c, "the matrix must be an object");
	if (!r && json_object_get(matrix, "compilers"))
		r = replace_list(&c, matrix, "compilers", &s->compilers);
	if (!r && json_object_get(matrix, "opt"))
		r = replace_list(&c, matrix, "opt", &s->opt);
	json_t *m = json_object_get(matrix, "march");
	if (!r && json_is_string(m) && !strcmp(json_string_value(m), "profile")) {
		sv_clear(&s->march);
		s->march_from_profile = 1;
	} else if (!r && m && !(r = replace_list(&c, matrix, "march", &s->march))) {
		s->march_from_profile = 0;
	}
	if (!r)
		r = suite_check_words(&c, s);
	json_t *flags = json_object_get(matrix, "flags");
	if (!r && flags) {
		for (size_t i = 0; i < s->nflagsets; i++) {
			free(s->flagsets[i].name);
			sv_clear(&s->flagsets[i].flags);
		}
		free(s->flagsets);
		s->flagsets = NULL;
		s->nflagsets = 0;
		r = parse_flag_sets(&c, flags, s);
	}
	return r;
}

void free_suite(struct suite *s)
{
	free(s->name);
	free(s->path);
	free(s->title);
	sv_clear(&s->variants);
	sv_clear(&s->compilers);
	sv_clear(&s->opt);
	sv_clear(&s->march);
	sv_clear(&s->allocators);
	sv_clear(&s->placements);
	sv_clear(&s->consumers);
	sv_clear(&s->family_dirs);
	for (size_t i = 0; s->cross && s->cross[i].compiler; i++) {
		free(s->cross[i].compiler);
		free(s->cross[i].packages);
		json_decref(s->cross[i].sizes);
		sv_clear(&s->cross[i].march);
		sv_clear(&s->cross[i].run_prefix);
		sv_clear(&s->cross[i].cflags);
		sv_clear(&s->cross[i].variants);
	}
	free(s->cross);
	for (size_t i = 0; i < s->nflagsets; i++) {
		free(s->flagsets[i].name);
		sv_clear(&s->flagsets[i].flags);
	}
	free(s->flagsets);
	json_decref(s->sizes);
	json_decref(s->json);
	memset(s, 0, sizeof(*s));
}

static int size_value(const json_t *v, uint64_t *n)
{
	if (json_is_integer(v)) {
		*n = (uint64_t)json_integer_value(v);
		return 1;
	}
	return json_is_string(v) && parse_u64(json_string_value(v), n) == 0;
}

uint64_t sizes_lookup(const json_t *sizes, const struct family *f, const char *variant, uint64_t fallback)
{
	uint64_t n = fallback;
	if (!sizes)
		return n;
	/* "family/variant" overrides "family", which overrides the fallback */
	if (variant) {
		char *key = xasprintf("%s/%s", f->name, variant);
		int found = size_value(json_object_get(sizes, key), &n);
		free(key);
		if (found)
			return n;
	}
	size_value(json_object_get(sizes, f->name), &n);
	return n;
}

uint64_t suite_size_for(const struct suite *s, const struct family *f, const char *variant)
{
	return sizes_lookup(s->sizes, f, variant, f->default_size);
}
