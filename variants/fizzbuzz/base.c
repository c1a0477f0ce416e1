/* base.c: FizzBuzz with its own number-to-text conversion, two output
 * buffers and vmsplice() (seed 000, step 2).  Every line still tests n
 * against 3 and 5 (with counters) and converts n digit by digit.  Arguments
 * and output (two buffers, vmsplice) come from fizzbuzz.h.
 *
 * usage: base [N [START]]   the lines START..N (default 1..2^32), see family.json
 */
#define _GNU_SOURCE /* vmsplice, F_SETPIPE_SZ: before any #include */
#define DEFAULT_N 4294967296ULL /* 2^32 lines: 33.3 GiB of output, as in seed 000 */
#include "fizzbuzz.h"

/* ---- FizzBuzz -------------------------------------------------------------- */

/* n as decimal text ending at end; returns where the text starts. */
static char *utoa_back(char *end, uint64_t n)
{
	do {
		*--end = (char)('0' + n % 10);
		n /= 10;
	} while (n);
	return end;
}

int main(int argc, char **argv)
{
	uint64_t first, last;
	parse_args(argc, argv, &first, &last);
	char *p = out_init();
	unsigned m3 = (unsigned)(first % 3), m5 = (unsigned)(first % 5);
	char tmp[24];
	for (uint64_t n = first; n <= last; n++) {
		if (m3 == 0 && m5 == 0) {
			memcpy(p, "FizzBuzz\n", 9);
			p += 9;
		} else if (m3 == 0) {
			memcpy(p, "Fizz\n", 5);
			p += 5;
		} else if (m5 == 0) {
			memcpy(p, "Buzz\n", 5);
			p += 5;
		} else {
			char *s = utoa_back(tmp + sizeof(tmp) - 1, n);
			tmp[sizeof(tmp) - 1] = '\n';
			size_t len = (size_t)(tmp + sizeof(tmp) - s);
			memcpy(p, s, len);
			p += len;
		}
		if (++m3 == 3)
			m3 = 0;
		if (++m5 == 5)
			m5 = 0;
		if (p >= out.limit)
			p = out_flush(p);
	}
	out_finish(p);
	return 0;
}
