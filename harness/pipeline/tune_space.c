/* tune_space.c: see tune_space.h */
#define _GNU_SOURCE
#include "pipeline/tune_space.h"

#include <stdlib.h>
#include <string.h>

#include "pipeline/tune_space_build.h"

int tune_space_read(const struct compiler *comp, char *const *start_cflags, int allow_unsafe, struct tune_space *out)
{
	space_init(out);
	if (!comp || !comp->path)
		return error("no compiler to read the tune space of");
	int rc = comp->is_clang ? tune_space_read_clang(comp, start_cflags, allow_unsafe, out)
				: tune_space_read_gcc(comp, start_cflags, allow_unsafe, out);
	const char *opt = tune_cflags_opt(start_cflags);
	if (rc < 0 || !opt)
		return rc;
	const char *levels[TUNE_OPT_LEVELS_MAX];
	size_t start, n = tune_opt_levels(opt, allow_unsafe, out, levels, &start);
	struct tune_space at[TUNE_OPT_LEVELS_MAX];
	memset(at, 0, sizeof(at));
	/* gcc says what each level sets; clang lists no settings, so its
	 * levels tie no flag */
	for (size_t i = 0; i < n && !comp->is_clang && rc == 0; i++) {
		if (i == start)
			continue;
		struct strvec cflags = STRVEC_INIT;
		for (size_t k = 0; start_cflags[k]; k++)
			sv_push(&cflags, start_cflags[k] == opt ? levels[i] : start_cflags[k]);
		rc = tune_space_read_gcc_listed(comp, cflags.v, allow_unsafe, &at[i]);
		sv_clear(&cflags);
	}
	if (rc == 0)
		tune_space_add_levels(out, levels, n, start, at);
	else
		tune_space_free(out);
	for (size_t i = 0; i < n; i++)
		tune_space_free(&at[i]);
	return rc;
}

/* ---- points ---- */

void tune_point_flags(const struct tune_space *s, const size_t *val, struct strvec *out)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct tune_dim *d = &s->dims[i];
		if (val[i] == d->start || val[i] >= d->nchoices)
			continue;
		/* "-mllvm -unroll-threshold=600" is two argv words */
		char *words = xstrdup(d->choices[val[i]]);
		for (char *save = NULL, *w = strtok_r(words, " ", &save); w; w = strtok_r(NULL, " ", &save))
			sv_push(out, w);
		free(words);
	}
}

char *tune_point_key(const struct tune_space *s, const size_t *val)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < s->n; i++) {
		const struct tune_dim *d = &s->dims[i];
		if (val[i] != d->start && val[i] < d->nchoices)
			sb_addf(&sb, "%s%s", sb.len ? " " : "", d->choices[val[i]]);
	}
	return sb.buf ? sb_detach(&sb) : xstrdup("");
}

int tune_point_parse(const struct tune_space *s, const char *key, size_t *val)
{
	for (size_t i = 0; i < s->n; i++)
		val[i] = s->dims[i].start;
	unsigned char *seen = xcalloc(s->n + 1, 1);
	char *words = xstrdup(key ? key : "");
	int rc = 0;
	for (char *save = NULL, *w = strtok_r(words, " ", &save); w && !rc; w = strtok_r(NULL, " ", &save)) {
		char *choice = NULL;
		if (!strcmp(w, "-mllvm")) {
			/* "-mllvm -NAME=V": one choice of two words */
			char *arg = strtok_r(NULL, " ", &save);
			if (!arg) {
				rc = -1;
				break;
			}
			choice = xasprintf("-mllvm %s", arg);
		} else {
			choice = xstrdup(w);
		}
		int found = 0;
		for (size_t i = 0; i < s->n && !found; i++)
			for (size_t c = 0; c < s->dims[i].nchoices && !found; c++)
				if (s->dims[i].choices[c][0] && !strcmp(s->dims[i].choices[c], choice)) {
					found = 1;
					/* two words for one dimension: no point's key */
					if (seen[i])
						rc = -1;
					seen[i] = 1;
					val[i] = c;
				}
		if (!found)
			rc = -1;
		free(choice);
	}
	free(words);
	free(seen);
	return rc;
}

size_t tune_point_changes(const struct tune_space *s, const size_t *val)
{
	size_t n = 0;
	for (size_t i = 0; i < s->n; i++)
		n += val[i] != s->dims[i].start;
	return n;
}

/* ---- printing ---- */

static char *dim_label(const struct tune_dim *d)
{
	switch (d->kind) {
	case TUNE_DIM_FLAG:
		return xasprintf("-f%s", d->name);
	case TUNE_DIM_ENUM:
		return xasprintf("-f%s=", d->name);
	case TUNE_DIM_PARAM:
		return xasprintf("--param=%s=", d->name);
	case TUNE_DIM_MLLVM:
		return xasprintf("-mllvm -%s=", d->name);
	case TUNE_DIM_OPT:
		return xstrdup("-O");
	}
	return xstrdup(d->name);
}

/* A choice as the list shows it: on, off, default, or its value. */
static const char *choice_word(const struct tune_dim *d, size_t c)
{
	const char *ch = d->choices[c];
	if (!ch[0])
		return "default";
	if (d->kind == TUNE_DIM_OPT)
		return ch;
	if (d->kind == TUNE_DIM_FLAG)
		return !ch[0] ? "default" : !strncmp(ch, "-fno-", 5) ? "off" : "on";
	const char *eq = strrchr(ch, '=');
	return eq ? eq + 1 : ch;
}

void tune_space_print(const struct tune_space *s, FILE *out)
{
	fprintf(out, "%zu dimensions, from %s\n", s->n, s->source ? s->source : "(unknown)");
	size_t lw = 0, vw = 0;
	char **labels = xcalloc(s->n + 1, sizeof(*labels));
	char **values = xcalloc(s->n + 1, sizeof(*values));
	for (size_t i = 0; i < s->n; i++) {
		const struct tune_dim *d = &s->dims[i];
		labels[i] = dim_label(d);
		struct strbuf sb = STRBUF_INIT;
		for (size_t c = 0; c < d->nchoices; c++)
			sb_addf(&sb, "%s%s", c ? "|" : "", choice_word(d, c));
		values[i] = sb.buf ? sb_detach(&sb) : xstrdup("");
		/* a few very long names or lists do not push every line right */
		if (strlen(labels[i]) > lw && strlen(labels[i]) <= 48)
			lw = strlen(labels[i]);
		if (strlen(values[i]) > vw && strlen(values[i]) <= 40)
			vw = strlen(values[i]);
	}
	for (size_t i = 0; i < s->n; i++) {
		const struct tune_dim *d = &s->dims[i];
		fprintf(out, "  %-*s  %-*s  start: %s\n", (int)lw, labels[i], (int)vw, values[i],
			d->start < d->nchoices ? choice_word(d, d->start) : "?");
		free(labels[i]);
		free(values[i]);
	}
	free(labels);
	free(values);
	if (s->excluded.n) {
		fprintf(out, "left out:\n");
		for (size_t i = 0; i < s->excluded.n; i++)
			fprintf(out, "  %s\n", s->excluded.v[i]);
	}
}
