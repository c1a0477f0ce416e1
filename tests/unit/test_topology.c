/* test_topology.c: cpu lists, placement classes and representative pairs
 * of the fixture machines (tests/fixtures/sys/<machine>/topology.xml,
 * hwloc's XML export: see the README there), of hwloc synthetic strings for
 * what no fixture has (no cache information), and of this process
 * restricted to one CPU of its own affinity mask (nothing here depends on
 * how many CPUs the host has, or which). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <ftw.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/topology.h"
#include "config/config.h"
#include "config/cpu_profile.h"
#include "pipeline/plan.h"
#include "system/topology.h"
#include "core/util.h"
#include "plan_fixture.h"

#define FIX "tests/fixtures/sys/"

#define FIXTURE_TREE_NAME "topo"
#include "fixture_tree.h"

static char *list_str(const struct cpulist *l)
{
	struct strbuf sb = STRBUF_INIT;
	cpulist_format(l, &sb);
	return sb_detach(&sb);
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

/* ---- fixture machines ---- */

static const struct machine {
	const char *root;
	size_t threads;
	int cores, packages, numa;
	size_t caches, kinds;
	const char *online, *machine;
	/* representative pair per class; producer -1: the class is absent */
	int pair[PLACE_NCLASSES][2];
} machines[] = {
	{ FIX "ryzen2700", 16, 8, 1, 1, 26, 0, "0-15", "0-15",
	  { [PLACE_SAME_CPU] = { 1, 1 }, [PLACE_SMT_SIBLING] = { 1, 9 }, [PLACE_SAME_L2] = { -1, -1 },
	    [PLACE_SAME_L3] = { 1, 2 }, [PLACE_OTHER_L3] = { 1, 4 }, [PLACE_OTHER_PACKAGE] = { -1, -1 },
	    [PLACE_P_TO_E] = { -1, -1 }, [PLACE_E_TO_P] = { -1, -1 }, [PLACE_UNPINNED] = { -1, -1 } } },
	{ FIX "j4205", 4, 4, 1, 1, 10, 0, "0-3", "0-3",
	  { [PLACE_SAME_CPU] = { 1, 1 }, [PLACE_SMT_SIBLING] = { -1, -1 }, [PLACE_SAME_L2] = { 2, 3 },
	    [PLACE_SAME_L3] = { -1, -1 }, [PLACE_OTHER_L3] = { 1, 2 }, [PLACE_OTHER_PACKAGE] = { -1, -1 },
	    [PLACE_P_TO_E] = { -1, -1 }, [PLACE_E_TO_P] = { -1, -1 }, [PLACE_UNPINNED] = { -1, -1 } } },
	/* the only pair on two CPUs includes CPU 0: it is taken rather than none */
	{ FIX "bare", 2, 2, 1, 1, 7, 0, "0-1", "0-1",
	  { [PLACE_SAME_CPU] = { 1, 1 }, [PLACE_SMT_SIBLING] = { -1, -1 }, [PLACE_SAME_L2] = { -1, -1 },
	    [PLACE_SAME_L3] = { 0, 1 }, [PLACE_OTHER_L3] = { -1, -1 }, [PLACE_OTHER_PACKAGE] = { -1, -1 },
	    [PLACE_P_TO_E] = { -1, -1 }, [PLACE_E_TO_P] = { -1, -1 }, [PLACE_UNPINNED] = { -1, -1 } } },
	/* one core complex: no other_l3, unlike the 2700 */
	{ FIX "ryzen5700x", 16, 8, 1, 1, 25, 0, "0-15", "0-15",
	  { [PLACE_SAME_CPU] = { 1, 1 }, [PLACE_SMT_SIBLING] = { 1, 9 }, [PLACE_SAME_L2] = { -1, -1 },
	    [PLACE_SAME_L3] = { 1, 2 }, [PLACE_OTHER_L3] = { -1, -1 }, [PLACE_OTHER_PACKAGE] = { -1, -1 },
	    [PLACE_P_TO_E] = { -1, -1 }, [PLACE_E_TO_P] = { -1, -1 }, [PLACE_UNPINNED] = { -1, -1 } } },
	/* the 5700X in a container of CPUs 3, 4 and 11: every pair from those */
	{ FIX "container3", 3, 2, 1, 1, 7, 0, "3-4,11", "0-15",
	  { [PLACE_SAME_CPU] = { 3, 3 }, [PLACE_SMT_SIBLING] = { 3, 11 }, [PLACE_SAME_L2] = { -1, -1 },
	    [PLACE_SAME_L3] = { 3, 4 }, [PLACE_OTHER_L3] = { -1, -1 }, [PLACE_OTHER_PACKAGE] = { -1, -1 },
	    [PLACE_P_TO_E] = { -1, -1 }, [PLACE_E_TO_P] = { -1, -1 }, [PLACE_UNPINNED] = { -1, -1 } } },
	{ FIX "xeon2s", 32, 16, 2, 2, 50, 0, "0-31", "0-31",
	  { [PLACE_SAME_CPU] = { 1, 1 }, [PLACE_SMT_SIBLING] = { 1, 17 }, [PLACE_SAME_L2] = { -1, -1 },
	    [PLACE_SAME_L3] = { 1, 2 }, [PLACE_OTHER_L3] = { -1, -1 }, [PLACE_OTHER_PACKAGE] = { 1, 8 },
	    [PLACE_P_TO_E] = { -1, -1 }, [PLACE_E_TO_P] = { -1, -1 }, [PLACE_UNPINNED] = { -1, -1 } } },
	/* i9-12900K: P-P pairs share only the L3, E-cores of a cluster the L2;
	 * e_to_p is the only class whose producer is the higher CPU */
	{ FIX "hybrid", 24, 16, 1, 1, 43, 2, "0-23", "0-23",
	  { [PLACE_SAME_CPU] = { 1, 1 }, [PLACE_SMT_SIBLING] = { 2, 3 }, [PLACE_SAME_L2] = { 16, 17 },
	    [PLACE_SAME_L3] = { 1, 2 }, [PLACE_OTHER_L3] = { -1, -1 }, [PLACE_OTHER_PACKAGE] = { -1, -1 },
	    [PLACE_P_TO_E] = { 1, 16 }, [PLACE_E_TO_P] = { 16, 1 }, [PLACE_UNPINNED] = { -1, -1 } } },
};
#define NMACHINES (sizeof(machines) / sizeof(machines[0]))

