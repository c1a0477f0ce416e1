/* Unit tests of harness/render.c: number formats, widths, bad input, and a
 * small merge written with --out.  Table-driven where the cases are alike. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>

#include <cmocka.h>

#include "render.h"
#include "util.h"

static void test_format_value(void **state)
{
	(void)state;
	static const struct {
		double v;
		const char *unit, *want;
	} cases[] = {
		{ 74.5 * 1048576, NULL, "74.5 MiB/s" },
		{ 7.36 * 1073741824.0, "bytes/s", "7.36 GiB/s" },
		{ 2048, "B/s", "2.0 KiB/s" },
		{ 512, NULL, "512 B/s" },
		{ 1.9e6, "blocks/s", "1.90 Mblocks/s" },
		{ 3.5e8, "ops/s", "350.00 Mops/s" },
		{ 2.5e9, "ops/s", "2.50 Gops/s" },
		{ 1234, "lines/s", "1.23 klines/s" },
		{ 12.5, "ops/s", "12.50 ops/s" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char buf[64];
		render_format_value(cases[i].v, cases[i].unit, buf, sizeof(buf));
		assert_string_equal(buf, cases[i].want);
	}
}

static void test_format_ratio_and_width(void **state)
{
	(void)state;
	char buf[32];
	render_format_ratio(101.536, buf, sizeof(buf));
	assert_string_equal(buf, "101.54x");
	render_format_ratio(1, buf, sizeof(buf));
	assert_string_equal(buf, "1.00x");
	assert_int_equal(render_width(""), 0);
	assert_int_equal(render_width("gcc/-O2"), 7);
	assert_int_equal(render_width("\xc3\xa9t\xc3\xa9"), 3);  /* "été" */
	assert_int_equal(render_width("\xe2\x86\x92x"), 2);       /* "→x" */
}

/* A temporary file with the given text; the caller unlinks and frees. */
static char *temp_file(const char *text)
{
	char *path = xstrdup("/tmp/flagbench-test-render-XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	size_t len = strlen(text);
	assert_int_equal(write(fd, text, len), (ssize_t)len);
	close(fd);
	return path;
}

/* Runs a subcommand with stdout and stderr sent to /dev/null. */
static int quietly(int (*cmd)(int, char **), int argc, char **argv)
{
	fflush(stdout);
	fflush(stderr);
	int out = dup(1), err = dup(2), null = open("/dev/null", O_WRONLY);
	dup2(null, 1);
	dup2(null, 2);
	close(null);
	int rc = cmd(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(out, 1);
	dup2(err, 2);
	close(out);
	close(err);
	return rc;
}

static void test_bad_input(void **state)
{
	(void)state;
	static const char *const texts[] = {
		"{\"schema\": \"flagbench-results/1\", \"cells\": [",   /* invalid JSON */
		"{\"schema\": \"something-else/1\", \"cells\": []}",    /* wrong schema */
		"{\"cells\": []}",                                      /* no schema */
		"{\"schema\": \"flagbench-results/1\", \"cells\": 3}", /* cells not an array */
		"[1, 2, 3]",                                            /* not an object */
	};
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		char *path = temp_file(texts[i]);
		char *rargv[] = { "report", path, NULL };
		char *margv[] = { "merge", path, NULL };
		assert_int_equal(quietly(cmd_report, 2, rargv), 2);
		assert_int_equal(quietly(cmd_merge, 2, margv), 2);
		unlink(path);
		free(path);
	}
	char *missing[] = { "report", "/nonexistent/flagbench-run", NULL };
	assert_int_equal(quietly(cmd_report, 2, missing), 2);
	char *none[] = { "report", NULL };
	assert_int_equal(quietly(cmd_report, 1, none), 2);
	char *nomerge[] = { "merge", NULL };
	assert_int_equal(quietly(cmd_merge, 1, nomerge), 2);
	char *badopt[] = { "merge", "--bogus", "x", NULL };
	assert_int_equal(quietly(cmd_merge, 3, badopt), 2);
}

#define CELL(v, cfg, st, bps, sp) \
	"{\"id\": \"f/" v "@" cfg "\", \"family\": \"f\", \"variant\": \"" v "\", \"config\": \"" cfg \
	"\", \"compiler\": \"gcc\", \"status\": \"" st "\", \"throughput_Bps\": " bps ", \"speedup\": " sp "}"

static void test_merge_out(void **state)
{
	(void)state;
	char *a = temp_file("{\"schema\": \"flagbench-results/1\", \"run\": {\"id\": \"a\", \"cpu_profile\": \"J4205\"},"
			    " \"families\": {\"f\": {\"kind\": \"stream\", \"baseline\": \"s\"}}, \"cells\": ["
			    CELL("s", "gcc/-O2/x", "ok", "{\"median\": 1048576}", "1") ","
			    CELL("t", "gcc/-O2/x", "crashed", "null", "null") ","
			    CELL("u", "gcc/-O3/x", "ok", "{\"median\": 2147483648}", "null") "]}");
	char *b = temp_file("{\"schema\": \"flagbench-results/1\", \"run\": {\"id\": \"b\", \"cpu_profile\": \"5700X\"},"
			    " \"families\": {\"f\": {\"kind\": \"stream\", \"baseline\": \"s\"}}, \"cells\": ["
			    CELL("s", "gcc/-O2/x", "ok", "{\"median\": 3145728}", "null") ","
			    CELL("t", "gcc/-O2/x", "ok", "{\"median\": 6291456}", "null") "]}");
	char *out = xasprintf("%s.md", a);
	char *argv[] = { "merge", "--out", out, a, b, NULL };
	assert_int_equal(quietly(cmd_merge, 5, argv), 0);
	char *md = read_file(out, NULL);
	assert_non_null(md);
	assert_non_null(strstr(md, "| variant | config | J4205 | J4205 speedup | 5700X | 5700X speedup |"));
	assert_non_null(strstr(md, "| s | gcc/-O2/x | 1.0 MiB/s | 1.00x | 3.0 MiB/s | 1.00x |"));
	/* not ok: the status word; speedup computed from the baseline when the cell has none */
	assert_non_null(strstr(md, "| t | gcc/-O2/x | crashed | crashed | 6.0 MiB/s | 2.00x |"));
	/* found in one run only: listed, not dropped */
	assert_non_null(strstr(md, "| J4205 | f | u | gcc/-O3/x | 2.00 GiB/s | n/a |"));
	free(md);
	unlink(out);
	unlink(a);
	unlink(b);
	free(out);
	free(a);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format_value),
		cmocka_unit_test(test_format_ratio_and_width),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_merge_out),
	};
	return cmocka_run_group_tests_name("render", tests, NULL, NULL);
}
