/* Unit tests of results/reader.h against results.c's serializer: a real
 * cell (binary sha256 and bytes, text_bytes, counters, time_s runs,
 * thermal, warnings, pins, sizes, args all set) through cell_to_json, then
 * back through the reader's view and through cell_from_json (the journal),
 * every field asserted; a config derived where a record lacks it. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <math.h>

#include <cmocka.h>

#include "pipeline/plan.h"
#include "results/reader.h"
#include "results/results.h"
#include "core/stats.h"
#include "config/config.h"
#include "config/cpu_profile.h"

#include "plan_fixture.h"

/* Every march accepted, every CPU flag present: the plan is the suite's. */
static int any_flag(const char *flag)
{
	return 1;
}

static int any_march(struct compiler *c, const char *march, char *why, size_t n)
{
	return 1;
}


static const double runs[] = { 0.20, 0.21, 0.19, 0.20, 0.22 };

/* A measured cell with every record a run writes. */
static void fill(struct cell *c)
{
	c->status = CELL_OK;
	sv_push(&c->warnings, "throttled: clock fell");
	sv_push(&c->warnings, "the system is noisy");
	snprintf(c->build.sha256, sizeof(c->build.sha256), "%064d", 42);
	c->build.bytes = 16384;
	c->build.text_bytes = 5120;
	c->build.libraries = json_pack("[{s:s, s:s}]", "path", "/lib/x86_64-linux-gnu/libc.so.6", "sha256", "ab");
	c->verify.status = VERIFY_PASSED;
	c->verify.seconds = 0.5;
	struct cell_measurement *m = &c->measure;
	stats_compute(&m->time, runs, 5);
	m->thermal.taken = 1;
	m->thermal.throttled = THROTTLE_YES;
	m->thermal.why = xstrdup("clock fell");
	m->thermal.celsius_before = 55;
	m->thermal.celsius_after = 61;
	m->counters.state = COUNTERS_COUNTED;
	m->counters.source = xstrdup("callgrind");
	m->counters.unit = xstrdup("byte");
	m->counters.size = 4096;
	m->counters.instructions_per_unit = 3.5;
	m->counters.cycles_per_unit = 1.25;
}

