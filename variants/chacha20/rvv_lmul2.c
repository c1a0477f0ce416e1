/* chacha20/rvv_lmul2: two blocks per register group (LMUL=2), the state in
 * registers for all 20 rounds.
 *
 * Seed 001's second vector step: with LMUL=2 two 128-bit registers act as
 * one of eight 32-bit lanes, so each of the four row groups holds the same
 * row of two consecutive blocks (lanes 0-3: block n, lanes 4-7: block
 * n + 1) and every instruction does eight lanes of work.  The diagonal
 * round needs the rows b, c, d turned by 1, 2, 3 lanes within each half:
 * register gathers (vrgather) with fixed index vectors before it and after
 * it.  The rows stay in registers from the first round to the last; the
 * keystream is scattered into block order with one indexed store per row.
 *
 * RVV 1.0 intrinsics: rvv_common.h.  Family contract: chacha20.h.
 */
#include "chacha20.h"
#include "rvv_common.h"

#define W 2

static void chacha20_setup(void)
{
	rvv_require_vlen128();
	rvv_rows_setup();
}

#define ROWROUND(a, b, c, d, vl) RVV_ROWROUND(m2, a, b, c, d, vl)

/* two keystream blocks (counter, counter + 1) XORed into 128 bytes of in */
static void blocks_xor(const uint8_t *in, uint8_t *out, uint32_t counter)
{
	size_t vl = __riscv_vsetvl_e32m2(8);
	uint32_t r3[8], ks[16 * W];
	memcpy(r3, rvv_rows[3], sizeof(r3));
	r3[0] = counter;
	r3[4] = counter + 1;
	vuint32m2_t s0 = __riscv_vle32_v_u32m2(rvv_rows[0], vl), s1 = __riscv_vle32_v_u32m2(rvv_rows[1], vl);
	vuint32m2_t s2 = __riscv_vle32_v_u32m2(rvv_rows[2], vl), s3 = __riscv_vle32_v_u32m2(r3, vl);
	vuint32m2_t t1 = __riscv_vle32_v_u32m2(rvv_turn1, vl), t2 = __riscv_vle32_v_u32m2(rvv_turn2, vl);
	vuint32m2_t t3 = __riscv_vle32_v_u32m2(rvv_turn3, vl);
	vuint32m2_t a = s0, b = s1, c = s2, d = s3;
	for (int i = 0; i < 10; i++) {
		ROWROUND(a, b, c, d, vl);
		b = __riscv_vrgather_vv_u32m2(b, t1, vl);
		c = __riscv_vrgather_vv_u32m2(c, t2, vl);
		d = __riscv_vrgather_vv_u32m2(d, t3, vl);
		ROWROUND(a, b, c, d, vl);
		b = __riscv_vrgather_vv_u32m2(b, t3, vl);
		c = __riscv_vrgather_vv_u32m2(c, t2, vl);
		d = __riscv_vrgather_vv_u32m2(d, t1, vl);
	}
	vuint32m2_t scatter = __riscv_vle32_v_u32m2(rvv_row_scatter, vl);
	__riscv_vsuxei32_v_u32m2(ks, scatter, __riscv_vadd_vv_u32m2(a, s0, vl), vl);
	__riscv_vsuxei32_v_u32m2(ks + 4, scatter, __riscv_vadd_vv_u32m2(b, s1, vl), vl);
	__riscv_vsuxei32_v_u32m2(ks + 8, scatter, __riscv_vadd_vv_u32m2(c, s2, vl), vl);
	__riscv_vsuxei32_v_u32m2(ks + 12, scatter, __riscv_vadd_vv_u32m2(d, s3, vl), vl);
	rvv_xor_bytes(in, out, ks, 64 * W);
}

CHACHA20_XOR_BY(blocks_xor, W)
