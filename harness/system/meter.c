/* meter.c: see meter.h */
#define _GNU_SOURCE
#include "system/meter.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/runcmd.h"
#include "core/util.h"

static int pin_self(int cpu)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

void meter_command(struct strvec *out)
{
	static int warned;
	const char *self = self_exe();
	const char *slash = strrchr(self, '/');
	char *small = xasprintf("%.*sflagbench-meter", slash ? (int)(slash - self + 1) : 0, self);
	if (access(small, X_OK) == 0) {
		sv_push(out, small);
	} else {
		if (!warned++)
			warning("no %s: runs are timed through `flagbench meter`, about 1 ms more each (make builds it)",
				small);
		sv_push(out, self);
		sv_push(out, "meter");
	}
	free(small);
}

static void append_report(const char *path, uint64_t bytes, double secs, const char *producer, const char *status,
			  const char *consumer, const char *wait)
{
	if (!path)
		return;
	char line[1024];
	int n = snprintf(line, sizeof(line),
			 "{\"bytes\": %llu, \"seconds\": %.9f, \"producer\": \"%s\", \"status\": \"%s\", \"consumer\": \"%s\", "
			 "\"wait\": \"%s\"}\n",
			 (unsigned long long)bytes, secs, producer, status, consumer, wait);
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	ssize_t w = write(fd, line, (size_t)n); /* one write: O_APPEND keeps lines whole */
	(void)w;
	close(fd);
}

/* poll_until()'s contract (runcmd.h) for one fd, without sleeping. */
static int spin_until(struct pollfd *p, double deadline)
{
	for (;;) {
		if (fb_interrupted) {
			errno = EINTR;
			return -1;
		}
		int pr = poll(p, 1, 0);
		if (pr > 0 || (pr < 0 && errno != EINTR))
			return pr;
		if (deadline > 0 && now_monotonic() >= deadline)
			return 0;
	}
}

/* Drains fd (non-blocking) into sink until EOF, `limit` bytes, the
 * deadline (*stop = 1) or Ctrl-C (*stop = -1); returns the bytes moved,
 * sets *err on failure.  Waits are poll()s against the deadline, so a
 * producer that writes nothing cannot hold the meter.  spin: an empty
 * pipe is polled without sleeping (meter.h, enum meter_wait). */
