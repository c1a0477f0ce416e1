/* bignum/fp_mul: multiplication in the secp256k1 prime field with GMP mpz,
 * allocating as a C++ mpz_class program does (seed 004).
 *
 * p = 2^256 - 2^32 - 977.  Operation i computes x = x * y mod p with
 * x0 = Gx and y = Gy (the generator's coordinates), so after N operations
 * x = Gx * Gy^N mod p.  Each operation creates and clears its result and
 * one temporary: two malloc/free pairs per operation on top of the
 * arithmetic, so the allocator shows in the time.  Run it under another
 * allocator with LD_PRELOAD (harness/allocators.c): GMP's default memory
 * functions call malloc, realloc and free, which the preload replaces.
 *
 * usage: fp_mul [N [fp_mul]]   N operations (default 1000000).  The
 * optional second argument names the computation (family.json gives it to
 * every run and to the checker); it must be "fp_mul".
 * Output: x as 64 lowercase hex digits and a newline.
 */
#include <gmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define DEFAULT_N 1000000

static mpz_t P;

/* z = x * y mod p, with a temporary of its own as mpz_class would make */
static void fp_mul(mpz_t z, const mpz_t x, const mpz_t y)
{
	mpz_t t;
	mpz_init(t);
	mpz_mul(t, x, y);
	mpz_mod(z, t, P);
	mpz_clear(t);
}

static int parse_count(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > (UINT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*out = v;
	return 0;
}

int main(int argc, char **argv)
{
	uint64_t n = DEFAULT_N;
	if (argc > 3 || (argc >= 2 && parse_count(argv[1], &n) < 0) || (argc == 3 && strcmp(argv[2], "fp_mul"))) {
		fprintf(stderr,
			"usage: %s [N [fp_mul]]\n"
			"N multiplications mod 2^256 - 2^32 - 977 (default %d); prints the result in hex\n",
			argv[0], DEFAULT_N);
		return 2;
	}
	mpz_t x, y;
	mpz_init_set_str(P, "fffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f", 16);
	mpz_init_set_str(x, "79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798", 16);
	mpz_init_set_str(y, "483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8", 16);
	for (uint64_t i = 0; i < n; i++) {
		mpz_t z;
		mpz_init(z);
		fp_mul(z, x, y);
		mpz_swap(x, z);
		mpz_clear(z);
	}
	gmp_printf("%064Zx\n", x);
	mpz_clear(x);
	mpz_clear(y);
	mpz_clear(P);
	return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}
