/* cooldown.h: when a run pauses against heat, and `flagbench cooldown`,
 * the wait hyperfine runs before a timed run (--prepare).
 *
 * The policy of a run (run.c), from the profile's cooldown (seconds,
 * below_celsius, max_wait_seconds; --cooldown S replaces seconds):
 *  - The pause belongs before each cell, so every cell starts as cool as
 *    the one before it.  With a CPU temperature sensor and a threshold:
 *    wait until the sensor reads below the threshold, at most max_wait
 *    (plus --cooldown S first, when given).  Otherwise: the fixed pause
 *    (seconds) once per cell, and the run warns once that it is blind.
 *  - Between the runs of a cell only a sensor can justify a pause: with a
 *    sensor and a threshold, hyperfine runs `flagbench cooldown --seconds 0
 *    --below T` before every run, which returns at once while the CPU is
 *    below T.  Without a sensor, nothing between runs.
 *  - Every wait that happened is recorded with the cell (results.json
 *    details.cooldown): the pause before it first, then the waits between
 *    runs that waited at all.
 *
 * `flagbench cooldown` waits --seconds; where thermal sensors exist and
 * --below is given, it then waits until the hottest sensor reads below
 * that many degrees, at most --max-wait seconds in all.  Without sensors
 * it falls back to the fixed pause.  --log FILE appends one JSON line per
 * pause saying what it did.
 */
#ifndef FLAGBENCH_COOLDOWN_H
#define FLAGBENCH_COOLDOWN_H

#include "system/thermal.h"

struct cooldown_policy {
	struct cooldown_spec spec; /* the profile's, with --cooldown applied to seconds */
	int override;              /* --cooldown was given: its pause comes first even with a sensor */
	int sensor;                /* the host has a CPU temperature sensor */
};

/* Reads whether root has a sensor. */
void cooldown_policy_init(struct cooldown_policy *p, const struct cooldown_spec *spec, int override, const char *root);
/* Whether the wait follows a temperature (a sensor and a threshold). */
int cooldown_follows_sensor(const struct cooldown_policy *p);
/* The wait before a cell: 1 with its spec in *out, 0 when there is none. */
int cooldown_before_cell_spec(const struct cooldown_policy *p, struct cooldown_spec *out);
/* That wait, here: 1 when it paused (or read the sensor) and *rec says how,
 * 0 when there was nothing to do.  sleep_fn NULL: cooldown_sleep.  (A run
 * runs the same spec as a `flagbench cooldown` child, so it shows in ps
 * and dies with the run's process group.) */
int cooldown_before_cell(const struct cooldown_policy *p, const char *root, double (*sleep_fn)(double),
			 struct cooldown_record *rec);
/* Whether hyperfine should wait before each run of a cell (a sensor and a
 * threshold); *below and *max_wait get the arguments of that wait. */
int cooldown_between_runs(const struct cooldown_policy *p, double *below, double *max_wait);

/* The words of `flagbench cooldown` for spec, logging to log (only the
 * waits that waited with waits_only): the wait before a cell (run.c) and
 * between runs (measure.c, hyperfine's --prepare) are one command. */
void cooldown_argv(const struct cooldown_spec *spec, const char *log, int waits_only, struct strvec *out);
/* Appends rec to path as one JSON line (`flagbench cooldown --log`, in
 * one write: O_APPEND keeps lines whole). */
void cooldown_log_append(const char *path, const struct cooldown_record *rec);

#endif
