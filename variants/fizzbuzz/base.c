/* base.c: FizzBuzz with its own number-to-text conversion, two output
 * buffers and vmsplice() (seed 000, step 2).  Every line still tests n
 * against 3 and 5 (with counters) and converts n digit by digit.
 *
 * usage: base [N [START]]   the lines START..N (default 1..2^32), see family.json
 */
#define _GNU_SOURCE /* vmsplice, F_SETPIPE_SZ */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

/* ---- arguments ---------------------------------------------------------- */

#define DEFAULT_N 4294967296ULL /* 2^32 lines: 33.3 GiB of output, as in seed 000 */
#define MAX_N 9999999999999999999ULL /* all 19-digit numbers */

static int parse_dec(const char *s, uint64_t *v)
{
	uint64_t x = 0;
	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		unsigned d = (unsigned)(*s - '0');
		if (x > (UINT64_MAX - d) / 10)
			return -1;
		x = x * 10 + d;
	}
	*v = x;
	return 0;
}

/* argv[1] = N (default DEFAULT_N), argv[2] = START (default 1): the lines
 * START..N, nothing if START > N. */
static void parse_args(int argc, char **argv, uint64_t *first, uint64_t *last)
{
	uint64_t n = DEFAULT_N, start = 1;
	if (argc > 3 || (argc > 1 && parse_dec(argv[1], &n) < 0) || (argc > 2 && parse_dec(argv[2], &start) < 0) ||
	    n > MAX_N || start < 1 || start > MAX_N) {
		fprintf(stderr,
			"usage: %s [N [START]]\n"
			"  prints the FizzBuzz lines START..N (decimal; N defaults to %llu, START to 1;\n"
			"  N <= %llu, 1 <= START <= %llu, no output when START > N)\n",
			argv[0], DEFAULT_N, MAX_N, MAX_N);
		exit(2);
	}
	*first = start;
	*last = n;
}

/* ---- output: vmsplice() with two buffers, write() where that is not possible
 *
 * The text is generated into one of two page-aligned buffers.  When CHUNK
 * bytes are ready they go to stdout in one piece and generation moves to the
 * other buffer.  On a pipe the piece is handed over with vmsplice(), which
 * puts references to our pages into the pipe instead of copying them, so a
 * buffer must not be written again until the reader has consumed those pages.
 *
 * Why reusing a buffer is safe: the pipe is resized to CHUNK bytes (or we
 * take its size as the chunk when it is larger and cannot be changed).  A pipe
 * of S bytes holds at most S/4096 pages, and a page-aligned chunk of C >= S
 * bytes takes at least C/4096 >= S/4096 of them.  We write into buffer A again
 * only after vmsplice() has accepted all of the chunk in buffer B that
 * followed A; B alone fills the pipe, and the pipe is FIFO, so every page of A
 * has left it by then.  After each chunk we check that the pipe did not grow
 * (a reader may resize it); if it did, we wait until it is empty and go on
 * with write(), which copies.  At start we also check the premise on this
 * kernel with these buffers: a private pipe must refuse more than its size of
 * our pages (else write() is used throughout).  This assumes the reader
 * copies the data out (read) or discards it (splice to /dev/null); a reader
 * that splices the pages on into another pipe extends the pipe beyond what we
 * can see.
 *
 * The buffers are backed by transparent huge pages where the kernel allows
 * it, which makes pinning them in vmsplice() cheaper (about 30% more
 * throughput through the pipe, measured with avx512.c).
 *
 * Where vmsplice() does not work (stdout is a file, a terminal, /dev/null, a
 * socket: EBADF or EINVAL), every chunk goes out with write() instead. */

#ifndef CHUNK
#define CHUNK (1024 * 1024) /* bytes per vmsplice(); also the pipe size we ask for */
#endif
#define PAGE 4096
#define HUGE_PAGE (2u << 20)
#define SLACK 16384 /* room for one block generated past the chunk boundary */

static struct {
	char *buf[2];
	char *base;  /* the buffer being filled */
	char *limit; /* base + chunk: flush when the fill pointer reaches it */
	size_t chunk;
	int cur;
	int splice;  /* 1: vmsplice(), 0: write() */
	int spliced; /* vmsplice() has worked at least once */
} out;

static void die_errno(const char *what)
{
	fprintf(stderr, "fizzbuzz: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void write_all(const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(1, p, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			die_errno("write");
		}
		p += w;
		n -= (size_t)w;
	}
}

/* Wait until the reader has taken everything from the pipe. */
static void wait_pipe_empty(void)
{
	for (;;) {
		int queued = 0;
		if (ioctl(1, FIONREAD, &queued) < 0)
			die_errno("cannot tell whether the pipe is empty (FIONREAD)");
		if (queued == 0)
			return;
		usleep(100);
	}
}

