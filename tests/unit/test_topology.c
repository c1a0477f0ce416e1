/* test_topology.c: cpu lists, placement classes and representative pairs
 * on the fixture trees (tests/fixtures/sys), plus synthetic trees written
 * here for what no fixture has (two packages, missing cache information). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/topology.h"
#include "system/topology.h"
#include "core/util.h"

#define FIX "tests/fixtures/sys/"

#define FIXTURE_TREE_NAME "topo"
#include "fixture_tree.h"

/* cpu N: core, package, siblings; caches as "level:type:list" strings */
static void synth_cpu(const char *root, int cpu, int core, int pkg, const char *sib, const char *const *caches)
{
	char rel[256], val[32];
	snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/topology/core_id", cpu);
	snprintf(val, sizeof(val), "%d", core);
	put(root, rel, val);
	snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
	snprintf(val, sizeof(val), "%d", pkg);
	put(root, rel, val);
	snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", cpu);
	put(root, rel, sib);
	for (int i = 0; caches && caches[i]; i++) {
		char level[8], type[32], list[64];
		assert_int_equal(sscanf(caches[i], "%7[^:]:%31[^:]:%63s", level, type, list), 3);
		snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/cache/index%d/level", cpu, i);
		put(root, rel, level);
		snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/cache/index%d/type", cpu, i);
		put(root, rel, type);
		snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/cache/index%d/shared_cpu_list", cpu, i);
		put(root, rel, list);
	}
}

/* ---- cpu lists ---- */

static void test_cpulist_parse(void **state)
{
	static const struct {
		const char *text;
		int ok;
		size_t n;
		int cpus[16];
		const char *formatted;
	} cases[] = {
		{ "0-3,8-11\n", 1, 8, { 0, 1, 2, 3, 8, 9, 10, 11 }, "0-3,8-11" },
		{ "", 1, 0, { 0 }, "" },
		{ "\n", 1, 0, { 0 }, "" },
		{ "5", 1, 1, { 5 }, "5" },
		{ "0,2-3", 1, 3, { 0, 2, 3 }, "0,2-3" },
		{ "3,1,2,2", 1, 3, { 1, 2, 3 }, "1-3" },
		{ "0,8", 1, 2, { 0, 8 }, "0,8" },
		{ "a", 0, 0, { 0 }, NULL },
		{ "3-1", 0, 0, { 0 }, NULL },
		{ "1-", 0, 0, { 0 }, NULL },
		{ "1,,2", 0, 0, { 0 }, NULL },
		{ "0-99999", 0, 0, { 0 }, NULL },
		{ "1 2", 0, 0, { 0 }, NULL },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct cpulist l = CPULIST_INIT;
		int r = cpulist_parse(cases[i].text, &l);
		assert_int_equal(r, cases[i].ok ? 0 : -1);
		assert_int_equal(l.n, cases[i].n);
		for (size_t k = 0; k < l.n; k++) {
			assert_int_equal(l.cpu[k], cases[i].cpus[k]);
			assert_true(cpulist_contains(&l, cases[i].cpus[k]));
		}
		if (cases[i].formatted) {
			struct strbuf sb = STRBUF_INIT;
			cpulist_format(&l, &sb);
			assert_string_equal(sb.buf, cases[i].formatted);
			sb_release(&sb);
		}
		assert_false(cpulist_contains(&l, 7));
		cpulist_free(&l);
	}
}

/* ---- fixtures ---- */

