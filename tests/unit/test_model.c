/* Unit tests of harness/tables/render.c: number formats (usec/op for ops/s, the ±
 * of a figure, its marks), widths, bad input, a small report (±, †, ‡,
 * usec/op, a reference per placement) and a small merge written with --out.
 * Table-driven where the cases are alike. */
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
#include <math.h>

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
		{ 3.5e8, "blocks/s", "350.00 Mblocks/s" },
		{ 2.5e9, "lines/s", "2.50 Glines/s" },
		{ 1234, "lines/s", "1.23 klines/s" },
		/* a family counted in operations: microseconds per operation, as the seeds print them */
		{ 6.45e6, "ops/s", "0.155 usec/op" },
		{ 1e6 / 5.347, "ops/s", "5.347 usec/op" },
		{ 1e6 / 589.21089, "ops/s", "589.211 usec/op" },
		{ 12.5, "ops/s", "80000.000 usec/op" },
		{ 3.5e8, "ops/s", "0.00286 usec/op" },  /* 3 significant digits below 0.01 */
		{ 2.5e9, "op/s", "0.000400 usec/op" },
		{ 0, "ops/s", "0.00 ops/s" },           /* no rate: no time per operation */
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
	render_format_ratio(0.000221, buf, sizeof(buf));   /* ec_mul against fp_mul */
	assert_string_equal(buf, "0.000221x");
	render_format_ratio(0.0123, buf, sizeof(buf));
	assert_string_equal(buf, "0.01x");
	assert_int_equal(render_width(""), 0);
	assert_int_equal(render_width("gcc/-O2"), 7);
	assert_int_equal(render_width("\xc3\xa9t\xc3\xa9"), 3);  /* "été" */
	assert_int_equal(render_width("\xe2\x86\x92x"), 2);       /* "→x" */
}

