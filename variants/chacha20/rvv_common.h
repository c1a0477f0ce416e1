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

/* rotate left by n of u32 vectors of LMUL m (m1, m2, ...) */
#define RVV_ROTL(m, v, n, vl)                                                                                \
	__riscv_vor_vv_u32##m(__riscv_vsll_vx_u32##m((v), (n), (vl)), __riscv_vsrl_vx_u32##m((v), 32 - (n), (vl)), \
			      (vl))

/* four quarter-rounds on whole rows a, b, c, d (u32 vectors of LMUL m) */
#define RVV_ROWROUND(m, a, b, c, d, vl)                                                                      \
	do {                                                                                                 \
		a = __riscv_vadd_vv_u32##m(a, b, vl);                                                        \
		d = RVV_ROTL(m, __riscv_vxor_vv_u32##m(d, a, vl), 16, vl);                                   \
		c = __riscv_vadd_vv_u32##m(c, d, vl);                                                        \
		b = RVV_ROTL(m, __riscv_vxor_vv_u32##m(b, c, vl), 12, vl);                                   \
		a = __riscv_vadd_vv_u32##m(a, b, vl);                                                        \
		d = RVV_ROTL(m, __riscv_vxor_vv_u32##m(d, a, vl), 8, vl);                                    \
		c = __riscv_vadd_vv_u32##m(c, d, vl);                                                        \
		b = RVV_ROTL(m, __riscv_vxor_vv_u32##m(b, c, vl), 7, vl);                                    \
	} while (0)

/* ---- the row layout of two blocks in LMUL=2 groups (rvv_lmul2, rvv_grouped) ----
 * Row r of blocks n and n + 1 in one group of eight lanes: lanes 0-3 and
 * 4-7.  The diagonal round turns rows b, c, d by 1, 2, 3 lanes within each
 * half (register gathers with these indices) and back; the keystream goes
 * to block order with one indexed store per row (byte offsets). */
__attribute__((unused)) static const uint32_t rvv_turn1[8] = { 1, 2, 3, 0, 5, 6, 7, 4 };
__attribute__((unused)) static const uint32_t rvv_turn2[8] = { 2, 3, 0, 1, 6, 7, 4, 5 };
__attribute__((unused)) static const uint32_t rvv_turn3[8] = { 3, 0, 1, 2, 7, 4, 5, 6 };
__attribute__((unused)) static const uint32_t rvv_row_scatter[8] = { 0, 4, 8, 12, 64, 68, 72, 76 };

/* the input state, each row twice; rows[3][0] and [4], the counters, are per call */
__attribute__((unused)) static uint32_t rvv_rows[4][8];

__attribute__((unused)) static void rvv_rows_setup(void)
{
	uint32_t s[16];
	chacha20_init_state(s);
	for (int r = 0; r < 4; r++)
		for (int k = 0; k < 8; k++)
			rvv_rows[r][k] = s[4 * r + k % 4];
}

/* Exits with a message when the vector unit cannot hold 4 words (m1). */
__attribute__((unused)) static void rvv_require_vlen128(void)
{
	if (__riscv_vsetvl_e32m1(4) < 4) {
		fprintf(stderr, "chacha20/rvv: needs VLEN >= 128 bits\n");
		exit(1);
	}
}

/* out = in XOR len bytes of the keystream ks (little-endian words), with
 * as many bytes per instruction as the vector unit holds. */
__attribute__((unused)) static void rvv_xor_bytes(const uint8_t *in, uint8_t *out, const uint32_t *ks, size_t len)
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
