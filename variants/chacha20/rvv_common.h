/* rvv_common.h: what the RISC-V vector variants (rvv_*.c) share.
 *
 * They use the RVV 1.0 intrinsics (riscv_vector.h, names with the
 * __riscv_ prefix): clang 16 or newer, gcc 14 or newer, with a -march that
 * has the V extension (family.json: requires_march "rv64*v*", so other
 * targets, x86 included, get the cell unsupported instead of a build).
 * Base V has no vector rotate (that is Zvbb's vror/vrol, which qemu 7.2
 * does not run), so rotates are shift, shift, or.  The variants assume
 * VLEN >= 128 (every RVV 1.0 application core; seed 001's core had 128) and
 * say so at start-up when it is smaller.
 *
 * Included after chacha20.h by a variant; the family contract is there.
 */
#ifndef CHACHA20_RVV_COMMON_H
#define CHACHA20_RVV_COMMON_H

#if !defined(__riscv_v_intrinsic) || __riscv_v_intrinsic < 11000
#error "the rvv variants need RVV 1.0 intrinsics and -march=rv64gcv (clang 16+, gcc 14+)"
#endif

#include <riscv_vector.h>

#define RVV_ROTL_M1(v, n, vl)                                                                                \
	__riscv_vor_vv_u32m1(__riscv_vsll_vx_u32m1((v), (n), (vl)), __riscv_vsrl_vx_u32m1((v), 32 - (n), (vl)), \
			     (vl))
#define RVV_ROTL_M2(v, n, vl)                                                                                \
	__riscv_vor_vv_u32m2(__riscv_vsll_vx_u32m2((v), (n), (vl)), __riscv_vsrl_vx_u32m2((v), 32 - (n), (vl)), \
			     (vl))

/* Exits with a message when the vector unit cannot hold 4 words (m1). */
static void rvv_require_vlen128(void)
{
	if (__riscv_vsetvl_e32m1(4) < 4) {
		fprintf(stderr, "chacha20/rvv: needs VLEN >= 128 bits\n");
		exit(1);
	}
}

/* out = in XOR len bytes of the keystream ks (little-endian words), with
 * as many bytes per instruction as the vector unit holds. */
static void rvv_xor_bytes(const uint8_t *in, uint8_t *out, const uint32_t *ks, size_t len)
{
	const uint8_t *k = (const uint8_t *)ks;
	for (size_t off = 0, vl; off < len; off += vl) {
		vl = __riscv_vsetvl_e8m4(len - off);
		vuint8m4_t v = __riscv_vle8_v_u8m4(in + off, vl);
		v = __riscv_vxor_vv_u8m4(v, __riscv_vle8_v_u8m4(k + off, vl), vl);
		__riscv_vse8_v_u8m4(out + off, v, vl);
	}
}

#endif /* CHACHA20_RVV_COMMON_H */
