/* runcmd.c: see runcmd.h */
#define _GNU_SOURCE
#include "runcmd.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

volatile sig_atomic_t fb_interrupted;

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
}

static int open_devnull(int flags)
{
	return open("/dev/null", flags | O_CLOEXEC);
}

/* In the child: async-signal-safe only. */
static void child_fail(int report_fd, int err)
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
static char **child_environ(char *const *env)
{
	size_t n = 0, k = 0;
	while (environ[n])
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

int child_start(struct child *c)
{
	int report[2], pin[2] = { -1, -1 }, pout[2] = { -1, -1 }, perr[2] = { -1, -1 };
	c->pid = -1;
	c->in_fd = c->out_fd = c->err_fd = -1;
	if (pipe2(report, O_CLOEXEC) < 0)
		return error("pipe: %s", strerror(errno));
	if ((c->in == CHILD_PIPE && pipe2(pin, O_CLOEXEC) < 0) ||
	    (c->out == CHILD_PIPE && pipe2(pout, O_CLOEXEC) < 0) ||
	    (c->err == CHILD_PIPE && pipe2(perr, O_CLOEXEC) < 0))
		return error("pipe: %s", strerror(errno));
	int devnull_r = open_devnull(O_RDONLY), devnull_w = open_devnull(O_WRONLY);
	char **envp = c->env ? child_environ(c->env) : NULL;

	c->started = now_monotonic();
	pid_t pid = fork();
	if (pid < 0) {
		int e = errno;
		close(report[0]);
		close(report[1]);
		free(envp);
		return error("fork: %s", strerror(e));
	}
	if (pid == 0) {
		/* child */
		setpgid(0, 0);
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
				child_fail(report[1], errno);
		}
		child_setup_fd(c->in, pin[0], devnull_r, 0, report[1]);
		child_setup_fd(c->out, pout[1], devnull_w, 1, report[1]);
		child_setup_fd(c->err, perr[1], devnull_w, 2, report[1]);
		if (c->dir && chdir(c->dir) < 0)
			child_fail(report[1], errno);
		if (envp)
			execvpe(c->argv[0], c->argv, envp);
		else
			execvp(c->argv[0], c->argv);
		child_fail(report[1], errno);
	}
	/* parent: also setpgid, so the group exists before we might kill it */
	setpgid(pid, pid);
	free(envp); /* the strings are the parent's own or c->env's */
	c->pid = pid;
	close(report[1]);
	close(devnull_r);
	close(devnull_w);
	if (pin[0] >= 0) {
		close(pin[0]);
		c->in_fd = pin[1];
	}
	if (pout[1] >= 0) {
		close(pout[1]);
		c->out_fd = pout[0];
	}
	if (perr[1] >= 0) {
		close(perr[1]);
		c->err_fd = perr[0];
	}
	int child_errno = 0;
	ssize_t r;
	do
		r = read(report[0], &child_errno, sizeof(child_errno));
	while (r < 0 && errno == EINTR);
	close(report[0]);
	if (r == (ssize_t)sizeof(child_errno)) {
		int st;
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		c->pid = -1;
		if (c->in_fd >= 0)
			close(c->in_fd);
		if (c->out_fd >= 0)
			close(c->out_fd);
		if (c->err_fd >= 0)
			close(c->err_fd);
		c->in_fd = c->out_fd = c->err_fd = -1;
		errno = child_errno;
		return error("cannot run %s: %s", c->argv[0], strerror(child_errno));
	}
	return 0;
}

static void fill_exit(int status, struct child_exit *ex)
{
	if (WIFEXITED(status)) {
		ex->outcome = CHILD_EXITED;
		ex->exit_code = WEXITSTATUS(status);
		ex->signal = 0;
	} else if (WIFSIGNALED(status)) {
		ex->outcome = CHILD_SIGNALED;
		ex->signal = WTERMSIG(status);
		ex->exit_code = 128 + ex->signal;
	}
}

static int reap(pid_t pid, int flags, int *status)
{
	for (;;) {
		pid_t r = waitpid(pid, status, flags);
		if (r < 0 && errno == EINTR)
			continue;
		return (int)r;
	}
}

