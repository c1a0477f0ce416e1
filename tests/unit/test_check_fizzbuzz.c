/* Unit tests of the fizzbuzz checker: expected_bytes() against a naive
 * generator (every N up to a few thousand, the digit-length boundaries, ranges
 * with START up to 19 digits), and what the checker accepts and rejects: the
 * right output, one changed byte anywhere, a missing last line, a missing
 * final newline, an extra line, the output for N + 1, no output at all.  The
 * stream reaches the checker through a temporary file. */
#define _GNU_SOURCE /* fileno */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "checks/check.h"

#define MAX_N 9999999999999999999ULL

static const struct checker *fb(void)
{
	const struct checker *c = checker_find("fizzbuzz");
	assert_non_null(c);
	return c;
}

/* ---- a naive generator: snprintf per line ---- */

struct text {
	char *buf;
	size_t len, cap;
};

static void text_add(struct text *t, const char *s, size_t n)
{
	if (t->len + n + 1 > t->cap) {
		t->cap = (t->len + n + 1) * 2;
		t->buf = realloc(t->buf, t->cap);
		assert_non_null(t->buf);
	}
	memcpy(t->buf + t->len, s, n);
	t->len += n;
	t->buf[t->len] = '\0';
}

static void naive(struct text *t, uint64_t first, uint64_t last)
{
	char line[32];
	t->len = 0;
	text_add(t, "", 0);
	for (uint64_t n = first; n <= last && n >= first; n++) {
		int k;
		if (n % 15 == 0)
			k = snprintf(line, sizeof(line), "FizzBuzz\n");
		else if (n % 3 == 0)
			k = snprintf(line, sizeof(line), "Fizz\n");
		else if (n % 5 == 0)
			k = snprintf(line, sizeof(line), "Buzz\n");
		else
			k = snprintf(line, sizeof(line), "%llu\n", (unsigned long long)n);
		text_add(t, line, (size_t)k);
	}
}

static uint64_t naive_bytes(uint64_t first, uint64_t last)
{
	uint64_t total = 0;
	char line[32];
	for (uint64_t n = first; n <= last && n >= first; n++) {
		if (n % 15 == 0)
			total += 9;
		else if (n % 3 == 0 || n % 5 == 0)
			total += 5;
		else
			total += (uint64_t)snprintf(line, sizeof(line), "%llu\n", (unsigned long long)n);
	}
	return total;
}

/* ---- running the checker on a buffer ---- */

static enum check_status run_check(uint64_t n, const char *start, const char *data, size_t len,
				   struct check_report *rep)
{
	FILE *f = tmpfile();
	assert_non_null(f);
	if (len)
		assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fflush(f), 0);
	rewind(f);
	char *argv[2] = { (char *)start, NULL };
	struct check_args a = { n, start ? 1 : 0, argv };
	memset(rep, 0, sizeof(*rep));
	enum check_status st = fb()->check(&a, fileno(f), rep);
	fclose(f);
	return st;
}

static uint64_t expected_bytes(uint64_t n, const char *start)
{
	char *argv[2] = { (char *)start, NULL };
	struct check_args a = { n, start ? 1 : 0, argv };
	return fb()->expected_bytes(&a);
}

static void expect_ok(uint64_t first, uint64_t last)
{
	struct text t = { 0 };
	char start[24];
	struct check_report rep;
	snprintf(start, sizeof(start), "%llu", (unsigned long long)first);
	naive(&t, first, last);
	enum check_status st = run_check(last, start, t.buf, t.len, &rep);
	if (st != CHECK_OK)
		fail_msg("lines %llu..%llu rejected: %s", (unsigned long long)first, (unsigned long long)last,
			 rep.message);
	assert_int_equal(rep.bytes, t.len);
	free(t.buf);
}