static void emit(char *p, size_t n)
{
	while (out.splice && n) {
		struct iovec iov = { p, n };
		ssize_t w = vmsplice(1, &iov, 1, 0);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			if (!out.spliced && (errno == EBADF || errno == EINVAL)) {
				out.splice = 0; /* not a pipe after all: copy */
				break;
			}
			die_errno("vmsplice");
		}
		out.spliced = 1;
		p += w;
		n -= (size_t)w;
	}
	if (n)
		write_all(p, n);
}

static char *alloc_buffer(size_t n)
{
	size_t size = (n + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
	char *b = aligned_alloc(HUGE_PAGE, size);
	if (!b)
		die_errno("out of memory");
	madvise(b, size, MADV_HUGEPAGE); /* a hint: no huge pages is fine too */
	return b;
}

/* The premise of the safety argument, tested: a pipe of S bytes takes at most
 * S bytes of vmspliced pages from buf (written to first, as generation will). */
static int pipe_holds_its_size(char *buf, size_t chunk)
{
	int p[2], ok = 1;
	if (pipe(p) < 0)
		return 0;
	int sz = fcntl(p[1], F_SETPIPE_SZ, (int)chunk);
	if (sz < 0)
		sz = fcntl(p[1], F_GETPIPE_SZ);
	memset(buf, 0, chunk);
	size_t total = 0;
	for (int i = 0; sz > 0 && i < 3; i++) {
		struct iovec iov = { buf, chunk };
		ssize_t w = vmsplice(p[1], &iov, 1, SPLICE_F_NONBLOCK);
		if (w <= 0)
			break;
		total += (size_t)w;
	}
	if (sz <= 0 || total > (size_t)sz)
		ok = 0;
	close(p[0]);
	close(p[1]);
	return ok;
}

static char *out_init(void)
{
	struct stat st;
	size_t chunk = CHUNK;
	if (fstat(1, &st) == 0 && S_ISFIFO(st.st_mode)) {
		int sz = fcntl(1, F_SETPIPE_SZ, CHUNK); /* EPERM above the user's limit */
		if (sz < 0)
			sz = fcntl(1, F_GETPIPE_SZ);
		if (sz > 0) {
			out.splice = 1;
			if ((size_t)sz > chunk)
				chunk = ((size_t)sz + PAGE - 1) / PAGE * PAGE;
		}
	}
	out.chunk = chunk;
	for (int i = 0; i < 2; i++)
		out.buf[i] = alloc_buffer(chunk + SLACK);
	if (out.splice && !pipe_holds_its_size(out.buf[0], chunk)) {
		fprintf(stderr, "fizzbuzz: a pipe here takes more than its size of vmspliced pages: using write()\n");
		out.splice = 0;
	}
	out.cur = 0;
	out.base = out.buf[0];
	out.limit = out.base + chunk;
	return out.base;
}

/* The fill pointer p has reached out.limit: send the chunk, carry the bytes
 * past it over to the other buffer and return the new fill pointer. */
static char *out_flush(char *p)
{
	size_t extra = (size_t)(p - out.limit);
	emit(out.base, out.chunk);
	if (out.splice) {
		int sz = fcntl(1, F_GETPIPE_SZ);
		if (sz < 0 || (size_t)sz > out.chunk) {
			wait_pipe_empty();
			out.splice = 0;
		}
	}
	out.cur ^= 1;
	char *next = out.buf[out.cur];
	memcpy(next, out.limit, extra);
	out.base = next;
	out.limit = next + out.chunk;
	return next + extra;
}

static void out_finish(char *p)
{
	emit(out.base, (size_t)(p - out.base));
}

/* ---- FizzBuzz -------------------------------------------------------------- */

/* n as decimal text ending at end; returns where the text starts. */
static char *utoa_back(char *end, uint64_t n)
{
	do {
		*--end = (char)('0' + n % 10);
		n /= 10;
	} while (n);
	return end;
}

int main(int argc, char **argv)
{
	uint64_t first, last;
	parse_args(argc, argv, &first, &last);
	char *p = out_init();
	unsigned m3 = (unsigned)(first % 3), m5 = (unsigned)(first % 5);
	char tmp[24];
	for (uint64_t n = first; n <= last; n++) {
		if (m3 == 0 && m5 == 0) {
			memcpy(p, "FizzBuzz\n", 9);
			p += 9;
		} else if (m3 == 0) {
			memcpy(p, "Fizz\n", 5);
			p += 5;
		} else if (m5 == 0) {
			memcpy(p, "Buzz\n", 5);
			p += 5;
		} else {
			char *s = utoa_back(tmp + sizeof(tmp) - 1, n);
			tmp[sizeof(tmp) - 1] = '\n';
			size_t len = (size_t)(tmp + sizeof(tmp) - s);
			memcpy(p, s, len);
			p += len;
		}
		if (++m3 == 3)
			m3 = 0;
		if (++m5 == 5)
			m5 = 0;
		if (p >= out.limit)
			p = out_flush(p);
	}
	out_finish(p);
	return 0;
}