static void test_counts(void **state)
{
	for (size_t i = 0; i < NMACHINES; i++) {
		const struct machine *m = &machines[i];
		struct topology t;
		assert_int_equal(topology_load(m->root, &t), 0);
		if (t.ncpus != m->threads || t.ncores != m->cores || t.npackages != m->packages || t.nnuma != m->numa ||
		    t.ncaches != m->caches || t.nkinds != m->kinds)
			fail_msg("%s: %zu threads %d cores %d packages %d numa %zu caches %zu kinds, "
				 "expected %zu %d %d %d %zu %zu",
				 m->root, t.ncpus, t.ncores, t.npackages, t.nnuma, t.ncaches, t.nkinds, m->threads,
				 m->cores, m->packages, m->numa, m->caches, m->kinds);
		char *online = list_str(&t.online), *all = list_str(&t.machine);
		if (strcmp(online, m->online) || strcmp(all, m->machine))
			fail_msg("%s: cpus %s of %s, expected %s of %s", m->root, online, all, m->online, m->machine);
		free(online);
		free(all);
		topology_free(&t);
	}
}

/* Every class of every machine, exactly, and each pair in its class. */
static void test_pairs(void **state)
{
	for (size_t i = 0; i < NMACHINES; i++) {
		const struct machine *m = &machines[i];
		struct topology t;
		assert_int_equal(topology_load(m->root, &t), 0);
		for (int k = 0; k < PLACE_NCLASSES; k++) {
			int p = -7, c = -7;
			int r = topology_class_pair(&t, (enum placement_class)k, &p, &c);
			int absent = m->pair[k][0] < 0 && k != PLACE_UNPINNED;
			if (absent && r == 0)
				fail_msg("%s %s: got %d,%d, expected none", m->root,
					 placement_class_name((enum placement_class)k), p, c);
			if (absent)
				continue;
			if (r < 0 || p != m->pair[k][0] || c != m->pair[k][1])
				fail_msg("%s %s: got %d,%d (%d), expected %d,%d", m->root,
					 placement_class_name((enum placement_class)k), p, c, r, m->pair[k][0],
					 m->pair[k][1]);
			if (k != PLACE_UNPINNED)
				assert_int_equal(topology_classify(&t, p, c), k);
		}
		int p, c;
		assert_int_equal(topology_class_pair(&t, PLACE_UNKNOWN, &p, &c), -1);
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
	assert_int_equal(c->numa, 0);
	assert_int_equal(c->kind, -1);
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

	/* two sockets: core ids restart, each socket its NUMA node */
	assert_int_equal(topology_load(FIX "xeon2s", &t), 0);
	c = topology_cpu(&t, 25);
	assert_int_equal(c->core_id, 1);
	assert_int_equal(c->package_id, 1);
	assert_int_equal(c->numa, 1);
	assert_int_equal(topology_cpu(&t, 16)->numa, 0);
	topology_free(&t);

	/* the container: disallowed CPUs are not there, nor in any list */
	assert_int_equal(topology_load(FIX "container3", &t), 0);
	assert_null(topology_cpu(&t, 0));
	assert_null(topology_cpu(&t, 5));
	c = topology_cpu(&t, 4);
	assert_int_equal(c->siblings.n, 1); /* its sibling 12 is not allowed */
	char *l3 = list_str(&t.caches[c->l3].cpus);
	assert_string_equal(l3, "3-4,11");
	free(l3);
	topology_free(&t);
}

/* The hybrid's kinds: ranked by hwloc from the core types, named P and E. */
static void test_kinds(void **state)
{
	struct topology t;
	assert_int_equal(topology_load(FIX "hybrid", &t), 0);
	assert_int_equal(t.nkinds, 2);
	assert_string_equal(t.kinds[0].name, "E");
	assert_string_equal(t.kinds[0].core_type, "IntelAtom");
	assert_int_equal(t.kinds[0].efficiency, 0);
	assert_string_equal(t.kinds[1].name, "P");
	assert_string_equal(t.kinds[1].core_type, "IntelCore");
	char *e = list_str(&t.kinds[0].cpus), *p = list_str(&t.kinds[1].cpus);
	assert_string_equal(e, "16-23");
	assert_string_equal(p, "0-15");
	free(e);
	free(p);
	for (int cpu = 0; cpu < 24; cpu++)
		assert_string_equal(t.kinds[topology_cpu(&t, cpu)->kind].name, cpu < 16 ? "P" : "E");
	/* E-cores: a cluster of 4 shares the L2; threads of a P-core are siblings */
	assert_int_equal(topology_cpu(&t, 17)->core_id, 33);
	assert_int_equal(topology_cpu(&t, 3)->siblings.n, 2);
	topology_free(&t);
}

/* Kinds that hwloc cannot rank (no core type, no frequency) are shown but
 * make no class: which way would be faster is not known. */
static void test_kinds_unranked(void **state)
{
	char *xml = read_file(FIX "hybrid/topology.xml", NULL);
	assert_non_null(xml);
	struct strbuf sb = STRBUF_INIT;
	for (char *line = strtok(xml, "\n"); line; line = strtok(NULL, "\n"))
		if (!strstr(line, "name=\"CoreType\"") && !strstr(line, "name=\"FrequencyMaxMHz\""))
			sb_addf(&sb, "%s\n", line);
	char *root = temp_copy(NULL);
	char *path = xasprintf("%s/topology.xml", root);
	assert_int_equal(write_file_atomic(path, sb.buf, sb.len), 0);
	struct topology t;
	assert_int_equal(topology_load(root, &t), 0);
	assert_int_equal(t.nkinds, 2);
	assert_string_equal(t.kinds[0].name, "K0");
	assert_int_equal(t.kinds[0].efficiency, -1);
	int p, c;
	assert_int_equal(topology_class_pair(&t, PLACE_P_TO_E, &p, &c), -1);
	assert_int_equal(topology_class_pair(&t, PLACE_E_TO_P, &p, &c), -1);
	assert_int_equal(topology_classify(&t, 1, 16), PLACE_SAME_L3);
	topology_free(&t);
	/* the file itself as the root: the same machine */
	assert_int_equal(topology_load(path, &t), 0);
	assert_int_equal(t.ncpus, 24);
	topology_free(&t);
	rm_tree(root);
	free(root);
	free(path);
	sb_release(&sb);
	free(xml);
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
		{ FIX "container3", 3, 11, PLACE_SMT_SIBLING },
		{ FIX "container3", 11, 4, PLACE_SAME_L3 },
		{ FIX "container3", 4, 12, PLACE_UNKNOWN }, /* 12 is not allowed */
		{ FIX "container3", 0, 1, PLACE_UNKNOWN },
		{ FIX "xeon2s", 0, 16, PLACE_SMT_SIBLING },
		{ FIX "xeon2s", 7, 23, PLACE_SMT_SIBLING },
		{ FIX "xeon2s", 0, 8, PLACE_OTHER_PACKAGE },
		{ FIX "xeon2s", 24, 23, PLACE_OTHER_PACKAGE },
		{ FIX "xeon2s", 9, 31, PLACE_SAME_L3 },
		{ FIX "hybrid", 0, 1, PLACE_SMT_SIBLING },
		{ FIX "hybrid", 1, 16, PLACE_P_TO_E },
		{ FIX "hybrid", 16, 1, PLACE_E_TO_P },
		{ FIX "hybrid", 23, 14, PLACE_E_TO_P },
		{ FIX "hybrid", 16, 19, PLACE_SAME_L2 },
		{ FIX "hybrid", 16, 20, PLACE_SAME_L3 },
		{ FIX "hybrid", 2, 15, PLACE_SAME_L3 },
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

static void test_class_names(void **state)
{
	for (int k = 0; k < PLACE_NCLASSES; k++) {
		enum placement_class got;
		const char *name = placement_class_name((enum placement_class)k);
		assert_int_equal(placement_class_parse(name, &got), 0);
		assert_int_equal(got, k);
		/* the list messages give names every class */
		assert_non_null(strstr(PLACEMENT_CLASS_NAMES, name));
	}
	enum placement_class got;
	assert_int_equal(placement_class_parse("unknown", &got), -1);
	assert_int_equal(placement_class_parse("same-l3", &got), -1);
	assert_int_equal(placement_class_parse(NULL, &got), -1);
	assert_string_equal(placement_class_name(PLACE_SAME_L3), "same_l3");
	assert_string_equal(placement_class_name(PLACE_OTHER_PACKAGE), "other_package");
	assert_string_equal(placement_class_name(PLACE_P_TO_E), "p_to_e");
	assert_string_equal(placement_class_name(PLACE_E_TO_P), "e_to_p");
	assert_string_equal(placement_class_name(PLACE_UNKNOWN), "unknown");
	assert_string_equal(placement_class_name((enum placement_class)99), "unknown");
}

/* Synthetic strings: two packages of two cores with an L3 each, and a
 * machine without cache information (some VMs, ARM boards), where two
 * cores of one package cannot be told apart: unknown rather than other_l3. */
static void test_synthetic(void **state)
{
	struct topology t;
	assert_int_equal(topology_load_synthetic("package:2 l3:1 l2:2 l1d:1 core:1 pu:1", &t), 0);
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

	assert_int_equal(topology_load_synthetic("package:1 core:2 pu:2", &t), 0);
	assert_int_equal(t.ncaches, 0);
	assert_int_equal(topology_classify(&t, 0, 1), PLACE_SMT_SIBLING);
	assert_int_equal(topology_classify(&t, 0, 2), PLACE_UNKNOWN);
	assert_int_equal(topology_class_pair(&t, PLACE_OTHER_L3, &p, &c), -1);
	assert_int_equal(topology_class_pair(&t, PLACE_SMT_SIBLING, &p, &c), 0);
	assert_int_equal(p, 2);
	assert_int_equal(c, 3);
	topology_free(&t);

	assert_int_equal(topology_load_synthetic("bogus:3", &t), -1);
	topology_free(&t);
}

static void test_missing_root(void **state)
{
	struct topology t;
	assert_int_equal(topology_load("tests/fixtures/sys/no-such-machine", &t), -1);
	topology_free(&t);
	/* a file that is not hwloc XML */
	assert_int_equal(topology_load(FIX "README.md", &t), -1);
	topology_free(&t);
}

/* This process pinned to one CPU of its own mask: only that CPU is
 * offered, whatever the host; the machine is still all of it. */
static void test_live_affinity(void **state)
{
	cpu_set_t saved, one;
	assert_int_equal(sched_getaffinity(0, sizeof(saved), &saved), 0);
	int cpu = -1;
	for (int i = CPU_SETSIZE - 1; i >= 0; i--)
		if (CPU_ISSET(i, &saved))
			cpu = i;
	assert_true(cpu >= 0);
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	assert_int_equal(sched_setaffinity(0, sizeof(one), &one), 0);
	struct topology t;
	int r = topology_load("/", &t);
	assert_int_equal(sched_setaffinity(0, sizeof(saved), &saved), 0);
	assert_int_equal(r, 0);
	assert_int_equal(t.ncpus, 1);
	assert_int_equal(t.online.n, 1);
	assert_int_equal(t.online.cpu[0], cpu);
	assert_true(cpulist_contains(&t.machine, cpu));
	assert_true(t.machine.n >= (size_t)CPU_COUNT(&saved));
	int p, c;
	assert_int_equal(topology_class_pair(&t, PLACE_SAME_CPU, &p, &c), 0);
	assert_int_equal(p, cpu);
	assert_int_equal(topology_class_pair(&t, PLACE_SAME_L3, &p, &c), -1);
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
	assert_int_equal(json_array_size(json_object_get(j, "kinds")), 0);
	json_t *cpu4 = json_array_get(json_object_get(j, "cpus"), 4);
	assert_string_equal(json_string_value(json_object_get(cpu4, "l3")), "4-7,12-15");
	assert_string_equal(json_string_value(json_object_get(cpu4, "siblings")), "4,12");
	assert_true(json_is_null(json_object_get(cpu4, "kind")));
	json_t *classes = json_object_get(j, "classes");
	json_t *l3 = json_object_get(classes, "other_l3");
	assert_int_equal(json_integer_value(json_object_get(l3, "producer")), 1);
	assert_int_equal(json_integer_value(json_object_get(l3, "consumer")), 4);
	assert_null(json_object_get(classes, "same_l2"));
	assert_null(json_object_get(classes, "p_to_e"));
	assert_true(json_is_null(json_object_get(json_object_get(classes, "unpinned"), "producer")));
	json_decref(j);
	topology_free(&t);

	assert_int_equal(topology_load(FIX "hybrid", &t), 0);
	j = topology_to_json(&t);
	json_t *kind = json_array_get(json_object_get(j, "kinds"), 1);
	assert_string_equal(json_string_value(json_object_get(kind, "name")), "P");
	assert_string_equal(json_string_value(json_object_get(kind, "cpus")), "0-15");
	json_t *cpu20 = json_array_get(json_object_get(j, "cpus"), 20);
	assert_string_equal(json_string_value(json_object_get(cpu20, "kind")), "E");
	json_t *e2p = json_object_get(json_object_get(j, "classes"), "e_to_p");
	assert_int_equal(json_integer_value(json_object_get(e2p, "producer")), 16);
	assert_int_equal(json_integer_value(json_object_get(e2p, "consumer")), 1);
	json_decref(j);
	topology_free(&t);

	assert_int_equal(topology_load(FIX "container3", &t), 0);
	j = topology_to_json(&t);
	assert_string_equal(json_string_value(json_object_get(j, "online")), "3-4,11");
	assert_string_equal(json_string_value(json_object_get(j, "machine")), "0-15");
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
	assert_non_null(strstr(out, "cpus online: 0-3 (4 threads, 4 cores, 1 package)\n"));
	assert_non_null(strstr(out, "same_l2        2 -> 3"));
	assert_non_null(strstr(out, "smt_sibling    none on this machine"));
	assert_non_null(strstr(out, "L2 Unified         1 MiB x2   shared by: 0-1 2-3"));
	/* kinds mean nothing on a machine of one kind: not listed */
	assert_null(strstr(out, "p_to_e"));
	assert_null(strstr(out, "kind"));
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

	char *a5[] = { "topology", "--root", FIX "hybrid", NULL };
	out = capture(cmd_topology, 3, a5, &rc);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "core kinds (least performant first): E (IntelAtom) 16-23, P (IntelCore) 0-15\n"));
	assert_non_null(strstr(out, "   16    32    0    0  E     16         16-19          0-23\n"));
	assert_non_null(strstr(out, "p_to_e         1 -> 16\n"));
	assert_non_null(strstr(out, "e_to_p         16 -> 1\n"));
	free(out);

	char *a6[] = { "topology", "--root", FIX "container3/topology.xml", NULL };
	out = capture(cmd_topology, 3, a6, &rc);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "cpus allowed: 3-4,11 of 0-15 (3 threads, 2 cores, 1 package)\n"));
	free(out);

	char *a7[] = { "topology", "--synthetic", "package:2 numa:1 l3:1 core:2 pu:1", NULL };
	out = capture(cmd_topology, 3, a7, &rc);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "numa nodes: 0: 0-1; 1: 2-3\n"));
	assert_non_null(strstr(out, "other_package  1 -> 2\n"));
	free(out);

	char *a8[] = { "topology", "--synthetic", "core:2", "--root", FIX "bare", NULL };
	out = capture(cmd_topology, 5, a8, &rc);
	assert_int_equal(rc, 2);
	free(out);
}