static void expect_mismatch(uint64_t n, const char *start, const char *data, size_t len, const char *want_in_msg)
{
	struct check_report rep;
	enum check_status st = run_check(n, start, data, len, &rep);
	if (st != CHECK_MISMATCH)
		fail_msg("accepted (status %d) but should not: n=%llu", (int)st, (unsigned long long)n);
	if (want_in_msg && !strstr(rep.message, want_in_msg))
		fail_msg("message \"%s\" does not contain \"%s\"", rep.message, want_in_msg);
}

/* ---- expected_bytes ---- */

static void test_bytes_small(void **state)
{
	(void)state;
	uint64_t total = 0;
	for (uint64_t n = 0; n <= 5000; n++) {
		if (n)
			total += naive_bytes(n, n);
		assert_int_equal(expected_bytes(n, NULL), total);
	}
}

static void test_bytes_boundaries(void **state)
{
	(void)state;
	/* 1..N straight from the naive count up to 10^6 + 31 */
	uint64_t total = 0, n = 0;
	static const uint64_t marks[] = { 9, 10, 11, 99, 100, 101, 999, 1000, 1001, 9999, 10000, 10001,
					  99999, 100000, 100001, 999999, 1000000, 1000001, 1000031 };
	for (size_t i = 0; i < sizeof(marks) / sizeof(marks[0]); i++) {
		total += naive_bytes(n + 1, marks[i]);
		n = marks[i];
		assert_int_equal(expected_bytes(n, NULL), total);
	}
	/* ranges START..N around every power of ten, up to 19 digits */
	char start[24];
	for (uint64_t p = 10; p <= 1000000000000000000ULL; p *= 10) {
		static const int64_t da[] = { -301, -30, -1, 0, 1, 29 }, db[] = { -1, 0, 1, 30, 300 };
		for (size_t i = 0; i < 6; i++)
			for (size_t j = 0; j < 5; j++) {
				uint64_t a = da[i] < 0 && p <= (uint64_t)-da[i] ? 1 : p + (uint64_t)da[i];
				uint64_t b = p + (uint64_t)db[j];
				snprintf(start, sizeof(start), "%llu", (unsigned long long)a);
				assert_int_equal(expected_bytes(b, start), naive_bytes(a, b));
			}
	}
	/* the largest numbers, START > N, past 2^32, and sums of pieces */
	assert_int_equal(expected_bytes(MAX_N, "9999999999999998000"), naive_bytes(9999999999999998000ULL, MAX_N));
	assert_int_equal(expected_bytes(10, "11"), 0);
	assert_int_equal(expected_bytes(4294967396ULL, "4294967196"), naive_bytes(4294967196ULL, 4294967396ULL));
	uint64_t whole = expected_bytes(1000000000000ULL, NULL);
	snprintf(start, sizeof(start), "%llu", 123456789013ULL);
	assert_int_equal(whole, expected_bytes(123456789012ULL, NULL) + expected_bytes(1000000000000ULL, start));
	/* the seed's size: 2^32 lines are 33.3 GiB */
	assert_int_equal(expected_bytes(4294967296ULL, NULL), 35771463853ULL);
	/* too much to count in 64 bits, and bad arguments: unknown */
	assert_int_equal(expected_bytes(MAX_N, NULL), UINT64_MAX);
	assert_int_equal(expected_bytes(MAX_N + 1, NULL), UINT64_MAX);
	assert_int_equal(expected_bytes(10, "0"), UINT64_MAX);
	assert_int_equal(expected_bytes(10, "x"), UINT64_MAX);
}

/* ---- the checker ---- */

static void test_accepts(void **state)
{
	(void)state;
	for (uint64_t n = 0; n <= 130; n++)
		expect_ok(1, n);
	expect_ok(1, 20000); /* more than one generated buffer */
	for (uint64_t p = 10; p <= 1000000000000000000ULL; p *= 10) {
		expect_ok(p - 1, p + 1);
		expect_ok(p > 300 ? p - 300 : 1, p + 301);
	}
	expect_ok(4294967196ULL, 4294967396ULL);
	expect_ok(9999999999999999000ULL, MAX_N);
	expect_ok(MAX_N, MAX_N);
	expect_ok(12, 11); /* START > N: no output */
}

