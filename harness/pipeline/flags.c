/* flags.c: see flags.h */
#define _GNU_SOURCE
#include "pipeline/flags.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/runcmd.h"

void explain_parse_optimizers(const char *text, struct strvec *out)
{
	char *line;
	while ((line = next_line(&text))) {
		char *s = line;
		while (isspace((unsigned char)*s))
			s++;
		/* "-fname   [enabled]" or "-fname=[a|b|c]   value" */
		if (s[0] == '-' && s[1] == 'f') {
			size_t nl = strcspn(s, " \t=");
			char *last = s + strlen(s);
			while (last > s && isspace((unsigned char)last[-1]))
				*--last = '\0';
			char *val = strrchr(s, ' ');
			char *tab = strrchr(s, '\t');
			if (tab && (!val || tab > val))
				val = tab;
			if (val && val > s + nl)
				sv_pushf(out, "%.*s\t%s", (int)nl, s, val + 1);
		}
		free(line);
	}
}

char *explain_isa_of_macro(const char *line)
{
	/* "#define __AVX2__ 1": an upper-case word between double underscores */
	const char *pre = "#define __";
	if (strncmp(line, pre, strlen(pre)))
		return NULL;
	const char *n = line + strlen(pre);
	size_t len = strspn(n, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
	if (len < 3 || strncmp(n + len - 2, "__", 2) || strcmp(n + len, " 1"))
		return NULL;
	len -= 2;
	char *name = xasprintf("%.*s", (int)len, n);
	char *r = NULL;
	/* names that are not the flag's spelled lower-case */
	if (!strcmp(name, "LAHF_SAHF"))
		r = xstrdup("sahf");
	else if (!strcmp(name, "SSE4_1") || !strcmp(name, "SSE4_2"))
		r = xasprintf("sse4.%c", name[5]);
	else if (!strchr(name, '_')) {
		r = xstrdup(name);
		for (char *q = r; *q; q++)
			*q = (char)tolower((unsigned char)*q);
	}
	free(name);
	return r;
}

static int run_text(char *const *argv, struct strbuf *out, char *why, size_t n)
{
	struct strbuf err = STRBUF_INIT;
	struct child_exit ex;
	int rc = run_capture(argv, CHILD_DEVNULL, 60, 1 << 20, out, &err, &ex);
	int ok = rc == 0 && ex.outcome == CHILD_EXITED && ex.exit_code == 0;
	if (!ok) {
		char how[128];
		describe_exit(&ex, 60, how, sizeof(how));
		snprintf(why, n, "%s %s: %.*s", argv[0], how, (int)strcspn(err.buf ? err.buf : "", "\n"),
			 err.buf ? err.buf : "");
	}
	sb_release(&err);
	return ok ? 0 : -1;
}

/* What the compiler prints for cflags plus args (a query, no build). */
static int compiler_query(const struct compiler *comp, const struct strvec *cflags, const char *const *args,
			  struct strbuf *out)
{
	struct strvec argv = STRVEC_INIT;
	sv_push(&argv, comp->path);
	for (size_t i = 0; i < cflags->n; i++)
		sv_push(&argv, cflags->v[i]);
	sv_pushv(&argv, (char *const *)args);
	char why[512];
	int r = run_text(argv.v, out, why, sizeof(why));
	sv_clear(&argv);
	return r < 0 ? error("%s", why) : 0;
}

static const char *lookup(const struct strvec *kv, const char *name)
{
	size_t l = strlen(name);
	for (size_t i = 0; i < kv->n; i++)
		if (!strncmp(kv->v[i], name, l) && kv->v[i][l] == '\t')
			return kv->v[i] + l + 1;
	return NULL;
}

int explain_first_of_name(const struct strvec *kv, size_t i)
{
	size_t l = strcspn(kv->v[i], "\t");
	for (size_t k = 0; k < i; k++)
		if (!strncmp(kv->v[k], kv->v[i], l) && kv->v[k][l] == '\t')
			return 0;
	return 1;
}

static void add_change(struct flag_changes *fc, const char *name, const char *toward_a, const char *toward_b)
{
	fc->v = xrealloc(fc->v, (fc->n + 1) * sizeof(*fc->v));
	struct flag_change *c = &fc->v[fc->n++];
	c->name = xstrdup(name);
	c->toward_a = xstrdup(toward_a);
	c->toward_b = xstrdup(toward_b);
}

int flags_optimizer_changes(const struct compiler *comp, const struct strvec *a, const struct strvec *b,
			    struct flag_changes *changes, struct strvec *notes)
{
	struct strvec kv[2] = { STRVEC_INIT, STRVEC_INIT };
	const struct strvec *sides[2] = { a, b };
	static const char *const query[] = { "-Q", "--help=optimizers", NULL };
	for (int k = 0; k < 2; k++) {
		struct strbuf out = STRBUF_INIT;
		if (compiler_query(comp, sides[k], query, &out) < 0) {
			sb_release(&out);
			sv_clear(&kv[0]);
			sv_clear(&kv[1]);
			return -1;
		}
		explain_parse_optimizers(out.buf, &kv[k]);
		sb_release(&out);
	}
	for (size_t i = 0; i < kv[1].n; i++) {
		if (!explain_first_of_name(&kv[1], i))
			continue;
		char *name = xasprintf("%.*s", (int)strcspn(kv[1].v[i], "\t"), kv[1].v[i]);
		const char *vb = lookup(&kv[1], name), *va = lookup(&kv[0], name);
		if (va && strcmp(va, vb)) {
			int eb = !strcmp(vb, "[enabled]"), db = !strcmp(vb, "[disabled]");
			int ea = !strcmp(va, "[enabled]"), da = !strcmp(va, "[disabled]");
			if ((eb && da) || (db && ea)) {
				char *on = xstrdup(name), *off = xasprintf("-fno-%s", name + 2);
				add_change(changes, eb ? on : off, eb ? off : on, eb ? on : off);
				free(on);
				free(off);
			} else if (!eb && !db && !ea && !da && *va && *vb && va[0] != '[' && vb[0] != '[') {
				char *tb = xasprintf("%s=%s", name, vb), *ta = xasprintf("%s=%s", name, va);
				add_change(changes, tb, ta, tb);
				free(tb);
				free(ta);
			}
		}
		free(name);
	}
	sv_clear(&kv[0]);
	sv_clear(&kv[1]);
	/* the -O levels also set --param values (inline limits at -O3): they
	 * are candidates too, as --param=NAME=VALUE */
	static const char *const pquery[] = { "-Q", "--help=params", NULL };
	for (int k = 0; k < 2; k++) {
		struct strbuf out = STRBUF_INIT;
		if (compiler_query(comp, sides[k], pquery, &out) == 0)
			explain_parse_params(out.buf, &kv[k]);
		sb_release(&out);
	}
	size_t params = 0;
	for (size_t i = 0; i < kv[1].n; i++) {
		char *name = xasprintf("%.*s", (int)strcspn(kv[1].v[i], "\t"), kv[1].v[i]);
		const char *vb = lookup(&kv[1], name), *va = lookup(&kv[0], name);
		if (va && strcmp(va, vb)) {
			char *tb = xasprintf("--param=%s=%s", name, vb), *ta = xasprintf("--param=%s=%s", name, va);
			add_change(changes, tb, ta, tb);
			free(tb);
			free(ta);
			params++;
		}
		free(name);
	}
	sv_clear(&kv[0]);
	sv_clear(&kv[1]);
	sv_pushf(notes, "candidates: the optimizer flags whose state differs between the two cells in "
			"`gcc -Q --help=optimizers`, and the %zu --param value%s that differ in `gcc -Q --help=params`",
		 params, params == 1 ? "" : "s");
	return 0;
}

int gcc_param_line(const char *line, char **name, int *ranged, long long *lo, long long *hi, char **value)
{
	static const char pre[] = "--param=";
	while (isspace((unsigned char)*line))
		line++;
	if (strncmp(line, pre, strlen(pre)))
		return -1;
	const char *n = line + strlen(pre);
	size_t nl = strcspn(n, "= \t");
	if (!nl || n[nl] != '=')
		return -1;
	const char *arg = n + nl + 1;
	size_t al = strcspn(arg, " \t");
	char tail;
	*ranged = arg[0] == '<' && sscanf(arg, "<%lld,%lld%c", lo, hi, &tail) == 3 && tail == '>';
	const char *val = arg + al;
	while (isspace((unsigned char)*val))
		val++;
	size_t vl = strlen(val);
	while (vl && isspace((unsigned char)val[vl - 1]))
		vl--;
	*name = xasprintf("%.*s", (int)nl, n);
	*value = xasprintf("%.*s", (int)vl, val);
	return 0;
}

void explain_parse_params(const char *text, struct strvec *out)
{
	char *line;
	while ((line = next_line(&text))) {
		char *name, *value, *end = NULL;
		int ranged;
		long long lo, hi;
		if (gcc_param_line(line, &name, &ranged, &lo, &hi, &value) == 0) {
			/* an integer value only: a range alone is no value */
			if (*value && (strtol(value, &end, 10), end && !*end))
				sv_pushf(out, "%s\t%s", name, value);
			free(name);
			free(value);
		}
		free(line);
	}
}

static int compiler_accepts(const struct compiler *comp, const char *flag)
{
	char *argv[] = { comp->path, (char *)flag, "-x", (char *)compiler_x(comp), "-c", "-o", "/dev/null", "/dev/null", NULL };
	struct child_exit ex;
	struct strbuf err = STRBUF_INIT;
	int ok = run_capture(argv, CHILD_DEVNULL, 30, 4096, NULL, &err, &ex) == 0 && ex.outcome == CHILD_EXITED &&
		 ex.exit_code == 0 && !(err.buf && strstr(err.buf, "warning"));
	sb_release(&err);
	return ok;
}

int flags_isa_changes(const struct compiler *comp, const struct strvec *a, const struct strvec *b,
		      struct flag_changes *changes, struct strvec *notes)
{
	struct strvec isa[2] = { STRVEC_INIT, STRVEC_INIT };
	const struct strvec *sides[2] = { a, b };
	const char *const query[] = { "-dM", "-E", "-x", compiler_x(comp), "/dev/null", NULL };
	for (int k = 0; k < 2; k++) {
		struct strbuf out = STRBUF_INIT;
		if (compiler_query(comp, sides[k], query, &out) < 0 || !out.buf) {
			sb_release(&out);
			sv_clear(&isa[0]);
			sv_clear(&isa[1]);
			return -1;
		}
		for (char *save = NULL, *l = strtok_r(out.buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
			char *x = explain_isa_of_macro(l);
			if (x)
				sv_push(&isa[k], x);
			free(x);
		}
		sb_release(&out);
	}
	struct strvec rejected = STRVEC_INIT;
	for (int k = 1; k >= 0; k--)
		for (size_t i = 0; i < isa[k].n; i++) {
			int other = 0;
			for (size_t j = 0; j < isa[1 - k].n; j++)
				other |= !strcmp(isa[k].v[i], isa[1 - k].v[j]);
			if (other)
				continue;
			char *on = xasprintf("-m%s", isa[k].v[i]), *off = xasprintf("-mno-%s", isa[k].v[i]);
			if (compiler_accepts(comp, on) && compiler_accepts(comp, off)) {
				/* k == 1: B has it; k == 0: A has it and B lacks it */
				if (k == 1)
					add_change(changes, on, off, on);
				else
					add_change(changes, off, on, off);
			} else {
				sv_push(&rejected, on);
			}
			free(on);
			free(off);
		}
	sv_clear(&isa[0]);
	sv_clear(&isa[1]);
	sv_push(notes, "candidates: the ISA extensions whose predefined macro (__AVX2__, ...) differs between the "
			   "two cells, as -m<ext> / -mno-<ext>; -mno-<ext> also turns off what depends on it");
	if (rejected.n) {
		struct strbuf sb = STRBUF_INIT;
		for (size_t i = 0; i < rejected.n; i++)
			sb_addf(&sb, "%s%s", i ? ", " : "", rejected.v[i]);
		sv_pushf(notes, "not attributable (no flag the compiler accepts): %s", sb.buf);
		sb_release(&sb);
	}
	sv_clear(&rejected);
	return 0;
}
