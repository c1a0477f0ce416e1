/* thermal.c: see thermal.h */
#define _GNU_SOURCE
#include "system/thermal.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/json_util.h"
#include "core/runcmd.h"
#include "system/topology.h"

/* Readings outside this range are driver junk (-273, 0x7fff...), not heat. */
#define CELSIUS_MIN (-50.0)
#define CELSIUS_MAX 200.0

const char *thermal_role_name(enum thermal_role r)
{
	switch (r) {
	case THERMAL_CPU_PACKAGE:
		return "cpu_package";
	case THERMAL_CPU_CORE:
		return "cpu_core";
	case THERMAL_OTHER:
		break;
	}
	return "other";
}

/* Numbered entries "<prefix>N" of a directory, ascending by N. */
static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

static size_t numbered_entries(const char *dir, const char *prefix, const char *suffix, int **out)
{
	*out = NULL;
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	size_t n = 0, pl = strlen(prefix), sl = strlen(suffix);
	struct dirent *e;
	while ((e = readdir(d))) {
		const char *s = e->d_name;
		if (strncmp(s, prefix, pl) || !isdigit((unsigned char)s[pl]))
			continue;
		char *end;
		long v = strtol(s + pl, &end, 10);
		if (strcmp(end, suffix) || v < 0 || v > 100000 || (sl == 0 && *end))
			continue;
		*out = xrealloc(*out, (n + 1) * sizeof(int));
		(*out)[n++] = (int)v;
	}
	closedir(d);
	if (n)
		qsort(*out, n, sizeof(int), cmp_int);
	return n;
}

static void add_sensor(struct thermal_snapshot *s, char *name, char *path, enum thermal_role role, double c)
{
	s->sensors = xrealloc(s->sensors, (s->nsensors + 1) * sizeof(*s->sensors));
	s->sensors[s->nsensors++] = (struct thermal_sensor){ name, path, role, c };
}

static int read_millicelsius(const char *root, const char *rel, double *c)
{
	long long v;
	if (rootfs_read_ll(root, rel, &v) < 0)
		return -1;
	*c = (double)v / 1000.0;
	return *c > CELSIUS_MIN && *c < CELSIUS_MAX ? 0 : -1;
}

static int is_amd_driver(const char *name)
{
	return !strcmp(name, "k10temp") || !strcmp(name, "zenpower");
}

static enum thermal_role hwmon_role(const char *driver, const char *label, int has_tdie)
{
	if (is_amd_driver(driver)) {
		if (!label || !strcmp(label, "Tdie"))
			return THERMAL_CPU_PACKAGE;
		if (!strcmp(label, "Tctl"))
			return has_tdie ? THERMAL_OTHER : THERMAL_CPU_PACKAGE;
		if (!strncmp(label, "Tccd", 4))
			return THERMAL_CPU_CORE;
		return THERMAL_OTHER;
	}
	if (!strcmp(driver, "coretemp")) {
		if (!label || !strncmp(label, "Package id", 10) || !strncmp(label, "Physical id", 11))
			return THERMAL_CPU_PACKAGE;
		return THERMAL_CPU_CORE;
	}
	if (strstr(driver, "cpu") || !strncmp(driver, "soc", 3))
		return THERMAL_CPU_PACKAGE;
	return THERMAL_OTHER;
}

