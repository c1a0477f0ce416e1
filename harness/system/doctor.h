/* doctor.h: is this machine fit to measure on?  (`flagbench doctor`)
 *
 * Protocol:
 *  - doctor_collect() reads the system under a ROOT prefix (topology.h) and
 *    produces a list of checks, each with a verdict, a one-line detail and,
 *    where something can be done, a hint saying how (never for ok), after
 *    `pyperf system show`:
 *        ok       as good as it gets for measuring
 *        warn     adds noise or hides a fact; results are still usable
 *        fail     will distort results (a loaded machine)
 *        unknown  could not be determined here
 *    Alongside it builds `facts`, a JSON object with the raw values, which
 *    is what results.json "host" records (doctor_facts_json()).
 *  - Probes that do more than read files are opt-in (enum doctor_probe):
 *    sampling /proc/PID/stat over a window for busy processes (a sleep, so
 *    tests pass a fake sleep that rewrites the fixture), perf_event_open()
 *    of the cycle counter (only ever on the live root: a fixture cannot
 *    answer a syscall), and `TOOL --version` for the tools (PATH, not root).
 *  - cpuset: where this process may use fewer CPUs than the machine has
 *    online (a cgroup cpuset, an affinity mask: topology.h), a warn item
 *    says how many and which; placements pin only there.  The load checks
 *    count every online CPU, since the load average is the machine's.
 *  - Verdict thresholds: load average per online CPU below 0.1 is ok, below
 *    0.5 warn, else fail; a process is busy above DOCTOR_BUSY_PCT of one CPU
 *    over the window; pipe-max-size is ok from 1 MiB (the largest vmsplice
 *    chunk of seed 000).
 *  - doctor_noisy() reads facts only: noisy when the 1-minute load average
 *    is at least half the online CPUs or a busy process was seen, so a run
 *    can warn at its start.
 */
#ifndef FLAGBENCH_DOCTOR_H
#define FLAGBENCH_DOCTOR_H

#include <jansson.h>
#include <stddef.h>

#include "core/util.h"

#define DOCTOR_BUSY_PCT 10.0
#define DOCTOR_BUSY_WINDOW_S 0.2
#define DOCTOR_PIPE_MIN (1024 * 1024)

enum doctor_verdict { DOCTOR_OK, DOCTOR_WARN, DOCTOR_FAIL, DOCTOR_UNKNOWN };

/* Probes beyond reading files; combine with |. */
enum doctor_probe {
	DOCTOR_PROBE_NONE = 0,
	DOCTOR_PROBE_BUSY = 1,  /* sample <root>/proc/PID/stat over busy_window_s */
	DOCTOR_PROBE_PERF = 2,  /* perf_event_open(cycles); ignored unless root is live */
	DOCTOR_PROBE_TOOLS = 4, /* hyperfine, gcc, clang, jq, gnuplot, pv --version */
	DOCTOR_PROBE_ALL = 7,
};

struct doctor_options {
	const char *root;               /* NULL or "/" for the live system */
	int probes;                     /* enum doctor_probe bits */
	double busy_window_s;           /* <= 0: DOCTOR_BUSY_WINDOW_S */
	double (*sleep_fn)(double);     /* NULL: cooldown_sleep (thermal.h) */
};

struct doctor_item {
	char *name;   /* "governor", "turbo", ..., or a tool name */
	enum doctor_verdict verdict;
	char *detail; /* one line */
	char *hint;   /* how to fix; NULL when ok */
};

struct doctor_report {
	struct doctor_item *items;
	size_t n;
	json_t *facts; /* owned */
};

int doctor_collect(const struct doctor_options *o, struct doctor_report *r);
void doctor_report_free(struct doctor_report *r);
const struct doctor_item *doctor_find(const struct doctor_report *r, const char *name);
const char *doctor_verdict_name(enum doctor_verdict v);
/* {"root", "checks": [{"name", "verdict", "detail", "hint"}], "facts"} */
json_t *doctor_report_to_json(const struct doctor_report *r, const char *root);

/* results.json "host": cpu_model, kernel, arch, hostname, libc (sysinfo.h's
 * host_identity_facts()), cpus_online, governor,
 * turbo, smt, aslr, loadavg, busy_processes, isolated, nohz_full,
 * perf_event_paranoid, perf_counters, thermal_sensors, cpu_celsius,
 * throttle_counters, pipe_max_size, topology, checks.  Samples busy
 * processes and probes perf only on the live root.  A new reference. */
json_t *doctor_facts_json(const char *root);

/* 1 when facts say the machine is busy (why gets one line), else 0. */
int doctor_noisy(const json_t *facts, struct strbuf *why);

struct busy_process {
	int pid;
	char comm[32];
	double cpu_pct; /* of one CPU, over the window */
};
/* Processes above DOCTOR_BUSY_PCT over window_s, busiest first; the
 * live root leaves out flagbench itself.  0, or -1 when <root>/proc cannot
 * be read (no message). */
int doctor_busy_processes(const char *root, double window_s, double (*sleep_fn)(double), struct busy_process **out,
			  size_t *n);

/* The report as text: a line per check (its hint below), the counts, and
 * whether the system is noisy (`flagbench doctor`, cmd/doctor.h). */
void doctor_report_print(const struct doctor_report *r, FILE *out);

#endif
