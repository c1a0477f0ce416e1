/* chacha20_ref.h: the reference ChaCha20 (RFC 8439) and the chacha20
 * family's digest, which the checker recomputes.
 *
 * The benchmark (variants/chacha20/ref.c has the same text): encrypt N
 * bytes whose byte i is i mod 256 with key 00 01 .. 1f, nonce
 * 00 00 00 09 00 00 00 4a 00 00 00 00 and initial block counter 1 (the
 * parameters of RFC 8439 section 2.3.2).  The digest reads the ciphertext,
 * zero-padded to whole 64-byte blocks, as 16 little-endian 32-bit words per
 * block: sum[j] += word j, then fold[j] += sum[j] (mod 2^32), so every byte
 * and the order of the blocks matter.  The output line is sum[0..15] and
 * fold[0..15] as 32 words of 8 lowercase hex digits separated by single
 * spaces, and a newline: CHACHA20_DIGEST_LINE bytes.
 */
#ifndef FLAGBENCH_CHACHA20_REF_H
#define FLAGBENCH_CHACHA20_REF_H

#include <stddef.h>
#include <stdint.h>

#define CHACHA20_DIGEST_LINE 288 /* 32 x 8 hex digits, 31 spaces, newline */
/* The 32-bit block counter runs from 1 to 2^32 - 1 and must not wrap. */
#define CHACHA20_BENCH_MAX ((uint64_t)UINT32_MAX * 64)
#define CHACHA20_BENCH_COUNTER 1u

extern const uint8_t chacha20_bench_key[32];
extern const uint8_t chacha20_bench_nonce[12];

/* RFC 8439 2.3: one 64-byte keystream block. */
void chacha20_block(const uint8_t key[32], uint32_t counter, const uint8_t nonce[12], uint8_t out[64]);
/* RFC 8439 2.4: out = in XOR keystream from block `counter` on (in == out is fine). */
void chacha20_xor(const uint8_t key[32], uint32_t counter, const uint8_t nonce[12], const uint8_t *in, uint8_t *out,
		  size_t len);

/* The family digest over a stream fed in pieces of any length. */
struct chacha20_digest {
	uint32_t sum[16], fold[16];
	uint8_t pending[64];
	size_t npending;
};
void chacha20_digest_init(struct chacha20_digest *d);
void chacha20_digest_update(struct chacha20_digest *d, const void *data, size_t len);
/* Pads the last block with zeros and writes the line (NUL-terminated). */
void chacha20_digest_final(struct chacha20_digest *d, char line[CHACHA20_DIGEST_LINE + 1]);

/* The expected output of every chacha20 variant for n bytes; -1 if n is
 * above CHACHA20_BENCH_MAX. */
int chacha20_bench_digest(uint64_t n, char line[CHACHA20_DIGEST_LINE + 1]);

#endif
