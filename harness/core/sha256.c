/* sha256.c: sha256_hex() and sha256_file_hex() (declared in util.h).
 * Apart from util.c, so that util.c needs no library and the static
 * build/flagbench-meter can link it without nettle. */
#define _GNU_SOURCE
#include "core/util.h"

#include <errno.h>
#include <fcntl.h>
#include <nettle/sha2.h>
#include <unistd.h>

static void hex(const uint8_t *d, size_t n, char *out)
{
	static const char digits[] = "0123456789abcdef";
	for (size_t i = 0; i < n; i++) {
		out[2 * i] = digits[d[i] >> 4];
		out[2 * i + 1] = digits[d[i] & 15];
	}
	out[2 * n] = '\0';
}

void sha256_hex(const void *data, size_t len, char out[65])
{
	struct sha256_ctx ctx;
	uint8_t digest[SHA256_DIGEST_SIZE];
	sha256_init(&ctx);
	sha256_update(&ctx, len, data);
	sha256_digest(&ctx, sizeof(digest), digest);
	hex(digest, sizeof(digest), out);
}

int sha256_file_hex(const char *path, char out[65], uint64_t *bytes)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	struct sha256_ctx ctx;
	uint8_t digest[SHA256_DIGEST_SIZE];
	uint8_t buf[65536];
	uint64_t total = 0;
	sha256_init(&ctx);
	for (;;) {
		ssize_t r = read(fd, buf, sizeof(buf));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			close(fd);
			return -1;
		}
		if (r == 0)
			break;
		sha256_update(&ctx, (size_t)r, buf);
		total += (uint64_t)r;
	}
	close(fd);
	sha256_digest(&ctx, sizeof(digest), digest);
	hex(digest, sizeof(digest), out);
	if (bytes)
		*bytes = total;
	return 0;
}