static void test_rejects_each_changed_byte(void **state)
{
	(void)state;
	struct text t = { 0 };
	naive(&t, 1, 130);
	for (size_t i = 0; i < t.len; i++) {
		char saved = t.buf[i];
		t.buf[i] = saved == '1' ? '2' : '1';
		expect_mismatch(130, NULL, t.buf, t.len, "differs");
		t.buf[i] = saved;
	}
	/* the message names the line, the expected and the received text */
	naive(&t, 1, 100);
	char *at = strstr(t.buf, "\n47\n");
	assert_non_null(at);
	at[2] = '6';
	struct check_report rep;
	assert_int_equal(run_check(100, NULL, t.buf, t.len, &rep), CHECK_MISMATCH);
	assert_non_null(strstr(rep.message, "line 47 "));
	assert_non_null(strstr(rep.message, "expected \"47\\n\""));
	assert_non_null(strstr(rep.message, "received \"46\\n\""));
	/* a change deep in a long stream, in a 19-digit number */
	naive(&t, 9999999999999990000ULL, MAX_N);
	t.buf[t.len - 7] ^= 1; /* "...9998\nFizz\n": the 8 */
	expect_mismatch(MAX_N, "9999999999999990000", t.buf, t.len, "line 9999999999999999998 ");
	free(t.buf);
}

static void test_rejects_wrong_length(void **state)
{
	(void)state;
	struct text t = { 0 }, more = { 0 };
	naive(&t, 1, 100);
	naive(&more, 1, 101);
	/* the last line missing */
	expect_mismatch(100, NULL, t.buf, t.len - 5, "line 100 (\"Buzz\\n\")");
	/* the final newline missing */
	expect_mismatch(100, NULL, t.buf, t.len - 1, "inside line 100");
	/* an extra line, and the output for N + 1 */
	expect_mismatch(99, NULL, t.buf, t.len, "extra output after line 99");
	expect_mismatch(100, NULL, more.buf, more.len, "extra output after line 100");
	/* an extra newline, nothing at all, output where none is expected */
	text_add(&t, "\n", 1);
	expect_mismatch(100, NULL, t.buf, t.len, "extra output");
	expect_mismatch(100, NULL, "", 0, "line 1 ");
	expect_mismatch(0, NULL, "1\n", 2, "extra output");
	expect_mismatch(5, "6", "1\n", 2, "no lines expected");
	/* with START: the output from 1 instead of from START */
	naive(&t, 1, 60);
	expect_mismatch(60, "50", t.buf, t.len, "line 50 ");
	free(t.buf);
	free(more.buf);
}

static void test_bad_args(void **state)
{
	(void)state;
	struct check_report rep;
	assert_int_equal(run_check(MAX_N + 1, NULL, "", 0, &rep), CHECK_BAD_ARGS);
	assert_int_equal(run_check(10, "0", "", 0, &rep), CHECK_BAD_ARGS);
	assert_int_equal(run_check(10, "1x", "", 0, &rep), CHECK_BAD_ARGS);
	assert_int_equal(run_check(10, "10000000000000000000", "", 0, &rep), CHECK_BAD_ARGS);
	char *argv[2] = { "1", "2" };
	struct check_args a = { 10, 2, argv };
	memset(&rep, 0, sizeof(rep));
	assert_int_equal(fb()->check(&a, 0, &rep), CHECK_BAD_ARGS);
	assert_non_null(strstr(fb()->usage, "START"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bytes_small),
		cmocka_unit_test(test_bytes_boundaries),
		cmocka_unit_test(test_accepts),
		cmocka_unit_test(test_rejects_each_changed_byte),
		cmocka_unit_test(test_rejects_wrong_length),
		cmocka_unit_test(test_bad_args),
	};
	return cmocka_run_group_tests_name("check_fizzbuzz", tests, NULL, NULL);
}
