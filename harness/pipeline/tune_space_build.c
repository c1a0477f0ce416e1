/* tune_space_build.c: see tune_space_build.h */
#define _GNU_SOURCE
#include "pipeline/tune_space_build.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/runcmd.h"

/* A listing is a few hundred KB; the cap only guards against a runaway. */
#define QUERY_TIMEOUT_S 30
#define QUERY_CAP (4u << 20)

/* ---- building a space ---- */

void space_init(struct tune_space *s)
{
	memset(s, 0, sizeof(*s));
}

void add_dim(struct tune_space *s, enum tune_dim_kind kind, const char *name, struct strvec *choices,
	     size_t start)
{
	s->dims = xrealloc(s->dims, (s->n + 1) * sizeof(*s->dims));
	struct tune_dim *d = &s->dims[s->n++];
	d->kind = kind;
	d->name = xstrdup(name);
	d->choices = choices->v;
	d->nchoices = choices->n;
	d->start = start;
	d->level_choice = NULL;
	choices->v = NULL;
	choices->n = choices->alloc = 0;
}

void note_left_out(struct tune_space *s, const char *label, const char *why)
{
	char *line = xasprintf("%s: %s", label, why);
	if (!sv_contains(&s->excluded, line))
		sv_push(&s->excluded, line);
	free(line);
}

int left_out_by_table(struct tune_space *s, enum tune_dim_kind kind, const char *name, const char *label,
		      int allow_unsafe)
{
	int unsafe;
	const char *why = tune_space_excluded(kind, name, &unsafe);
	if (!why || (unsafe && allow_unsafe))
		return 0;
	note_left_out(s, label, why);
	return 1;
}

int has_dim(const struct tune_space *s, enum tune_dim_kind kind, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->dims[i].kind == kind && !strcmp(s->dims[i].name, name))
			return 1;
	return 0;
}

int parse_integer(const char *s, long long *out)
{
	if (!s || !*s)
		return -1;
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno || end == s || *end)
		return -1;
	*out = v;
	return 0;
}

int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;
	return x < y ? -1 : x > y;
}

size_t int_values(long long d, int ranged, long long lo, long long hi, long long *v)
{
	size_t n = 0;
	if (ranged && hi >= lo && hi - lo <= 8) {
		for (long long x = lo; x <= hi; x++)
			v[n++] = x;
	} else {
		if (d <= 0) {
			/* no scale around 0 (or -1, "off"): a few small settings */
			static const long long around_zero[] = { 0, 1, 2, 8 };
			for (size_t i = 0; i < 4; i++)
				v[n++] = around_zero[i];
		} else {
			/* a default near LLONG_MAX stays as it is (the clamp below) */
			int room = d <= LLONG_MAX / 4 && d >= LLONG_MIN / 4;
			v[n++] = d / 4;
			v[n++] = d / 2;
			v[n++] = room ? d * 2 : d;
			v[n++] = room ? d * 4 : d;
		}
		for (size_t i = 0; i < n; i++) {
			if (ranged) {
				if (v[i] < lo)
					v[i] = lo;
				if (v[i] > hi)
					v[i] = hi;
			} else {
				/* gcc's params are ints; a value past it is rejected */
				if (v[i] < 0 && d >= 0)
					v[i] = 0;
				if (v[i] > INT_MAX)
					v[i] = d > INT_MAX ? d : INT_MAX;
			}
		}
	}
	v[n++] = d;
	qsort(v, n, sizeof(*v), cmp_ll);
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (!k || v[i] != v[k - 1])
			v[k++] = v[i];
	return k;
}

void value_choices(const char *prefix, const long long *v, size_t n, long long d, struct strvec *choices,
		   size_t *start)
{
	*start = 0;
	for (size_t i = 0; i < n; i++) {
		sv_pushf(choices, "%s%lld", prefix, v[i]);
		if (v[i] == d)
			*start = i;
	}
}

void free_dim(struct tune_dim *d)
{
	for (size_t i = 0; i < d->nchoices; i++)
		free(d->choices[i]);
	free(d->choices);
	free(d->name);
	free(d->level_choice);
}

void tune_space_free(struct tune_space *s)
{
	for (size_t i = 0; i < s->n; i++)
		free_dim(&s->dims[i]);
	free(s->dims);
	sv_clear(&s->excluded);
	free(s->source);
	memset(s, 0, sizeof(*s));
}

/* ---- asking the compiler ---- */

void compiler_argv(const struct compiler *comp, char *const *start_cflags, struct strvec *argv,
		   const char *const *extra)
{
	sv_push(argv, comp->path);
	sv_pushv(argv, comp->target_flags);
	sv_pushv(argv, start_cflags);
	sv_pushv(argv, (char *const *)extra);
}

int run_query(char *const *argv, struct strbuf *out, struct strbuf *err, char *why, size_t n)
{
	struct child_exit ex;
	int rc = run_capture(argv, CHILD_DEVNULL, QUERY_TIMEOUT_S, QUERY_CAP, out, err, &ex);
	int ok = rc == 0 && ex.outcome == CHILD_EXITED && ex.exit_code == 0;
	if (!ok && why) {
		char how[128];
		describe_exit(&ex, QUERY_TIMEOUT_S, how, sizeof(how));
		const char *e = err->buf ? err->buf : "";
		snprintf(why, n, "%s: %.*s", how, (int)strcspn(e, "\n"), e);
	}
	return ok ? 0 : -1;
}

const char *buf_text(const struct strbuf *sb)
{
	return sb->buf ? sb->buf : "";
}

void append_cflags(struct strbuf *sb, char *const *cflags)
{
	for (char *const *w = cflags; w && *w; w++)
		sb_addf(sb, " %s", *w);
}

int empty_unit_as_start(const struct compiler *comp, char *const *start_cflags, char *const *flags,
			const char *baseline)
{
	const char *const unit[] = { "-x", compiler_x(comp), "-c", "-o", "/dev/null", "-", NULL };
	struct strvec argv = STRVEC_INIT;
	compiler_argv(comp, start_cflags, &argv, NULL);
	sv_pushv(&argv, flags);
	sv_pushv(&argv, (char *const *)unit);
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	int ok = run_query(argv.v, &out, &err, NULL, 0) == 0 && !strcmp(buf_text(&err), baseline);
	sb_release(&out);
	sb_release(&err);
	sv_clear(&argv);
	return ok ? 0 : -1;
}
