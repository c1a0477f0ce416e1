/* chacha20/simd: one block at a time, the four rows of the state in four
 * 128-bit vectors (GCC/clang vector extensions, no intrinsics).
 *
 * A column round is then one quarter-round on whole rows: four column
 * quarter-rounds at once.  Rotating the lanes of rows b, c, d by 1, 2, 3
 * puts the diagonals into columns, so the diagonal round is the same code;
 * rotating them back restores the layout.  The state stays in registers for
 * all 20 rounds: the seed's first vector attempt loaded and stored it every
 * quarter-round and was 2.6x slower than scalar code.  Vector rotates are
 * shift, shift, or (AVX-512VL: one vprold).  Portable to any target the
 * compilers give 128-bit vectors (SSE2, NEON, ...); elsewhere they lower it
 * to scalar code.
 *
 * Family contract and the shared code: chacha20.h.
 */
#include "chacha20.h"

typedef uint32_t v4u __attribute__((vector_size(16)));

#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 12)
#define SHUF4(v, a, b, c, d) __builtin_shufflevector((v), (v), a, b, c, d)
#else
#define SHUF4(v, a, b, c, d) __builtin_shuffle((v), (v4u){ a, b, c, d })
#endif

#define VROTL(v, n) (((v) << (n)) | ((v) >> (32 - (n))))

#define ROWROUND(a, b, c, d)                                                                                 \
	do {                                                                                                 \
		a += b;                                                                                      \
		d ^= a;                                                                                      \
		d = VROTL(d, 16);                                                                            \
		c += d;                                                                                      \
		b ^= c;                                                                                      \
		b = VROTL(b, 12);                                                                            \
		a += b;                                                                                      \
		d ^= a;                                                                                      \
		d = VROTL(d, 8);                                                                             \
		c += d;                                                                                      \
		b ^= c;                                                                                      \
		b = VROTL(b, 7);                                                                             \
	} while (0)

static v4u row0, row1, row2, row3; /* the input state; row3[0] is the counter */

static v4u load_v4u(const uint8_t *p)
{
	v4u v;
	memcpy(&v, p, 16);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	for (int i = 0; i < 4; i++)
		v[i] = __builtin_bswap32(v[i]);
#endif
	return v;
}

static void store_v4u(uint8_t *p, v4u v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	for (int i = 0; i < 4; i++)
		v[i] = __builtin_bswap32(v[i]);
#endif
	memcpy(p, &v, 16);
}

static void chacha20_setup(void)
{
	row0 = (v4u){ 0x61707865, 0x3320646e, 0x79622d32, 0x6b206574 };
	row1 = load_v4u(key);
	row2 = load_v4u(key + 16);
	uint8_t r3[16] = { 0 };
	memcpy(r3 + 4, nonce, 12);
	row3 = load_v4u(r3);
}

/* one keystream block XORed into 64 bytes of in */
static void block_xor(const uint8_t *in, uint8_t *out, uint32_t counter)
{
	v4u d0 = row3;
	d0[0] = counter;
	v4u a = row0, b = row1, c = row2, d = d0;
	for (int i = 0; i < 10; i++) {
		ROWROUND(a, b, c, d);
		b = SHUF4(b, 1, 2, 3, 0);
		c = SHUF4(c, 2, 3, 0, 1);
		d = SHUF4(d, 3, 0, 1, 2);
		ROWROUND(a, b, c, d);
		b = SHUF4(b, 3, 0, 1, 2);
		c = SHUF4(c, 2, 3, 0, 1);
		d = SHUF4(d, 1, 2, 3, 0);
	}
	store_v4u(out, (a + row0) ^ load_v4u(in));
	store_v4u(out + 16, (b + row1) ^ load_v4u(in + 16));
	store_v4u(out + 32, (c + row2) ^ load_v4u(in + 32));
	store_v4u(out + 48, (d + d0) ^ load_v4u(in + 48));
}

CHACHA20_XOR_BY(block_xor, 1)
