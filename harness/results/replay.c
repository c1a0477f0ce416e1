/* replay.c: see replay.h */
#define _GNU_SOURCE
#include "results/replay.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/runcmd.h"
#include "core/util.h"
#include "pipeline/libraries.h"
#include "pipeline/store.h"
#include "results/reader.h"
#include "system/allocators.h"

/* Whether the record's argv is sv's. */
static int args_equal(const struct results_cell *rec, const struct strvec *sv)
{
	if (!rec->argv || rec->nargv != sv->n)
		return 0;
	for (size_t i = 0; i < sv->n; i++)
		if (!rec->argv[i] || strcmp(rec->argv[i], sv->v[i]))
			return 0;
	return 1;
}

int run_use_stored_binaries(struct plan *p, const char *from_dir, const struct results_run *old)
{
	if (!old) {
		/* nothing to measure: every cell that needs a binary says why */
		for (size_t i = 0; i < p->n; i++)
			if (p->cells[i].status == CELL_PENDING && !p->cells[i].spec.reference)
				cell_set_status(&p->cells[i], CELL_SKIPPED, "no results.json in %s", from_dir);
		return -1;
	}
	for (size_t i = 0; i < p->n; i++) {
		struct cell *c = &p->cells[i];
		if (c->status != CELL_PENDING || c->spec.reference)
			continue;
		const struct results_cell *rec = results_cell_by_id(old, c->spec.id);
		if (!rec) {
			cell_set_status(c, CELL_SKIPPED, "not in %s", from_dir);
			continue;
		}
		const char *sha = rec->sha256;
		char *path = sha ? stored_binary_path(from_dir, sha) : NULL;
		char got[65];
		uint64_t bytes;
		if (!sha)
			cell_set_status(c, CELL_SKIPPED, "no binary in %s (status %s)", from_dir, rec->status_name);
		else if (sha256_file_hex(path, got, &bytes) < 0)
			cell_set_status(c, CELL_SKIPPED, "binary %.12s is not stored in %s/bin", sha, from_dir);
		else if (strcmp(got, sha))
			cell_set_status(c, CELL_SKIPPED, "stored binary %s has changed (sha256 %.12s)", path, got);
		else {
			free(c->build.binary);
			c->build.binary = path;
			path = NULL;
			memcpy(c->build.sha256, got, sizeof(got));
			c->build.bytes = bytes;
			if (!args_equal(rec, &c->spec.run_args))
				sv_pushf(&c->warnings, "arguments differ from those measured in %s (the suite changed)", from_dir);
		}
		free(path);
	}
	return 0;
}

/* The spec of a replayed cell from its record's view. */
static int replay_spec(struct cell *c, const struct results_cell *rec, const char *run_dir, struct family *fams,
		       size_t nfams, char *why, size_t n)
{
	struct cell_spec *s = &c->spec;
	if (rec->emulated) {
		snprintf(why, n, "emulated: not measured again");
		return -1;
	}
	for (size_t i = 0; i < nfams && !s->family; i++)
		if (!strcmp(fams[i].name, rec->family))
			s->family = &fams[i];
	if (!s->family) {
		snprintf(why, n, "family %s is not under variants/ any more", rec->family);
		return -1;
	}
	for (size_t i = 0; i < s->family->nvariants; i++)
		if (!strcmp(s->family->variants[i].name, rec->variant))
			s->variant = &s->family->variants[i];
	for (size_t i = 0; !s->variant && i < s->family->nreferences; i++)
		if (!strcmp(s->family->references[i].name, rec->variant))
			s->reference = &s->family->references[i];
	if (!s->variant && !s->reference) {
		snprintf(why, n, "%s/%s is not in the family any more", rec->family, rec->variant);
		return -1;
	}
	if (s->variant) {
		if (!rec->sha256) {
			snprintf(why, n, "no binary recorded");
			return -1;
		}
		c->build.binary = stored_binary_path(run_dir, rec->sha256);
		if (access(c->build.binary, X_OK) < 0) {
			snprintf(why, n, "binary %.12s is not stored in %s/bin", rec->sha256, run_dir);
			return -1;
		}
	}
	for (size_t i = 0; i < rec->nargv; i++)
		sv_push(&s->run_args, rec->argv[i]);
	s->size = rec->size;
	s->expected_bytes = rec->bytes;
	if (rec->consumer)
		s->consumer = xstrdup(rec->consumer);
	s->allocator = xstrdup(rec->allocator ? rec->allocator : "glibc");
	if (strcmp(s->allocator, "glibc")) {
		const char *lib = allocator_library(s->allocator, why, n);
		if (!lib)
			return -1;
		if (*lib)
			s->preload = xstrdup(lib);
	}
	s->pin.producer = rec->pin_producer;
	s->pin.consumer = rec->pin_consumer;
	s->pin.single = rec->pin_single;
	return 0;
}

int replay_cell_init(struct cell *c, const struct results_cell *rec, const char *run_dir, struct family *fams,
		     size_t nfams, char *why, size_t n)
{
	memset(c, 0, sizeof(*c));
	cell_reset(c); /* the outcome "not run yet" */
	struct cell_spec *s = &c->spec;
	s->pin.producer = s->pin.consumer = s->pin.single = PIN_NONE;
	s->expected_bytes = UINT64_MAX;
	s->id = xstrdup(rec ? rec->id : "?");
	if (!rec) {
		snprintf(why, n, "no record of the cell");
		return -1;
	}
	return replay_spec(c, rec, run_dir, fams, nfams, why, n);
}

