/* yes/buf: whole lines packed into an 8 KiB buffer, one write() per buffer,
 * as GNU yes does. */
#include <unistd.h>

#include "common.h"

static int write_all(const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(1, p, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			perror("write");
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long long lines;
	size_t len;
	char *line = yes_parse(argc, argv, &lines, &len);
	size_t per = 8192 / len ? 8192 / len : 1; /* lines per buffer */
	char *buf = malloc(per * len);
	if (!buf)
		return 1;
	for (size_t i = 0; i < per; i++)
		memcpy(buf + i * len, line, len);
	while (lines) {
		unsigned long long k = lines < per ? lines : per;
		if (write_all(buf, (size_t)k * len) < 0)
			return 1;
		lines -= k;
	}
	return 0;
}
