/* doctor.c: see doctor.h.  Just over 700 lines: one check a function, each
 * a few lines over the same context (its facts, its items), in one table
 * so that the report lists them in one order. */
#define _GNU_SOURCE
#include "system/doctor.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/json_util.h"
#include "system/sysinfo.h"
#include "system/thermal.h"
#include "system/topology.h"

const char *doctor_verdict_name(enum doctor_verdict v)
{
	switch (v) {
	case DOCTOR_OK:
		return "ok";
	case DOCTOR_WARN:
		return "warn";
	case DOCTOR_FAIL:
		return "fail";
	case DOCTOR_UNKNOWN:
		break;
	}
	return "unknown";
}

static void add_item(struct doctor_report *r, const char *name, enum doctor_verdict v, const char *hint,
		     const char *fmt, ...) FB_PRINTF(5, 6);

static void add_item(struct doctor_report *r, const char *name, enum doctor_verdict v, const char *hint,
		     const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	sb_adds(&sb, buf);
	r->items = xrealloc(r->items, (r->n + 1) * sizeof(*r->items));
	r->items[r->n++] = (struct doctor_item){ xstrdup(name), v, sb_detach(&sb), hint ? xstrdup(hint) : NULL };
}

const struct doctor_item *doctor_find(const struct doctor_report *r, const char *name)
{
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->items[i].name, name))
			return &r->items[i];
	return NULL;
}

void doctor_report_free(struct doctor_report *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->items[i].name);
		free(r->items[i].detail);
		free(r->items[i].hint);
	}
	free(r->items);
	json_decref(r->facts);
	memset(r, 0, sizeof(*r));
}

/* ---- busy processes ---- */

struct proc_sample {
	int pid;
	char comm[32];
	unsigned long long ticks; /* utime + stime */
};