/* ---- the kind classes in a plan ---- */

static int any_flag(const char *flag)
{
	return 1;
}

static int any_march(struct compiler *c, const char *march, char *why, size_t n)
{
	return 1;
}

/* The hybrid fixture's kind classes as a suite's placements and as a cpu
 * profile's pin class: each becomes its pair of CPUs (pins_requested: the
 * remap to this host's CPUs comes after). */
static void test_plan_hybrid(void **state)
{
	(void)state;
	struct topology topo;
	struct plan_fixture fx;
	fixture_load(&fx, "tests/fixtures/configs/placements.json", "host", any_flag, any_march);
	assert_int_equal(topology_load("tests/fixtures/sys/hybrid", &topo), 0);
	sv_clear(&fx.s.placements);
	sv_push(&fx.s.placements, "p_to_e");
	sv_push(&fx.s.placements, "e_to_p");
	free(fx.p.pin_class);
	fx.p.pin_class = xstrdup("e_to_p");
	struct plan plan;
	struct plan_input in = fx.in;
	in.topology = &topo;
	assert_int_equal(plan_build(&in, &plan), 0);
	assert_int_equal(plan.pins_requested.producer, 16);
	assert_int_equal(plan.pins_requested.consumer, 1);
	size_t seen[2] = { 0 };
	for (size_t i = 0; i < plan.n; i++) {
		const struct cell *c = &plan.cells[i];
		assert_int_equal(c->status, CELL_PENDING);
		int p_to_e = !strcmp(c->spec.placement, "p_to_e");
		assert_true(p_to_e || !strcmp(c->spec.placement, "e_to_p"));
		assert_int_equal(c->spec.pin.producer, p_to_e ? 1 : 16);
		assert_int_equal(c->spec.pin.consumer, p_to_e ? 16 : 1);
		seen[p_to_e]++;
	}
	assert_true(seen[0] > 0 && seen[0] == seen[1]);
	plan_free(&plan);
	topology_free(&topo);
	fixture_free(&fx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpulist_parse), cmocka_unit_test(test_counts),
		cmocka_unit_test(test_pairs),         cmocka_unit_test(test_cpu_fields),
		cmocka_unit_test(test_kinds),         cmocka_unit_test(test_kinds_unranked),
		cmocka_unit_test(test_classify),      cmocka_unit_test(test_class_names),
		cmocka_unit_test(test_synthetic),     cmocka_unit_test(test_missing_root),
		cmocka_unit_test(test_live_affinity), cmocka_unit_test(test_json),
		cmocka_unit_test(test_cmd),           cmocka_unit_test(test_plan_hybrid),
	};
	return cmocka_run_group_tests(tests, 0, 0);
}
