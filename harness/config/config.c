/* config.c: see config.h */
#define _GNU_SOURCE
#include "config/config.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/jsonpos.h"
#include "core/options.h"
#include "system/sysinfo.h"
#include "system/topology.h"

/* Where we are while checking one file: its text and the path of keys. */
struct cfg {
	const char *file;
	const char *text;
	struct json_step path[16];
	size_t depth;
};

static void push_key(struct cfg *c, const char *key)
{
	if (c->depth < 16)
		c->path[c->depth] = (struct json_step){ key, 0 };
	c->depth++;
}

static void push_index(struct cfg *c, size_t i)
{
	if (c->depth < 16)
		c->path[c->depth] = (struct json_step){ NULL, i };
	c->depth++;
}

static void pop(struct cfg *c)
{
	c->depth--;
}

static int cfg_error(struct cfg *c, const char *fmt, ...) FB_PRINTF(2, 3);
static int cfg_error(struct cfg *c, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	int line = 1, col = 1;
	json_locate(c->text, c->path, c->depth < 16 ? c->depth : 16, &line, &col);
	/* name the key path too: "sizes.fizzbuzz" */
	struct strbuf where = STRBUF_INIT;
	for (size_t i = 0; i < c->depth && i < 16; i++) {
		if (c->path[i].key)
			sb_addf(&where, "%s%s", i ? "." : "", c->path[i].key);
		else
			sb_addf(&where, "[%zu]", c->path[i].index);
	}
	error("%s:%d:%d: %s%s%s", c->file, line, col, where.len ? where.buf : "", where.len ? ": " : "", msg);
	sb_release(&where);
	return -1;
}

static const char *type_name(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "an array";
	case JSON_STRING: return "a string";
	case JSON_INTEGER: return "an integer";
	case JSON_REAL: return "a number";
	case JSON_TRUE:
	case JSON_FALSE: return "a boolean";
	case JSON_NULL: return "null";
	}
	return "?";
}

/* Reads the file and parses it; syntax errors carry jansson's position. */
static json_t *load_json(const char *path, char **text_out)
{
	size_t len;
	char *text = read_file(path, &len);
	if (!text) {
		error("cannot read %s: %s", path, strerror(errno));
		return NULL;
	}
	json_error_t je;
	json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	if (!root) {
		error("%s:%d:%d: %s", path, je.line, je.column, je.text);
		free(text);
		return NULL;
	}
	if (!json_is_object(root)) {
		error("%s:1:1: the top level must be an object, not %s", path, type_name(root));
		json_decref(root);
		free(text);
		return NULL;
	}
	*text_out = text;
	return root;
}

/* Rejects keys that the format does not know, suggesting the closest. */
static int check_keys(struct cfg *c, json_t *obj, const char *const *known)
{
	const char *key;
	json_t *v;
	json_object_foreach(obj, key, v) {
		int ok = 0;
		for (const char *const *k = known; *k; k++)
			if (!strcmp(*k, key))
				ok = 1;
		if (!ok) {
			push_key(c, key);
			const char *near = closest_word(known, key);
			int r = near ? cfg_error(c, "unknown key; did you mean '%s'?", near) : cfg_error(c, "unknown key");
			pop(c);
			return r;
		}
	}
	return 0;
}

/* Text from a config reaches terminals, tables, plots and file names: no
 * control characters (a newline, an escape sequence); jansson has already
 * refused bytes that are not UTF-8. */
static int check_text(struct cfg *c, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return cfg_error(c, "must not contain control characters (byte 0x%02x at offset %zu)", *p,
					 (size_t)(p - (const unsigned char *)s));
	return 0;
}

/* Names become parts of cell ids, run ids and file names: letters, digits
 * and . _ + - only, not starting with '.', at most 64 characters, so no
 * name can be "..", hold a '/', a space, a quote or a shell character. */