static int cmp_sample(const void *a, const void *b)
{
	const struct proc_sample *x = a, *y = b;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* "PID (COMM) S f4 ... f13 utime stime ...": comm may hold spaces and
 * parentheses, so the fields start after the last ')'. */
static int parse_stat(const char *text, struct proc_sample *s)
{
	const char *open = strchr(text, '('), *close = strrchr(text, ')');
	if (!open || !close || close < open)
		return -1;
	s->pid = atoi(text);
	size_t cl = (size_t)(close - open - 1);
	snprintf(s->comm, sizeof(s->comm), "%.*s", (int)(cl < sizeof(s->comm) ? cl : sizeof(s->comm) - 1), open + 1);
	unsigned long long utime, stime;
	/* after ')': state(3) ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime(14) stime(15) */
	if (sscanf(close + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &utime, &stime) != 2)
		return -1;
	s->ticks = utime + stime;
	return 0;
}

static int sample_procs(const char *root, struct proc_sample **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	char *dir = rootfs_path(root, "proc");
	DIR *d = opendir(dir);
	free(dir);
	if (!d)
		return -1;
	struct dirent *e;
	size_t alloc = 0;
	while ((e = readdir(d))) {
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		char *rel = xasprintf("proc/%s/stat", e->d_name);
		char *text = rootfs_read(root, rel);
		free(rel);
		struct proc_sample s;
		if (text && parse_stat(text, &s) == 0) {
			if (*n == alloc) {
				alloc = alloc ? 2 * alloc : 256;
				*out = xrealloc(*out, alloc * sizeof(**out));
			}
			(*out)[(*n)++] = s;
		}
		free(text);
	}
	closedir(d);
	if (*n)
		qsort(*out, *n, sizeof(**out), cmp_sample);
	return 0;
}

static int cmp_busy(const void *a, const void *b)
{
	const struct busy_process *x = a, *y = b;
	if (x->cpu_pct != y->cpu_pct)
		return x->cpu_pct < y->cpu_pct ? 1 : -1;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

int doctor_busy_processes(const char *root, double window_s, double (*sleep_fn)(double), struct busy_process **out,
			  size_t *n)
{
	*out = NULL;
	*n = 0;
	if (!sleep_fn)
		sleep_fn = cooldown_sleep;
	if (window_s <= 0)
		window_s = DOCTOR_BUSY_WINDOW_S;
	struct proc_sample *a, *b;
	size_t na, nb;
	if (sample_procs(root, &a, &na) < 0)
		return -1;
	double slept = sleep_fn(window_s);
	if (slept <= 0)
		slept = window_s;
	if (sample_procs(root, &b, &nb) < 0) {
		free(a);
		return -1;
	}
	long hz = sysconf(_SC_CLK_TCK);
	if (hz <= 0)
		hz = 100;
	int self = rootfs_is_live(root) ? (int)getpid() : -1;
	for (size_t j = 0; j < nb; j++) {
		struct proc_sample key = b[j];
		struct proc_sample *prev = na ? bsearch(&key, a, na, sizeof(*a), cmp_sample) : NULL;
		if (!prev || b[j].pid == self || b[j].ticks < prev->ticks)
			continue;
		double pct = 100.0 * (double)(b[j].ticks - prev->ticks) / (double)hz / slept;
		if (pct < DOCTOR_BUSY_PCT)
			continue;
		*out = xrealloc(*out, (*n + 1) * sizeof(**out));
		struct busy_process *p = &(*out)[(*n)++];
		p->pid = b[j].pid;
		snprintf(p->comm, sizeof(p->comm), "%s", b[j].comm);
		p->cpu_pct = pct;
	}
	if (*n)
		qsort(*out, *n, sizeof(**out), cmp_busy);
	free(a);
	free(b);
	return 0;
}

/* ---- the checks ---- */

struct ctx {
	const struct doctor_options *o;
	const char *root;
	struct doctor_report *r;
	json_t *facts;
	int ncpus;
	struct thermal_snapshot snap;
};

static void set_fact(struct ctx *c, const char *key, json_t *value)
{
	json_object_set_new(c->facts, key, value ? value : json_null());
}

static void check_cpu(struct ctx *c)
{
	host_identity_facts(c->root, c->facts);
	const char *model = jstr_opt(c->facts, "cpu_model");
	struct topology t;
	int have_topo = topology_load(c->root, &t) == 0;
	/* the whole machine: the load average and the other tenants are its */
	c->ncpus = have_topo ? (int)t.machine.n : 0;
	set_fact(c, "cpus_online", have_topo ? json_integer(c->ncpus) : NULL);
	set_fact(c, "topology", have_topo ? topology_to_json(&t) : NULL);
	if (have_topo && t.ncpus == t.machine.n) {
		struct strbuf sb = STRBUF_INIT;
		cpulist_format(&t.online, &sb);
		add_item(c->r, "cpu", DOCTOR_OK, NULL, "%s: %d cpus online (%s), %d cores, %d package%s",
			 model ? model : "unknown model", c->ncpus, sb.buf, t.ncores, t.npackages,
			 t.npackages == 1 ? "" : "s");
		sb_release(&sb);
		topology_free(&t);
	} else if (have_topo) {
		struct strbuf all = STRBUF_INIT, ok = STRBUF_INIT;
		cpulist_format(&t.machine, &all);
		cpulist_format(&t.online, &ok);
		add_item(c->r, "cpu", DOCTOR_OK, NULL, "%s: %d cpus online (%s)", model ? model : "unknown model",
			 c->ncpus, all.buf);
		add_item(c->r, "cpuset", DOCTOR_WARN,
			 "a cgroup cpuset (container, CI runner) or an affinity mask (taskset) limits this process; "
			 "widen it to measure the placements the machine has",
			 "this process may use %zu of the %d cpus (%s: %d core%s, %d package%s): placements pin only there",
			 t.ncpus, c->ncpus, ok.buf, t.ncores, t.ncores == 1 ? "" : "s", t.npackages,
			 t.npackages == 1 ? "" : "s");
		sb_release(&all);
		sb_release(&ok);
		topology_free(&t);
	} else {
		add_item(c->r, "cpu", DOCTOR_UNKNOWN, "check that /sys is mounted", "%s: topology unreadable",
			 model ? model : "unknown model");
	}
	const char *rel = jstr_opt(c->facts, "kernel");
	add_item(c->r, "kernel", rel ? DOCTOR_OK : DOCTOR_UNKNOWN, NULL, "linux %s, %s", rel ? rel : "unknown",
		 jstr(c->facts, "libc"));
}

static void check_governor(struct ctx *c)
{
	const char *g = c->snap.governor;
	set_fact(c, "governor", g[0] ? json_string(g) : NULL);
	if (!g[0])
		add_item(c->r, "governor", DOCTOR_WARN,
			 "normal in a VM; on bare metal load a cpufreq driver (acpi-cpufreq, amd-pstate, intel_pstate)",
			 "no cpufreq: frequency not controlled or recorded");
	else if (!strcmp(g, "performance"))
		add_item(c->r, "governor", DOCTOR_OK, NULL, "performance on every cpu");
	else if (!strcmp(g, "mixed"))
		add_item(c->r, "governor", DOCTOR_WARN, "sudo cpupower frequency-set -g performance (package linux-cpupower)",
			 "governors differ between cpus: clocks are not comparable");
	else
		add_item(c->r, "governor", DOCTOR_WARN, "sudo cpupower frequency-set -g performance (package linux-cpupower)",
			 "governor %s: the clock follows the load, so runs start at a lower clock", g);
}

static void check_turbo(struct ctx *c)
{
	long long v;
	if (rootfs_read_ll(c->root, "sys/devices/system/cpu/intel_pstate/no_turbo", &v) == 0) {
		set_fact(c, "turbo", json_string(v ? "off" : "on"));
		if (v)
			add_item(c->r, "turbo", DOCTOR_OK, NULL, "turbo off (intel_pstate/no_turbo 1)");
		else
			add_item(c->r, "turbo", DOCTOR_WARN,
				 "echo 1 | sudo tee /sys/devices/system/cpu/intel_pstate/no_turbo",
				 "turbo on: the clock depends on temperature and on how many cores are busy");
	} else if (rootfs_read_ll(c->root, "sys/devices/system/cpu/cpufreq/boost", &v) == 0) {
		set_fact(c, "turbo", json_string(v ? "on" : "off"));
		if (v)
			add_item(c->r, "turbo", DOCTOR_WARN, "echo 0 | sudo tee /sys/devices/system/cpu/cpufreq/boost",
				 "boost on: the clock depends on temperature and on how many cores are busy");
		else
			add_item(c->r, "turbo", DOCTOR_OK, NULL, "boost off (cpufreq/boost 0)");
	} else {
		set_fact(c, "turbo", NULL);
		add_item(c->r, "turbo", DOCTOR_UNKNOWN, "if the cpu has turbo/boost, switch it off in the firmware setup",
			 "no turbo control exposed (no intel_pstate/no_turbo, no cpufreq/boost)");
	}
}

static void check_smt(struct ctx *c)
{
	long long v;
	char *control = rootfs_read(c->root, "sys/devices/system/cpu/smt/control");
	if (rootfs_read_ll(c->root, "sys/devices/system/cpu/smt/active", &v) == 0) {
		set_fact(c, "smt", json_string(v ? "active" : "inactive"));
		if (v)
			add_item(c->r, "smt", DOCTOR_OK, NULL,
				 "smt active (control %s): sibling threads share a core; pins choose a placement class",
				 control ? control : "?");
		else
			add_item(c->r, "smt", DOCTOR_OK, NULL, "smt inactive (control %s)", control ? control : "?");
	} else {
		set_fact(c, "smt", NULL);
		add_item(c->r, "smt", DOCTOR_UNKNOWN, NULL, "no smt/active file (kernel before 4.19?)");
	}
	free(control);
}

/* A number under the root as a fact; unreadable: the fact null, the item
 * unknown ("pipe-max-size unreadable"), and -1. */
static int read_fact(struct ctx *c, const char *path, const char *fact, const char *item, long long *v)
{
	if (rootfs_read_ll(c->root, path, v) == 0) {
		set_fact(c, fact, json_integer(*v));
		return 0;
	}
	const char *name = strrchr(path, '/');
	char why[128];
	snprintf(why, sizeof(why), "%s unreadable", name ? name + 1 : path);
	set_fact(c, fact, NULL);
	add_item(c->r, item, DOCTOR_UNKNOWN, NULL, "%s", why);
	return -1;
}

static void check_aslr(struct ctx *c)
{
	long long v;
	if (read_fact(c, "proc/sys/kernel/randomize_va_space", "aslr", "aslr", &v) < 0)
		return;
	if (v == 0)
		add_item(c->r, "aslr", DOCTOR_OK, NULL, "aslr off: addresses repeat from run to run");
	else
		add_item(c->r, "aslr", DOCTOR_WARN,
			 "per program: setarch -R PROGRAM; system-wide (less secure): sudo sysctl kernel.randomize_va_space=0",
			 "aslr on (randomize_va_space %lld): stack and library addresses move every run, and alignment "
			 "with them",
			 v);
}

static void check_load(struct ctx *c)
{
	char *text = rootfs_read(c->root, "proc/loadavg");
	double l[3];
	if (!text || sscanf(text, "%lf %lf %lf", &l[0], &l[1], &l[2]) != 3 || c->ncpus <= 0) {
		free(text);
		set_fact(c, "loadavg", NULL);
		add_item(c->r, "load", DOCTOR_UNKNOWN, NULL, "load average or cpu count unreadable");
		return;
	}
	free(text);
	set_fact(c, "loadavg", json_pack("[f, f, f]", l[0], l[1], l[2]));
	double per = l[0] / c->ncpus;
	const char *hint = "wait for other jobs to finish, or stop them (see busy)";
	if (per < 0.1)
		add_item(c->r, "load", DOCTOR_OK, NULL, "load average %.2f %.2f %.2f on %d cpus", l[0], l[1], l[2],
			 c->ncpus);
	else if (per < 0.5)
		add_item(c->r, "load", DOCTOR_WARN, hint, "load average %.2f on %d cpus: other work competes for cpus",
			 l[0], c->ncpus);
	else
		add_item(c->r, "load", DOCTOR_FAIL, hint, "load average %.2f on %d cpus: the machine is busy", l[0],
			 c->ncpus);
}

static void check_busy(struct ctx *c)
{
	if (!(c->o->probes & DOCTOR_PROBE_BUSY)) {
		set_fact(c, "busy_processes", NULL);
		add_item(c->r, "busy", DOCTOR_UNKNOWN, NULL, "processes not sampled");
		return;
	}
	struct busy_process *p;
	size_t n;
	double window = c->o->busy_window_s > 0 ? c->o->busy_window_s : DOCTOR_BUSY_WINDOW_S;
	if (doctor_busy_processes(c->root, window, c->o->sleep_fn, &p, &n) < 0) {
		set_fact(c, "busy_processes", NULL);
		add_item(c->r, "busy", DOCTOR_UNKNOWN, "check that /proc is mounted", "/proc unreadable");
		return;
	}
	json_t *arr = json_array();
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < n; i++) {
		json_array_append_new(arr, json_pack("{s:i, s:s, s:f}", "pid", p[i].pid, "comm", p[i].comm, "cpu_pct",
						     round(p[i].cpu_pct)));
		if (i < 5)
			sb_addf(&sb, "%s%s (pid %d) %.0f%%", i ? ", " : "", p[i].comm, p[i].pid, p[i].cpu_pct);
	}
	if (n > 5)
		sb_addf(&sb, ", and %zu more", n - 5);
	set_fact(c, "busy_processes", arr);
	if (n)
		add_item(c->r, "busy", DOCTOR_WARN, "stop them, or pin the benchmark to other cpus",
			 "%zu process%s above %.0f%% of a cpu over %.1f s: %s", n, n == 1 ? "" : "es", DOCTOR_BUSY_PCT,
			 window, sb.buf);
	else
		add_item(c->r, "busy", DOCTOR_OK, NULL, "no process above %.0f%% of a cpu over %.1f s", DOCTOR_BUSY_PCT,
			 window);
	sb_release(&sb);
	free(p);
}

/* The kernel prints "(null)" for an unset nohz_full on some versions. */
static char *read_cpulist_text(const char *root, const char *rel)
{
	char *t = rootfs_read(root, rel);
	if (t && !strcmp(t, "(null)"))
		t[0] = '\0';
	return t;
}

static void check_isolated(struct ctx *c)
{
	char *iso = read_cpulist_text(c->root, "sys/devices/system/cpu/isolated");
	char *nohz = read_cpulist_text(c->root, "sys/devices/system/cpu/nohz_full");
	set_fact(c, "isolated", jstr_or_null(iso));
	set_fact(c, "nohz_full", jstr_or_null(nohz));
	if (!iso)
		add_item(c->r, "isolated", DOCTOR_UNKNOWN, NULL, "no isolated file");
	else if (!iso[0])
		add_item(c->r, "isolated", DOCTOR_WARN,
			 "boot with isolcpus=LIST nohz_full=LIST rcu_nocbs=LIST and pin the benchmark there",
			 "no isolated cpus: other tasks and kernel threads may share the benchmark's cpus");
	else
		add_item(c->r, "isolated", DOCTOR_OK, NULL, "isolated cpus %s, nohz_full %s: pin the benchmark there", iso,
			 nohz && nohz[0] ? nohz : "none");
	free(iso);
	free(nohz);
}

enum perf_probe { PERF_NOT_PROBED, PERF_AVAILABLE, PERF_NO_COUNTER, PERF_FORBIDDEN, PERF_OTHER };

static enum perf_probe probe_cycles(int *err)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_HARDWARE;
	a.size = sizeof(a);
	a.config = PERF_COUNT_HW_CPU_CYCLES;
	a.disabled = 1;
	/* user space only: allowed up to perf_event_paranoid 2 */
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	long fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
	if (fd >= 0) {
		close((int)fd);
		return PERF_AVAILABLE;
	}
	*err = errno;
	if (errno == ENOENT || errno == EOPNOTSUPP || errno == ENODEV)
		return PERF_NO_COUNTER;
	if (errno == EACCES || errno == EPERM)
		return PERF_FORBIDDEN;
	return PERF_OTHER;
}

