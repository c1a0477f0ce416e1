/* runcmd.h: spawning children safely (the only place that forks and execs).
 *
 * Protocol, after git's run-command.h:
 *  - a child is always an argv vector, never a shell line;
 *  - it runs in its own process group, so a timeout or Ctrl-C kills the
 *    whole tree it started (hyperfine -> meter -> producer) at once;
 *  - exec failure reaches the parent through a close-on-exec pipe, so
 *    child_start() fails instead of a child exiting 127 unnoticed;
 *  - after fork the child calls only async-signal-safe functions;
 *  - child_wait() loops on EINTR, enforces the timeout (SIGTERM to the
 *    group, a grace period, then SIGKILL) and always reaps.
 */
#ifndef FLAGBENCH_RUNCMD_H
#define FLAGBENCH_RUNCMD_H

#include <signal.h>
#include <stddef.h>
#include <sys/types.h>

#include "util.h"

/* Set by the SIGINT/SIGTERM handler of long commands; waits notice it,
 * kill their child's group and report CHILD_INTERRUPTED. */
extern volatile sig_atomic_t fb_interrupted;
void install_interrupt_handler(void);

/* What to connect a child's fd to. */
#define CHILD_INHERIT (-1)
#define CHILD_DEVNULL (-2)
#define CHILD_PIPE (-3)

enum child_outcome {
	CHILD_EXITED,      /* exit_code holds the status */
	CHILD_SIGNALED,    /* signal holds the signal; exit_code is 128+signal */
	CHILD_TIMED_OUT,   /* killed by us at the timeout */
	CHILD_INTERRUPTED, /* killed by us on Ctrl-C */
	CHILD_START_FAILED,
};

struct child_exit {
	enum child_outcome outcome;
	int exit_code; /* 0..255, 128+signal for a signal death */
	int signal;
	double elapsed_s;
};

struct child {
	char *const *argv;
	/* CHILD_INHERIT, CHILD_DEVNULL, CHILD_PIPE or an fd to dup2 */
	int in, out, err;
	int cpu;          /* pin to this CPU, -1 for no pinning */
	const char *dir;  /* chdir before exec, or NULL */
	char *const *env; /* "NAME=value" set for the child alone (NULL-terminated), or NULL */
	/* filled by child_start */
	pid_t pid;
	int in_fd, out_fd, err_fd; /* parent ends of CHILD_PIPE fds, else -1 */
	double started;
};
#define CHILD_INIT { NULL, CHILD_INHERIT, CHILD_INHERIT, CHILD_INHERIT, -1, NULL, NULL, -1, -1, -1, -1, 0 }

int child_start(struct child *c);
/* Waits up to timeout_s (<= 0: no limit).  Returns 0 when it has reaped
 * the child, with *ex filled in. */
int child_wait(struct child *c, double timeout_s, struct child_exit *ex);
/* Sends SIGTERM to the child's group, waits grace_s, then SIGKILL. */
void child_kill_group(struct child *c, double grace_s);

/* Runs argv to completion, capturing stdout and stderr (each up to cap
 * bytes, the rest read and dropped) with poll() so neither pipe can fill.
 * stdin_fd: CHILD_DEVNULL or an fd. */
int run_capture(char *const *argv, int stdin_fd, double timeout_s, size_t cap,
		struct strbuf *out, struct strbuf *err, struct child_exit *ex);
/* The same with env entries for the child (see struct child). */
int run_capture_env(char *const *argv, char *const *env, int stdin_fd, double timeout_s, size_t cap,
		    struct strbuf *out, struct strbuf *err, struct child_exit *ex);

/* "exited 3", "killed by SIGSEGV (signal 11)", "timed out after 5s" */
void describe_exit(const struct child_exit *ex, double timeout_s, char *buf, size_t n);

#endif