static int check_name(struct cfg *c, const char *key, const char *s)
{
	size_t n = strlen(s);
	int ok = n >= 1 && n <= 64 && s[0] != '.' && s[0] != '-';
	for (size_t i = 0; ok && i < n; i++)
		ok = (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') ||
		     s[i] == '.' || s[i] == '_' || s[i] == '+' || s[i] == '-';
	if (ok)
		return 0;
	push_key(c, key);
	int r = cfg_error(c, "'%.64s%s' is not a plain name (letters, digits, '.', '_', '+', '-'; not starting with "
			  "'.' or '-'; at most 64 characters)", s, n > 64 ? "..." : "");
	pop(c);
	return r;
}

static int get_string(struct cfg *c, json_t *obj, const char *key, int required, char **out)
{
	json_t *v = json_object_get(obj, key);
	if (!v) {
		if (required)
			return cfg_error(c, "missing required key '%s'", key);
		return 0;
	}
	push_key(c, key);
	if (!json_is_string(v) || !json_string_length(v)) {
		int r = cfg_error(c, "must be a non-empty string, not %s", type_name(v));
		pop(c);
		return r;
	}
	if (strlen(json_string_value(v)) != json_string_length(v) || check_text(c, json_string_value(v)) < 0) {
		int r = strlen(json_string_value(v)) != json_string_length(v) ? cfg_error(c, "must not contain NUL") : -1;
		pop(c);
		return r;
	}
	pop(c);
	free(*out);
	*out = xstrdup(json_string_value(v));
	return 0;
}

static int get_string_list(struct cfg *c, json_t *obj, const char *key, int required, struct strvec *out)
{
	json_t *v = json_object_get(obj, key);
	if (!v) {
		if (required)
			return cfg_error(c, "missing required key '%s'", key);
		return 0;
	}
	push_key(c, key);
	if (json_is_string(v)) {
		/* a lone string is a one-element list */
		int r = strlen(json_string_value(v)) != json_string_length(v) ? cfg_error(c, "must not contain NUL")
										: check_text(c, json_string_value(v));
		if (!r)
			sv_push(out, json_string_value(v));
		pop(c);
		return r;
	}
	if (!json_is_array(v)) {
		int r = cfg_error(c, "must be a list of strings, not %s", type_name(v));
		pop(c);
		return r;
	}
	size_t i;
	json_t *e;
	json_array_foreach(v, i, e) {
		if (!json_is_string(e) || !json_string_length(e) || strlen(json_string_value(e)) != json_string_length(e) ||
		    check_text(c, json_string_value(e)) < 0) {
			push_index(c, i);
			int r = !json_is_string(e) || !json_string_length(e)
					? cfg_error(c, "must be a non-empty string, not %s", type_name(e))
				: strlen(json_string_value(e)) != json_string_length(e)
					? cfg_error(c, "must not contain NUL")
					: check_text(c, json_string_value(e));
			pop(c);
			pop(c);
			return r;
		}
		sv_push(out, json_string_value(e));
	}
	pop(c);
	return 0;
}

static int get_number(struct cfg *c, json_t *obj, const char *key, double min, double max, int integer,
		      double *out)
{
	json_t *v = json_object_get(obj, key);
	if (!v)
		return 0;
	push_key(c, key);
	int r = 0;
	if (!json_is_number(v) || (integer && !json_is_integer(v)))
		r = cfg_error(c, "must be %s, not %s", integer ? "an integer" : "a number", type_name(v));
	else if (json_number_value(v) < min || json_number_value(v) > max)
		r = cfg_error(c, "must be from %g to %g, not %g", min, max, json_number_value(v));
	else
		*out = json_number_value(v);
	pop(c);
	return r;
}

static int get_size(struct cfg *c, json_t *v, uint64_t min, uint64_t *out)
{
	/* sizes may be integers or strings like "0x2ffffffff" and "64M" */
	uint64_t n = 0;
	int ok = (json_is_integer(v) && json_integer_value(v) >= 0 && (n = (uint64_t)json_integer_value(v), 1)) ||
		 (json_is_string(v) && json_string_value(v)[0] != ' ' && parse_u64(json_string_value(v), &n) == 0);
	if (!ok)
		return cfg_error(c, "must be a size from %llu (an integer, or a string like \"0x2ffffffff\" or \"64M\")",
				 (unsigned long long)min);
	if (n < min)
		return cfg_error(c, "must be at least %llu, not %llu: a run of nothing measures nothing",
				 (unsigned long long)min, (unsigned long long)n);
	*out = n;
	return 0;
}

static char *config_path(const char *kind, const char *name_or_path)
{
	if (strchr(name_or_path, '/') || strstr(name_or_path, ".json"))
		return xstrdup(name_or_path);
	return xasprintf("%s/configs/%s/%s.json", project_root(), kind, name_or_path);
}

void list_config_names(const char *kind, struct strvec *out)
{
	char *dir = xasprintf("%s/configs/%s", project_root(), kind);
	struct dirent **ents;
	int n = scandir(dir, &ents, NULL, alphasort);
	if (!strcmp(kind, "cpus"))
		sv_push(out, "host");
	for (int i = 0; i < n; i++) {
		size_t l = strlen(ents[i]->d_name);
		if (l > 5 && !strcmp(ents[i]->d_name + l - 5, ".json") && strcmp(ents[i]->d_name, "host.json"))
			sv_pushf(out, "%.*s", (int)(l - 5), ents[i]->d_name);
		free(ents[i]);
	}
	if (n > 0)
		free(ents);
	free(dir);
}

static int unknown_name(const char *kind, const char *what, const char *name)
{
	struct strvec names = STRVEC_INIT;
	list_config_names(kind, &names);
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < names.n; i++)
		sb_addf(&sb, "%s%s", i ? ", " : "", names.v[i]);
	const char *near = names.n ? closest_word((const char *const *)names.v, name) : NULL;
	error("unknown %s '%s'%s%s%s; available: %s", what, name, near ? " (did you mean '" : "", near ? near : "",
	      near ? "'?)" : "", sb.len ? sb.buf : "none");
	sb_release(&sb);
	sv_clear(&names);
	return -1;
}

static int parse_pin(struct cfg *c, json_t *pin, struct cpu_profile *p)
{
	static const char *const keys[] = { "producer", "consumer", "single", "class", NULL };
	if (!json_is_object(pin))
		return cfg_error(c, "must be an object like {\"producer\": 0, \"consumer\": 2, \"single\": 0}");
	if (check_keys(c, pin, keys) < 0)
		return -1;
	double v;
	const char *names[] = { "producer", "consumer", "single" };
	int *dst[] = { &p->pin_producer, &p->pin_consumer, &p->pin_single };
	for (int i = 0; i < 3; i++) {
		v = -1;
		json_t *x = json_object_get(pin, names[i]);
		if (x && json_is_null(x))
			continue;
		if (get_number(c, pin, names[i], 0, 4095, 1, &v) < 0)
			return -1;
		if (v >= 0)
			*dst[i] = (int)v;
	}
	if (get_string(c, pin, "class", 0, &p->pin_class) < 0)
		return -1;
	enum placement_class pc;
	if (p->pin_class && placement_class_parse(p->pin_class, &pc) < 0) {
		push_key(c, "class");
		int r = cfg_error(c, "'%s' is not a placement class (same_cpu, smt_sibling, same_l2, same_l3, "
				  "other_l3, other_package, unpinned)", p->pin_class);
		pop(c);
		return r;
	}
	return 0;
}
/* The probed host profile: march native, pins from the online CPUs. */
static int host_profile(struct cpu_profile *p)
{
	int cpus[8];
	int n = host_cpus(cpus, 8);
	p->name = xstrdup("host");
	p->title = xasprintf("this machine (%s)", host_cpu_model());
	p->match = NULL;
	sv_push(&p->march, "native");
	/* producer and consumer on different CPUs when there are two; the
	 * placement study (flagbench topology) picks classes explicitly */
	p->pin_producer = n > 0 ? cpus[0] : PIN_NONE;
	p->pin_consumer = n > 1 ? cpus[1] : p->pin_producer;
	p->pin_single = n > 1 ? cpus[1] : p->pin_producer;
	p->cooldown_s = 0;
	p->cooldown_below_c = NAN;
	p->cooldown_max_wait_s = 0;
	p->json = json_pack("{s:s, s:s, s:[s], s:{s:i, s:i, s:i}, s:{s:f}}", "name", "host", "title", p->title,
			    "march", "native", "pin", "producer", p->pin_producer, "consumer", p->pin_consumer,
			    "single", p->pin_single, "cooldown", "seconds", 0.0);
	return 0;
}


