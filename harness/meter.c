/* meter.c: see meter.h */
#define _GNU_SOURCE
#include "meter.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "options.h"
#include "util.h"

struct meter_opts {
	uint64_t expect_bytes, max_bytes, pipe_size, chunk;
	unsigned producer_cpu, consumer_cpu, cpu;
	char *consumer, *sink, *preload, *report;
	double timeout;
	int compute;
};

#define MO(f) offsetof(struct meter_opts, f)
static const struct option_def meter_options[] = {
	{ "expect-bytes", 0, OPT_SIZE, MO(expect_bytes), "BYTES", 0, 1e19, "fail unless exactly this many bytes arrive" },
	{ "max-bytes", 0, OPT_SIZE, MO(max_bytes), "BYTES", 1, 1e19, "stop reading after this many bytes (producers that never stop)" },
	{ "chunk", 0, OPT_SIZE, MO(chunk), "BYTES", 4096, 1e10, "the most one splice() moves (default 256K: smaller hand-overs let both sides overlap)" },
	{ "pipe-size", 0, OPT_SIZE, MO(pipe_size), "BYTES", 4096, 1e10, "set the pipe's size (F_SETPIPE_SZ)" },
	{ "producer-cpu", 0, OPT_UINT, MO(producer_cpu), "CPU", 0, 4095, "pin the producer to this CPU" },
	{ "consumer-cpu", 0, OPT_UINT, MO(consumer_cpu), "CPU", 0, 4095, "pin the consumer (the meter or pv) to this CPU" },
	{ "cpu", 0, OPT_UINT, MO(cpu), "CPU", 0, 4095, "compute mode: pin the program to this CPU" },
	{ "consumer", 0, OPT_STRING, MO(consumer), "splice|read|pv", 0, 0, "how to drain the pipe (default splice)" },
	{ "sink", 0, OPT_STRING, MO(sink), "null|stdout", 0, 0, "where the bytes go (default /dev/null)" },
	{ "preload", 0, OPT_STRING, MO(preload), "LIB", 0, 0, "LD_PRELOAD this library into the program (allocators)" },
	{ "report", 0, OPT_STRING, MO(report), "FILE", 0, 0, "append one JSON line per run to FILE" },
	{ "timeout", 0, OPT_DOUBLE, MO(timeout), "SECONDS", 0, 1e6, "kill the program after this long (0: never)" },
	{ "compute", 0, OPT_FLAG, MO(compute), NULL, 0, 0, "compute mode: no pipe, output to /dev/null" },
	{ NULL, 0, 0, 0, NULL, 0, 0, NULL },
};
enum { MI_EXPECT, MI_MAX, MI_CHUNK, MI_PIPE, MI_PCPU, MI_CCPU, MI_CPU };

static volatile sig_atomic_t alarm_fired;
static void on_alarm(int sig)
{
	(void)sig;
	alarm_fired = 1;
}

static int pin_self(int cpu)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* fork+exec with stdin/stdout redirected; the child is async-signal-safe. */
static pid_t spawn(char **argv, int in_fd, int out_fd, int cpu, const char *preload, int *exec_errno)
{
	int report[2];
	if (pipe2(report, O_CLOEXEC) < 0)
		return -1;
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		signal(SIGPIPE, SIG_DFL);
		signal(SIGALRM, SIG_DFL);
		if (cpu >= 0)
			pin_self(cpu);
		if (in_fd >= 0 && in_fd != 0)
			dup2(in_fd, 0);
		if (out_fd >= 0 && out_fd != 1)
			dup2(out_fd, 1);
		if (preload)
			setenv("LD_PRELOAD", preload, 1); /* before exec; the child is single-threaded */
		execvp(argv[0], argv);
		int e = errno;
		ssize_t w = write(report[1], &e, sizeof(e));
		(void)w;
		_exit(127);
	}
	close(report[1]);
	int e = 0;
	ssize_t r;
	do
		r = read(report[0], &e, sizeof(e));
	while (r < 0 && errno == EINTR);
	close(report[0]);
	if (r == (ssize_t)sizeof(e)) {
		waitpid(pid, NULL, 0);
		*exec_errno = e;
		return -1;
	}
	return pid;
}

