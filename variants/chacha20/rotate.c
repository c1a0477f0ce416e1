/* chacha20/rotate: ref with the rotate written as a rotate.
 *
 * The only change from ref: ROTL32 is clang's __builtin_rotateleft32, or
 * the x86 intrinsic __rold, or else the masked idiom that gcc maps to a
 * rotate instruction; so the rounds use one instruction per rotate wherever
 * -march provides one (x86 rol, RISC-V Zbb rolw with -march=rv64gc_zbb).
 * On x86 gcc and clang already turn ref's shifts into rol, so expect the
 * same speed there: the difference shows on targets without idiom
 * recognition or without the instruction (seed 001: rv64gc 143409 cycles,
 * rv64gc_zbb with rolw 97142).
 *
 * Family contract and the shared code: chacha20.h.
 */
#include "chacha20.h"

#if defined(__has_builtin)
#if __has_builtin(__builtin_rotateleft32)
#define HAVE_ROTATELEFT32 1
#endif
#endif

#if defined(HAVE_ROTATELEFT32)
#define ROTL32(v, n) __builtin_rotateleft32((v), (n))
#elif defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define ROTL32(v, n) __rold((v), (n))
#else
static inline uint32_t rotl32(uint32_t v, unsigned n)
{
	return (v << (n & 31)) | (v >> (-n & 31));
}
#define ROTL32(v, n) rotl32((v), (n))
#endif

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
