/* chacha20_ref.c: see chacha20_ref.h.  The block function and the stream
 * are written as RFC 8439 describes them.  The checker's digest runs four
 * blocks at a time (fast_xor below, held to the RFC code by the unit
 * tests), so that checking is not much slower than the variants. */
#include "checks/chacha20_ref.h"

#include <stdio.h>
#include <string.h>

const uint8_t chacha20_bench_key[32] = { 0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15,
					 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31 };
const uint8_t chacha20_bench_nonce[12] = { 0, 0, 0, 0x09, 0, 0, 0, 0x4a, 0, 0, 0, 0 };

/* a macro: the same rotate on a word and on a vector of four */
#define ROTL32(v, n) (((v) << (n)) | ((v) >> (32 - (n))))

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* a macro, not a function, so that x[] stays in registers */
#define QUARTER_ROUND(x, a, b, c, d)                                                                         \
	do {                                                                                                 \
		x[a] += x[b];                                                                                \
		x[d] = ROTL32(x[d] ^ x[a], 16);                                                              \
		x[c] += x[d];                                                                                \
		x[b] = ROTL32(x[b] ^ x[c], 12);                                                              \
		x[a] += x[b];                                                                                \
		x[d] = ROTL32(x[d] ^ x[a], 8);                                                               \
		x[c] += x[d];                                                                                \
		x[b] = ROTL32(x[b] ^ x[c], 7);                                                               \
	} while (0)

/* the 20 rounds: 10 double rounds, columns then diagonals */
#define CHACHA20_ROUNDS(x)                                                                                   \
	do {                                                                                                 \
		for (int i_ = 0; i_ < 10; i_++) {                                                            \
			QUARTER_ROUND(x, 0, 4, 8, 12);                                                       \
			QUARTER_ROUND(x, 1, 5, 9, 13);                                                       \
			QUARTER_ROUND(x, 2, 6, 10, 14);                                                      \
			QUARTER_ROUND(x, 3, 7, 11, 15);                                                      \
			QUARTER_ROUND(x, 0, 5, 10, 15);                                                      \
			QUARTER_ROUND(x, 1, 6, 11, 12);                                                      \
			QUARTER_ROUND(x, 2, 7, 8, 13);                                                       \
			QUARTER_ROUND(x, 3, 4, 9, 14);                                                       \
		}                                                                                            \
	} while (0)

void chacha20_block(const uint8_t key[32], uint32_t counter, const uint8_t nonce[12], uint8_t out[64])
{
	uint32_t state[16] = { 0x61707865, 0x3320646e, 0x79622d32, 0x6b206574 };
	for (int i = 0; i < 8; i++)
		state[4 + i] = le32(key + 4 * i);
	state[12] = counter;
	for (int i = 0; i < 3; i++)
		state[13 + i] = le32(nonce + 4 * i);
	uint32_t x[16];
	memcpy(x, state, sizeof(x));
	CHACHA20_ROUNDS(x);
	for (int i = 0; i < 16; i++) {
		uint32_t v = x[i] + state[i];
		for (int k = 0; k < 4; k++)
			out[4 * i + k] = (uint8_t)(v >> (8 * k));
	}
}

void chacha20_xor(const uint8_t key[32], uint32_t counter, const uint8_t nonce[12], const uint8_t *in, uint8_t *out,
		  size_t len)
{
	uint8_t ks[64];
	for (size_t off = 0; off < len; off += 64, counter++) {
		size_t n = len - off < 64 ? len - off : 64;
		chacha20_block(key, counter, nonce, ks);
		for (size_t i = 0; i < n; i++)
			out[off + i] = in[off + i] ^ ks[i];
	}
}

void chacha20_digest_init(struct chacha20_digest *d)
{
	memset(d, 0, sizeof(*d));
}

static void digest_block(struct chacha20_digest *d, const uint8_t *p)
{
	for (int j = 0; j < 16; j++) {
		d->sum[j] += le32(p + 4 * j);
		d->fold[j] += d->sum[j];
	}
}

void chacha20_digest_update(struct chacha20_digest *d, const void *data, size_t len)
{
	const uint8_t *p = data;
	if (d->npending) {
		size_t take = 64 - d->npending < len ? 64 - d->npending : len;
		memcpy(d->pending + d->npending, p, take);
		d->npending += take;
		p += take;
		len -= take;
		if (d->npending < 64)
			return;
		digest_block(d, d->pending);
		d->npending = 0;
	}
	/* whole blocks with the sums in locals: p may alias *d */
	uint32_t sum[16], fold[16];
	memcpy(sum, d->sum, sizeof(sum));
	memcpy(fold, d->fold, sizeof(fold));
	for (; len >= 64; p += 64, len -= 64)
		for (int j = 0; j < 16; j++) {
			sum[j] += le32(p + 4 * j);
			fold[j] += sum[j];
		}
	memcpy(d->sum, sum, sizeof(sum));
	memcpy(d->fold, fold, sizeof(fold));
	memcpy(d->pending, p, len);
	d->npending = len;
}