static void check_perf(struct ctx *c)
{
	long long paranoid = 0;
	int have_p = rootfs_read_ll(c->root, "proc/sys/kernel/perf_event_paranoid", &paranoid) == 0;
	set_fact(c, "perf_event_paranoid", have_p ? json_integer(paranoid) : NULL);
	char pbuf[32] = "unreadable";
	if (have_p)
		snprintf(pbuf, sizeof(pbuf), "%lld", paranoid);
	enum perf_probe p = PERF_NOT_PROBED;
	int err = 0;
	if ((c->o->probes & DOCTOR_PROBE_PERF) && rootfs_is_live(c->root))
		p = probe_cycles(&err);
	static const char *const names[] = { "not probed", "available", "no counter", "forbidden", "error" };
	set_fact(c, "perf_counters", json_string(names[p]));
	switch (p) {
	case PERF_NOT_PROBED:
		if (!have_p)
			add_item(c->r, "perf", DOCTOR_WARN, "a kernel with CONFIG_PERF_EVENTS",
				 "no perf_event_paranoid: kernel without perf events");
		else
			add_item(c->r, "perf", DOCTOR_UNKNOWN, NULL, "perf_event_paranoid %s; cycle counter not probed",
				 pbuf);
		break;
	case PERF_AVAILABLE:
		add_item(c->r, "perf", DOCTOR_OK, NULL, "hardware cycle counter available (perf_event_paranoid %s)",
			 pbuf);
		break;
	case PERF_NO_COUNTER:
		add_item(c->r, "perf", DOCTOR_WARN,
			 "in a VM, expose the PMU to the guest (KVM: -cpu host, vPMU on); cycles are not recorded",
			 "no hardware cycle counter (%s): a VM without a virtual PMU?", strerror(err));
		break;
	case PERF_FORBIDDEN:
		add_item(c->r, "perf", DOCTOR_WARN, "sudo sysctl kernel.perf_event_paranoid=1",
			 "perf_event_paranoid %s forbids counting cycles (%s)", pbuf, strerror(err));
		break;
	case PERF_OTHER:
		add_item(c->r, "perf", DOCTOR_WARN, NULL, "perf_event_open(cycles) failed: %s", strerror(err));
		break;
	}
}

