/* runcmd.h: spawning children safely (the only place that forks and execs).
 *
 * Protocol, after git's run-command.h:
 *  - every child of the harness and of the meter is started here
 *    (child_start) and reaped here (child_wait, child_stop, run_capture):
 *    `grep -rn 'fork\|execv' harness` finds only runcmd.c;
 *  - a child is always an argv vector, never a shell line; its environment
 *    is the parent's plus c->env, built before fork (no setenv anywhere);
 *  - it runs in its own process group; a timeout or Ctrl-C kills the group
 *    (SIGTERM, grace_s, then SIGKILL), and whatever the group still holds
 *    when the child exits is killed too.  A program that calls setsid()
 *    leaves the group and is out of reach;
 *  - the leader stays a zombie until it is reaped, so its process group id
 *    cannot be reused while stragglers are being killed;
 *  - the child is made by fork(), or by clone(CLONE_VM | CLONE_VFORK) where
 *    it need not be held (cheaper: the meter's fixed cost); the result is
 *    checked, and exec failure reaches the parent through a close-on-exec
 *    pipe, so child_start() fails instead of a child exiting 127 unnoticed;
 *  - after fork the child calls only async-signal-safe functions;
 *  - every wait is one mechanism: poll() with a deadline, on the child's
 *    pidfd (pidfd_open, Linux 5.3) and/or on the pipes being read; where
 *    the kernel has no pidfd, waitid(WNOWAIT) between short polls instead.
 *    A SIGINT/SIGTERM/SIGHUP handled by install_interrupt_handler() ends
 *    every wait at once (ppoll with those signals unblocked only inside);
 *  - c->hold stops the child before exec until child_release(), so a
 *    perf counter can be attached to its pid first (pipeline/counters.c).
 */
#ifndef FLAGBENCH_RUNCMD_H
#define FLAGBENCH_RUNCMD_H

#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <sys/types.h>

#include "core/util.h"

/* Set by the SIGINT/SIGTERM/SIGHUP handler; waits notice it, kill their
 * child's group and report CHILD_INTERRUPTED. */
extern volatile sig_atomic_t fb_interrupted;
void install_interrupt_handler(void);

/* What to connect a child's fd to. */
#define CHILD_INHERIT (-1)
#define CHILD_DEVNULL (-2)
#define CHILD_PIPE (-3)

enum child_outcome {
	CHILD_EXITED,      /* exit_code holds the status */
	CHILD_SIGNALED,    /* signal holds the signal; exit_code is 128+signal */
	CHILD_TIMED_OUT,   /* killed by us at the timeout; exit_code is 124 */
	CHILD_INTERRUPTED, /* killed by us on Ctrl-C; exit_code is 130 */
	CHILD_START_FAILED,
};

struct child_exit {
	enum child_outcome outcome;
	int exit_code; /* 0..255, 128+signal for a signal death, 124 timeout, 130 interrupt, 127 start failure */
	int signal;    /* the signal that ended it (also for a timeout or interrupt), else 0 */
	double elapsed_s;
};

