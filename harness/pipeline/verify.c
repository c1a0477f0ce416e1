/* verify.c: see verify.h */
#define _GNU_SOURCE
#include "pipeline/verify.h"

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "checks/check.h"
#include "pipeline/check_json.h"
#include "system/meter.h"
#include "core/runcmd.h"

void cell_program_argv(const struct cell *c, struct strvec *out)
{
	if (c->spec.reference) {
		for (size_t i = 0; i < c->spec.reference->argv.n; i++) {
			if (!strcmp(c->spec.reference->argv.v[i], "{N}"))
				sv_pushf(out, "%llu", (unsigned long long)c->spec.size);
			else
				sv_push(out, c->spec.reference->argv.v[i]);
		}
		return;
	}
	if (c->spec.cross)
		sv_pushv(out, c->spec.cross->run_prefix.v);
	else if (c->spec.loader.n)
		sv_pushv(out, c->spec.loader.v);
	sv_push(out, c->build.binary);
	sv_pushv(out, c->spec.run_args.v);
}

/* The command line of the verification run: an unbounded reference goes
 * through the meter, which cuts its stream at the expected size. */
static int verify_argv(struct cell *c, struct strvec *argv)
{
	if (c->spec.reference && c->spec.reference->unbounded) {
		if (c->spec.expected_bytes == UINT64_MAX) {
			cell_set_status(c, CELL_UNSUPPORTED, "reference %s never stops and its size is unknown",
					c->spec.reference->name);
			return -1;
		}
		meter_command(argv);
		sv_pushf(argv, "--max-bytes=%llu", (unsigned long long)c->spec.expected_bytes);
		sv_push(argv, "--sink=stdout");
		sv_push(argv, "--");
	}
	cell_program_argv(c, argv);
	return 0;
}

/* stderr goes to an unnamed temporary file, not a pipe: a program that
 * writes a lot there can never block while the checker reads stdout */
