/* chacha20/multiblock_avx2: 8 blocks at once in AVX2 registers (intrinsics).
 *
 * Word i of eight consecutive blocks lives in one 256-bit register, so the
 * 20 rounds are ref's code on registers: 16 independent chains, no lane
 * shuffles.  Rotates by 16 and 8 are byte shuffles (vpshufb), by 12 and 7
 * shift, shift, or.  Afterwards an in-lane 4x4 transpose (unpack) and a
 * 128-bit lane exchange (vperm2i128) give each block's 64 bytes as two
 * 32-byte halves, XORed with the plaintext and stored whole.  Needs AVX2
 * (requires_flags -mavx2); x86 little-endian only.  A tail shorter than 8
 * blocks runs through a zero-padded buffer.
 *
 * Family contract and the shared code: chacha20.h.
 */
#include "chacha20.h"

#include <immintrin.h>

#if !defined(__AVX2__)
#error "multiblock_avx2 needs AVX2: build with -mavx2 or -march=x86-64-v3"
#endif

#define W 8
#define ADD(a, b) _mm256_add_epi32((a), (b))
#define XOR(a, b) _mm256_xor_si256((a), (b))
#define ROTL(v, n) _mm256_or_si256(_mm256_slli_epi32((v), (n)), _mm256_srli_epi32((v), 32 - (n)))
#define ROTL16(v) _mm256_shuffle_epi8((v), rot16)
#define ROTL8(v) _mm256_shuffle_epi8((v), rot8)

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

/* 8 keystream blocks (counter, counter + 1, ...) XORed into 512 bytes */
static void blocks_xor(const uint8_t *in, uint8_t *out, uint32_t counter)
{
	const __m256i rot16 = _mm256_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13, 2, 3, 0, 1, 6,
					       7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13);
	const __m256i rot8 = _mm256_setr_epi8(3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14, 3, 0, 1, 2, 7, 4,
					      5, 6, 11, 8, 9, 10, 15, 12, 13, 14);
	__m256i x[16], s[16];
	for (int i = 0; i < 16; i++)
		s[i] = _mm256_set1_epi32((int)state[i]);
	s[12] = _mm256_add_epi32(_mm256_set1_epi32((int)counter), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
	for (int i = 0; i < 16; i++)
		x[i] = s[i];
	DOUBLEROUNDS(x);
	__m256i r[4][4]; /* r[g][j]: words 4g..4g+3 of block j (low lane) and j + 4 (high lane) */
	for (int g = 0; g < 4; g++) {
		__m256i a = ADD(x[4 * g], s[4 * g]), b = ADD(x[4 * g + 1], s[4 * g + 1]);
		__m256i c = ADD(x[4 * g + 2], s[4 * g + 2]), d = ADD(x[4 * g + 3], s[4 * g + 3]);
		__m256i t0 = _mm256_unpacklo_epi32(a, b), t1 = _mm256_unpackhi_epi32(a, b);
		__m256i t2 = _mm256_unpacklo_epi32(c, d), t3 = _mm256_unpackhi_epi32(c, d);
		r[g][0] = _mm256_unpacklo_epi64(t0, t2);
		r[g][1] = _mm256_unpackhi_epi64(t0, t2);
		r[g][2] = _mm256_unpacklo_epi64(t1, t3);
		r[g][3] = _mm256_unpackhi_epi64(t1, t3);
	}
	for (int j = 0; j < 4; j++) {
		/* block j: low lanes of groups 0,1 then 2,3; block j + 4: the high lanes */
		__m256i lo01 = _mm256_permute2x128_si256(r[0][j], r[1][j], 0x20);
		__m256i lo23 = _mm256_permute2x128_si256(r[2][j], r[3][j], 0x20);
		__m256i hi01 = _mm256_permute2x128_si256(r[0][j], r[1][j], 0x31);
		__m256i hi23 = _mm256_permute2x128_si256(r[2][j], r[3][j], 0x31);
		const uint8_t *ip = in + 64 * j;
		uint8_t *op = out + 64 * j;
		_mm256_storeu_si256((__m256i *)op, XOR(lo01, _mm256_loadu_si256((const __m256i *)ip)));
		_mm256_storeu_si256((__m256i *)(op + 32), XOR(lo23, _mm256_loadu_si256((const __m256i *)(ip + 32))));
		_mm256_storeu_si256((__m256i *)(op + 256), XOR(hi01, _mm256_loadu_si256((const __m256i *)(ip + 256))));
		_mm256_storeu_si256((__m256i *)(op + 288), XOR(hi23, _mm256_loadu_si256((const __m256i *)(ip + 288))));
	}
}

CHACHA20_XOR_BY(blocks_xor, W)
