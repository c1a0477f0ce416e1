/* Unit tests of the bignum family's reference and checker, and of the
 * allocator table: known multiples k*G on secp256k1, the group law, the
 * expected outputs of fp_mul and ec_mul, what the checker accepts and
 * rejects, and how allocator libraries are found or explained missing. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "system/allocators.h"
#include "checks/bignum_ref.h"
#include "checks/check.h"

static const char GX_HEX[] = "79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798";
static const char GY_HEX[] = "483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8";

static void assert_point(const struct ec_point *p, const char *x, const char *y)
{
	char gx[80], gy[80];
	assert_false(p->inf);
	gmp_snprintf(gx, sizeof(gx), "%064Zx", p->x);
	gmp_snprintf(gy, sizeof(gy), "%064Zx", p->y);
	assert_string_equal(gx, x);
	assert_string_equal(gy, y);
	assert_true(ec_on_curve(p));
}

static void mul_hex(struct ec_point *r, const char *k_hex)
{
	struct ec_point g;
	ec_point_init(&g);
	ec_generator(&g);
	mpz_t k;
	mpz_init_set_str(k, k_hex, 16);
	ec_mul(r, k, &g);
	mpz_clear(k);
	ec_point_clear(&g);
}

/* ---- known answers ---- */

static void test_known_multiples(void **state)
{
	static const struct {
		const char *k, *x, *y;
	} v[] = {
		{ "1", GX_HEX, GY_HEX },
		{ "2", "c6047f9441ed7d6d3045406e95c07cd85c778e4b8cef3ca7abac09b95c709ee5",
		  "1ae168fea63dc339a3c58419466ceaeef7f632653266d0e1236431a950cfe52a" },
		{ "3", "f9308a019258c31049344f85f89d5229b531c845836f99b08601f113bce036f9",
		  "388f7b0f632de8140fe337e62a37f3566500a99934c2231b6cb9fd7584b8e672" },
		/* a published test vector with a full-size scalar */
		{ "aa5e28d6a97a2479a65527f7290311a3624d4cc0fa1578598ee3c2613bf99522",
		  "34f9460f0e4f08393d192b3c5133a6ba099aa0ad9fd54ebccfacdfa239ff49c6",
		  "0b71ea9bd730fd8923f6d25a7a91e7dd7728a960686cb5a901bb419e0f2ca232" },
		/* n - 1: -G, the same x and y = p - Gy */
		{ "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364140", GX_HEX,
		  "b7c52588d95c3b9aa25b0403f1eef75702e84bb7597aabe663b82f6f04ef2777" },
	};
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct ec_point r;
		ec_point_init(&r);
		mul_hex(&r, v[i].k);
		assert_point(&r, v[i].x, v[i].y);
		ec_point_clear(&r);
	}
	/* p - Gy as stated above */
	mpz_t t;
	mpz_init(t);
	mpz_sub(t, secp256k1_p(), secp256k1_gy());
	char hex[80];
	gmp_snprintf(hex, sizeof(hex), "%064Zx", t);
	assert_string_equal(hex, v[4].y);
	mpz_clear(t);
}

static void test_order_and_infinity(void **state)
{
	struct ec_point r, g, neg;
	ec_point_init(&r);
	ec_point_init(&g);
	ec_point_init(&neg);
	ec_generator(&g);
	assert_true(ec_on_curve(&g));
	mpz_t k;
	mpz_init_set(k, secp256k1_n());
	ec_mul(&r, k, &g); /* n G = infinity */
	assert_true(r.inf);
	mpz_set_ui(k, 0);
	ec_mul(&r, k, &g);
	assert_true(r.inf);
	/* G + (-G) = infinity; G + infinity = G; G + G = 2G */
	mpz_sub_ui(k, secp256k1_n(), 1);
	ec_mul(&neg, k, &g);
	ec_add(&r, &g, &neg);
	assert_true(r.inf);
	ec_add(&r, &r, &g);
	assert_point(&r, GX_HEX, GY_HEX);
	ec_add(&r, &r, &r);
	assert_point(&r, "c6047f9441ed7d6d3045406e95c07cd85c778e4b8cef3ca7abac09b95c709ee5",
		     "1ae168fea63dc339a3c58419466ceaeef7f632653266d0e1236431a950cfe52a");
	mpz_clear(k);
	ec_point_clear(&r);
	ec_point_clear(&g);
	ec_point_clear(&neg);
}