static void read_hwmon(const char *root, struct thermal_snapshot *s)
{
	char *dir = rootfs_path(root, "sys/class/hwmon");
	int *ids;
	size_t n = numbered_entries(dir, "hwmon", "", &ids);
	free(dir);
	for (size_t i = 0; i < n; i++) {
		char *base = xasprintf("sys/class/hwmon/hwmon%d", ids[i]);
		char *rel = xasprintf("%s/name", base);
		char *driver = rootfs_read(root, rel);
		free(rel);
		if (!driver)
			driver = xasprintf("hwmon%d", ids[i]);
		char *hdir = rootfs_path(root, base);
		int *temps;
		size_t nt = numbered_entries(hdir, "temp", "_input", &temps);
		free(hdir);
		char **labels = xcalloc(nt ? nt : 1, sizeof(char *));
		int has_tdie = 0;
		for (size_t k = 0; k < nt; k++) {
			rel = xasprintf("%s/temp%d_label", base, temps[k]);
			labels[k] = rootfs_read(root, rel);
			free(rel);
			if (labels[k] && !strcmp(labels[k], "Tdie"))
				has_tdie = 1;
		}
		for (size_t k = 0; k < nt; k++) {
			double c;
			rel = xasprintf("%s/temp%d_input", base, temps[k]);
			if (read_millicelsius(root, rel, &c) == 0) {
				char *name = labels[k] ? xasprintf("%s/%s", driver, labels[k])
						       : xasprintf("%s/temp%d", driver, temps[k]);
				add_sensor(s, name, rel, hwmon_role(driver, labels[k], has_tdie), c);
			} else {
				free(rel);
			}
			free(labels[k]);
		}
		free(labels);
		free(temps);
		free(driver);
		free(base);
	}
	free(ids);
}

static void read_zones(const char *root, struct thermal_snapshot *s)
{
	char *dir = rootfs_path(root, "sys/class/thermal");
	int *ids;
	size_t n = numbered_entries(dir, "thermal_zone", "", &ids);
	free(dir);
	for (size_t i = 0; i < n; i++) {
		char *rel = xasprintf("sys/class/thermal/thermal_zone%d/type", ids[i]);
		char *type = rootfs_read(root, rel);
		free(rel);
		rel = xasprintf("sys/class/thermal/thermal_zone%d/temp", ids[i]);
		double c;
		if (read_millicelsius(root, rel, &c) == 0) {
			const char *t = type ? type : "unknown";
			enum thermal_role role = THERMAL_OTHER;
			if (!strcmp(t, "x86_pkg_temp") || strstr(t, "cpu") || !strncmp(t, "soc", 3))
				role = THERMAL_CPU_PACKAGE;
			add_sensor(s, xasprintf("thermal_zone%d/%s", ids[i], t), rel, role, c);
		} else {
			free(rel);
		}
		free(type);
	}
	free(ids);
}

/* The CPU temperature: hottest package, else hottest core, else hottest of all. */
static void pick_cpu_sensor(struct thermal_snapshot *s)
{
	static const enum thermal_role order[] = { THERMAL_CPU_PACKAGE, THERMAL_CPU_CORE, THERMAL_OTHER };
	s->cpu_sensor = -1;
	s->celsius = NAN;
	for (size_t o = 0; o < 3 && s->cpu_sensor < 0; o++)
		for (size_t i = 0; i < s->nsensors; i++)
			if ((order[o] == THERMAL_OTHER || s->sensors[i].role == order[o]) &&
			    (s->cpu_sensor < 0 || s->sensors[i].celsius > s->celsius)) {
				s->cpu_sensor = (int)i;
				s->celsius = s->sensors[i].celsius;
			}
}

static void read_sensors(const char *root, struct thermal_snapshot *s)
{
	read_hwmon(root, s);
	read_zones(root, s);
	pick_cpu_sensor(s);
}

static void read_cpus(const char *root, struct thermal_snapshot *s)
{
	struct cpulist online = CPULIST_INIT;
	char *text = rootfs_read(root, "sys/devices/system/cpu/online");
	if (!text || cpulist_parse(text, &online) < 0) {
		free(text);
		return;
	}
	free(text);
	s->ncpus = online.n;
	s->cpu = online.cpu; /* takes the list's array */
	s->freq_khz = xcalloc(s->ncpus ? s->ncpus : 1, sizeof(uint64_t));
	int governors = 0;
	for (size_t i = 0; i < s->ncpus; i++) {
		int c = s->cpu[i];
		long long v;
		char *rel = xasprintf("sys/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq", c);
		if (rootfs_read_ll(root, rel, &v) == 0 && v > 0)
			s->freq_khz[i] = (uint64_t)v;
		free(rel);
		rel = xasprintf("sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", c);
		char *g = rootfs_read(root, rel);
		free(rel);
		if (g) {
			if (!governors++)
				snprintf(s->governor, sizeof(s->governor), "%s", g);
			else if (strcmp(s->governor, g))
				snprintf(s->governor, sizeof(s->governor), "mixed");
			free(g);
		}
		const char *kinds[2] = { "core", "package" };
		uint64_t *sums[2] = { &s->core_throttles, &s->package_throttles };
		for (int k = 0; k < 2; k++) {
			rel = xasprintf("sys/devices/system/cpu/cpu%d/thermal_throttle/%s_throttle_count", c, kinds[k]);
			if (rootfs_read_ll(root, rel, &v) == 0 && v >= 0) {
				*sums[k] += (uint64_t)v;
				s->counters = COUNTERS_PRESENT;
			}
			free(rel);
		}
	}
}

