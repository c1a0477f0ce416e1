/* counters.c: see counters.h */
#define _GNU_SOURCE
#include "pipeline/counters.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "pipeline/counter_args.h"
#include "pipeline/qemucount.h"
#include "core/runcmd.h"
#include "pipeline/verify.h"

static int perf_open(uint64_t config, pid_t pid, int group)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = config;
	a.disabled = group < 0;
	a.enable_on_exec = group < 0;
	a.inherit = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	return (int)syscall(SYS_perf_event_open, &a, pid, -1, group, 0);
}

enum counter_source counters_probe(char *why, size_t n)
{
	int fd = perf_open(PERF_COUNT_HW_CPU_CYCLES, 0, -1);
	if (fd >= 0) {
		close(fd);
		return COUNTERS_PERF;
	}
	int e = errno;
	char *vg = find_on_path("valgrind");
	if (vg) {
		free(vg);
		snprintf(why, n, "no hardware cycle counter (%s): instructions counted by callgrind", strerror(e));
		return COUNTERS_CALLGRIND;
	}
	snprintf(why, n, "no hardware cycle counter (%s) and no valgrind (Debian package valgrind)", strerror(e));
	return COUNTERS_NONE;
}

long long callgrind_collected(const char *text)
{
	const char *p = text ? strstr(text, "Collected : ") : NULL;
	if (!p)
		return -1;
	return strtoll(p + strlen("Collected : "), NULL, 10);
}

static json_t *skipped(const char *fmt, const char *arg)
{
	char buf[512];
	snprintf(buf, sizeof(buf), fmt, arg);
	return json_pack("{s:s}", "skipped", buf);
}

static json_t *by_perf(const struct cell *c, double timeout_s)
{
	/* the child stops before exec (c.hold) so the counters are attached
	 * to it first; enable_on_exec starts them at its exec */
	struct strvec argv = STRVEC_INIT, env = STRVEC_INIT;
	counters_argv_at(c, c->spec.size, &argv);
	if (c->spec.preload)
		sv_pushf(&env, "LD_PRELOAD=%s", c->spec.preload);
	struct child ch = CHILD_INIT;
	ch.argv = argv.v;
	ch.in = CHILD_DEVNULL;
	ch.out = CHILD_DEVNULL;
	ch.cpu = c->spec.pin.single;
	ch.env = c->spec.preload ? env.v : NULL;
	ch.hold = 1;
	if (child_start(&ch) < 0) {
		sv_clear(&argv);
		sv_clear(&env);
		return skipped("cannot run %s", c->build.binary);
	}
	int cyc = perf_open(PERF_COUNT_HW_CPU_CYCLES, ch.pid, -1);
	int open_errno = errno;
	int ins = cyc >= 0 ? perf_open(PERF_COUNT_HW_INSTRUCTIONS, ch.pid, -1) : -1;
	struct child_exit ex;
	memset(&ex, 0, sizeof(ex));
	if (cyc < 0)
		child_stop(&ch, CHILD_INTERRUPTED, &ex); /* nothing to count: it never execs */
	else if (child_release(&ch) < 0)
		ex.outcome = CHILD_START_FAILED;
	else
		child_wait(&ch, timeout_s, &ex);
	sv_clear(&argv);
	sv_clear(&env);
	uint64_t vc = 0, vi = 0;
	int ok = cyc >= 0 && read(cyc, &vc, sizeof(vc)) == sizeof(vc);
	if (ins >= 0 && read(ins, &vi, sizeof(vi)) != sizeof(vi))
		vi = 0;
	if (cyc >= 0)
		close(cyc);
	if (ins >= 0)
		close(ins);
	if (cyc < 0)
		return skipped("no cycle counter for the counted run (%s)", strerror(open_errno));
	if (!ok || ex.outcome != CHILD_EXITED || ex.exit_code != 0) {
		char how[128];
		describe_exit(&ex, timeout_s, how, sizeof(how));
		return skipped("the counted run %s", ok ? how : "gave no cycle count");
	}
	double n = c->spec.size ? (double)c->spec.size : 1;
	return json_pack("{s:s, s:I, s:s, s:f, s:o}", "source", "perf", "size", (json_int_t)c->spec.size, "unit",
			 counters_unit_singular(c), "cycles_per_unit", (double)vc / n, "instructions_per_unit",
			 vi ? json_real((double)vi / n) : json_null());
}

