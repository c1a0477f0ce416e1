/* Unit tests of the chacha20 family's reference and checker: the RFC 8439
 * test vectors (2.3.2, 2.4.2, A.1, A.2), agreement with nettle's ChaCha20
 * (an independent implementation), the digest at sizes around the block
 * edges, and what the checker accepts and rejects. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <nettle/chacha.h>

#include "checks/chacha20_ref.h"
#include "checks/check.h"

/* hex with optional spaces, as the RFC prints it, into bytes; returns the count */
static size_t unhex(const char *s, uint8_t *out, size_t max)
{
	size_t n = 0;
	while (*s) {
		if (*s == ' ' || *s == '\n') {
			s++;
			continue;
		}
		unsigned v;
		assert_int_equal(sscanf(s, "%2x", &v), 1);
		assert_true(n < max);
		out[n++] = (uint8_t)v;
		s += 2;
	}
	return n;
}

/* ---- RFC 8439 ---- */

static const char key_00_1f[] = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

/* 2.3.2: the block function, serialized */
static void test_rfc_2_3_2_block(void **state)
{
	uint8_t key[32], nonce[12], want[64], got[64];
	unhex(key_00_1f, key, 32);
	unhex("000000090000004a00000000", nonce, 12);
	unhex("10 f1 e7 e4 d1 3b 59 15 50 0f dd 1f a3 20 71 c4 c7 d1 f4 c7 33 c0 68 03 04 22 aa 9a c3 d4 6c 4e"
	      "d2 82 64 46 07 9f aa 09 14 c2 d7 05 d9 8b 02 a2 b5 12 9c d1 de 16 4e b9 cb d0 83 e8 a2 50 3c 4e",
	      want, 64);
	chacha20_block(key, 1, nonce, got);
	assert_memory_equal(got, want, 64);
	/* the family's benchmark uses exactly these parameters */
	assert_memory_equal(chacha20_bench_key, key, 32);
	assert_memory_equal(chacha20_bench_nonce, nonce, 12);
	assert_int_equal(CHACHA20_BENCH_COUNTER, 1);
}

/* 2.4.2: encryption of the sunscreen text from counter 1 */
static void test_rfc_2_4_2_encrypt(void **state)
{
	static const char pt[] = "Ladies and Gentlemen of the class of '99: If I could offer you only one tip for "
				 "the future, sunscreen would be it.";
	uint8_t key[32], nonce[12], want[114], got[114];
	unhex(key_00_1f, key, 32);
	unhex("000000000000004a00000000", nonce, 12);
	assert_int_equal(strlen(pt), 114);
	assert_int_equal(unhex("6e 2e 35 9a 25 68 f9 80 41 ba 07 28 dd 0d 69 81 e9 7e 7a ec 1d 43 60 c2 0a 27 af cc"
			       "fd 9f ae 0b f9 1b 65 c5 52 47 33 ab 8f 59 3d ab cd 62 b3 57 16 39 d6 24 e6 51 52 ab"
			       "8f 53 0c 35 9f 08 61 d8 07 ca 0d bf 50 0d 6a 61 56 a3 8e 08 8a 22 b6 5e 52 bc 51 4d"
			       "16 cc f8 06 81 8c e9 1a b7 79 37 36 5a f9 0b bf 74 a3 5b e6 b4 0b 8e ed f2 78 5e 42"
			       "87 4d",
			       want, sizeof(want)),
			 114);
	chacha20_xor(key, 1, nonce, (const uint8_t *)pt, got, 114);
	assert_memory_equal(got, want, 114);
	/* decryption is the same operation, also in place */
	chacha20_xor(key, 1, nonce, got, got, 114);
	assert_memory_equal(got, pt, 114);
}

