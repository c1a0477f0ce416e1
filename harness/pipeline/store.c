/* store.c: see store.h */
#define _GNU_SOURCE
#include "pipeline/store.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "core/util.h"

char *stored_binary_path(const char *run_dir, const char *sha256)
{
	return xasprintf("%s/bin/%s", run_dir, sha256);
}

int copy_executable(const char *from, const char *to)
{
	size_t len;
	char *data = read_file(from, &len);
	if (!data)
		return -1;
	int r = write_file_atomic(to, data, len);
	free(data);
	return r < 0 ? -1 : chmod(to, 0755);
}

int keep_binary(const char *from, const char *to)
{
	/* another file system: a copy */
	if (link(from, to) < 0)
		return copy_executable(from, to);
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

char *stored_library_path(const char *run_dir, const char *sha256)
{
	return xasprintf("%s/lib/%s", run_dir, sha256);
}

int keep_library(const char *from, const char *to)
{
	/* a library is listed by its soname, most often a symbolic link to
	 * the versioned file: the link is to that file, not to the symlink */
	if (linkat(AT_FDCWD, from, AT_FDCWD, to, AT_SYMLINK_FOLLOW) == 0)
		return 0;
	return copy_executable(from, to);
}

int run_keep_libraries(const struct plan *p, const char *run_dir)
{
	char *dir = xasprintf("%s/lib", run_dir);
	int kept = 0, made = 0;
	for (size_t i = 0; i < p->n; i++) {
		const json_t *libs = p->cells[i].build.libraries;
		size_t k;
		const json_t *l;
		json_array_foreach(libs, k, l) {
			const char *path = json_string_value(json_object_get(l, "path"));
			const char *sha = json_string_value(json_object_get(l, "sha256"));
			if (!path || !sha || strlen(sha) != 64)
				continue;
			if (!made) {
				if (mkdir_p(dir, 0755) < 0) {
					warning("cannot create %s: %s; the run keeps no libraries", dir, strerror(errno));
					free(dir);
					return kept;
				}
				made = 1;
			}
			char *dst = stored_library_path(run_dir, sha), hex[65];
			struct stat st;
			if (stat(dst, &st) < 0) {
				/* the file as listed, or none: a library replaced since is not kept under its old sha256 */
				if (keep_library(path, dst) < 0)
					warning("cannot keep library %s as %s: %s", path, dst, strerror(errno));
				else if (sha256_file_hex(dst, hex, NULL) < 0 || strcmp(hex, sha)) {
					warning("library %s changed while the run listed it: not kept", path);
					unlink(dst);
				} else
					kept++;
			}
			free(dst);
		}
	}
	free(dir);
	return kept;
}

/* The files under dir (relative paths into files), depth first, names
 * starting with '.' too (the build cache's key hashes every file of a
 * build-command family: build_words.c), links to files and folders
 * followed, a dangling link listed as itself; -1 past the limits (a link
 * back up a folder among them: STORE_FAMILY_MAX_DEPTH folders deep at
 * most). */
#define STORE_FAMILY_MAX_DEPTH 16
static int list_files(const char *root, const char *rel, struct strvec *files, uint64_t *bytes, int depth)
{
	if (depth > STORE_FAMILY_MAX_DEPTH)
		return -1;
	char *dir = *rel ? xasprintf("%s/%s", root, rel) : xstrdup(root);
	DIR *d = opendir(dir);
	int r = d ? 0 : -1;
	struct dirent *e;
	while (d && r == 0 && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		char *path = xasprintf("%s/%s", dir, e->d_name), *sub = *rel ? xasprintf("%s/%s", rel, e->d_name)
									 : xstrdup(e->d_name);
		struct stat st;
		if (stat(path, &st) < 0) {
			/* a dangling link (or a file gone since readdir): kept as a link where it is one */
			if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
				sv_push(files, sub);
		} else if (S_ISDIR(st.st_mode)) {
			r = list_files(root, sub, files, bytes, depth + 1);
		} else if (S_ISREG(st.st_mode)) {
			sv_push(files, sub);
			*bytes += (uint64_t)st.st_size;
		}
		if (files->n > STORE_FAMILY_MAX_FILES || *bytes > STORE_FAMILY_MAX_BYTES)
			r = -1;
		free(path);
		free(sub);
	}
	if (d)
		closedir(d);
	free(dir);
	return r;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A dangling link, made again at dst (its target as it is). */
static int keep_link(const char *from, const char *dst)
{
	char target[4096];
	ssize_t n = readlink(from, target, sizeof(target) - 1);
	if (n < 0)
		return -1;
	target[n] = 0;
	unlink(dst);
	return symlink(target, dst);
}

/* One file of the family: copied to dst (NULL: not kept), its sha256 into
 * hex ("link" for a dangling link, as the build cache's key has it). */
static int keep_one(const char *from, const char *dst, char hex[65])
{
	size_t len = 0;
	char *data = read_file(from, &len);
	struct stat st;
	if (!data) {
		if (lstat(from, &st) < 0 || !S_ISLNK(st.st_mode))
			return -1;
		strcpy(hex, "link");
		return dst ? keep_link(from, dst) : 0;
	}
	sha256_hex(data, len, hex);
	int r = 0;
	if (dst) {
		char *slash = strrchr(dst, '/');
		*slash = 0;
		r = mkdir_p(dst, 0755);
		*slash = '/';
		if (r == 0)
			r = write_file_atomic(dst, data, len);
		/* the copy keeps the file's mode: a family's scripts (an input
		 * generator, a check command) must stay runnable from it */
		if (r == 0 && stat(from, &st) == 0)
			r = chmod(dst, st.st_mode & 07777);
	}
	free(data);
	return r;
}

/* Family f's folder in one walk: each file read once, copied into to
 * (NULL: not kept) with its sha256 into files, and the family's content
 * hash into hash: sha256 over its files' paths and sha256s in path order
 * (what the history tells code changes by).  0; 1 when the copy failed
 * (the hash is made all the same); -1 past list_files' limits or an
 * unreadable file (no hash). */
static int walk_family(const struct family *f, const char *to, json_t *files, char hash[65])
{
	struct strvec list = STRVEC_INIT;
	uint64_t bytes = 0;
	if (list_files(f->dir, "", &list, &bytes, 0) < 0) {
		if (to)
			warning("family %s: %s is not kept in the run folder (more than %u files, %u MiB or %d folders deep, "
				"or unreadable)",
				f->name, f->dir, STORE_FAMILY_MAX_FILES, STORE_FAMILY_MAX_BYTES >> 20, STORE_FAMILY_MAX_DEPTH);
		sv_clear(&list);
		return -1;
	}
	if (list.n)
		qsort(list.v, list.n, sizeof(char *), cmp_str);
	struct strbuf sb = STRBUF_INIT;
	int r = 0, copied = to != NULL;
	for (size_t i = 0; i < list.n && r == 0; i++) {
		char *from = xasprintf("%s/%s", f->dir, list.v[i]), *dst = copied ? xasprintf("%s/%s", to, list.v[i]) : NULL;
		char hex[65];
		int k = keep_one(from, dst, hex);
		if (k < 0 && dst) {
			warning("family %s: cannot keep %s in the run folder: %s", f->name, from, strerror(errno));
			copied = 0;
			k = keep_one(from, NULL, hex); /* the hash goes on without the copy */
		}
		if (k < 0) {
			r = -1;
		} else {
			sb_addf(&sb, "%s  %s\n", hex, list.v[i]);
			if (copied)
				json_object_set_new(files, list.v[i], json_string(hex));
		}
		free(from);
		free(dst);
	}
	if (r == 0)
		sha256_hex(sb.buf ? sb.buf : "", sb.len, hash);
	sb_release(&sb);
	sv_clear(&list);
	return r < 0 ? -1 : to && !copied ? 1 : 0;
}

json_t *run_keep_families(const struct plan *p, const char *run_dir)
{
	json_t *kept = json_object();
	char *ours = realpath(project_root(), NULL);
	struct strvec seen = STRVEC_INIT; /* each family once, kept or not (its cells share it) */
	for (size_t i = 0; i < p->n; i++) {
		const struct family *f = p->cells[i].spec.family;
		if (!f || sv_contains(&seen, f->name))
			continue;
		sv_push(&seen, f->name);
		char *dir = f->dir ? realpath(f->dir, NULL) : NULL;
		size_t n = ours ? strlen(ours) : 0;
		/* the project's own variants/ are its checkout's: nothing to keep */
		int inside = dir && ours && !strncmp(dir, ours, n) && !strncmp(dir + n, "/variants/", 10);
		char *to = dir && !inside ? xasprintf("%s/families/%s", run_dir, f->name) : NULL;
		json_t *files = json_object();
		char hash[65];
		int w = f->dir ? walk_family(f, to, files, hash) : -1;
		json_t *rec = json_object();
		if (to && w == 0)
			json_object_set_new(rec, "kept", json_sprintf("families/%s", f->name));
		if (to && w == 0)
			json_object_set(rec, "files", files);
		if (w >= 0)
			json_object_set_new(rec, "hash", json_string(hash));
		if (json_object_size(rec))
			json_object_set_new(kept, f->name, rec);
		else
			json_decref(rec);
		json_decref(files);
		free(to);
		free(dir);
	}
	free(ours);
	sv_clear(&seen);
	return kept;
}