int load_cpu_profile(const char *name, struct cpu_profile *p)
{
	memset(p, 0, sizeof(*p));
	p->pin_producer = p->pin_consumer = p->pin_single = PIN_NONE;
	p->cooldown_below_c = NAN;
	if (!strcmp(name, "host")) {
		char *over = xasprintf("%s/configs/cpus/host.json", project_root());
		int exists = access(over, R_OK) == 0;
		free(over);
		if (!exists)
			return host_profile(p);
	}
	char *path = config_path("cpus", name);
	if (access(path, R_OK) < 0 && !strchr(name, '/') && !strstr(name, ".json")) {
		free(path);
		return unknown_name("cpus", "cpu profile", name);
	}
	char *text = NULL;
	json_t *root = load_json(path, &text);
	if (!root) {
		free(path);
		return -1;
	}
	struct cfg c = { path, text, { { 0 } }, 0 };
	static const char *const keys[] = { "name", "title", "match", "march", "cflags", "pin", "cooldown", NULL };
	int r = check_keys(&c, root, keys);
	if (!r)
		r = get_string(&c, root, "name", 1, &p->name);
	if (!r)
		r = check_name(&c, "name", p->name);
	if (!r)
		r = get_string(&c, root, "title", 0, &p->title);
	if (!r)
		r = get_string(&c, root, "match", 0, &p->match);
	if (!r)
		r = get_string_list(&c, root, "march", 1, &p->march);
	if (!r)
		r = get_string_list(&c, root, "cflags", 0, &p->cflags);
	json_t *pin = json_object_get(root, "pin");
	if (!r && pin) {
		push_key(&c, "pin");
		r = parse_pin(&c, pin, p);
		pop(&c);
	}
	json_t *cd = json_object_get(root, "cooldown");
	if (!r && cd) {
		static const char *const ckeys[] = { "seconds", "below_celsius", "max_wait_seconds", NULL };
		push_key(&c, "cooldown");
		if (!json_is_object(cd))
			r = cfg_error(&c, "must be an object like {\"seconds\": 30}");
		if (!r)
			r = check_keys(&c, cd, ckeys);
		if (!r)
			r = get_number(&c, cd, "seconds", 0, 3600, 0, &p->cooldown_s);
		if (!r)
			r = get_number(&c, cd, "below_celsius", 10, 110, 0, &p->cooldown_below_c);
		p->cooldown_max_wait_s = p->cooldown_s;
		if (!r)
			r = get_number(&c, cd, "max_wait_seconds", 0, 7200, 0, &p->cooldown_max_wait_s);
		pop(&c);
	}
	if (!r && p->march.n == 0) {
		push_key(&c, "march");
		r = cfg_error(&c, "must name at least one -march value (\"default\" for none)");
		pop(&c);
	}
	free(text);
	p->path = path;
	p->json = root;
	if (r < 0) {
		free_cpu_profile(p);
		return -1;
	}
	return 0;
}

void free_cpu_profile(struct cpu_profile *p)
{
	free(p->name);
	free(p->path);
	free(p->title);
	free(p->match);
	free(p->pin_class);
	sv_clear(&p->march);
	sv_clear(&p->cflags);
	json_decref(p->json);
	memset(p, 0, sizeof(*p));
}

/* "family_dirs": folders of families, relative to the suite file. */
static int suite_family_dirs(struct cfg *c, json_t *root, struct suite *s)
{
	struct strvec rel = STRVEC_INIT;
	int r = get_string_list(c, root, "family_dirs", 0, &rel);
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
	push_key(c, "flags");
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
		push_key(c, name);
		if (!*name || strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.+") !=
				      strlen(name))
			r = cfg_error(c, "a flag set's name must be a plain word (letters, digits, _ - . +)");
		else if (json_is_string(v) && !strcmp(json_string_value(v), "pgo"))
			fs->pgo = 1;
		else if (json_is_string(v))
			r = cfg_error(c, "must be a list of flags, or the string \"pgo\" for a profile-guided build");
		else if (!json_is_array(v))
			r = cfg_error(c, "must be a list of flags or \"pgo\", not %s", type_name(v));
		size_t i;
		json_t *e;
		json_array_foreach(v, i, e) {
			if (r)
				break;
			push_index(c, i);
			if (!json_is_string(e) || json_string_value(e)[0] != '-')
				r = cfg_error(c, "must be a compiler flag starting with '-'");
			else
				sv_push(&fs->flags, json_string_value(e));
			pop(c);
		}
		pop(c);
		fs->name = xstrdup(name);
		s->nflagsets++;
	}
	pop(c);
	return r;
}

/* The plain lists a suite names, and the name and title. */
static int suite_lists(struct cfg *c, json_t *root, struct suite *s)
{
	int r = get_string(c, root, "name", 1, &s->name);
	if (!r)
		r = check_name(c, "name", s->name);
	if (!r)
		r = get_string(c, root, "title", 0, &s->title);
	if (!r)
		r = get_string_list(c, root, "variants", 1, &s->variants);
	if (!r)
		r = get_string_list(c, root, "compilers", 1, &s->compilers);
	if (!r)
		r = get_string_list(c, root, "opt", 1, &s->opt);
	/* "march": "profile", or no "march" at all, takes the cpu profile's */
	json_t *m = json_object_get(root, "march");
	if (!r && m && json_is_string(m) && !strcmp(json_string_value(m), "profile"))
		s->march_from_profile = 1;
	else if (!r && m)
		r = get_string_list(c, root, "march", 0, &s->march);
	else if (!r)
		s->march_from_profile = 1;
	if (!r)
		r = get_string_list(c, root, "allocators", 0, &s->allocators);
	if (!r)
		r = get_string_list(c, root, "placements", 0, &s->placements);
	if (!r)
		r = get_string_list(c, root, "consumers", 0, &s->consumers);
	return r;
}

/* The error for entry i of the list under key, pointing at that entry. */
static int list_entry_error(struct cfg *c, const char *key, size_t i, const char *fmt, const char *word)
	FB_PRINTF(4, 0);
static int list_entry_error(struct cfg *c, const char *key, size_t i, const char *fmt, const char *word)
{
	push_key(c, key);
	push_index(c, i);
	int r = cfg_error(c, fmt, word);
	pop(c);
	pop(c);
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
					     "'%s' is not a placement class (same_cpu, smt_sibling, same_l2, same_l3, "
					     "other_l3, other_package, unpinned)", s->placements.v[i]);
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
		r = check_keys(c, x, xkeys);
	if (!r)
		r = get_string(c, x, "compiler", 1, &t->compiler);
	if (!r)
		r = get_string_list(c, x, "march", 1, &t->march);
	if (!r)
		r = get_string_list(c, x, "run_prefix", 1, &t->run_prefix);
	if (!r)
		r = get_string(c, x, "packages", 0, &t->packages);
	if (!r)
		r = get_string_list(c, x, "cflags", 0, &t->cflags);
	if (!r)
		r = get_string_list(c, x, "variants", 0, &t->variants);
	json_t *xs = json_object_get(x, "sizes");
	if (!r && xs && !json_is_object(xs)) {
		push_key(c, "sizes");
		r = cfg_error(c, "must be an object like {\"chacha20\": 1048576}");
		pop(c);
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
	push_key(c, "cross");
	if (!json_is_array(cross))
		r = cfg_error(c, "must be a list of {\"compiler\", \"march\", \"run_prefix\", \"packages\"}");
	else
		s->cross = xcalloc(json_array_size(cross) + 1, sizeof(*s->cross));
	for (size_t i = 0; !r && i < json_array_size(cross); i++) {
		push_index(c, i);
		r = load_cross_target(c, json_array_get(cross, i), &s->cross[i]);
		s->ncross += !r;
		pop(c);
	}
	pop(c);
	return r;
}

