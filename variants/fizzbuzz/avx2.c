/* avx2.c: FizzBuzz from precomputed 300-line templates, one 32-byte store per
 * 32 bytes of output.
 *
 * A block of 300 lines starting at s = 100 (mod 300) has the same words in the
 * same places every time (300 is a multiple of 15), and its numbers are
 * s/100, s/100 + 1 or s/100 + 2 followed by two fixed last digits.  So for
 * each digit length L the block is a template in which only the digits of
 * three prefixes (L - 2 digits each) change from block to block.  Each prefix
 * lives in a register as text, the same 16 bytes in both lanes.  Every 32
 * bytes of a block are then one pshufb of the prefix register, which puts
 * its digits where the template wants them and zeros elsewhere, ORed with
 * the template's constant bytes, and one store.  The one vector where
 * the prefix changes gets a second pshufb for the next prefix.  The last
 * store of a block runs past its end and the next block overwrites that.
 * For 19-digit numbers (17-digit prefixes, more than a lane) each number is
 * one 32-byte store of prefix ORed with the template from there on.  The
 * prefix texts advance by 3 per block; the next block's are computed before
 * this one is stored, so loading them into registers does not wait on fresh
 * byte stores.  Output as in base.c.
 *
 * usage: avx2 [N [START]]   the lines START..N (default 1..2^32), see family.json
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

#include <immintrin.h>

/* ---- 300-line templates ------------------------------------------------------ */

#define SB_LINES 300
#define SB_NUMS 160 /* numbers in 300 lines: 300 - 100 - 60 + 20 */
#define SB_MAX (SB_NUMS * 20 + 780)
#define SB_VECS ((SB_MAX + 31) / 32)

struct tmpl {
	int len;    /* digit length this template is for */
	size_t size; /* bytes of a block */
	/* prefixes of up to 16 digits: one store per 32 bytes */
	int vecs;             /* 32-byte vectors per block */
	int run[6];           /* vectors [run[2x], run[2x+1]) use prefix x only; the
				 vector between run[2x+1] and run[2x+2], if any, uses x and x+1 */
	__m256i ctrl[SB_VECS];  /* pshufb: byte j takes prefix digit ctrl[j], or 0 */
	__m256i ctrl2[SB_VECS]; /* for the vector that holds two prefixes: the second one */
	__m256i cst[SB_VECS];   /* everything else */
	/* 17-digit prefixes: one store per number */
	int first[4];           /* the numbers with prefix x are first[x]..first[x+1]-1 */
	uint32_t off[SB_NUMS];  /* where number i starts in the block */
	__m256i lead;           /* the block's first 32 bytes */
	__m256i piece[SB_NUMS]; /* 32 bytes from number i on, prefix bytes zero */
};

static struct tmpl T;

static void tmpl_build(int len)
{
	static char text[SB_VECS * 32 + 64];
	static signed char grp[SB_VECS * 32 + 64]; /* prefix of each byte, -1: none */
	static unsigned char dig[SB_VECS * 32 + 64]; /* which of its digits */
	int d = len - 2, k = 0;
	size_t o = 0;
	memset(text, 0, sizeof(text));
	memset(grp, -1, sizeof(grp));
	T.len = len;
	for (int j = 0; j < SB_LINES; j++) {
		int m = (10 + j) % 15; /* s = 100 = 10 (mod 15) */
		const char *w = m == 0 ? "FizzBuzz\n" : m % 3 == 0 ? "Fizz\n" : m % 5 == 0 ? "Buzz\n" : NULL;
		if (w) {
			memcpy(text + o, w, strlen(w));
			o += strlen(w);
			continue;
		}
		if (k == 0 || grp[T.off[k - 1]] != j / 100)
			T.first[j / 100] = k;
		T.off[k++] = (uint32_t)o;
		for (int i = 0; i < d; i++, o++) { /* prefix: zeros in text */
			grp[o] = (signed char)(j / 100);
			dig[o] = (unsigned char)i;
		}
		text[o++] = (char)('0' + j / 10 % 10);
		text[o++] = (char)('0' + j % 10);
		text[o++] = '\n';
	}
	T.first[3] = k;
	T.size = o;
	T.lead = _mm256_loadu_si256((const __m256i *)(const void *)text);
	for (int i = 0; i < SB_NUMS; i++)
		T.piece[i] = _mm256_loadu_si256((const __m256i *)(const void *)(text + T.off[i]));

	T.vecs = (int)((o + 31) / 32);
	int r = 0, cur = 0;
	T.run[r++] = 0;
	for (int v = 0; v < T.vecs; v++) {
		unsigned char c1[32], c2[32];
		int two = 0;
		for (int b = 0; b < 32; b++) {
			int g = grp[32 * v + b];
			c1[b] = c2[b] = 0x80;
			if (g < 0)
				continue;
			if (g > cur && !two) { /* the first byte of the next prefix */
				two = 1;
				T.run[r++] = v;
			}
			if (g == cur)
				c1[b] = dig[32 * v + b];
			else
				c2[b] = dig[32 * v + b];
		}
		if (two) { /* a vector with two prefixes, or one that starts the next */
			int only_next = 1;
			for (int b = 0; b < 32; b++)
				only_next &= c1[b] == 0x80;
			cur++;
			if (only_next) { /* no transition vector: the next run starts here */
				memcpy(c1, c2, 32);
				memset(c2, 0x80, 32);
				T.run[r++] = v;
			} else {
				T.run[r++] = v + 1;
			}
		}
		T.ctrl[v] = _mm256_loadu_si256((const __m256i *)(const void *)c1);
		T.ctrl2[v] = _mm256_loadu_si256((const __m256i *)(const void *)c2);
		T.cst[v] = _mm256_loadu_si256((const __m256i *)(const void *)(text + 32 * v));
	}
	T.run[r] = T.vecs;
}