static void check_thermal(struct ctx *c)
{
	const struct thermal_snapshot *s = &c->snap;
	json_t *arr = json_array();
	for (size_t i = 0; i < s->nsensors; i++)
		json_array_append_new(arr, json_pack("{s:s, s:f, s:s}", "name", s->sensors[i].name, "celsius",
						     s->sensors[i].celsius, "role", thermal_role_name(s->sensors[i].role)));
	set_fact(c, "thermal_sensors", arr);
	set_fact(c, "cpu_celsius", s->cpu_sensor >= 0 ? json_real(s->celsius) : NULL);
	set_fact(c, "throttle_counters", json_string(s->counters == COUNTERS_PRESENT ? "present" : "absent"));
	if (s->cpu_sensor < 0)
		add_item(c->r, "thermal", DOCTOR_WARN,
			 "load the cpu's sensor driver (modprobe k10temp or coretemp; sensors-detect in lm-sensors); a VM "
			 "has none",
			 "no thermal sensors: cooldown falls back to fixed pauses");
	else if (s->sensors[s->cpu_sensor].role == THERMAL_OTHER)
		add_item(c->r, "thermal", DOCTOR_WARN, "load the cpu's sensor driver (modprobe k10temp or coretemp)",
			 "no cpu sensor: cooldown reads %s (%.1f C)", s->sensors[s->cpu_sensor].name, s->celsius);
	else
		add_item(c->r, "thermal", DOCTOR_OK, NULL, "cpu temperature %.1f C from %s (%zu sensor%s)", s->celsius,
			 s->sensors[s->cpu_sensor].name, s->nsensors, s->nsensors == 1 ? "" : "s");

	int any_freq = 0;
	for (size_t i = 0; i < s->ncpus; i++)
		any_freq |= s->freq_khz[i] != 0;
	if (s->counters == COUNTERS_PRESENT)
		add_item(c->r, "throttle", DOCTOR_OK, NULL, "thermal_throttle counters present: throttled cells are flagged");
	else if (any_freq && !strcmp(s->governor, "performance"))
		add_item(c->r, "throttle", DOCTOR_OK, NULL,
			 "no throttle counters; a clock drop over %.0f%% flags a throttled cell", THERMAL_FREQ_DROP_PCT);
	else if (any_freq)
		add_item(c->r, "throttle", DOCTOR_WARN, "use the performance governor (see governor)",
			 "no throttle counters, and governor %s moves clocks by design: throttling goes unseen",
			 s->governor[0] ? s->governor : "unknown");
	else
		add_item(c->r, "throttle", DOCTOR_WARN, "rely on cooldown pauses and repeated runs",
			 "no throttle counters and no cpufreq: throttling cannot be detected");
}

