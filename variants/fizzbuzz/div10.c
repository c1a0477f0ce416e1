/* div10.c: FizzBuzz that only counts tens (seed 000, step 5, "drop one digit").
 *
 * In a block of 30 lines the last digit of every number is fixed by its place,
 * so the block is a template: words, last digits and newlines never change.
 * What changes is the prefix n / 10, the same for ten numbers in a row; it is
 * kept as text and incremented in place three times per block.  Short pieces
 * are copied in fixed 16- and 24-byte units (the next copy overwrites the
 * excess), so no copy has a variable length.  Output as in base.c (fizzbuzz.h).
 *
 * usage: div10 [N [START]]   the lines START..N (default 1..2^32), see family.json
 */
#define _GNU_SOURCE /* vmsplice, F_SETPIPE_SZ: before any #include */
#define DEFAULT_N 4294967296ULL /* 2^32 lines: 33.3 GiB of output, as in seed 000 */
#include "fizzbuzz.h"

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

/* ---- the driver: blocks of 30 lines from numbers = 10 (mod 30) on, that is
 * for numbers of 2 digits and more (see BLOCKS_MAIN in fizzbuzz.h) -------- */

BLOCKS_MAIN(30, 10, run_blocks)