static long long callgrind_at(const struct cell *c, uint64_t n, double timeout_s, char *why, size_t whyn)
{
	struct strvec argv = STRVEC_INIT;
	sv_push(&argv, "valgrind");
	sv_push(&argv, "--tool=callgrind");
	sv_push(&argv, "--callgrind-out-file=/dev/null");
	counters_argv_at(c, n, &argv);
	/* a fixed environment: the count of a loop that touches the stack
	 * moves with the environment's size (its alignment), so the caller's
	 * shell would move an exact figure between two invocations */
	struct strvec env = STRVEC_INIT;
	sv_push(&env, "PATH=/usr/local/bin:/usr/bin:/bin");
	sv_push(&env, "LC_ALL=C");
	if (c->spec.preload)
		sv_pushf(&env, "LD_PRELOAD=%s", c->spec.preload);
	struct strbuf err = STRBUF_INIT;
	struct child_exit ex;
	run_capture_env_only(argv.v, env.v, CHILD_DEVNULL, timeout_s, 1 << 20, NULL, &err, &ex);
	sv_clear(&env);
	long long ir = callgrind_collected(err.buf);
	if (ir < 0 || ex.outcome != CHILD_EXITED || ex.exit_code != 0) {
		const char *unh = err.buf ? strstr(err.buf, "unhandled instruction") : NULL;
		if (unh || (ex.outcome == CHILD_SIGNALED && ex.signal == SIGILL) ||
		    (err.buf && strstr(err.buf, "SIGILL")))
			snprintf(why, whyn, "valgrind cannot run this build's instructions (-march=%s%s)", c->spec.march,
				 c->spec.variant && c->spec.variant->requires_flags.n ? ", or the variant's own flags" : "");
		else {
			char how[128];
			describe_exit(&ex, timeout_s, how, sizeof(how));
			snprintf(why, whyn, "callgrind run %s", how);
		}
		ir = -1;
	}
	sb_release(&err);
	sv_clear(&argv);
	return ir;
}

/* callgrind runs ~50x slower: count a small size n, and n/4 beside it so
 * that start-up cancels out; both sizes the program accepts (not 0, which
 * a program may rightly reject) */
static json_t *by_callgrind(const struct cell *c, double timeout_s)
{
	uint64_t n = c->spec.family->counter_size ? c->spec.family->counter_size : c->spec.size;
	if (n > c->spec.size)
		n = c->spec.size;
	const char *fixed = counters_fixed_size(c);
	if (fixed)
		return skipped("%s", fixed);
	uint64_t m = n / 4 ? n / 4 : 1;
	if (n < 2)
		return skipped("%s", "the size is below 2: no second size to count at");
	char why[512];
	long long irm = callgrind_at(c, m, timeout_s, why, sizeof(why));
	long long irn = irm >= 0 ? callgrind_at(c, n, timeout_s, why, sizeof(why)) : -1;
	if (irm < 0 || irn < 0)
		return skipped("%s", why);
	return json_pack("{s:s, s:I, s:s, s:f, s:n}", "source", "callgrind", "size", (json_int_t)n, "unit",
			 counters_unit_singular(c), "instructions_per_unit", (double)(irn - irm) / (double)(n - m),
			 "cycles_per_unit");
}

static json_t *by_qemu(const struct cell *c, double timeout_s)
{
	return qemucount_measure(c, counters_unit_singular(c), timeout_s);
}

/* The backends, one per source; emulated (cross) cells always go to qemu,
 * which counts the target's instructions whatever the host offers. */
static const struct counter_backend {
	enum counter_source source;
	json_t *(*measure)(const struct cell *c, double timeout_s);
} backends[] = {
	{ COUNTERS_PERF, by_perf },
	{ COUNTERS_CALLGRIND, by_callgrind },
	{ COUNTERS_QEMU, by_qemu },
};

const char *counter_source_name(enum counter_source src)
{
	switch (src) {
	case COUNTERS_PERF:
		return "cycles and instructions by perf counters";
	case COUNTERS_CALLGRIND:
		return "instructions under callgrind, at two small sizes";
	case COUNTERS_QEMU:
		return "the target's instructions under qemu";
	case COUNTERS_NONE:
		break;
	}
	return "no counter";
}

json_t *counters_measure(const struct cell *c, enum counter_source src, double timeout_s)
{
	if (!c->build.binary)
		return skipped("%s", "no binary");
	if (c->spec.cross)
		src = COUNTERS_QEMU;
	for (size_t i = 0; i < sizeof(backends) / sizeof(backends[0]); i++)
		if (backends[i].source == src)
			return backends[i].measure(c, timeout_s);
	return skipped("%s", "no hardware counters and no valgrind");
}