static void check_pipe(struct ctx *c)
{
	long long v;
	if (read_fact(c, "proc/sys/fs/pipe-max-size", "pipe_max_size", "pipe", &v) < 0)
		return;
	if (v >= DOCTOR_PIPE_MIN)
		add_item(c->r, "pipe", DOCTOR_OK, NULL, "pipe-max-size %lld: 1 MiB pipes possible", v);
	else
		add_item(c->r, "pipe", DOCTOR_WARN, "sudo sysctl fs.pipe-max-size=1048576",
			 "pipe-max-size %lld: unprivileged vmsplice variants cannot use 1 MiB pipes", v);
}

static void check_tools(struct ctx *c)
{
	static const char *const tools[][2] = {
		{ "hyperfine", "hyperfine" }, { "gcc", "gcc" }, { "clang", "clang" },
		{ "jq", "jq" },               { "gnuplot", "gnuplot-nox" }, { "pv", "pv" },
	};
	if (!(c->o->probes & DOCTOR_PROBE_TOOLS))
		return;
	for (size_t i = 0; i < sizeof(tools) / sizeof(tools[0]); i++) {
		char *v = tool_version(tools[i][0]);
		if (v) {
			add_item(c->r, tools[i][0], DOCTOR_OK, NULL, "%s", v);
		} else {
			char *hint = xasprintf("sudo apt-get install %s", tools[i][1]);
			add_item(c->r, tools[i][0], DOCTOR_WARN, hint, "%s not found on PATH (Debian package %s)",
				 tools[i][0], tools[i][1]);
			free(hint);
		}
		free(v);
	}
}