void thermal_snapshot_take(const char *root, struct thermal_snapshot *s)
{
	memset(s, 0, sizeof(*s));
	s->counters = COUNTERS_ABSENT;
	s->taken = now_monotonic();
	read_sensors(root, s);
	read_cpus(root, s);
}

void thermal_snapshot_free(struct thermal_snapshot *s)
{
	for (size_t i = 0; i < s->nsensors; i++) {
		free(s->sensors[i].name);
		free(s->sensors[i].path);
	}
	free(s->sensors);
	free(s->cpu);
	free(s->freq_khz);
	memset(s, 0, sizeof(*s));
	s->cpu_sensor = -1;
	s->celsius = NAN;
}

json_t *thermal_snapshot_to_json(const struct thermal_snapshot *s)
{
	json_t *sensors = json_array(), *freq = json_object();
	for (size_t i = 0; i < s->nsensors; i++)
		json_array_append_new(sensors, json_pack("{s:s, s:f, s:s}", "name", s->sensors[i].name, "celsius",
							 s->sensors[i].celsius, "role",
							 thermal_role_name(s->sensors[i].role)));
	for (size_t i = 0; i < s->ncpus; i++)
		if (s->freq_khz[i]) {
			char key[16];
			snprintf(key, sizeof(key), "%d", s->cpu[i]);
			json_object_set_new(freq, key, json_integer((json_int_t)s->freq_khz[i]));
		}
	json_t *counts = s->counters == COUNTERS_PRESENT
				 ? json_pack("{s:I, s:I}", "core", (json_int_t)s->core_throttles, "package",
					     (json_int_t)s->package_throttles)
				 : json_null();
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o}", "celsius",
			 s->cpu_sensor < 0 ? json_null() : json_real(s->celsius), "sensor",
			 s->cpu_sensor < 0 ? json_null() : json_string(s->sensors[s->cpu_sensor].name), "sensors",
			 sensors, "governor", s->governor[0] ? json_string(s->governor) : json_null(), "freq_khz", freq,
			 "throttle_counts", counts);
}

int thermal_cpu_celsius(const char *root, double *celsius, char *name, size_t n)
{
	struct thermal_snapshot s;
	memset(&s, 0, sizeof(s));
	read_sensors(root, &s);
	int r = -1;
	if (s.cpu_sensor >= 0) {
		*celsius = s.celsius;
		if (name && n)
			snprintf(name, n, "%s", s.sensors[s.cpu_sensor].name);
		r = 0;
	}
	thermal_snapshot_free(&s);
	return r;
}

/* The reading of the sensor with this name; -1 when it is gone. */
static int named_celsius(const char *root, const char *name, double *celsius)
{
	struct thermal_snapshot s;
	memset(&s, 0, sizeof(s));
	read_sensors(root, &s);
	int r = -1;
	for (size_t i = 0; i < s.nsensors && r < 0; i++)
		if (!strcmp(s.sensors[i].name, name)) {
			*celsius = s.sensors[i].celsius;
			r = 0;
		}
	thermal_snapshot_free(&s);
	return r;
}

/* ---- throttling ---- */

