/* yes/vmsplice: hands pages to the pipe with vmsplice() instead of copying
 * them with write(), with the pipe's size set to the chunk (seed 000).
 *
 * Two page-aligned chunks are used in turn, as the seed does.  Why it is
 * safe: vmsplice() lends the pages to the pipe, so a page must not change
 * until the reader has taken it; here the chunks are written once, before
 * the first vmsplice(), and never change again.  With the pipe exactly one
 * chunk large, a chunk is handed over only when the previous one has
 * been drained.
 * On a stdout that is not a pipe, vmsplice() cannot work: it falls back to
 * write() of the same chunks.
 * Usage: vmsplice [LINES [STRING...]]; env YES_CHUNK sets the chunk bytes
 * (default YES_CHUNK_DEFAULT: 1 MiB here, the seed's fastest setting;
 * 256 KiB, the seed's first, in vmsplice_256k.c). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "common.h"

#ifndef YES_CHUNK_DEFAULT
#define YES_CHUNK_DEFAULT (1024 * 1024)
#endif

static int out_all(int use_vmsplice, char *p, size_t n)
{
	while (n) {
		ssize_t w;
		if (use_vmsplice) {
			struct iovec iov = { p, n };
			w = vmsplice(1, &iov, 1, 0);
		} else {
			w = write(1, p, n);
		}
		if (w < 0) {
			if (errno == EINTR)
				continue;
			perror(use_vmsplice ? "vmsplice" : "write");
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long long lines;
	size_t len;
	char *line = yes_parse(argc, argv, &lines, &len);
	size_t chunk = YES_CHUNK_DEFAULT;
	const char *env = getenv("YES_CHUNK");
	if (env && atol(env) >= 4096)
		chunk = (size_t)atol(env);
	size_t per = chunk / len ? chunk / len : 1;
	size_t bytes = per * len;
	char *bufs[2];
	for (int b = 0; b < 2; b++) {
		if (posix_memalign((void **)&bufs[b], 4096, bytes + 4096)) {
			perror("posix_memalign");
			return 1;
		}
		for (size_t i = 0; i < per; i++)
			memcpy(bufs[b] + i * len, line, len);
	}
	struct stat st;
	int is_pipe = fstat(1, &st) == 0 && S_ISFIFO(st.st_mode);
	if (is_pipe)
		fcntl(1, F_SETPIPE_SZ, (int)bytes); /* best effort: pipe-max-size may forbid it */
	int which = 0;
	while (lines) {
		unsigned long long k = lines < per ? lines : per;
		if (out_all(is_pipe, bufs[which], (size_t)k * len) < 0)
			return 1;
		which ^= 1;
		lines -= k;
	}
	return 0;
}