struct child {
	char *const *argv;
	/* CHILD_INHERIT, CHILD_DEVNULL, CHILD_PIPE or an fd to dup2 */
	int in, out, err;
	int cpu;          /* pin to this CPU, -1 for no pinning */
	const char *dir;  /* chdir before exec, or NULL */
	char *const *env; /* "NAME=value" set for the child alone (NULL-terminated), or NULL */
	/* the child's environment is env alone, not the parent's plus env:
	 * what it does must not depend on the caller's shell (instruction
	 * counts move with the environment's size); PATH is still searched
	 * in the parent's */
	int env_only;
	int hold;         /* stop before exec until child_release() */
	double grace_s;   /* SIGTERM to SIGKILL when stopping it; 0: 2 s */
	/* SIGKILL it when the process that started it dies: the meter's children
	 * live in groups of their own, so a group kill of the meter (hyperfine
	 * stopped by flagbench) would otherwise leave them running */
	int die_with_parent;
	/* filled by child_start */
	pid_t parent;
	pid_t pid;
	int pidfd;                 /* -1 where the kernel has none */
	int in_fd, out_fd, err_fd; /* parent ends of CHILD_PIPE fds, else -1 */
	int hold_fd, report_fd;    /* the held child's go pipe and exec report, else -1 */
	int exited;                /* the leader has exited (a zombie until reaped) */
	int pipe_held;             /* child_read: it exited, a process it started held the pipe */
	double started;
};
#define CHILD_INIT                                                                                                   \
	{                                                                                                            \
		.in = CHILD_INHERIT, .out = CHILD_INHERIT, .err = CHILD_INHERIT, .cpu = -1, .pid = -1, .pidfd = -1, \
		.in_fd = -1, .out_fd = -1, .err_fd = -1, .hold_fd = -1, .report_fd = -1                              \
	}

/* Starts c (returns 0), or returns -1 with the reason printed and nothing
 * left running.  With c->hold the child waits before exec, and exec
 * failure is reported by child_release() instead. */
int child_start(struct child *c);
int child_release(struct child *c);

/* Waits for the child to exit, up to timeout_s after it started (<= 0: no
 * limit); past it, or on Ctrl-C, stops it as child_stop() does.  Always
 * reaps: returns 0 with *ex filled in, -1 if c was not running. */
int child_wait(struct child *c, double timeout_s, struct child_exit *ex);
/* Kills the child's group (SIGTERM, grace_s, SIGKILL), reaps it, and
 * records `why` (CHILD_TIMED_OUT or CHILD_INTERRUPTED) as its outcome. */
int child_stop(struct child *c, enum child_outcome why, struct child_exit *ex);

/* Waits until one of fds has something to read (or hangs up), until the
 * absolute monotonic `deadline` (0: none).  Returns the number of ready fds
 * (revents filled), 0 at the deadline, -1 with errno EINTR on Ctrl-C (the
 * handler's flag) or another errno on failure. */
int poll_until(struct pollfd *fds, nfds_t n, double deadline);
/* read() of a non-blocking fd that waits with poll_until() when it would
 * block: -1 with errno ETIMEDOUT at the deadline.  With a child c (the fd
 * is its pipe) it also watches c: once c has exited, a pipe that stays
 * open and empty CHILD_ORPHAN_S longer is held by a process it started
 * (and may never end): -1 with errno ECHILD and c->pipe_held set.  The
 * verify stage reads through it. */
#define CHILD_ORPHAN_S 0.5
ssize_t child_read(struct child *c, int fd, void *buf, size_t n, double deadline);

/* Runs argv to completion, capturing stdout and stderr (each up to cap
 * bytes, the rest read and dropped) with poll() so neither pipe can fill.
 * stdin_fd: CHILD_DEVNULL or an fd. */
int run_capture(char *const *argv, int stdin_fd, double timeout_s, size_t cap,
		struct strbuf *out, struct strbuf *err, struct child_exit *ex);
/* The same with env entries for the child (see struct child). */
int run_capture_env(char *const *argv, char *const *env, int stdin_fd, double timeout_s, size_t cap,
		    struct strbuf *out, struct strbuf *err, struct child_exit *ex);

/* The same with env alone as the child's environment (struct child's env_only). */
int run_capture_env_only(char *const *argv, char *const *env, int stdin_fd, double timeout_s, size_t cap,
			 struct strbuf *out, struct strbuf *err, struct child_exit *ex);

/* "exited 3", "killed by SIGSEGV (signal 11)", "timed out after 5s" */
void describe_exit(const struct child_exit *ex, double timeout_s, char *buf, size_t n);
/* "SEGV" for SIGSEGV, "?" for a number it does not know. */
const char *signal_abbrev(int sig);

/* For tests: 0 makes child_start behave as on a kernel without pidfd. */
extern int runcmd_use_pidfd;

#endif
