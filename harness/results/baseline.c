/* baseline.c: see baseline.h */
#define _GNU_SOURCE
#include "results/baseline.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "pipeline/store.h"
#include "results/reader.h"
#include "core/util.h"

char *baseline_path(const char *dir, const char *name, const char *profile)
{
	if (dir)
		return xasprintf("%s/%s/%s", dir, profile, name);
	return xasprintf("%s/baselines/%s/%s", project_root(), profile, name);
}

/* A name that stays one folder: no slash, no leading dot, not empty. */
static int plain_name(const char *s)
{
	return s && *s && *s != '.' && !strchr(s, '/');
}


/* Only a whole run under plain names may become a baseline. */
static int check_run(const char *run_path, const struct results_run *run, const char *name, const char *profile)
{
	if (run->settings.interrupted)
		return error("%s was interrupted: its cells are incomplete, it cannot be a baseline", run_path);
	if (!plain_name(profile) || !plain_name(name))
		return error("baseline name '%s' and cpu profile '%s' must be plain names (no '/', no leading '.')", name,
			     profile ? profile : "(none)");
	return 0;
}

/* The libraries the run kept for cell c (pipeline/store.h RUN/lib), into
 * TMP/lib: a library step of the next night is measured beside them. */
static void keep_libraries(const struct results_cell *c, const char *run_dir, const char *tmp)
{
	for (size_t i = 0; i < c->nlibs; i++) {
		const char *sha = c->libs[i].sha256;
		if (!sha || !plain_name(sha))
			continue;
		char *from = stored_library_path(run_dir, sha), *to = stored_library_path(tmp, sha), *dir = NULL;
		struct stat st;
		if (stat(from, &st) == 0 && stat(to, &st) < 0) {
			dir = xasprintf("%s/lib", tmp);
			if (mkdir_p(dir, 0755) < 0 || keep_library(from, to) < 0)
				warning("cannot keep library %.12s in the baseline: %s", sha, strerror(errno));
		}
		free(dir);
		free(from);
		free(to);
	}
}

size_t kept_binaries_copy(const struct results_run *run, const char *tmp)
{
	size_t kept = 0, missing = 0;
	const char *run_dir = run->dir;
	for (size_t i = 0; i < run->ncells; i++) {
		const struct results_cell *c = &run->cells[i];
		const char *sha = c->sha256;
		if (!sha || !plain_name(sha))
			continue;
		char *from = stored_binary_path(run_dir, sha), *to = stored_binary_path(tmp, sha);
		struct stat st;
		if (stat(to, &st) == 0)
			; /* a twin cell's binary, already copied */
		else if (keep_binary(from, to) == 0)
			kept++;
		else
			missing++;
		free(from);
		free(to);
		keep_libraries(c, run_dir, tmp);
	}
	if (missing)
		warning("%zu binaries are not kept in %s/bin: --confirm cannot measure those cells again", missing,
			run_dir);
	return kept;
}

static int copy_results(const char *run_dir, const char *tmp)
{
	char *src = xasprintf("%s/results.json", run_dir), *to = xasprintf("%s/results.json", tmp);
	size_t len;
	char *text = read_file(src, &len);
	int wr = text ? write_file_atomic(to, text, len) : -1;
	if (wr < 0)
		error("cannot copy %s into the baseline", src);
	free(text);
	free(to);
	free(src);
	return wr;
}

/* Swap in whole: the old baseline steps aside to OLD, the new one takes its
 * name, and the old one goes only once the new one is in place. */
static int swap_in(const char *tmp, const char *dest, const char *old)
{
	struct stat st;
	int had = stat(dest, &st) == 0;
	if ((had && rename(dest, old) < 0) || rename(tmp, dest) < 0) {
		error("cannot put the baseline in place at %s: %s", dest, strerror(errno));
		if (had)
			rename(old, dest);
		return -1;
	}
	if (had)
		remove_tree(old);
	return 0;
}

int baseline_save(const char *run_path, const char *dir, const char *name_opt)
{
	struct results_run run;
	if (results_open(run_path, &run) < 0)
		return EXIT_USAGE;
	const char *run_dir = run.dir;
	int code = EXIT_USAGE;
	char *dest = NULL, *tmp = NULL, *old = NULL, *bin = NULL;
	const char *profile = run.cpu_profile;
	const char *name = name_opt ? name_opt : "latest";
	if (check_run(run_path, &run, name, profile) < 0)
		goto out;
	dest = baseline_path(dir, name, profile);
	char *parent = xasprintf("%.*s", (int)(strrchr(dest, '/') - dest), dest);
	tmp = xasprintf("%s/.%s.new.%ld", parent, name, (long)getpid());
	old = xasprintf("%s/.%s.old.%ld", parent, name, (long)getpid());
	free(parent);
	bin = xasprintf("%s/bin", tmp);
	if (mkdir_p(bin, 0755) < 0) {
		error("cannot create %s: %s", bin, strerror(errno));
		goto out;
	}
	size_t kept = kept_binaries_copy(&run, tmp);
	if (copy_results(run_dir, tmp) < 0 || swap_in(tmp, dest, old) < 0)
		goto out;
	printf("baseline %s of cpu profile %s: %s (run %s, %zu binaries)\n", name, profile, dest,
	       run.id, kept);
	code = 0;
out:
	if (code && tmp)
		remove_tree(tmp);
	free(dest);
	free(tmp);
	free(old);
	free(bin);
	results_close(&run);
	return code;
}
