/* avx512.c: FizzBuzz from precomputed 300-line templates with 64-byte stores.
 *
 * The same 300-line blocks as avx2.c: for each digit length L the block is a
 * fixed sequence of bytes in which only the digits of three prefixes
 * (s/100, s/100 + 1, s/100 + 2; L - 2 digits each) change from block to block.
 * Here every 64 bytes of a block are one vpermt2b (AVX-512 VBMI): a register
 * holds the three prefix texts (at bytes 0, 21 and 42) and a second one the
 * 16 characters that occur elsewhere ("0123456789\nFizBu"), and a
 * precomputed index vector per 64 output bytes picks each byte from one of the
 * two.  A block of 10-digit numbers (2540 bytes) is 40 permutes and 40 stores.
 * The last store of a block runs past its end and the next block overwrites
 * that.  The prefix texts advance by 3 per block; the next block's are
 * computed before this one is stored, so loading them into the register does
 * not wait on fresh byte stores.  Output as in base.c (fizzbuzz.h).
 *
 * usage: avx512 [N [START]]   the lines START..N (default 1..2^32), see family.json
 */
#define _GNU_SOURCE /* vmsplice, F_SETPIPE_SZ: before any #include */
#define DEFAULT_N 4294967296ULL /* 2^32 lines: 33.3 GiB of output, as in seed 000 */
#include "fizzbuzz.h"

#include <immintrin.h>

/* ---- 300-line templates ------------------------------------------------------ */

#define SB_LINES 300
#define SB_NUMS 160 /* numbers in 300 lines: 300 - 100 - 60 + 20 */
#define SB_MAX (SB_NUMS * 20 + 780)
#define SB_VECS ((SB_MAX + 63) / 64)
#define PRE_AT 21 /* prefix x lives at byte PRE_AT * x of the prefix register */

static const char chars[64] = "0123456789\nFizBu";

struct tmpl {
	int len;              /* digit length this template is for */
	size_t size;          /* bytes of a block */
	int vecs;             /* 64-byte vectors per block */
	__m512i idx[SB_VECS]; /* vpermt2b indexes: < 64 prefix bytes, >= 64 chars[] */
};

static struct tmpl T;

static int char_index(char c)
{
	const char *q = memchr(chars, c, 16);
	return (int)(q - chars);
}

static void tmpl_build(int len)
{
	static unsigned char idx[SB_VECS * 64];
	int d = len - 2;
	size_t o = 0;
	memset(idx, 64, sizeof(idx)); /* past the end: anything */
	T.len = len;
	for (int j = 0; j < SB_LINES; j++) {
		int m = (10 + j) % 15; /* s = 100 = 10 (mod 15) */
		const char *w = m == 0 ? "FizzBuzz\n" : m % 3 == 0 ? "Fizz\n" : m % 5 == 0 ? "Buzz\n" : NULL;
		if (w) {
			for (; *w; w++)
				idx[o++] = (unsigned char)(64 + char_index(*w));
			continue;
		}
		for (int i = 0; i < d; i++)
			idx[o++] = (unsigned char)(PRE_AT * (j / 100) + i);
		idx[o++] = (unsigned char)(64 + j / 10 % 10);
		idx[o++] = (unsigned char)(64 + j % 10);
		idx[o++] = (unsigned char)(64 + char_index('\n'));
	}
	T.size = o;
	T.vecs = (int)((o + 63) / 64);
	for (int k = 0; k < T.vecs; k++)
		T.idx[k] = _mm512_loadu_si512((const void *)(idx + 64 * k));
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

/* count blocks starting at s = 100 (mod 300), all numbers len digits long. */
static char *run_blocks(char *p, uint64_t s, int len, uint64_t count)
{
	int d = len - 2;
	char pre[64];
	if (T.len != len)
		tmpl_build(len);
	memset(pre, 0, sizeof(pre));
	for (int x = 0; x < 3; x++) {
		uint64_t v = s / 100 + (uint64_t)x;
		for (int i = d - 1; i >= 0; i--, v /= 10)
			pre[PRE_AT * x + i] = (char)('0' + v % 10);
	}
	const __m512i ch = _mm512_loadu_si512((const void *)chars);
	__m512i src = _mm512_loadu_si512((const void *)pre);
	for (; count; count--) {
		for (int x = 0; x < 3; x++)
			add3(pre + PRE_AT * x, d); /* the next block's prefixes */
		for (int k = 0; k < T.vecs; k++)
			_mm512_storeu_si512((void *)(p + 64 * k), _mm512_permutex2var_epi8(src, T.idx[k], ch));
		p += T.size;
		src = _mm512_loadu_si512((const void *)pre);
		if (p >= out.limit)
			p = out_flush(p);
	}
	return p;
}

/* ---- the driver: blocks of 300 lines from numbers = 100 (mod 300) on, that
 * is for numbers of 3 digits and more (see BLOCKS_MAIN in fizzbuzz.h) ----- */

BLOCKS_MAIN(SB_LINES, 100, run_blocks)
