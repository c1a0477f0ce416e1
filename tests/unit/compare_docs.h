/* compare_docs.h: compare_runs() over two results.json documents built in a
 * unit test (test_compare, test_program_id), each read as the reader reads
 * a file (results_open_loaded: the derived config, the typed records).
 *
 * Header-only (a static function): include it after <cmocka.h> and
 * "analysis/compare.h".  The documents stay the caller's.
 */
#ifndef FLAGBENCH_TEST_COMPARE_DOCS_H
#define FLAGBENCH_TEST_COMPARE_DOCS_H

static void compare_docs(json_t *a, json_t *b, const struct compare_opts *o, struct comparison *c)
{
	struct results_run ra, rb;
	assert_int_equal(results_open_loaded("base/results.json", json_incref(a), &ra), 0);
	assert_int_equal(results_open_loaded("new/results.json", json_incref(b), &rb), 0);
	compare_runs(&ra, &rb, o, c);
	results_close(&ra);
	results_close(&rb);
}

#endif
