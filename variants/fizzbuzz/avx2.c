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
 * byte stores.  Output as in base.c (fizzbuzz.h).
 *
 * usage: avx2 [N [START]]   the lines START..N (default 1..2^32), see family.json
 */
#define _GNU_SOURCE /* vmsplice, F_SETPIPE_SZ: before any #include */
#define DEFAULT_N 4294967296ULL /* 2^32 lines: 33.3 GiB of output, as in seed 000 */
#include "fizzbuzz.h"

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

/* ---- the driver: blocks of 300 lines from numbers = 100 (mod 300) on, that
 * is for numbers of 3 digits and more (see BLOCKS_MAIN in fizzbuzz.h) ----- */

BLOCKS_MAIN(SB_LINES, 100, run_blocks)
