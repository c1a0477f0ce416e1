/* test_doctor.c: doctor verdicts and host facts for each fixture, busy
 * processes from two faked /proc samples, tool probing against a fake PATH,
 * and the command's exit codes.  No live probe runs on a fixture root, so
 * nothing here depends on this machine's sensors, counters or load. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/doctor.h"
#include "system/doctor.h"
#include "core/util.h"

#define FIX "tests/fixtures/sys/"

#define FIXTURE_TREE_NAME "doctor"
#include "fixture_tree.h"

/* ---- verdicts per fixture ---- */

struct want {
	const char *item;
	enum doctor_verdict verdict;
	const char *detail; /* a substring of the detail, or NULL */
};

static void check_verdicts(const char *root, const struct want *w)
{
	struct doctor_options o = { root, DOCTOR_PROBE_NONE, 0, NULL };
	struct doctor_report r;
	assert_int_equal(doctor_collect(&o, &r), 0);
	for (; w->item; w++) {
		const struct doctor_item *it = doctor_find(&r, w->item);
		if (!it)
			fail_msg("%s: no item %s", root, w->item);
		if (it->verdict != w->verdict)
			fail_msg("%s: %s is %s (%s), expected %s", root, w->item, doctor_verdict_name(it->verdict),
				 it->detail, doctor_verdict_name(w->verdict));
		if (w->detail && !strstr(it->detail, w->detail))
			fail_msg("%s: %s detail '%s' lacks '%s'", root, w->item, it->detail, w->detail);
		/* anything short of ok says how to fix it, except plain facts */
		if (it->verdict == DOCTOR_OK)
			assert_null(it->hint);
	}
	/* no tools without DOCTOR_PROBE_TOOLS */
	assert_null(doctor_find(&r, "hyperfine"));
	doctor_report_free(&r);
}

static void test_verdicts_ryzen(void **state)
{
	static const struct want w[] = {
		{ "cpu", DOCTOR_OK, "AMD Ryzen 7 2700 Eight-Core Processor: 16 cpus online (0-15), 8 cores" },
		{ "kernel", DOCTOR_OK, "linux 5.10.0-1-amd64" },
		{ "governor", DOCTOR_OK, "performance" },
		{ "turbo", DOCTOR_WARN, "boost on" },
		{ "smt", DOCTOR_OK, "smt active" },
		{ "aslr", DOCTOR_WARN, "randomize_va_space 2" },
		{ "load", DOCTOR_OK, "0.52" },
		{ "busy", DOCTOR_UNKNOWN, NULL },
		{ "isolated", DOCTOR_WARN, "no isolated cpus" },
		{ "perf", DOCTOR_UNKNOWN, "perf_event_paranoid 2" },
		{ "thermal", DOCTOR_OK, "45.2 C from k10temp/Tctl" },
		{ "throttle", DOCTOR_OK, "clock drop" },
		{ "pipe", DOCTOR_OK, "1048576" },
		{ NULL, 0, NULL },
	};
	check_verdicts(FIX "ryzen2700", w);
}

static void test_verdicts_j4205(void **state)
{
	static const struct want w[] = {
		{ "cpu", DOCTOR_OK, "J4205" },
		{ "governor", DOCTOR_WARN, "governor powersave" },
		{ "turbo", DOCTOR_OK, "turbo off" },
		{ "smt", DOCTOR_OK, "inactive" },
		{ "aslr", DOCTOR_OK, NULL },
		{ "load", DOCTOR_FAIL, "3.10 on 4 cpus" },
		{ "isolated", DOCTOR_OK, "isolated cpus 2-3, nohz_full 2-3" },
		{ "perf", DOCTOR_UNKNOWN, "perf_event_paranoid 1" },
		{ "thermal", DOCTOR_OK, "58.0 C from coretemp/Package id 0 (7 sensors)" },
		{ "throttle", DOCTOR_OK, "counters present" },
		{ "pipe", DOCTOR_WARN, "65536" },
		{ NULL, 0, NULL },
	};
	check_verdicts(FIX "j4205", w);
}