int doctor_collect(const struct doctor_options *o, struct doctor_report *r)
{
	memset(r, 0, sizeof(*r));
	struct ctx c;
	memset(&c, 0, sizeof(c));
	c.o = o;
	c.root = o->root;
	c.r = r;
	c.facts = r->facts = json_object();
	thermal_snapshot_take(o->root, &c.snap);
	check_cpu(&c);
	check_governor(&c);
	check_turbo(&c);
	check_smt(&c);
	check_aslr(&c);
	check_load(&c);
	check_busy(&c);
	check_isolated(&c);
	check_perf(&c);
	check_thermal(&c);
	check_pipe(&c);
	check_tools(&c);
	thermal_snapshot_free(&c.snap);
	json_t *checks = json_object();
	for (size_t i = 0; i < r->n; i++)
		json_object_set_new(checks, r->items[i].name, json_string(doctor_verdict_name(r->items[i].verdict)));
	set_fact(&c, "checks", checks);
	return 0;
}

json_t *doctor_report_to_json(const struct doctor_report *r, const char *root)
{
	json_t *checks = json_array();
	for (size_t i = 0; i < r->n; i++)
		json_array_append_new(checks, json_pack("{s:s, s:s, s:s, s:o}", "name", r->items[i].name, "verdict",
							doctor_verdict_name(r->items[i].verdict), "detail",
							r->items[i].detail, "hint", jstr_or_null(r->items[i].hint)));
	return json_pack("{s:s, s:o, s:O}", "root", rootfs_is_live(root) ? "/" : root, "checks", checks, "facts",
			 r->facts);
}