/* Add 3 to a d-digit decimal text (a carry out of the first digit is dropped:
 * only after the last block of a digit length, whose prefixes are unused). */
static void add3(char *t, int d)
{
	int i = d - 1, c = t[i] - '0' + 3;
	if (c < 10) {
		t[i] = (char)('0' + c);
		return;
	}
	t[i] = (char)('0' + c - 10);
	for (i--; i >= 0 && t[i] == '9'; i--)
		t[i] = '0';
	if (i >= 0)
		t[i]++;
}

#define STORE(q, x) _mm256_storeu_si256((__m256i *)(void *)(q), x)
#define SHUF(v, c) _mm256_shuffle_epi8(v, c)

/* vectors that hold digits of prefix x only */
#define RUN(x)                                                                                                 \
	for (k = T.run[2 * (x)]; k < T.run[2 * (x) + 1]; k++)                                                  \
	STORE(p + 32 * k, _mm256_or_si256(SHUF(v##x, T.ctrl[k]), T.cst[k]))
/* the vector (if any) with digits of prefixes x and y = x + 1 */
#define TWO(x, y)                                                                                              \
	for (k = T.run[2 * (x) + 1]; k < T.run[2 * (y)]; k++)                                                  \
	STORE(p + 32 * k, _mm256_or_si256(_mm256_or_si256(SHUF(v##x, T.ctrl[k]), SHUF(v##y, T.ctrl2[k])), T.cst[k]))
/* 17-digit prefixes: one 32-byte store per number */
#define PUT(x)                                                                                                 \
	for (; i < T.first[(x) + 1]; i++)                                                                      \
	STORE(p + T.off[i], _mm256_or_si256(v##x, T.piece[i]))

static __m256i load_prefix(const char *t, int d)
{
	if (d > 16)
		return _mm256_loadu_si256((const __m256i *)(const void *)t);
	return _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)t));
}

/* count blocks starting at s = 100 (mod 300), all numbers len digits long. */
static char *run_blocks(char *p, uint64_t s, int len, uint64_t count)
{
	int d = len - 2;
	char pre[3][32];
	if (T.len != len)
		tmpl_build(len);
	memset(pre, 0, sizeof(pre));
	for (int x = 0; x < 3; x++) {
		uint64_t v = s / 100 + (uint64_t)x;
		for (int i = d - 1; i >= 0; i--, v /= 10)
			pre[x][i] = (char)('0' + v % 10);
	}
	__m256i v0 = load_prefix(pre[0], d), v1 = load_prefix(pre[1], d), v2 = load_prefix(pre[2], d);
	for (; count; count--) {
		for (int x = 0; x < 3; x++)
			add3(pre[x], d); /* the next block's prefixes */
		if (d <= 16) {
			int k;
			RUN(0);
			TWO(0, 1);
			RUN(1);
			TWO(1, 2);
			RUN(2);
		} else {
			int i = 0;
			STORE(p, T.lead);
			PUT(0);
			PUT(1);
			PUT(2);
		}
		p += T.size;
		v0 = load_prefix(pre[0], d);
		v1 = load_prefix(pre[1], d);
		v2 = load_prefix(pre[2], d);
		if (p >= out.limit)
			p = out_flush(p);
	}
	return p;
}

/* ---- the driver -------------------------------------------------------------
 * Blocks of 300 lines start at numbers s = 100 (mod 300); inside one digit
 * length [10^(L-1), 10^L), L >= 3, they tile the range exactly (10^(L-1) = 100
 * (mod 300) and 9 * 10^(L-1) is a multiple of 300).  Lines before the first
 * whole block and after the last one (at most 299 each, plus 1..99) are
 * written one by one. */

int main(int argc, char **argv)
{
	uint64_t first, last;
	parse_args(argc, argv, &first, &last);
	char *p = out_init();
	uint64_t n = first;
	while (n <= last) {
		if (n >= 100 && n % SB_LINES == 100 && last - n >= SB_LINES - 1) {
			int len = digits(n);
			uint64_t seg_last = pow10_tab[len] - 1;
			if (seg_last > last)
				seg_last = last;
			uint64_t blocks = (seg_last - n + 1) / SB_LINES;
			p = run_blocks(p, n, len, blocks);
			n += SB_LINES * blocks;
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