static void test_verdicts_bare(void **state)
{
	static const struct want w[] = {
		{ "cpu", DOCTOR_OK, "AMD EPYC: 2 cpus online (0-1)" },
		{ "governor", DOCTOR_WARN, "no cpufreq: frequency not controlled or recorded" },
		{ "turbo", DOCTOR_UNKNOWN, "no turbo control" },
		{ "smt", DOCTOR_OK, "inactive" },
		{ "aslr", DOCTOR_WARN, NULL },
		{ "load", DOCTOR_OK, NULL },
		{ "isolated", DOCTOR_WARN, NULL },
		{ "thermal", DOCTOR_WARN, "no thermal sensors" },
		{ "throttle", DOCTOR_WARN, "cannot be detected" },
		{ "pipe", DOCTOR_OK, NULL },
		{ NULL, 0, NULL },
	};
	check_verdicts(FIX "bare", w);
}

/* A CI container limited to 3 of a 5700X's 16 CPUs (a tree with only its
 * topology.xml): the doctor says the allowed set is smaller; a machine
 * wholly allowed has no such item. */
static void test_verdicts_container(void **state)
{
	static const struct want w[] = {
		{ "cpu", DOCTOR_OK, "unknown model: 16 cpus online (0-15)" },
		{ "cpuset", DOCTOR_WARN, "this process may use 3 of the 16 cpus (3-4,11: 2 cores, 1 package)" },
		{ NULL, 0, NULL },
	};
	check_verdicts(FIX "container3", w);
	struct doctor_options o = { FIX "bare", DOCTOR_PROBE_NONE, 0, NULL };
	struct doctor_report r;
	assert_int_equal(doctor_collect(&o, &r), 0);
	assert_null(doctor_find(&r, "cpuset"));
	doctor_report_free(&r);
}

