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
 * Family contract: see ref.c (same key, nonce, counter, plaintext, digest).
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_N ((uint64_t)64 << 20)
#define MAX_N ((uint64_t)UINT32_MAX * 64)
#define CHUNK 16384 /* a multiple of 256, so the plaintext pattern repeats per chunk */

static const uint8_t key[32] = { 0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15,
				 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31 };
static const uint8_t nonce[12] = { 0, 0, 0, 0x09, 0, 0, 0, 0x4a, 0, 0, 0, 0 };

/* ---- the cipher: this part differs between variants ---- */

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

static uint32_t load_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void chacha20_setup(void)
{
	state[0] = 0x61707865;
	state[1] = 0x3320646e;
	state[2] = 0x79622d32;
	state[3] = 0x6b206574;
	for (int i = 0; i < 8; i++)
		state[4 + i] = load_le32(key + 4 * i);
	for (int i = 0; i < 3; i++)
		state[13 + i] = load_le32(nonce + 4 * i);
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

static void chacha20_xor(const uint8_t *in, uint8_t *out, size_t len, uint32_t counter)
{
	size_t off = 0;
	for (; len - off >= W * 64; off += W * 64, counter += W)
		blocks_xor(in + off, out + off, counter);
	if (off < len) {
		/* tail: W blocks through a zero-padded buffer, keep what is needed */
		uint8_t tmp[W * 64] = { 0 };
		memcpy(tmp, in + off, len - off);
		blocks_xor(tmp, tmp, counter);
		memcpy(out + off, tmp, len - off);
	}
}

/* ---- the rest is the same in every chacha20 variant ---- */

static uint32_t digest_sum[16], digest_fold[16];

/* len is a multiple of 64 */
static void digest_blocks(const uint8_t *p, size_t len)
{
	uint32_t s[16], f[16];
	memcpy(s, digest_sum, sizeof(s));
	memcpy(f, digest_fold, sizeof(f));
	for (size_t off = 0; off < len; off += 64) {
		uint32_t w[16];
		memcpy(w, p + off, 64);
		for (int j = 0; j < 16; j++) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
			w[j] = __builtin_bswap32(w[j]);
#endif
			s[j] += w[j];
			f[j] += s[j];
		}
	}
	memcpy(digest_sum, s, sizeof(s));
	memcpy(digest_fold, f, sizeof(f));
}

static int parse_size(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > (UINT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*out = v;
	return 0;
}

int main(int argc, char **argv)
{
	uint64_t n = DEFAULT_N;
	if (argc > 2 || (argc == 2 && (parse_size(argv[1], &n) < 0 || n > MAX_N))) {
		fprintf(stderr,
			"usage: %s [BYTES]\n"
			"encrypts BYTES (default %" PRIu64 ", at most %" PRIu64 ") with ChaCha20 and prints a digest\n",
			argv[0], DEFAULT_N, MAX_N);
		return 2;
	}
	static uint8_t pt[CHUNK], ct[CHUNK + 64];
	for (size_t i = 0; i < CHUNK; i++)
		pt[i] = (uint8_t)i;
	chacha20_setup();
	uint32_t counter = 1;
	for (uint64_t off = 0; off < n; off += CHUNK, counter += CHUNK / 64) {
		size_t len = n - off < CHUNK ? (size_t)(n - off) : CHUNK;
		chacha20_xor(pt, ct, len, counter);
		size_t padded = (len + 63) & ~(size_t)63;
		memset(ct + len, 0, padded - len);
		digest_blocks(ct, padded);
	}
	for (int j = 0; j < 32; j++)
		printf("%08" PRIx32 "%c", j < 16 ? digest_sum[j] : digest_fold[j - 16], j == 31 ? '\n' : ' ');
	return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}
