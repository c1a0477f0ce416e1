/* offset.c: FizzBuzz with the "offset 0xF6" digits (seed 000, step 4).
 *
 * The number is kept as one byte per decimal digit, each holding digit + 0xF6,
 * least significant digit in the lowest byte of a 64-bit word (three words:
 * 24 digits).  Digit 9 is 0xFF, so adding 1..3 to the word as a machine
 * integer carries from digit to digit by itself; a byte that wrapped holds
 * 0x00..0x02 (its high bit is clear), and adding 0xF6 to exactly those bytes
 * makes them proper digits again.  Subtracting 0xF6 - '0' from every byte
 * and reversing the byte order (bswap) gives the text.  Blocks of 30 lines as
 * in batch30.c; output as in base.c (fizzbuzz.h: two buffers, vmsplice).
 *
 * usage: offset [N [START]]   the lines START..N (default 1..2^32), see family.json
 */
#define _GNU_SOURCE /* vmsplice, F_SETPIPE_SZ: before any #include */
#define DEFAULT_N 4294967296ULL /* 2^32 lines: 33.3 GiB of output, as in seed 000 */
#include "fizzbuzz.h"

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

/* ---- the driver: blocks of 30 lines from numbers = 10 (mod 30) on, that is
 * for numbers of 2 digits and more (see BLOCKS_MAIN in fizzbuzz.h) -------- */

BLOCKS_MAIN(30, 10, run_blocks)
