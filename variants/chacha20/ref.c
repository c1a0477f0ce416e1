/* chacha20/ref: the block function as RFC 8439 section 2.3 writes it.
 *
 * The rotate is the plain (x << n) | (x >> (32 - n)).  Where the target has
 * a rotate instruction (x86 rol, RISC-V Zbb rolw, ARM ror) gcc and clang
 * recognise this idiom and emit it, so on x86 `ref` and `rotate` compile to
 * the same rounds; without one (rv64gc) it stays shift, shift, or: the
 * seed's baseline.  Keystream bytes are serialized one by one and XORed
 * byte by byte, as in the RFC's pseudocode.
 *
 * Family contract and the shared code: chacha20.h.
 */
#include "chacha20.h"

#define ROTL32(v, n) (((v) << (n)) | ((v) >> (32 - (n))))

#define QUARTERROUND(x, a, b, c, d)                                                                          \
	do {                                                                                                 \
		x[a] += x[b];                                                                                \
		x[d] ^= x[a];                                                                                \
		x[d] = ROTL32(x[d], 16);                                                                     \
		x[c] += x[d];                                                                                \
		x[b] ^= x[c];                                                                                \
		x[b] = ROTL32(x[b], 12);                                                                     \
		x[a] += x[b];                                                                                \
		x[d] ^= x[a];                                                                                \
		x[d] = ROTL32(x[d], 8);                                                                      \
		x[c] += x[d];                                                                                \
		x[b] ^= x[c];                                                                                \
		x[b] = ROTL32(x[b], 7);                                                                      \
	} while (0)

static void chacha20_block(uint32_t counter, uint8_t out[64])
{
	uint32_t state[16], x[16];
	chacha20_init_state(state);
	state[12] = counter;
	memcpy(x, state, sizeof(x));
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
	for (int i = 0; i < 16; i++) {
		uint32_t v = x[i] + state[i];
		out[4 * i + 0] = (uint8_t)v;
		out[4 * i + 1] = (uint8_t)(v >> 8);
		out[4 * i + 2] = (uint8_t)(v >> 16);
		out[4 * i + 3] = (uint8_t)(v >> 24);
	}
}

static void chacha20_xor(const uint8_t *in, uint8_t *out, size_t len, uint32_t counter)
{
	uint8_t ks[64];
	for (size_t off = 0; off < len; off += 64, counter++) {
		size_t n = len - off < 64 ? len - off : 64;
		chacha20_block(counter, ks);
		for (size_t i = 0; i < n; i++)
			out[off + i] = in[off + i] ^ ks[i];
	}
}

static void chacha20_setup(void)
{
	/* nothing to precompute: chacha20_block() builds its state */
}
