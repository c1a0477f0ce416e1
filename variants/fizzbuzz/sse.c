/* sse.c: the offset 0xF6 digits with SSE4.1 (seed 000, step 6).
 *
 * The prefix n / 10 of a block of 30 lines (see div10.c) lives in one SSE
 * register, one byte per digit, digit + 0xF6, least significant digit in
 * byte 0: up to 16 digits.  Adding 1 is a 64-bit add in lane 0, a carry into
 * lane 1 when lane 0 wrapped to zero (pcmpeqq), and a blend of 0xF6 into the
 * bytes that wrapped to 0x00 (pblendvb).  A byte subtract of 0xF6 - '0' and
 * one pshufb, which reverses the digits into reading order and clears the
 * unused bytes, turn the register into text.  Each number is then two 16-byte
 * stores: the prefix text, and its last digit with the words that follow.
 * Prefixes of 17 and 18 digits (numbers of 18 and 19 digits, far beyond any
 * benchmark size) take the scalar path of div10.c.  Output as in base.c
 * (fizzbuzz.h).
 *
 * usage: sse [N [START]]   the lines START..N (default 1..2^32), see family.json
 */
#define _GNU_SOURCE /* vmsplice, F_SETPIPE_SZ: before any #include */
#define DEFAULT_N 4294967296ULL /* 2^32 lines: 33.3 GiB of output, as in seed 000 */
#include "fizzbuzz.h"

#include <smmintrin.h> /* SSE4.1 */

/* ---- blocks of 30 -------------------------------------------------------------- */

#define PAD16 "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0"

/* Add 1 to the decimal text t[0..d-1]; the caller makes sure it stays d digits. */
static inline void inc_text(char *t, int d)
{
	char *q = t + d - 1;
	while (*q == '9')
		*q-- = '0';
	(*q)++;
}

/* Prefixes of more than 16 digits: the scalar way of div10.c. */
#define NUM_SCALAR(tail) (memcpy(p, pre, 24), p += d, memcpy(p, tail PAD16, 16), p += sizeof(tail) - 1)

static char *run_blocks_scalar(char *p, uint64_t s, int len, uint64_t count)
{
	char pre[32] = { 0 };
	int d = len - 1;
	uint64_t v = s / 10;
	for (int i = d - 1; i >= 0; i--, v /= 10)
		pre[i] = (char)('0' + v % 10);
	for (uint64_t b = 0; b < count; b++) {
		if (b)
			inc_text(pre, d);
		memcpy(p, "Buzz\n" PAD16, 16);
		p += 5;
		NUM_SCALAR("1\nFizz\n");
		NUM_SCALAR("3\n");
		NUM_SCALAR("4\nFizzBuzz\n");
		NUM_SCALAR("6\n");
		NUM_SCALAR("7\nFizz\n");
		NUM_SCALAR("9\nBuzz\nFizz\n");
		inc_text(pre, d);
		NUM_SCALAR("2\n");
		NUM_SCALAR("3\nFizz\nBuzz\n");
		NUM_SCALAR("6\nFizz\n");
		NUM_SCALAR("8\n");
		NUM_SCALAR("9\nFizzBuzz\n");
		inc_text(pre, d);
		NUM_SCALAR("1\n");
		NUM_SCALAR("2\nFizz\n");
		NUM_SCALAR("4\nBuzz\nFizz\n");
		NUM_SCALAR("7\n");
		NUM_SCALAR("8\nFizz\n");
		if (p >= out.limit)
			p = out_flush(p);
	}
	return p;
}

/* pshufb control for d digits: the 16 bytes at rev_tab + 16 - d make byte i
 * take digit d-1-i (register byte d-1-i) for i < d, and zero after. */
static const unsigned char rev_tab[32] = {
	15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0,
	0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
};

static inline __m128i enc_inc(__m128i e)
{
	const __m128i zero = _mm_setzero_si128();
	e = _mm_add_epi64(e, _mm_set_epi64x(0, 1));
	/* lane 0 wrapped to zero: carry 1 into lane 1 (subtracting the all-ones mask) */
	e = _mm_sub_epi64(e, _mm_slli_si128(_mm_cmpeq_epi64(e, zero), 8));
	/* digits that wrapped from 0xFF to 0x00 become 0xF6 (digit 0) */
	return _mm_blendv_epi8(e, _mm_set1_epi8((char)0xF6), _mm_cmpeq_epi8(e, zero));
}

static inline __m128i enc_text(__m128i e, __m128i rev)
{
	return _mm_shuffle_epi8(_mm_sub_epi8(e, _mm_set1_epi8((char)(0xF6 - '0'))), rev);
}

#define STORE(q, x) _mm_storeu_si128((__m128i *)(void *)(q), x)
#define LOAD(q) _mm_loadu_si128((const __m128i *)(const void *)(q))
#define NUM(t, tail) (STORE(p, t), p += d, STORE(p, LOAD(tail PAD16)), p += sizeof(tail) - 1)

/* count blocks starting at s = 10 (mod 30), all numbers len digits long. */
static char *run_blocks(char *p, uint64_t s, int len, uint64_t count)
{
	int d = len - 1;
	if (d > 16)
		return run_blocks_scalar(p, s, len, count);
	unsigned char enc[16];
	uint64_t v = s / 10;
	for (int i = 0; i < 16; i++, v /= 10)
		enc[i] = (unsigned char)(0xF6 + v % 10);
	__m128i e = LOAD(enc);
	const __m128i rev = LOAD(rev_tab + 16 - d);
	for (uint64_t b = 0; b < count; b++) {
		if (b)
			e = enc_inc(e); /* not after the last block: it may need d + 1 digits */
		__m128i t0 = enc_text(e, rev);
		e = enc_inc(e);
		__m128i t1 = enc_text(e, rev);
		e = enc_inc(e);
		__m128i t2 = enc_text(e, rev);
		STORE(p, LOAD("Buzz\n" PAD16));
		p += 5;
		NUM(t0, "1\nFizz\n");
		NUM(t0, "3\n");
		NUM(t0, "4\nFizzBuzz\n");
		NUM(t0, "6\n");
		NUM(t0, "7\nFizz\n");
		NUM(t0, "9\nBuzz\nFizz\n");
		NUM(t1, "2\n");
		NUM(t1, "3\nFizz\nBuzz\n");
		NUM(t1, "6\nFizz\n");
		NUM(t1, "8\n");
		NUM(t1, "9\nFizzBuzz\n");
		NUM(t2, "1\n");
		NUM(t2, "2\nFizz\n");
		NUM(t2, "4\nBuzz\nFizz\n");
		NUM(t2, "7\n");
		NUM(t2, "8\nFizz\n");
		if (p >= out.limit)
			p = out_flush(p);
	}
	return p;
}

/* ---- the driver: blocks of 30 lines from numbers = 10 (mod 30) on, that is
 * for numbers of 2 digits and more (see BLOCKS_MAIN in fizzbuzz.h) -------- */

BLOCKS_MAIN(30, 10, run_blocks)
