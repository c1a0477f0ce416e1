/* jsoncfg.c: see jsoncfg.h */
#define _GNU_SOURCE
#include "config/jsoncfg.h"

#include <dirent.h>
#include <errno.h>
#include <string.h>

#include "core/options.h"

void cfg_push_key(struct cfg *c, const char *key)
{
	if (c->depth < 16)
		c->path[c->depth] = (struct json_step){ key, 0 };
	c->depth++;
}

void cfg_push_index(struct cfg *c, size_t i)
{
	if (c->depth < 16)
		c->path[c->depth] = (struct json_step){ NULL, i };
	c->depth++;
}

void cfg_pop(struct cfg *c)
{
	c->depth--;
}

int cfg_error(struct cfg *c, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	int line = 1, col = 1;
	if (c->text)
		json_locate(c->text, c->path, c->depth < 16 ? c->depth : 16, &line, &col);
	/* name the key path too: "sizes.fizzbuzz" */
	struct strbuf where = STRBUF_INIT;
	for (size_t i = 0; i < c->depth && i < 16; i++) {
		if (c->path[i].key)
			sb_addf(&where, "%s%s", i ? "." : "", c->path[i].key);
		else
			sb_addf(&where, "[%zu]", c->path[i].index);
	}
	/* no text: not a file (the command line), no position to name */
	if (c->text)
		error("%s:%d:%d: %s%s%s", c->file, line, col, where.len ? where.buf : "", where.len ? ": " : "", msg);
	else
		error("%s: %s%s%s", c->file, where.len ? where.buf : "", where.len ? ": " : "", msg);
	sb_release(&where);
	return -1;
}

const char *cfg_type_name(const json_t *v)
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
json_t *cfg_load_json(const char *path, char **text_out)
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
		error("%s:1:1: the top level must be an object, not %s", path, cfg_type_name(root));
		json_decref(root);
		free(text);
		return NULL;
	}
	*text_out = text;
	return root;
}

/* Rejects keys that the format does not know, suggesting the closest. */
int cfg_check_keys(struct cfg *c, json_t *obj, const char *const *known)
{
	const char *key;
	json_t *v;
	json_object_foreach(obj, key, v) {
		int ok = 0;
		for (const char *const *k = known; *k; k++)
			if (!strcmp(*k, key))
				ok = 1;
		if (!ok) {
			cfg_push_key(c, key);
			const char *near = closest_word(known, key);
			int r = near ? cfg_error(c, "unknown key; did you mean '%s'?", near) : cfg_error(c, "unknown key");
			cfg_pop(c);
			return r;
		}
	}
	return 0;
}

/* Text from a config reaches terminals, tables, plots and file names: no
 * control characters (a newline, an escape sequence); jansson has already
 * refused bytes that are not UTF-8. */
int cfg_check_text(struct cfg *c, const char *s)
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
int cfg_check_name(struct cfg *c, const char *key, const char *s)
{
	size_t n = strlen(s);
	int ok = n >= 1 && n <= 64 && s[0] != '.' && s[0] != '-';
	for (size_t i = 0; ok && i < n; i++)
		ok = (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') ||
		     s[i] == '.' || s[i] == '_' || s[i] == '+' || s[i] == '-';
	if (ok)
		return 0;
	cfg_push_key(c, key);
	int r = cfg_error(c, "'%.64s%s' is not a plain name (letters, digits, '.', '_', '+', '-'; not starting with "
			  "'.' or '-'; at most 64 characters)", s, n > 64 ? "..." : "");
	cfg_pop(c);
	return r;
}

/* The value of key: 1 with *v set; 0 where it is absent and may be; -1
 * after the message where it must be there. */
static int present(struct cfg *c, json_t *obj, const char *key, int required, json_t **v)
{
	*v = json_object_get(obj, key);
	if (*v)
		return 1;
	return required ? cfg_error(c, "missing required key '%s'", key) : 0;
}

int cfg_require(struct cfg *c, int holds, const char *key, const char *message)
{
	if (holds)
		return 0;
	cfg_push_key(c, key);
	int r = cfg_error(c, "%s", message);
	cfg_pop(c);
	return r;
}

int cfg_string(struct cfg *c, json_t *obj, const char *key, int required, char **out)
{
	json_t *v;
	int p = present(c, obj, key, required, &v);
	if (p <= 0)
		return p;
	cfg_push_key(c, key);
	if (!json_is_string(v) || !json_string_length(v)) {
		int r = cfg_error(c, "must be a non-empty string, not %s", cfg_type_name(v));
		cfg_pop(c);
		return r;
	}
	if (strlen(json_string_value(v)) != json_string_length(v) || cfg_check_text(c, json_string_value(v)) < 0) {
		int r = strlen(json_string_value(v)) != json_string_length(v) ? cfg_error(c, "must not contain NUL") : -1;
		cfg_pop(c);
		return r;
	}
	cfg_pop(c);
	free(*out);
	*out = xstrdup(json_string_value(v));
	return 0;
}

int cfg_string_list(struct cfg *c, json_t *obj, const char *key, int required, struct strvec *out)
{
	json_t *v;
	int p = present(c, obj, key, required, &v);
	if (p <= 0)
		return p;
	cfg_push_key(c, key);
	if (json_is_string(v)) {
		/* a lone string is a one-element list */
		int r = strlen(json_string_value(v)) != json_string_length(v) ? cfg_error(c, "must not contain NUL")
										: cfg_check_text(c, json_string_value(v));
		if (!r)
			sv_push(out, json_string_value(v));
		cfg_pop(c);
		return r;
	}
	if (!json_is_array(v)) {
		int r = cfg_error(c, "must be a list of strings, not %s", cfg_type_name(v));
		cfg_pop(c);
		return r;
	}
	size_t i;
	json_t *e;
	json_array_foreach(v, i, e) {
		if (!json_is_string(e) || !json_string_length(e) || strlen(json_string_value(e)) != json_string_length(e) ||
		    cfg_check_text(c, json_string_value(e)) < 0) {
			cfg_push_index(c, i);
			int r = !json_is_string(e) || !json_string_length(e)
					? cfg_error(c, "must be a non-empty string, not %s", cfg_type_name(e))
				: strlen(json_string_value(e)) != json_string_length(e)
					? cfg_error(c, "must not contain NUL")
					: cfg_check_text(c, json_string_value(e));
			cfg_pop(c);
			cfg_pop(c);
			return r;
		}
		sv_push(out, json_string_value(e));
	}
	cfg_pop(c);
	return 0;
}

int cfg_number(struct cfg *c, json_t *obj, const char *key, double min, double max, int integer,
		      double *out)
{
	json_t *v = json_object_get(obj, key);
	if (!v)
		return 0;
	cfg_push_key(c, key);
	int r = 0;
	if (!json_is_number(v) || (integer && !json_is_integer(v)))
		r = cfg_error(c, "must be %s, not %s", integer ? "an integer" : "a number", cfg_type_name(v));
	else if (json_number_value(v) < min || json_number_value(v) > max)
		r = cfg_error(c, "must be from %g to %g, not %g", min, max, json_number_value(v));
	else
		*out = json_number_value(v);
	cfg_pop(c);
	return r;
}

int cfg_size(struct cfg *c, json_t *v, uint64_t min, uint64_t *out)
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

/* ---- configs/KIND/NAME.json: a name or a path ---- */

char *cfg_config_path(const char *kind, const char *name_or_path)
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

int cfg_unknown_name(const char *kind, const char *what, const char *name)
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