/* "sizes": {"family": N}; kept even when one is bad, for free_suite. */
static int suite_sizes(struct cfg *c, json_t *sizes, struct suite *s)
{
	if (!sizes)
		return 0;
	int r = 0;
	push_key(c, "sizes");
	if (!json_is_object(sizes))
		r = cfg_error(c, "must be an object like {\"yes\": 100000000}");
	const char *k;
	json_t *sv;
	json_object_foreach(sizes, k, sv) {
		if (r)
			break;
		uint64_t n;
		push_key(c, k);
		r = get_size(c, sv, 1, &n);
		pop(c);
	}
	pop(c);
	s->sizes = json_incref(sizes);
	return r;
}

int load_suite(const char *name, struct suite *s)
{
	memset(s, 0, sizeof(*s));
	s->cooldown_s = -1;
	char *path = config_path("suites", name);
	if (access(path, R_OK) < 0 && !strchr(name, '/') && !strstr(name, ".json")) {
		free(path);
		return unknown_name("suites", "suite", name);
	}
	char *text = NULL;
	json_t *root = load_json(path, &text);
	if (!root) {
		free(path);
		return -1;
	}
	struct cfg c = { path, text, { { 0 } }, 0 };
	static const char *const keys[] = { "name", "title", "description", "variants", "compilers", "opt",
					    "march", "allocators", "placements", "consumers", "sizes", "runs",
					    "warmup", "cooldown", "cross", "family_dirs", "flags", NULL };
	int r = check_keys(&c, root, keys);
	if (!r)
		r = suite_lists(&c, root, s);
	if (!r)
		r = suite_check_words(&c, s);
	double v;
	json_t *runs = json_object_get(root, "runs"), *warm = json_object_get(root, "warmup");
	v = 0;
	if (!r && runs && !(r = get_number(&c, root, "runs", 1, 10000, 1, &v))) {
		s->runs = (unsigned)v;
		s->has_runs = 1;
	}
	v = 0;
	if (!r && warm && !(r = get_number(&c, root, "warmup", 0, 1000, 1, &v))) {
		s->warmup = (unsigned)v;
		s->has_warmup = 1;
	}
	if (!r)
		r = get_number(&c, root, "cooldown", 0, 3600, 0, &s->cooldown_s);
	if (!r)
		r = suite_cross(&c, json_object_get(root, "cross"), s);
	if (!r)
		r = parse_flag_sets(&c, json_object_get(root, "flags"), s);
	if (!r)
		r = suite_sizes(&c, json_object_get(root, "sizes"), s);
	if (!r)
		r = suite_family_dirs(&c, root, s);
	if (!r && s->variants.n == 0) {
		push_key(&c, "variants");
		r = cfg_error(&c, "must name at least one variant glob");
		pop(&c);
	}
	free(text);
	s->path = path;
	s->json = root;
	if (r < 0) {
		free_suite(s);
		return -1;
	}
	return 0;
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

/* ---- family folders: paths, variant sources, declared checks ---- */

/* A path in family.json is relative to the family folder and stays in it. */
static int path_inside(struct cfg *c, const char *path)
{
	int bad = path[0] == '/';
	for (const char *p = path; !bad && *p; p = strchr(p, '/') ? strchr(p, '/') + 1 : p + strlen(p))
		bad = !strncmp(p, "..", 2) && (p[2] == '/' || p[2] == '\0');
	if (bad)
		return cfg_error(c, "'%s' leaves the family folder (paths are relative to it, without '..')", path);
	return 0;
}

/* Every "{name}" in word must be one of known (NULL-terminated). */
static int placeholders_known(struct cfg *c, const char *word, const char *const *known)
{
	for (const char *p = strchr(word, '{'); p; p = strchr(p + 1, '{')) {
		const char *e = strchr(p, '}');
		if (!e)
			return cfg_error(c, "'%s': '{' without '}'", word);
		int ok = 0;
		for (const char *const *k = known; *k; k++)
			ok |= strlen(*k) == (size_t)(e - p - 1) && !strncmp(*k, p + 1, (size_t)(e - p - 1));
		if (!ok)
			return cfg_error(c, "unknown placeholder '%.*s' in '%s'", (int)(e - p + 1), p, word);
	}
	return 0;
}

/* A list of relative paths, each checked by path_inside(). */
static int get_path_list(struct cfg *c, json_t *obj, const char *key, struct strvec *out)
{
	size_t first = out->n;
	if (get_string_list(c, obj, key, 0, out) < 0)
		return -1;
	push_key(c, key);
	for (size_t i = first; i < out->n; i++) {
		push_index(c, i - first);
		int r = path_inside(c, out->v[i]);
		pop(c);
		if (r < 0) {
			pop(c);
			return -1;
		}
	}
	pop(c);
	return 0;
}

static int is_c_file(const struct dirent *e)
{
	size_t l = strlen(e->d_name);
	return e->d_name[0] != '.' && l > 2 && !strcmp(e->d_name + l - 2, ".c");
}

/* The variant's sources: "source" (or NAME) as NAME.c, a .c file, or a
 * folder whose .c files are all compiled and linked. */
static int variant_sources(struct cfg *c, json_t *v, struct family *f, struct variant *out)
{
	char *rel = NULL;
	if (get_string(c, v, "source", 0, &rel) < 0)
		return -1;
	if (rel) {
		push_key(c, "source");
		int r = path_inside(c, rel);
		pop(c);
		if (r < 0) {
			free(rel);
			return -1;
		}
	}
	char *file = rel ? xasprintf("%s/%s", f->dir, rel) : xasprintf("%s/%s.c", f->dir, out->name);
	char *folder = xasprintf("%s/%s", f->dir, rel ? rel : out->name);
	struct stat st;
	int r = 0;
	push_key(c, rel ? "source" : "name");
	if (f->build_command.n) {
		/* its own build system: the source is a tree, the variant's
		 * folder or else the whole family folder */
		if (stat(folder, &st) == 0 && S_ISDIR(st.st_mode))
			out->source = xstrdup(folder);
		else if (rel)
			r = cfg_error(c, "no folder %s", folder);
		else
			out->source = xstrdup(f->dir);
	} else if (stat(file, &st) == 0 && S_ISREG(st.st_mode)) {
		out->source = xstrdup(file);
		sv_push(&out->sources, file);
	} else if (stat(folder, &st) == 0 && S_ISDIR(st.st_mode)) {
		struct dirent **ents;
		int n = scandir(folder, &ents, is_c_file, alphasort);
		for (int i = 0; i < n; i++) {
			sv_pushf(&out->sources, "%s/%s", folder, ents[i]->d_name);
			free(ents[i]);
		}
		if (n >= 0)
			free(ents);
		out->source = xstrdup(folder);
		if (out->sources.n == 0)
			r = cfg_error(c, "the variant folder %s holds no .c file", folder);
	} else {
		r = cfg_error(c, "no source file %s (nor a folder %s)", file, folder);
	}
	pop(c);
	free(file);
	free(folder);
	free(rel);
	return r;
}

/* include_dirs (made absolute), defines and libs of a family or variant. */
static int build_words(struct cfg *c, json_t *obj, const char *dir, struct strvec *incs, struct strvec *defs,
		       struct strvec *libs)
{
	struct strvec rel = STRVEC_INIT;
	int r = get_path_list(c, obj, "include_dirs", &rel);
	for (size_t i = 0; i < rel.n; i++)
		sv_pushf(incs, "%s/%s", dir, rel.v[i]);
	sv_clear(&rel);
	if (!r)
		r = get_string_list(c, obj, "defines", 0, defs);
	if (!r && libs)
		r = get_string_list(c, obj, "libs", 0, libs);
	return r;
}

static int load_variant(struct cfg *c, json_t *v, struct family *f, struct variant *out)
{
	static const char *const keys[] = { "name", "title", "requires_flags", "requires_cpu", "requires_march",
					    "args", "notes", "source", "include_dirs", "defines", "libs", NULL };
	memset(out, 0, sizeof(*out));
	if (!json_is_object(v))
		return cfg_error(c, "a variant must be an object with at least \"name\"");
	int r = check_keys(c, v, keys);
	if (!r)
		r = get_string(c, v, "name", 1, &out->name);
	if (!r)
		r = get_string(c, v, "title", 0, &out->title);
	if (!r)
		r = get_string_list(c, v, "requires_flags", 0, &out->requires_flags);
	if (!r)
		r = get_string_list(c, v, "requires_cpu", 0, &out->requires_cpu);
	if (!r)
		r = get_string_list(c, v, "requires_march", 0, &out->requires_march);
	if (!r)
		r = get_string_list(c, v, "args", 0, &out->args);
	if (!r)
		r = build_words(c, v, f->dir, &out->include_dirs, &out->defines, &out->libs);
	if (!r)
		r = check_name(c, "name", out->name);
	if (r)
		return r;
	r = variant_sources(c, v, f, out);
	if (!out->title)
		out->title = xstrdup(out->name);
	return r;
}

/* obj's "command": argv words with only the known placeholders; a program
 * named by a path is the family's, made absolute from its folder. */
static int get_command(struct cfg *c, json_t *obj, const struct family *f, const char *const *known,
		       struct strvec *out)
{
	int r = get_string_list(c, obj, "command", 1, out);
	push_key(c, "command");
	for (size_t i = 0; !r && i < out->n; i++) {
		push_index(c, i);
		r = placeholders_known(c, out->v[i], known);
		pop(c);
	}
	if (!r && !out->n)
		r = cfg_error(c, "must name a program");
	if (!r && strchr(out->v[0], '/')) {
		push_index(c, 0);
		r = path_inside(c, out->v[0]);
		pop(c);
		if (!r) {
			const char *rel = out->v[0];
			char *abs = xasprintf("%s/%s", f->dir, strncmp(rel, "./", 2) ? rel : rel + 2);
			free(out->v[0]);
			out->v[0] = abs;
		}
	}
	pop(c);
	return r;
}

/* "check": a built-in checker's name, "none", or one of {"same_as":
 * VARIANT}, {"sha256": {"N": HEX}}, {"command": [ARGV...]}. */
static int load_check(struct cfg *c, json_t *root, struct family *f)
{
	json_t *ck = json_object_get(root, "check");
	if (!ck)
		return cfg_error(c, "missing required key 'check'");
	if (json_is_string(ck)) {
		if (get_string(c, root, "check", 1, &f->check) < 0)
			return -1;
		f->check_kind = strcmp(f->check, "none") ? CHECK_KIND_BUILTIN : CHECK_KIND_NONE;
		return 0;
	}
	push_key(c, "check");
	int r = 0;
	json_t *v;
	if (!json_is_object(ck) || json_object_size(ck) != 1) {
		r = cfg_error(c, "must be a checker's name, \"none\", or one of {\"same_as\": VARIANT}, "
			      "{\"sha256\": {\"N\": HEX}}, {\"command\": [ARGV...]}");
	} else if ((v = json_object_get(ck, "same_as"))) {
		f->check_kind = CHECK_KIND_SAME_AS;
		r = get_string(c, ck, "same_as", 1, &f->same_as);
	} else if ((v = json_object_get(ck, "sha256"))) {
		f->check_kind = CHECK_KIND_SHA256;
		push_key(c, "sha256");
		if (!json_is_object(v) || !json_object_size(v))
			r = cfg_error(c, "must be an object like {\"1000\": \"<64 hex digits>\"}");
		const char *k;
		json_t *h;
		json_object_foreach(v, k, h) {
			uint64_t n;
			push_key(c, k);
			if (!r && parse_u64(k, &n) < 0)
				r = cfg_error(c, "'%s' is not a size", k);
			if (!r && (!json_is_string(h) || json_string_length(h) != 64 ||
				   strspn(json_string_value(h), "0123456789abcdefABCDEF") != 64))
				r = cfg_error(c, "must be a SHA-256 as 64 hex digits");
			pop(c);
		}
		pop(c);
		f->sha256 = json_incref(v);
	} else if ((v = json_object_get(ck, "command"))) {
		static const char *const known[] = { "N", "variant", NULL };
		f->check_kind = CHECK_KIND_COMMAND;
		r = get_command(c, ck, f, known, &f->check_command);
	} else {
		r = cfg_error(c, "unknown check; the keys are same_as, sha256 and command");
	}
	pop(c);
	static const char *const names[] = { "", "same_as", "sha256", "command", "none" };
	if (!r)
		f->check = xstrdup(names[f->check_kind]);
	return r;
}

/* "input": {"file": "corpus.txt"} shipped with the family, or
 * {"command": ["./gen.sh", "{N}"]} whose stdout is the input (made once per
 * size, pipeline/inputs.h). */
static int load_input(struct cfg *c, json_t *root, struct family *f)
{
	static const char *const keys[] = { "file", "command", NULL }, *const known[] = { "N", NULL };
	json_t *in = json_object_get(root, "input");
	if (!in)
		return 0;
	push_key(c, "input");
	int r = 0;
	if (!json_is_object(in) || json_object_size(in) != 1)
		r = cfg_error(c, "must be {\"file\": PATH} or {\"command\": [ARGV...]}");
	if (!r)
		r = check_keys(c, in, keys);
	char *file = NULL;
	if (!r && json_object_get(in, "file")) {
		r = get_string(c, in, "file", 1, &file);
		push_key(c, "file");
		if (!r)
			r = path_inside(c, file);
		if (!r) {
			f->input_file = xasprintf("%s/%s", f->dir, file);
			if (access(f->input_file, R_OK) < 0)
				r = cfg_error(c, "cannot read %s: %s", f->input_file, strerror(errno));
		}
		pop(c);
	} else if (!r) {
		r = get_command(c, in, f, known, &f->input_command);
	}
	free(file);
	pop(c);
	return r;
}

/* "{N}" and "{input}" in the family's and the variants' args make them the
 * whole argv of the program; any other "{...}" is an error. */
static int check_arg_templates(struct cfg *c, struct family *f)
{
	static const char *const with_input[] = { "N", "input", "dir", NULL }, *const without[] = { "N", "dir", NULL };
	const char *const *known = f->input_file || f->input_command.n ? with_input : without;
	int r = 0;
	push_key(c, "args");
	for (size_t i = 0; !r && i < f->args.n; i++) {
		push_index(c, i);
		r = placeholders_known(c, f->args.v[i], known);
		f->args_template |= strchr(f->args.v[i], '{') != NULL;
		pop(c);
	}
	pop(c);
	push_key(c, "variants");
	for (size_t v = 0; !r && v < f->nvariants; v++) {
		push_index(c, v);
		push_key(c, "args");
		for (size_t i = 0; !r && i < f->variants[v].args.n; i++) {
			push_index(c, i);
			r = placeholders_known(c, f->variants[v].args.v[i], known);
			f->args_template |= strchr(f->variants[v].args.v[i], '{') != NULL;
			pop(c);
		}
		pop(c);
		pop(c);
	}
	pop(c);
	return r;
}

/* "build": {"command": [ARGV...], "binary": "{src}/PATH"}. */
static int load_build(struct cfg *c, json_t *root, struct family *f)
{
	static const char *const keys[] = { "command", "binary", NULL },
				 *const known[] = { "src", "cc", "cflags", "ldflags", "variant", NULL },
				 *const bin_known[] = { "src", "variant", NULL };
	json_t *b = json_object_get(root, "build");
	if (!b)
		return 0;
	push_key(c, "build");
	int r = 0;
	if (!json_is_object(b))
		r = cfg_error(c, "must be {\"command\": [ARGV...], \"binary\": \"{src}/PROGRAM\"}");
	if (!r)
		r = check_keys(c, b, keys);
	if (!r)
		r = get_string_list(c, b, "command", 1, &f->build_command);
	if (!r && !f->build_command.n) {
		push_key(c, "command");
		r = cfg_error(c, "must name a program");
		pop(c);
	}
	push_key(c, "command");
	for (size_t i = 0; !r && i < f->build_command.n; i++) {
		push_index(c, i);
		r = placeholders_known(c, f->build_command.v[i], known);
		pop(c);
	}
	pop(c);
	if (!r)
		r = get_string(c, b, "binary", 1, &f->build_binary);
	if (!r) {
		push_key(c, "binary");
		r = placeholders_known(c, f->build_binary, bin_known);
		if (!r && strncmp(f->build_binary, "{src}/", 6))
			r = cfg_error(c, "must be a path in the built tree: \"{src}/...\", not '%s'", f->build_binary);
		if (!r)
			r = path_inside(c, f->build_binary + 6);
		pop(c);
	}
	pop(c);
	return r;
}

/* After the variants: same_as names one of them. */
static int check_same_as(struct cfg *c, struct family *f)
{
	if (f->check_kind != CHECK_KIND_SAME_AS)
		return 0;
	for (size_t i = 0; i < f->nvariants; i++)
		if (!strcmp(f->variants[i].name, f->same_as))
			return 0;
	push_key(c, "check");
	push_key(c, "same_as");
	int r = cfg_error(c, "'%s' is not one of the family's variants", f->same_as);
	pop(c);
	pop(c);
	return r;
}

static int load_reference(struct cfg *c, json_t *v, struct reference *out)
{
	static const char *const keys[] = { "name", "title", "argv", "bounded_by", NULL };
	memset(out, 0, sizeof(*out));
	if (!json_is_object(v))
		return cfg_error(c, "a reference must be an object with \"name\" and \"argv\"");
	int r = check_keys(c, v, keys);
	if (!r)
		r = get_string(c, v, "name", 1, &out->name);
	if (!r)
		r = check_name(c, "name", out->name);
	if (!r)
		r = get_string(c, v, "title", 0, &out->title);
	if (!r)
		r = get_string_list(c, v, "argv", 1, &out->argv);
	char *bound = NULL;
	if (!r)
		r = get_string(c, v, "bounded_by", 0, &bound);
	if (!r && bound) {
		if (!strcmp(bound, "max_bytes"))
			out->unbounded = 1;
		else if (strcmp(bound, "size")) {
			push_key(c, "bounded_by");
			r = cfg_error(c, "must be \"max_bytes\" (the meter cuts the stream) or \"size\" (argv bounds it)");
			pop(c);
		}
	}
	free(bound);
	if (!r && !out->title)
		out->title = xstrdup(out->name);
	return r;
}

/* "kind": a stream is measured in bytes through a pipe, a compute family by
 * the work it reports. */
static int family_kind(struct cfg *c, json_t *root, struct family *f)
{
	char *kind = NULL;
	int r = get_string(c, root, "kind", 1, &kind);
	if (!r) {
		if (!strcmp(kind, "stream"))
			f->kind = KIND_STREAM;
		else if (!strcmp(kind, "compute"))
			f->kind = KIND_COMPUTE;
		else {
			push_key(c, "kind");
			r = cfg_error(c, "must be \"stream\" or \"compute\", not \"%s\"", kind);
			pop(c);
		}
	}
	free(kind);
	return r;
}

/* The optional size key under root into *out, at least min. */
static int family_size(struct cfg *c, json_t *root, const char *key, uint64_t min, uint64_t *out)
{
	json_t *v = json_object_get(root, key);
	if (!v)
		return 0;
	push_key(c, key);
	int r = get_size(c, v, min, out);
	pop(c);
	return r;
}

/* "default_size" (required), "counter_size" and "train_size". */
static int family_sizes(struct cfg *c, json_t *root, struct family *f)
{
	if (!json_object_get(root, "default_size"))
		return cfg_error(c, "missing required key 'default_size'");
	int r = family_size(c, root, "default_size", 1, &f->default_size);
	if (!r)
		r = family_size(c, root, "counter_size", 0, &f->counter_size);
	if (!r)
		r = family_size(c, root, "train_size", 1, &f->train_size);
	return r;
}

/* "variants": a non-empty list, names unique. */
static int family_variants(struct cfg *c, json_t *root, struct family *f)
{
	json_t *vs = json_object_get(root, "variants");
	if (!vs || !json_is_array(vs) || !json_array_size(vs)) {
		if (vs)
			push_key(c, "variants");
		int r = cfg_error(c, "'variants' must be a non-empty list");
		if (vs)
			pop(c);
		return r;
	}
	int r = 0;
	f->variants = xcalloc(json_array_size(vs), sizeof(*f->variants));
	push_key(c, "variants");
	for (size_t i = 0; !r && i < json_array_size(vs); i++) {
		push_index(c, i);
		r = load_variant(c, json_array_get(vs, i), f, &f->variants[i]);
		f->nvariants++; /* counted even when it failed: free_family frees what it holds */
		for (size_t j = 0; !r && j < i; j++)
			if (!strcmp(f->variants[j].name, f->variants[i].name))
				r = cfg_error(c, "variant '%s' is listed twice", f->variants[i].name);
		pop(c);
	}
	pop(c);
	return r;
}

/* "references": other programs that make the same stream. */
static int family_references(struct cfg *c, json_t *root, struct family *f)
{
	json_t *refs = json_object_get(root, "references");
	if (!refs)
		return 0;
	int r = 0;
	push_key(c, "references");
	if (!json_is_array(refs))
		r = cfg_error(c, "must be a list of objects");
	else
		f->references = xcalloc(json_array_size(refs), sizeof(*f->references));
	for (size_t i = 0; !r && i < json_array_size(refs); i++) {
		push_index(c, i);
		r = load_reference(c, json_array_get(refs, i), &f->references[i]);
		f->nreferences++; /* as for variants: freed whole by free_family */
		pop(c);
	}
	pop(c);
	return r;
}

/* The baseline, when there is one, must be one of the variants. */
static int check_baseline(struct cfg *c, struct family *f)
{
	if (!f->baseline)
		return 0;
	for (size_t i = 0; i < f->nvariants; i++)
		if (!strcmp(f->variants[i].name, f->baseline))
			return 0;
	push_key(c, "baseline");
	int r = cfg_error(c, "'%s' is not one of the family's variants", f->baseline);
	pop(c);
	return r;
}

/* "version_file": the version of what the family builds, for results.json */
static int family_version(struct cfg *c, json_t *root, struct family *f)
{
	char *vf = NULL;
	int r = get_string(c, root, "version_file", 0, &vf);
	if (!r && vf) {
		push_key(c, "version_file");
		r = path_inside(c, vf);
		char *vpath = xasprintf("%s/%s", f->dir, vf);
		size_t vlen;
		/* missing until the sources are fetched: the version is then unknown */
		char *vtext = r ? NULL : read_file(vpath, &vlen);
		if (vtext) {
			vtext[strcspn(vtext, "\n")] = '\0';
			f->version = vtext;
		}
		free(vpath);
		pop(c);
	}
	free(vf);
	return r;
}

/* "pass_size": false: the program takes no N (argv is args alone) */
static int family_pass_size(struct cfg *c, json_t *root, struct family *f)
{
	json_t *ps = json_object_get(root, "pass_size");
	if (ps && !json_is_boolean(ps)) {
		push_key(c, "pass_size");
		int r = cfg_error(c, "must be true or false");
		pop(c);
		return r;
	}
	if (ps && json_is_false(ps))
		f->args_template = 1;
	return 0;
}

int load_family(const char *dir, struct family *f)
{
	memset(f, 0, sizeof(*f));
	char *path = xasprintf("%s/family.json", dir);
	char *text = NULL;
	json_t *root = load_json(path, &text);
	if (!root) {
		free(path);
		return -1;
	}
	f->dir = xstrdup(dir);
	f->json = root;
	struct cfg c = { path, text, { { 0 } }, 0 };
	static const char *const keys[] = { "family", "title", "kind", "unit", "default_size", "check", "baseline",
					    "libs", "args", "variants", "references", "notes", "counter_size",
					    "include_dirs", "defines", "input", "build", "pass_size", "version_file",
					    "train_size", NULL };
	int r = check_keys(&c, root, keys);
	if (!r)
		r = get_string(&c, root, "family", 1, &f->name);
	if (!r)
		r = check_name(&c, "family", f->name);
	if (!r)
		r = get_string(&c, root, "title", 0, &f->title);
	if (!r)
		r = family_kind(&c, root, f);
	if (!r)
		r = get_string(&c, root, "unit", 1, &f->unit);
	if (!r)
		r = family_sizes(&c, root, f);
	if (!r)
		r = load_check(&c, root, f);
	if (!r)
		r = load_build(&c, root, f);
	if (!r)
		r = build_words(&c, root, f->dir, &f->include_dirs, &f->defines, NULL);
	/* "baseline": null says the variants do different work (bignum's field
	 * and curve operations), so no speedup between them is computed */
	json_t *bl = json_object_get(root, "baseline");
	if (!r && !(bl && json_is_null(bl)))
		r = get_string(&c, root, "baseline", 1, &f->baseline);
	if (!r)
		r = get_string_list(&c, root, "libs", 0, &f->libs);
	if (!r)
		r = get_string_list(&c, root, "args", 0, &f->args);
	if (!r)
		r = family_variants(&c, root, f);
	if (!r)
		r = family_references(&c, root, f);
	if (!r)
		r = check_baseline(&c, f);
	if (!r)
		r = check_same_as(&c, f);
	if (!r)
		r = load_input(&c, root, f);
	if (!r)
		r = check_arg_templates(&c, f);
	if (!r)
		r = family_version(&c, root, f);
	if (!r)
		r = family_pass_size(&c, root, f);
	if (!r && f->kind == KIND_COMPUTE)
		f->rate_unit = xasprintf("%s/s", f->unit);
	if (!r && !f->title)
		f->title = xstrdup(f->name);
	free(text);
	free(path);
	if (r < 0) {
		free_family(f);
		return -1;
	}
	return 0;
}

void free_family(struct family *f)
{
	for (size_t i = 0; i < f->nvariants; i++) {
		struct variant *v = &f->variants[i];
		free(v->name);
		free(v->title);
		free(v->source);
		sv_clear(&v->sources);
		sv_clear(&v->include_dirs);
		sv_clear(&v->defines);
		sv_clear(&v->libs);
		sv_clear(&v->requires_flags);
		sv_clear(&v->requires_cpu);
		sv_clear(&v->requires_march);
		sv_clear(&v->args);
	}
	for (size_t i = 0; i < f->nreferences; i++) {
		free(f->references[i].name);
		free(f->references[i].title);
		sv_clear(&f->references[i].argv);
	}
	free(f->variants);
	free(f->references);
	free(f->name);
	free(f->dir);
	free(f->title);
	free(f->unit);
	free(f->rate_unit);
	free(f->check);
	free(f->baseline);
	free(f->same_as);
	free(f->same_as_binary);
	json_decref(f->sha256);
	sv_clear(&f->check_command);
	sv_clear(&f->input_command);
	sv_clear(&f->build_command);
	free(f->build_binary);
	free(f->version);
	free(f->input_file);
	sv_clear(&f->include_dirs);
	sv_clear(&f->defines);
	sv_clear(&f->libs);
	sv_clear(&f->args);
	json_decref(f->json);
	memset(f, 0, sizeof(*f));
}

/* Loads the families of dir: dir itself when it holds family.json, else
 * each of its subfolders that does (sorted).  must_have: a folder with
 * none at all is an error (a --family-dir, not variants/). */
static int load_family_folder(const char *dir, int must_have, struct family **fams, size_t *count, size_t *cap)
{
	char *fj = xasprintf("%s/family.json", dir);
	int single = access(fj, F_OK) == 0;
	free(fj);
	struct strvec dirs = STRVEC_INIT;
	if (single) {
		sv_push(&dirs, dir);
	} else {
		struct dirent **ents;
		int n = scandir(dir, &ents, NULL, alphasort);
		if (n < 0)
			return error("cannot list %s: %s", dir, strerror(errno));
		for (int i = 0; i < n; i++) {
			char *sub = xasprintf("%s/%s/family.json", dir, ents[i]->d_name);
			if (ents[i]->d_name[0] != '.' && access(sub, F_OK) == 0)
				sv_pushf(&dirs, "%s/%s", dir, ents[i]->d_name);
			free(sub);
			free(ents[i]);
		}
		free(ents);
		if (must_have && dirs.n == 0) {
			sv_clear(&dirs);
			return error("%s: no family.json there nor in its subfolders (a family folder holds family.json)",
				     dir);
		}
	}
	int rc = 0;
	for (size_t i = 0; i < dirs.n; i++) {
		if (*count == *cap) {
			*cap = *cap ? 2 * *cap : 8;
			*fams = xrealloc(*fams, *cap * sizeof(**fams));
		}
		if (load_family(dirs.v[i], &(*fams)[*count]) < 0) {
			rc = -1;
			continue;
		}
		for (size_t k = 0; k < *count; k++)
			if (!strcmp((*fams)[k].name, (*fams)[*count].name)) {
				/* two folders naming one family would mix their cells */
				rc = error("%s/family.json:1:1: family '%s' is also defined in %s/family.json", dirs.v[i],
					   (*fams)[k].name, (*fams)[k].dir);
				break;
			}
		(*count)++;
	}
	sv_clear(&dirs);
	return rc;
}

int load_families(const struct strvec *extra, struct family **out)
{
	struct family *fams = NULL;
	size_t count = 0, cap = 0;
	char *dir = xasprintf("%s/variants", project_root());
	int rc = load_family_folder(dir, 0, &fams, &count, &cap);
	free(dir);
	for (size_t i = 0; extra && i < extra->n; i++) {
		struct stat st;
		char *abs = realpath(extra->v[i], NULL);
		if (!abs || stat(abs, &st) < 0 || !S_ISDIR(st.st_mode))
			rc = error("family folder %s: %s", extra->v[i], abs ? "not a folder" : strerror(errno));
		else if (load_family_folder(abs, 1, &fams, &count, &cap) < 0)
			rc = -1;
		free(abs);
	}
	if (rc < 0) {
		for (size_t i = 0; i < count; i++)
			free_family(&fams[i]);
		free(fams);
		return -1;
	}
	*out = fams ? fams : xcalloc(1, sizeof(*fams));
	return (int)count;
}

int load_all_families(struct family **out)
{
	return load_families(NULL, out);
}

/* Every glob of a suite must select a variant: a typo ("sortsum/quik") would
 * otherwise measure nothing and succeed.  The error points at the glob and
 * names the nearest variant. */
int suite_check_globs(const struct suite *s, const struct family *fams, size_t nfams)
{
	struct strvec ids = STRVEC_INIT;
	for (size_t f = 0; f < nfams; f++)
		for (size_t v = 0; v < fams[f].nvariants; v++)
			sv_pushf(&ids, "%s/%s", fams[f].name, fams[f].variants[v].name);
	char *text = s->path ? read_file(s->path, NULL) : NULL;
	struct cfg c = { s->path ? s->path : "suite", text ? text : "", { { 0 } }, 0 };
	int lone = json_is_string(json_object_get(s->json, "variants"));
	int r = 0;
	for (size_t i = 0; !r && i < s->variants.n; i++) {
		int hit = 0;
		for (size_t k = 0; k < ids.n && !hit; k++)
			hit = fnmatch(s->variants.v[i], ids.v[k], 0) == 0;
		if (hit)
			continue;
		push_key(&c, "variants");
		if (!lone)
			push_index(&c, i);
		const char *near = ids.n ? closest_word((const char *const *)ids.v, s->variants.v[i]) : NULL;
		if (near)
			r = cfg_error(&c, "'%s' matches no variant; did you mean '%s'? (flagbench list variants)",
				      s->variants.v[i], near);
		else
			r = cfg_error(&c, "'%s' matches no variant (flagbench list variants)", s->variants.v[i]);
		c.depth = 0;
	}
	free(text);
	sv_clear(&ids);
	return r;
}

const char *family_kind_name(enum family_kind k)
{
	return k == KIND_STREAM ? "stream" : "compute";
}
