/* The bare consumer the meter is compared with: splice() stdin into
 * /dev/null and nothing else (no counting, no checks, no pinning). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(void)
{
	int null = open("/dev/null", O_WRONLY);
	for (;;) {
		ssize_t r = splice(0, NULL, null, NULL, 1 << 30, SPLICE_F_MOVE | SPLICE_F_MORE);
		if (r == 0)
			return 0;
		if (r < 0) {
			perror("splice");
			return 1;
		}
	}
}
