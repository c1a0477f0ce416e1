/* chacha20/multiblock_avx512: 16 blocks at once in AVX-512 registers
 * (intrinsics).
 *
 * Word i of sixteen consecutive blocks lives in one 512-bit register; the
 * rounds are ref's code on registers, and every rotate is one vprold.
 * Afterwards an in-lane 4x4 transpose (unpack) and a 4x4 transpose of the
 * 128-bit lanes (vshufi32x4) give each block's 64 bytes in one register,
 * XORed with the plaintext and stored whole.  Needs AVX-512F
 * (requires_flags -mavx512f); x86 little-endian only.  A tail shorter than
 * 16 blocks runs through a zero-padded buffer.
 *
 * Family contract and the shared code: chacha20.h.
 */
#include "chacha20.h"

#include <immintrin.h>

#if !defined(__AVX512F__)
#error "multiblock_avx512 needs AVX-512F: build with -mavx512f or -march=x86-64-v4"
#endif

#define W 16
#define ADD(a, b) _mm512_add_epi32((a), (b))
#define XOR(a, b) _mm512_xor_si512((a), (b))
#define ROTL(v, n) _mm512_rol_epi32((v), (n))
#define ROTL16(v) _mm512_rol_epi32((v), 16)
#define ROTL8(v) _mm512_rol_epi32((v), 8)

#define QUARTERROUND(x, a, b, c, d)                                                                          \
	do {                                                                                                 \
		x[a] = ADD(x[a], x[b]);                                                                      \
		x[d] = ROTL16(XOR(x[d], x[a]));                                                              \
		x[c] = ADD(x[c], x[d]);                                                                      \
		x[b] = ROTL(XOR(x[b], x[c]), 12);                                                            \
		x[a] = ADD(x[a], x[b]);                                                                      \
		x[d] = ROTL8(XOR(x[d], x[a]));                                                               \
		x[c] = ADD(x[c], x[d]);                                                                      \
		x[b] = ROTL(XOR(x[b], x[c]), 7);                                                             \
	} while (0)

#define DOUBLEROUNDS(x)                                                                                      \
	for (int i = 0; i < 10; i++) {                                                                       \
		QUARTERROUND(x, 0, 4, 8, 12);                                                                \
		QUARTERROUND(x, 1, 5, 9, 13);                                                                \
		QUARTERROUND(x, 2, 6, 10, 14);                                                               \
		QUARTERROUND(x, 3, 7, 11, 15);                                                               \
		QUARTERROUND(x, 0, 5, 10, 15);                                                               \
		QUARTERROUND(x, 1, 6, 11, 12);                                                               \
		QUARTERROUND(x, 2, 7, 8, 13);                                                                \
		QUARTERROUND(x, 3, 4, 9, 14);                                                                \
	}

static uint32_t state[16];

static void chacha20_setup(void)
{
	chacha20_init_state(state); /* state[12], the counter, is per call */
}

/* 16 keystream blocks (counter, counter + 1, ...) XORed into 1024 bytes */
static void blocks_xor(const uint8_t *in, uint8_t *out, uint32_t counter)
{
	__m512i x[16], s[16];
	for (int i = 0; i < 16; i++)
		s[i] = _mm512_set1_epi32((int)state[i]);
	s[12] = _mm512_add_epi32(_mm512_set1_epi32((int)counter),
				 _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
	for (int i = 0; i < 16; i++)
		x[i] = s[i];
	DOUBLEROUNDS(x);
	__m512i r[4][4]; /* r[g][j]: 128-bit lane q holds words 4g..4g+3 of block 4q + j */
	for (int g = 0; g < 4; g++) {
		__m512i a = ADD(x[4 * g], s[4 * g]), b = ADD(x[4 * g + 1], s[4 * g + 1]);
		__m512i c = ADD(x[4 * g + 2], s[4 * g + 2]), d = ADD(x[4 * g + 3], s[4 * g + 3]);
		__m512i t0 = _mm512_unpacklo_epi32(a, b), t1 = _mm512_unpackhi_epi32(a, b);
		__m512i t2 = _mm512_unpacklo_epi32(c, d), t3 = _mm512_unpackhi_epi32(c, d);
		r[g][0] = _mm512_unpacklo_epi64(t0, t2);
		r[g][1] = _mm512_unpackhi_epi64(t0, t2);
		r[g][2] = _mm512_unpacklo_epi64(t1, t3);
		r[g][3] = _mm512_unpackhi_epi64(t1, t3);
	}
	for (int j = 0; j < 4; j++) {
		/* lane q of groups 0..3 side by side: the whole block 4q + j */
		__m512i u0 = _mm512_shuffle_i32x4(r[0][j], r[1][j], 0x44); /* 0.q0 0.q1 1.q0 1.q1 */
		__m512i u1 = _mm512_shuffle_i32x4(r[0][j], r[1][j], 0xee); /* 0.q2 0.q3 1.q2 1.q3 */
		__m512i u2 = _mm512_shuffle_i32x4(r[2][j], r[3][j], 0x44);
		__m512i u3 = _mm512_shuffle_i32x4(r[2][j], r[3][j], 0xee);
		__m512i blk[4] = { _mm512_shuffle_i32x4(u0, u2, 0x88), _mm512_shuffle_i32x4(u0, u2, 0xdd),
				   _mm512_shuffle_i32x4(u1, u3, 0x88), _mm512_shuffle_i32x4(u1, u3, 0xdd) };
		for (int q = 0; q < 4; q++) {
			size_t o = (size_t)(4 * q + j) * 64;
			_mm512_storeu_si512((void *)(out + o), XOR(blk[q], _mm512_loadu_si512((const void *)(in + o))));
		}
	}
}

CHACHA20_XOR_BY(blocks_xor, W)
