/* runcmd.c: see runcmd.h */
#define _GNU_SOURCE
#include "core/runcmd.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

volatile sig_atomic_t fb_interrupted;
int runcmd_use_pidfd = 1;
static int handler_installed;

static void on_interrupt(int sig)
{
	(void)sig;
	fb_interrupted = 1;
}

void install_interrupt_handler(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_interrupt;
	sigemptyset(&sa.sa_mask);
	/* no SA_RESTART: blocking calls return EINTR so loops see the flag */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	handler_installed = 1;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static void close_pair(int p[2])
{
	close_fd(&p[0]);
	close_fd(&p[1]);
}

/* In the child: async-signal-safe only. */
FB_NORETURN static void child_fail(int report_fd, int err)
{
	ssize_t w = write(report_fd, &err, sizeof(err));
	(void)w;
	_exit(127);
}

static void child_setup_fd(int spec, int pipe_child_end, int devnull, int target, int report_fd)
{
	int src = -1;
	if (spec == CHILD_INHERIT)
		return;
	if (spec == CHILD_DEVNULL)
		src = devnull;
	else if (spec == CHILD_PIPE)
		src = pipe_child_end;
	else
		src = spec;
	if (src == target) {
		/* clear close-on-exec */
		if (fcntl(target, F_SETFD, 0) < 0)
			child_fail(report_fd, errno);
		return;
	}
	if (dup2(src, target) < 0)
		child_fail(report_fd, errno);
}

extern char **environ;

/* The parent's environment with c->env's entries replacing or added, built
 * before fork so that the child only calls exec. */
static char **child_environ(char *const *env, int env_only)
{
	size_t n = 0, k = 0;
	while (!env_only && environ[n])
		n++;
	while (env[k])
		k++;
	char **out = xcalloc(n + k + 1, sizeof(char *));
	size_t o = 0;
	for (size_t i = 0; i < n; i++) {
		int replaced = 0;
		for (size_t j = 0; j < k && !replaced; j++) {
			size_t name = strcspn(env[j], "=");
			replaced = !strncmp(environ[i], env[j], name) && environ[i][name] == '=';
		}
		if (!replaced)
			out[o++] = environ[i];
	}
	for (size_t j = 0; j < k; j++)
		out[o++] = env[j];
	return out;
}

/* The child between fork and exec: async-signal-safe calls only. */
FB_NORETURN static void child_exec(const struct child *c, char **envp, int report, int hold, int pin, int pout,
				   int perr, int devnull_r, int devnull_w)
{
	setpgid(0, 0);
	if (c->die_with_parent && (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != c->parent))
		_exit(127); /* the parent died before the request took hold */
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigaction(SIGPIPE, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (c->cpu >= 0) {
		cpu_set_t set;
		CPU_ZERO(&set);
		CPU_SET(c->cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set) < 0)
			child_fail(report, errno);
	}
	child_setup_fd(c->in, pin, devnull_r, 0, report);
	child_setup_fd(c->out, pout, devnull_w, 1, report);
	child_setup_fd(c->err, perr, devnull_w, 2, report);
	if (c->dir && chdir(c->dir) < 0)
		child_fail(report, errno);
	if (hold >= 0) {
		/* stopped before exec until the parent has attached its counters;
		 * EOF means the parent gave up */
		char go;
		ssize_t r;
		do
			r = read(hold, &go, 1);
		while (r < 0 && errno == EINTR);
		if (r != 1)
			_exit(127);
	}
	if (envp)
		execvpe(c->argv[0], c->argv, envp);
	else
		execvp(c->argv[0], c->argv);
	child_fail(report, errno);
}

struct spawn_args {
	const struct child *c;
	char **envp;
	int report, hold, pin, pout, perr, devnull_r, devnull_w;
};

static int spawn_entry(void *p)
{
	struct spawn_args *a = p;
	child_exec(a->c, a->envp, a->report, a->hold, a->pin, a->pout, a->perr, a->devnull_r, a->devnull_w);
}

/* fork(), or where the child need not be held, clone(CLONE_VM | CLONE_VFORK)
 * as posix_spawn does: no page tables copied and no copy-on-write faults
 * in the parent afterwards: about 0.05 to 0.1 ms less per run of the
 * meter on a 2-CPU VM (bench/meter-overhead.sh).  The parent sleeps
 * until the child has exec'd or exited, with every signal blocked so no
 * handler of ours runs in the child on our memory; the child runs on
 * spawn_stack, one per thread: session_ready() counts from several
 * threads, and two children on one stack crash (callgrind runs that
 * exited 127 or died of SIGSEGV).  Under ASan, plain fork:
 * instrumented code on a foreign stack confuses it. */
#if defined(__SANITIZE_ADDRESS__)
#define RUNCMD_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RUNCMD_ASAN 1
#endif
#endif

static pid_t spawn(struct spawn_args *a)
{
#ifdef RUNCMD_ASAN
	int use_clone = 0;
#else
	int use_clone = !a->c->hold;
#endif
	if (!use_clone) {
		pid_t pid = fork();
		if (pid == 0)
			spawn_entry(a);
		return pid;
	}
	static _Thread_local char spawn_stack[65536] __attribute__((aligned(64)));
	sigset_t all, old;
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	pid_t pid = clone(spawn_entry, spawn_stack + sizeof(spawn_stack), CLONE_VM | CLONE_VFORK | SIGCHLD, a);
	int e = errno;
	sigprocmask(SIG_SETMASK, &old, NULL);
	errno = e;
	return pid;
}

static int open_pidfd(pid_t pid)
{
#ifdef SYS_pidfd_open
	if (runcmd_use_pidfd)
		return (int)syscall(SYS_pidfd_open, pid, 0); /* close-on-exec by definition */
#endif
	(void)pid;
	return -1;
}

/* Kill what is left of the group, reap the leader, fill *ex. */
static void reap(struct child *c, struct child_exit *ex)
{
	int st = 0;
	kill(-c->pid, SIGKILL); /* stragglers; the zombie leader keeps the group id ours */
	while (waitpid(c->pid, &st, 0) < 0 && errno == EINTR)
		;
	memset(ex, 0, sizeof(*ex));
	if (WIFEXITED(st)) {
		ex->outcome = CHILD_EXITED;
		ex->exit_code = WEXITSTATUS(st);
	} else if (WIFSIGNALED(st)) {
		ex->outcome = CHILD_SIGNALED;
		ex->signal = WTERMSIG(st);
		ex->exit_code = 128 + ex->signal;
	}
	ex->elapsed_s = now_monotonic() - c->started;
	close_fd(&c->pidfd);
	close_fd(&c->hold_fd);
	close_fd(&c->report_fd);
	c->pid = -1;
	c->exited = 0;
}

/* Reads the exec report: 0 when exec succeeded (EOF), else reaps the child
 * and fails with its errno. */
static int exec_result(struct child *c)
{
	int child_errno = 0;
	ssize_t r;
	do
		r = read(c->report_fd, &child_errno, sizeof(child_errno));
	while (r < 0 && errno == EINTR);
	close_fd(&c->report_fd);
	if (r != (ssize_t)sizeof(child_errno))
		return 0;
	struct child_exit ex;
	const char *name = c->argv[0];
	reap(c, &ex);
	close_fd(&c->in_fd);
	close_fd(&c->out_fd);
	close_fd(&c->err_fd);
	int rc = error("cannot run %s: %s", name, strerror(child_errno));
	errno = child_errno;
	return rc;
}

int child_start(struct child *c)
{
	int report[2] = { -1, -1 }, hold[2] = { -1, -1 };
	int pin[2] = { -1, -1 }, pout[2] = { -1, -1 }, perr[2] = { -1, -1 };
	c->pid = -1;
	c->pidfd = c->in_fd = c->out_fd = c->err_fd = c->hold_fd = c->report_fd = -1;
	c->exited = c->pipe_held = 0;
	int devnull_r = open("/dev/null", O_RDONLY | O_CLOEXEC), devnull_w = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (devnull_r < 0 || devnull_w < 0 || pipe2(report, O_CLOEXEC) < 0 ||
	    (c->hold && pipe2(hold, O_CLOEXEC) < 0) || (c->in == CHILD_PIPE && pipe2(pin, O_CLOEXEC) < 0) ||
	    (c->out == CHILD_PIPE && pipe2(pout, O_CLOEXEC) < 0) ||
	    (c->err == CHILD_PIPE && pipe2(perr, O_CLOEXEC) < 0)) {
		int e = errno;
		close_fd(&devnull_r);
		close_fd(&devnull_w);
		close_pair(report);
		close_pair(hold);
		close_pair(pin);
		close_pair(pout);
		close_pair(perr);
		return error("cannot run %s: %s", c->argv[0], strerror(e));
	}
	static char *const no_env[] = { NULL };
	char **envp = c->env || c->env_only ? child_environ(c->env ? c->env : no_env, c->env_only) : NULL;

	c->started = now_monotonic();
	c->parent = getpid();
	struct spawn_args a = { c, envp, report[1], hold[0], pin[0], pout[1], perr[1], devnull_r, devnull_w };
	pid_t pid = spawn(&a);
	int fork_errno = errno;
	free(envp); /* the strings are the parent's own or c->env's */
	close_fd(&devnull_r);
	close_fd(&devnull_w);
	close_fd(&report[1]);
	close_fd(&hold[0]);
	close_fd(&pin[0]);
	close_fd(&pout[1]);
	close_fd(&perr[1]);
	if (pid < 0) {
		close_fd(&report[0]);
		close_fd(&hold[1]);
		close_fd(&pin[1]);
		close_fd(&pout[0]);
		close_fd(&perr[0]);
		return error("cannot run %s: fork: %s", c->argv[0], strerror(fork_errno));
	}
	/* also here, so the group exists before we might kill it */
	setpgid(pid, pid);
	c->pid = pid;
	c->pidfd = open_pidfd(pid);
	c->in_fd = pin[1];
	c->out_fd = pout[0];
	c->err_fd = perr[0];
	c->report_fd = report[0];
	c->hold_fd = hold[1];
	return c->hold ? 0 : exec_result(c);
}

int child_release(struct child *c)
{
	if (c->pid <= 0 || c->hold_fd < 0)
		return error("child_release: no held child");
	ssize_t w = write(c->hold_fd, "x", 1);
	(void)w; /* a short write ends in exec_result: the child exits 127 */
	close_fd(&c->hold_fd);
	return exec_result(c);
}

/* poll() until the deadline, with the interrupt signals unblocked only
 * inside ppoll, so a Ctrl-C between the flag test and the wait is seen. */
int poll_until(struct pollfd *fds, nfds_t n, double deadline)
{
	for (;;) {
		struct timespec ts, *tsp = NULL;
		if (deadline > 0) {
			double left = deadline - now_monotonic();
			if (left <= 0)
				return 0;
			ts.tv_sec = (time_t)left;
			ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
			tsp = &ts;
		}
		sigset_t block, old;
		if (handler_installed) {
			sigemptyset(&block);
			sigaddset(&block, SIGINT);
			sigaddset(&block, SIGTERM);
			sigaddset(&block, SIGHUP);
			sigprocmask(SIG_BLOCK, &block, &old);
		}
		int r;
		if (fb_interrupted) {
			r = -1;
			errno = EINTR;
		} else {
			r = ppoll(fds, n, tsp, handler_installed ? &old : NULL);
		}
		int e = errno;
		if (handler_installed)
			sigprocmask(SIG_SETMASK, &old, NULL);
		errno = e;
		if (r < 0 && errno == EINTR && !fb_interrupted)
			continue;
		if (r != 0 || deadline > 0)
			return r;
	}
}

/* Waits until fd (when >= 0) has something to read, the leader exits (it
 * is not reaped) or the deadline: 2 readable, 0 exited, 1 deadline, -1
 * interrupted (unless ignore_interrupt) or failed. */
static int wait_event(struct child *c, int fd, double deadline, int ignore_interrupt)
{
	double tick = 0.0005; /* no pidfd: waitid(WNOWAIT) every tick, doubling to 50 ms */
	int exited_before = c->exited;
	for (;;) {
		if (!c->exited && c->pidfd < 0) {
			siginfo_t si;
			memset(&si, 0, sizeof(si));
			if (waitid(P_PID, (id_t)c->pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == c->pid)
				c->exited = 1;
		}
		if (c->exited && (fd < 0 || !exited_before))
			return 0;
		double now = now_monotonic(), until = deadline;
		if (deadline > 0 && now >= deadline)
			return 1;
		if (!c->exited && c->pidfd < 0) {
			until = deadline > 0 ? fmin(now + tick, deadline) : now + tick;
			tick = fmin(tick * 2, 0.05);
		}
		struct pollfd p[2];
		nfds_t n = 0, pid_at = 2;
		if (fd >= 0)
			p[n++] = (struct pollfd){ fd, POLLIN, 0 };
		if (!c->exited && c->pidfd >= 0) {
			pid_at = n;
			p[n++] = (struct pollfd){ c->pidfd, POLLIN, 0 };
		}
		int r;
		if (ignore_interrupt) {
			/* plain poll: the flag may stay set while we stop the child */
			r = poll(p, n, until > 0 ? (int)ceil((until - now) * 1000) : -1);
			if (r < 0 && errno == EINTR)
				continue;
		} else {
			r = poll_until(p, n, until);
		}
		if (r < 0)
			return -1;
		if (r > 0 && fd >= 0 && p[0].revents)
			return 2;
		if (r > 0 && pid_at < n && p[pid_at].revents) {
			c->exited = 1;
			return 0;
		}
	}
}

static int wait_exit(struct child *c, double deadline, int ignore_interrupt)
{
	return wait_event(c, -1, deadline, ignore_interrupt);
}

ssize_t child_read(struct child *c, int fd, void *buf, size_t n, double deadline)
{
	for (;;) {
		ssize_t r = read(fd, buf, n);
		if (r >= 0 || (errno != EAGAIN && errno != EINTR))
			return r;
		if (errno == EINTR && fb_interrupted)
			return -1;
		int w = 0;
		if (!c) {
			struct pollfd p = { fd, POLLIN, 0 };
			int pr = poll_until(&p, 1, deadline);
			w = pr > 0 ? 2 : pr == 0 ? 1 : -1;
		} else if (!c->exited) {
			w = wait_event(c, fd, deadline, 0);
		}
		if (c && c->exited && w != 2) {
			/* the program is gone: its pipe ends now, unless a process it
			 * started holds it (and then it may never end) */
			double orphan = now_monotonic() + CHILD_ORPHAN_S;
			struct pollfd p = { fd, POLLIN, 0 };
			int pr = poll_until(&p, 1, deadline > 0 && deadline < orphan ? deadline : orphan);
			if (pr == 0 && now_monotonic() >= orphan) {
				c->pipe_held = 1;
				errno = ECHILD;
				return -1;
			}
			w = pr > 0 ? 2 : pr == 0 ? 1 : -1;
		}
		if (w == 1)
			errno = ETIMEDOUT;
		if (w == 1 || w < 0)
			return -1;
	}
}

int child_stop(struct child *c, enum child_outcome why, struct child_exit *ex)
{
	if (c->pid <= 0) {
		memset(ex, 0, sizeof(*ex));
		ex->outcome = CHILD_START_FAILED;
		ex->exit_code = 127;
		return -1;
	}
	close_fd(&c->hold_fd); /* a held child exits 127 at once */
	if (!c->exited) {
		kill(-c->pid, SIGTERM);
		wait_exit(c, now_monotonic() + (c->grace_s > 0 ? c->grace_s : 2.0), 1);
	}
	reap(c, ex); /* SIGKILL to the group first */
	ex->outcome = why;
	ex->exit_code = why == CHILD_TIMED_OUT ? 124 : why == CHILD_INTERRUPTED ? 130 : ex->exit_code;
	return 0;
}

int child_wait(struct child *c, double timeout_s, struct child_exit *ex)
{
	if (c->pid <= 0)
		return child_stop(c, CHILD_START_FAILED, ex);
	int r = wait_exit(c, timeout_s > 0 ? c->started + timeout_s : 0, 0);
	if (r == 0) {
		reap(c, ex);
		return 0;
	}
	return child_stop(c, r > 0 ? CHILD_TIMED_OUT : CHILD_INTERRUPTED, ex);
}

int run_capture(char *const *argv, int stdin_fd, double timeout_s, size_t cap,
		struct strbuf *out, struct strbuf *err, struct child_exit *ex)
{
	return run_capture_env(argv, NULL, stdin_fd, timeout_s, cap, out, err, ex);
}

static int capture(char *const *argv, char *const *env, int env_only, int stdin_fd, double timeout_s, size_t cap,
		   struct strbuf *out, struct strbuf *err, struct child_exit *ex);

int run_capture_env(char *const *argv, char *const *env, int stdin_fd, double timeout_s, size_t cap,
		    struct strbuf *out, struct strbuf *err, struct child_exit *ex)
{
	return capture(argv, env, 0, stdin_fd, timeout_s, cap, out, err, ex);
}

int run_capture_env_only(char *const *argv, char *const *env, int stdin_fd, double timeout_s, size_t cap,
			 struct strbuf *out, struct strbuf *err, struct child_exit *ex)
{
	return capture(argv, env, 1, stdin_fd, timeout_s, cap, out, err, ex);
}

static int capture(char *const *argv, char *const *env, int env_only, int stdin_fd, double timeout_s, size_t cap,
		   struct strbuf *out, struct strbuf *err, struct child_exit *ex)
{
	struct child c = CHILD_INIT;
	c.argv = argv;
	c.env = env;
	c.env_only = env_only;
	c.in = stdin_fd;
	c.out = out ? CHILD_PIPE : CHILD_DEVNULL;
	c.err = err ? CHILD_PIPE : CHILD_DEVNULL;
	memset(ex, 0, sizeof(*ex));
	if (child_start(&c) < 0) {
		ex->outcome = CHILD_START_FAILED;
		ex->exit_code = 127;
		return -1;
	}
	double deadline = timeout_s > 0 ? c.started + timeout_s : 0;
	struct strbuf *dst[2] = { out, err };
	int fds[2] = { c.out_fd, c.err_fd };
	char buf[65536];
	int stopped = 0; /* 1 at the deadline, -1 on Ctrl-C */
	for (;;) {
		struct pollfd pfd[2];
		int map[2];
		nfds_t n = 0;
		for (int i = 0; i < 2; i++)
			if (fds[i] >= 0) {
				pfd[n].fd = fds[i];
				pfd[n].events = POLLIN;
				pfd[n].revents = 0;
				map[n++] = i;
			}
		if (!n)
			break;
		int pr = poll_until(pfd, n, deadline);
		if (pr <= 0) {
			stopped = pr == 0 ? 1 : errno == EINTR ? -1 : 0;
			break;
		}
		for (nfds_t k = 0; k < n; k++) {
			if (!(pfd[k].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			int i = map[k];
			ssize_t r = read(fds[i], buf, sizeof(buf));
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0) {
				close_fd(&fds[i]);
				continue;
			}
			if (dst[i]->len < cap)
				sb_add(dst[i], buf, (size_t)r > cap - dst[i]->len ? cap - dst[i]->len : (size_t)r);
		}
	}
	close_fd(&fds[0]);
	close_fd(&fds[1]);
	if (stopped)
		return child_stop(&c, stopped > 0 ? CHILD_TIMED_OUT : CHILD_INTERRUPTED, ex);
	return child_wait(&c, timeout_s, ex);
}

const char *signal_abbrev(int sig)
{
	/* sigabbrev_np() is glibc's alone; the static meter is built on musl */
	static const char *const names[] = {
		[SIGHUP] = "HUP",   [SIGINT] = "INT",     [SIGQUIT] = "QUIT", [SIGILL] = "ILL",   [SIGTRAP] = "TRAP",
		[SIGABRT] = "ABRT", [SIGBUS] = "BUS",     [SIGFPE] = "FPE",   [SIGKILL] = "KILL", [SIGUSR1] = "USR1",
		[SIGSEGV] = "SEGV", [SIGUSR2] = "USR2",   [SIGPIPE] = "PIPE", [SIGALRM] = "ALRM", [SIGTERM] = "TERM",
		[SIGCHLD] = "CHLD", [SIGCONT] = "CONT",   [SIGSTOP] = "STOP", [SIGTSTP] = "TSTP", [SIGTTIN] = "TTIN",
		[SIGTTOU] = "TTOU", [SIGURG] = "URG",     [SIGXCPU] = "XCPU", [SIGXFSZ] = "XFSZ", [SIGVTALRM] = "VTALRM",
		[SIGPROF] = "PROF", [SIGWINCH] = "WINCH", [SIGIO] = "IO",     [SIGPWR] = "PWR",   [SIGSYS] = "SYS",
	};
	if (sig <= 0 || (size_t)sig >= sizeof(names) / sizeof(names[0]) || !names[sig])
		return "?";
	return names[sig];
}

void describe_exit(const struct child_exit *ex, double timeout_s, char *buf, size_t n)
{
	switch (ex->outcome) {
	case CHILD_EXITED:
		snprintf(buf, n, "exited %d", ex->exit_code);
		break;
	case CHILD_SIGNALED:
		snprintf(buf, n, "killed by SIG%s (signal %d)", signal_abbrev(ex->signal), ex->signal);
		break;
	case CHILD_TIMED_OUT:
		snprintf(buf, n, "timed out after %gs", timeout_s);
		break;
	case CHILD_INTERRUPTED:
		snprintf(buf, n, "interrupted");
		break;
	case CHILD_START_FAILED:
		snprintf(buf, n, "could not be started");
		break;
	}
}