/* A.1: block function test vectors #1 to #5 */
static void test_rfc_a1_blocks(void **state)
{
	static const struct {
		const char *key, *nonce;
		uint32_t counter;
		const char *block;
	} v[] = {
		{ "0000000000000000000000000000000000000000000000000000000000000000", "000000000000000000000000", 0,
		  "76 b8 e0 ad a0 f1 3d 90 40 5d 6a e5 53 86 bd 28 bd d2 19 b8 a0 8d ed 1a a8 36 ef cc 8b 77 0d c7"
		  "da 41 59 7c 51 57 48 8d 77 24 e0 3f b8 d8 4a 37 6a 43 b8 f4 15 18 a1 1c c3 87 b6 69 b2 ee 65 86" },
		{ "0000000000000000000000000000000000000000000000000000000000000000", "000000000000000000000000", 1,
		  "9f 07 e7 be 55 51 38 7a 98 ba 97 7c 73 2d 08 0d cb 0f 29 a0 48 e3 65 69 12 c6 53 3e 32 ee 7a ed"
		  "29 b7 21 76 9c e6 4e 43 d5 71 33 b0 74 d8 39 d5 31 ed 1f 28 51 0a fb 45 ac e1 0a 1f 4b 79 4d 6f" },
		{ "0000000000000000000000000000000000000000000000000000000000000001", "000000000000000000000000", 1,
		  "3a eb 52 24 ec f8 49 92 9b 9d 82 8d b1 ce d4 dd 83 20 25 e8 01 8b 81 60 b8 22 84 f3 c9 49 aa 5a"
		  "8e ca 00 bb b4 a7 3b da d1 92 b5 c4 2f 73 f2 fd 4e 27 36 44 c8 b3 61 25 a6 4a dd eb 00 6c 13 a0" },
		{ "00ff000000000000000000000000000000000000000000000000000000000000", "000000000000000000000000", 2,
		  "72 d5 4d fb f1 2e c4 4b 36 26 92 df 94 13 7f 32 8f ea 8d a7 39 90 26 5e c1 bb be a1 ae 9a f0 ca"
		  "13 b2 5a a2 6c b4 a6 48 cb 9b 9d 1b e6 5b 2c 09 24 a6 6c 54 d5 45 ec 1b 73 74 f4 87 2e 99 f0 96" },
		{ "0000000000000000000000000000000000000000000000000000000000000000", "000000000000000000000002", 0,
		  "c2 c6 4d 37 8c d5 36 37 4a e2 04 b9 ef 93 3f cd 1a 8b 22 88 b3 df a4 96 72 ab 76 5b 54 ee 27 c7"
		  "8a 97 0e 0e 95 5c 14 f3 a8 8e 74 1b 97 c2 86 f7 5f 8f c2 99 e8 14 83 62 fa 19 8a 39 53 1b ed 6d" },
	};
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		uint8_t key[32], nonce[12], want[64], got[64];
		unhex(v[i].key, key, 32);
		unhex(v[i].nonce, nonce, 12);
		assert_int_equal(unhex(v[i].block, want, 64), 64);
		chacha20_block(key, v[i].counter, nonce, got);
		if (memcmp(got, want, 64))
			fail_msg("RFC 8439 A.1 test vector #%zu differs", i + 1);
	}
}

