/* plan.c: see plan.h */
#define _GNU_SOURCE
#include "plan.h"

#include <ctype.h>
#include <dirent.h>
#include <fnmatch.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "runcmd.h"
#include "sysinfo.h"

static const char *const status_names[] = {
	[CELL_PENDING] = "pending",	    [CELL_OK] = "ok",		      [CELL_BUILD_FAILED] = "build_failed",
	[CELL_UNSUPPORTED] = "unsupported", [CELL_WRONG_OUTPUT] = "wrong_output", [CELL_CRASHED] = "crashed",
	[CELL_TIMEOUT] = "timeout",	    [CELL_SKIPPED] = "skipped",
};

const char *cell_status_name(enum cell_status s)
{
	return status_names[s];
}

int cell_status_parse(const char *name, enum cell_status *out)
{
	for (size_t i = 0; i < sizeof(status_names) / sizeof(status_names[0]); i++)
		if (!strcmp(status_names[i], name)) {
			*out = (enum cell_status)i;
			return 0;
		}
	return -1;
}

int cell_status_failed(enum cell_status s)
{
	return s == CELL_BUILD_FAILED || s == CELL_WRONG_OUTPUT || s == CELL_CRASHED || s == CELL_TIMEOUT;
}

void cell_set_status(struct cell *c, enum cell_status s, const char *fmt, ...)
{
	c->status = s;
	free(c->reason);
	c->reason = NULL;
	if (fmt) {
		char buf[2048];
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(buf, sizeof(buf), fmt, ap);
		va_end(ap);
		c->reason = xstrdup(buf);
	}
}

