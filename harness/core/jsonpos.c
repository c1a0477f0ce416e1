/* jsonpos.c: see jsonpos.h.  A tolerant scanner: it trusts that jansson
 * already accepted the text, and only skips values. */
#define _GNU_SOURCE
#include "core/jsonpos.h"

#include <string.h>

static const char *skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

static const char *skip_string(const char *p)
{
	/* p at the opening quote */
	for (p++; *p && *p != '"'; p++)
		if (*p == '\\' && p[1])
			p++;
	return *p ? p + 1 : p;
}

static const char *skip_value(const char *p)
{
	p = skip_ws(p);
	if (*p == '"')
		return skip_string(p);
	if (*p == '{' || *p == '[') {
		int depth = 0;
		while (*p) {
			if (*p == '"') {
				p = skip_string(p);
				continue;
			}
			if (*p == '{' || *p == '[')
				depth++;
			else if (*p == '}' || *p == ']') {
				depth--;
				if (depth == 0)
					return p + 1;
			}
			p++;
		}
		return p;
	}
	while (*p && !strchr(",]} \t\r\n", *p))
		p++;
	return p;
}

/* Compares the JSON string at p (quote included) with key, escapes aside. */
static int key_equals(const char *p, const char *key)
{
	size_t n = strlen(key);
	return p[0] == '"' && !strncmp(p + 1, key, n) && p[1 + n] == '"';
}

static const char *step_into(const char *p, const struct json_step *s)
{
	p = skip_ws(p);
	if (s->key) {
		if (*p != '{')
			return NULL;
		p = skip_ws(p + 1);
		while (*p == '"') {
			int match = key_equals(p, s->key);
			p = skip_ws(skip_string(p));
			if (*p != ':')
				return NULL;
			p = skip_ws(p + 1);
			if (match)
				return p;
			p = skip_ws(skip_value(p));
			if (*p == ',')
				p = skip_ws(p + 1);
		}
		return NULL;
	}
	if (*p != '[')
		return NULL;
	p = skip_ws(p + 1);
	for (size_t i = 0; *p && *p != ']'; i++) {
		if (i == s->index)
			return p;
		p = skip_ws(skip_value(p));
		if (*p == ',')
			p = skip_ws(p + 1);
	}
	return NULL;
}

int json_locate(const char *text, const struct json_step *path, size_t depth, int *line, int *column)
{
	const char *p = skip_ws(text), *found = p;
	int rc = 0;
	for (size_t i = 0; i < depth; i++) {
		const char *next = step_into(found, &path[i]);
		if (!next) {
			rc = -1;
			break;
		}
		found = next;
	}
	int l = 1, c = 1;
	for (const char *q = text; q < found; q++) {
		if (*q == '\n') {
			l++;
			c = 1;
		} else {
			c++;
		}
	}
	*line = l;
	*column = c;
	return rc;
}
