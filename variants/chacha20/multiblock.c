/* chacha20/multiblock: W blocks at once, word i of all W blocks in one
 * W-lane vector (GCC/clang vector extensions, no intrinsics).
 *
 * The rounds are then ref's scalar code on vectors, with no lane shuffles
 * and 16 independent chains: what the seed's fastest RISC-V version got by
 * grouping independent vector instructions.  W follows the target: 16 with
 * AVX-512F (-march=x86-64-v4), 8 with AVX2 (x86-64-v3), else 4 (SSE2,
 * NEON, ...).  After the rounds an in-lane 4x4 transpose turns each group
 * of four word-vectors into 16-byte pieces of consecutive blocks, which are
 * XORed and stored 16 bytes at a time.  A tail shorter than W blocks runs
 * through a zero-padded buffer.  multiblock_avx2 and multiblock_avx512 do
 * the same with intrinsics and full-width stores.
 *
 * Family contract and the shared code: chacha20.h.
 */
#include "chacha20.h"

#if defined(__AVX512F__)
#define W 16
#define PER_LANE(f) f(0), f(1), f(2), f(3)
#elif defined(__AVX2__)
#define W 8
#define PER_LANE(f) f(0), f(1)
#else
#define W 4
#define PER_LANE(f) f(0)
#endif

typedef uint32_t vw __attribute__((vector_size(4 * W)));
typedef uint32_t v4u __attribute__((vector_size(16)));

#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 12)
#define SHUF(a, b, ...) __builtin_shufflevector((a), (b), __VA_ARGS__)
#define QUARTER(v, q) __builtin_shufflevector((v), (v), 4 * (q), 4 * (q) + 1, 4 * (q) + 2, 4 * (q) + 3)
#else
#define SHUF(a, b, ...) __builtin_shuffle((a), (b), (vw){ __VA_ARGS__ })
#define QUARTER(v, q) ((v4u){ (v)[4 * (q)], (v)[4 * (q) + 1], (v)[4 * (q) + 2], (v)[4 * (q) + 3] })
#endif

/* Index lists of the SSE/AVX unpack instructions, per 128-bit lane L. */
#define LO32(L) 4 * (L), W + 4 * (L), 4 * (L) + 1, W + 4 * (L) + 1
#define HI32(L) 4 * (L) + 2, W + 4 * (L) + 2, 4 * (L) + 3, W + 4 * (L) + 3
#define LO64(L) 4 * (L), 4 * (L) + 1, W + 4 * (L), W + 4 * (L) + 1
#define HI64(L) 4 * (L) + 2, 4 * (L) + 3, W + 4 * (L) + 2, W + 4 * (L) + 3

#define VROTL(v, n) (((v) << (n)) | ((v) >> (32 - (n))))

#define QUARTERROUND(x, a, b, c, d)                                                                          \
	do {                                                                                                 \
		x[a] += x[b];                                                                                \
		x[d] ^= x[a];                                                                                \
		x[d] = VROTL(x[d], 16);                                                                      \
		x[c] += x[d];                                                                                \
		x[b] ^= x[c];                                                                                \
		x[b] = VROTL(x[b], 12);                                                                      \
		x[a] += x[b];                                                                                \
		x[d] ^= x[a];                                                                                \
		x[d] = VROTL(x[d], 8);                                                                       \
		x[c] += x[d];                                                                                \
		x[b] ^= x[c];                                                                                \
		x[b] = VROTL(x[b], 7);                                                                       \
	} while (0)

static uint32_t state[16];

static void chacha20_setup(void)
{
	chacha20_init_state(state); /* state[12], the counter, is per call */
}

static void xor_store16(uint8_t *out, const uint8_t *in, v4u v)
{
	v4u p;
	memcpy(&p, in, 16);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	for (int i = 0; i < 4; i++)
		v[i] = __builtin_bswap32(v[i]);
#endif
	v ^= p;
	memcpy(out, &v, 16);
}

/* W keystream blocks (counter, counter + 1, ...) XORed into W * 64 bytes */
static void blocks_xor(const uint8_t *in, uint8_t *out, uint32_t counter)
{
	vw x[16], s[16];
	for (int i = 0; i < 16; i++)
		s[i] = (vw){ 0 } + state[i];
	for (int k = 0; k < W; k++)
		s[12][k] = counter + (uint32_t)k;
	for (int i = 0; i < 16; i++)
		x[i] = s[i];
	for (int i = 0; i < 10; i++) {
		QUARTERROUND(x, 0, 4, 8, 12);
		QUARTERROUND(x, 1, 5, 9, 13);
		QUARTERROUND(x, 2, 6, 10, 14);
		QUARTERROUND(x, 3, 7, 11, 15);
		QUARTERROUND(x, 0, 5, 10, 15);
		QUARTERROUND(x, 1, 6, 11, 12);
		QUARTERROUND(x, 2, 7, 8, 13);
		QUARTERROUND(x, 3, 4, 9, 14);
	}
	for (int g = 0; g < 4; g++) {
		/* words 4g..4g+3 of every block: after the transpose, quarter q
		 * of r[j] is those four words of block 4q + j */
		vw a = x[4 * g] + s[4 * g], b = x[4 * g + 1] + s[4 * g + 1];
		vw c = x[4 * g + 2] + s[4 * g + 2], d = x[4 * g + 3] + s[4 * g + 3];
		vw t0 = SHUF(a, b, PER_LANE(LO32)), t1 = SHUF(a, b, PER_LANE(HI32));
		vw t2 = SHUF(c, d, PER_LANE(LO32)), t3 = SHUF(c, d, PER_LANE(HI32));
		vw r[4] = { SHUF(t0, t2, PER_LANE(LO64)), SHUF(t0, t2, PER_LANE(HI64)), SHUF(t1, t3, PER_LANE(LO64)),
			    SHUF(t1, t3, PER_LANE(HI64)) };
		for (int j = 0; j < 4; j++) {
			size_t o = (size_t)j * 64 + (size_t)g * 16;
			xor_store16(out + o, in + o, QUARTER(r[j], 0));
#if W >= 8
			xor_store16(out + o + 256, in + o + 256, QUARTER(r[j], 1));
#endif
#if W >= 16
			xor_store16(out + o + 512, in + o + 512, QUARTER(r[j], 2));
			xor_store16(out + o + 768, in + o + 768, QUARTER(r[j], 3));
#endif
		}
	}
}

CHACHA20_XOR_BY(blocks_xor, W)