static void test_round_trip(void **state)
{
	(void)state;
	struct plan_fixture fx;
	fixture_load(&fx, "tests/fixtures/configs/matrix.json", "host", any_flag, any_march);
	struct plan a, b;
	struct plan_input in = fx.in;
	assert_int_equal(plan_build(&in, &a), 0);
	assert_int_equal(plan_build(&in, &b), 0);
	struct cell *c = &a.cells[0];
	fill(c);
	json_t *j = cell_to_json(c, &a);
	char *text = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(17));
	json_t *back = json_loads(text, 0, NULL); /* through text, as results.json */
	struct results_cell v;
	assert_int_equal(results_cell_view(&v, back, "t.json", 0), 0);
	const struct cell_spec *s = &c->spec;
	assert_string_equal(v.id, s->id);
	assert_string_equal(v.family, s->family->name);
	assert_string_equal(v.variant, s->variant->name);
	assert_string_equal(v.config, s->config);
	assert_string_equal(v.compiler, s->compiler->name);
	assert_string_equal(v.opt, s->opt);
	assert_string_equal(v.march, s->march);
	assert_true(str_equal_or_null(v.flags, s->flagset));
	assert_string_equal(v.allocator, s->allocator);
	assert_int_equal(v.status, CELL_OK);
	assert_int_equal(v.reference, 0);
	assert_int_equal(v.size, s->size);
	assert_true(v.bytes == s->expected_bytes || (v.bytes == UINT64_MAX && s->expected_bytes == UINT64_MAX));
	assert_non_null(v.argv);
	assert_int_equal(v.nargv, s->run_args.n);
	for (size_t i = 0; i < s->run_args.n; i++)
		assert_string_equal(v.argv[i], s->run_args.v[i]);
	assert_int_equal(v.pin_producer, s->pin.producer);
	assert_int_equal(v.pin_consumer, s->pin.consumer);
	assert_int_equal(v.pin_single, s->family->kind == KIND_STREAM ? PIN_NONE : s->pin.single);
	assert_string_equal(v.sha256, c->build.sha256);
	assert_int_equal(v.binary_bytes, 16384);
	assert_int_equal(v.text_bytes, 5120);
	/* what the binary loads, as the loader listed it (pipeline/libraries.h) */
	assert_true(json_equal(json_object_get(json_object_get(back, "binary"), "libraries"), c->build.libraries));
	/* and typed: each library's path and sha256 */
	assert_true(v.libs_listed);
	assert_int_equal(v.nlibs, json_array_size(c->build.libraries));
	for (size_t i = 0; i < v.nlibs; i++) {
		json_t *l = json_array_get(c->build.libraries, i);
		assert_string_equal(v.libs[i].path, json_string_value(json_object_get(l, "path")));
		assert_string_equal(v.libs[i].sha256, json_string_value(json_object_get(l, "sha256")));
	}
	assert_true(v.time.recorded);
	assert_int_equal(v.time.nruns, 5);
	for (size_t i = 0; i < 5; i++)
		assert_true(fabs(v.time.runs[i] - c->measure.time.runs[i]) < 1e-12);
	assert_true(fabs(v.value - cell_rate(c, NULL, NULL)) < 1e-6 * v.value || isnan(cell_rate(c, NULL, NULL)));
	assert_true(fabs(v.instructions_per_unit - 3.5) < 1e-12);
	assert_true(fabs(v.cycles_per_unit - 1.25) < 1e-12);
	assert_string_equal(v.counters_unit, "byte");
	assert_int_equal(v.throttled, THROTTLE_YES);
	assert_true(v.celsius_before == 55 && v.celsius_after == 61);
	assert_int_equal(v.nwarnings, 2);
	assert_string_equal(v.warnings[0], "throttled: clock fell");
	assert_string_equal(v.warnings[1], "the system is noisy");
	results_cell_release(&v);
	/* the journal's parser gives the same cell back */
	struct cell *r = &b.cells[0];
	assert_int_equal(cell_from_json(r, back, &b), 0);
	assert_string_equal(r->build.sha256, c->build.sha256);
	assert_int_equal(r->build.bytes, 16384);
	assert_int_equal(r->build.text_bytes, 5120);
	assert_int_equal(r->measure.time.n, 5);
	assert_int_equal(r->measure.counters.state, COUNTERS_COUNTED);
	assert_true(fabs(r->measure.counters.instructions_per_unit - 3.5) < 1e-12);
	assert_true(fabs(r->measure.counters.cycles_per_unit - 1.25) < 1e-12);
	assert_int_equal(r->measure.thermal.throttled, THROTTLE_YES);
	assert_true(r->measure.thermal.celsius_before == 55 && r->measure.thermal.celsius_after == 61);
	assert_int_equal(r->warnings.n, 2);
	assert_string_equal(r->warnings.v[1], "the system is noisy");
	assert_int_equal(r->verify.status, VERIFY_PASSED);
	json_t *again = cell_to_json(r, &b);
	assert_true(json_equal(j, again));
	json_decref(again);
	json_decref(back);
	json_decref(j);
	free(text);
	plan_free(&a);
	plan_free(&b);
	fixture_free(&fx);
}

/* config missing: from the id, else composed from its parts; else refused. */
static void test_derived_config(void **state)
{
	(void)state;
	struct results_cell v;
	json_t *j = json_pack("{s:s, s:s, s:s, s:s}", "id", "f/v@gcc/-O3/native/x", "family", "f", "variant", "v",
			      "status", "ok");
	assert_int_equal(results_cell_view(&v, j, "t.json", 0), 0);
	assert_string_equal(v.config, "gcc/-O3/native/x");
	assert_string_equal(json_string_value(json_object_get(j, "config")), "gcc/-O3/native/x");
	results_cell_release(&v);
	json_decref(j);
	j = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s}", "id", "c1", "family", "f", "variant", "v",
		      "status", "timeout", "compiler", "clang", "opt", "-O2", "march", "native", "flags", "lto",
		      "allocator", "mimalloc");
	assert_int_equal(results_cell_view(&v, j, "t.json", 1), 0);
	assert_string_equal(v.config, "clang/-O2/native/lto/mimalloc");
	assert_int_equal(v.status, CELL_TIMEOUT);
	results_cell_release(&v);
	json_decref(j);
	j = json_pack("{s:s, s:s, s:s, s:s}", "id", "c2", "family", "f", "variant", "v", "status", "ok");
	assert_int_equal(results_cell_view(&v, j, "t.json", 0), -1);
	results_cell_release(&v);
	json_decref(j);
	j = json_pack("{s:s, s:s, s:s}", "id", "c3", "family", "f", "status", "ok");
	assert_int_equal(results_cell_view(&v, j, "t.json", 0), -1);
	results_cell_release(&v);
	json_decref(j);
}

