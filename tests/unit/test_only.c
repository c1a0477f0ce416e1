/* test_only.c: what --only selects, and the nearest glob to one that
 * selects nothing (pipeline/only.h), part by part. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>

#include "pipeline/only.h"

static struct strvec ids;

static int setup(void **state)
{
	const char *v[] = { "yes/buf@gcc/-O2/native", "yes/buf@clang/-O2/native", "yes/vmsplice@gcc/-O2/native",
			    "chacha20/simd@gcc/-O3/x86-64-v3", "yes/gnu-yes@reference", NULL };
	for (int i = 0; v[i]; i++)
		sv_push(&ids, v[i]);
	return 0;
}

static int teardown(void **state)
{
	sv_clear(&ids);
	return 0;
}

static void expect(const char *glob, const char *want)
{
	char *got = only_closest(glob, &ids);
	if (want)
		assert_string_equal(got, want);
	else
		assert_null(got);
	free(got);
}

static void counts(void **state)
{
	assert_int_equal(only_count("yes/*", &ids), 4);
	assert_int_equal(only_count("*@gcc/*", &ids), 3);
	assert_int_equal(only_count("crc32/*", &ids), 0);
}

static void nearest(void **state)
{
	expect("yess/*", "yes/*");                                 /* the family */
	expect("chacha21/*@gcc/*", "chacha20/*@gcc/*");            /* the family, the rest kept */
	expect("yes/bux@*", "yes/buf@*");                          /* the variant */
	expect("yes/buf@gcc/-O2/nativ", "yes/buf@gcc/-O2/native"); /* the config */
	expect("chacha20", "chacha20/*");                          /* a bare family */
	expect("chacha2", "chacha20/*");
	expect("crc33/*", NULL);                                   /* nothing near */
	expect("yes/buf@icc-99/-Ofast/znver9", NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(counts, setup, teardown),
		cmocka_unit_test_setup_teardown(nearest, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