void child_kill_group(struct child *c, double grace_s)
{
	if (c->pid <= 0)
		return;
	kill(-c->pid, SIGTERM);
	double until = now_monotonic() + grace_s;
	int st;
	while (now_monotonic() < until) {
		if (waitpid(c->pid, &st, WNOHANG) == c->pid) {
			/* leader gone; stragglers in the group still get SIGKILL */
			kill(-c->pid, SIGKILL);
			/* remember the status for child_wait: -2 - status, so an
			 * exit status of 0 is not -1 ("no child"), which made the
			 * caller wait for any child at all (the verify watchdog) */
			c->pid = -st - 2;
			return;
		}
		struct timespec ts = { 0, 10 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
	kill(-c->pid, SIGKILL);
}

int child_wait(struct child *c, double timeout_s, struct child_exit *ex)
{
	memset(ex, 0, sizeof(*ex));
	if (c->pid < -1) {
		/* already reaped by child_kill_group */
		fill_exit(-(c->pid + 2), ex);
		c->pid = -1;
		ex->elapsed_s = now_monotonic() - c->started;
		return 0;
	}
	if (c->pid <= 0) {
		ex->outcome = CHILD_START_FAILED;
		ex->exit_code = 127;
		return -1;
	}
	enum child_outcome forced = CHILD_EXITED;
	int status = 0;
	pid_t group = c->pid; /* c->pid may turn into a saved status below */
	for (;;) {
		int r = reap(c->pid, WNOHANG, &status);
		if (r == c->pid)
			break;
		if (r < 0) {
			ex->outcome = CHILD_START_FAILED;
			c->pid = -1;
			return error("waitpid: %s", strerror(errno));
		}
		double t = now_monotonic() - c->started;
		if (forced == CHILD_EXITED && fb_interrupted)
			forced = CHILD_INTERRUPTED;
		else if (forced == CHILD_EXITED && timeout_s > 0 && t > timeout_s)
			forced = CHILD_TIMED_OUT;
		if (forced != CHILD_EXITED) {
			child_kill_group(c, 2.0);
			if (c->pid < -1) {
				status = -(c->pid + 2);
				break;
			}
			reap(c->pid, 0, &status);
			break;
		}
		struct timespec ts = { 0, 2 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
	/* kill anything the child left behind in its group */
	kill(-group, SIGKILL);
	ex->elapsed_s = now_monotonic() - c->started;
	fill_exit(status, ex);
	if (forced != CHILD_EXITED)
		ex->outcome = forced;
	c->pid = -1;
	return 0;
}

int run_capture(char *const *argv, int stdin_fd, double timeout_s, size_t cap,
		struct strbuf *out, struct strbuf *err, struct child_exit *ex)
{
	return run_capture_env(argv, NULL, stdin_fd, timeout_s, cap, out, err, ex);
}

int run_capture_env(char *const *argv, char *const *env, int stdin_fd, double timeout_s, size_t cap,
		    struct strbuf *out, struct strbuf *err, struct child_exit *ex)
{
	struct child c = CHILD_INIT;
	c.argv = argv;
	c.env = env;
	c.in = stdin_fd;
	c.out = out ? CHILD_PIPE : CHILD_DEVNULL;
	c.err = err ? CHILD_PIPE : CHILD_DEVNULL;
	memset(ex, 0, sizeof(*ex));
	if (child_start(&c) < 0) {
		ex->outcome = CHILD_START_FAILED;
		ex->exit_code = 127;
		return -1;
	}
	struct pollfd pfd[2];
	struct strbuf *dst[2] = { out, err };
	int fds[2] = { c.out_fd, c.err_fd };
	char buf[65536];
	int timed_out = 0;
	for (;;) {
		int n = 0;
		int map[2];
		for (int i = 0; i < 2; i++)
			if (fds[i] >= 0) {
				pfd[n].fd = fds[i];
				pfd[n].events = POLLIN;
				map[n++] = i;
			}
		if (!n)
			break;
		int wait_ms = 100;
		int pr = poll(pfd, (nfds_t)n, wait_ms);
		if (pr < 0 && errno != EINTR)
			break;
		if (fb_interrupted || (timeout_s > 0 && now_monotonic() - c.started > timeout_s)) {
			timed_out = 1;
			break;
		}
		for (int k = 0; pr > 0 && k < n; k++) {
			if (!(pfd[k].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			int i = map[k];
			ssize_t r = read(fds[i], buf, sizeof(buf));
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0) {
				close(fds[i]);
				fds[i] = -1;
				continue;
			}
			if (dst[i]->len < cap)
				sb_add(dst[i], buf, (size_t)r > cap - dst[i]->len ? cap - dst[i]->len : (size_t)r);
		}
	}
	for (int i = 0; i < 2; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	(void)timed_out;
	return child_wait(&c, timeout_s, ex);
}

void describe_exit(const struct child_exit *ex, double timeout_s, char *buf, size_t n)
{
	switch (ex->outcome) {
	case CHILD_EXITED:
		snprintf(buf, n, "exited %d", ex->exit_code);
		break;
	case CHILD_SIGNALED:
		snprintf(buf, n, "killed by SIG%s (signal %d)", sigabbrev_np(ex->signal) ? sigabbrev_np(ex->signal) : "?",
			 ex->signal);
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