static void test_counts(void **state)
{
	static const struct {
		const char *root;
		size_t threads;
		int cores, packages;
		size_t caches;
		const char *online;
	} cases[] = {
		{ FIX "ryzen2700", 16, 8, 1, 26, "0-15" },
		{ FIX "j4205", 4, 4, 1, 10, "0-3" },
		{ FIX "bare", 2, 2, 1, 7, "0-1" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct topology t;
		assert_int_equal(topology_load(cases[i].root, &t), 0);
		assert_int_equal(t.ncpus, cases[i].threads);
		assert_int_equal(t.ncores, cases[i].cores);
		assert_int_equal(t.npackages, cases[i].packages);
		assert_int_equal(t.ncaches, cases[i].caches);
		struct strbuf sb = STRBUF_INIT;
		cpulist_format(&t.online, &sb);
		assert_string_equal(sb.buf, cases[i].online);
		sb_release(&sb);
		topology_free(&t);
	}
}

static void test_cpu_fields(void **state)
{
	struct topology t;
	assert_int_equal(topology_load(FIX "ryzen2700", &t), 0);
	const struct topo_cpu *c = topology_cpu(&t, 9);
	assert_non_null(c);
	assert_int_equal(c->core_id, 1);
	assert_int_equal(c->package_id, 0);
	assert_int_equal(c->die_id, 0);
	assert_true(cpulist_contains(&c->siblings, 1));
	assert_int_equal(t.caches[c->l2].size, 512 * 1024);
	assert_int_equal(t.caches[c->l3].size, 8 * 1024 * 1024);
	assert_true(cpulist_contains(&t.caches[c->l3].cpus, 11));
	assert_false(cpulist_contains(&t.caches[c->l3].cpus, 4));
	assert_null(topology_cpu(&t, 16));
	topology_free(&t);

	assert_int_equal(topology_load(FIX "j4205", &t), 0);
	c = topology_cpu(&t, 2);
	assert_int_equal(c->l3, -1);
	assert_true(cpulist_contains(&t.caches[c->l2].cpus, 3));
	topology_free(&t);
}

static void test_classify(void **state)
{
	static const struct {
		const char *root;
		int a, b;
		enum placement_class want;
	} cases[] = {
		{ FIX "ryzen2700", 0, 0, PLACE_SAME_CPU },
		{ FIX "ryzen2700", 0, 8, PLACE_SMT_SIBLING },
		{ FIX "ryzen2700", 12, 4, PLACE_SMT_SIBLING },
		{ FIX "ryzen2700", 0, 1, PLACE_SAME_L3 },
		{ FIX "ryzen2700", 0, 9, PLACE_SAME_L3 },
		{ FIX "ryzen2700", 8, 11, PLACE_SAME_L3 },
		{ FIX "ryzen2700", 0, 4, PLACE_OTHER_L3 },
		{ FIX "ryzen2700", 3, 12, PLACE_OTHER_L3 },
		{ FIX "ryzen2700", 15, 0, PLACE_OTHER_L3 },
		{ FIX "ryzen2700", 0, 16, PLACE_UNKNOWN },
		{ FIX "ryzen2700", -1, 0, PLACE_UNKNOWN },
		{ FIX "j4205", 2, 2, PLACE_SAME_CPU },
		{ FIX "j4205", 0, 1, PLACE_SAME_L2 },
		{ FIX "j4205", 3, 2, PLACE_SAME_L2 },
		{ FIX "j4205", 1, 2, PLACE_OTHER_L3 },
		{ FIX "j4205", 0, 3, PLACE_OTHER_L3 },
		{ FIX "bare", 0, 1, PLACE_SAME_L3 },
		{ FIX "bare", 1, 1, PLACE_SAME_CPU },
		{ FIX "bare", 1, 2, PLACE_UNKNOWN },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct topology t;
		assert_int_equal(topology_load(cases[i].root, &t), 0);
		enum placement_class got = topology_classify(&t, cases[i].a, cases[i].b);
		if (got != cases[i].want)
			fail_msg("%s: %d,%d is %s, expected %s", cases[i].root, cases[i].a, cases[i].b,
				 placement_class_name(got), placement_class_name(cases[i].want));
		topology_free(&t);
	}
}

/* Representative pairs: producer -1 means the class is absent. */
static void test_pairs(void **state)
{
	static const struct {
		const char *root;
		int pair[PLACE_NCLASSES][2];
	} cases[] = {
		{ FIX "ryzen2700",
		  { [PLACE_SAME_CPU] = { 1, 1 },
		    [PLACE_SMT_SIBLING] = { 1, 9 },
		    [PLACE_SAME_L2] = { -1, -1 },
		    [PLACE_SAME_L3] = { 1, 2 },
		    [PLACE_OTHER_L3] = { 1, 4 },
		    [PLACE_OTHER_PACKAGE] = { -1, -1 },
		    [PLACE_UNPINNED] = { -1, -1 } } },
		{ FIX "j4205",
		  { [PLACE_SAME_CPU] = { 1, 1 },
		    [PLACE_SMT_SIBLING] = { -1, -1 },
		    [PLACE_SAME_L2] = { 2, 3 },
		    [PLACE_SAME_L3] = { -1, -1 },
		    [PLACE_OTHER_L3] = { 1, 2 },
		    [PLACE_OTHER_PACKAGE] = { -1, -1 },
		    [PLACE_UNPINNED] = { -1, -1 } } },
		/* only pair on two CPUs includes CPU 0: it is taken rather than none */
		{ FIX "bare",
		  { [PLACE_SAME_CPU] = { 1, 1 },
		    [PLACE_SMT_SIBLING] = { -1, -1 },
		    [PLACE_SAME_L2] = { -1, -1 },
		    [PLACE_SAME_L3] = { 0, 1 },
		    [PLACE_OTHER_L3] = { -1, -1 },
		    [PLACE_OTHER_PACKAGE] = { -1, -1 },
		    [PLACE_UNPINNED] = { -1, -1 } } },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct topology t;
		assert_int_equal(topology_load(cases[i].root, &t), 0);
		for (int k = 0; k < PLACE_NCLASSES; k++) {
			int p = -7, c = -7;
			int r = topology_class_pair(&t, (enum placement_class)k, &p, &c);
			int absent = cases[i].pair[k][0] < 0 && k != PLACE_UNPINNED;
			if (absent) {
				assert_int_equal(r, -1);
				continue;
			}
			assert_int_equal(r, 0);
			if (p != cases[i].pair[k][0] || c != cases[i].pair[k][1])
				fail_msg("%s %s: got %d,%d, expected %d,%d", cases[i].root,
					 placement_class_name((enum placement_class)k), p, c, cases[i].pair[k][0],
					 cases[i].pair[k][1]);
			if (k != PLACE_UNPINNED)
				assert_int_equal(topology_classify(&t, p, c), k);
		}
		int p, c;
		assert_int_equal(topology_class_pair(&t, PLACE_UNKNOWN, &p, &c), -1);
		topology_free(&t);
	}
}

static void test_class_names(void **state)
{
	for (int k = 0; k < PLACE_NCLASSES; k++) {
		enum placement_class got;
		assert_int_equal(placement_class_parse(placement_class_name((enum placement_class)k), &got), 0);
		assert_int_equal(got, k);
	}
	enum placement_class got;
	assert_int_equal(placement_class_parse("unknown", &got), -1);
	assert_int_equal(placement_class_parse("same-l3", &got), -1);
	assert_int_equal(placement_class_parse(NULL, &got), -1);
	assert_string_equal(placement_class_name(PLACE_SAME_L3), "same_l3");
	assert_string_equal(placement_class_name(PLACE_OTHER_PACKAGE), "other_package");
	assert_string_equal(placement_class_name(PLACE_UNKNOWN), "unknown");
	assert_string_equal(placement_class_name((enum placement_class)99), "unknown");
}

/* Two packages of two cores each, one L3 per package, no online file (the
 * cpuN directories are counted instead). */
static void test_two_packages(void **state)
{
	char *root = temp_copy(NULL);
	const char *p0[] = { "1:Data:0", "2:Unified:0", "3:Unified:0-1", NULL };
	const char *p1[] = { "1:Data:1", "2:Unified:1", "3:Unified:0-1", NULL };
	const char *p2[] = { "1:Data:2", "2:Unified:2", "3:Unified:2-3", NULL };
	const char *p3[] = { "1:Data:3", "2:Unified:3", "3:Unified:2-3", NULL };
	synth_cpu(root, 0, 0, 0, "0", p0);
	synth_cpu(root, 1, 1, 0, "1", p1);
	synth_cpu(root, 2, 0, 1, "2", p2);
	synth_cpu(root, 3, 1, 1, "3", p3);
	struct topology t;
	assert_int_equal(topology_load(root, &t), 0);
	assert_int_equal(t.ncpus, 4);
	assert_int_equal(t.npackages, 2);
	assert_int_equal(topology_classify(&t, 0, 2), PLACE_OTHER_PACKAGE);
	assert_int_equal(topology_classify(&t, 2, 3), PLACE_SAME_L3);
	int p, c;
	assert_int_equal(topology_class_pair(&t, PLACE_OTHER_PACKAGE, &p, &c), 0);
	assert_int_equal(p, 1);
	assert_int_equal(c, 2);
	assert_int_equal(topology_class_pair(&t, PLACE_SAME_L3, &p, &c), 0);
	assert_int_equal(p, 2);
	assert_int_equal(c, 3);
	assert_int_equal(topology_class_pair(&t, PLACE_OTHER_L3, &p, &c), -1);
	topology_free(&t);
	rm_tree(root);
	free(root);
}

/* No cache information (some VMs, ARM boards): two cores of one package
 * cannot be told apart, so they are unknown rather than other_l3; SMT
 * siblings still come from core ids when thread_siblings_list is missing. */
static void test_no_caches(void **state)
{
	char *root = temp_copy(NULL);
	put(root, "sys/devices/system/cpu/online", "0-2");
	for (int cpu = 0; cpu < 3; cpu++) {
		char rel[128], val[16];
		snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/topology/core_id", cpu);
		snprintf(val, sizeof(val), "%d", cpu / 2);
		put(root, rel, val);
		snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
		put(root, rel, "0");
	}
	struct topology t;
	assert_int_equal(topology_load(root, &t), 0);
	assert_int_equal(t.ncaches, 0);
	assert_int_equal(topology_classify(&t, 0, 1), PLACE_SMT_SIBLING);
	assert_int_equal(topology_classify(&t, 0, 2), PLACE_UNKNOWN);
	int p, c;
	assert_int_equal(topology_class_pair(&t, PLACE_OTHER_L3, &p, &c), -1);
	assert_int_equal(topology_class_pair(&t, PLACE_SMT_SIBLING, &p, &c), 0);
	assert_int_equal(p, 0);
	assert_int_equal(c, 1);
	topology_free(&t);
	rm_tree(root);
	free(root);
}

static void test_missing_root(void **state)
{
	struct topology t;
	assert_int_equal(topology_load("tests/fixtures/sys/no-such-machine", &t), -1);
	topology_free(&t);
}

static void test_json(void **state)
{
	struct topology t;
	assert_int_equal(topology_load(FIX "ryzen2700", &t), 0);
	json_t *j = topology_to_json(&t);
	assert_non_null(j);
	assert_string_equal(json_string_value(json_object_get(j, "online")), "0-15");
	assert_int_equal(json_integer_value(json_object_get(j, "cores")), 8);
	assert_int_equal(json_array_size(json_object_get(j, "cpus")), 16);
	json_t *cpu4 = json_array_get(json_object_get(j, "cpus"), 4);
	assert_string_equal(json_string_value(json_object_get(cpu4, "l3")), "4-7,12-15");
	assert_string_equal(json_string_value(json_object_get(cpu4, "siblings")), "4,12");
	json_t *classes = json_object_get(j, "classes");
	json_t *l3 = json_object_get(classes, "other_l3");
	assert_int_equal(json_integer_value(json_object_get(l3, "producer")), 1);
	assert_int_equal(json_integer_value(json_object_get(l3, "consumer")), 4);
	assert_null(json_object_get(classes, "same_l2"));
	assert_true(json_is_null(json_object_get(json_object_get(classes, "unpinned"), "producer")));
	json_decref(j);
	topology_free(&t);
}

/* cmd_topology writes to stdout: send it to a file and read it back. */
static void test_cmd(void **state)
{
	int rc;
	char *a1[] = { "topology", "--root", FIX "j4205", NULL };
	char *out = capture(cmd_topology, 3, a1, &rc);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "same_l2        2 -> 3"));
	assert_non_null(strstr(out, "smt_sibling    none on this machine"));
	assert_non_null(strstr(out, "L2 Unified         1 MiB x2   shared by: 0-1 2-3"));
	free(out);

	char *a2[] = { "topology", "--json", "--root=" FIX "ryzen2700", NULL };
	out = capture(cmd_topology, 3, a2, &rc);
	assert_int_equal(rc, 0);
	json_error_t err;
	json_t *j = json_loads(out, 0, &err);
	assert_non_null(j);
	assert_int_equal(json_integer_value(json_object_get(j, "threads")), 16);
	json_decref(j);
	free(out);

	char *a3[] = { "topology", "--rot", "x", NULL };
	out = capture(cmd_topology, 3, a3, &rc);
	assert_int_equal(rc, 2);
	free(out);
	char *a4[] = { "topology", "--root", FIX "nothing-here", NULL };
	out = capture(cmd_topology, 3, a4, &rc);
	assert_int_equal(rc, 2);
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpulist_parse), cmocka_unit_test(test_counts),
		cmocka_unit_test(test_cpu_fields),    cmocka_unit_test(test_classify),
		cmocka_unit_test(test_pairs),         cmocka_unit_test(test_class_names),
		cmocka_unit_test(test_two_packages),  cmocka_unit_test(test_no_caches),
		cmocka_unit_test(test_missing_root),  cmocka_unit_test(test_json),
		cmocka_unit_test(test_cmd),
	};
	return cmocka_run_group_tests(tests, 0, 0);
}
