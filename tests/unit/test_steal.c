/* test_steal.c: the host's share of a VM's cpu (system/steal.h) from
 * fixture /proc/stat files under a root. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "system/steal.h"

static char root[64];

static void write_stat(const char *line)
{
	char path[128];
	snprintf(path, sizeof(path), "%s/proc", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/proc/stat", root);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%s\ncpu0 1 2 3 4 5 6 7 8 0 0\n", line);
	fclose(f);
}

static int setup(void **state)
{
	snprintf(root, sizeof(root), "/tmp/test_steal.XXXXXX");
	assert_non_null(mkdtemp(root));
	return 0;
}

static int teardown(void **state)
{
	char path[128];
	snprintf(path, sizeof(path), "%s/proc/stat", root);
	unlink(path);
	snprintf(path, sizeof(path), "%s/proc", root);
	rmdir(path);
	rmdir(root);
	return 0;
}

/* 1,000 ticks pass, 50 of them stolen: 5 %; the worst round is 10 % */
static void share_and_worst(void **state)
{
	struct steal_watch w;
	write_stat("cpu  1000 0 500 8000 100 0 0 400 0 0");
	steal_watch_begin(&w, root);
	write_stat("cpu  1200 0 550 8200 100 0 0 450 0 0"); /* +500, +50 stolen: 10 % */
	steal_watch_round(&w, root);
	write_stat("cpu  1500 0 600 8350 100 0 0 450 0 0"); /* +500, none stolen */
	steal_watch_round(&w, root);
	steal_watch_end(&w, root);
	assert_true(fabs(w.share - 0.05) < 1e-12);
	assert_true(fabs(w.worst - 0.10) < 1e-12);
	assert_int_equal(w.rounds, 2);
	assert_true(w.share >= STEAL_WARN);
}

/* no steal field (an old kernel), no file, no time passed: unknown */
static void unknown(void **state)
{
	struct cpu_ticks a, b;
	write_stat("cpu  1000 0 500 8000 100 0 0");
	cpu_ticks_read(root, &a);
	assert_false(a.ok);
	cpu_ticks_read("/nonexistent-root", &b);
	assert_false(b.ok);
	write_stat("cpu  1000 0 500 8000 100 0 0 400 0 0");
	cpu_ticks_read(root, &a);
	cpu_ticks_read(root, &b);
	assert_true(a.ok && b.ok);
	assert_true(isnan(cpu_steal_share(&a, &b)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(share_and_worst, setup, teardown),
		cmocka_unit_test_setup_teardown(unknown, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
