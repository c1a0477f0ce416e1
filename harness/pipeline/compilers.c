/* compilers.c: see compilers.h */
#define _GNU_SOURCE
#include "pipeline/compilers.h"

#include <ctype.h>
#include <dirent.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/runcmd.h"

static int versioned_name(const char *name);

/* The version number of --version's first line: after "clang version ",
 * else its last word ("gcc (Debian 12.2.0-14) 12.2.0"). */
static char *release_of(const char *first_line)
{
	const char *cv = strstr(first_line, "clang version ");
	const char *r = cv ? cv + strlen("clang version ") : strrchr(first_line, ' ');
	if (!cv && r)
		r++;
	if (!r || !isdigit((unsigned char)*r))
		return NULL;
	return xasprintf("%.*s", (int)strcspn(r, " "), r);
}

/* Asks the program at path for --version and records the identity. */
static void probe_path(struct compiler *c)
{
	char resolved[PATH_MAX];
	char *argv[] = { c->path, "--version", NULL };
	struct strbuf out = STRBUF_INIT;
	struct child_exit ex;
	if (realpath(c->path, resolved) &&
	    run_capture(argv, CHILD_DEVNULL, 30, 65536, &out, NULL, &ex) == 0 && ex.outcome == CHILD_EXITED &&
	    ex.exit_code == 0 && out.len) {
		c->version = xasprintf("%.*s", (int)strcspn(out.buf, "\n"), out.buf);
		/* "Debian clang version 16.0.6 ...", "gcc (Debian 12.2.0-14) 12.2.0" */
		c->is_clang = strstr(c->version, "clang version ") != NULL;
		c->release = release_of(c->version);
		c->major = c->release ? atoi(c->release) : 0;
		/* the identity covers the resolved path and the whole text, so an
		 * upgrade in place (same path, new version) invalidates the cache */
		struct strbuf id = STRBUF_INIT;
		sb_addf(&id, "%s\n%s", resolved, out.buf);
		char hex[65];
		sha256_hex(id.buf, id.len, hex);
		c->identity = xstrdup(hex);
		sb_release(&id);
	} else {
		free(c->path);
		c->path = NULL;
	}
	sb_release(&out);
}

void compiler_probe(struct compiler *c, const char *name)
{
	memset(c, 0, sizeof(*c));
	c->name = xstrdup(name);
	char *base = strrchr(name, '/');
	c->lang = strstr(base ? base : name, "++") ? LANG_CXX : LANG_C;
	c->path = find_on_path_named(name);
	if (c->path)
		probe_path(c);
}

char *compiler_cxx_name(const char *name)
{
	const char *base = strrchr(name, '/');
	base = base ? base + 1 : name;
	size_t pre = (size_t)(base - name);
	if (strstr(base, "++"))
		return xstrdup(name);
	if (!strcmp(base, "cc"))
		return xasprintf("%.*sc++", (int)pre, name);
	/* the last "clang" or "gcc" of the name: x86_64-linux-gnu-gcc-12 */
	const char *hit = NULL, *p;
	for (p = strstr(base, "clang"); p; p = strstr(p + 1, "clang"))
		hit = p;
	if (hit)
		return xasprintf("%.*sclang++%s", (int)(hit - name), name, hit + strlen("clang"));
	for (p = strstr(base, "gcc"); p; p = strstr(p + 1, "gcc"))
		hit = p;
	if (hit)
		return xasprintf("%.*sg++%s", (int)(hit - name), name, hit + strlen("gcc"));
	return NULL;
}

/* The Debian package of a C++ driver's name: g++-12, clang-14, g++. */
static char *cxx_package(const char *cxx)
{
	const char *base = strrchr(cxx, '/');
	base = base ? base + 1 : cxx;
	const char *ver = strchr(base, '-');
	int clang = strstr(base, "clang") != NULL;
	if (ver && versioned_name(base))
		return xasprintf("%s-%.*s", clang ? "clang" : "g++", (int)strcspn(ver + 1, "."), ver + 1);
	return xstrdup(clang ? "clang" : "g++");
}

