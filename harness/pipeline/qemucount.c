/* qemucount.c: see qemucount.h */
#define _GNU_SOURCE
#include "pipeline/qemucount.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pipeline/counter_args.h"
#include "core/runcmd.h"

static const char trace_tag[] = "Trace ";

void trace_counter_feed(struct trace_counter *t, const char *buf, size_t n)
{
	const size_t tag = sizeof(trace_tag) - 1;
	for (size_t i = 0; i < n;) {
		if (t->matched < 0) {
			/* skip the rest of a line: memchr is what keeps this fast */
			const char *nl = memchr(buf + i, '\n', n - i);
			if (!nl)
				return;
			i = (size_t)(nl - buf) + 1;
			t->matched = 0;
			continue;
		}
		if (buf[i] == trace_tag[t->matched]) {
			if ((size_t)++t->matched == tag) {
				t->lines++;
				t->matched = -1;
			}
		} else {
			t->matched = buf[i] == '\n' ? 0 : -1;
		}
		i++;
	}
}

const char *qemucount_singlestep_flag(const char *emulator)
{
	char *argv[] = { (char *)emulator, "-h", NULL };
	struct strbuf out = STRBUF_INIT;
	struct child_exit ex;
	run_capture(argv, CHILD_DEVNULL, 30, 1 << 16, &out, NULL, &ex);
	/* qemu 8.1 renamed -singlestep, and later releases drop the old name */
	const char *flag = out.buf && strstr(out.buf, "-one-insn-per-tb") ? "-one-insn-per-tb" : "-singlestep";
	sb_release(&out);
	return flag;
}

long long qemucount_run(char *const *emu_prefix, char *const *prog_argv, double timeout_s, char *why, size_t n)
{
	const char *base = strrchr(emu_prefix[0], '/');
	base = base ? base + 1 : emu_prefix[0];
	if (strncmp(base, "qemu-", 5)) {
		snprintf(why, n, "no instruction counter for emulator %s (only qemu-user traces instructions)", base);
		return -1;
	}
	struct strvec argv = STRVEC_INIT;
	sv_push(&argv, emu_prefix[0]);
	sv_push(&argv, qemucount_singlestep_flag(emu_prefix[0]));
	sv_push(&argv, "-d");
	sv_push(&argv, "exec,nochain");
	sv_pushv(&argv, emu_prefix + 1);
	sv_pushv(&argv, prog_argv);

	struct child c = CHILD_INIT;
	c.argv = argv.v;
	c.in = CHILD_DEVNULL;
	c.out = CHILD_DEVNULL;
	c.err = CHILD_PIPE;
	struct child_exit ex;
	memset(&ex, 0, sizeof(ex));
	if (child_start(&c) < 0) {
		snprintf(why, n, "%s could not be started", base);
		sv_clear(&argv);
		return -1;
	}
	struct trace_counter tc = TRACE_COUNTER_INIT;
	char buf[65536];
	for (;;) {
		struct pollfd p = { c.err_fd, POLLIN, 0 };
		int pr = poll(&p, 1, 100);
		if (pr < 0 && errno != EINTR)
			break;
		/* child_wait below kills the group and reports the timeout */
		if (fb_interrupted || (timeout_s > 0 && now_monotonic() - c.started > timeout_s))
			break;
		if (pr <= 0)
			continue;
		ssize_t r = read(c.err_fd, buf, sizeof(buf));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		trace_counter_feed(&tc, buf, (size_t)r);
	}
	close(c.err_fd);
	c.err_fd = -1;
	child_wait(&c, timeout_s, &ex);
	sv_clear(&argv);
	if (ex.outcome != CHILD_EXITED || ex.exit_code != 0) {
		char how[128];
		describe_exit(&ex, timeout_s, how, sizeof(how));
		snprintf(why, n, "the traced run under %s %s", base, how);
		return -1;
	}
	if (!tc.lines) {
		snprintf(why, n, "%s traced no instruction (its -d exec log has no \"Trace\" lines)", base);
		return -1;
	}
	return (long long)tc.lines;
}

/* The program's argv at size n: binary, n, the cell's other arguments. */
static json_t *skipped(const char *why)
{
	return json_pack("{s:s}", "skipped", why);
}

json_t *qemucount_measure(const struct cell *c, const char *unit, double timeout_s)
{
	const struct cell_spec *sp = &c->spec;
	if (!sp->cross || !c->build.binary)
		return skipped("not an emulated cell with a binary");
	char *const *prefix = sp->cross->run_prefix.v;
	uint64_t n = sp->family->counter_size ? sp->family->counter_size : sp->size;
	if (n > sp->size)
		n = sp->size;
	if (n > QEMUCOUNT_MAX_SIZE)
		n = QEMUCOUNT_MAX_SIZE;
	const char *fixed = counters_fixed_size(c);
	if (fixed)
		return skipped(fixed);
	if (n < 2)
		return skipped("the size is below 2: no second size to count at");
	char why[512];
	long long count[2] = { -1, -1 };
	/* n/4 beside n, as callgrind counts: start-up cancels out, and no
	 * program is asked for size 0, which it may rightly reject */
	uint64_t sizes[2] = { n / 4 ? n / 4 : 1, n };
	for (int i = 0; i < 2; i++) {
		struct strvec prog = STRVEC_INIT;
		counters_argv_at(c, sizes[i], &prog);
		count[i] = qemucount_run(prefix, prog.v, timeout_s, why, sizeof(why));
		sv_clear(&prog);
		if (count[i] < 0)
			return skipped(why);
	}
	return json_pack("{s:s, s:I, s:s, s:f, s:n}", "source", "qemu", "size", (json_int_t)n, "unit", unit,
			 "instructions_per_unit", (double)(count[1] - count[0]) / (double)(n - sizes[0]), "cycles_per_unit");
}