static int wait_child(pid_t pid, int *status)
{
	for (;;) {
		pid_t r = waitpid(pid, status, 0);
		if (r == pid)
			return 0;
		if (r < 0 && errno == EINTR) {
			if (alarm_fired)
				kill(pid, SIGKILL);
			continue;
		}
		return -1;
	}
}

static void describe_status(int st, char *buf, size_t n)
{
	if (WIFEXITED(st))
		snprintf(buf, n, "exited %d", WEXITSTATUS(st));
	else if (WIFSIGNALED(st))
		snprintf(buf, n, "killed by SIG%s (signal %d)",
			 sigabbrev_np(WTERMSIG(st)) ? sigabbrev_np(WTERMSIG(st)) : "?", WTERMSIG(st));
	else
		snprintf(buf, n, "status %d", st);
}

static void append_report(const char *path, uint64_t bytes, double secs, const char *producer, const char *status,
			  const char *consumer)
{
	if (!path)
		return;
	char line[1024];
	int n = snprintf(line, sizeof(line),
			 "{\"bytes\": %llu, \"seconds\": %.9f, \"producer\": \"%s\", \"status\": \"%s\", \"consumer\": \"%s\"}\n",
			 (unsigned long long)bytes, secs, producer, status, consumer);
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	ssize_t w = write(fd, line, (size_t)n); /* one write: O_APPEND keeps lines whole */
	(void)w;
	close(fd);
}

/* Moving at most 256 KiB per splice() lets the producer refill the pipe
 * while the consumer drains: across CPUs in bench/meter.sh (yes/vmsplice with 1 MiB chunks,
 * 4 GB) 35 GiB/s against 22 with unbounded splices, on one CPU 3 % less. */
#define DEFAULT_CHUNK (256u * 1024)

/* Drains fd into sink; returns bytes moved, sets *err on failure. */
static uint64_t drain(int fd, int sink, uint64_t limit, size_t chunk, const char *how, int *err, const char **used)
{
	uint64_t total = 0;
	int use_splice = strcmp(how, "read") != 0;
	char *buf = NULL;
	size_t bufsz = 1 << 20;
	*used = use_splice ? "splice" : "read";
	while (!limit || total < limit) {
		size_t want = chunk;
		if (limit && limit - total < want)
			want = (size_t)(limit - total);
		ssize_t r;
		if (use_splice) {
			r = splice(fd, NULL, sink, NULL, want, SPLICE_F_MOVE | SPLICE_F_MORE);
			if (r < 0 && (errno == EINVAL || errno == ENOSYS) && total == 0) {
				/* this kernel or sink refuses splice: plain reads */
				use_splice = 0;
				*used = "read";
				continue;
			}
		} else {
			if (!buf)
				buf = xmalloc(bufsz);
			r = read(fd, buf, want < bufsz ? want : bufsz);
			for (ssize_t off = 0; r > 0 && off < r;) {
				ssize_t w = write(sink, buf + off, (size_t)(r - off));
				if (w < 0 && errno == EINTR && !alarm_fired)
					continue;
				if (w < 0) {
					*err = errno;
					free(buf);
					return total + (uint64_t)off;
				}
				off += w;
			}
		}
		if (r < 0) {
			if (errno == EINTR && !alarm_fired)
				continue;
			*err = errno;
			break;
		}
		if (r == 0)
			break;
		total += (uint64_t)r;
	}
	free(buf);
	return total;
}

static int meter_main(struct meter_opts *opts, int argc, char **argv);

int cmd_meter(int argc, char **argv)
{
	struct meter_opts o;
	memset(&o, 0, sizeof(o));
	int rc = meter_main(&o, argc, argv);
	free(o.consumer);
	free(o.sink);
	free(o.preload);
	free(o.report);
	return rc;
}