const char *throttle_verdict_name(enum throttle_verdict v)
{
	switch (v) {
	case THROTTLE_NO:
		return "no";
	case THROTTLE_YES:
		return "yes";
	case THROTTLE_UNKNOWN:
		break;
	}
	return "unknown";
}

/* Mean clocks (kHz) over the CPUs known in both snapshots; 0 when none. */
static size_t mean_clocks(const struct thermal_snapshot *a, const struct thermal_snapshot *b, double *ma, double *mb)
{
	size_t n = 0;
	double sa = 0, sb = 0;
	for (size_t i = 0; i < a->ncpus; i++)
		for (size_t j = 0; j < b->ncpus; j++)
			if (a->cpu[i] == b->cpu[j] && a->freq_khz[i] && b->freq_khz[j]) {
				sa += (double)a->freq_khz[i];
				sb += (double)b->freq_khz[j];
				n++;
			}
	*ma = n ? sa / (double)n : 0;
	*mb = n ? sb / (double)n : 0;
	return n;
}

enum throttle_verdict thermal_throttled(const struct thermal_snapshot *before, const struct thermal_snapshot *after,
					struct strbuf *reason)
{
	struct strbuf why = STRBUF_INIT;
	int counters = before->counters == COUNTERS_PRESENT && after->counters == COUNTERS_PRESENT;
	double fa, fb;
	size_t n = mean_clocks(before, after, &fa, &fb);
	int clocks = n && !strcmp(before->governor, "performance") && !strcmp(after->governor, "performance");
	enum throttle_verdict v = counters || clocks ? THROTTLE_NO : THROTTLE_UNKNOWN;

	if (counters && after->core_throttles > before->core_throttles)
		sb_addf(&why, "core throttle count rose by %llu",
			(unsigned long long)(after->core_throttles - before->core_throttles));
	if (counters && after->package_throttles > before->package_throttles)
		sb_addf(&why, "%spackage throttle count rose by %llu", why.len ? ", " : "",
			(unsigned long long)(after->package_throttles - before->package_throttles));
	if (why.len)
		v = THROTTLE_YES;
	double drop = clocks ? 100.0 * (fa - fb) / fa : 0;
	if (clocks && drop > THERMAL_FREQ_DROP_PCT) {
		sb_addf(&why, "%smean clock fell %.0f%% (%.0f -> %.0f MHz)", why.len ? "; " : "", drop, fa / 1000,
			fb / 1000);
		v = THROTTLE_YES;
	}
	if (v == THROTTLE_NO) {
		if (counters)
			sb_adds(&why, "throttle counters unchanged");
		if (clocks)
			sb_addf(&why, "%smean clock steady (%.0f -> %.0f MHz)", why.len ? "; " : "", fa / 1000,
				fb / 1000);
	} else if (v == THROTTLE_UNKNOWN) {
		if (n)
			sb_addf(&why, "no throttle counters, and governor %s changes clocks by design",
				before->governor[0] ? before->governor : "unknown");
		else
			sb_adds(&why, "no throttle counters and no cpufreq: throttling cannot be seen");
	}
	if (reason)
		sb_adds(reason, why.buf);
	sb_release(&why);
	return v;
}

/* ---- cooldown ---- */

const char *cooldown_status_name(enum cooldown_status s)
{
	switch (s) {
	case COOLDOWN_NONE:
		return "none";
	case COOLDOWN_FIXED:
		return "fixed";
	case COOLDOWN_NO_SENSOR:
		return "no_sensor";
	case COOLDOWN_REACHED:
		return "reached";
	case COOLDOWN_MAX_WAIT:
		return "max_wait";
	case COOLDOWN_INTERRUPTED:
		break;
	}
	return "interrupted";
}

double cooldown_sleep(double seconds)
{
	double start = now_monotonic();
	for (;;) {
		double left = seconds - (now_monotonic() - start);
		if (left <= 0 || fb_interrupted)
			break;
		struct timespec ts = { (time_t)left, (long)((left - (double)(time_t)left) * 1e9) };
		if (nanosleep(&ts, NULL) == 0)
			break;
		if (errno != EINTR)
			break;
	}
	return now_monotonic() - start;
}

