/* Unit tests of core/runcmd: exit-status mapping (exit code, 128+signal,
 * 124 at a timeout, 130 on Ctrl-C), the group kill at a timeout (a child
 * that ignores SIGTERM, grandchildren holding a pipe), the hold before
 * exec, exec failures, and the deadline of poll_until/child_read; each
 * with the pidfd and, where it matters, with the fallback without it.
 * Bounds on elapsed time are generous: they catch a hang, not a slowdown. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "core/runcmd.h"

static char tmpdir[] = "/tmp/fb-runcmd-XXXXXX";

static int setup(void **state)
{
	(void)state;
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char *cmd[] = { "rm", "-rf", tmpdir, NULL };
	struct child_exit ex;
	return run_capture(cmd, CHILD_DEVNULL, 10, 0, NULL, NULL, &ex);
}

/* Runs `sh -c script` to the end with child_wait. */
static void run_sh(const char *script, double timeout_s, struct child_exit *ex)
{
	char *argv[] = { "sh", "-c", (char *)script, NULL };
	struct child c = CHILD_INIT;
	c.argv = argv;
	c.in = CHILD_DEVNULL;
	c.grace_s = 0.2;
	assert_int_equal(child_start(&c), 0);
	assert_int_equal(child_wait(&c, timeout_s, ex), 0);
	assert_int_equal(c.pid, -1);
}

/* Whether pid is gone (or a zombie waiting for init): the group kill reached it. */
/* Gone or a zombie now, without waiting. */
static int gone_now(pid_t pid)
{
	char path[64], st[512];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return 1;
	size_t n = fread(st, 1, sizeof(st) - 1, f);
	fclose(f);
	st[n] = '\0';
	const char *paren = strrchr(st, ')');
	return paren && paren[1] == ' ' && (paren[2] == 'Z' || paren[2] == 'X');
}

/* Gone within 2 s. */
static int gone(pid_t pid)
{
	for (int i = 0; i < 200; i++) {
		if (gone_now(pid))
			return 1;
		usleep(10000);
	}
	return 0;
}

static pid_t read_pid(const char *path)
{
	char *text = read_file(path, NULL);
	assert_non_null(text);
	pid_t pid = (pid_t)atoi(text);
	free(text);
	assert_true(pid > 1);
	return pid;
}

/* How a child ends, and what runcmd makes of it. */
static const struct exit_case {
	const char *script;
	double timeout_s;
	enum child_outcome outcome;
	int exit_code, signal;
	double min_s;    /* elapsed at least (a timeout is not early) */
	const char *how; /* describe_exit(), or NULL */
} exit_cases[] = {
	{ "exit 0", 10, CHILD_EXITED, 0, 0, 0, "exited 0" },
	{ "exit 3", 10, CHILD_EXITED, 3, 0, 0, "exited 3" },
	{ "kill -SEGV $$", 10, CHILD_SIGNALED, 128 + SIGSEGV, SIGSEGV, 0, "killed by SIGSEGV (signal 11)" },
	{ "kill -ILL $$", 10, CHILD_SIGNALED, 128 + SIGILL, SIGILL, 0, "killed by SIGILL (signal 4)" },
	{ "sleep 30", 0.3, CHILD_TIMED_OUT, 124, SIGTERM, 0.3, "timed out after 0.3s" },
	/* SIGTERM ignored: SIGKILL after the 0.2 s grace period */
	{ "trap '' TERM; while :; do sleep 1; done", 0.3, CHILD_TIMED_OUT, 124, SIGKILL, 0.5, NULL },
};

static void test_exit_mapping(void **state)
{
	(void)state;
	for (int fallback = 0; fallback < 2; fallback++) {
		runcmd_use_pidfd = !fallback;
		for (size_t i = 0; i < sizeof(exit_cases) / sizeof(exit_cases[0]); i++) {
			const struct exit_case *k = &exit_cases[i];
			struct child_exit ex;
			char how[128];
			run_sh(k->script, k->timeout_s, &ex);
			printf("# %s (pidfd %d): outcome %d, exit %d, signal %d, %.3fs\n", k->script, !fallback,
			       ex.outcome, ex.exit_code, ex.signal, ex.elapsed_s);
			assert_int_equal(ex.outcome, k->outcome);
			assert_int_equal(ex.exit_code, k->exit_code);
			assert_int_equal(ex.signal, k->signal);
			assert_true(ex.elapsed_s >= k->min_s && ex.elapsed_s < 5);
			describe_exit(&ex, k->timeout_s, how, sizeof(how));
			if (k->how)
				assert_string_equal(how, k->how);
		}
	}
	runcmd_use_pidfd = 1;
}

