/* bignum/ec_mul: scalar multiplication k*G on secp256k1 with GMP mpz,
 * allocating as a C++ mpz_class program does (seed 004).
 *
 * Curve y^2 = x^3 + 7 over p = 2^256 - 2^32 - 977, generator G, order n.
 * Operation i (0-based) computes k_i * G with k_i = K0 * (i + 1) mod n,
 * K0 = the first 256 bits of the fraction of pi (243f6a88...).  Binary
 * double-and-add from the top bit, in Jacobian coordinates (dbl-2009-l,
 * madd-2007-bl, for a = 0), then one inversion to affine.  Every point
 * operation creates and clears its temporaries, and every field
 * multiplication a product temporary, so the allocator shows in the time;
 * run it under another allocator with LD_PRELOAD (harness/allocators.c).
 *
 * usage: ec_mul [N [ec_mul]]   N scalar multiplications (default 500).
 * The optional second argument names the computation (family.json gives it
 * to every run and to the checker); it must be "ec_mul".
 * Output: the XOR of the affine x of all N results and the XOR of their y,
 * each as 64 lowercase hex digits, separated by a space, and a newline.
 */
#include <gmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define DEFAULT_N 500

static mpz_t P, ORDER, K0, GX, GY;

/* ---- the field: values are kept in [0, p) ---- */

static void fp_mul(mpz_t z, const mpz_t x, const mpz_t y)
{
	mpz_t t;
	mpz_init(t);
	mpz_mul(t, x, y);
	mpz_mod(z, t, P);
	mpz_clear(t);
}

static void fp_add(mpz_t z, const mpz_t x, const mpz_t y)
{
	mpz_add(z, x, y);
	if (mpz_cmp(z, P) >= 0)
		mpz_sub(z, z, P);
}

static void fp_sub(mpz_t z, const mpz_t x, const mpz_t y)
{
	mpz_sub(z, x, y);
	if (mpz_sgn(z) < 0)
		mpz_add(z, z, P);
}

/* ---- points: Z = 0 is the point at infinity ---- */

struct point {
	mpz_t x, y, z;
};

static void point_double(struct point *r, const struct point *p)
{
	if (mpz_sgn(p->z) == 0 || mpz_sgn(p->y) == 0) {
		mpz_set_ui(r->z, 0);
		return;
	}
	mpz_t a, b, c, d, e, f, t, x3, y3, z3;
	mpz_inits(a, b, c, d, e, f, t, x3, y3, z3, NULL);
	fp_mul(a, p->x, p->x); /* A = X^2 */
	fp_mul(b, p->y, p->y); /* B = Y^2 */
	fp_mul(c, b, b);       /* C = B^2 */
	fp_add(t, p->x, b);
	fp_mul(t, t, t);
	fp_sub(t, t, a);
	fp_sub(t, t, c);
	fp_add(d, t, t); /* D = 2((X + B)^2 - A - C) */
	fp_add(e, a, a);
	fp_add(e, e, a); /* E = 3A */
	fp_mul(f, e, e); /* F = E^2 */
	fp_add(t, d, d);
	fp_sub(x3, f, t); /* X3 = F - 2D */
	fp_sub(t, d, x3);
	fp_mul(y3, e, t);
	fp_add(c, c, c);
	fp_add(c, c, c);
	fp_add(c, c, c);
	fp_sub(y3, y3, c); /* Y3 = E(D - X3) - 8C */
	fp_mul(t, p->y, p->z);
	fp_add(z3, t, t); /* Z3 = 2 Y Z */
	mpz_swap(r->x, x3);
	mpz_swap(r->y, y3);
	mpz_swap(r->z, z3);
	mpz_clears(a, b, c, d, e, f, t, x3, y3, z3, NULL);
}

