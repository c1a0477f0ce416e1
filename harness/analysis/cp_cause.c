/* cp_cause.c: see cp_cause.h */
#define _GNU_SOURCE
#include "analysis/cp_cause.h"

#include <stdlib.h>
#include <string.h>

/* The system facts a same binary's time depends on, as the history keys them. */
static const char *const *const SYSTEM_KEYS = RESULTS_HOST_FACTS;

/* "KEY A -> B" into what when a and b differ (a missing side is "?"). */
static void differs(struct strvec *what, const char *label, const char *a, const char *b)
{
	if (str_equal_or_null(a, b) || (!a && !b))
		return;
	sv_pushf(what, "%s %s -> %s", label, a ? a : "?", b ? b : "?");
}

static void binary_why(const struct history_data *d, const struct hist_point *a, const struct hist_point *b,
		       struct strvec *what)
{
	differs(what, "compiler", a->compiler_version, b->compiler_version);
	if (!str_equal_or_null(a->cflags, b->cflags))
		sv_pushf(what, "flags %s -> %s", a->cflags ? a->cflags : "?", b->cflags ? b->cflags : "?");
	if (a->family && b->family && !strcmp(a->family, b->family)) {
		char *key = xasprintf("family:%s", a->family);
		const struct hist_run *ra = &d->runs[a->run], *rb = &d->runs[b->run];
		const char *ha = hist_fact_get(ra->facts, ra->nfacts, key), *hb = hist_fact_get(rb->facts, rb->nfacts, key);
		if (ha && hb && strcmp(ha, hb))
			sv_pushf(what, "code of family %s", a->family);
		free(key);
	}
	if (!str_equal_or_null(a->argv, b->argv))
		sv_push(what, "arguments");
}

/* The libraries that differ: a path on one side only, or another sha256. */
static void libs_differ(const struct hist_point *a, const struct hist_point *b, struct strvec *what)
{
	size_t i = 0, k = 0;
	while (i < a->nlibs || k < b->nlibs) {
		int c = i == a->nlibs ? 1 : k == b->nlibs ? -1 : strcmp(a->libs[i].key, b->libs[k].key);
		if (c < 0) {
			sv_pushf(what, "library %s (gone)", a->libs[i++].key);
		} else if (c > 0) {
			sv_pushf(what, "library %s (new)", b->libs[k++].key);
		} else {
			if (strcmp(a->libs[i].value, b->libs[k].value))
				sv_pushf(what, "library %s", a->libs[i].key);
			i++;
			k++;
		}
	}
}

void cp_cause_of(const struct history_data *d, const struct hist_point *a, const struct hist_point *b,
		 struct cp_cause *out)
{
	memset(out, 0, sizeof(*out));
	struct strbuf sb = STRBUF_INIT;
	if (!a->sha256 || !b->sha256 || strcmp(a->sha256, b->sha256)) {
		out->kind = CAUSE_BINARY;
		binary_why(d, a, b, &out->what);
		sb_adds(&sb, "the binary");
		if (!a->sha256 || !b->sha256)
			sb_adds(&sb, " (not recorded on a side)");
	} else {
		libs_differ(a, b, &out->what);
		const struct hist_run *ra = &d->runs[a->run], *rb = &d->runs[b->run];
		for (int i = 0; SYSTEM_KEYS[i]; i++)
			differs(&out->what, SYSTEM_KEYS[i], hist_fact_get(ra->facts, ra->nfacts, SYSTEM_KEYS[i]),
				hist_fact_get(rb->facts, rb->nfacts, SYSTEM_KEYS[i]));
		out->kind = out->what.n ? CAUSE_SYSTEM : CAUSE_MACHINE;
		sb_adds(&sb, out->what.n ? "the system, with the same binary" : "the machine (the same binary, nothing recorded changed");
		if (!out->what.n)
			sb_adds(&sb, a->libs_listed && b->libs_listed ? ")" : "; its libraries not listed on a side)");
	}
	for (size_t i = 0; i < out->what.n; i++)
		sb_addf(&sb, "%s%s", i ? ", " : ": ", out->what.v[i]);
	if (out->kind == CAUSE_BINARY && !out->what.n)
		sb_adds(&sb, ": nothing recorded says why");
	out->text = sb_detach(&sb);
}

const char *cp_cause_word(enum cp_cause_kind k)
{
	return k == CAUSE_BINARY ? "binary" : k == CAUSE_SYSTEM ? "system" : "machine";
}

void cp_cause_free(struct cp_cause *c)
{
	sv_clear(&c->what);
	free(c->text);
	memset(c, 0, sizeof(*c));
}