static uint64_t drain(int fd, int sink, uint64_t limit, size_t chunk, double deadline, const char *how, int spin,
		      int *err, const char **used, int *stop)
{
	uint64_t total = 0;
	int use_splice = strcmp(how, "read") != 0;
	char *buf = NULL;
	size_t bufsz = 1 << 20;
	*used = use_splice ? "splice" : "read";
	while (!limit || total < limit) {
		if (fb_interrupted || (deadline > 0 && now_monotonic() >= deadline)) {
			*stop = fb_interrupted ? -1 : 1;
			break;
		}
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
				if (w < 0 && errno == EINTR && !fb_interrupted)
					continue;
				if (w < 0) {
					*err = errno;
					free(buf);
					return total + (uint64_t)off;
				}
				off += w;
			}
		}
		if (r < 0 && errno == EAGAIN) {
			/* the pipe is empty: wait for the producer, not past the deadline */
			struct pollfd p = { fd, POLLIN, 0 };
			/* poll() reads the pipe's state without its lock, so the
			 * spin does not hold up the producer's writes as a splice()
			 * or read() loop would (that made fizzbuzz noisier) */
			int pr = spin ? spin_until(&p, deadline) : poll_until(&p, 1, deadline);
			if (pr < 0 && errno != EINTR)
				*err = errno;
			if (pr <= 0) {
				*stop = pr == 0 ? 1 : errno == EINTR ? -1 : 0;
				break;
			}
			continue;
		}
		if (r < 0) {
			if (errno == EINTR)
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

int meter_wait_parse(const char *word)
{
	if (!word || !strcmp(word, "auto"))
		return METER_WAIT_AUTO;
	if (!strcmp(word, "spin"))
		return METER_WAIT_SPIN;
	return strcmp(word, "sleep") ? -1 : METER_WAIT_SLEEP;
}

static int cpu_usable(unsigned cpu)
{
	cpu_set_t set;
	return cpu < CPU_SETSIZE && sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_ISSET(cpu, &set);
}

/* Pins the consumer where o says; returns whether it spins (meter.h). */
static int pin_consumer(const struct meter_opts *o)
{
	unsigned both = METER_GIVEN_PRODUCER_CPU | METER_GIVEN_CONSUMER_CPU;
	/* asked before the pin below narrows what this process may use */
	int own_cpu = (o->given & both) == both && o->producer_cpu != o->consumer_cpu && cpu_usable(o->producer_cpu) &&
		      cpu_usable(o->consumer_cpu);
	if ((o->given & METER_GIVEN_CONSUMER_CPU) && pin_self((int)o->consumer_cpu) < 0) {
		warning("meter: cannot pin the consumer to cpu %u: %s", o->consumer_cpu, strerror(errno));
		own_cpu = 0;
	}
	int wait = meter_wait_parse(o->wait);
	return wait == METER_WAIT_SPIN || (wait == METER_WAIT_AUTO && own_cpu && !strcmp(o->sink, "null"));
}

static int meter_compute(const struct meter_opts *o, struct child *prod);
static int meter_stream(const struct meter_opts *o, struct child *prod);

int meter_run(const struct meter_opts *o, char **prog)
{
	if (strcmp(o->consumer, "splice") && strcmp(o->consumer, "read") && strcmp(o->consumer, "pv")) {
		error("meter: --consumer must be splice, read or pv, not '%s'", o->consumer);
		return METER_USAGE;
	}
	if (meter_wait_parse(o->wait) < 0) {
		error("meter: --wait must be auto, spin or sleep, not '%s'", o->wait);
		return METER_USAGE;
	}
	if (strcmp(o->sink, "stdout") && strcmp(o->sink, "null")) {
		error("meter: --sink must be null or stdout, not '%s'", o->sink);
		return METER_USAGE;
	}
	signal(SIGPIPE, SIG_IGN);
	/* hyperfine or flagbench stopping the meter must stop the producer's
	 * group too: it is not in ours */
	install_interrupt_handler();

	struct strvec env = STRVEC_INIT;
	if (o->preload)
		sv_pushf(&env, "LD_PRELOAD=%s", o->preload);
	if (o->env_pad)
		sv_pushf(&env, "FLAGBENCH_LAYOUT_PAD=%0*d", (int)o->env_pad, 0);
	struct child prod = CHILD_INIT;
	prod.argv = prog;
	prod.env = env.n ? env.v : NULL;
	prod.grace_s = 0.2; /* the meter returns within --timeout + 1 s */
	prod.die_with_parent = 1;
	int rc = o->compute ? meter_compute(o, &prod) : meter_stream(o, &prod);
	sv_clear(&env);
	return rc;
}

/* The run's verdict: exit status, report line, message. */
static int finish(const struct meter_opts *o, const struct child_exit *ex,
		  int producer_ok, const char *prog, uint64_t bytes, int err, const char *used, const char *wait)
{
	char pstat[128];
	describe_exit(ex, o->timeout, pstat, sizeof(pstat));
	const char *status = "ok";
	int rc = METER_OK;
	if (ex->outcome == CHILD_TIMED_OUT) {
		error("meter: %s timed out after %gs (%llu bytes received)", prog, o->timeout, (unsigned long long)bytes);
		rc = METER_TIMEOUT;
		status = "timeout";
	} else if (ex->outcome == CHILD_INTERRUPTED) {
		error("meter: interrupted (%llu bytes received)", (unsigned long long)bytes);
		rc = METER_INTERRUPTED;
		status = "interrupted";
	} else if (!producer_ok) {
		if (o->compute)
			error("meter: %s %s", prog, pstat);
		else
			error("meter: producer %s %s after %llu bytes", prog, pstat, (unsigned long long)bytes);
		rc = METER_PRODUCER_FAILED;
		status = "producer_failed";
	} else if (err) {
		error("meter: reading the pipe failed after %llu bytes: %s", (unsigned long long)bytes, strerror(err));
		rc = METER_WRONG_BYTES;
		status = "read_error";
	} else if ((o->given & METER_GIVEN_EXPECT) && bytes != o->expect_bytes && strcmp(used, "pv")) {
		error("meter: received %llu bytes, expected %llu", (unsigned long long)bytes,
		      (unsigned long long)o->expect_bytes);
		rc = METER_WRONG_BYTES;
		status = "wrong_bytes";
	}
	append_report(o->report, bytes, ex->elapsed_s, pstat, status, o->compute ? "none" : used, wait);
	return rc;
}

static int meter_compute(const struct meter_opts *o, struct child *prod)
{
	prod->out = CHILD_DEVNULL;
	prod->cpu = (o->given & METER_GIVEN_CPU) ? (int)o->cpu : -1;
	struct child_exit ex;
	if (child_start(prod) < 0)
		return METER_PRODUCER_FAILED;
	child_wait(prod, o->timeout, &ex);
	return finish(o, &ex, ex.outcome == CHILD_EXITED && ex.exit_code == 0, prod->argv[0], 0, 0, "none", "none");
}

/* pv reads the pipe itself; -S -s stops it at the size for endless
 * producers.  Returns pv's verdict as an errno (0 ok). */
static int run_pv(const struct meter_opts *o, int in, int to_stdout, struct child_exit *ex)
{
	struct strvec pv = STRVEC_INIT;
	sv_push(&pv, "pv");
	sv_push(&pv, "-q");
	if (o->given & METER_GIVEN_MAX) {
		sv_push(&pv, "-S");
		sv_push(&pv, "-s");
		sv_pushf(&pv, "%llu", (unsigned long long)o->max_bytes);
	}
	struct child c = CHILD_INIT;
	c.argv = pv.v;
	c.in = in;
	c.out = to_stdout ? CHILD_INHERIT : CHILD_DEVNULL;
	c.cpu = (o->given & METER_GIVEN_CONSUMER_CPU) ? (int)o->consumer_cpu : -1;
	c.grace_s = 0.2;
	c.die_with_parent = 1;
	int started = child_start(&c);
	close(in);
	sv_clear(&pv);
	if (started < 0) {
		error("meter: pv is needed for --consumer pv (Debian package pv)");
		return ENOENT;
	}
	child_wait(&c, o->timeout, ex);
	return ex->outcome == CHILD_EXITED && ex->exit_code == 0 ? 0 : EIO;
}

static int meter_stream(const struct meter_opts *o, struct child *prod)
{
	const char *consumer = o->consumer;
	int to_stdout = !strcmp(o->sink, "stdout");
	int p[2];
	if (pipe2(p, O_CLOEXEC) < 0) {
		error("meter: pipe: %s", strerror(errno));
		return METER_PRODUCER_FAILED;
	}
	if (o->pipe_size && fcntl(p[1], F_SETPIPE_SZ, (int)o->pipe_size) < 0)
		warning("meter: cannot set the pipe size to %llu: %s", (unsigned long long)o->pipe_size, strerror(errno));
	prod->out = p[1];
	prod->cpu = (o->given & METER_GIVEN_PRODUCER_CPU) ? (int)o->producer_cpu : -1;
	int started = child_start(prod);
	close(p[1]);
	if (started < 0) {
		close(p[0]);
		return METER_PRODUCER_FAILED;
	}
	double deadline = o->timeout > 0 ? prod->started + o->timeout : 0;
	uint64_t bytes = 0;
	int err = 0, stop = 0, cut = 0;
	const char *used = consumer, *wait = "none";
	struct child_exit ex;
	if (!strcmp(consumer, "pv")) {
		struct child_exit pvex;
		err = run_pv(o, p[0], to_stdout, &pvex);
		if (pvex.outcome == CHILD_TIMED_OUT || pvex.outcome == CHILD_INTERRUPTED)
			stop = pvex.outcome == CHILD_TIMED_OUT ? 1 : -1;
		cut = (o->given & METER_GIVEN_MAX) != 0;
		bytes = (o->given & METER_GIVEN_MAX) ? o->max_bytes : (o->given & METER_GIVEN_EXPECT) ? o->expect_bytes : 0;
	} else {
		int spin = pin_consumer(o);
		wait = spin ? "spin" : "sleep";
		/* non-blocking, so that every wait is a poll against the deadline;
		 * stdout (verification) gets plain writes, which may block */
		fcntl(p[0], F_SETFL, O_NONBLOCK);
		int sink = to_stdout ? 1 : open("/dev/null", O_WRONLY | O_CLOEXEC);
		bytes = drain(p[0], sink, (o->given & METER_GIVEN_MAX) ? o->max_bytes : 0, (size_t)o->chunk,
			      deadline, to_stdout ? "read" : consumer, spin, &err, &used, &stop);
		cut = (o->given & METER_GIVEN_MAX) && bytes >= o->max_bytes;
		close(p[0]); /* an endless producer now gets SIGPIPE */
		if (!to_stdout)
			close(sink);
	}
	if (stop)
		child_stop(prod, stop > 0 ? CHILD_TIMED_OUT : CHILD_INTERRUPTED, &ex);
	else {
		if (cut)
			kill(-prod->pid, SIGTERM);
		child_wait(prod, o->timeout, &ex);
	}
	int producer_ok = ex.outcome == CHILD_EXITED && ex.exit_code == 0;
	if (cut && ex.outcome == CHILD_SIGNALED && (ex.signal == SIGPIPE || ex.signal == SIGTERM))
		producer_ok = 1; /* we stopped it on purpose */
	if (cut && ex.outcome == CHILD_EXITED)
		producer_ok = 1; /* yes(1) exits 1 on EPIPE when SIGPIPE is ignored */
	return finish(o, &ex, producer_ok, prod->argv[0], bytes, err, used, wait);
}