void replay_cell_free(struct cell *c)
{
	cell_reset(c);
	free(c->spec.id);
	free(c->spec.consumer);
	free(c->spec.allocator);
	free(c->spec.preload);
	sv_clear(&c->spec.run_args);
	sv_clear(&c->spec.loader);
	memset(c, 0, sizeof(*c));
}

/* RUN/lib/<sha256> as an absolute path, its content checked; NULL with why. */
static char *kept_library(const char *run_dir, const char *path, const char *sha, char *why, size_t n)
{
	char *kept = stored_library_path(run_dir, sha), *abs = kept ? realpath(kept, NULL) : NULL, hex[65];
	if (!abs)
		snprintf(why, n, "library %s (%.12s) is not kept in %s/lib", path, sha, run_dir);
	else if (sha256_file_hex(abs, hex, NULL) < 0 || strcmp(hex, sha)) {
		snprintf(why, n, "the kept copy of library %s is not its %.12s any more", path, sha);
		free(abs);
		abs = NULL;
	}
	free(kept);
	return abs;
}

/* The kept loader as it can be run: itself, or where it lost its
 * executable bit (an artifact or archive drops it; a hard link to the
 * system's file is never changed) a copy in folder that has it. */
static char *executable_loader(const char *kept, const char *folder, char *why, size_t n)
{
	if (access(kept, X_OK) == 0)
		return xstrdup(kept);
	char *copy = xasprintf("%s/.loader", folder);
	if (copy_executable(kept, copy) < 0) {
		snprintf(why, n, "cannot make the kept loader %s executable in %s", kept, folder);
		free(copy);
		copy = NULL;
	}
	return copy;
}

/* The loader's own word on what binary loads through folder: 0 when
 * every library it lists resolves into folder (the loader's own line
 * aside), -1 with why where one does not: a DT_RPATH is searched before
 * --library-path, so such a binary would run on today's library on both
 * sides and no step could show. */
#define LOADER_LIST_TIMEOUT_S 10.0
static int loads_from(const char *loader, const char *folder, const char *binary, char *why, size_t n)
{
	char *argv[] = { (char *)loader, "--library-path", (char *)folder, "--list", (char *)binary, NULL };
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	struct child_exit ex;
	int r = 0;
	if (run_capture(argv, CHILD_DEVNULL, LOADER_LIST_TIMEOUT_S, 256u << 10, &out, &err, &ex) < 0 ||
	    ex.outcome != CHILD_EXITED || ex.exit_code != 0) {
		snprintf(why, n, "the kept loader cannot list %s", binary);
		r = -1;
	}
	size_t flen = strlen(folder);
	const char *text = out.buf ? out.buf : "";
	char *line;
	while (r == 0 && (line = next_line(&text))) {
		char *arrow = strstr(line, " => "), *path = arrow ? arrow + 4 : NULL, *end = path ? strstr(path, " (") : NULL;
		char *name = line + strspn(line, " \t");
		if (end)
			*end = 0;
		/* "name => not found", the loader's own line, or a path in folder */
		if (path && *path == '/' && strcmp(path, loader) && (strncmp(path, folder, flen) || path[flen] != '/')) {
			*arrow = 0;
			snprintf(why, n, "it loads %s from %s, not from the kept copy (a DT_RPATH is searched first)", name,
				 path);
			r = -1;
		} else if (path && !strncmp(path, "not found", 9)) {
			*arrow = 0;
			snprintf(why, n, "the kept libraries lack %s", name);
			r = -1;
		}
		free(line);
	}
	sb_release(&out);
	sb_release(&err);
	return r;
}

int replay_cell_libraries(struct cell *c, const struct results_cell *rec, const char *run_dir, const char *folder,
			  char *why, size_t n)
{
	if (!rec->libs_listed) {
		snprintf(why, n, "its run did not list the libraries it loaded");
		return -1;
	}
	char *interp = libraries_interp(c->build.binary), *loader = NULL;
	if (!interp) {
		snprintf(why, n, "a static binary: it loads no libraries");
		return -1;
	}
	int r = mkdir_p(folder, 0755) < 0 ? -1 : 0;
	if (r < 0)
		snprintf(why, n, "cannot create %s", folder);
	for (size_t i = 0; i < rec->nlibs; i++) {
		const char *path = rec->libs[i].path, *sha = rec->libs[i].sha256;
		if (r < 0 || !path)
			break;
		char *abs = sha ? kept_library(run_dir, path, sha, why, n) : NULL;
		if (!abs) {
			if (!sha)
				snprintf(why, n, "library %s has no sha256", path);
			r = -1;
			break;
		}
		if (!strcmp(path, interp) && !loader) {
			loader = executable_loader(abs, folder, why, n);
			free(abs);
			if (!loader) {
				r = -1;
				break;
			}
			continue;
		}
		if (c->spec.preload && !strcmp(path, c->spec.preload)) {
			free(c->spec.preload);
			c->spec.preload = abs;
			continue;
		}
		/* named as the loader looked it up: the basename is the soname it was found by */
		const char *base = strrchr(path, '/');
		char *link_path = xasprintf("%s/%s", folder, base ? base + 1 : path);
		unlink(link_path);
		if (symlink(abs, link_path) < 0) {
			snprintf(why, n, "cannot link %s to the kept copy of %s", link_path, path);
			r = -1;
		}
		free(link_path);
		free(abs);
	}
	if (r == 0 && !loader) {
		snprintf(why, n, "its loader %s is not among the kept libraries", interp);
		r = -1;
	}
	if (r == 0)
		r = loads_from(loader, folder, c->build.binary, why, n);
	if (r == 0) {
		sv_push(&c->spec.loader, loader);
		sv_push(&c->spec.loader, "--library-path");
		sv_push(&c->spec.loader, folder);
	}
	free(loader);
	free(interp);
	return r;
}
