/* chacha20/rvv_naive: RISC-V vector code that keeps the state in memory.
 *
 * Seed 001's first vector attempt: the four rows of one block are loaded
 * into four 128-bit vectors for every group of four quarter-rounds, the
 * group runs on whole rows (four columns or four diagonals at once), and
 * the rows are stored back, with a compiler barrier as the seed's inline
 * assembly had ("memory" clobber), so the next group reads them again.
 * The column round loads rows (unit stride); the diagonal round gathers and
 * scatters the diagonals with indexed loads and stores.  The seed found this
 * slower than scalar code: the memory traffic and the fixed costs per group
 * outweigh four lanes of work.
 *
 * RVV 1.0 intrinsics: rvv_common.h.  Family contract: chacha20.h.
 */
#include "chacha20.h"
#include "rvv_common.h"

/* byte offsets of the diagonals: lane k of row r holds x[diag[r][k]] */
static const uint32_t diag_off[4][4] = {
	{ 0 * 4, 1 * 4, 2 * 4, 3 * 4 },
	{ 5 * 4, 6 * 4, 7 * 4, 4 * 4 },
	{ 10 * 4, 11 * 4, 8 * 4, 9 * 4 },
	{ 15 * 4, 12 * 4, 13 * 4, 14 * 4 },
};

static uint32_t state[16];

static void chacha20_setup(void)
{
	rvv_require_vlen128();
	chacha20_init_state(state); /* state[12], the counter, is per block */
}

#define ROWROUND(a, b, c, d, vl) RVV_ROWROUND(m1, a, b, c, d, vl)

/* four column quarter-rounds: rows in, rows out */
static void column_round(uint32_t x[16], size_t vl)
{
	vuint32m1_t a = __riscv_vle32_v_u32m1(x, vl), b = __riscv_vle32_v_u32m1(x + 4, vl);
	vuint32m1_t c = __riscv_vle32_v_u32m1(x + 8, vl), d = __riscv_vle32_v_u32m1(x + 12, vl);
	ROWROUND(a, b, c, d, vl);
	__riscv_vse32_v_u32m1(x, a, vl);
	__riscv_vse32_v_u32m1(x + 4, b, vl);
	__riscv_vse32_v_u32m1(x + 8, c, vl);
	__riscv_vse32_v_u32m1(x + 12, d, vl);
	__asm__ volatile("" ::: "memory");
}

/* four diagonal quarter-rounds: diagonals gathered, scattered back */
static void diagonal_round(uint32_t x[16], size_t vl)
{
	vuint32m1_t ia = __riscv_vle32_v_u32m1(diag_off[0], vl), ib = __riscv_vle32_v_u32m1(diag_off[1], vl);
	vuint32m1_t ic = __riscv_vle32_v_u32m1(diag_off[2], vl), id = __riscv_vle32_v_u32m1(diag_off[3], vl);
	vuint32m1_t a = __riscv_vluxei32_v_u32m1(x, ia, vl), b = __riscv_vluxei32_v_u32m1(x, ib, vl);
	vuint32m1_t c = __riscv_vluxei32_v_u32m1(x, ic, vl), d = __riscv_vluxei32_v_u32m1(x, id, vl);
	ROWROUND(a, b, c, d, vl);
	__riscv_vsuxei32_v_u32m1(x, ia, a, vl);
	__riscv_vsuxei32_v_u32m1(x, ib, b, vl);
	__riscv_vsuxei32_v_u32m1(x, ic, c, vl);
	__riscv_vsuxei32_v_u32m1(x, id, d, vl);
	__asm__ volatile("" ::: "memory");
}

/* one keystream block XORed into 64 bytes of in */
static void block_xor(const uint8_t *in, uint8_t *out, uint32_t counter)
{
	uint32_t s[16], x[16], ks[16];
	memcpy(s, state, sizeof(s));
	s[12] = counter;
	memcpy(x, s, sizeof(x));
	size_t vl = __riscv_vsetvl_e32m1(4);
	for (int i = 0; i < 10; i++) {
		column_round(x, vl);
		diagonal_round(x, vl);
	}
	for (int r = 0; r < 16; r += 4)
		__riscv_vse32_v_u32m1(ks + r,
				      __riscv_vadd_vv_u32m1(__riscv_vle32_v_u32m1(x + r, vl),
							    __riscv_vle32_v_u32m1(s + r, vl), vl),
				      vl);
	rvv_xor_bytes(in, out, ks, 64);
}

CHACHA20_XOR_BY(block_xor, 1)