static int stderr_file(void)
{
	int err_fd = open("/tmp", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (err_fd < 0) {
		char tmpl[] = "/tmp/flagbench-stderr-XXXXXX";
		err_fd = mkostemp(tmpl, O_CLOEXEC);
		if (err_fd >= 0)
			unlink(tmpl);
	}
	return err_fd;
}

/* Starts the program with its stdout on a pipe and its allocator preloaded. */
static int start_program(const struct cell *c, struct child *ch, char **argv, int err_fd)
{
	ch->argv = argv;
	ch->in = CHILD_DEVNULL;
	ch->out = CHILD_PIPE;
	ch->err = err_fd >= 0 ? err_fd : CHILD_DEVNULL;
	struct strvec env = STRVEC_INIT;
	if (c->spec.preload) {
		sv_pushf(&env, "LD_PRELOAD=%s", c->spec.preload);
		ch->env = env.v;
	}
	int started = child_start(ch);
	sv_clear(&env);
	return started;
}

/* After a mismatch, drain a little more: if the program then closes its
 * stdout itself, its exit status is its own and a crash is reported as
 * a crash; if it keeps writing, closing the pipe stops it (SIGPIPE),
 * which is then no crash of its own. Says whether the program closed it. */
static int drain_after_mismatch(struct child *ch, double deadline)
{
	char sink[65536];
	uint64_t drained = 0;
	ssize_t dr;
	while (drained < (64u << 20) && (dr = child_read(ch, ch->out_fd, sink, sizeof(sink), deadline)) > 0)
		drained += (uint64_t)dr;
	return drained < (64u << 20);
}

/* The first line of what the program wrote to stderr, for a crash's
 * reason; closes err_fd. */
static void first_stderr_line(int err_fd, char *first, size_t size)
{
	struct strbuf errtext = STRBUF_INIT;
	char buf[4096];
	ssize_t r;
	if (err_fd >= 0 && lseek(err_fd, 0, SEEK_SET) == 0)
		while (errtext.len < 8192 && (r = read(err_fd, buf, sizeof(buf))) > 0)
			sb_add(&errtext, buf, (size_t)r);
	if (err_fd >= 0)
		close(err_fd);
	snprintf(first, size, "%.*s", (int)strcspn(errtext.buf ? errtext.buf : "", "\n"),
		 errtext.buf ? errtext.buf : "");
	sb_release(&errtext);
}

/* What the verification run saw, for the verdict. */
struct verify_seen {
	enum check_status cs;
	int mismatch_in_time, program_closed, pipe_held;
	struct child_exit ex;
	const char *first; /* stderr's first line */
};

/* The cell's status from the check and the exit: 0 when verified, else -1
 * with the status set. The order matters: the first cause that explains
 * the run wins. */
static int verdict(struct cell *c, const struct verify_seen *v, const struct check_report *rep, double timeout_s)
{
	const struct child_exit *ex = &v->ex;
	char how[160];
	describe_exit(ex, timeout_s, how, sizeof(how));
	const char *first = v->first;
	/* output proven wrong in time stays wrong_output, even when the drain
	 * after the mismatch (an endless, slow writer) ran into the deadline */
	if (v->mismatch_in_time && ex->outcome == CHILD_TIMED_OUT)
		cell_set_status(c, CELL_WRONG_OUTPUT, "%s", rep->message);
	else if (v->pipe_held)
		/* its stream never ended: timing it would time that process too */
		cell_set_status(c, CELL_TIMEOUT, "the program exited, but a process it started kept its stdout open: "
				"the stream never ended (that process group was killed)");
	else if (ex->outcome == CHILD_TIMED_OUT)
		cell_set_status(c, CELL_TIMEOUT, "verification run took longer than %gs", timeout_s);
	else if (ex->outcome == CHILD_INTERRUPTED || fb_interrupted)
		cell_set_status(c, CELL_SKIPPED, "interrupted");
	else if (ex->outcome == CHILD_SIGNALED && ex->signal == SIGILL)
		cell_set_status(c, CELL_UNSUPPORTED, "illegal instruction: this host cannot run code built with -march=%s",
				c->spec.march ? c->spec.march : "?");
	else if (v->program_closed && ex->outcome == CHILD_SIGNALED)
		cell_set_status(c, CELL_CRASHED, "%s%s%s", how, first[0] ? ": " : "", first);
	else if (v->program_closed && ex->outcome == CHILD_EXITED && ex->exit_code != 0)
		/* an exit status is the program's own answer, not a crash */
		cell_set_status(c, CELL_FAILED, "exited with status %d%s%s", ex->exit_code, first[0] ? ": " : "", first);
	else if (v->program_closed && ex->outcome != CHILD_EXITED)
		cell_set_status(c, CELL_FAILED, "%s%s%s", how, first[0] ? ": " : "", first);
	else if (v->cs == CHECK_MISMATCH)
		cell_set_status(c, CELL_WRONG_OUTPUT, "%s", rep->message);
	else if (v->cs == CHECK_CHECKER_FAILED)
		cell_set_status(c, CELL_UNSUPPORTED, "the check could not run: %s", rep->message);
	else if (v->cs == CHECK_BAD_ARGS)
		cell_set_status(c, CELL_UNSUPPORTED, "checker rejects the arguments: %s", rep->message);
	else if (v->cs != CHECK_OK)
		cell_set_status(c, CELL_WRONG_OUTPUT, "%s", rep->message[0] ? rep->message : "checker failed");
	else
		return 0;
	return -1;
}

int verify_cell(struct cell *c, double timeout_s)
{
	const struct checker *ck = checker_find(c->spec.family->check);
	int declared = c->spec.family->check_kind != CHECK_KIND_BUILTIN; /* check_json.h */
	if (!ck && !declared) {
		cell_set_status(c, CELL_UNSUPPORTED, "no checker '%s' for family %s", c->spec.family->check, c->spec.family->name);
		return -1;
	}
	struct strvec argv = STRVEC_INIT;
	if (verify_argv(c, &argv) < 0)
		return -1;
	int err_fd = stderr_file();
	struct child ch = CHILD_INIT;
	if (start_program(c, &ch, argv.v, err_fd) < 0) {
		cell_set_status(c, CELL_FAILED, "cannot run %s", argv.v[0]);
		if (err_fd >= 0)
			close(err_fd);
		sv_clear(&argv);
		return -1;
	}
	/* the checker reads a non-blocking pipe against the deadline, so a
	 * program that stops writing cannot hold the stage past timeout_s, nor
	 * one that exits while a process it started holds the pipe (pipe_held) */
	struct check_args a = { c->spec.size, (int)c->spec.run_args.n - 1, c->spec.run_args.v + 1 };
	struct check_report rep;
	memset(&rep, 0, sizeof(rep));
	double deadline = ch.started + timeout_s;
	fcntl(ch.out_fd, F_SETFL, O_NONBLOCK);
	check_set_source(&ch, deadline);
	struct verify_seen v;
	memset(&v, 0, sizeof(v));
	v.cs = declared ? check_json_run(c, ch.out_fd, deadline, &rep) : ck->check(&a, ch.out_fd, &rep);
	v.mismatch_in_time = v.cs == CHECK_MISMATCH && now_monotonic() < deadline;
	v.program_closed = v.cs != CHECK_MISMATCH || drain_after_mismatch(&ch, deadline);
	check_set_source(NULL, 0);
	close(ch.out_fd);
	ch.out_fd = -1;
	if (fb_interrupted)
		child_stop(&ch, CHILD_INTERRUPTED, &v.ex);
	else if (ch.pipe_held || now_monotonic() >= deadline)
		child_stop(&ch, CHILD_TIMED_OUT, &v.ex);
	else
		child_wait(&ch, timeout_s, &v.ex);
	v.pipe_held = ch.pipe_held;
	char first[300];
	first_stderr_line(err_fd, first, sizeof(first));
	v.first = first;
	int rc = verdict(c, &v, &rep, timeout_s);
	/* a declared check knows no size in advance: the verified output's
	 * becomes the stream's, so throughput is known and the meter fails a
	 * timed run that writes another amount */
	if (rc == 0 && declared && c->spec.expected_bytes == UINT64_MAX && c->spec.family->kind == KIND_STREAM)
		c->spec.expected_bytes = rep.bytes;
	sv_clear(&argv);
	return rc;
}