/* A.2: encryption test vectors #1 to #3 */
static void test_rfc_a2_encrypt(void **state)
{
	static const char ietf[] =
		"Any submission to the IETF intended by the Contributor for publication as all or part of an IETF "
		"Internet-Draft or RFC and any statement made within the context of an IETF activity is considered "
		"an \"IETF Contribution\". Such statements include oral statements in IETF sessions, as well as "
		"written and electronic communications made at any time or place, which are addressed to";
	static const char jabberwocky[] = "'Twas brillig, and the slithy toves\nDid gyre and gimble in the wabe:\n"
					  "All mimsy were the borogoves,\nAnd the mome raths outgrabe.";
	static const uint8_t zeros[64];
	static const struct {
		const char *key, *nonce;
		uint32_t counter;
		const void *pt;
		size_t len;
		const char *ct;
	} v[] = {
		{ "0000000000000000000000000000000000000000000000000000000000000000", "000000000000000000000000", 0,
		  zeros, 64,
		  "76 b8 e0 ad a0 f1 3d 90 40 5d 6a e5 53 86 bd 28 bd d2 19 b8 a0 8d ed 1a a8 36 ef cc 8b 77 0d c7"
		  "da 41 59 7c 51 57 48 8d 77 24 e0 3f b8 d8 4a 37 6a 43 b8 f4 15 18 a1 1c c3 87 b6 69 b2 ee 65 86" },
		{ "0000000000000000000000000000000000000000000000000000000000000001", "000000000000000000000002", 1,
		  ietf, sizeof(ietf) - 1,
		  "a3 fb f0 7d f3 fa 2f de 4f 37 6c a2 3e 82 73 70 41 60 5d 9f 4f 4f 57 bd 8c ff 2c 1d 4b 79 55 ec"
		  "2a 97 94 8b d3 72 29 15 c8 f3 d3 37 f7 d3 70 05 0e 9e 96 d6 47 b7 c3 9f 56 e0 31 ca 5e b6 25 0d"
		  "40 42 e0 27 85 ec ec fa 4b 4b b5 e8 ea d0 44 0e 20 b6 e8 db 09 d8 81 a7 c6 13 2f 42 0e 52 79 50"
		  "42 bd fa 77 73 d8 a9 05 14 47 b3 29 1c e1 41 1c 68 04 65 55 2a a6 c4 05 b7 76 4d 5e 87 be a8 5a"
		  "d0 0f 84 49 ed 8f 72 d0 d6 62 ab 05 26 91 ca 66 42 4b c8 6d 2d f8 0e a4 1f 43 ab f9 37 d3 25 9d"
		  "c4 b2 d0 df b4 8a 6c 91 39 dd d7 f7 69 66 e9 28 e6 35 55 3b a7 6c 5c 87 9d 7b 35 d4 9e b2 e6 2b"
		  "08 71 cd ac 63 89 39 e2 5e 8a 1e 0e f9 d5 28 0f a8 ca 32 8b 35 1c 3c 76 59 89 cb cf 3d aa 8b 6c"
		  "cc 3a af 9f 39 79 c9 2b 37 20 fc 88 dc 95 ed 84 a1 be 05 9c 64 99 b9 fd a2 36 e7 e8 18 b0 4b 0b"
		  "c3 9c 1e 87 6b 19 3b fe 55 69 75 3f 88 12 8c c0 8a aa 9b 63 d1 a1 6f 80 ef 25 54 d7 18 9c 41 1f"
		  "58 69 ca 52 c5 b8 3f a3 6f f2 16 b9 c1 d3 00 62 be bc fd 2d c5 bc e0 91 19 34 fd a7 9a 86 f6 e6"
		  "98 ce d7 59 c3 ff 9b 64 77 33 8f 3d a4 f9 cd 85 14 ea 99 82 cc af b3 41 b2 38 4d d9 02 f3 d1 ab"
		  "7a c6 1d d2 9c 6f 21 ba 5b 86 2f 37 30 e3 7c fd c4 fd 80 6c 22 f2 21" },
		{ "1c9240a5eb55d38af333888604f6b5f0473917c1402b80099dca5cbc207075c0", "000000000000000000000002", 42,
		  jabberwocky, sizeof(jabberwocky) - 1,
		  "62 e6 34 7f 95 ed 87 a4 5f fa e7 42 6f 27 a1 df 5f b6 91 10 04 4c 0d 73 11 8e ff a9 5b 01 e5 cf"
		  "16 6d 3d f2 d7 21 ca f9 b2 1e 5f b1 4c 61 68 71 fd 84 c5 4f 9d 65 b2 83 19 6c 7f e4 f6 05 53 eb"
		  "f3 9c 64 02 c4 22 34 e3 2a 35 6b 3e 76 43 12 a6 1a 55 32 05 57 16 ea d6 96 25 68 f8 7d 3f 3f 77"
		  "04 c6 a8 d1 bc d1 bf 4d 50 d6 15 4b 6d a7 31 b1 87 b5 8d fd 72 8a fa 36 75 7a 79 7a c1 88 d1" },
	};
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		uint8_t key[32], nonce[12], want[400], got[400];
		unhex(v[i].key, key, 32);
		unhex(v[i].nonce, nonce, 12);
		assert_int_equal(unhex(v[i].ct, want, sizeof(want)), v[i].len);
		chacha20_xor(key, v[i].counter, nonce, v[i].pt, got, v[i].len);
		if (memcmp(got, want, v[i].len))
			fail_msg("RFC 8439 A.2 test vector #%zu differs", i + 1);
	}
	assert_int_equal(sizeof(ietf) - 1, 375);
	assert_int_equal(sizeof(jabberwocky) - 1, 127);
}

/* ---- against nettle, an independent implementation ---- */

