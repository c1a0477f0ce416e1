/* yes/simple: one printf() per line, as the first attempt of seed 000. */
#include <stdio.h>

#include "common.h"

int main(int argc, char **argv)
{
	unsigned long long lines;
	size_t len;
	char *line = yes_parse(argc, argv, &lines, &len);
	line[len - 1] = '\0'; /* printf adds the newline */
	for (unsigned long long i = 0; i < lines; i++)
		if (printf("%s\n", line) < 0) {
			perror("printf");
			return 1;
		}
	if (fflush(stdout) != 0) {
		perror("fflush");
		return 1;
	}
	return 0;
}
