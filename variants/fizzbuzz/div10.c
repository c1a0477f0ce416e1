/* div10.c: FizzBuzz that only counts tens (seed 000, step 5, "drop one digit").
 *
 * In a block of 30 lines the last digit of every number is fixed by its place,
 * so the block is a template: words, last digits and newlines never change.
 * What changes is the prefix n / 10, the same for ten numbers in a row; it is
 * kept as text and incremented in place three times per block.  Short pieces
 * are copied in fixed 16- and 24-byte units (the next copy overwrites the
 * excess), so no copy has a variable length.  Output as in base.c.
 *
 * usage: div10 [N [START]]   the lines START..N (default 1..2^32), see family.json
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

/* ---- lines and digit lengths ---------------------------------------------- */

static const uint64_t pow10_tab[20] = {
	1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL, 100000000ULL,
	1000000000ULL, 10000000000ULL, 100000000000ULL, 1000000000000ULL, 10000000000000ULL,
	100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL, 100000000000000000ULL,
	1000000000000000000ULL, 10000000000000000000ULL,
};

/* The number of decimal digits of n (1..19 for n <= MAX_N). */
static int digits(uint64_t n)
{
	int d = 1;
	while (d < 19 && n >= pow10_tab[d])
		d++;
	return d;
}

/* One line the plain way: the heads and tails that do not fill a block. */
static char *put_line(char *p, uint64_t n)
{
	if (n % 15 == 0) {
		memcpy(p, "FizzBuzz\n", 9);
		return p + 9;
	}
	if (n % 3 == 0) {
		memcpy(p, "Fizz\n", 5);
		return p + 5;
	}
	if (n % 5 == 0) {
		memcpy(p, "Buzz\n", 5);
		return p + 5;
	}
	char t[24];
	int i = 23;
	t[i] = '\n';
	do {
		t[--i] = (char)('0' + n % 10);
		n /= 10;
	} while (n);
	memcpy(p, t + i, (size_t)(24 - i));
	return p + (24 - i);
}

/* ---- blocks of 30 -------------------------------------------------------------- */

/* Add 1 to the decimal text t[0..d-1]; the caller makes sure it stays d digits. */
static inline void inc_text(char *t, int d)
{
	char *q = t + d - 1;
	while (*q == '9')
		*q-- = '0';
	(*q)++;
}

#define PAD16 "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0"
/* the prefix, then its last digit and the words up to the next number */
#define NUM(tail) (memcpy(p, pre, 24), p += d, memcpy(p, tail PAD16, 16), p += sizeof(tail) - 1)

/* count blocks starting at s = 10 (mod 30), all numbers len digits long. */
static char *run_blocks(char *p, uint64_t s, int len, uint64_t count)
{
	char pre[32] = { 0 };
	int d = len - 1;
	uint64_t v = s / 10;
	for (int i = d - 1; i >= 0; i--, v /= 10)
		pre[i] = (char)('0' + v % 10);
	for (uint64_t b = 0; b < count; b++) {
		if (b)
			inc_text(pre, d); /* not after the last block: it may need d + 1 digits */
		memcpy(p, "Buzz\n" PAD16, 16);
		p += 5;
		NUM("1\nFizz\n");
		NUM("3\n");
		NUM("4\nFizzBuzz\n");
		NUM("6\n");
		NUM("7\nFizz\n");
		NUM("9\nBuzz\nFizz\n");
		inc_text(pre, d);
		NUM("2\n");
		NUM("3\nFizz\nBuzz\n");
		NUM("6\nFizz\n");
		NUM("8\n");
		NUM("9\nFizzBuzz\n");
		inc_text(pre, d);
		NUM("1\n");
		NUM("2\nFizz\n");
		NUM("4\nBuzz\nFizz\n");
		NUM("7\n");
		NUM("8\nFizz\n");
		if (p >= out.limit)
			p = out_flush(p);
	}
	return p;
}

/* ---- the driver -------------------------------------------------------------
 * Blocks of 30 lines start at numbers s = 10 (mod 30); inside one digit length
 * [10^(L-1), 10^L) they tile the range exactly (10^(L-1) = 10 (mod 30) and
 * 9 * 10^(L-1) is a multiple of 30), so a block never straddles a change of
 * length.  Lines before the first whole block and after the last one (at most
 * 29 each, plus 1..9) are written one by one. */

int main(int argc, char **argv)
{
	uint64_t first, last;
	parse_args(argc, argv, &first, &last);
	char *p = out_init();
	uint64_t n = first;
	while (n <= last) {
		if (n >= 10 && n % 30 == 10 && last - n >= 29) {
			int len = digits(n);
			uint64_t seg_last = pow10_tab[len] - 1;
			if (seg_last > last)
				seg_last = last;
			uint64_t blocks = (seg_last - n + 1) / 30;
			p = run_blocks(p, n, len, blocks);
			n += 30 * blocks;
			continue;
		}
		p = put_line(p, n);
		n++;
		if (p >= out.limit)
			p = out_flush(p);
	}
	out_finish(p);
	return 0;
}