int cooldown_run(const struct cooldown_spec *spec, const char *root, double (*sleep_fn)(double),
		 struct cooldown_record *out)
{
	memset(out, 0, sizeof(*out));
	out->temp_before = out->temp_after = NAN;
	if (!sleep_fn)
		sleep_fn = cooldown_sleep;
	if (!(spec->seconds >= 0) || !isfinite(spec->seconds))
		return error("cooldown: seconds must be a number >= 0, not %g", spec->seconds);
	int target = isfinite(spec->below_celsius) && spec->below_celsius > 0;
	double max_wait = spec->max_wait_seconds > spec->seconds ? spec->max_wait_seconds : spec->seconds;
	double t;
	int have = thermal_cpu_celsius(root, &t, out->sensor, sizeof(out->sensor)) == 0;
	if (have)
		out->temp_before = out->temp_after = t;

	if (spec->seconds <= 0 && !target) {
		out->status = COOLDOWN_NONE;
		snprintf(out->reason, sizeof(out->reason), "no cooldown");
		return 0;
	}
	if (spec->seconds > 0)
		out->waited_s += sleep_fn(spec->seconds);
	if (fb_interrupted) {
		out->status = COOLDOWN_INTERRUPTED;
		snprintf(out->reason, sizeof(out->reason), "interrupted after %.0f s", out->waited_s);
		return 0;
	}
	if (!target || !have) {
		if (have && named_celsius(root, out->sensor, &t) == 0)
			out->temp_after = t;
		out->status = target ? COOLDOWN_NO_SENSOR : COOLDOWN_FIXED;
		if (target)
			snprintf(out->reason, sizeof(out->reason), "fixed pause: no thermal sensors");
		else
			snprintf(out->reason, sizeof(out->reason), "fixed pause of %g s", spec->seconds);
		return 0;
	}
	/* the same sensor throughout: another one would compare unlike readings */
	for (;;) {
		if (named_celsius(root, out->sensor, &t) < 0) {
			out->status = COOLDOWN_NO_SENSOR;
			snprintf(out->reason, sizeof(out->reason), "fixed pause: thermal sensor lost after %.0f s",
				 out->waited_s);
			return 0;
		}
		out->temp_after = t;
		if (t < spec->below_celsius) {
			out->status = COOLDOWN_REACHED;
			snprintf(out->reason, sizeof(out->reason), "reached %.1f C below %g C after %.0f s", t,
				 spec->below_celsius, out->waited_s);
			return 0;
		}
		/* a small tolerance so that fake or coarse sleeps end the loop */
		if (out->waited_s >= max_wait - 1e-6) {
			out->status = COOLDOWN_MAX_WAIT;
			snprintf(out->reason, sizeof(out->reason), "max wait %g s reached at %.1f C", max_wait, t);
			return 0;
		}
		double step = max_wait - out->waited_s < COOLDOWN_POLL_S ? max_wait - out->waited_s : COOLDOWN_POLL_S;
		double slept = sleep_fn(step);
		if (fb_interrupted) {
			out->waited_s += slept > 0 ? slept : 0;
			out->status = COOLDOWN_INTERRUPTED;
			snprintf(out->reason, sizeof(out->reason), "interrupted after %.0f s at %.1f C", out->waited_s,
				 t);
			return 0;
		}
		/* a sleep that reports nothing still counts the step, so the loop ends */
		out->waited_s += slept > 0 ? slept : step;
	}
}

json_t *cooldown_record_to_json(const struct cooldown_record *r)
{
	return json_pack("{s:s, s:s, s:f, s:o, s:o, s:o}", "status", cooldown_status_name(r->status), "reason",
			 r->reason, "waited_s", r->waited_s, "temp_before_c", jnum_or_null(r->temp_before), "temp_after_c",
			 jnum_or_null(r->temp_after), "sensor", r->sensor[0] ? json_string(r->sensor) : json_null());
}
