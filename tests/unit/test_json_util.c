/* test_json_util.c: the JSON getters and builders of core/json_util.h keep
 * their protocol: getters fall back ("", NULL, NAN) and never fail; a number
 * that is not finite is written as null with its key kept, never dropped. */
#define _GNU_SOURCE
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "core/json_util.h"
#include "core/util.h"

static void test_getters(void **state)
{
	(void)state;
	json_t *o = json_loads("{\"s\": \"text\", \"n\": 2.5, \"i\": 3, \"z\": null, \"a\": [1, \"x\"]}", 0, NULL);
	assert_non_null(o);
	assert_string_equal(jstr(o, "s"), "text");
	assert_string_equal(jstr_opt(o, "s"), "text");
	/* missing, another type, null, no object: the fallback */
	const char *keys[] = { "missing", "n", "z", "a" };
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		assert_string_equal(jstr(o, keys[i]), "");
		assert_null(jstr_opt(o, keys[i]));
	}
	assert_string_equal(jstr(NULL, "s"), "");
	assert_true(jnum(o, "n") == 2.5 && jnum(o, "i") == 3);
	assert_true(isnan(jnum(o, "s")) && isnan(jnum(o, "z")) && isnan(jnum(o, "missing")) && isnan(jnum(NULL, "n")));
	json_t *a = json_object_get(o, "a");
	assert_true(jnum_value(json_array_get(a, 0)) == 1);
	assert_true(isnan(jnum_value(json_array_get(a, 1))) && isnan(jnum_value(json_array_get(a, 9))));
	json_decref(o);
}

/* An infinite number keeps its key, as null: the protocol's point. */
static void test_not_finite_is_null(void **state)
{
	(void)state;
	static const double bad[] = { INFINITY, -INFINITY, NAN };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		json_t *o = json_object();
		jset_num(o, "x", bad[i]);
		assert_non_null(json_object_get(o, "x"));
		assert_true(json_is_null(json_object_get(o, "x")));
		/* in json_pack's "o" too: the object is made, the key is there */
		json_t *p = json_pack("{s:o, s:i}", "x", jnum_or_null(bad[i]), "k", 1);
		assert_non_null(p);
		assert_true(json_is_null(json_object_get(p, "x")));
		char *text = json_dumps(o, JSON_COMPACT);
		assert_string_equal(text, "{\"x\":null}");
		free(text);
		json_decref(p);
		json_decref(o);
	}
	json_t *o = json_object();
	jset_num(o, "x", 1.5);
	assert_true(json_real_value(json_object_get(o, "x")) == 1.5);
	json_decref(o);
}

static void test_strings(void **state)
{
	(void)state;
	json_t *j = jstr_or_null("a");
	assert_string_equal(json_string_value(j), "a");
	json_decref(j);
	j = jstr_or_null(NULL);
	assert_true(json_is_null(j));
	json_decref(j);
	j = jstr_or_null("\xff not UTF-8");
	assert_true(json_is_null(j));
	json_decref(j);
	struct strvec sv = STRVEC_INIT;
	sv_push(&sv, "-O2");
	sv_push(&sv, "\xff");
	sv_push(&sv, "-march=native");
	json_t *a = jstrvec(&sv);
	assert_int_equal(json_array_size(a), 3);
	assert_string_equal(json_string_value(json_array_get(a, 0)), "-O2");
	assert_true(json_is_null(json_array_get(a, 1)));
	assert_string_equal(json_string_value(json_array_get(a, 2)), "-march=native");
	json_decref(a);
	sv_clear(&sv);
	struct strvec none = STRVEC_INIT;
	a = jstrvec(&none);
	assert_true(json_is_array(a) && json_array_size(a) == 0);
	json_decref(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_getters),
		cmocka_unit_test(test_not_finite_is_null),
		cmocka_unit_test(test_strings),
	};
	return cmocka_run_group_tests_name("json_util", tests, NULL, NULL);
}
