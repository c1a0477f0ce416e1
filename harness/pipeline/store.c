/* store.c: see store.h */
#define _GNU_SOURCE
#include "pipeline/store.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/util.h"

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