/* Changes on a copy: load levels, a turbo switch, a mixed governor. */
static void test_verdict_variants(void **state)
{
	static const struct {
		const char *fixture;
		const char *files[3][2];
		struct want w;
	} cases[] = {
		{ FIX "bare", { { "proc/loadavg", "0.40 0.30 0.20 1/90 1" } }, { "load", DOCTOR_WARN, "0.40 on 2 cpus" } },
		{ FIX "bare", { { "proc/loadavg", "0.19 0.30 0.20 1/90 1" } }, { "load", DOCTOR_OK, NULL } },
		{ FIX "bare", { { "proc/loadavg", "1.00 0.30 0.20 1/90 1" } }, { "load", DOCTOR_FAIL, NULL } },
		{ FIX "bare", { { "proc/loadavg", "garbage" } }, { "load", DOCTOR_UNKNOWN, NULL } },
		{ FIX "bare",
		  { { "sys/devices/system/cpu/intel_pstate/no_turbo", "0" } },
		  { "turbo", DOCTOR_WARN, "turbo on" } },
		{ FIX "bare", { { "sys/devices/system/cpu/cpufreq/boost", "0" } }, { "turbo", DOCTOR_OK, "boost off" } },
		{ FIX "bare",
		  { { "sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "performance" },
		    { "sys/devices/system/cpu/cpu1/cpufreq/scaling_governor", "ondemand" } },
		  { "governor", DOCTOR_WARN, "differ" } },
		{ FIX "bare", { { "proc/sys/kernel/randomize_va_space", "0" } }, { "aslr", DOCTOR_OK, "aslr off" } },
		{ FIX "bare", { { "proc/sys/fs/pipe-max-size", "4194304" } }, { "pipe", DOCTOR_OK, NULL } },
		{ FIX "ryzen2700",
		  { { "sys/devices/system/cpu/nohz_full", "4-7" }, { "sys/devices/system/cpu/isolated", "4-7" } },
		  { "isolated", DOCTOR_OK, "isolated cpus 4-7, nohz_full 4-7" } },
		/* only an ACPI zone: usable for cooldown, but not a cpu sensor */
		{ FIX "bare",
		  { { "sys/class/thermal/thermal_zone0/type", "acpitz" },
		    { "sys/class/thermal/thermal_zone0/temp", "30000" } },
		  { "thermal", DOCTOR_WARN, "no cpu sensor: cooldown reads thermal_zone0/acpitz (30.0 C)" } },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *root = temp_copy(cases[i].fixture);
		for (int k = 0; k < 3 && cases[i].files[k][0]; k++)
			put(root, cases[i].files[k][0], cases[i].files[k][1]);
		struct want w[2] = { cases[i].w, { NULL, 0, NULL } };
		check_verdicts(root, w);
		rm_tree(root);
		free(root);
	}
}

/* ---- facts ---- */

static void test_facts(void **state)
{
	static const struct {
		const char *root;
		const char *model;
		int cpus;
		const char *kernel, *governor, *turbo, *smt, *isolated;
		int aslr, pipe;
		size_t sensors;
		const char *same_l3; /* representative "p,c" or NULL */
	} cases[] = {
		{ FIX "ryzen2700", "AMD Ryzen 7 2700 Eight-Core Processor", 16, "5.10.0-1-amd64", "performance", "on",
		  "active", "", 2, 1048576, 2, "1,2" },
		{ FIX "j4205", "Intel(R) Pentium(R) CPU J4205 @ 1.50GHz", 4, "6.1.0-18-amd64", "powersave", "off",
		  "inactive", "2-3", 0, 65536, 7, NULL },
		{ FIX "bare", "AMD EPYC", 2, "6.18.44-fc-v669", NULL, NULL, "inactive", "", 2, 1048576, 0, "0,1" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		json_t *f = doctor_facts_json(cases[i].root);
		assert_non_null(f);
		assert_string_equal(json_string_value(json_object_get(f, "cpu_model")), cases[i].model);
		assert_int_equal(json_integer_value(json_object_get(f, "cpus_online")), cases[i].cpus);
		assert_string_equal(json_string_value(json_object_get(f, "kernel")), cases[i].kernel);
		assert_non_null(strstr(json_string_value(json_object_get(f, "libc")), "glibc "));
		json_t *g = json_object_get(f, "governor");
		if (cases[i].governor)
			assert_string_equal(json_string_value(g), cases[i].governor);
		else
			assert_true(json_is_null(g));
		json_t *t = json_object_get(f, "turbo");
		if (cases[i].turbo)
			assert_string_equal(json_string_value(t), cases[i].turbo);
		else
			assert_true(json_is_null(t));
		assert_string_equal(json_string_value(json_object_get(f, "smt")), cases[i].smt);
		assert_string_equal(json_string_value(json_object_get(f, "isolated")), cases[i].isolated);
		assert_int_equal(json_integer_value(json_object_get(f, "aslr")), cases[i].aslr);
		assert_int_equal(json_integer_value(json_object_get(f, "pipe_max_size")), cases[i].pipe);
		assert_int_equal(json_array_size(json_object_get(f, "thermal_sensors")), cases[i].sensors);
		/* a fixture root is never probed live */
		assert_string_equal(json_string_value(json_object_get(f, "perf_counters")), "not probed");
		assert_true(json_is_null(json_object_get(f, "busy_processes")));
		assert_true(json_is_array(json_object_get(f, "loadavg")));
		json_t *l3 = json_object_get(json_object_get(json_object_get(f, "topology"), "classes"), "same_l3");
		if (cases[i].same_l3) {
			char buf[16];
			snprintf(buf, sizeof(buf), "%lld,%lld",
				 (long long)json_integer_value(json_object_get(l3, "producer")),
				 (long long)json_integer_value(json_object_get(l3, "consumer")));
			assert_string_equal(buf, cases[i].same_l3);
		} else {
			assert_null(l3);
		}
		json_t *checks = json_object_get(f, "checks");
		assert_true(json_is_object(checks));
		assert_non_null(json_object_get(checks, "governor"));
		json_decref(f);
	}
}

static void test_noisy(void **state)
{
	static const struct {
		const char *facts;
		int noisy;
		const char *why;
	} cases[] = {
		{ "{\"loadavg\": [3.1, 2, 1], \"cpus_online\": 4}", 1, "load average 3.10 on 4 cpus" },
		{ "{\"loadavg\": [1.9, 2, 1], \"cpus_online\": 4}", 0, "" },
		{ "{\"loadavg\": [2.0, 2, 1], \"cpus_online\": 4}", 1, "load average 2.00 on 4 cpus" },
		{ "{\"loadavg\": null, \"cpus_online\": 4, \"busy_processes\": null}", 0, "" },
		{ "{\"loadavg\": [0, 0, 0], \"cpus_online\": 2, \"busy_processes\": []}", 0, "" },
		{ "{\"loadavg\": [0, 0, 0], \"cpus_online\": 2, \"busy_processes\": "
		  "[{\"pid\": 7, \"comm\": \"cc1\", \"cpu_pct\": 98}]}",
		  1, "busy: cc1 (pid 7) 98%" },
		{ "{\"loadavg\": [4, 0, 0], \"cpus_online\": 2, \"busy_processes\": "
		  "[{\"pid\": 7, \"comm\": \"a\", \"cpu_pct\": 90}, {\"pid\": 8, \"comm\": \"b\", \"cpu_pct\": 80},"
		  " {\"pid\": 9, \"comm\": \"c\", \"cpu_pct\": 70}, {\"pid\": 10, \"comm\": \"d\", \"cpu_pct\": 60}]}",
		  1, "load average 4.00 on 2 cpus; busy: a (pid 7) 90%, b (pid 8) 80%, c (pid 9) 70% and 1 more" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		json_error_t err;
		json_t *f = json_loads(cases[i].facts, 0, &err);
		assert_non_null(f);
		struct strbuf why = STRBUF_INIT;
		assert_int_equal(doctor_noisy(f, &why), cases[i].noisy);
		assert_string_equal(why.buf ? why.buf : "", cases[i].why);
		assert_int_equal(doctor_noisy(f, NULL), cases[i].noisy);
		sb_release(&why);
		json_decref(f);
	}
	json_t *f = doctor_facts_json(FIX "j4205");
	assert_int_equal(doctor_noisy(f, NULL), 1);
	json_decref(f);
	f = doctor_facts_json(FIX "ryzen2700");
	assert_int_equal(doctor_noisy(f, NULL), 0);
	json_decref(f);
}

/* ---- busy processes: the fake sleep advances the tick counters ---- */

static struct {
	const char *root;
	long hz;
} busy_fake;

static void write_stat(const char *root, int pid, const char *comm, unsigned long long utime,
		       unsigned long long stime)
{
	char rel[64], text[512];
	snprintf(rel, sizeof(rel), "proc/%d/stat", pid);
	snprintf(text, sizeof(text),
		 "%d (%s) R 1 %d %d 0 -1 4194560 100 0 0 0 %llu %llu 0 0 20 0 1 0 100 1000000 200 "
		 "18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0",
		 pid, comm, pid, pid, utime, stime);
	put(root, rel, text);
}

static double busy_sleep(double s)
{
	long full = (long)(busy_fake.hz * s + 0.5); /* one CPU fully busy over s */
	write_stat(busy_fake.root, 101, "yes", 1000 + (unsigned long long)full, 50);
	write_stat(busy_fake.root, 102, "sleepy", 10, 10);
	write_stat(busy_fake.root, 103, "a (weird) name", 200, 300 + (unsigned long long)(full / 2));
	write_stat(busy_fake.root, 104, "blip", 5 + (unsigned long long)(full / 20), 0); /* 5%: quiet */
	return s;
}

static void make_busy_tree(const char *root)
{
	write_stat(root, 101, "yes", 1000, 50);
	write_stat(root, 102, "sleepy", 10, 10);
	write_stat(root, 103, "a (weird) name", 200, 300);
	write_stat(root, 104, "blip", 5, 0);
	put(root, "proc/105/stat", "garbage without parentheses");
	put(root, "proc/self-not-a-pid/stat", "1 (x) R");
}

static void test_busy(void **state)
{
	char *root = temp_copy(NULL);
	make_busy_tree(root);
	busy_fake.root = root;
	busy_fake.hz = sysconf(_SC_CLK_TCK);
	struct busy_process *p;
	size_t n;
	assert_int_equal(doctor_busy_processes(root, 0.2, busy_sleep, &p, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(p[0].pid, 101);
	assert_string_equal(p[0].comm, "yes");
	assert_float_equal(p[0].cpu_pct, 100, 1e-6);
	assert_int_equal(p[1].pid, 103);
	assert_string_equal(p[1].comm, "a (weird) name");
	assert_float_equal(p[1].cpu_pct, 50, 1e-6);
	free(p);
	rm_tree(root);
	free(root);

	assert_int_equal(doctor_busy_processes("/nonexistent-root", 0.2, busy_sleep, &p, &n), -1);
	assert_int_equal(n, 0);
}

/* The doctor with the busy probe on a fixture copy: warn, recorded in the
 * facts, and the system counts as noisy. */
static void test_busy_in_doctor(void **state)
{
	char *root = temp_copy(FIX "bare");
	make_busy_tree(root);
	busy_fake.root = root;
	busy_fake.hz = sysconf(_SC_CLK_TCK);
	struct doctor_options o = { root, DOCTOR_PROBE_BUSY | DOCTOR_PROBE_PERF, 0.2, busy_sleep };
	struct doctor_report r;
	assert_int_equal(doctor_collect(&o, &r), 0);
	const struct doctor_item *it = doctor_find(&r, "busy");
	assert_int_equal(it->verdict, DOCTOR_WARN);
	assert_non_null(strstr(it->detail, "2 processes above 10% of a cpu over 0.2 s: yes (pid 101) 100%"));
	assert_non_null(it->hint);
	/* perf is never probed on a fixture, even when asked */
	assert_int_equal(doctor_find(&r, "perf")->verdict, DOCTOR_UNKNOWN);
	assert_int_equal(json_array_size(json_object_get(r.facts, "busy_processes")), 2);
	struct strbuf why = STRBUF_INIT;
	assert_int_equal(doctor_noisy(r.facts, &why), 1);
	assert_string_equal(why.buf, "busy: yes (pid 101) 100%, a (weird) name (pid 103) 50%");
	sb_release(&why);
	doctor_report_free(&r);

	/* nothing busy: ok */
	rm_tree(root);
	free(root);
	root = temp_copy(FIX "bare");
	write_stat(root, 102, "sleepy", 10, 10);
	busy_fake.root = root;
	o.root = root;
	assert_int_equal(doctor_collect(&o, &r), 0);
	assert_int_equal(doctor_find(&r, "busy")->verdict, DOCTOR_OK);
	doctor_report_free(&r);
	rm_tree(root);
	free(root);
}

/* ---- tools, against a PATH holding only a fake hyperfine ---- */

static void test_tools(void **state)
{
	char *dir = temp_copy(NULL);
	char *path = xasprintf("%s/hyperfine", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "#!/bin/sh\necho 'hyperfine 9.9.9'\n");
	fclose(f);
	assert_int_equal(chmod(path, 0755), 0);
	char *old = xstrdup(getenv("PATH") ? getenv("PATH") : "");
	setenv("PATH", dir, 1);

	struct doctor_options o = { FIX "bare", DOCTOR_PROBE_TOOLS, 0, NULL };
	struct doctor_report r;
	assert_int_equal(doctor_collect(&o, &r), 0);
	setenv("PATH", old, 1);
	static const struct {
		const char *tool;
		enum doctor_verdict v;
		const char *detail, *hint;
	} want[] = {
		{ "hyperfine", DOCTOR_OK, "hyperfine 9.9.9", NULL },
		{ "gcc", DOCTOR_WARN, "gcc not found on PATH (Debian package gcc)", "sudo apt-get install gcc" },
		{ "clang", DOCTOR_WARN, "Debian package clang", "sudo apt-get install clang" },
		{ "jq", DOCTOR_WARN, "Debian package jq", "sudo apt-get install jq" },
		{ "gnuplot", DOCTOR_WARN, "Debian package gnuplot-nox", "sudo apt-get install gnuplot-nox" },
		{ "pv", DOCTOR_WARN, "Debian package pv", "sudo apt-get install pv" },
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct doctor_item *it = doctor_find(&r, want[i].tool);
		assert_non_null(it);
		assert_int_equal(it->verdict, want[i].v);
		assert_non_null(strstr(it->detail, want[i].detail));
		if (want[i].hint)
			assert_string_equal(it->hint, want[i].hint);
	}
	doctor_report_free(&r);
	free(old);
	unlink(path);
	free(path);
	rm_tree(dir);
	free(dir);
}

/* ---- the command ---- */

static void test_cmd(void **state)
{
	int rc;
	char *a1[] = { "doctor", "--root", FIX "j4205", NULL };
	char *out = capture(cmd_doctor, 3, a1, &rc);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "fail    load       load average 3.10 on 4 cpus: the machine is busy\n"));
	assert_non_null(strstr(out, "fix: sudo sysctl fs.pipe-max-size=1048576\n"));
	assert_non_null(strstr(out, "the system is noisy: load average 3.10 on 4 cpus\n"));
	assert_null(strstr(out, "hyperfine")); /* no tools for a fixture root */
	free(out);

	char *a2[] = { "doctor", "--json", "--root", FIX "bare", NULL };
	out = capture(cmd_doctor, 4, a2, &rc);
	assert_int_equal(rc, 0);
	json_error_t err;
	json_t *j = json_loads(out, 0, &err);
	assert_non_null(j);
	assert_string_equal(json_string_value(json_object_get(j, "root")), FIX "bare");
	json_t *checks = json_object_get(j, "checks");
	assert_true(json_array_size(checks) >= 12);
	json_t *gov = json_array_get(checks, 2);
	assert_string_equal(json_string_value(json_object_get(gov, "name")), "governor");
	assert_string_equal(json_string_value(json_object_get(gov, "verdict")), "warn");
	assert_string_equal(json_string_value(json_object_get(gov, "detail")),
			    "no cpufreq: frequency not controlled or recorded");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(j, "facts"), "cpus_online")), 2);
	json_decref(j);
	free(out);

	char *a3[] = { "doctor", "--jsno", NULL };
	out = capture(cmd_doctor, 2, a3, &rc);
	assert_int_equal(rc, 2);
	free(out);
	char *a4[] = { "doctor", "extra", NULL };
	out = capture(cmd_doctor, 2, a4, &rc);
	assert_int_equal(rc, 2);
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_verdicts_ryzen), cmocka_unit_test(test_verdicts_j4205),
		cmocka_unit_test(test_verdicts_bare),  cmocka_unit_test(test_verdicts_container),
		cmocka_unit_test(test_verdict_variants),
		cmocka_unit_test(test_facts),          cmocka_unit_test(test_noisy),
		cmocka_unit_test(test_busy),           cmocka_unit_test(test_busy_in_doctor),
		cmocka_unit_test(test_tools),          cmocka_unit_test(test_cmd),
	};
	return cmocka_run_group_tests(tests, 0, 0);
}