void chacha20_digest_final(struct chacha20_digest *d, char line[CHACHA20_DIGEST_LINE + 1])
{
	if (d->npending) {
		memset(d->pending + d->npending, 0, 64 - d->npending);
		digest_block(d, d->pending);
		d->npending = 0;
	}
	for (int j = 0; j < 32; j++)
		snprintf(line + 9 * j, 10, "%08x%c", (unsigned)(j < 16 ? d->sum[j] : d->fold[j - 16]),
			 j == 31 ? '\n' : ' ');
}

/* Four blocks at once, word i of the four in one vector: GCC/clang
 * vector extensions, 128 bits (SSE2, NEON).  A fallback for other
 * compilers keeps the RFC code. */
#if defined(__GNUC__)
typedef uint32_t v4u32 __attribute__((vector_size(16)));

#if defined(__clang__) || __GNUC__ >= 12
#define SHUF4(a, b, i, j, k, l) __builtin_shufflevector((a), (b), i, j, k, l)
#else
#define SHUF4(a, b, i, j, k, l) __builtin_shuffle((a), (b), (v4u32){ i, j, k, l })
#endif


/* 256 bytes: blocks counter .. counter + 3 */
static void xor4(const uint32_t state[16], uint32_t counter, const uint8_t *in, uint8_t *out)
{
	v4u32 s[16], x[16];
	for (int i = 0; i < 16; i++)
		s[i] = (v4u32){ 0, 0, 0, 0 } + state[i];
	s[12] = (v4u32){ counter, counter + 1, counter + 2, counter + 3 };
	for (int i = 0; i < 16; i++)
		x[i] = s[i];
	CHACHA20_ROUNDS(x);
	for (int g = 0; g < 4; g++) {
		/* a 4x4 transpose: r[k] is words 4g..4g+3 of block k */
		v4u32 a = x[4 * g] + s[4 * g], b = x[4 * g + 1] + s[4 * g + 1];
		v4u32 c = x[4 * g + 2] + s[4 * g + 2], d = x[4 * g + 3] + s[4 * g + 3];
		v4u32 t0 = SHUF4(a, b, 0, 4, 1, 5), t1 = SHUF4(a, b, 2, 6, 3, 7);
		v4u32 t2 = SHUF4(c, d, 0, 4, 1, 5), t3 = SHUF4(c, d, 2, 6, 3, 7);
		v4u32 r[4] = { SHUF4(t0, t2, 0, 1, 4, 5), SHUF4(t0, t2, 2, 3, 6, 7), SHUF4(t1, t3, 0, 1, 4, 5),
			       SHUF4(t1, t3, 2, 3, 6, 7) };
		for (int k = 0; k < 4; k++) {
			v4u32 p;
			memcpy(&p, in + 64 * k + 16 * g, 16);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
			for (int j = 0; j < 4; j++)
				r[k][j] = __builtin_bswap32(r[k][j]);
#endif
			r[k] ^= p;
			memcpy(out + 64 * k + 16 * g, &r[k], 16);
		}
	}
}

static void fast_xor(const uint8_t key[32], uint32_t counter, const uint8_t nonce[12], const uint8_t *in, uint8_t *out,
		     size_t len)
{
	uint32_t state[16] = { 0x61707865, 0x3320646e, 0x79622d32, 0x6b206574 };
	for (int i = 0; i < 8; i++)
		state[4 + i] = le32(key + 4 * i);
	for (int i = 0; i < 3; i++)
		state[13 + i] = le32(nonce + 4 * i);
	size_t off = 0;
	for (; len - off >= 256; off += 256, counter += 4)
		xor4(state, counter, in + off, out + off);
	chacha20_xor(key, counter, nonce, in + off, out + off, len - off);
}
#else
#define fast_xor chacha20_xor
#endif

int chacha20_bench_digest(uint64_t n, char line[CHACHA20_DIGEST_LINE + 1])
{
	if (n > CHACHA20_BENCH_MAX)
		return -1;
	/* 16 KiB pieces: a multiple of 256, so the plaintext is the same in each */
	enum { PIECE = 16384 };
	uint8_t pt[PIECE], ct[PIECE];
	for (size_t i = 0; i < PIECE; i++)
		pt[i] = (uint8_t)i;
	struct chacha20_digest d;
	chacha20_digest_init(&d);
	uint32_t counter = CHACHA20_BENCH_COUNTER;
	for (uint64_t off = 0; off < n; off += PIECE, counter += PIECE / 64) {
		size_t len = n - off < PIECE ? (size_t)(n - off) : PIECE;
		fast_xor(chacha20_bench_key, counter, chacha20_bench_nonce, pt, ct, len);
		chacha20_digest_update(&d, ct, len);
	}
	chacha20_digest_final(&d, line);
	return 0;
}
