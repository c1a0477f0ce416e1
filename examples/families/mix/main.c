/* main.c: mix N -- prints the state after N rounds */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "mix.h"

int main(int argc, char **argv)
{
	char *end;
	if (argc != 2 || !*argv[1] || (strtoull(argv[1], &end, 10), *end)) {
		fprintf(stderr, "usage: mix N\n");
		return 2;
	}
	printf("%" PRIu64 "\n", mix_rounds(1, strtoull(argv[1], NULL, 10)));
	return 0;
}