/* The run's own records, typed: settings (argv and the options in it,
 * the cooldown, a run not finished), host facts as text (a boolean "on"),
 * tools, families by name; a cell's times and its libraries not listed. */
static void test_run_view(void **state)
{
	(void)state;
	const char *doc =
		"{\"schema\": \"flagbench-results/1\","
		" \"run\": {\"id\": \"r1\", \"name\": \"night\", \"started\": \"2027-01-01T02:00:00Z\", \"finished\": null,"
		"  \"argv\": [\"flagbench\", \"run\", \"--consumer\", \"tee\", \"--pipe-size=65536\", \"--consumer-wait\"],"
		"  \"warnings\": [\"w1\", 3], \"interrupted\": true, \"phases\": {\"build_s\": 12.5},"
		"  \"cooldown\": {\"seconds\": 2, \"below_celsius\": 60, \"max_wait_seconds\": 30, \"override\": true}},"
		" \"host\": {\"hostname\": \"box\", \"kernel\": \"6.1.0-17\", \"turbo\": true, \"microcode\": 161},"
		" \"tools\": {\"gcc\": \"gcc 12.2.0\", \"hyperfine\": \"1.15\"},"
		" \"families\": {\"yes\": {\"dir\": \"/f/yes\", \"kept\": \"families/yes\", \"hash\": \"h1\", \"baseline\": \"naive\"},"
		"  \"bignum\": {\"hash\": \"h2\"}},"
		" \"cells\": [{\"id\": \"yes/naive@gcc/-O2/native\", \"status\": \"ok\", \"argv\": [\"a\", 1],"
		"  \"time_s\": {\"runs\": [0.5, \"x\", 0.25], \"median\": 0.5, \"statistic\": \"p25\"}}]}";
	json_error_t je;
	json_t *root = json_loads(doc, 0, &je);
	assert_non_null(root);
	struct results_run r;
	assert_int_equal(results_open_loaded("t/results.json", root, &r), 0);
	const struct results_settings *s = &r.settings;
	assert_int_equal(s->nargv, 6);
	assert_string_equal(s->name, "night");
	assert_string_equal(s->started, "2027-01-01T02:00:00Z");
	assert_false(s->finished);
	assert_true(s->interrupted);
	assert_int_equal(s->nwarnings, 2);
	assert_string_equal(s->warnings[1], "?");
	assert_true(s->build_s == 12.5);
	assert_true(s->cooldown.override && s->cooldown.seconds == 2 && s->cooldown.below_celsius == 60 &&
		    s->cooldown.max_wait_seconds == 30);
	/* --NAME V and --NAME=V; an option last with no value has none */
	assert_string_equal(results_run_option(&r, "consumer"), "tee");
	assert_string_equal(results_run_option(&r, "pipe-size"), "65536");
	assert_null(results_run_option(&r, "consumer-wait"));
	assert_null(results_run_option(&r, "consume"));
	assert_string_equal(r.host.hostname, "box");
	assert_string_equal(r.host.fact[0], "6.1.0-17"); /* RESULTS_HOST_FACTS[0] kernel */
	assert_string_equal(RESULTS_HOST_FACTS[4], "turbo");
	assert_string_equal(r.host.fact[4], "on");
	assert_string_equal(r.host.fact[2], "161");
	assert_null(r.host.fact[1]);
	assert_int_equal(r.host.ntools, 2);
	assert_int_equal(r.nfamilies, 2);
	assert_string_equal(r.families[0].name, "bignum"); /* by name */
	const struct results_family *f = results_family_by_name(&r, "yes");
	assert_non_null(f);
	assert_string_equal(f->dir, "/f/yes");
	assert_string_equal(f->kept, "families/yes");
	assert_string_equal(f->baseline, "naive");
	assert_null(results_family_by_name(&r, "nope"));
	const struct results_cell *c = &r.cells[0];
	assert_int_equal(c->nargv, 2);
	assert_string_equal(c->argv[0], "a");
	assert_null(c->argv[1]);
	assert_null(c->cflags);
	assert_false(c->libs_listed);
	assert_true(c->time.recorded);
	assert_int_equal(c->time.nruns, 3);
	assert_true(c->time.runs[0] == 0.5 && isnan(c->time.runs[1]) && c->time.runs[2] == 0.25);
	assert_true(c->time.median == 0.5 && isnan(c->time.value));
	assert_string_equal(c->time.statistic, "p25");
	results_close(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_derived_config),
		cmocka_unit_test(test_run_view),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