void compiler_probe(struct compiler *c, const char *name)
{
	memset(c, 0, sizeof(*c));
	c->name = xstrdup(name);
	c->path = find_on_path(name);
	if (!c->path)
		return;
	char *argv[] = { c->path, "--version", NULL };
	struct strbuf out = STRBUF_INIT;
	struct child_exit ex;
	if (run_capture(argv, CHILD_DEVNULL, 30, 65536, &out, NULL, &ex) == 0 && ex.outcome == CHILD_EXITED &&
	    ex.exit_code == 0 && out.len) {
		c->version = xasprintf("%.*s", (int)strcspn(out.buf, "\n"), out.buf);
		/* "Debian clang version 16.0.6 ...", "gcc (Debian 12.2.0-14) 12.2.0" */
		const char *cv = strstr(c->version, "clang version ");
		c->is_clang = cv != NULL;
		if (cv)
			c->major = atoi(cv + strlen("clang version "));
		else if (strrchr(c->version, ' '))
			c->major = atoi(strrchr(c->version, ' ') + 1);
		/* the identity covers the resolved path and the whole text, so an
		 * upgrade in place (same path, new version) invalidates the cache */
		struct strbuf id = STRBUF_INIT;
		sb_addf(&id, "%s\n%s", c->path, out.buf);
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

int compiler_accepts_march(struct compiler *c, const char *march, char *why, size_t n)
{
	if (!strcmp(march, "default"))
		return 1;
	char *flag = xasprintf("-march=%s", march);
	char *argv[] = { c->path, flag, "-x", "c", "-c", "-o", "/dev/null", "/dev/null", NULL };
	struct strbuf err = STRBUF_INIT;
	struct child_exit ex;
	int ok = run_capture(argv, CHILD_DEVNULL, 30, 4096, NULL, &err, &ex) == 0 && ex.outcome == CHILD_EXITED &&
		 ex.exit_code == 0;
	if (!ok)
		snprintf(why, n, "%s does not accept %s: %.*s", c->name, flag, (int)strcspn(err.buf ? err.buf : "", "\n"),
			 err.buf ? err.buf : "");
	sb_release(&err);
	free(flag);
	return ok;
}

static int sv_contains(const struct strvec *sv, const char *s)
{
	for (size_t i = 0; i < sv->n; i++)
		if (!strcmp(sv->v[i], s))
			return 1;
	return 0;
}

/* NAME-VERSION with one dash and a numeric version: gcc-12, clang-16.0 */
static int versioned_name(const char *name, size_t *prefix_len)
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
	*prefix_len = (size_t)(dash - name);
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

void expand_compilers(const struct strvec *names, struct strvec *out, struct strvec *warnings)
{
	const char *path = getenv("PATH");
	for (size_t i = 0; i < names->n; i++) {
		const char *g = names->v[i];
		if (!strpbrk(g, "*?[")) {
			if (!sv_contains(out, g))
				sv_push(out, g);
			continue;
		}
		struct strvec found = STRVEC_INIT;
		char *dirs = xstrdup(path ? path : "/usr/bin:/bin");
		char *save = NULL;
		for (char *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
			DIR *dh = opendir(*d ? d : ".");
			struct dirent *e;
			while (dh && (e = readdir(dh))) {
				size_t pl;
				if (fnmatch(g, e->d_name, 0) || !versioned_name(e->d_name, &pl) ||
				    sv_contains(&found, e->d_name))
					continue;
				char *full = xasprintf("%s/%s", d, e->d_name);
				if (access(full, X_OK) == 0)
					sv_push(&found, e->d_name);
				free(full);
			}
			if (dh)
				closedir(dh);
		}
		free(dirs);
		if (!found.n)
			sv_pushf(warnings, "compiler glob '%s' matches no NAME-VERSION program on PATH", g);
		if (found.n)
			qsort(found.v, found.n, sizeof(char *), by_version);
		for (size_t k = 0; k < found.n; k++)
			if (!sv_contains(out, found.v[k]))
				sv_push(out, found.v[k]);
		sv_clear(&found);
	}
}

char *compiler_package(const char *name)
{
	size_t pl;
	if (!strcmp(name, "gcc") || !strcmp(name, "cc"))
		return xstrdup("gcc");
	if (!strcmp(name, "clang"))
		return xstrdup("clang");
	if (versioned_name(name, &pl) && (!strncmp(name, "gcc-", 4) || !strncmp(name, "clang-", 6)))
		return xasprintf("%.*s", (int)strcspn(name, "."), name);
	return NULL;
}

/* clang PGO merges raw profiles with llvm-profdata of the same version. */
static char *profdata_for(const struct compiler *c)
{
	char *name = xasprintf("llvm-profdata-%d", c->major);
	char *p = c->major > 0 ? find_on_path(name) : NULL;
	free(name);
	return p;
}

static void compiler_free(struct compiler *c)
{
	free(c->name);
	free(c->path);
	free(c->version);
	free(c->identity);
}

/* A suite glob such as "fizzbuzz/sse" or "yes/[bv]*" against family/variant. */
static int variant_selected(const struct suite *s, const char *family, const char *variant)
{
	char *id = xasprintf("%s/%s", family, variant);
	int sel = 0;
	for (size_t i = 0; i < s->variants.n && !sel; i++)
		sel = fnmatch(s->variants.v[i], id, 0) == 0;
	free(id);
	return sel;
}

static struct cell *new_cell(struct plan *p, size_t *alloc)
{
	if (p->n == *alloc) {
		*alloc = *alloc ? *alloc * 2 : 32;
		p->cells = xrealloc(p->cells, *alloc * sizeof(*p->cells));
	}
	struct cell *c = &p->cells[p->n++];
	memset(c, 0, sizeof(*c));
	c->same_binary_as = -1;
	c->speedup = NAN;
	c->vs_glibc = NAN;
	c->train_s = NAN;
	c->pin_producer = c->pin_consumer = c->pin_single = PIN_NONE;
	return c;
}

static void set_run_args(struct cell *c, const struct family *f, const struct strvec *extra)
{
	sv_pushf(&c->run_args, "%llu", (unsigned long long)c->size);
	sv_pushv(&c->run_args, f->args.v);
	if (extra)
		sv_pushv(&c->run_args, extra->v);
	c->expected_bytes = UINT64_MAX;
	const struct checker *ck = checker_find(f->check);
	if (ck && ck->expected_bytes) {
		struct check_args a = { c->size, (int)c->run_args.n - 1, c->run_args.v + 1 };
		c->expected_bytes = ck->expected_bytes(&a);
	}
}

/* Placement and consumer are dimensions only when the suite lists them;
 * the empty string means "not crossed". */
static void set_dimensions(struct cell *c, const char *placement, const char *consumer, struct strbuf *cfg)
{
	if (*placement) {
		c->placement = xstrdup(placement);
		sb_addf(cfg, "/%s", placement);
	}
	if (*consumer) {
		c->consumer = xstrdup(consumer);
		sb_addf(cfg, "/%s", consumer);
	}
}

struct march_probe {
	struct compiler *comp;
	char *march;
	int ok;
	char why[512];
};

int plan_build(const struct plan_input *in, struct plan *out)
{
	const struct suite *s = in->suite;
	const struct cpu_profile *prof = in->profile;
	int (*has_flag)(const char *) = in->has_cpu_flag ? in->has_cpu_flag : host_has_cpu_flag;
	memset(out, 0, sizeof(*out));
	size_t alloc = 0;

	/* compiler globs ("gcc-*") become every installed version */
	struct strvec comps = STRVEC_INIT;
	expand_compilers(&s->compilers, &comps, &out->warnings);
	out->ncompilers = comps.n + s->ncross;
	out->compilers = xcalloc(out->ncompilers ? out->ncompilers : 1, sizeof(*out->compilers));
	for (size_t i = 0; i < comps.n; i++)
		compiler_probe(&out->compilers[i], comps.v[i]);
	for (size_t i = 0; i < s->ncross; i++)
		compiler_probe(&out->compilers[comps.n + i], s->cross[i].compiler);
	/* a suite without "flags" has one unnamed empty set: ids as before */
	static const struct flag_set no_set = { NULL, STRVEC_INIT, 0 };
	const struct flag_set *sets = s->nflagsets ? s->flagsets : &no_set;
	size_t nsets = s->nflagsets ? s->nflagsets : 1;
	const struct strvec *marches = s->march_from_profile ? &prof->march : &s->march;
	struct strvec default_alloc = STRVEC_INIT;
	sv_push(&default_alloc, "glibc");
	const struct strvec *allocs = s->allocators.n ? &s->allocators : &default_alloc;

	/* a dimension the suite does not list has one empty value */
	static char *const none_v[] = { "", NULL };
	const struct strvec none = { (char **)none_v, 1, 0 };
	struct march_probe *probes = NULL;
	size_t nprobes = 0;
	int any_selected = 0;

	for (size_t fi = 0; fi < in->nfamilies; fi++) {
		struct family *f = &in->families[fi];
		int family_used = 0;
		if (!checker_find(f->check))
			sv_pushf(&out->warnings, "family %s names checker '%s', which flagbench does not have", f->name,
				 f->check);
		/* stream families also cross placements and consumers */
		const struct strvec *places = f->kind == KIND_STREAM && s->placements.n ? &s->placements : &none;
		const struct strvec *cons = f->kind == KIND_STREAM && s->consumers.n ? &s->consumers : &none;
		for (size_t vi = 0; vi < f->nvariants; vi++) {
			struct variant *v = &f->variants[vi];
			if (!variant_selected(s, f->name, v->name))
				continue;
			family_used = 1;
			size_t dims[7] = { comps.n, s->opt.n, marches->n, allocs->n, places->n, cons->n, nsets };
			size_t total = dims[0] * dims[1] * dims[2] * dims[3] * dims[4] * dims[5] * dims[6];
			for (size_t k = 0; k < total; k++) {
				size_t idx[7], rest = k;
				/* fastest first: consumer, placement, allocator, flag set,
				 * march, opt, compiler (one set: the order of before) */
				static const int order[7] = { 5, 4, 3, 6, 2, 1, 0 };
				for (int o = 0; o < 7; o++) {
					int d = order[o];
					idx[d] = rest % dims[d];
					rest /= dims[d];
				}
				struct compiler *comp = &out->compilers[idx[0]];
				const char *march = marches->v[idx[2]];
				struct cell *c = new_cell(out, &alloc);
				c->family = f;
				c->variant = v;
				c->compiler = comp;
				c->opt = xstrdup(s->opt.v[idx[1]]);
				c->march = xstrdup(march);
				c->allocator = xstrdup(allocs->v[idx[3]]);
				c->size = suite_size_for(s, f, v->name);
				const struct flag_set *fs = &sets[idx[6]];
				struct strbuf cfg = STRBUF_INIT;
				sb_addf(&cfg, "%s/%s/%s", comp->name, c->opt, march);
				if (fs->name) {
					c->flagset = xstrdup(fs->name);
					c->pgo = fs->pgo;
					sb_addf(&cfg, "/%s", fs->name);
				}
				if (s->allocators.n)
					sb_addf(&cfg, "/%s", c->allocator);
				set_dimensions(c, places->v[idx[4]], cons->v[idx[5]], &cfg);
				c->config = sb_detach(&cfg);
				c->id = xasprintf("%s/%s@%s", f->name, v->name, c->config);
				sv_push(&c->cflags, c->opt);
				if (strcmp(march, "default"))
					sv_pushf(&c->cflags, "-march=%s", march);
				sv_pushv(&c->cflags, prof->cflags.v);
				sv_pushv(&c->cflags, fs->flags.v);
				sv_pushv(&c->cflags, v->requires_flags.v);
				set_run_args(c, f, &v->args);
				if (c->pgo)
					c->train_size = f->train_size ? f->train_size
						      : f->counter_size && f->counter_size < c->size ? f->counter_size
												     : c->size;
			}
		}
		/* cross targets: their own compiler and marches, no profile flags */
		for (size_t vi = 0; vi < f->nvariants; vi++) {
			struct variant *v = &f->variants[vi];
			if (!variant_selected(s, f->name, v->name))
				continue;
			for (size_t xi = 0; xi < s->ncross; xi++)
				for (size_t oi = 0; oi < s->opt.n; oi++)
					for (size_t mi = 0; mi < s->cross[xi].march.n; mi++) {
						struct cell *c = new_cell(out, &alloc);
						struct compiler *comp = &out->compilers[comps.n + xi];
						c->family = f;
						c->variant = v;
						c->compiler = comp;
						c->cross = &s->cross[xi];
						c->opt = xstrdup(s->opt.v[oi]);
						c->march = xstrdup(s->cross[xi].march.v[mi]);
						c->allocator = xstrdup("glibc");
						c->size = sizes_lookup(s->cross[xi].sizes, f, v->name,
								       suite_size_for(s, f, v->name));
						c->config = xasprintf("%s/%s/%s", comp->name, c->opt, c->march);
						c->id = xasprintf("%s/%s@%s", f->name, v->name, c->config);
						sv_push(&c->cflags, c->opt);
						sv_pushf(&c->cflags, "-march=%s", c->march);
						set_run_args(c, f, &v->args);
					}
		}
		/* references once per family (and placement/consumer), whenever
		 * any of its variants runs */
		for (size_t ri = 0; family_used && ri < f->nreferences; ri++)
			for (size_t pi = 0; pi < places->n; pi++)
				for (size_t ki = 0; ki < cons->n; ki++) {
					struct cell *c = new_cell(out, &alloc);
					c->family = f;
					c->reference = &f->references[ri];
					c->allocator = xstrdup("glibc");
					c->size = suite_size_for(s, f, c->reference->name);
					struct strbuf cfg = STRBUF_INIT;
					sb_adds(&cfg, "reference");
					set_dimensions(c, places->v[pi], cons->v[ki], &cfg);
					c->config = sb_detach(&cfg);
					c->id = xasprintf("%s/%s@%s", f->name, c->reference->name, c->config);
					set_run_args(c, f, NULL);
				}
		any_selected |= family_used;
	}
	if (!any_selected)
		sv_pushf(&out->warnings, "the suite's variant globs match no variant");

	/* Decide what cannot run here, with reasons, in plan order; at most
	 * one (compiler, march) probe per cell. */
	probes = xcalloc(out->n + 1, sizeof(*probes));
	for (size_t i = 0; i < out->n; i++) {
		struct cell *c = &out->cells[i];
		if (in->only && fnmatch(in->only, c->id, 0) != 0) {
			cell_set_status(c, CELL_SKIPPED, "not selected by --only %s", in->only);
			continue;
		}
		if (c->reference) {
			char *prog = find_on_path(c->reference->argv.v[0]);
			if (!prog)
				cell_set_status(c, CELL_UNSUPPORTED, "reference program '%s' not found on PATH",
						c->reference->argv.v[0]);
			free(prog);
			continue;
		}
		if (c->cross) {
			char *emu = find_on_path(c->cross->run_prefix.v[0]);
			if (!c->compiler->path || !emu)
				cell_set_status(c, CELL_UNSUPPORTED, "cross tools missing (%s%s%s): install %s",
						c->compiler->path ? "" : c->compiler->name,
						!c->compiler->path && !emu ? ", " : "", emu ? "" : c->cross->run_prefix.v[0],
						c->cross->packages ? c->cross->packages : "them");
			else if (c->variant->requires_cpu.n || c->variant->requires_flags.n)
				cell_set_status(c, CELL_UNSUPPORTED, "%s is written for the host's instruction set, not %s",
						c->variant->name, c->march);
			free(emu);
			if (c->status != CELL_PENDING)
				continue;
		}
		if (!c->compiler->path) {
			char *pkg = compiler_package(c->compiler->name);
			if (pkg)
				cell_set_status(c, CELL_UNSUPPORTED,
						"compiler '%s' not found on PATH: install the Debian package %s "
						"(scripts/deps.sh compilers)", c->compiler->name, pkg);
			else
				cell_set_status(c, CELL_UNSUPPORTED, "compiler '%s' not found on PATH", c->compiler->name);
			free(pkg);
			continue;
		}
		if (c->pgo && c->compiler->is_clang) {
			c->profdata = profdata_for(c->compiler);
			if (!c->profdata) {
				cell_set_status(c, CELL_UNSUPPORTED,
						"pgo with %s needs llvm-profdata-%d: install the Debian package llvm-%d",
						c->compiler->name, c->compiler->major, c->compiler->major);
				continue;
			}
		}
		for (size_t k = 0; !c->cross && k < c->variant->requires_cpu.n; k++)
			if (!has_flag(c->variant->requires_cpu.v[k])) {
				cell_set_status(c, CELL_UNSUPPORTED, "host cpu lacks %s (%s)", c->variant->requires_cpu.v[k],
						host_cpu_model());
				break;
			}
		if (c->status != CELL_PENDING)
			continue;
		struct march_probe *pr = NULL;
		for (size_t k = 0; k < nprobes; k++)
			if (probes[k].comp == c->compiler && !strcmp(probes[k].march, c->march))
				pr = &probes[k];
		if (!pr) {
			pr = &probes[nprobes++];
			pr->comp = c->compiler;
			pr->march = c->march;
			pr->ok = in->probe_march ? in->probe_march(c->compiler, c->march, pr->why, sizeof(pr->why))
						 : compiler_accepts_march(c->compiler, c->march, pr->why, sizeof(pr->why));
		}
		if (!pr->ok)
			cell_set_status(c, CELL_UNSUPPORTED, "%s", pr->why);
	}
	free(probes);
	sv_clear(&default_alloc);
	sv_clear(&comps);
	return 0;
}

void plan_free(struct plan *p)
{
	for (size_t i = 0; i < p->n; i++) {
		struct cell *c = &p->cells[i];
		free(c->id);
		free(c->config);
		free(c->opt);
		free(c->march);
		free(c->allocator);
		free(c->flagset);
		free(c->profdata);
		free(c->placement);
		free(c->consumer);
		free(c->reason);
		free(c->binary);
		free(c->preload);
		sv_clear(&c->cflags);
		sv_clear(&c->run_args);
		sv_clear(&c->warnings);
		stats_free(&c->time);
		json_decref(c->extra);
		json_decref(c->restored);
	}
	free(p->cells);
	for (size_t i = 0; i < p->ncompilers; i++)
		compiler_free(&p->compilers[i]);
	free(p->compilers);
	sv_clear(&p->warnings);
	memset(p, 0, sizeof(*p));
}
