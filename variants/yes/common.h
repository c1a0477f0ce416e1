/* common.h: argument handling shared by the yes variants (header-only, so
 * that each variant stays one standalone translation unit). */
#ifndef YES_COMMON_H
#define YES_COMMON_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The seed's size: 0x2ffffffff lines (about 24 GiB of "y\n"). */
#define YES_DEFAULT_LINES 0x2ffffffffULL

/* yes [N [STRING...]]: N lines of STRING (words joined by spaces), "y" by default. */
static char *yes_parse(int argc, char **argv, unsigned long long *lines, size_t *len)
{
	*lines = YES_DEFAULT_LINES;
	if (argc > 1) {
		char *end;
		errno = 0;
		*lines = strtoull(argv[1], &end, 0);
		if (errno || end == argv[1] || *end || argv[1][0] == '-') {
			fprintf(stderr, "usage: %s [LINES [STRING...]]  (LINES: decimal or 0x hex)\n", argv[0]);
			exit(2);
		}
	}
	size_t total = 2;
	for (int i = 2; i < argc; i++)
		total += strlen(argv[i]) + 1;
	char *line = malloc(total);
	if (!line) {
		perror("malloc");
		exit(1);
	}
	line[0] = '\0';
	if (argc <= 2)
		strcpy(line, "y");
	for (int i = 2; i < argc; i++) {
		if (i > 2)
			strcat(line, " ");
		strcat(line, argv[i]);
	}
	strcat(line, "\n");
	*len = strlen(line);
	return line;
}

#endif