static void test_matches_nettle(void **state)
{
	enum { MAX = 1100 };
	static uint8_t pt[MAX], a[MAX], b[MAX];
	uint64_t seed = 0x9e3779b97f4a7c15u;
	for (int round = 0; round < 40; round++) {
		uint8_t key[32], nonce[12], ctr[4];
		for (int i = 0; i < 32; i++)
			key[i] = (uint8_t)((seed = seed * 6364136223846793005u + 1442695040888963407u) >> 56);
		for (int i = 0; i < 12; i++)
			nonce[i] = (uint8_t)((seed = seed * 6364136223846793005u + 1442695040888963407u) >> 56);
		uint32_t counter = round == 0 ? 0xfffffff0u : (uint32_t)(seed >> 20) & 0xffffff;
		for (int i = 0; i < 4; i++)
			ctr[i] = (uint8_t)(counter >> (8 * i));
		size_t len = (size_t)(seed >> 33) % MAX;
		for (size_t i = 0; i < len; i++)
			pt[i] = (uint8_t)(i * 7 + (size_t)round);
		struct chacha_ctx ctx;
		chacha_set_key(&ctx, key);
		chacha_set_nonce96(&ctx, nonce);
		chacha_set_counter32(&ctx, ctr);
		chacha_crypt32(&ctx, len, a, pt);
		chacha20_xor(key, counter, nonce, pt, b, len);
		if (memcmp(a, b, len))
			fail_msg("round %d: %zu bytes from counter %u differ from nettle", round, len, (unsigned)counter);
	}
}

/* ---- the digest ---- */

static const struct {
	uint64_t n;
	const char *line;
} digests[] = {
	/* computed independently (OpenSSL's ChaCha20 through Python) */
	{ 0,
	  "00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 "
	  "00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 "
	  "00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 "
	  "00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000\n" },
	{ 1,
	  "00000010 00000000 00000000 00000000 00000000 00000000 00000000 00000000 "
	  "00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 "
	  "00000010 00000000 00000000 00000000 00000000 00000000 00000000 00000000 "
	  "00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000\n" },
	{ 63,
	  "e7e5f010 125f3ed5 14d70658 cb7f2daf d4e6c0d7 147ed527 81b03b1c 5172c9df "
	  "6546a3f2 2e8cba23 2efdeb3c 8d2ca6f5 e2ae2385 8e7823ea d3b9e9f3 00026d9e "
	  "e7e5f010 125f3ed5 14d70658 cb7f2daf d4e6c0d7 147ed527 81b03b1c 5172c9df "
	  "6546a3f2 2e8cba23 2efdeb3c 8d2ca6f5 e2ae2385 8e7823ea d3b9e9f3 00026d9e\n" },
	{ 64,
	  "e7e5f010 125f3ed5 14d70658 cb7f2daf d4e6c0d7 147ed527 81b03b1c 5172c9df "
	  "6546a3f2 2e8cba23 2efdeb3c 8d2ca6f5 e2ae2385 8e7823ea d3b9e9f3 71026d9e "
	  "e7e5f010 125f3ed5 14d70658 cb7f2daf d4e6c0d7 147ed527 81b03b1c 5172c9df "
	  "6546a3f2 2e8cba23 2efdeb3c 8d2ca6f5 e2ae2385 8e7823ea d3b9e9f3 71026d9e\n" },
	{ 65,
	  "e7e5f05a 125f3ed5 14d70658 cb7f2daf d4e6c0d7 147ed527 81b03b1c 5172c9df "
	  "6546a3f2 2e8cba23 2efdeb3c 8d2ca6f5 e2ae2385 8e7823ea d3b9e9f3 71026d9e "
	  "cfcbe06a 24be7daa 29ae0cb0 96fe5b5e a9cd81ae 28fdaa4e 03607638 a2e593be "
	  "ca8d47e4 5d197446 5dfbd678 1a594dea c55c470a 1cf047d4 a773d3e6 e204db3c\n" },
	{ 1000,
	  "dbd10b62 0b01c9d1 bbf944ac aa42c534 3a450056 15806677 56ca800c 91a07353 "
	  "2271bd10 f8b4f187 7b4c54f5 f169b291 3062d059 a1a99a96 f97f8233 866b0d9b "
	  "585e6c88 a1e33948 37fc436f 88aaf649 327a7350 e6e308e2 286f2cfa 91a9c9d6 "
	  "e003aed5 fe51cde9 bbe06588 447770dc b6195ed9 85dfc5e2 a7f9c9f0 ebc00286\n" },
	{ 4103,
	  "01456614 7c1fcd95 870177c3 42446f21 6601fa4c 1c7b5bab 4c4c8247 eefd8f2d "
	  "ef35db98 edafe82b ab76c1a6 c80953bc e0afad4a f1c4a32c 7245676f f0fe8150 "
	  "6807bd7e 354bef6b 7494ec40 dbb8a006 84b4f93c 019e35fc b0cdfeb8 1a675757 "
	  "29e4881a e7a0b2b0 55ced108 7346c29e 61a63049 4fbd1d4f 35d28159 c7d16d00\n" },
	{ 1048579,
	  "5197da1c ef00b34a cd2c862d 29f4b3d6 3ae75a28 e2d4a653 b8f960e7 eba6de82 "
	  "53c59bc0 3b95ce15 11420fba e698e11e 53005ab3 b3086779 6b80cf8e 7c53ac71 "
	  "80569f61 5a89d815 85c4bd5f d42fd11f d8436f72 75fef6f8 88bfb853 2af43157 "
	  "37d51229 67ca23ea 93152ad8 be3dc9fa f121e72f 14d68ba1 26c4e401 d233c094\n" },
};

