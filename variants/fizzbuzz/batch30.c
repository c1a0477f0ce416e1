/* batch30.c: FizzBuzz 30 lines per loop iteration (seed 000, step 3).
 *
 * 30 is the least common multiple of 3, 5 and 10: every block of 30 lines
 * has the same words in the same places, so the loop has no % and no test
 * per line.  Numbers are still converted one by one with divisions by 10.
 * Output as in base.c (fizzbuzz.h: two buffers, vmsplice).
 *
 * usage: batch30 [N [START]]   the lines START..N (default 1..2^32), see family.json
 */
#define _GNU_SOURCE /* vmsplice, F_SETPIPE_SZ: before any #include */
#define DEFAULT_N 4294967296ULL /* 2^32 lines: 33.3 GiB of output, as in seed 000 */
#include "fizzbuzz.h"

/* ---- blocks of 30 -------------------------------------------------------------- */

/* n as exactly len digits and a newline at p. */
static char *put_num(char *p, uint64_t n, int len)
{
	for (int i = len - 1; i >= 0; i--) {
		p[i] = (char)('0' + n % 10);
		n /= 10;
	}
	p[len] = '\n';
	return p + len + 1;
}

#define WORDS(s) (memcpy(p, s, sizeof(s) - 1), p += sizeof(s) - 1)
#define NUM(k) (p = put_num(p, s + (k), len))

/* count blocks starting at s = 10 (mod 30), all numbers len digits long. */
static char *run_blocks(char *p, uint64_t s, int len, uint64_t count)
{
	for (; count; count--, s += 30) {
		WORDS("Buzz\n");
		NUM(1);
		WORDS("Fizz\n");
		NUM(3);
		NUM(4);
		WORDS("FizzBuzz\n");
		NUM(6);
		NUM(7);
		WORDS("Fizz\n");
		NUM(9);
		WORDS("Buzz\nFizz\n");
		NUM(12);
		NUM(13);
		WORDS("Fizz\nBuzz\n");
		NUM(16);
		WORDS("Fizz\n");
		NUM(18);
		NUM(19);
		WORDS("FizzBuzz\n");
		NUM(21);
		NUM(22);
		WORDS("Fizz\n");
		NUM(24);
		WORDS("Buzz\nFizz\n");
		NUM(27);
		NUM(28);
		WORDS("Fizz\n");
		if (p >= out.limit)
			p = out_flush(p);
	}
	return p;
}

/* ---- the driver: blocks of 30 lines from numbers = 10 (mod 30) on, that is
 * for numbers of 2 digits and more (see BLOCKS_MAIN in fizzbuzz.h) -------- */

BLOCKS_MAIN(30, 10, run_blocks)
