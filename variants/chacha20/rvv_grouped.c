/* chacha20/rvv_grouped: independent vector instructions grouped, four
 * blocks in flight.
 *
 * Seed 001's last step: the four quarter-rounds of a column round (and of a
 * diagonal round) do not depend on each other, so their additions, XORs and
 * rotates can be issued side by side, four alike at a time, and a core with
 * several vector pipes overlaps them.  Here each of 16 registers holds one
 * word of four consecutive blocks (lane j: block counter + j), so the
 * quarter-rounds are ref's code on registers, without lane gathers, and
 * QR4() writes each step of four quarter-rounds as four independent
 * instructions in a row.  LMUL=1: with base V's shift, shift, or rotates,
 * 16 state groups of LMUL=2 would leave no register for temporaries.  The
 * keystream goes to block order by strided stores (stride 64 bytes).
 *
 * RVV 1.0 intrinsics: rvv_common.h.  Family contract: chacha20.h.
 */
#include "chacha20.h"
#include "rvv_common.h"

#define W 4

static uint32_t state[16];

static void chacha20_setup(void)
{
	rvv_require_vlen128();
	chacha20_init_state(state); /* state[12], the counter, is per call */
}

#define ADD(p, q) __riscv_vadd_vv_u32m1((p), (q), vl)
#define XOR(p, q) __riscv_vxor_vv_u32m1((p), (q), vl)
#define ROTL(p, n) RVV_ROTL_M1((p), (n), vl)

/* p += q; r ^= p; r <<<= n, for four independent quarter-rounds at once */
#define STEP4(p0, q0, r0, p1, q1, r1, p2, q2, r2, p3, q3, r3, n)                                           \
	do {                                                                                                 \
		p0 = ADD(p0, q0);                                                                            \
		p1 = ADD(p1, q1);                                                                            \
		p2 = ADD(p2, q2);                                                                            \
		p3 = ADD(p3, q3);                                                                            \
		r0 = XOR(r0, p0);                                                                            \
		r1 = XOR(r1, p1);                                                                            \
		r2 = XOR(r2, p2);                                                                            \
		r3 = XOR(r3, p3);                                                                            \
		r0 = ROTL(r0, n);                                                                            \
		r1 = ROTL(r1, n);                                                                            \
		r2 = ROTL(r2, n);                                                                            \
		r3 = ROTL(r3, n);                                                                            \
	} while (0)

#define QR4(a0, b0, c0, d0, a1, b1, c1, d1, a2, b2, c2, d2, a3, b3, c3, d3)                                \
	do {                                                                                                 \
		STEP4(a0, b0, d0, a1, b1, d1, a2, b2, d2, a3, b3, d3, 16);                                   \
		STEP4(c0, d0, b0, c1, d1, b1, c2, d2, b2, c3, d3, b3, 12);                                   \
		STEP4(a0, b0, d0, a1, b1, d1, a2, b2, d2, a3, b3, d3, 8);                                    \
		STEP4(c0, d0, b0, c1, d1, b1, c2, d2, b2, c3, d3, b3, 7);                                    \
	} while (0)

/* keystream word i of the four blocks, to block order (stride 64 bytes) */
#define OUT(i, xi, si) __riscv_vsse32_v_u32m1(ks + (i), 64, ADD(xi, si), vl)
#define SPLAT(i) __riscv_vmv_v_x_u32m1(state[i], vl)

/* four keystream blocks (counter .. counter + 3) XORed into 256 bytes of in */
static void blocks_xor(const uint8_t *in, uint8_t *out, uint32_t counter)
{
	size_t vl = __riscv_vsetvl_e32m1(W);
	uint32_t ks[16 * W];
	vuint32m1_t ctr = __riscv_vadd_vx_u32m1(__riscv_vid_v_u32m1(vl), counter, vl);
	vuint32m1_t x0 = SPLAT(0), x1 = SPLAT(1), x2 = SPLAT(2), x3 = SPLAT(3);
	vuint32m1_t x4 = SPLAT(4), x5 = SPLAT(5), x6 = SPLAT(6), x7 = SPLAT(7);
	vuint32m1_t x8 = SPLAT(8), x9 = SPLAT(9), x10 = SPLAT(10), x11 = SPLAT(11);
	vuint32m1_t x12 = ctr, x13 = SPLAT(13), x14 = SPLAT(14), x15 = SPLAT(15);
	for (int i = 0; i < 10; i++) {
		QR4(x0, x4, x8, x12, x1, x5, x9, x13, x2, x6, x10, x14, x3, x7, x11, x15);
		QR4(x0, x5, x10, x15, x1, x6, x11, x12, x2, x7, x8, x13, x3, x4, x9, x14);
	}
	OUT(0, x0, SPLAT(0));
	OUT(1, x1, SPLAT(1));
	OUT(2, x2, SPLAT(2));
	OUT(3, x3, SPLAT(3));
	OUT(4, x4, SPLAT(4));
	OUT(5, x5, SPLAT(5));
	OUT(6, x6, SPLAT(6));
	OUT(7, x7, SPLAT(7));
	OUT(8, x8, SPLAT(8));
	OUT(9, x9, SPLAT(9));
	OUT(10, x10, SPLAT(10));
	OUT(11, x11, SPLAT(11));
	OUT(12, x12, ctr);
	OUT(13, x13, SPLAT(13));
	OUT(14, x14, SPLAT(14));
	OUT(15, x15, SPLAT(15));
	rvv_xor_bytes(in, out, ks, 64 * W);
}

CHACHA20_XOR_BY(blocks_xor, W)