static void test_bench_digest_sizes(void **state)
{
	for (size_t i = 0; i < sizeof(digests) / sizeof(digests[0]); i++) {
		char line[CHACHA20_DIGEST_LINE + 1];
		assert_int_equal(chacha20_bench_digest(digests[i].n, line), 0);
		assert_int_equal(strlen(line), CHACHA20_DIGEST_LINE);
		if (strcmp(line, digests[i].line))
			fail_msg("N = %llu:\n  got  %s  want %s", (unsigned long long)digests[i].n, line, digests[i].line);
	}
	char line[CHACHA20_DIGEST_LINE + 1];
	assert_int_equal(chacha20_bench_digest(CHACHA20_BENCH_MAX + 1, line), -1);
}

/* the checker's four-block path agrees with the RFC code at the piece and
 * four-block edges */
static void test_bench_digest_matches_rfc_path(void **state)
{
	static const size_t sizes[] = { 255, 256, 257, 16383, 16384, 16385, 40000 };
	static uint8_t pt[40000], ct[40000];
	for (size_t i = 0; i < sizeof(pt); i++)
		pt[i] = (uint8_t)i;
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		char fast[CHACHA20_DIGEST_LINE + 1], slow[CHACHA20_DIGEST_LINE + 1];
		chacha20_xor(chacha20_bench_key, CHACHA20_BENCH_COUNTER, chacha20_bench_nonce, pt, ct, sizes[k]);
		struct chacha20_digest d;
		chacha20_digest_init(&d);
		chacha20_digest_update(&d, ct, sizes[k]);
		chacha20_digest_final(&d, slow);
		assert_int_equal(chacha20_bench_digest(sizes[k], fast), 0);
		if (strcmp(fast, slow))
			fail_msg("N = %zu: the fast path differs from the RFC code", sizes[k]);
	}
}

/* the digest of a stream does not depend on how it is cut into pieces */
static void test_digest_pieces(void **state)
{
	enum { LEN = 1000 };
	uint8_t data[LEN];
	for (int i = 0; i < LEN; i++)
		data[i] = (uint8_t)(i * 31 + 5);
	struct chacha20_digest d;
	char whole[CHACHA20_DIGEST_LINE + 1], cut[CHACHA20_DIGEST_LINE + 1];
	chacha20_digest_init(&d);
	chacha20_digest_update(&d, data, LEN);
	chacha20_digest_final(&d, whole);
	static const size_t steps[] = { 1, 3, 63, 64, 65, 100, 999 };
	for (size_t s = 0; s < sizeof(steps) / sizeof(steps[0]); s++) {
		chacha20_digest_init(&d);
		for (size_t off = 0; off < LEN; off += steps[s])
			chacha20_digest_update(&d, data + off, LEN - off < steps[s] ? LEN - off : steps[s]);
		chacha20_digest_final(&d, cut);
		assert_string_equal(cut, whole);
	}
}

/* every byte matters, and so does the order of the blocks */
static void test_digest_sensitivity(void **state)
{
	enum { LEN = 4 * 64 + 7 };
	uint8_t data[LEN];
	for (int i = 0; i < LEN; i++)
		data[i] = (uint8_t)(i * 13 + 1);
	char base[CHACHA20_DIGEST_LINE + 1], other[CHACHA20_DIGEST_LINE + 1];
	struct chacha20_digest d;
	chacha20_digest_init(&d);
	chacha20_digest_update(&d, data, LEN);
	chacha20_digest_final(&d, base);
	for (int i = 0; i < LEN; i++) {
		for (int bit = 0; bit < 8; bit += 7) {
			data[i] ^= (uint8_t)(1u << bit);
			chacha20_digest_init(&d);
			chacha20_digest_update(&d, data, LEN);
			chacha20_digest_final(&d, other);
			data[i] ^= (uint8_t)(1u << bit);
			if (!strcmp(base, other))
				fail_msg("flipping bit %d of byte %d does not change the digest", bit, i);
		}
	}
	uint8_t swapped[LEN];
	memcpy(swapped, data, LEN);
	memcpy(swapped, data + 64, 64);
	memcpy(swapped + 64, data, 64);
	chacha20_digest_init(&d);
	chacha20_digest_update(&d, swapped, LEN);
	chacha20_digest_final(&d, other);
	assert_string_not_equal(base, other);
}

