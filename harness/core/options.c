/* options.c: see options.h */
#define _GNU_SOURCE
#include "core/options.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

const struct option_def *option_find(const struct option_def *table, const char *name)
{
	for (; table->name; table++)
		if (!strcmp(table->name, name))
			return table;
	return NULL;
}

int option_index(const struct option_def *table, const struct option_def *def)
{
	return (int)(def - table);
}

static void range_text(const struct option_def *d, char *buf, size_t n)
{
	if (d->type == OPT_UINT)
		snprintf(buf, n, "an integer from %.0f to %.0f", d->min, d->max);
	else
		snprintf(buf, n, "a number from %g to %g", d->min, d->max);
}

int option_set_value(const struct option_def *d, void *dst, const char *value, char *err, size_t errn)
{
	char *field = (char *)dst + d->offset;
	char range[96];
	switch (d->type) {
	case OPT_STRING:
		free(*(char **)field);
		*(char **)field = xstrdup(value);
		return 0;
	case OPT_FLAG:
		*(int *)field = 1;
		return 0;
	case OPT_LIST:
		sv_push((struct strvec *)field, value);
		return 0;
	case OPT_UINT: {
		char *end;
		errno = 0;
		long long v = strtoll(value, &end, 10);
		if (errno || end == value || *end || (double)v < d->min || (double)v > d->max) {
			range_text(d, range, sizeof(range));
			snprintf(err, errn, "'%s' must be %s, not '%s'", d->name, range, value);
			return -1;
		}
		*(unsigned *)field = (unsigned)v;
		return 0;
	}
	case OPT_DOUBLE: {
		char *end;
		errno = 0;
		double v = strtod(value, &end);
		if (errno || end == value || *end || !isfinite(v) || v < d->min || v > d->max) {
			range_text(d, range, sizeof(range));
			snprintf(err, errn, "'%s' must be %s, not '%s'", d->name, range, value);
			return -1;
		}
		*(double *)field = v;
		return 0;
	}
	case OPT_SIZE: {
		uint64_t v;
		if (parse_u64(value, &v) < 0 || (double)v < d->min || (double)v > d->max) {
			snprintf(err, errn, "'%s' must be a size from %.0f to %.0f (0x.. and K/M/G allowed), not '%s'",
				 d->name, d->min, d->max, value);
			return -1;
		}
		*(uint64_t *)field = v;
		return 0;
	}
	}
	return -1;
}

static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t *row = xcalloc(lb + 1, sizeof(size_t));
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t prev = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t cur = row[j];
			size_t sub = prev + (a[i - 1] != b[j - 1]);
			size_t del = row[j] + 1, ins = row[j - 1] + 1;
			row[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
			prev = cur;
		}
	}
	size_t r = row[lb];
	free(row);
	return r;
}

const char *closest_word(const char *const *words, const char *name)
{
	const char *best = NULL;
	size_t best_d = (size_t)-1;
	for (; *words; words++) {
		size_t d = edit_distance(*words, name);
		if (d < best_d) {
			best_d = d;
			best = *words;
		}
	}
	/* only a plausible typo: at most a third of the name wrong */
	if (best && best_d <= 1 + strlen(name) / 3)
		return best;
	return NULL;
}

const char *option_closest(const struct option_def *table, const char *name)
{
	const char *words[128];
	size_t n = 0;
	for (; table->name && n < 127; table++)
		words[n++] = table->name;
	words[n] = NULL;
	return closest_word(words, name);
}

int options_parse(const struct option_def *table, void *dst, unsigned char *given, int argc, char **argv,
		  char **pos, int max_pos)
{
	int npos = 0;
	char err[512];
	for (int i = 0; i < argc; i++) {
		const char *arg = argv[i];
		const struct option_def *d = NULL;
		const char *value = NULL;
		if (!strcmp(arg, "--")) {
			for (i++; i < argc; i++) {
				if (!pos || npos >= max_pos)
					return error("unexpected argument '%s'", argv[i]);
				pos[npos++] = argv[i];
			}
			break;
		}
		if (arg[0] == '-' && arg[1] == '-' && arg[2]) {
			char name[128];
			const char *eq = strchr(arg + 2, '=');
			size_t len = eq ? (size_t)(eq - arg - 2) : strlen(arg + 2);
			snprintf(name, sizeof(name), "%.*s", (int)len, arg + 2);
			d = option_find(table, name);
			if (!d) {
				const char *near = option_closest(table, name);
				if (near)
					return error("unknown option '--%s'; did you mean '--%s'?", name, near);
				return error("unknown option '--%s' (see --help)", name);
			}
			if (eq)
				value = eq + 1;
		} else if (arg[0] == '-' && arg[1] && arg[1] != '-' && !arg[2]) {
			for (const struct option_def *t = table; t->name; t++)
				if (t->short_name == arg[1])
					d = t;
			if (!d)
				return error("unknown option '%s' (see --help)", arg);
		} else {
			if (!pos || npos >= max_pos)
				return error("unexpected argument '%s'", arg);
			pos[npos++] = argv[i];
			continue;
		}
		if (d->type == OPT_FLAG) {
			if (value)
				return error("option '--%s' takes no value", d->name);
			value = "1";
		} else if (!value) {
			if (i + 1 >= argc)
				return error("option '--%s' needs a value (%s)", d->name, d->metavar ? d->metavar : "VALUE");
			value = argv[++i];
		}
		if (option_set_value(d, dst, value, err, sizeof(err)) < 0)
			return error("%s", err);
		if (given)
			given[option_index(table, d)] = 1;
	}
	return npos;
}

void options_help(const struct option_def *table, FILE *out)
{
	for (; table->name; table++) {
		char left[96];
		if (table->short_name)
			snprintf(left, sizeof(left), "-%c, --%s%s%s", table->short_name, table->name,
				 table->metavar ? " " : "", table->metavar ? table->metavar : "");
		else
			snprintf(left, sizeof(left), "    --%s%s%s", table->name, table->metavar ? " " : "",
				 table->metavar ? table->metavar : "");
		fprintf(out, "  %-30s %s", left, table->help);
		if (table->type == OPT_UINT || table->type == OPT_DOUBLE)
			fprintf(out, " [%g..%g]", table->min, table->max);
		fprintf(out, "\n");
	}
}