/* (a + b) G = a G + b G for a few large a, b */
static void test_group_law(void **state)
{
	struct ec_point g, pa, pb, sum, direct;
	ec_point_init(&g);
	ec_point_init(&pa);
	ec_point_init(&pb);
	ec_point_init(&sum);
	ec_point_init(&direct);
	ec_generator(&g);
	mpz_t a, b, c;
	mpz_inits(a, b, c, NULL);
	for (uint64_t i = 0; i < 4; i++) {
		bignum_ec_scalar(a, i);
		bignum_ec_scalar(b, 1000 + i * 77);
		mpz_add(c, a, b);
		mpz_mod(c, c, secp256k1_n());
		ec_mul(&pa, a, &g);
		ec_mul(&pb, b, &g);
		ec_add(&sum, &pa, &pb);
		ec_mul(&direct, c, &g);
		assert_false(sum.inf);
		assert_int_equal(mpz_cmp(sum.x, direct.x), 0);
		assert_int_equal(mpz_cmp(sum.y, direct.y), 0);
		assert_true(ec_on_curve(&sum));
	}
	mpz_clears(a, b, c, NULL);
	ec_point_clear(&g);
	ec_point_clear(&pa);
	ec_point_clear(&pb);
	ec_point_clear(&sum);
	ec_point_clear(&direct);
}

static void test_scalars(void **state)
{
	mpz_t k;
	mpz_init(k);
	char hex[80];
	bignum_ec_scalar(k, 0);
	gmp_snprintf(hex, sizeof(hex), "%064Zx", k);
	assert_string_equal(hex, "243f6a8885a308d313198a2e03707344a4093822299f31d0082efa98ec4e6c89");
	bignum_ec_scalar(k, 1); /* 2 K0 mod n */
	gmp_snprintf(hex, sizeof(hex), "%064Zx", k);
	assert_string_equal(hex, "487ed5110b4611a62633145c06e0e68948127044533e63a0105df531d89cd912");
	bignum_ec_scalar(k, UINT64_MAX - 1); /* i + 1 = 2^64 - 1 must not wrap */
	assert_true(mpz_sgn(k) > 0 && mpz_cmp(k, secp256k1_n()) < 0);
	mpz_clear(k);
}

/* ---- expected outputs (computed independently with Python integers) ---- */

static void test_fp_mul_expected(void **state)
{
	static const struct {
		uint64_t n;
		const char *line;
	} v[] = {
		{ 0, "79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798\n" },
		{ 1, "fd3dc529c6eb60fb9d166034cf3c1a5a72324aa9dfd3428a56d7e1ce0179fd9b\n" },
		{ 1000, "ac8a00220cbcaa5e07bb4552b4df61c0e664f1b204536cb144cad5ab4b547c1f\n" },
		{ 12345678901234, "31097bfa50fa57ee1ca7ba1cfa6a0c76a986ce69f4b26de63f78989ee03f579b\n" },
	};
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		char line[BIGNUM_FP_MUL_LINE + 1];
		bignum_fp_mul_expected(v[i].n, line);
		assert_string_equal(line, v[i].line);
	}
}