static void test_group_killed(void **state)
{
	(void)state;
	char *file = xasprintf("%s/pid", tmpdir);
	char *script = xasprintf("sleep 30 & echo $! > %s; wait", file);
	struct child_exit ex;
	/* at a timeout, the grandchild goes with the child */
	run_sh(script, 0.5, &ex);
	assert_int_equal(ex.outcome, CHILD_TIMED_OUT);
	assert_true(gone(read_pid(file)));
	free(script);
	/* a child that exits leaves nothing running in its group */
	script = xasprintf("sleep 30 & echo $! > %s; exit 0", file);
	run_sh(script, 10, &ex);
	assert_int_equal(ex.outcome, CHILD_EXITED);
	assert_int_equal(ex.exit_code, 0);
	assert_true(gone(read_pid(file)));
	free(script);
	free(file);
}

static void test_capture_pipe_held(void **state)
{
	(void)state;
	/* the child exits at once, its grandchild holds stdout open and writes
	 * nothing: the read is bounded by the deadline, not by the pipe */
	char *argv[] = { "sh", "-c", "echo hi; sleep 30 & exit 0", NULL };
	struct strbuf out = STRBUF_INIT;
	struct child_exit ex;
	assert_int_equal(run_capture(argv, CHILD_DEVNULL, 0.5, 4096, &out, NULL, &ex), 0);
	assert_int_equal(ex.outcome, CHILD_TIMED_OUT);
	assert_int_equal(ex.exit_code, 124);
	assert_true(ex.elapsed_s < 5);
	assert_string_equal(out.buf, "hi\n");
	sb_release(&out);
}

/* child_read on a pipe: the data, then the end; or, when the child exits
 * and a process it started holds the pipe, ECHILD after CHILD_ORPHAN_S. */
static void test_child_read_orphan(void **state)
{
	(void)state;
	for (int fallback = 0; fallback < 2; fallback++) {
		runcmd_use_pidfd = !fallback;
		for (int held = 0; held < 2; held++) {
			char *argv[] = { "sh", "-c", held ? "echo hi; sleep 30 & exit 0" : "echo hi; exit 0", NULL };
			struct child c = CHILD_INIT;
			c.argv = argv;
			c.out = CHILD_PIPE;
			assert_int_equal(child_start(&c), 0);
			fcntl(c.out_fd, F_SETFL, O_NONBLOCK);
			char buf[64];
			size_t got = 0;
			ssize_t r;
			while ((r = child_read(&c, c.out_fd, buf + got, sizeof(buf) - got, c.started + 10)) > 0)
				got += (size_t)r;
			assert_int_equal(got, 3);
			assert_memory_equal(buf, "hi\n", 3);
			printf("# held %d pidfd %d: r %zd errno %d pipe_held %d after %.3fs\n", held, !fallback, r, errno, c.pipe_held, now_monotonic() - c.started);
			assert_int_equal(r, held ? -1 : 0);
			assert_int_equal(c.pipe_held, held);
			if (held)
				assert_int_equal(errno, ECHILD);
			assert_true(now_monotonic() - c.started < 5);
			close(c.out_fd);
			struct child_exit ex;
			assert_int_equal(child_wait(&c, 10, &ex), 0);
			assert_int_equal(ex.outcome, CHILD_EXITED);
		}
	}
	runcmd_use_pidfd = 1;
}

/* die_with_parent: a process starts `sleep 30` and exits without waiting.
 * With the flag the sleep goes with it (PR_SET_PDEATHSIG); without it the
 * sleep outlives its parent, which is what the flag is for. */
