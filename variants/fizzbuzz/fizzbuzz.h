/* fizzbuzz.h: the code the FizzBuzz variants from base.c on share: argument
 * parsing, output through vmsplice() with two buffers, the numbers' digit
 * lengths, one line the plain way, and the driver that cuts 1..N into blocks.
 *
 * Header-only (static functions and macros), so that each variant stays one
 * translation unit: the harness builds `cc FLAGS variants/fizzbuzz/X.c`, and
 * this file, beside the variants, is part of the build cache key.  simple.c
 * (printf) does not use it.
 *
 * The protocol, for a variant X.c:
 *
 *   #define _GNU_SOURCE        (first, before any #include: vmsplice, F_SETPIPE_SZ)
 *   #define DEFAULT_N ...ULL   (N without arguments: family.json's default_size)
 *   #include "fizzbuzz.h"
 *
 *   parse_args(argc, argv, &first, &last);   the lines first..last
 *   char *p = out_init();                    the fill pointer
 *   ... write text at p, advance p ...
 *   if (p >= out.limit)                      at least once per SLACK bytes
 *           p = out_flush(p);
 *   ...
 *   out_finish(p);
 *
 * Between two checks of out.limit a variant may write at most SLACK bytes past
 * it, stores that run beyond the end of the text included (the text past the
 * limit is carried over to the other buffer, the rest is scratch).  It writes
 * only at and after the fill pointer that out_init() or out_flush() returned
 * last: out_flush() hands the buffer before it to the pipe, which may still
 * hold references to its pages (see "Why reusing a buffer is safe" below).
 *
 * A variant that writes whole blocks of lines defines its block function and
 * lets BLOCKS_MAIN (the driver, at the end of this file) define main(): the
 * protocol's loop, with put_line() for the lines outside whole blocks.
 * base.c writes its own main() and uses neither put_line() nor digits(),
 * which are therefore marked unused.
 */
#ifndef FIZZBUZZ_H
#define FIZZBUZZ_H

#ifndef _GNU_SOURCE
#error "#define _GNU_SOURCE before any #include (fizzbuzz.h needs vmsplice, F_SETPIPE_SZ)"
#endif

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

/* DEFAULT_N, the N without arguments, comes from the variant: family.json's
 * default_size, which tests/e2e/fizzbuzz_variants.bats finds in every X.c. */
#ifndef DEFAULT_N
#error "#define DEFAULT_N (family.json's default_size) before #include \"fizzbuzz.h\""
#endif
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

/* ---- lines and digit lengths ----------------------------------------------
 * For BLOCKS_MAIN; base.c converts every number itself, hence "unused". */

__attribute__((unused)) static const uint64_t pow10_tab[20] = {
	1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL, 100000000ULL,
	1000000000ULL, 10000000000ULL, 100000000000ULL, 1000000000000ULL, 10000000000000ULL,
	100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL, 100000000000000000ULL,
	1000000000000000000ULL, 10000000000000000000ULL,
};

/* The number of decimal digits of n (1..19 for n <= MAX_N). */
__attribute__((unused)) static int digits(uint64_t n)
{
	int d = 1;
	while (d < 19 && n >= pow10_tab[d])
		d++;
	return d;
}

/* One line the plain way: the heads and tails that do not fill a block. */
__attribute__((unused)) static char *put_line(char *p, uint64_t n)
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

/* ---- the driver -------------------------------------------------------------
 * BLOCKS_MAIN(block, start, run_blocks) defines main() for the variants that
 * write blocks of lines: block lines per block (30 or 300, a multiple of 15
 * and of 10, so the words and the last digit of every line depend only on its
 * place in the block), the blocks starting at numbers s = start (mod block),
 * where start (10 or 100) is a power of ten.  Inside one digit length
 * [10^(L-1), 10^L) with 10^(L-1) >= start they tile the range exactly
 * (10^(L-1) = start (mod block) and 9 * 10^(L-1) is a multiple of block), so a
 * block never straddles a change of length.  Lines before the first whole
 * block and after the last one (at most block - 1 each, plus the start - 1
 * lines below start) are written one by one with put_line().
 *
 * run_blocks(p, s, len, count) is the variant's static function that writes
 * count blocks from s on, all numbers len digits long, at the fill pointer p,
 * calls out_flush() as the protocol above says, and returns the new fill
 * pointer.
 *
 * A macro and not a function that takes run_blocks as a pointer: this way
 * main() is the same code as when each variant spelled out this loop, so the
 * compilers inline run_blocks() into it as before (through a function
 * pointer, gcc -O2 and -Os kept it a separate function, and the machine code
 * of every variant changed). */

#define BLOCKS_MAIN(block, start, run_blocks)                                                    \
	int main(int argc, char **argv)                                                          \
	{                                                                                        \
		uint64_t first, last;                                                            \
		parse_args(argc, argv, &first, &last);                                           \
		char *p = out_init();                                                            \
		uint64_t n = first;                                                              \
		while (n <= last) {                                                              \
			if (n >= (start) && n % (block) == (start) && last - n >= (block) - 1) { \
				int len = digits(n);                                             \
				uint64_t seg_last = pow10_tab[len] - 1;                          \
				if (seg_last > last)                                             \
					seg_last = last;                                         \
				uint64_t blocks = (seg_last - n + 1) / (block);                  \
				p = run_blocks(p, n, len, blocks);                               \
				n += (block) * blocks;                                           \
				continue;                                                        \
			}                                                                        \
			p = put_line(p, n);                                                      \
			n++;                                                                     \
			if (p >= out.limit)                                                      \
				p = out_flush(p);                                                \
		}                                                                                \
		out_finish(p);                                                                   \
		return 0;                                                                        \
	}

#endif
