/* fixture_tree.h: temporary trees for the unit tests that read a /sys-like
 * tree (test_doctor, test_thermal, test_topology): write a file in one,
 * copy a fixture into a fresh one, remove one; and capture() of what a
 * command prints.
 *
 * Header-only (static functions): the Makefile builds each tests/unit/X.c as
 * its own program.  The protocol, for a test X.c:
 *
 *   #define _GNU_SOURCE                 (first: nftw's FTW_PHYS)
 *   ... <cmocka.h> and its prerequisites, "util.h" ...
 *   #define FIXTURE_TREE_NAME "X"       (temporary trees are /tmp/fb-X-XXXXXX)
 *   #include "fixture_tree.h"
 *
 *   char *root = temp_copy(FIX "ryzen");   a copy of a fixture (NULL: empty)
 *   put(root, "a/b/file", "text");         root/a/b/file = "text\n"
 *   rm_tree(root); free(root);
 *   char *out = capture(cmd_x, argc, argv, &rc);   what cmd_x printed
 *
 * Failures are cmocka assertions.  Functions a test does not use are marked
 * unused.
 */
#ifndef FIXTURE_TREE_H
#define FIXTURE_TREE_H

#ifndef _GNU_SOURCE
#error "#define _GNU_SOURCE before any #include (fixture_tree.h needs nftw's FTW_PHYS)"
#endif
#ifndef assert_int_equal
#error "#include <cmocka.h> before \"fixture_tree.h\""
#endif
#ifndef FIXTURE_TREE_NAME
#error "#define FIXTURE_TREE_NAME (the X in /tmp/fb-X-XXXXXX) before #include \"fixture_tree.h\""
#endif

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/util.h"

/* root/rel (its directories made as needed) holding text and a newline */
__attribute__((unused)) static void put(const char *root, const char *rel, const char *text)
{
	char *path = xasprintf("%s/%s", root, rel);
	char *dir = xstrdup(path);
	*strrchr(dir, '/') = '\0';
	assert_int_equal(mkdir_p(dir, 0755), 0);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", text);
	fclose(f);
	free(dir);
	free(path);
}

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(p);
}

__attribute__((unused)) static void rm_tree(const char *root)
{
	nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static const char *copy_src, *copy_dst;

static int copy_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	char *to = xasprintf("%s%s", copy_dst, p + strlen(copy_src));
	int r = 0;
	if (flag == FTW_D) {
		r = mkdir_p(to, 0755);
	} else if (flag == FTW_F) {
		size_t len;
		char *data = read_file(p, &len);
		FILE *f = fopen(to, "w");
		r = data && f && fwrite(data, 1, len, f) == len ? 0 : -1;
		if (f)
			fclose(f);
		free(data);
	}
	free(to);
	return r;
}

/* A fresh temporary copy of a fixture tree (or an empty tree for NULL). */
__attribute__((unused)) static char *temp_copy(const char *fixture)
{
	char tmpl[] = "/tmp/fb-" FIXTURE_TREE_NAME "-XXXXXX";
	assert_non_null(mkdtemp(tmpl));
	if (fixture) {
		copy_src = fixture;
		copy_dst = tmpl;
		assert_int_equal(nftw(fixture, copy_one, 16, FTW_PHYS), 0);
	}
	return xstrdup(tmpl);
}

/* ---- a command's output ---- */

/* What fn(argc, argv) writes to stdout (malloc'd), through a temporary file;
 * its return value in *rc. */
__attribute__((unused)) static char *capture(int (*fn)(int, char **), int argc, char **argv, int *rc)
{
	char path[] = "/tmp/fb-" FIXTURE_TREE_NAME "-out-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	fflush(stdout);
	int saved = dup(1);
	dup2(fd, 1);
	*rc = fn(argc, argv);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	close(fd);
	char *text = read_file(path, NULL);
	unlink(path);
	return text;
}

#endif /* FIXTURE_TREE_H */