static pid_t orphan_sleep(int die_with_parent)
{
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	pid_t mid = fork();
	assert_true(mid >= 0);
	if (mid == 0) {
		close(fds[0]);
		char *argv[] = { "sleep", "30", NULL };
		struct child c = CHILD_INIT;
		c.argv = argv;
		c.die_with_parent = die_with_parent;
		pid_t pid = child_start(&c) == 0 ? c.pid : -1;
		/* the child is past prctl when it has exec'd: wait for that */
		for (int i = 0; i < 200 && pid > 0; i++) {
			char path[64], exe[64] = "";
			snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
			FILE *f = fopen(path, "r");
			if (f) {
				if (!fgets(exe, sizeof(exe), f))
					exe[0] = '\0';
				fclose(f);
			}
			if (!strncmp(exe, "sleep", 5))
				break;
			usleep(10000);
		}
		if (write(fds[1], &pid, sizeof(pid)) != (ssize_t)sizeof(pid))
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	pid_t pid = -1;
	assert_int_equal(read(fds[0], &pid, sizeof(pid)), (ssize_t)sizeof(pid));
	close(fds[0]);
	int st;
	assert_int_equal(waitpid(mid, &st, 0), mid);
	assert_true(pid > 1);
	return pid;
}

static void test_die_with_parent(void **state)
{
	(void)state;
	pid_t pid = orphan_sleep(1);
	assert_true(gone(pid));
	pid = orphan_sleep(0);
	usleep(100000);
	int alive = kill(pid, 0) == 0 && !gone_now(pid);
	kill(pid, SIGKILL);
	assert_true(alive);
}

static void test_interrupted(void **state)
{
	(void)state;
	struct child_exit ex;
	char *argv[] = { "sleep", "30", NULL };
	struct child c = CHILD_INIT;
	c.argv = argv;
	c.grace_s = 0.2;
	assert_int_equal(child_start(&c), 0);
	fb_interrupted = 1;
	assert_int_equal(child_wait(&c, 0, &ex), 0);
	fb_interrupted = 0;
	assert_int_equal(ex.outcome, CHILD_INTERRUPTED);
	assert_int_equal(ex.exit_code, 130);
	char how[64];
	describe_exit(&ex, 0, how, sizeof(how));
	assert_string_equal(how, "interrupted");
}

static void test_hold_before_exec(void **state)
{
	(void)state;
	char *file = xasprintf("%s/ran", tmpdir);
	char *script = xasprintf("echo $$ > %s", file);
	char *argv[] = { "sh", "-c", script, NULL };
	struct child c = CHILD_INIT;
	c.argv = argv;
	c.hold = 1;
	assert_int_equal(child_start(&c), 0);
	usleep(100000);
	assert_int_equal(access(file, F_OK), -1); /* still held */
	assert_int_equal(child_release(&c), 0);
	struct child_exit ex;
	assert_int_equal(child_wait(&c, 10, &ex), 0);
	assert_int_equal(ex.outcome, CHILD_EXITED);
	assert_int_equal(ex.exit_code, 0);
	assert_int_equal(access(file, F_OK), 0);
	unlink(file);
	/* stopped while held: it never runs */
	assert_int_equal(child_start(&c), 0);
	assert_int_equal(child_stop(&c, CHILD_INTERRUPTED, &ex), 0);
	assert_int_equal(ex.outcome, CHILD_INTERRUPTED);
	assert_int_equal(access(file, F_OK), -1);
	free(script);
	free(file);
}

static void test_exec_failure(void **state)
{
	(void)state;
	char *argv[] = { "/nonexistent/flagbench-test", NULL };
	struct child c = CHILD_INIT;
	c.argv = argv;
	assert_int_equal(child_start(&c), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(c.pid, -1);
	c.hold = 1;
	assert_int_equal(child_start(&c), 0);
	assert_int_equal(child_release(&c), -1);
	assert_int_equal(c.pid, -1);
	struct child_exit ex;
	assert_int_equal(run_capture(argv, CHILD_DEVNULL, 10, 64, NULL, NULL, &ex), -1);
	assert_int_equal(ex.outcome, CHILD_START_FAILED);
	assert_int_equal(ex.exit_code, 127);
}

static void test_read_deadline(void **state)
{
	(void)state;
	int p[2];
	assert_int_equal(pipe2(p, O_CLOEXEC | O_NONBLOCK), 0);
	char buf[16];
	double t0 = now_monotonic();
	assert_int_equal(child_read(NULL, p[0], buf, sizeof(buf), t0 + 0.2), -1);
	assert_int_equal(errno, ETIMEDOUT);
	assert_true(now_monotonic() - t0 >= 0.2);
	struct pollfd pfd = { p[0], POLLIN, 0 };
	assert_int_equal(poll_until(&pfd, 1, now_monotonic() + 0.05), 0);
	assert_int_equal(write(p[1], "ab", 2), 2);
	assert_int_equal(poll_until(&pfd, 1, now_monotonic() + 5), 1);
	assert_int_equal(child_read(NULL, p[0], buf, sizeof(buf), now_monotonic() + 5), 2);
	close(p[1]);
	assert_int_equal(child_read(NULL, p[0], buf, sizeof(buf), now_monotonic() + 5), 0);
	close(p[0]);
	/* a deadline already past */
	assert_int_equal(poll_until(&pfd, 1, now_monotonic() - 1), 0);
}

static void test_signal_names(void **state)
{
	(void)state;
	assert_string_equal(signal_abbrev(SIGSEGV), "SEGV");
	assert_string_equal(signal_abbrev(SIGKILL), "KILL");
	assert_string_equal(signal_abbrev(0), "?");
	assert_string_equal(signal_abbrev(1000), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exit_mapping),	cmocka_unit_test(test_group_killed),
		cmocka_unit_test(test_capture_pipe_held), cmocka_unit_test(test_child_read_orphan),
		cmocka_unit_test(test_interrupted),	cmocka_unit_test(test_die_with_parent),
		cmocka_unit_test(test_hold_before_exec),	cmocka_unit_test(test_exec_failure),
		cmocka_unit_test(test_read_deadline),	cmocka_unit_test(test_signal_names),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
