/* thermal.h: temperatures, clocks and throttling, before and after a cell.
 *
 * Protocol:
 *  - Every reader takes a ROOT prefix like topology.h ("/" is the live
 *    system, any other directory a fixture tree).
 *  - Sensors: <root>/sys/class/hwmon/hwmonN/ (name; tempK_input in
 *    millidegrees, optional tempK_label) and <root>/sys/class/thermal/
 *    thermal_zoneN/ (type, temp).  Each reading gets a role:
 *        THERMAL_CPU_PACKAGE  k10temp/zenpower Tdie (else Tctl, else the
 *                             unlabelled input), coretemp "Package id N",
 *                             zones x86_pkg_temp and cpu*-thermal/soc*
 *        THERMAL_CPU_CORE     k10temp Tccd*, coretemp "Core N"
 *        THERMAL_OTHER        everything else (acpitz, nvme, amdgpu, ...)
 *    The CPU temperature is the hottest package reading; with none, the
 *    hottest core reading; with none, the hottest reading of any sensor
 *    (its name says which, so a record never hides that it came from, say,
 *    an ACPI zone).  Tctl can carry a fixed offset (+10 C on a 2700X, +20 C
 *    on a 1700X), which is why Tdie wins when the driver exposes both; a
 *    threshold compared with the same sensor every time stays meaningful.
 *  - Clocks: cpuN/cpufreq/scaling_cur_freq (kHz) and scaling_governor per
 *    online CPU.  Throttle counters: cpuN/thermal_throttle/{core,package}_
 *    throttle_count (Intel only), summed over CPUs.
 *  - thermal_throttled(before, after) says THROTTLE_YES when a throttle
 *    counter grew, or when the mean clock of the CPUs fell by more than
 *    THERMAL_FREQ_DROP_PCT percent while every governor was "performance"
 *    (other governors lower idle clocks by design, so a drop proves
 *    nothing).  10 % is above the few percent that boost clocks jitter
 *    between two idle snapshots, and well below a thermal throttle, which
 *    takes a J4205 from its 2.6 GHz burst down to 1.5 GHz or less.
 *    THROTTLE_UNKNOWN when neither signal is available (VMs).
 *  - Cooldown between runs and cells (cooldown_run): pause spec.seconds,
 *    always (a package keeps heat the sensor does not yet show); then, if
 *    below_celsius is set and a sensor exists, read the CPU temperature
 *    every COOLDOWN_POLL_S until it is below below_celsius or the total
 *    wait reaches max_wait_seconds (never less than seconds).  It keeps
 *    reading the sensor it started with (another would compare unlike
 *    readings) and stops when that one disappears.  The sleep
 *    function is a parameter so that tests can fake time (and rewrite the
 *    sensor file while "sleeping"); the waited time is the sum of what it
 *    returns.  Ctrl-C (fb_interrupted) ends the wait early.
 */
#ifndef FLAGBENCH_THERMAL_H
#define FLAGBENCH_THERMAL_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "core/util.h"

#define THERMAL_FREQ_DROP_PCT 10.0
#define COOLDOWN_POLL_S 1.0

enum thermal_role { THERMAL_CPU_PACKAGE, THERMAL_CPU_CORE, THERMAL_OTHER };

struct thermal_sensor {
	char *name;      /* "k10temp/Tctl", "coretemp/Package id 0", "thermal_zone1/x86_pkg_temp" */
	char *path;      /* the file read, under root */
	enum thermal_role role;
	double celsius;
};

enum throttle_counters { COUNTERS_ABSENT, COUNTERS_PRESENT };

struct thermal_snapshot {
	double taken;                 /* now_monotonic() */
	struct thermal_sensor *sensors;
	size_t nsensors;
	int cpu_sensor;               /* index of the CPU temperature reading, -1 when none */
	double celsius;               /* that reading; NAN when none */
	size_t ncpus;                 /* online CPUs */
	int *cpu;                     /* their numbers */
	uint64_t *freq_khz;           /* scaling_cur_freq per CPU; 0 when unknown */
	char governor[32];            /* common governor, "mixed", or "" without cpufreq */
	enum throttle_counters counters;
	uint64_t core_throttles, package_throttles; /* sums over CPUs */
};

/* Reads everything above under root.  Never fails: what is missing stays
 * empty (a VM has no sensors, no cpufreq and no counters). */
void thermal_snapshot_take(const char *root, struct thermal_snapshot *s);
void thermal_snapshot_free(struct thermal_snapshot *s);
json_t *thermal_snapshot_to_json(const struct thermal_snapshot *s);
const char *thermal_role_name(enum thermal_role r);

/* Only the CPU temperature (see above): 0 with *celsius and the sensor's
 * name in name[n], or -1 when the machine has no sensor. */
int thermal_cpu_celsius(const char *root, double *celsius, char *name, size_t n);

enum throttle_verdict { THROTTLE_NO, THROTTLE_YES, THROTTLE_UNKNOWN };
/* Whether the cell between the two snapshots ran throttled; reason gets one
 * line saying why (also for NO and UNKNOWN).  reason may be NULL. */
enum throttle_verdict thermal_throttled(const struct thermal_snapshot *before, const struct thermal_snapshot *after,
					struct strbuf *reason);
const char *throttle_verdict_name(enum throttle_verdict v);

/* The profile's cooldown (config.h: cooldown_s, cooldown_below_c,
 * cooldown_max_wait_s map onto it one to one). */
struct cooldown_spec {
	double seconds;          /* the fixed pause, >= 0 */
	double below_celsius;    /* NAN (or <= 0) when not set */
	double max_wait_seconds; /* the whole wait's limit; below seconds means seconds */
};

enum cooldown_status {
	COOLDOWN_NONE,        /* nothing to wait for */
	COOLDOWN_FIXED,       /* fixed pause, no temperature target */
	COOLDOWN_NO_SENSOR,   /* a target, but no sensor: fixed pause instead */
	COOLDOWN_REACHED,     /* below the target */
	COOLDOWN_MAX_WAIT,    /* gave up at max_wait_seconds */
	COOLDOWN_INTERRUPTED, /* Ctrl-C */
};

struct cooldown_record {
	enum cooldown_status status;
	double temp_before, temp_after; /* Celsius; NAN without a sensor */
	char sensor[64];                /* the sensor read, "" without one */
	double waited_s;
	char reason[160];               /* "reached 45.0 C below 50 C after 12 s" */
};

/* A sleep that returns the seconds it really slept; it returns early (with
 * the time slept so far) when fb_interrupted is set. */
double cooldown_sleep(double seconds);
/* 0 with the outcome in out->status and out->reason; -1 after an error
 * for a spec out of range (negative or NaN seconds).  sleep_fn NULL means
 * cooldown_sleep. */
int cooldown_run(const struct cooldown_spec *spec, const char *root, double (*sleep_fn)(double),
		 struct cooldown_record *out);
const char *cooldown_status_name(enum cooldown_status s);
/* {"status", "reason", "waited_s", "temp_before_c", "temp_after_c", "sensor"} */
json_t *cooldown_record_to_json(const struct cooldown_record *r);

#endif
