/* bignum_ref.c: see bignum_ref.h */
#define _GNU_SOURCE
#include "checks/bignum_ref.h"

#include <pthread.h>
#include <stdio.h>

static mpz_t P, N, GX, GY, K0;
static pthread_once_t consts_once = PTHREAD_ONCE_INIT;

/* GMP constants for the process lifetime (never cleared: no exit hook) */
static void consts_init(void)
{
	mpz_init_set_str(P, "fffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f", 16);
	mpz_init_set_str(N, "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141", 16);
	mpz_init_set_str(GX, "79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798", 16);
	mpz_init_set_str(GY, "483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8", 16);
	mpz_init_set_str(K0, "243f6a8885a308d313198a2e03707344a4093822299f31d0082efa98ec4e6c89", 16);
}

static void consts(void)
{
	pthread_once(&consts_once, consts_init);
}

mpz_srcptr secp256k1_p(void)
{
	consts();
	return P;
}

mpz_srcptr secp256k1_n(void)
{
	consts();
	return N;
}

mpz_srcptr secp256k1_gx(void)
{
	consts();
	return GX;
}

mpz_srcptr secp256k1_gy(void)
{
	consts();
	return GY;
}

mpz_srcptr bignum_k0(void)
{
	consts();
	return K0;
}

void ec_point_init(struct ec_point *p)
{
	mpz_inits(p->x, p->y, NULL);
	p->inf = 1;
}

void ec_point_clear(struct ec_point *p)
{
	mpz_clears(p->x, p->y, NULL);
}

void ec_point_set(struct ec_point *r, const struct ec_point *p)
{
	mpz_set(r->x, p->x);
	mpz_set(r->y, p->y);
	r->inf = p->inf;
}

void ec_generator(struct ec_point *g)
{
	consts();
	mpz_set(g->x, GX);
	mpz_set(g->y, GY);
	g->inf = 0;
}

int ec_on_curve(const struct ec_point *p)
{
	consts();
	if (p->inf)
		return 1;
	if (mpz_sgn(p->x) < 0 || mpz_cmp(p->x, P) >= 0 || mpz_sgn(p->y) < 0 || mpz_cmp(p->y, P) >= 0)
		return 0;
	mpz_t l, r;
	mpz_inits(l, r, NULL);
	mpz_mul(l, p->y, p->y);
	mpz_mod(l, l, P);
	mpz_powm_ui(r, p->x, 3, P);
	mpz_add_ui(r, r, 7);
	mpz_mod(r, r, P);
	int ok = mpz_cmp(l, r) == 0;
	mpz_clears(l, r, NULL);
	return ok;
}

void ec_add(struct ec_point *r, const struct ec_point *a, const struct ec_point *b)
{
	consts();
	if (a->inf) {
		ec_point_set(r, b);
		return;
	}
	if (b->inf) {
		ec_point_set(r, a);
		return;
	}
	mpz_t lam, t, x3, y3;
	mpz_inits(lam, t, x3, y3, NULL);
	if (mpz_cmp(a->x, b->x) == 0) {
		mpz_add(t, a->y, b->y);
		if (mpz_divisible_p(t, P)) { /* b = -a (this covers y = 0 too) */
			r->inf = 1;
			mpz_clears(lam, t, x3, y3, NULL);
			return;
		}
		/* tangent: lambda = 3x^2 / 2y */
		mpz_mul(lam, a->x, a->x);
		mpz_mul_ui(lam, lam, 3);
		mpz_mul_2exp(t, a->y, 1);
	} else {
		/* chord: lambda = (yb - ya) / (xb - xa) */
		mpz_sub(lam, b->y, a->y);
		mpz_sub(t, b->x, a->x);
	}
	mpz_invert(t, t, P);
	mpz_mul(lam, lam, t);
	mpz_mod(lam, lam, P);
	mpz_mul(x3, lam, lam);
	mpz_sub(x3, x3, a->x);
	mpz_sub(x3, x3, b->x);
	mpz_mod(x3, x3, P);
	mpz_sub(y3, a->x, x3);
	mpz_mul(y3, y3, lam);
	mpz_sub(y3, y3, a->y);
	mpz_mod(y3, y3, P);
	mpz_swap(r->x, x3);
	mpz_swap(r->y, y3);
	r->inf = 0;
	mpz_clears(lam, t, x3, y3, NULL);
}

void ec_mul(struct ec_point *r, const mpz_t k, const struct ec_point *p)
{
	struct ec_point acc, base;
	ec_point_init(&acc);
	ec_point_init(&base);
	ec_point_set(&base, p);
	/* right to left: the bits of k pick multiples 2^i p */
	size_t bits = mpz_sizeinbase(k, 2);
	for (size_t i = 0; i < bits && mpz_sgn(k) > 0; i++) {
		if (mpz_tstbit(k, i))
			ec_add(&acc, &acc, &base);
		ec_add(&base, &base, &base);
	}
	ec_point_set(r, &acc);
	ec_point_clear(&acc);
	ec_point_clear(&base);
}

void bignum_ec_scalar(mpz_t k, uint64_t i)
{
	consts();
	/* i + 1 in two 32-bit halves, for hosts with 32-bit long */
	mpz_set_ui(k, (unsigned long)((i + 1) >> 32));
	mpz_mul_2exp(k, k, 32);
	mpz_add_ui(k, k, (unsigned long)((i + 1) & 0xffffffffu));
	mpz_mul(k, k, K0);
	mpz_mod(k, k, N);
}

void bignum_fp_mul_expected(uint64_t n, char line[BIGNUM_FP_MUL_LINE + 1])
{
	consts();
	/* x_N = Gx * Gy^N mod p */
	mpz_t e, x;
	mpz_inits(e, x, NULL);
	mpz_set_ui(e, (unsigned long)(n >> 32));
	mpz_mul_2exp(e, e, 32);
	mpz_add_ui(e, e, (unsigned long)(n & 0xffffffffu));
	mpz_powm(x, GY, e, P);
	mpz_mul(x, x, GX);
	mpz_mod(x, x, P);
	gmp_snprintf(line, BIGNUM_FP_MUL_LINE + 1, "%064Zx\n", x);
	mpz_clears(e, x, NULL);
}

void bignum_ec_mul_expected(uint64_t n, char line[BIGNUM_EC_MUL_LINE + 1])
{
	consts();
	/* k_i G = (i + 1) K0 G: a running sum of Q = K0 G */
	struct ec_point g, q, pt;
	ec_point_init(&g);
	ec_point_init(&q);
	ec_point_init(&pt);
	ec_generator(&g);
	ec_mul(&q, K0, &g);
	mpz_t ax, ay;
	mpz_inits(ax, ay, NULL);
	for (uint64_t i = 0; i < n; i++) {
		ec_add(&pt, &pt, &q);
		/* k_i is never 0 mod n for i + 1 < n, so pt is finite */
		if (!pt.inf) {
			mpz_xor(ax, ax, pt.x);
			mpz_xor(ay, ay, pt.y);
		}
	}
	gmp_snprintf(line, BIGNUM_EC_MUL_LINE + 1, "%064Zx %064Zx\n", ax, ay);
	mpz_clears(ax, ay, NULL);
	ec_point_clear(&g);
	ec_point_clear(&q);
	ec_point_clear(&pt);
}