static void test_ec_mul_expected(void **state)
{
	static const struct {
		uint64_t n;
		const char *line;
	} v[] = {
		{ 0, "0000000000000000000000000000000000000000000000000000000000000000 "
		     "0000000000000000000000000000000000000000000000000000000000000000\n" },
		/* K0 G */
		{ 1, "359805af09494a6015501a5f5ebadee846461f6191914596ed9856f7c7d59e06 "
		     "5c116c04cad47238f2a427b4696375ea69324db42c14bfce56acd75cf9cb4b7b\n" },
		{ 5, "1d63ba94eaa1adb4f4dccfc917cdc03f9630f598cb829408fbc55e642388a440 "
		     "25036be1d126d63c147e42cab5159aa2dba12703edb6969f88380bdabfeb3b55\n" },
		{ 20, "66033d498538e55fe8bf20ce4392be29d8e8256075fc51bc49397e743b6f8823 "
		      "e65d6f5fdfa6e98910d29a1a2dc52f5602f63b1a037c785bb611a7a9afbfc4af\n" },
	};
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		char line[BIGNUM_EC_MUL_LINE + 1];
		bignum_ec_mul_expected(v[i].n, line);
		assert_string_equal(line, v[i].line);
	}
}

/* ---- the checker ---- */

static enum check_status run_check(uint64_t n, int argc, char **argv, const char *data, struct check_report *rep)
{
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	size_t len = strlen(data);
	assert_int_equal(write(fds[1], data, len), (ssize_t)len);
	close(fds[1]);
	struct check_args a = { n, argc, argv };
	memset(rep, 0, sizeof(*rep));
	enum check_status st = checker_bignum.check(&a, fds[0], rep);
	close(fds[0]);
	return st;
}

static void test_checker(void **state)
{
	assert_ptr_equal(checker_find("bignum"), &checker_bignum);
	char *fp[] = { "fp_mul" }, *ec[] = { "ec_mul" }, *bad[] = { "fp_add" }, *two[] = { "fp_mul", "x" };
	struct check_args a = { 10, 1, fp };
	assert_int_equal(checker_bignum.expected_bytes(&a), BIGNUM_FP_MUL_LINE);
	a.argv = ec;
	assert_int_equal(checker_bignum.expected_bytes(&a), BIGNUM_EC_MUL_LINE);
	a.argc = 0;
	assert_true(checker_bignum.expected_bytes(&a) == UINT64_MAX);

	struct check_report rep;
	const char *fp1000 = "ac8a00220cbcaa5e07bb4552b4df61c0e664f1b204536cb144cad5ab4b547c1f\n";
	assert_int_equal(run_check(1000, 1, fp, fp1000, &rep), CHECK_OK);
	assert_int_equal(rep.bytes, BIGNUM_FP_MUL_LINE);
	assert_int_equal(run_check(1001, 1, fp, fp1000, &rep), CHECK_MISMATCH);
	assert_non_null(strstr(rep.message, "fp_mul 1001: differs at byte 0"));
	assert_int_equal(run_check(1000, 1, ec, fp1000, &rep), CHECK_MISMATCH);
	assert_int_equal(run_check(1000, 1, fp, "ac8a0022", &rep), CHECK_MISMATCH);
	assert_non_null(strstr(rep.message, "output ends at byte 8"));
	char extra[100];
	snprintf(extra, sizeof(extra), "%sdone\n", fp1000);
	assert_int_equal(run_check(1000, 1, fp, extra, &rep), CHECK_MISMATCH);
	assert_non_null(strstr(rep.message, "extra output"));
	const char *ec5 = "1d63ba94eaa1adb4f4dccfc917cdc03f9630f598cb829408fbc55e642388a440 "
			  "25036be1d126d63c147e42cab5159aa2dba12703edb6969f88380bdabfeb3b55\n";
	assert_int_equal(run_check(5, 1, ec, ec5, &rep), CHECK_OK);
	/* the same N again comes from the memo */
	assert_int_equal(run_check(5, 1, ec, ec5, &rep), CHECK_OK);

	assert_int_equal(run_check(5, 0, NULL, ec5, &rep), CHECK_BAD_ARGS);
	assert_non_null(strstr(rep.message, "operation after N is missing"));
	assert_int_equal(run_check(5, 1, bad, ec5, &rep), CHECK_BAD_ARGS);
	assert_non_null(strstr(rep.message, "unknown operation 'fp_add'"));
	assert_int_equal(run_check(5, 2, two, ec5, &rep), CHECK_BAD_ARGS);
}