json_t *doctor_facts_json(const char *root)
{
	struct doctor_options o = { root, DOCTOR_PROBE_BUSY | DOCTOR_PROBE_PERF, 0, NULL };
	if (!rootfs_is_live(root))
		o.probes = DOCTOR_PROBE_NONE;
	struct doctor_report r;
	doctor_collect(&o, &r);
	json_t *facts = json_incref(r.facts);
	doctor_report_free(&r);
	return facts;
}

int doctor_noisy(const json_t *facts, struct strbuf *why)
{
	int noisy = 0;
	json_t *load = json_object_get(facts, "loadavg");
	json_int_t cpus = json_integer_value(json_object_get(facts, "cpus_online"));
	if (json_is_array(load) && cpus > 0) {
		double l1 = json_number_value(json_array_get(load, 0));
		if (l1 >= 0.5 * (double)cpus) {
			if (why)
				sb_addf(why, "load average %.2f on %lld cpus", l1, (long long)cpus);
			noisy = 1;
		}
	}
	json_t *busy = json_object_get(facts, "busy_processes");
	if (json_is_array(busy) && json_array_size(busy)) {
		if (why) {
			sb_addf(why, "%sbusy:", noisy ? "; " : "");
			size_t i;
			json_t *p;
			json_array_foreach(busy, i, p)
			{
				if (i == 3) {
					sb_addf(why, " and %zu more", json_array_size(busy) - 3);
					break;
				}
				sb_addf(why, "%s %s (pid %lld) %.0f%%", i ? "," : "",
					json_string_value(json_object_get(p, "comm")),
					(long long)json_integer_value(json_object_get(p, "pid")),
					json_number_value(json_object_get(p, "cpu_pct")));
			}
		}
		noisy = 1;
	}
	return noisy;
}

/* ---- the report as text ---- */

void doctor_report_print(const struct doctor_report *r, FILE *out)
{
	int count[4] = { 0 };
	for (size_t i = 0; i < r->n; i++) {
		const struct doctor_item *it = &r->items[i];
		count[it->verdict]++;
		fprintf(out, "%-7s %-10s %s\n", doctor_verdict_name(it->verdict), it->name, it->detail);
		if (it->hint)
			fprintf(out, "%-18s fix: %s\n", "", it->hint);
	}
	fprintf(out, "%d ok, %d warn, %d fail, %d unknown\n", count[DOCTOR_OK], count[DOCTOR_WARN], count[DOCTOR_FAIL],
		count[DOCTOR_UNKNOWN]);
	struct strbuf why = STRBUF_INIT;
	if (doctor_noisy(r->facts, &why))
		fprintf(out, "the system is noisy: %s\n", why.buf);
	sb_release(&why);
}
