/* test_thermal.c: sensors, throttle verdicts and cooldown decisions on the
 * fixture trees.  Counters and temperatures are changed in temporary
 * copies; time is faked by a sleep function that rewrites the sensor file,
 * so nothing here depends on the machine having sensors or on real time. */
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

#include "system/cooldown.h"
#include "core/runcmd.h"
#include "system/thermal.h"
#include "core/util.h"

#define FIX "tests/fixtures/sys/"

#define FIXTURE_TREE_NAME "thermal"
#include "fixture_tree.h"

/* ---- snapshots ---- */

static void test_snapshot_fixtures(void **state)
{
	static const struct {
		const char *root;
		size_t nsensors;
		const char *cpu_sensor; /* NULL: none */
		double celsius;
		const char *governor;
		enum throttle_counters counters;
		size_t ncpus;
		uint64_t freq_cpu0;
	} cases[] = {
		{ FIX "ryzen2700", 2, "k10temp/Tctl", 45.25, "performance", COUNTERS_ABSENT, 16, 3200000 },
		{ FIX "j4205", 7, "coretemp/Package id 0", 58.0, "powersave", COUNTERS_PRESENT, 4, 1500000 },
		{ FIX "bare", 0, NULL, NAN, "", COUNTERS_ABSENT, 2, 0 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct thermal_snapshot s;
		thermal_snapshot_take(cases[i].root, &s);
		assert_int_equal(s.nsensors, cases[i].nsensors);
		if (cases[i].cpu_sensor) {
			assert_true(s.cpu_sensor >= 0);
			assert_string_equal(s.sensors[s.cpu_sensor].name, cases[i].cpu_sensor);
			assert_float_equal(s.celsius, cases[i].celsius, 1e-9);
		} else {
			assert_int_equal(s.cpu_sensor, -1);
			assert_true(isnan(s.celsius));
		}
		assert_string_equal(s.governor, cases[i].governor);
		assert_int_equal(s.counters, cases[i].counters);
		assert_int_equal(s.ncpus, cases[i].ncpus);
		assert_int_equal(s.freq_khz[0], cases[i].freq_cpu0);
		json_t *j = thermal_snapshot_to_json(&s);
		assert_non_null(j);
		assert_int_equal(json_array_size(json_object_get(j, "sensors")), cases[i].nsensors);
		if (!cases[i].cpu_sensor)
			assert_true(json_is_null(json_object_get(j, "celsius")));
		json_decref(j);
		thermal_snapshot_free(&s);
	}
}

static void test_j4205_details(void **state)
{
	struct thermal_snapshot s;
	thermal_snapshot_take(FIX "j4205", &s);
	assert_int_equal(s.core_throttles, 0);
	assert_int_equal(s.package_throttles, 12); /* 3 per CPU, summed */
	int roles[3] = { 0 };
	for (size_t i = 0; i < s.nsensors; i++)
		roles[s.sensors[i].role]++;
	/* package: coretemp package + x86_pkg_temp; cores: 4; other: acpitz */
	assert_int_equal(roles[THERMAL_CPU_PACKAGE], 2);
	assert_int_equal(roles[THERMAL_CPU_CORE], 4);
	assert_int_equal(roles[THERMAL_OTHER], 1);
	thermal_snapshot_free(&s);
}

/* Which reading is "the CPU temperature" in trees no fixture covers. */
static void test_cpu_sensor_choice(void **state)
{
	static const struct {
		const char *files[8][2];
		const char *want; /* NULL: none */
		double celsius;
	} cases[] = {
		/* Tdie wins over Tctl (which may carry an offset), even though cooler */
		{ { { "sys/class/hwmon/hwmon0/name", "k10temp" },
		    { "sys/class/hwmon/hwmon0/temp1_label", "Tctl" },
		    { "sys/class/hwmon/hwmon0/temp1_input", "60000" },
		    { "sys/class/hwmon/hwmon0/temp2_label", "Tdie" },
		    { "sys/class/hwmon/hwmon0/temp2_input", "50000" },
		    { "sys/class/hwmon/hwmon0/temp3_label", "Tccd1" },
		    { "sys/class/hwmon/hwmon0/temp3_input", "47000" } },
		  "k10temp/Tdie", 50.0 },
		/* only an ACPI zone: used, and named */
		{ { { "sys/class/thermal/thermal_zone0/type", "acpitz" },
		    { "sys/class/thermal/thermal_zone0/temp", "41000" } },
		  "thermal_zone0/acpitz", 41.0 },
		/* ARM-style zone counts as the CPU package, over a hotter battery */
		{ { { "sys/class/thermal/thermal_zone0/type", "battery" },
		    { "sys/class/thermal/thermal_zone0/temp", "70000" },
		    { "sys/class/thermal/thermal_zone1/type", "cpu-thermal" },
		    { "sys/class/thermal/thermal_zone1/temp", "52500" } },
		  "thermal_zone1/cpu-thermal", 52.5 },
		/* junk readings are dropped; an unlabelled input gets tempN */
		{ { { "sys/class/hwmon/hwmon3/name", "coretemp" },
		    { "sys/class/hwmon/hwmon3/temp1_input", "-273000" },
		    { "sys/class/hwmon/hwmon3/temp2_input", "48000" },
		    { "sys/class/hwmon/hwmon3/temp3_input", "not a number" } },
		  "coretemp/temp2", 48.0 },
		/* only core sensors: the hottest core */
		{ { { "sys/class/hwmon/hwmon0/name", "coretemp" },
		    { "sys/class/hwmon/hwmon0/temp2_label", "Core 0" },
		    { "sys/class/hwmon/hwmon0/temp2_input", "51000" },
		    { "sys/class/hwmon/hwmon0/temp3_label", "Core 1" },
		    { "sys/class/hwmon/hwmon0/temp3_input", "53000" } },
		  "coretemp/Core 1", 53.0 },
		{ { { "sys/class/hwmon/hwmon0/name", "nvme" } }, NULL, NAN },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *root = temp_copy(NULL);
		for (int k = 0; k < 8 && cases[i].files[k][0]; k++)
			put(root, cases[i].files[k][0], cases[i].files[k][1]);
		double c = -1;
		char name[64] = "";
		int r = thermal_cpu_celsius(root, &c, name, sizeof(name));
		if (cases[i].want) {
			assert_int_equal(r, 0);
			assert_string_equal(name, cases[i].want);
			assert_float_equal(c, cases[i].celsius, 1e-9);
		} else {
			assert_int_equal(r, -1);
		}
		rm_tree(root);
		free(root);
	}
}

/* ---- throttling ---- */

static void set_all(const char *root, int ncpus, const char *file, const char *value)
{
	for (int cpu = 0; cpu < ncpus; cpu++) {
		char rel[128];
		snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/%s", cpu, file);
		put(root, rel, value);
	}
}

static void mut_none(const char *root)
{
}

static void mut_package_throttle(const char *root)
{
	set_all(root, 4, "thermal_throttle/package_throttle_count", "4");
}

static void mut_core_throttle(const char *root)
{
	put(root, "sys/devices/system/cpu/cpu2/thermal_throttle/core_throttle_count", "2");
}

static void mut_clock_drop(const char *root)
{
	set_all(root, 16, "cpufreq/scaling_cur_freq", "2600000");
}

static void mut_clock_jitter(const char *root)
{
	/* about 5% lower: boost jitter, not throttling */
	set_all(root, 16, "cpufreq/scaling_cur_freq", "3050000");
}

static void mut_schedutil_drop(const char *root)
{
	set_all(root, 16, "cpufreq/scaling_governor", "schedutil");
	set_all(root, 16, "cpufreq/scaling_cur_freq", "1400000");
}

static void test_throttled(void **state)
{
	static const struct {
		const char *fixture;
		void (*before)(const char *root); /* applied before the first snapshot */
		void (*mutate)(const char *root);
		enum throttle_verdict want;
		const char *reason;
	} cases[] = {
		{ FIX "j4205", mut_none, mut_none, THROTTLE_NO, "throttle counters unchanged" },
		{ FIX "j4205", mut_none, mut_package_throttle, THROTTLE_YES, "package throttle count rose by 4" },
		{ FIX "j4205", mut_none, mut_core_throttle, THROTTLE_YES, "core throttle count rose by 2" },
		{ FIX "ryzen2700", mut_none, mut_none, THROTTLE_NO, "mean clock steady (3223 -> 3223 MHz)" },
		{ FIX "ryzen2700", mut_none, mut_clock_drop, THROTTLE_YES, "mean clock fell 19% (3223 -> 2600 MHz)" },
		{ FIX "ryzen2700", mut_none, mut_clock_jitter, THROTTLE_NO, "mean clock steady (3223 -> 3050 MHz)" },
		{ FIX "ryzen2700", mut_schedutil_drop, mut_none, THROTTLE_UNKNOWN,
		  "no throttle counters, and governor schedutil changes clocks by design" },
		{ FIX "bare", mut_none, mut_none, THROTTLE_UNKNOWN,
		  "no throttle counters and no cpufreq: throttling cannot be seen" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *root = temp_copy(cases[i].fixture);
		cases[i].before(root);
		struct thermal_snapshot a, b;
		thermal_snapshot_take(root, &a);
		cases[i].mutate(root);
		thermal_snapshot_take(root, &b);
		struct strbuf why = STRBUF_INIT;
		enum throttle_verdict v = thermal_throttled(&a, &b, &why);
		if (v != cases[i].want || strcmp(why.buf, cases[i].reason))
			fail_msg("case %zu: got %s '%s', expected %s '%s'", i, throttle_verdict_name(v), why.buf,
				 throttle_verdict_name(cases[i].want), cases[i].reason);
		assert_int_equal(thermal_throttled(&a, &b, NULL), v);
		sb_release(&why);
		thermal_snapshot_free(&a);
		thermal_snapshot_free(&b);
		rm_tree(root);
		free(root);
	}
}

/* ---- cooldown ---- */

/* The fake clock: every sleep lowers the sensor by rate C per second and
 * writes it back, as a cooling package would. */
static struct {
	char *root;
	const char *rel; /* the sensor file, NULL when there is none */
	double celsius, rate;
	int calls;
	int interrupt_at; /* set fb_interrupted on this call (1-based), 0 never */
	int lose_at;      /* delete the sensor on this call, 0 never */
} fake;

static double fake_sleep(double s)
{
	fake.calls++;
	fake.celsius -= fake.rate * s;
	if (fake.rel && !(fake.lose_at && fake.calls > fake.lose_at)) {
		char v[32];
		snprintf(v, sizeof(v), "%.0f", fake.celsius * 1000);
		put(fake.root, fake.rel, v);
		if (fake.lose_at == fake.calls) {
			char *p = xasprintf("%s/%s", fake.root, fake.rel);
			unlink(p);
			free(p);
		}
	}
	if (fake.interrupt_at == fake.calls)
		fb_interrupted = 1;
	return s;
}

/* A copy of fixture with the fake clock at start C (NAN: no sensor), cooling at rate C/s. */
static char *fake_start(const char *fixture, double start, double rate)
{
	char *root = temp_copy(fixture);
	memset(&fake, 0, sizeof(fake));
	fake.root = root;
	fake.celsius = start;
	fake.rate = rate;
	if (!isnan(start)) {
		fake.rel = "sys/class/hwmon/hwmon1/temp1_input";
		fake_sleep(0); /* writes the start temperature */
		fake.calls = 0;
	}
	return root;
}

static void test_cooldown(void **state)
{
	static const struct {
		const char *fixture;
		struct cooldown_spec spec;
		double start, rate;
		int interrupt_at, lose_at;
		int rc;
		enum cooldown_status status;
		double waited, before, after;
		const char *reason;
	} cases[] = {
		{ FIX "ryzen2700", { 30, NAN, 0 }, 70, 0.5, 0, 0, 0, COOLDOWN_FIXED, 30, 70, 55, "fixed pause of 30 s" },
		{ FIX "ryzen2700", { 0, NAN, 0 }, 70, 0.5, 0, 0, 0, COOLDOWN_NONE, 0, 70, 70, "no cooldown" },
		{ FIX "ryzen2700", { 10, 50, 60 }, 70, 1, 0, 0, 0, COOLDOWN_REACHED, 21, 70, 49,
		  "reached 49.0 C below 50 C after 21 s" },
		{ FIX "ryzen2700", { 10, 50, 15 }, 70, 1, 0, 0, 0, COOLDOWN_MAX_WAIT, 15, 70, 55,
		  "max wait 15 s reached at 55.0 C" },
		/* already cool: the fixed pause is still taken */
		{ FIX "ryzen2700", { 5, 50, 60 }, 40, 0, 0, 0, 0, COOLDOWN_REACHED, 5, 40, 40,
		  "reached 40.0 C below 50 C after 5 s" },
		/* target only: no fixed pause, polls at once */
		{ FIX "ryzen2700", { 0, 50, 60 }, 52, 1, 0, 0, 0, COOLDOWN_REACHED, 3, 52, 49,
		  "reached 49.0 C below 50 C after 3 s" },
		/* a max wait below the fixed pause means the fixed pause */
		{ FIX "ryzen2700", { 10, 50, 3 }, 70, 0, 0, 0, 0, COOLDOWN_MAX_WAIT, 10, 70, 70,
		  "max wait 10 s reached at 70.0 C" },
		{ FIX "ryzen2700", { 10, 50, 60 }, 70, 0, 3, 0, 0, COOLDOWN_INTERRUPTED, 12, 70, 70,
		  "interrupted after 12 s at 70.0 C" },
		{ FIX "ryzen2700", { 10, 50, 60 }, 70, 0, 1, 0, 0, COOLDOWN_INTERRUPTED, 10, 70, 70,
		  "interrupted after 10 s" },
		{ FIX "ryzen2700", { 10, 50, 60 }, 70, 1, 0, 2, 0, COOLDOWN_NO_SENSOR, 11, 70, 60,
		  "fixed pause: thermal sensor lost after 11 s" },
		{ FIX "bare", { 30, 50, 60 }, NAN, 0, 0, 0, 0, COOLDOWN_NO_SENSOR, 30, NAN, NAN,
		  "fixed pause: no thermal sensors" },
		{ FIX "bare", { 30, NAN, 60 }, NAN, 0, 0, 0, 0, COOLDOWN_FIXED, 30, NAN, NAN, "fixed pause of 30 s" },
		{ FIX "bare", { -1, NAN, 0 }, NAN, 0, 0, 0, -1, COOLDOWN_NONE, 0, NAN, NAN, "" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *root = fake_start(cases[i].fixture, cases[i].start, cases[i].rate);
		fake.interrupt_at = cases[i].interrupt_at;
		fake.lose_at = cases[i].lose_at;
		fb_interrupted = 0;
		struct cooldown_record rec;
		int rc = cooldown_run(&cases[i].spec, root, fake_sleep, &rec);
		fb_interrupted = 0;
		assert_int_equal(rc, cases[i].rc);
		if (rc == 0) {
			if (rec.status != cases[i].status || strcmp(rec.reason, cases[i].reason))
				fail_msg("case %zu: got %s '%s', expected %s '%s'", i, cooldown_status_name(rec.status),
					 rec.reason, cooldown_status_name(cases[i].status), cases[i].reason);
			assert_float_equal(rec.waited_s, cases[i].waited, 1e-9);
			if (isnan(cases[i].before)) {
				assert_true(isnan(rec.temp_before));
				assert_true(isnan(rec.temp_after));
				assert_string_equal(rec.sensor, "");
			} else {
				assert_float_equal(rec.temp_before, cases[i].before, 1e-9);
				assert_float_equal(rec.temp_after, cases[i].after, 1e-9);
				assert_string_equal(rec.sensor, "k10temp/Tctl");
			}
		}
		rm_tree(root);
		free(root);
	}
}

/* The run's policy (cooldown.h): with a sensor, the wait before a cell
 * follows the temperature and hyperfine waits between runs; without one,
 * the fixed pause before each cell and nothing between runs. */
static void test_cooldown_policy(void **state)
{
	(void)state;
	static const struct {
		const char *fixture;
		struct cooldown_spec spec;
		int override;
		double start, rate;
		int acted, follows;
		enum cooldown_status status;
		double waited;
	} cases[] = {
		/* the hotter the CPU, the longer the wait: 1 C per second down to below 50 C */
		{ FIX "ryzen2700", { 10, 50, 120 }, 0, 40, 1, 1, 1, COOLDOWN_REACHED, 0 },
		{ FIX "ryzen2700", { 10, 50, 120 }, 0, 55, 1, 1, 1, COOLDOWN_REACHED, 6 },
		{ FIX "ryzen2700", { 10, 50, 120 }, 0, 70, 1, 1, 1, COOLDOWN_REACHED, 21 },
		{ FIX "ryzen2700", { 10, 50, 120 }, 0, 90, 1, 1, 1, COOLDOWN_REACHED, 41 },
		/* never longer than max_wait */
		{ FIX "ryzen2700", { 10, 50, 120 }, 0, 90, 0.1, 1, 1, COOLDOWN_MAX_WAIT, 120 },
		/* --cooldown S: its pause first, even with a sensor */
		{ FIX "ryzen2700", { 10, 50, 120 }, 1, 40, 1, 1, 1, COOLDOWN_REACHED, 10 },
		/* a sensor but no threshold: the fixed pause */
		{ FIX "ryzen2700", { 10, NAN, 120 }, 0, 70, 1, 1, 0, COOLDOWN_FIXED, 10 },
		/* no sensor: the fixed pause, never more */
		{ FIX "bare", { 10, 50, 120 }, 0, NAN, 0, 1, 0, COOLDOWN_NO_SENSOR, 10 },
		{ FIX "bare", { 0, 50, 120 }, 0, NAN, 0, 0, 0, COOLDOWN_NONE, 0 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *root = fake_start(cases[i].fixture, cases[i].start, cases[i].rate);
		fb_interrupted = 0;
		struct cooldown_policy p;
		cooldown_policy_init(&p, &cases[i].spec, cases[i].override, root);
		assert_int_equal(p.sensor, !isnan(cases[i].start));
		assert_int_equal(cooldown_follows_sensor(&p), cases[i].follows);
		double below = NAN, max_wait = 0;
		assert_int_equal(cooldown_between_runs(&p, &below, &max_wait), cases[i].follows);
		if (cases[i].follows)
			assert_true(below == 50 && max_wait == 120);
		struct cooldown_record rec;
		memset(&rec, 0, sizeof(rec));
		assert_int_equal(cooldown_before_cell(&p, root, fake_sleep, &rec), cases[i].acted);
		if (cases[i].acted) {
			if (rec.status != cases[i].status)
				fail_msg("case %zu: got %s '%s'", i, cooldown_status_name(rec.status), rec.reason);
			assert_float_equal(rec.waited_s, cases[i].waited, 1e-9);
		}
		rm_tree(root);
		free(root);
	}
}

static void test_cooldown_json(void **state)
{
	struct cooldown_record r;
	memset(&r, 0, sizeof(r));
	r.status = COOLDOWN_REACHED;
	r.temp_before = 70;
	r.temp_after = 49;
	r.waited_s = 21;
	snprintf(r.sensor, sizeof(r.sensor), "k10temp/Tctl");
	snprintf(r.reason, sizeof(r.reason), "reached 49.0 C below 50 C after 21 s");
	json_t *j = cooldown_record_to_json(&r);
	assert_string_equal(json_string_value(json_object_get(j, "status")), "reached");
	assert_string_equal(json_string_value(json_object_get(j, "reason")), r.reason);
	assert_string_equal(json_string_value(json_object_get(j, "sensor")), "k10temp/Tctl");
	assert_float_equal(json_number_value(json_object_get(j, "waited_s")), 21, 1e-9);
	assert_float_equal(json_number_value(json_object_get(j, "temp_after_c")), 49, 1e-9);
	json_decref(j);

	r.status = COOLDOWN_NO_SENSOR;
	r.temp_before = r.temp_after = NAN;
	r.sensor[0] = '\0';
	j = cooldown_record_to_json(&r);
	assert_string_equal(json_string_value(json_object_get(j, "status")), "no_sensor");
	assert_true(json_is_null(json_object_get(j, "temp_before_c")));
	assert_true(json_is_null(json_object_get(j, "sensor")));
	json_decref(j);
}

/* The real sleep: short, so the suite stays fast. */
static void test_cooldown_sleep(void **state)
{
	double s = cooldown_sleep(0.02);
	assert_true(s >= 0.019);
	assert_true(s < 1.0);
	fb_interrupted = 1;
	assert_true(cooldown_sleep(5) < 0.5);
	fb_interrupted = 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_snapshot_fixtures), cmocka_unit_test(test_j4205_details),
		cmocka_unit_test(test_cpu_sensor_choice), cmocka_unit_test(test_throttled),
		cmocka_unit_test(test_cooldown),          cmocka_unit_test(test_cooldown_json),
		cmocka_unit_test(test_cooldown_sleep),    cmocka_unit_test(test_cooldown_policy),
	};
	return cmocka_run_group_tests(tests, 0, 0);
}
