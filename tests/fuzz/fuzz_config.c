/* fuzz_config.c: libFuzzer target for the config loader (config.h).
 *
 * Each input is written as a suite, a cpu profile and a family.json in a
 * scratch project root and loaded by each loader; every loader must either
 * accept it or return -1 with a message, never crash, leak or read out of
 * bounds.  Built and run by `make fuzz-run` (the slow tier). */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/config.h"
#include "config/cpu_profile.h"
#include "core/util.h"

static char root[64];

static void put(const char *path, const uint8_t *data, size_t size)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		abort();
	if (size && fwrite(data, 1, size, f) != size)
		abort();
	fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!root[0]) {
		snprintf(root, sizeof(root), "/tmp/flagbench-fuzz-config.%ld", (long)getpid());
		char *d = xasprintf("%s/variants/f", root);
		mkdir_p(d, 0755);
		free(d);
		d = xasprintf("%s/configs/suites", root);
		mkdir_p(d, 0755);
		free(d);
		setenv("FLAGBENCH_ROOT", root, 1);
		/* the family's variants need source files to be found */
		char *src = xasprintf("%s/variants/f/good.c", root);
		put(src, (const uint8_t *)"int main(void){return 0;}\n", 26);
		free(src);
	}
	char *path = xasprintf("%s/in.json", root);
	put(path, data, size);
	struct suite s;
	if (load_suite(path, &s) == 0) {
		suite_check_globs(&s, NULL, 0);
		free_suite(&s);
	}
	struct cpu_profile p;
	if (load_cpu_profile(path, &p) == 0)
		free_cpu_profile(&p);
	char *fj = xasprintf("%s/variants/f/family.json", root);
	put(fj, data, size);
	char *fdir = xasprintf("%s/variants/f", root);
	struct family f;
	if (load_family(fdir, &f) == 0)
		free_family(&f);
	struct family *all = NULL;
	int n = load_all_families(&all);
	for (int i = 0; i < n; i++)
		free_family(&all[i]);
	if (n >= 0)
		free(all);
	free(fdir);
	free(fj);
	free(path);
	return 0;
}
