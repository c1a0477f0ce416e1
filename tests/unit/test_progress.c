/* test_progress.c: what a long build or step prints while it runs: the
 * build's lines and eta (pipeline/build_progress.h) and the heartbeat of a
 * single long step (core/heartbeat.h). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/heartbeat.h"
#include "core/util.h"
#include "pipeline/build_progress.h"

static char *read_all(FILE *f)
{
	fflush(f);
	long n = ftell(f);
	char *buf = calloc(1, (size_t)n + 1);
	rewind(f);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	return buf;
}

static size_t count_of(const char *text, const char *word)
{
	size_t n = 0;
	for (const char *p = text; (p = strstr(p, word)); p += strlen(word))
		n++;
	return n;
}

/* Six one-minute compiles, two at a time: a line on start, one each 10 s
 * (none before), the longest named, the eta from the first finished on. */
static void build_lines(void **state)
{
	FILE *f = tmpfile();
	struct build_progress bp;
	build_progress_begin(&bp, f, 6, 3, 2, 100);
	struct build_running run[2] = { { "big/a@gcc/-O2", 100 }, { "big/a@clang/-O2", 105 } };
	build_progress_tick(&bp, 105, run, 2); /* too soon */
	build_progress_tick(&bp, 110, run, 2);
	/* the first finished at 160 after 60 s: 3 waiting, one just started, one
	 * 55 s in (5 s left, but at least a tenth of the mean: 6 s), over 2
	 * compilers: (3 x 60 + 60 + 6) / 2 */
	build_progress_finished(&bp, 60, 1);
	run[0] = (struct build_running){ "big/a@gcc/-O3", 160 };
	double eta = build_progress_eta(&bp, 160, run, 2);
	assert_true(fabs(eta - (3 * 60 + 60 + 6) / 2.0) < 1e-9);
	build_progress_tick(&bp, 160, run, 2);
	build_progress_end(&bp, 400);
	char *out = read_all(f);
	assert_non_null(strstr(out, "flagbench: building 6 programs, 2 at a time (3 more in the build cache)\n"));
	assert_int_equal(count_of(out, "flagbench: building: "), 2);
	assert_non_null(strstr(out, "building: 0 of 6 done, 2 running (the longest: big/a@gcc/-O2, for 10s) after 10s; "
				    "builds eta ?\n"));
	assert_non_null(strstr(out, "building: 1 of 6 done, 2 running (the longest: big/a@clang/-O2, for 55s) after 1m00s; "
				    "builds eta 2m03s\n"));
	assert_non_null(strstr(out, "flagbench: built 1 of 6 in 5m00s\n"));
	free(out);
	fclose(f);
}

/* A cell with dozens of flags is named by the words that fit and a count
 * (explain's line once printed 23 flags of zstd's, 600 characters). */
static void build_name_shortened(void **state)
{
	(void)state;
	char out[BUILD_PROGRESS_NAME + 32];
	build_progress_name("big/a@gcc/-O2", out, sizeof(out));
	assert_string_equal(out, "big/a@gcc/-O2");
	struct strbuf w = STRBUF_INIT;
	sb_adds(&w, "zstd/l3@gcc/-O2/default");
	for (int i = 0; i < 23; i++)
		sb_addf(&w, " -fno-flag-number-%02d", i);
	build_progress_name(w.buf, out, sizeof(out));
	assert_true(strlen(out) <= BUILD_PROGRESS_NAME);
	/* the id (23) and two flags of 20 fit in the 76 left before the count: 21 more */
	assert_string_equal(out, "zstd/l3@gcc/-O2/default -fno-flag-number-00 -fno-flag-number-01 and 21 more flags");
	sb_release(&w);
}

/* A compile that runs longer than the mean is never said to end now, and
 * one compile alone is not shared by two compilers. */
static void build_eta_longest(void **state)
{
	struct build_progress bp;
	build_progress_begin(&bp, NULL, 2, 0, 2, 0);
	build_progress_finished(&bp, 10, 1);
	struct build_running run = { "x", 0 };
	assert_true(fabs(build_progress_eta(&bp, 100, &run, 1) - 1) < 1e-9);
	assert_true(fabs(build_progress_eta(&bp, 4, &run, 1) - 6) < 1e-9);
	build_progress_begin(&bp, NULL, 2, 0, 2, 0);
	assert_true(build_progress_eta(&bp, 4, &run, 1) < 0); /* nothing finished: nothing known */
}

static void sleep_s(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (time_t)s) * 1e9) };
	nanosleep(&ts, NULL);
}

/* A long step says itself while it runs; a line of the stage's own starts
 * the silence again; nested steps say the inner one; an ended step is
 * silent. */
static void heartbeat_lines(void **state)
{
	FILE *f = tmpfile();
	heartbeat_to(f);
	heartbeat_every(0.3);
	heartbeat_begin("timing 6 cells");
	heartbeat_begin("counting big/a@gcc/-O2 (callgrind)");
	sleep_s(0.5);
	heartbeat_end();
	sleep_s(0.4);
	heartbeat_end();
	sleep_s(0.5);
	char *out = read_all(f);
	assert_non_null(strstr(out, "flagbench: counting big/a@gcc/-O2 (callgrind): 0s so far\n"));
	assert_non_null(strstr(out, "flagbench: timing 6 cells: "));
	size_t lines = count_of(out, "\n");
	assert_true(lines >= 2 && lines <= 4);
	free(out);
	/* a line of its own every 0.2 s: the heartbeat has nothing to say */
	FILE *g = tmpfile();
	heartbeat_to(g);
	heartbeat_begin("verifying x");
	for (int i = 0; i < 5; i++) {
		heartbeat_spoke();
		sleep_s(0.15);
	}
	heartbeat_end();
	out = read_all(g);
	assert_string_equal(out, "");
	free(out);
	heartbeat_to(NULL);
	fclose(f);
	fclose(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(build_lines),
		cmocka_unit_test(build_eta_longest),
		cmocka_unit_test(build_name_shortened),
		cmocka_unit_test(heartbeat_lines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
