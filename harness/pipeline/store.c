/* store.c: see store.h */
#define _GNU_SOURCE
#include "pipeline/store.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/util.h"
#include "system/allocators.h"

char *stored_binary_path(const char *run_dir, const char *sha256)
{
	return xasprintf("%s/bin/%s", run_dir, sha256);
}

int keep_binary(const char *from, const char *to)
{
	if (link(from, to) < 0) {
		/* another file system: a copy written beside and renamed */
		size_t len;
		char *data = read_file(from, &len);
		if (!data)
			return -1;
		int r = write_file_atomic(to, data, len);
		free(data);
		if (r < 0)
			return -1;
	}
	return chmod(to, 0755);
}

int run_keep_binaries(const struct plan *p, const char *run_dir)
{
	char *bin = xasprintf("%s/bin", run_dir);
	int stored = 0, made = 0;
	for (size_t i = 0; i < p->n; i++) {
		const struct cell *c = &p->cells[i];
		if (!c->build.binary || !c->build.sha256[0])
			continue;
		if (!made) {
			if (mkdir_p(bin, 0755) < 0) {
				warning("cannot create %s: %s; the run keeps no binaries", bin, strerror(errno));
				break;
			}
			made = 1;
		}
		char *dst = stored_binary_path(run_dir, c->build.sha256);
		struct stat st;
		if (stat(dst, &st) == 0 || !strcmp(dst, c->build.binary)) {
			free(dst);
			continue;
		}
		if (keep_binary(c->build.binary, dst) == 0)
			stored++;
		else
			warning("cannot keep %s as %s: %s", c->build.binary, dst, strerror(errno));
		free(dst);
	}
	free(bin);
	return stored;
}

static const json_t *find_cell(const json_t *run, const char *id)
{
	size_t i;
	json_t *c;
	json_array_foreach(json_object_get(run, "cells"), i, c) {
		const char *cid = json_string_value(json_object_get(c, "id"));
		if (cid && !strcmp(cid, id))
			return c;
	}
	return NULL;
}

static int args_equal(const json_t *argv, const struct strvec *sv)
{
	if (!json_is_array(argv) || json_array_size(argv) != sv->n)
		return 0;
	for (size_t i = 0; i < sv->n; i++) {
		const char *s = json_string_value(json_array_get(argv, i));
		if (!s || strcmp(s, sv->v[i]))
			return 0;
	}
	return 1;
}

int run_use_stored_binaries(struct plan *p, const char *from_dir, const json_t *old)
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
		const json_t *rec = find_cell(old, c->spec.id);
		const char *sha = json_string_value(json_object_get(json_object_get(rec, "binary"), "sha256"));
		if (!rec) {
			cell_set_status(c, CELL_SKIPPED, "not in %s", from_dir);
			continue;
		}
		if (!sha) {
			cell_set_status(c, CELL_SKIPPED, "no binary in %s (status %s)", from_dir,
					json_string_value(json_object_get(rec, "status")));
			continue;
		}
		char *path = stored_binary_path(from_dir, sha);
		char got[65];
		uint64_t bytes;
		if (sha256_file_hex(path, got, &bytes) < 0) {
			cell_set_status(c, CELL_SKIPPED, "binary %.12s is not stored in %s/bin", sha, from_dir);
			free(path);
			continue;
		}
		if (strcmp(got, sha)) {
			cell_set_status(c, CELL_SKIPPED, "stored binary %s has changed (sha256 %.12s)", path, got);
			free(path);
			continue;
		}
		free(c->build.binary);
		c->build.binary = path;
		memcpy(c->build.sha256, got, sizeof(got));
		c->build.bytes = bytes;
		if (!args_equal(json_object_get(rec, "argv"), &c->spec.run_args))
			sv_pushf(&c->warnings, "arguments differ from those measured in %s (the suite changed)", from_dir);
	}
	return 0;
}

static int json_pin(const json_t *pin, const char *key)
{
	json_t *v = json_object_get(pin, key);
	return json_is_integer(v) ? (int)json_integer_value(v) : PIN_NONE;
}

int replay_cell_init(struct cell *c, const json_t *rec, const char *run_dir, struct family *fams, size_t nfams,
		     char *why, size_t n)
{
	memset(c, 0, sizeof(*c));
	cell_reset(c); /* the outcome "not run yet" */
	struct cell_spec *s = &c->spec;
	s->pin.producer = s->pin.consumer = s->pin.single = PIN_NONE;
	s->expected_bytes = UINT64_MAX;
	const char *id = json_string_value(json_object_get(rec, "id"));
	const char *fam = json_string_value(json_object_get(rec, "family"));
	const char *var = json_string_value(json_object_get(rec, "variant"));
	const char *sha = json_string_value(json_object_get(json_object_get(rec, "binary"), "sha256"));
	const char *alloc = json_string_value(json_object_get(rec, "allocator"));
	s->id = xstrdup(id ? id : "?");
	if (!fam || !var) {
		snprintf(why, n, "no family or variant in the record");
		return -1;
	}
	if (json_is_true(json_object_get(rec, "emulated"))) {
		snprintf(why, n, "emulated: not measured again");
		return -1;
	}
	for (size_t i = 0; i < nfams && !s->family; i++)
		if (!strcmp(fams[i].name, fam))
			s->family = &fams[i];
	if (!s->family) {
		snprintf(why, n, "family %s is not under variants/ any more", fam);
		return -1;
	}
	for (size_t i = 0; i < s->family->nvariants; i++)
		if (!strcmp(s->family->variants[i].name, var))
			s->variant = &s->family->variants[i];
	for (size_t i = 0; !s->variant && i < s->family->nreferences; i++)
		if (!strcmp(s->family->references[i].name, var))
			s->reference = &s->family->references[i];
	if (!s->variant && !s->reference) {
		snprintf(why, n, "%s/%s is not in the family any more", fam, var);
		return -1;
	}
	if (s->variant) {
		if (!sha) {
			snprintf(why, n, "no binary recorded");
			return -1;
		}
		c->build.binary = stored_binary_path(run_dir, sha);
		if (access(c->build.binary, X_OK) < 0) {
			snprintf(why, n, "binary %.12s is not stored in %s/bin", sha, run_dir);
			return -1;
		}
	}
	size_t i;
	json_t *a;
	json_array_foreach(json_object_get(rec, "argv"), i, a) sv_push(&s->run_args, json_string_value(a));
	json_t *sz = json_object_get(rec, "size");
	s->size = json_is_integer(sz) ? (uint64_t)json_integer_value(sz) : 0;
	json_t *bytes = json_object_get(rec, "bytes");
	if (json_is_integer(bytes))
		s->expected_bytes = (uint64_t)json_integer_value(bytes);
	const char *consumer = json_string_value(json_object_get(rec, "consumer"));
	if (consumer)
		s->consumer = xstrdup(consumer);
	s->allocator = xstrdup(alloc ? alloc : "glibc");
	if (strcmp(s->allocator, "glibc")) {
		const char *lib = allocator_library(s->allocator, why, n);
		if (!lib)
			return -1;
		if (*lib)
			s->preload = xstrdup(lib);
	}
	json_t *pin = json_object_get(rec, "pin");
	s->pin.producer = json_pin(pin, "producer");
	s->pin.consumer = json_pin(pin, "consumer");
	s->pin.single = json_pin(pin, "single");
	return 0;
}

void replay_cell_free(struct cell *c)
{
	cell_reset(c);
	free(c->spec.id);
	free(c->spec.consumer);
	free(c->spec.allocator);
	free(c->spec.preload);
	sv_clear(&c->spec.run_args);
	memset(c, 0, sizeof(*c));
}