/* ---- allocators ---- */

static void test_allocator_table(void **state)
{
	static const char *const names[] = { "glibc", "mimalloc", "jemalloc", "tcmalloc" };
	assert_int_equal(nallocators, 4);
	for (size_t i = 0; i < 4; i++) {
		const struct allocator *a = allocator_find(names[i]);
		assert_non_null(a);
		assert_string_equal(a->name, names[i]);
		assert_non_null(a->package);
	}
	assert_null(allocator_find("hoard"));
	char why[512];
	const char *lib = allocator_library("glibc", why, sizeof(why));
	assert_non_null(lib);
	assert_string_equal(lib, "");
	assert_null(allocator_library("hoard", why, sizeof(why)));
	assert_non_null(strstr(why, "unknown allocator 'hoard': known are glibc, mimalloc, jemalloc, tcmalloc"));
	assert_null(allocator_library("lib/libfoo.so", why, sizeof(why)));
	assert_non_null(strstr(why, "must be an absolute path"));
	assert_null(allocator_library("/nonexistent/libfoo.so", why, sizeof(why)));
	assert_non_null(strstr(why, "is not readable"));
}

static void test_allocator_search(void **state)
{
	char dir[] = "/tmp/flagbench-alloc-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char *old = getenv("FLAGBENCH_ALLOCATOR_DIRS") ? strdup(getenv("FLAGBENCH_ALLOCATOR_DIRS")) : NULL;
	char dirs[256], path[300], why[512];
	snprintf(dirs, sizeof(dirs), "/nonexistent:%s", dir);
	setenv("FLAGBENCH_ALLOCATOR_DIRS", dirs, 1);

	/* missing: the reason names the file, where it looked, and the package */
	assert_null(allocator_library("mimalloc", why, sizeof(why)));
	char want[400];
	snprintf(want, sizeof(want), "mimalloc: libmimalloc.so.2 not found in /nonexistent, %s: install libmimalloc2.0",
		 dir);
	assert_string_equal(why, want);
	assert_null(allocator_library("tcmalloc", why, sizeof(why)));
	assert_non_null(strstr(why, "libtcmalloc_minimal.so.4 or libtcmalloc.so.4 not found"));
	assert_non_null(strstr(why, "install libtcmalloc-minimal4"));

	/* present: the full tcmalloc is taken when the minimal one is missing */
	snprintf(path, sizeof(path), "%s/libtcmalloc.so.4", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
	const char *lib = allocator_library("tcmalloc", why, sizeof(why));
	assert_non_null(lib);
	assert_string_equal(lib, path);
	snprintf(path, sizeof(path), "%s/libtcmalloc_minimal.so.4", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
	lib = allocator_library("tcmalloc", why, sizeof(why));
	assert_non_null(lib);
	assert_string_equal(lib, path);
	assert_string_equal(allocator_library(path, why, sizeof(why)), path);

	setenv("FLAGBENCH_ALLOCATOR_DIRS", "", 1);
	assert_null(allocator_library("jemalloc", why, sizeof(why)));
	assert_non_null(strstr(why, "not found in (no directories)"));

	unlink(path);
	snprintf(path, sizeof(path), "%s/libtcmalloc.so.4", dir);
	unlink(path);
	rmdir(dir);
	if (old) {
		setenv("FLAGBENCH_ALLOCATOR_DIRS", old, 1);
		free(old);
	} else {
		unsetenv("FLAGBENCH_ALLOCATOR_DIRS");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known_multiples),
		cmocka_unit_test(test_order_and_infinity),
		cmocka_unit_test(test_group_law),
		cmocka_unit_test(test_scalars),
		cmocka_unit_test(test_fp_mul_expected),
		cmocka_unit_test(test_ec_mul_expected),
		cmocka_unit_test(test_checker),
		cmocka_unit_test(test_allocator_table),
		cmocka_unit_test(test_allocator_search),
	};
	return cmocka_run_group_tests_name("bignum", tests, NULL, NULL);
}
