/* bignum_ref.h: secp256k1 arithmetic with GMP, and the expected outputs of
 * the bignum family (variants/bignum/fp_mul.c and ec_mul.c).
 *
 * The checker reaches the variants' results by other roads, so a shared
 * mistake is unlikely: fp_mul's x0 * y^N by one modular power; ec_mul's
 * k_i * G with k_i = K0 * (i + 1) mod n as the running sum P_i = P_{i-1} +
 * K0*G of affine points (one addition per operation, where the variant
 * does a whole Jacobian double-and-add).
 */
#ifndef FLAGBENCH_BIGNUM_REF_H
#define FLAGBENCH_BIGNUM_REF_H

#include <gmp.h>
#include <stddef.h>
#include <stdint.h>

/* fp_mul: "%064x\n"; ec_mul: "%064x %064x\n" */
#define BIGNUM_FP_MUL_LINE 65
#define BIGNUM_EC_MUL_LINE 130

/* The curve y^2 = x^3 + 7 over p = 2^256 - 2^32 - 977, order n, and the
 * variants' scalar seed K0 (the first 256 bits of the fraction of pi). */
mpz_srcptr secp256k1_p(void);
mpz_srcptr secp256k1_n(void);
mpz_srcptr secp256k1_gx(void);
mpz_srcptr secp256k1_gy(void);
mpz_srcptr bignum_k0(void);

/* An affine point; inf set means the point at infinity. */
struct ec_point {
	mpz_t x, y;
	int inf;
};
void ec_point_init(struct ec_point *p);
void ec_point_clear(struct ec_point *p);
void ec_point_set(struct ec_point *r, const struct ec_point *p);
void ec_generator(struct ec_point *g);
int ec_on_curve(const struct ec_point *p);
/* r = a + b (every case: doubling, inverses, infinity); r may alias a or b */
void ec_add(struct ec_point *r, const struct ec_point *a, const struct ec_point *b);
/* r = k * p for k >= 0 (affine double-and-add) */
void ec_mul(struct ec_point *r, const mpz_t k, const struct ec_point *p);

/* k_i = K0 * (i + 1) mod n, the scalar of ec_mul's operation i */
void bignum_ec_scalar(mpz_t k, uint64_t i);

/* The expected output lines (NUL-terminated) for n operations. */
void bignum_fp_mul_expected(uint64_t n, char line[BIGNUM_FP_MUL_LINE + 1]);
void bignum_ec_mul_expected(uint64_t n, char line[BIGNUM_EC_MUL_LINE + 1]);

#endif