/* ---- the checker ---- */

/* runs the checker on data through a pipe (small data: fits the pipe buffer) */
static enum check_status run_check(uint64_t n, int argc, char **argv, const char *data, size_t len,
				   struct check_report *rep)
{
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(write(fds[1], data, len), (ssize_t)len);
	close(fds[1]);
	struct check_args a = { n, argc, argv };
	memset(rep, 0, sizeof(*rep));
	enum check_status st = checker_chacha20.check(&a, fds[0], rep);
	close(fds[0]);
	return st;
}

static void test_checker(void **state)
{
	const struct checker *c = checker_find("chacha20");
	assert_ptr_equal(c, &checker_chacha20);
	struct check_args a = { 4103, 0, NULL };
	assert_int_equal(c->expected_bytes(&a), CHACHA20_DIGEST_LINE);

	const char *want = digests[6].line;
	assert_int_equal(digests[6].n, 4103);
	struct check_report rep;
	assert_int_equal(run_check(4103, 0, NULL, want, strlen(want), &rep), CHECK_OK);
	assert_int_equal(rep.bytes, CHACHA20_DIGEST_LINE);
	assert_string_equal(rep.message, "");

	/* one changed digit: the message names the word and both values */
	char bad[CHACHA20_DIGEST_LINE + 1];
	strcpy(bad, want);
	bad[9 * 17 + 3] = bad[9 * 17 + 3] == '0' ? '1' : '0';
	assert_int_equal(run_check(4103, 0, NULL, bad, strlen(bad), &rep), CHECK_MISMATCH);
	assert_non_null(strstr(rep.message, "digest word 17 (fold[1]) differs at byte 156"));
	char word[32];
	snprintf(word, sizeof(word), "expected %.8s", want + 9 * 17);
	assert_non_null(strstr(rep.message, word));

	/* the right line for another size */
	assert_int_equal(run_check(4104, 0, NULL, want, strlen(want), &rep), CHECK_MISMATCH);

	assert_int_equal(run_check(4103, 0, NULL, want, 100, &rep), CHECK_MISMATCH);
	assert_non_null(strstr(rep.message, "output ends after 100 bytes"));
	assert_int_equal(run_check(4103, 0, NULL, "", 0, &rep), CHECK_MISMATCH);
	assert_non_null(strstr(rep.message, "no output"));

	char extra[CHACHA20_DIGEST_LINE + 8];
	snprintf(extra, sizeof(extra), "%sdone\n", want);
	assert_int_equal(run_check(4103, 0, NULL, extra, strlen(extra), &rep), CHECK_MISMATCH);
	assert_non_null(strstr(rep.message, "extra output"));
	assert_int_equal(rep.bytes, CHACHA20_DIGEST_LINE + 5);

	/* no newline at the end */
	assert_int_equal(run_check(4103, 0, NULL, want, CHACHA20_DIGEST_LINE - 1, &rep), CHECK_MISMATCH);

	char *args[] = { "fp_mul" };
	assert_int_equal(run_check(4103, 1, args, want, strlen(want), &rep), CHECK_BAD_ARGS);
	assert_non_null(strstr(rep.message, "no arguments after N"));
	struct check_args a2 = { 4103, 1, args };
	assert_true(c->expected_bytes(&a2) == UINT64_MAX);
	assert_int_equal(run_check(CHACHA20_BENCH_MAX + 1, 0, NULL, want, strlen(want), &rep), CHECK_BAD_ARGS);
	assert_non_null(strstr(rep.message, "counter would wrap"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rfc_2_3_2_block),
		cmocka_unit_test(test_rfc_2_4_2_encrypt),
		cmocka_unit_test(test_rfc_a1_blocks),
		cmocka_unit_test(test_rfc_a2_encrypt),
		cmocka_unit_test(test_matches_nettle),
		cmocka_unit_test(test_bench_digest_sizes),
		cmocka_unit_test(test_bench_digest_matches_rfc_path),
		cmocka_unit_test(test_digest_pieces),
		cmocka_unit_test(test_digest_sensitivity),
		cmocka_unit_test(test_checker),
	};
	return cmocka_run_group_tests_name("chacha20", tests, NULL, NULL);
}