static void test_format_cell(void **state)
{
	(void)state;
	static const struct {
		const char *figure;
		double ci;
		const char *marks, *want;
	} cases[] = {
		{ "7.36 GiB/s", 1.2, NULL, "7.36 GiB/s \xc2\xb1" "1.2%" },
		{ "7.36 GiB/s", 1.25, "", "7.36 GiB/s \xc2\xb1" "1.2%" },  /* %.1f: ties to even */
		{ "7.36 GiB/s", 0, NULL, "7.36 GiB/s \xc2\xb1" "0.0%" },
		{ "7.36 GiB/s", -1, NULL, "7.36 GiB/s" },                    /* no interval */
		{ "7.36 GiB/s", NAN, NULL, "7.36 GiB/s" },
		{ "0.102 usec/op", 9.13, "\xe2\x80\xa0", "0.102 usec/op \xc2\xb1" "9.1% \xe2\x80\xa0" },
		{ "101.35x", -1, "\xe2\x80\xa0\xe2\x80\xa1", "101.35x \xe2\x80\xa0\xe2\x80\xa1" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char buf[96];
		render_format_cell(cases[i].figure, cases[i].ci, cases[i].marks, buf, sizeof(buf));
		assert_string_equal(buf, cases[i].want);
	}
	/* the terminal width counts ± and † as one column each */
	assert_int_equal(render_width("7.36 GiB/s \xc2\xb1" "1.2% \xe2\x80\xa0"), 18);
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

/* Runs a subcommand with stdout captured (stderr sent to /dev/null); returns the text. */
static char *captured(int (*cmd)(int, char **), int argc, char **argv, int *rc)
{
	char *path = xstrdup("/tmp/flagbench-test-render-out-XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	fflush(stdout);
	fflush(stderr);
	int out = dup(1), err = dup(2), null = open("/dev/null", O_WRONLY);
	dup2(fd, 1);
	dup2(null, 2);
	close(null);
	close(fd);
	*rc = cmd(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(out, 1);
	dup2(err, 2);
	close(out);
	close(err);
	char *text = read_file(path, NULL);
	assert_non_null(text);
	unlink(path);
	free(path);
	return text;
}

/* A cell of the new style: time_s with its interval, throttled, warnings. */
#define TCELL(fam, v, cfg, extra, rate, ci, nruns, thr, warn) \
	"{\"id\": \"" fam "/" v "@" cfg "\", \"family\": \"" fam "\", \"variant\": \"" v "\", \"config\": \"" cfg \
	"\", " extra "\"status\": \"ok\", " rate ", \"time_s\": {\"median\": 1, \"ci95_percent\": " ci \
	", \"runs\": " nruns "}, \"throttled\": " thr ", \"warnings\": " warn "}"

static void test_report_marks(void **state)
{
	(void)state;
	char *path = temp_file(
		"{\"schema\": \"flagbench-results/1\", \"run\": {\"id\": \"r\", \"cpu_profile\": \"host\"},"
		" \"families\": {\"bignum\": {\"kind\": \"compute\", \"unit\": \"ops\", \"baseline\": \"fp\"},"
		" \"yes\": {\"kind\": \"stream\", \"baseline\": \"buf\"}}, \"cells\": ["
		TCELL("bignum", "fp", "gcc/-O2/default/glibc", "\"compiler\": \"gcc\", ",
		      "\"rate\": {\"median\": 6450000, \"unit\": \"ops/s\"}", "2.5", "[1, 1, 1]", "\"no\"", "[]") ","
		TCELL("bignum", "fp", "gcc/-O2/default/mimalloc", "\"compiler\": \"gcc\", ",
		      "\"rate\": {\"median\": 8000000, \"unit\": \"ops/s\"}", "1.5", "[1, 1, 1]", "\"yes\"",
		      "[\"throttled: package throttle count rose\"]") ","
		TCELL("bignum", "ec", "gcc/-O2/default/glibc", "\"compiler\": \"gcc\", ",
		      "\"rate\": {\"median\": 2000, \"unit\": \"ops/s\"}", "4", "[1, 1, 1]", "\"unknown\"",
		      "[\"precision 1% not reached\"]") ","
		/* two runs: ci95_percent 0 as stats writes it, no interval shown */
		TCELL("bignum", "ec", "gcc/-O2/default/mimalloc", "\"compiler\": \"gcc\", ",
		      "\"rate\": {\"median\": 2500, \"unit\": \"ops/s\"}", "0", "[1, 1]", "null", "[]") ","
		/* a reference measured per placement: each column shows its own */
		TCELL("yes", "buf", "gcc/-O2/default/same_l3", "\"compiler\": \"gcc\", \"placement\": \"same_l3\", ",
		      "\"throughput_Bps\": {\"median\": 1073741824}", "3", "[1, 1, 1]", "\"no\"", "[]") ","
		TCELL("yes", "buf", "gcc/-O2/default/unpinned", "\"compiler\": \"gcc\", \"placement\": \"unpinned\", ",
		      "\"throughput_Bps\": {\"median\": 2147483648}", "1", "[1, 1, 1]", "\"no\"", "[]") ","
		TCELL("yes", "ref", "reference/unpinned", "\"compiler\": \"none\", \"placement\": \"unpinned\", ",
		      "\"throughput_Bps\": {\"median\": 3221225472}", "2", "[1, 1, 1]", "\"no\"", "[]") ","
		TCELL("yes", "ref", "reference/same_l3", "\"compiler\": \"none\", \"placement\": \"same_l3\", ",
		      "\"throughput_Bps\": {\"median\": 1048576}", "5", "[1, 1, 1]", "\"no\"", "[]") "]}");
	char *argv[] = { "report", path, NULL };
	int rc;
	char *out = captured(cmd_report, 2, argv, &rc);
	assert_int_equal(rc, 0);
	/* usec/op with ±; † on the throttled cell, whose throttle note is not listed again */
	assert_non_null(strstr(out, "time per operation (usec/op, lower is faster), median"));
	assert_non_null(strstr(out, "\nfp           0.155 usec/op \xc2\xb1" "2.5%     0.125 usec/op \xc2\xb1" "1.5% \xe2\x80\xa0\n"));
	assert_non_null(strstr(out, "\nec       500.000 usec/op \xc2\xb1" "4.0% \xe2\x80\xa1           400.000 usec/op\n"));
	assert_non_null(strstr(out, "\xe2\x80\xa0: measured while the CPU throttled"));
	assert_non_null(strstr(out, "  bignum/ec@gcc/-O2/default/glibc: precision 1% not reached\n"));
	assert_null(strstr(out, "throttle count"));
	/* speedups: ± of both combined (sqrt(2.5^2 + 4^2) = 4.7), none on the baseline's 1.00x,
	 * † where the baseline throttled, none without an interval */
	assert_non_null(strstr(out, "\nfp                       1.00x                     1.00x\n"));
	assert_non_null(strstr(out, "\nec             0.000310x \xc2\xb1" "4.7%               0.000313x \xe2\x80\xa0\n"));
	/* the reference row follows each column's placement */
	assert_non_null(strstr(out, "\nref (reference)          1.0 MiB/s \xc2\xb1" "5.0%          3.00 GiB/s \xc2\xb1" "2.0%\n"));
	assert_non_null(strstr(out, "\nref (reference)          0.000977x \xc2\xb1" "5.8%               1.50x \xc2\xb1" "2.2%\n"));
	free(out);
	unlink(path);
	free(path);
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
		cmocka_unit_test(test_format_cell),
		cmocka_unit_test(test_report_marks),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_merge_out),
	};
	return cmocka_run_group_tests_name("render", tests, NULL, NULL);
}