/* r = p + (qx, qy), the second point affine and not at infinity */
static void point_add_affine(struct point *r, const struct point *p, const mpz_t qx, const mpz_t qy)
{
	if (mpz_sgn(p->z) == 0) {
		mpz_set(r->x, qx);
		mpz_set(r->y, qy);
		mpz_set_ui(r->z, 1);
		return;
	}
	mpz_t z1z1, u2, s2, h, hh, i, j, rr, v, t, x3, y3, z3;
	mpz_inits(z1z1, u2, s2, h, hh, i, j, rr, v, t, x3, y3, z3, NULL);
	fp_mul(z1z1, p->z, p->z);
	fp_mul(u2, qx, z1z1);
	fp_mul(t, p->z, z1z1);
	fp_mul(s2, qy, t);
	fp_sub(h, u2, p->x);
	fp_sub(t, s2, p->y);
	fp_add(rr, t, t);
	if (mpz_sgn(h) == 0) {
		/* same x: the same point (double it) or its negative (infinity) */
		if (mpz_sgn(rr) == 0) {
			struct point q;
			mpz_init_set(q.x, qx);
			mpz_init_set(q.y, qy);
			mpz_init_set_ui(q.z, 1);
			point_double(r, &q);
			mpz_clears(q.x, q.y, q.z, NULL);
		} else {
			mpz_set_ui(r->z, 0);
		}
		mpz_clears(z1z1, u2, s2, h, hh, i, j, rr, v, t, x3, y3, z3, NULL);
		return;
	}
	fp_mul(hh, h, h);
	fp_add(i, hh, hh);
	fp_add(i, i, i); /* I = 4 HH */
	fp_mul(j, h, i);
	fp_mul(v, p->x, i);
	fp_mul(x3, rr, rr);
	fp_sub(x3, x3, j);
	fp_sub(x3, x3, v);
	fp_sub(x3, x3, v); /* X3 = r^2 - J - 2V */
	fp_sub(t, v, x3);
	fp_mul(y3, rr, t);
	fp_mul(t, p->y, j);
	fp_add(t, t, t);
	fp_sub(y3, y3, t); /* Y3 = r(V - X3) - 2 Y1 J */
	fp_add(t, p->z, h);
	fp_mul(z3, t, t);
	fp_sub(z3, z3, z1z1);
	fp_sub(z3, z3, hh); /* Z3 = (Z1 + H)^2 - Z1Z1 - HH */
	mpz_swap(r->x, x3);
	mpz_swap(r->y, y3);
	mpz_swap(r->z, z3);
	mpz_clears(z1z1, u2, s2, h, hh, i, j, rr, v, t, x3, y3, z3, NULL);
}

/* (x, y) = k * G in affine coordinates; k in [1, n) */
static void scalar_mul_g(mpz_t x, mpz_t y, const mpz_t k)
{
	struct point r;
	mpz_inits(r.x, r.y, r.z, NULL); /* z = 0: infinity */
	for (size_t bit = mpz_sizeinbase(k, 2); bit-- > 0;) {
		point_double(&r, &r);
		if (mpz_tstbit(k, bit))
			point_add_affine(&r, &r, GX, GY);
	}
	mpz_t zi, zi2;
	mpz_inits(zi, zi2, NULL);
	if (mpz_sgn(r.z) == 0 || !mpz_invert(zi, r.z, P)) {
		mpz_set_ui(x, 0); /* infinity: not reached for k in [1, n) */
		mpz_set_ui(y, 0);
	} else {
		fp_mul(zi2, zi, zi);
		fp_mul(x, r.x, zi2);
		fp_mul(zi2, zi2, zi);
		fp_mul(y, r.y, zi2);
	}
	mpz_clears(zi, zi2, r.x, r.y, r.z, NULL);
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
	if (argc > 3 || (argc >= 2 && parse_count(argv[1], &n) < 0) || (argc == 3 && strcmp(argv[2], "ec_mul"))) {
		fprintf(stderr,
			"usage: %s [N [ec_mul]]\n"
			"N scalar multiplications k*G on secp256k1 (default %d); prints the XOR of the results\n",
			argv[0], DEFAULT_N);
		return 2;
	}
	mpz_init_set_str(P, "fffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f", 16);
	mpz_init_set_str(ORDER, "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141", 16);
	mpz_init_set_str(K0, "243f6a8885a308d313198a2e03707344a4093822299f31d0082efa98ec4e6c89", 16);
	mpz_init_set_str(GX, "79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798", 16);
	mpz_init_set_str(GY, "483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8", 16);
	mpz_t accx, accy;
	mpz_inits(accx, accy, NULL);
	for (uint64_t i = 0; i < n; i++) {
		mpz_t k, x, y;
		mpz_inits(k, x, y, NULL);
		/* k = K0 * (i + 1) mod n, i + 1 as two 32-bit halves for 32-bit longs */
		mpz_set_ui(k, (unsigned long)((i + 1) >> 32));
		mpz_mul_2exp(k, k, 32);
		mpz_add_ui(k, k, (unsigned long)((i + 1) & 0xffffffffu));
		mpz_mul(k, k, K0);
		mpz_mod(k, k, ORDER);
		scalar_mul_g(x, y, k);
		mpz_xor(accx, accx, x);
		mpz_xor(accy, accy, y);
		mpz_clears(k, x, y, NULL);
	}
	gmp_printf("%064Zx %064Zx\n", accx, accy);
	mpz_clears(accx, accy, P, ORDER, K0, GX, GY, NULL);
	return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}