static int meter_main(struct meter_opts *opts, int argc, char **argv)
{
#define o (*opts)
	unsigned char given[32] = { 0 };
	char *pos[1];
	int i;
	/* options end at "--" or at the first non-option (the program) */
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--") || argv[i][0] != '-')
			break;
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			printf("usage: flagbench meter [options] -- PROGRAM [ARGS...]\n");
			options_help(meter_options, stdout);
			return 0;
		}
		const struct option_def *d = NULL;
		if (!strncmp(argv[i], "--", 2)) {
			char name[64];
			snprintf(name, sizeof(name), "%.*s", (int)strcspn(argv[i] + 2, "="), argv[i] + 2);
			d = option_find(meter_options, name);
		}
		if (d && d->type != OPT_FLAG && !strchr(argv[i], '='))
			i++; /* skip its value */
	}
	if (options_parse(meter_options, &o, given, i - 1, argv + 1, pos, 0) < 0)
		return METER_USAGE;
	if (i < argc && !strcmp(argv[i], "--"))
		i++;
	if (i >= argc) {
		error("meter: no program given (usage: flagbench meter [options] -- PROGRAM [ARGS...])");
		return METER_USAGE;
	}
	char **prog = argv + i;
	const char *consumer = o.consumer ? o.consumer : "splice";
	if (strcmp(consumer, "splice") && strcmp(consumer, "read") && strcmp(consumer, "pv")) {
		error("meter: --consumer must be splice, read or pv, not '%s'", consumer);
		return METER_USAGE;
	}
	int to_stdout = o.sink && !strcmp(o.sink, "stdout");
	if (o.sink && !to_stdout && strcmp(o.sink, "null")) {
		error("meter: --sink must be null or stdout, not '%s'", o.sink);
		return METER_USAGE;
	}
	signal(SIGPIPE, SIG_IGN);
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);

	char pstat[128] = "not started";
	double t0 = now_monotonic();
	int exec_errno = 0;
	int rc = METER_OK;

	if (o.compute) {
		int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
		pid_t pid = spawn(prog, -1, devnull, given[MI_CPU] ? (int)o.cpu : -1, o.preload, &exec_errno);
		close(devnull);
		if (pid < 0) {
			error("meter: cannot run %s: %s", prog[0], strerror(exec_errno ? exec_errno : errno));
			return METER_PRODUCER_FAILED;
		}
		if (o.timeout > 0)
			alarm((unsigned)(o.timeout + 0.999));
		int st = 0;
		wait_child(pid, &st);
		describe_status(st, pstat, sizeof(pstat));
		if (alarm_fired) {
			error("meter: %s timed out after %gs", prog[0], o.timeout);
			rc = METER_TIMEOUT;
		} else if (!WIFEXITED(st) || WEXITSTATUS(st)) {
			error("meter: %s %s", prog[0], pstat);
			rc = METER_PRODUCER_FAILED;
		}
		append_report(o.report, 0, now_monotonic() - t0, pstat,
			      rc == METER_OK ? "ok" : rc == METER_TIMEOUT ? "timeout" : "producer_failed", "none");
		return rc;
	}

	int p[2];
	if (pipe2(p, O_CLOEXEC) < 0) {
		error("meter: pipe: %s", strerror(errno));
		return METER_PRODUCER_FAILED;
	}
	if (o.pipe_size && fcntl(p[1], F_SETPIPE_SZ, (int)o.pipe_size) < 0)
		warning("meter: cannot set the pipe size to %llu: %s", (unsigned long long)o.pipe_size, strerror(errno));
	pid_t producer = spawn(prog, -1, p[1], given[MI_PCPU] ? (int)o.producer_cpu : -1, o.preload, &exec_errno);
	close(p[1]);
	if (producer < 0) {
		error("meter: cannot run %s: %s", prog[0], strerror(exec_errno ? exec_errno : errno));
		return METER_PRODUCER_FAILED;
	}
	if (o.timeout > 0)
		alarm((unsigned)(o.timeout + 0.999));
	uint64_t bytes = 0;
	int err = 0;
	const char *used = consumer;
	int cut = 0;
	if (!strcmp(consumer, "pv")) {
		/* pv reads the pipe itself; -S -s stops it at the size for endless producers */
		struct strvec pv = STRVEC_INIT;
		sv_push(&pv, "pv");
		sv_push(&pv, "-q");
		if (given[MI_MAX]) {
			sv_push(&pv, "-S");
			sv_push(&pv, "-s");
			sv_pushf(&pv, "%llu", (unsigned long long)o.max_bytes);
		}
		int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
		pid_t pvpid = spawn(pv.v, p[0], to_stdout ? 1 : devnull, given[MI_CCPU] ? (int)o.consumer_cpu : -1,
				    NULL, &exec_errno);
		close(devnull);
		close(p[0]);
		sv_clear(&pv);
		if (pvpid < 0) {
			error("meter: cannot run pv: %s (install the Debian package pv)", strerror(exec_errno));
			kill(producer, SIGKILL);
			waitpid(producer, NULL, 0);
			return METER_PRODUCER_FAILED;
		}
		int st;
		wait_child(pvpid, &st);
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			err = EIO;
		cut = given[MI_MAX];
		bytes = given[MI_MAX] ? o.max_bytes : given[MI_EXPECT] ? o.expect_bytes : 0;
	} else {
		if (given[MI_CCPU] && pin_self((int)o.consumer_cpu) < 0)
			warning("meter: cannot pin the consumer to cpu %u: %s", o.consumer_cpu, strerror(errno));
		int sink = to_stdout ? 1 : open("/dev/null", O_WRONLY | O_CLOEXEC);
		bytes = drain(p[0], sink, given[MI_MAX] ? o.max_bytes : 0, o.chunk ? (size_t)o.chunk : DEFAULT_CHUNK,
			      consumer, &err, &used);
		cut = given[MI_MAX] && bytes >= o.max_bytes;
		close(p[0]); /* an endless producer now gets SIGPIPE */
		if (!to_stdout)
			close(sink);
	}
	if (cut)
		kill(producer, SIGTERM);
	int st = 0;
	wait_child(producer, &st);
	double secs = now_monotonic() - t0;
	describe_status(st, pstat, sizeof(pstat));
	const char *status = "ok";
	int producer_ok = WIFEXITED(st) && WEXITSTATUS(st) == 0;
	if (cut && WIFSIGNALED(st) && (WTERMSIG(st) == SIGPIPE || WTERMSIG(st) == SIGTERM))
		producer_ok = 1; /* we stopped it on purpose */
	if (cut && WIFEXITED(st))
		producer_ok = 1; /* yes(1) exits 1 on EPIPE when SIGPIPE is ignored */
	if (alarm_fired) {
		kill(producer, SIGKILL);
		error("meter: %s timed out after %gs (%llu bytes received)", prog[0], o.timeout,
		      (unsigned long long)bytes);
		rc = METER_TIMEOUT;
		status = "timeout";
	} else if (!producer_ok) {
		error("meter: producer %s %s after %llu bytes", prog[0], pstat, (unsigned long long)bytes);
		rc = METER_PRODUCER_FAILED;
		status = "producer_failed";
	} else if (err) {
		error("meter: reading the pipe failed after %llu bytes: %s", (unsigned long long)bytes, strerror(err));
		rc = METER_WRONG_BYTES;
		status = "read_error";
	} else if (given[MI_EXPECT] && bytes != o.expect_bytes && strcmp(used, "pv")) {
		error("meter: received %llu bytes, expected %llu", (unsigned long long)bytes,
		      (unsigned long long)o.expect_bytes);
		rc = METER_WRONG_BYTES;
		status = "wrong_bytes";
	}
	append_report(o.report, bytes, secs, pstat, status, used);
	return rc;
}
#undef o
