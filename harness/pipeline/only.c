/* only.c: see only.h */
#define _GNU_SOURCE
#include "pipeline/only.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "core/options.h"

size_t only_count(const char *glob, const struct strvec *ids)
{
	size_t n = 0;
	for (size_t i = 0; i < ids->n; i++)
		n += fnmatch(glob, ids->v[i], 0) == 0;
	return n;
}

/* The first len bytes of s, as a new string. */
static char *part(const char *s, size_t len)
{
	return xasprintf("%.*s", (int)len, s);
}

static void push_once(struct strvec *sv, char *s)
{
	for (size_t i = 0; i < sv->n; i++)
		if (!strcmp(sv->v[i], s)) {
			free(s);
			return;
		}
	sv_push(sv, s);
	free(s);
}

char *only_closest(const char *glob, const struct strvec *ids)
{
	if (!ids->n)
		return NULL;
	const char *at = strchr(glob, '@');
	size_t head_len = at ? (size_t)(at - glob) : strlen(glob);
	char *head = part(glob, head_len), *slash = strchr(head, '/');
	char *fam = part(head, slash ? (size_t)(slash - head) : head_len);
	const char *cfg = at ? at + 1 : NULL;
	/* a bare word is a family: "crc32" stands for every crc32 variant */
	const char *rest = slash ? slash : cfg ? "" : "/*";
	struct strvec fams = STRVEC_INIT, heads = STRVEC_INIT, cfgs = STRVEC_INIT;
	for (size_t i = 0; i < ids->n; i++) {
		const char *id = ids->v[i], *a = strchr(id, '@'), *s = strchr(id, '/');
		size_t hl = a ? (size_t)(a - id) : strlen(id);
		char *f = part(id, s && (size_t)(s - id) < hl ? (size_t)(s - id) : hl);
		int fam_hit = fnmatch(fam, f, 0) == 0;
		push_once(&fams, f);
		if (!fam_hit)
			continue;
		char *h = part(id, hl);
		if (fnmatch(head, h, 0) == 0 && a)
			push_once(&cfgs, xstrdup(a + 1));
		push_once(&heads, h);
	}
	char *out = NULL;
	const char *near;
	if (!heads.n) {
		if ((near = closest_word((const char *const *)fams.v, fam)))
			out = xasprintf("%s%s%s%s", near, rest, cfg ? "@" : "", cfg ? cfg : "");
	} else if (!slash && !cfg) {
		out = xasprintf("%s/*", fam);
	} else if (!cfgs.n) {
		if ((near = closest_word((const char *const *)heads.v, head)))
			out = xasprintf("%s%s%s", near, cfg ? "@" : "", cfg ? cfg : "");
	} else if (cfg && (near = closest_word((const char *const *)cfgs.v, cfg))) {
		out = xasprintf("%s@%s", head, near);
	}
	sv_clear(&fams);
	sv_clear(&heads);
	sv_clear(&cfgs);
	free(head);
	free(fam);
	return out;
}
