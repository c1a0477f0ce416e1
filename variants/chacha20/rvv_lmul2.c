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

/* lane turns within each 4-lane half: by 1, 2 and 3 lanes to the left */
static const uint32_t turn1[8] = { 1, 2, 3, 0, 5, 6, 7, 4 };
static const uint32_t turn2[8] = { 2, 3, 0, 1, 6, 7, 4, 5 };
static const uint32_t turn3[8] = { 3, 0, 1, 2, 7, 4, 5, 6 };
/* byte offsets of a row's lanes in two 64-byte keystream blocks */
static const uint32_t row_scatter[8] = { 0, 4, 8, 12, 64, 68, 72, 76 };

static uint32_t rows[4][8]; /* the input state, each row twice; rows[3][0], [4]: counters */

static void chacha20_setup(void)
{
	rvv_require_vlen128();
	uint32_t s[16];
	chacha20_init_state(s);
	for (int r = 0; r < 4; r++)
		for (int k = 0; k < 8; k++)
			rows[r][k] = s[4 * r + k % 4];
}

#define ROWROUND(a, b, c, d, vl)                                                                             \
	do {                                                                                                 \
		a = __riscv_vadd_vv_u32m2(a, b, vl);                                                         \
		d = RVV_ROTL_M2(__riscv_vxor_vv_u32m2(d, a, vl), 16, vl);                                    \
		c = __riscv_vadd_vv_u32m2(c, d, vl);                                                         \
		b = RVV_ROTL_M2(__riscv_vxor_vv_u32m2(b, c, vl), 12, vl);                                    \
		a = __riscv_vadd_vv_u32m2(a, b, vl);                                                         \
		d = RVV_ROTL_M2(__riscv_vxor_vv_u32m2(d, a, vl), 8, vl);                                     \
		c = __riscv_vadd_vv_u32m2(c, d, vl);                                                         \
		b = RVV_ROTL_M2(__riscv_vxor_vv_u32m2(b, c, vl), 7, vl);                                     \
	} while (0)

/* two keystream blocks (counter, counter + 1) XORed into 128 bytes of in */
static void blocks_xor(const uint8_t *in, uint8_t *out, uint32_t counter)
{
	size_t vl = __riscv_vsetvl_e32m2(8);
	uint32_t r3[8], ks[16 * W];
	memcpy(r3, rows[3], sizeof(r3));
	r3[0] = counter;
	r3[4] = counter + 1;
	vuint32m2_t s0 = __riscv_vle32_v_u32m2(rows[0], vl), s1 = __riscv_vle32_v_u32m2(rows[1], vl);
	vuint32m2_t s2 = __riscv_vle32_v_u32m2(rows[2], vl), s3 = __riscv_vle32_v_u32m2(r3, vl);
	vuint32m2_t t1 = __riscv_vle32_v_u32m2(turn1, vl), t2 = __riscv_vle32_v_u32m2(turn2, vl);
	vuint32m2_t t3 = __riscv_vle32_v_u32m2(turn3, vl);
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
	vuint32m2_t scatter = __riscv_vle32_v_u32m2(row_scatter, vl);
	__riscv_vsuxei32_v_u32m2(ks, scatter, __riscv_vadd_vv_u32m2(a, s0, vl), vl);
	__riscv_vsuxei32_v_u32m2(ks + 4, scatter, __riscv_vadd_vv_u32m2(b, s1, vl), vl);
	__riscv_vsuxei32_v_u32m2(ks + 8, scatter, __riscv_vadd_vv_u32m2(c, s2, vl), vl);
	__riscv_vsuxei32_v_u32m2(ks + 12, scatter, __riscv_vadd_vv_u32m2(d, s3, vl), vl);
	rvv_xor_bytes(in, out, ks, 64 * W);
}

CHACHA20_XOR_BY(blocks_xor, W)
