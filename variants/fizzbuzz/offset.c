/* offset.c: FizzBuzz with the "offset 0xF6" digits (seed 000, step 4).
 *
 * The number is kept as one byte per decimal digit, each holding digit + 0xF6,
 * least significant digit in the lowest byte of a 64-bit word (three words:
 * 24 digits).  Digit 9 is 0xFF, so adding 1..3 to the word as a machine
 * integer carries from digit to digit by itself; a byte that wrapped holds
 * 0x00..0x02 (its high bit is clear), and adding 0xF6 to exactly those bytes
 * makes them proper digits again.  Subtracting 0xF6 - '0' from every byte
 * and reversing the byte order (bswap) gives the text.  Blocks of 30 lines as
 * in batch30.c; output as in base.c (two buffers, vmsplice).
 *
 * usage: offset [N [START]]   the lines START..N (default 1..2^32), see family.json
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

/* ---- offset digits ------------------------------------------------------------- */

#define ONES 0x0101010101010101ULL
#define TO_TEXT ((0xF6 - '0') * ONES) /* offset digit - TO_TEXT = ASCII digit */

struct num {
	uint64_t w[3]; /* digits 0-7, 8-15, 16-23 (from the right), each + 0xF6 */
	char hi[32];   /* text of digits 23..8, refreshed when w[1] or w[2] change */
};

/* Bytes that wrapped (0x00..0x02 after adding at most 3: high bit clear) get
 * 0xF6 added; the others are 0xF6..0xFF and stay. */
static inline uint64_t fix(uint64_t w)
{
	return w + ((~w >> 7) & ONES) * 0xF6;
}

static void num_hi_text(struct num *v)
{
	uint64_t t2 = __builtin_bswap64(v->w[2] - TO_TEXT), t1 = __builtin_bswap64(v->w[1] - TO_TEXT);
	memcpy(v->hi, &t2, 8);
	memcpy(v->hi + 8, &t1, 8);
}

static void num_set(struct num *v, uint64_t n)
{
	for (int i = 0; i < 3; i++) {
		uint64_t w = 0;
		for (int k = 0; k < 8; k++) {
			w |= (uint64_t)(0xF6 + n % 10) << (8 * k);
			n /= 10;
		}
		v->w[i] = w;
	}
	num_hi_text(v);
}

static inline void num_add(struct num *v, unsigned delta)
{
	uint64_t w = v->w[0] + delta;
	if (w < delta) { /* digits 0-7 were all 9 and carried out */
		uint64_t h = v->w[1] + 1;
		if (h == 0)
			v->w[2] = fix(v->w[2] + 1);
		v->w[1] = fix(h);
		num_hi_text(v);
	}
	v->w[0] = fix(w);
}

/* The number as len digits and a newline at p. */
static inline char *num_put(char *p, const struct num *v, int len)
{
	uint64_t t = __builtin_bswap64(v->w[0] - TO_TEXT); /* digits 7..0 as text */
	if (len <= 8) {
		t >>= 8 * (8 - len);
		memcpy(p, &t, 8);
	} else {
		memcpy(p, v->hi + 16 - (len - 8), 16);
		memcpy(p + len - 8, &t, 8);
	}
	p[len] = '\n';
	return p + len + 1;
}

/* ---- blocks of 30 -------------------------------------------------------------- */

#define WORDS(s) (memcpy(p, s "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 16), p += sizeof(s) - 1)
#define NUM(step) (p = num_put(p, &v, len), num_add(&v, step))

/* count blocks starting at s = 10 (mod 30), all numbers len digits long. */
static char *run_blocks(char *p, uint64_t s, int len, uint64_t count)
{
	struct num v;
	num_set(&v, s + 1); /* the first number of the block */
	for (; count; count--) {
		WORDS("Buzz\n");
		NUM(2); /* s+1, then on to s+3 */
		WORDS("Fizz\n");
		NUM(1);
		NUM(2);
		WORDS("FizzBuzz\n");
		NUM(1);
		NUM(2);
		WORDS("Fizz\n");
		NUM(3);
		WORDS("Buzz\nFizz\n");
		NUM(1);
		NUM(3);
		WORDS("Fizz\nBuzz\n");
		NUM(2);
		WORDS("Fizz\n");
		NUM(1);
		NUM(2);
		WORDS("FizzBuzz\n");
		NUM(1);
		NUM(2);
		WORDS("Fizz\n");
		NUM(3);
		WORDS("Buzz\nFizz\n");
		NUM(1);
		NUM(3); /* s+28, then on to the next block's s+1 */
		WORDS("Fizz\n");
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