/* A C++ driver's C compiler, beside it: same release, else none. */
static void probe_c_partner(struct compiler *cc, struct compiler *cxx)
{
	const char *base = strrchr(cxx->name, '/');
	base = base ? base + 1 : cxx->name;
	char *name;
	if (!strcmp(base, "c++"))
		name = xasprintf("%.*scc", (int)(base - cxx->name), cxx->name);
	else if (strstr(base, "g++"))
		name = xasprintf("%.*sgcc%s", (int)(strstr(base, "g++") - cxx->name), cxx->name, strstr(base, "g++") + 3);
	else
		name = xasprintf("%.*s%s", (int)(strstr(base, "++") - cxx->name), cxx->name, strstr(base, "++") + 2);
	memset(cc, 0, sizeof(*cc));
	cc->name = name;
	cc->target_flags = cxx->target_flags;
	const char *slash = cxx->path ? strrchr(cxx->path, '/') : NULL;
	if (slash) {
		const char *nb = strrchr(name, '/');
		cc->path = xasprintf("%.*s/%s", (int)(slash - cxx->path), cxx->path, nb ? nb + 1 : name);
		if (access(cc->path, X_OK) == 0)
			probe_path(cc);
		else {
			free(cc->path);
			cc->path = NULL;
		}
	}
	if (cc->path && (!cc->release || !cxx->release || strcmp(cc->release, cxx->release))) {
		free(cc->path);
		cc->path = NULL;
	}
	if (!cc->path)
		cc->missing = xasprintf("C compiler %s not found beside %s, or of another release", name,
					cxx->path ? cxx->path : cxx->name);
	else
		cxx->c_driver = cc;
}

void compiler_probe_cxx(struct compiler *cxx, struct compiler *c)
{
	if (c->lang == LANG_CXX) {
		probe_c_partner(cxx, c);
		return;
	}
	char *name = compiler_cxx_name(c->name);
	memset(cxx, 0, sizeof(*cxx));
	cxx->lang = LANG_CXX;
	cxx->c_driver = c;
	c->cxx = cxx;
	cxx->target_flags = c->target_flags;
	if (!name) {
		cxx->name = xstrdup(c->name);
		cxx->missing = xasprintf("no C++ driver is known for compiler '%s' (gcc -> g++, clang -> clang++)",
					 c->name);
		return;
	}
	cxx->name = name;
	char *pkg = cxx_package(name);
	if (!c->path) {
		char *cpkg = compiler_package(c->name);
		cxx->missing = xasprintf("compiler '%s' not found on PATH: install the Debian packages %s and %s",
					 c->name, cpkg ? cpkg : c->name, pkg);
		free(cpkg);
		free(pkg);
		return;
	}
	/* beside the C driver, as it was found on PATH */
	const char *slash = strrchr(c->path, '/');
	const char *base = strrchr(name, '/');
	cxx->path = xasprintf("%.*s/%s", (int)(slash - c->path), c->path, base ? base + 1 : name);
	if (access(cxx->path, X_OK) < 0) {
		cxx->missing = xasprintf("C++ driver %s not found beside %s: install the Debian package %s", name,
					 c->path, pkg);
		free(cxx->path);
		cxx->path = NULL;
	} else {
		probe_path(cxx);
		if (!cxx->path)
			cxx->missing = xasprintf("C++ driver %s beside %s does not answer --version: reinstall the "
						 "Debian package %s", name, c->path, pkg);
		else if (!c->release || !cxx->release || strcmp(c->release, cxx->release)) {
			cxx->missing = xasprintf("C++ driver %s is release %s, %s is %s: install the Debian package %s "
						 "of the same version", name, cxx->release ? cxx->release : "unknown",
						 c->name, c->release ? c->release : "unknown", pkg);
			free(cxx->path);
			cxx->path = NULL;
		}
	}
	free(pkg);
}

const char *compiler_x(const struct compiler *c)
{
	return c && c->lang == LANG_CXX ? "c++" : "c";
}

/* Whether c compiles an empty unit with flag; why gets the compiler's
 * first line of complaint. */
static int accepts(struct compiler *c, const char *flag, char *why, size_t n)
{
	struct strvec argv = STRVEC_INIT;
	sv_push(&argv, c->path);
	if (c->target_flags)
		sv_pushv(&argv, c->target_flags);
	/* a cross compiler may lack the target's headers (the cross libc is a
	 * package of its own): the probe includes one */
	if (c->cross)
		sv_pushv(&argv, (char *const[]){ "-include", "stdio.h", NULL });
	char *rest[] = { (char *)flag, "-x", (char *)compiler_x(c), "-c", "-o", "/dev/null", "/dev/null", NULL };
	sv_pushv(&argv, rest);
	struct strbuf err = STRBUF_INIT;
	struct child_exit ex;
	int ok = run_capture(argv.v, CHILD_DEVNULL, 30, 4096, NULL, &err, &ex) == 0 && ex.outcome == CHILD_EXITED &&
		 ex.exit_code == 0;
	sv_clear(&argv);
	if (!ok)
		snprintf(why, n, "%s %s %s: %.*s", c->name, c->cross ? "cannot build C here with" : "does not accept",
			 flag, (int)strcspn(err.buf ? err.buf : "", "\n"), err.buf ? err.buf : "");
	sb_release(&err);
	return ok;
}

int compiler_accepts_march(struct compiler *c, const char *march, char *why, size_t n)
{
	if (!strcmp(march, "default"))
		return 1;
	char *flag = xasprintf("-march=%s", march);
	int ok = accepts(c, flag, why, n);
	free(flag);
	return ok;
}

