/* simple.c: FizzBuzz with if, % and printf() for every line (seed 000, step 1).
 *
 * usage: simple [N [START]]   the lines START..N (default 1..2^32), see family.json
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

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

int main(int argc, char **argv)
{
	uint64_t n = DEFAULT_N, start = 1;
	if (argc > 3 || (argc > 1 && parse_dec(argv[1], &n) < 0) || (argc > 2 && parse_dec(argv[2], &start) < 0) ||
	    n > MAX_N || start < 1 || start > MAX_N) {
		fprintf(stderr,
			"usage: %s [N [START]]\n"
			"  prints the FizzBuzz lines START..N (decimal; N defaults to %llu, START to 1;\n"
			"  N <= %llu, 1 <= START <= %llu, no output when START > N)\n",
			argv[0], DEFAULT_N, MAX_N, MAX_N);
		return 2;
	}
	for (uint64_t i = start; i <= n; i++) {
		if (i % 15 == 0)
			printf("FizzBuzz\n");
		else if (i % 3 == 0)
			printf("Fizz\n");
		else if (i % 5 == 0)
			printf("Buzz\n");
		else
			printf("%llu\n", (unsigned long long)i);
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		perror("fizzbuzz: write");
		return 1;
	}
	return 0;
}
