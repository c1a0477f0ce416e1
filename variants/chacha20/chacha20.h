/* chacha20.h: the code every chacha20 variant shares: the family's
 * parameters, argument parsing, the digest, the tail handling of the
 * multi-block variants and main().
 *
 * Header-only (static functions and macros), so that each variant stays one
 * translation unit: the harness builds `cc FLAGS variants/chacha20/X.c`, and
 * this file, beside the variants, is part of the build cache key.
 *
 * Family contract (every chacha20 variant and harness/chacha20_ref.c):
 *   argv[1] = N bytes (default 64 MiB, at most (2^32 - 1) * 64).
 *   key 00 01 .. 1f, nonce 00 00 00 09 00 00 00 4a 00 00 00 00, initial
 *   block counter 1 (the parameters of RFC 8439 section 2.3.2).
 *   Plaintext byte i is i mod 256.
 *   Digest: the ciphertext, zero-padded to whole 64-byte blocks, is read as
 *   16 little-endian 32-bit words per block; sum[j] += word j of each
 *   block and fold[j] += sum[j] after each block (mod 2^32), so every byte
 *   and the order of the blocks matter.  Output: sum[0..15] then
 *   fold[0..15] as 32 words of 8 lowercase hex digits, separated by single
 *   spaces, ending in a newline (288 bytes).
 *
 * The protocol, for a variant X.c:
 *
 *   (feature macros such as _GNU_SOURCE, if any, first)
 *   #include "chacha20.h"
 *   ... its cipher ...
 *   static void chacha20_setup(void);    once, before the first
 *                                        chacha20_xor() (may do nothing)
 *   static void chacha20_xor(const uint8_t *in, uint8_t *out, size_t len,
 *                            uint32_t counter);
 *       out = in XOR the keystream from block `counter` on, len bytes
 *       (at most CHUNK; len is a multiple of 64 except on the last call).
 *
 * main() (below) calls both; they are declared here and defined by the
 * variant.  A variant whose block function handles W blocks at once,
 *   static void blocks_xor(const uint8_t *in, uint8_t *out, uint32_t counter)
 * (W * 64 bytes of in XORed with blocks counter .. counter + W - 1), can let
 * CHACHA20_XOR_BY(blocks_xor, W) define chacha20_xor(): whole groups of W
 * blocks directly, the tail through a zero-padded buffer.
 *
 * chacha20_init_state() fills the 16-word input state (constants, key,
 * nonce; not the counter); load_le32() is there for variants that build it
 * themselves.
 */
#ifndef CHACHA20_H
#define CHACHA20_H

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

/* ---- the variant's part (defined in X.c) ---- */

static void chacha20_setup(void);
static void chacha20_xor(const uint8_t *in, uint8_t *out, size_t len, uint32_t counter);

/* ---- the state ---- */

__attribute__((unused)) static uint32_t load_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* the input state (RFC 8439 section 2.3) but for state[12], the block counter,
 * which the caller sets */
__attribute__((unused)) static void chacha20_init_state(uint32_t state[16])
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

/* ---- W blocks at a time, the tail through a zero-padded buffer ---- */

#define CHACHA20_XOR_BY(blocks_xor, W)                                                                       \
	static void chacha20_xor(const uint8_t *in, uint8_t *out, size_t len, uint32_t counter)              \
	{                                                                                                    \
		size_t off = 0;                                                                              \
		for (; len - off >= (W) * 64; off += (W) * 64, counter += (W))                               \
			blocks_xor(in + off, out + off, counter);                                            \
		if (off < len) {                                                                             \
			/* tail: W blocks through a zero-padded buffer, keep what is needed */               \
			uint8_t tmp[(W) * 64] = { 0 };                                                       \
			memcpy(tmp, in + off, len - off);                                                    \
			blocks_xor(tmp, tmp, counter);                                                       \
			memcpy(out + off, tmp, len - off);                                                   \
		}                                                                                            \
	}

/* ---- the digest ---- */

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

/* ---- arguments and main ---- */

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

#endif /* CHACHA20_H */