int compilers_check_values(struct compiler *comps, size_t n, const struct matrix_values *v, char *why, size_t wn)
{
	for (size_t i = 0; v->compilers && i < n; i++)
		if (!comps[i].path) {
			char *pkg = compiler_package(comps[i].name);
			snprintf(why, wn, "compiler '%s' not found on PATH%s%s%s", comps[i].name,
				 pkg ? ": install the Debian package " : "", pkg ? pkg : "", pkg ? " (scripts/deps.sh compilers)" : "");
			free(pkg);
			return -1;
		}
	char what[1024];
	for (size_t i = 0; i < n; i++) {
		if (!comps[i].path)
			continue;
		for (size_t k = 0; v->opt && k < v->opt->n; k++)
			if (!accepts(&comps[i], v->opt->v[k], what, sizeof(what))) {
				snprintf(why, wn, "--opt %s: %s", v->opt->v[k], what);
				return -1;
			}
		for (size_t k = 0; v->march && k < v->march->n; k++)
			if (!compiler_accepts_march(&comps[i], v->march->v[k], what, sizeof(what))) {
				snprintf(why, wn, "--march %s: %s", v->march->v[k], what);
				return -1;
			}
	}
	return 0;
}

/* NAME-VERSION with one dash and a numeric version: gcc-12, clang-16.0 */
static int versioned_name(const char *name)
{
	const char *dash = strchr(name, '-');
	if (!dash || dash == name || strchr(dash + 1, '-') || !isdigit((unsigned char)dash[1]))
		return 0;
	for (const char *p = name; p < dash; p++)
		if (!isalnum((unsigned char)*p) && *p != '+' && *p != '_')
			return 0;
	for (const char *p = dash + 1; *p; p++)
		if (!isdigit((unsigned char)*p) && *p != '.')
			return 0;
	return 1;
}

static int by_version(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	size_t lx = strcspn(x, "-"), ly = strcspn(y, "-");
	int c = strncmp(x, y, lx < ly ? lx : ly);
	if (c || lx != ly)
		return c ? c : (lx < ly ? -1 : 1);
	return strverscmp(x + lx, y + ly);
}

/* The NAME-VERSION programs on PATH that match glob g, in version order. */
static void programs_matching(const char *g, struct strvec *found)
{
	const char *path = getenv("PATH");
	char *dirs = xstrdup(path ? path : "/usr/bin:/bin");
	char *save = NULL;
	for (char *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		DIR *dh = opendir(*d ? d : ".");
		struct dirent *e;
		while (dh && (e = readdir(dh))) {
			if (fnmatch(g, e->d_name, 0) || !versioned_name(e->d_name) || sv_contains(found, e->d_name))
				continue;
			char *full = xasprintf("%s/%s", d, e->d_name);
			if (access(full, X_OK) == 0)
				sv_push(found, e->d_name);
			free(full);
		}
		if (dh)
			closedir(dh);
	}
	free(dirs);
	if (found->n)
		qsort(found->v, found->n, sizeof(char *), by_version);
}

void expand_compilers(const struct strvec *names, struct strvec *out, struct strvec *warnings)
{
	for (size_t i = 0; i < names->n; i++) {
		const char *g = names->v[i];
		if (!strpbrk(g, "*?[")) {
			if (!sv_contains(out, g))
				sv_push(out, g);
			continue;
		}
		struct strvec found = STRVEC_INIT;
		programs_matching(g, &found);
		if (!found.n)
			sv_pushf(warnings, "compiler glob '%s' matches no NAME-VERSION program on PATH", g);
		for (size_t k = 0; k < found.n; k++)
			if (!sv_contains(out, found.v[k]))
				sv_push(out, found.v[k]);
		sv_clear(&found);
	}
}

char *compiler_package(const char *name)
{
	if (!strcmp(name, "gcc") || !strcmp(name, "cc"))
		return xstrdup("gcc");
	if (!strcmp(name, "clang"))
		return xstrdup("clang");
	if (versioned_name(name) && (!strncmp(name, "gcc-", 4) || !strncmp(name, "clang-", 6)))
		return xasprintf("%.*s", (int)strcspn(name, "."), name);
	return NULL;
}

/* clang PGO merges raw profiles with llvm-profdata of the same version. */
char *compiler_profdata(const struct compiler *c)
{
	char *name = xasprintf("llvm-profdata-%d", c->major);
	char *p = c->major > 0 ? find_on_path(name) : NULL;
	free(name);
	return p;
}

void compiler_free(struct compiler *c)
{
	free(c->name);
	free(c->path);
	free(c->version);
	free(c->release);
	free(c->identity);
	free(c->missing);
}
