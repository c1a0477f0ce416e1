/* check_json.c: see check_json.h */
#define _GNU_SOURCE
#include "pipeline/check_json.h"

#include <errno.h>
#include <fcntl.h>
#include <nettle/sha2.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/runcmd.h"

int check_json_reference(const struct plan *p, const struct family *f)
{
	/* plan order: the first cell of the same_as variant is the run's
	 * first configuration of it */
	for (size_t i = 0; i < p->n; i++) {
		const struct cell *c = &p->cells[i];
		if (c->spec.family == f && c->spec.variant && !strcmp(c->spec.variant->name, f->same_as) &&
		    !c->spec.cross && c->build.binary)
			return (int)i;
	}
	return -1;
}

static unsigned long count_lines(const char *b, size_t n)
{
	unsigned long l = 0;
	for (size_t i = 0; i < n; i++)
		l += b[i] == '\n';
	return l;
}

/* Reads from the baseline as much as the variant gave (n bytes), or, at
 * the variant's end (n == 0), one read to see whether the baseline ends
 * too. *got: the bytes now in b; returns the last read's result. */
static ssize_t read_baseline(struct child *base, char *b, size_t cap, long n, double deadline, size_t *got)
{
	ssize_t m = 1;
	*got = 0;
	while (*got < (size_t)n || (n == 0 && *got == 0 && m > 0)) {
		m = child_read(base, base->out_fd, b + *got, n ? (size_t)n - *got : cap, deadline);
		if (m <= 0)
			break;
		*got += (size_t)m;
		if (n == 0)
			break;
	}
	return m;
}

/* The whole line of buf[0..len) that holds byte at, quoted, without its
 * newline: a person compares two lines, not two 16-byte windows.  Bounded
 * to LINE_SHOWN bytes either side of the difference ("..." where cut). */
#define LINE_SHOWN 40
static void quote_line_at(const char *buf, size_t len, size_t at, char *out, size_t outn)
{
	size_t s = at, e = at;
	while (s > 0 && buf[s - 1] != '\n' && at - s < LINE_SHOWN)
		s--;
	while (e < len && buf[e] != '\n' && e - at < LINE_SHOWN)
		e++;
	int head = s > 0 && buf[s - 1] != '\n', tail = e < len && buf[e] != '\n';
	char q[4 * 2 * LINE_SHOWN + 1];
	check_quote(buf + s, e - s, q, sizeof(q));
	snprintf(out, outn, "%s%s%s", head ? "..." : "", q, tail ? "..." : "");
}

/* One chunk: the variant's n bytes in a against the baseline's got bytes
 * in b, which start at byte off, line line of both outputs. */
static enum check_status compare_chunk(const char *base_name, const char *a, size_t n, const char *b, size_t got,
				       uint64_t off, unsigned long line, struct check_report *rep)
{
	size_t k = 0;
	size_t both = got < n ? got : n;
	while (k < both && a[k] == b[k])
		k++;
	if (k < both) {
		char want[4 * 2 * LINE_SHOWN + 8], have[4 * 2 * LINE_SHOWN + 8];
		quote_line_at(b, got, k, want, sizeof(want));
		quote_line_at(a, n, k, have, sizeof(have));
		snprintf(rep->message, sizeof(rep->message),
			 "differs from %s at byte %llu (line %lu): expected \"%s\", got \"%s\"", base_name,
			 (unsigned long long)(off + k), line + count_lines(a, k), want, have);
		return CHECK_MISMATCH;
	}
	if (got < n) {
		snprintf(rep->message, sizeof(rep->message),
			 "output goes on past the end of %s's at byte %llu (line %lu)", base_name,
			 (unsigned long long)(off + got), line + count_lines(a, got));
		return CHECK_MISMATCH;
	}
	return CHECK_OK;
}

/* Reads the variant's output and the baseline's side by side until they
 * differ or both end; *base_ended: the baseline ended with the variant. */
static enum check_status compare_streams(const char *base_name, int fd, struct child *base, double deadline,
					 struct check_report *rep, int *base_ended)
{
	static char a[65536], b[65536];
	uint64_t off = 0;
	unsigned long line = 1;
	enum check_status st = CHECK_OK;
	for (;;) {
		long n = check_read(fd, a, sizeof(a));
		if (n < 0) {
			snprintf(rep->message, sizeof(rep->message), "reading the output: %s", strerror(errno));
			st = CHECK_IO_ERROR;
			break;
		}
		size_t got;
		ssize_t m = read_baseline(base, b, sizeof(b), n, deadline, &got);
		if (m < 0) {
			snprintf(rep->message, sizeof(rep->message), "same_as: reading %s's output: %s", base_name,
				 errno == ETIMEDOUT ? "timed out" : strerror(errno));
			st = CHECK_IO_ERROR;
			break;
		}
		if (n == 0) {
			*base_ended = got == 0;
			if (got)
				snprintf(rep->message, sizeof(rep->message),
					 "output ends at byte %llu (line %lu); the output of %s goes on", (unsigned long long)off,
					 line, base_name);
			st = got ? CHECK_MISMATCH : CHECK_OK;
			break;
		}
		st = compare_chunk(base_name, a, (size_t)n, b, got, off, line, rep);
		if (st != CHECK_OK)
			break;
		off += (uint64_t)n;
		line += count_lines(a, (size_t)n);
	}
	rep->bytes = off;
	return st;
}

static enum check_status same_as(const struct cell *c, int fd, double deadline, struct check_report *rep)
{
	const struct family *f = c->spec.family;
	if (!f->same_as_binary) {
		snprintf(rep->message, sizeof(rep->message),
			 "same_as: variant %s was not built", f->same_as);
		return CHECK_CHECKER_FAILED;
	}
	struct strvec argv = STRVEC_INIT;
	sv_push(&argv, f->same_as_binary);
	sv_pushv(&argv, c->spec.run_args.v);
	struct child base = CHILD_INIT;
	base.argv = argv.v;
	base.in = CHILD_DEVNULL;
	base.out = CHILD_PIPE;
	base.err = CHILD_DEVNULL;
	if (child_start(&base) < 0) {
		snprintf(rep->message, sizeof(rep->message), "same_as: cannot run %s", f->same_as_binary);
		sv_clear(&argv);
		return CHECK_CHECKER_FAILED;
	}
	fcntl(base.out_fd, F_SETFL, O_NONBLOCK);
	int base_ended = 0;
	enum check_status st = compare_streams(f->same_as, fd, &base, deadline, rep, &base_ended);
	close(base.out_fd);
	base.out_fd = -1;
	struct child_exit ex;
	if (base_ended)
		child_wait(&base, deadline - now_monotonic() > 0.1 ? deadline - now_monotonic() : 0.1, &ex);
	else
		child_stop(&base, CHILD_TIMED_OUT, &ex);
	if (st == CHECK_OK && (ex.outcome != CHILD_EXITED || ex.exit_code != 0)) {
		char how[128];
		describe_exit(&ex, 0, how, sizeof(how));
		snprintf(rep->message, sizeof(rep->message), "same_as: %s %s", f->same_as, how);
		st = CHECK_CHECKER_FAILED;
	}
	sv_clear(&argv);
	return st;
}

static const char *digest_for(const struct family *f, uint64_t n)
{
	const char *k;
	json_t *h;
	json_object_foreach(f->sha256, k, h) {
		uint64_t kn;
		if (parse_u64(k, &kn) == 0 && kn == n)
			return json_string_value(h);
	}
	return NULL;
}

static enum check_status sha256_check(const struct cell *c, int fd, struct check_report *rep)
{
	const char *want = digest_for(c->spec.family, c->spec.size);
	if (!want) {
		snprintf(rep->message, sizeof(rep->message), "sha256: no digest for N=%llu in family.json",
			 (unsigned long long)c->spec.size);
		return CHECK_BAD_ARGS;
	}
	struct sha256_ctx ctx;
	sha256_init(&ctx);
	static char buf[65536];
	long n;
	while ((n = check_read(fd, buf, sizeof(buf))) > 0) {
		sha256_update(&ctx, (size_t)n, (const uint8_t *)buf);
		rep->bytes += (uint64_t)n;
	}
	if (n < 0) {
		snprintf(rep->message, sizeof(rep->message), "reading the output: %s", strerror(errno));
		return CHECK_IO_ERROR;
	}
	uint8_t d[SHA256_DIGEST_SIZE];
	sha256_digest(&ctx, sizeof(d), d);
	char have[65];
	for (size_t i = 0; i < sizeof(d); i++)
		snprintf(have + 2 * i, 3, "%02x", d[i]);
	if (strcasecmp(have, want)) {
		snprintf(rep->message, sizeof(rep->message), "sha256 of the output (%llu bytes) is %s, expected %s",
			 (unsigned long long)rep->bytes, have, want);
		return CHECK_MISMATCH;
	}
	return CHECK_OK;
}

/* Writes all of buf to the non-blocking fd until the deadline. */
static int write_until(int fd, const char *buf, size_t n, double deadline)
{
	while (n) {
		ssize_t w = write(fd, buf, n);
		if (w > 0) {
			buf += w;
			n -= (size_t)w;
			continue;
		}
		if (w < 0 && errno != EAGAIN && errno != EINTR)
			return -1;
		double left = deadline - now_monotonic();
		if (left <= 0 || fb_interrupted) {
			errno = ETIMEDOUT;
			return -1;
		}
		struct pollfd p = { fd, POLLOUT, 0 };
		poll(&p, 1, left > 0.1 ? 100 : (int)(left * 1000) + 1);
	}
	return 0;
}

/* The check command's argv: {N} and {variant} replaced inside each word. */
static void check_command_argv(const struct cell *c, struct strvec *argv)
{
	const struct family *f = c->spec.family;
	for (size_t i = 0; i < f->check_command.n; i++) {
		struct strbuf w = STRBUF_INIT;
		for (const char *p = f->check_command.v[i]; *p;) {
			if (!strncmp(p, "{N}", 3)) {
				sb_addf(&w, "%llu", (unsigned long long)c->spec.size);
				p += 3;
			} else if (!strncmp(p, "{variant}", 9)) {
				sb_adds(&w, c->spec.variant ? c->spec.variant->name : c->spec.reference->name);
				p += 9;
			} else {
				sb_add(&w, p++, 1);
			}
		}
		sv_push(argv, w.buf ? w.buf : "");
		sb_release(&w);
	}
}

/* Copies the program's output into the checker's stdin, then closes it.
 * Returns 0, 1 when the checker stopped reading (the output is still
 * drained) or 2 at the deadline; *io: reading the output failed. */
static int feed_checker(struct child *ck, int fd, double deadline, struct check_report *rep, int *io)
{
	fcntl(ck->in_fd, F_SETFL, O_NONBLOCK);
	/* a checker that exits before reading everything must not kill us */
	void (*old)(int) = signal(SIGPIPE, SIG_IGN);
	static char buf[65536];
	long n;
	int wrote = 0;
	while ((n = check_read(fd, buf, sizeof(buf))) > 0) {
		rep->bytes += (uint64_t)n;
		if (!wrote && write_until(ck->in_fd, buf, (size_t)n, deadline) < 0)
			wrote = errno == ETIMEDOUT ? 2 : 1; /* 1: it stopped reading; keep draining */
	}
	*io = n < 0;
	signal(SIGPIPE, old);
	close(ck->in_fd);
	ck->in_fd = -1;
	return wrote;
}

/* The first line of the checker's stderr, for the message; closes err_fd. */
static void checker_first_line(int err_fd, char *first, size_t size)
{
	if (err_fd >= 0 && lseek(err_fd, 0, SEEK_SET) == 0) {
		ssize_t r = read(err_fd, first, size - 1);
		first[r > 0 ? r : 0] = '\0';
		first[strcspn(first, "\n")] = '\0';
	}
	if (err_fd >= 0)
		close(err_fd);
}

/* The checker's exit as a check status: exit 0 passes, another exit is a
 * mismatch, anything else says the check itself failed. */
static enum check_status checker_verdict(const char *cmd, int io, const struct child_exit *ex, double left,
					 const char *first, struct check_report *rep)
{
	char how[128];
	describe_exit(ex, left > 0 ? left : 0, how, sizeof(how));
	if (io) {
		snprintf(rep->message, sizeof(rep->message), "reading the output: %s", strerror(errno));
		return CHECK_IO_ERROR;
	}
	if (ex->outcome == CHILD_EXITED && ex->exit_code == 0)
		return CHECK_OK;
	if (ex->outcome == CHILD_EXITED && ex->exit_code != 127) {
		snprintf(rep->message, sizeof(rep->message), "check command %s %s%s%s", cmd, how,
			 first[0] ? ": " : "", first);
		return CHECK_MISMATCH;
	}
	/* killed, timed out or not found: the check failed, not the program */
	snprintf(rep->message, sizeof(rep->message), "check command %s %s%s%s", cmd,
		 ex->exit_code == 127 && ex->outcome == CHILD_EXITED ? "could not be run" : how,
		 first[0] ? ": " : "", first);
	return CHECK_CHECKER_FAILED;
}

static enum check_status command_check(const struct cell *c, int fd, double deadline, struct check_report *rep)
{
	const struct family *f = c->spec.family;
	struct strvec argv = STRVEC_INIT;
	check_command_argv(c, &argv);
	/* stderr into a temporary file: a chatty checker never blocks */
	int err_fd = open("/tmp", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	struct child ck = CHILD_INIT;
	ck.argv = argv.v;
	ck.in = CHILD_PIPE;
	ck.out = CHILD_DEVNULL;
	ck.dir = f->dir; /* the family's files are at hand */
	ck.err = err_fd >= 0 ? err_fd : CHILD_DEVNULL;
	if (child_start(&ck) < 0) {
		snprintf(rep->message, sizeof(rep->message), "check command %s cannot run", argv.v[0]);
		if (err_fd >= 0)
			close(err_fd);
		sv_clear(&argv);
		return CHECK_CHECKER_FAILED;
	}
	int io = 0;
	int wrote = feed_checker(&ck, fd, deadline, rep, &io);
	struct child_exit ex;
	double left = deadline - now_monotonic();
	if (wrote == 2 || left <= 0)
		child_stop(&ck, CHILD_TIMED_OUT, &ex);
	else
		child_wait(&ck, left, &ex);
	char first[300] = "";
	checker_first_line(err_fd, first, sizeof(first));
	enum check_status st = checker_verdict(argv.v[0], io, &ex, left, first, rep);
	sv_clear(&argv);
	return st;
}

static enum check_status drain(int fd, struct check_report *rep)
{
	static char buf[65536];
	long n;
	while ((n = check_read(fd, buf, sizeof(buf))) > 0)
		rep->bytes += (uint64_t)n;
	if (n < 0) {
		snprintf(rep->message, sizeof(rep->message), "reading the output: %s", strerror(errno));
		return CHECK_IO_ERROR;
	}
	return CHECK_OK;
}

enum check_status check_json_run(const struct cell *c, int fd, double deadline, struct check_report *rep)
{
	enum check_status st = CHECK_OK;
	switch (c->spec.family->check_kind) {
	case CHECK_KIND_SAME_AS:
		st = same_as(c, fd, deadline, rep);
		break;
	case CHECK_KIND_SHA256:
		st = sha256_check(c, fd, rep);
		break;
	case CHECK_KIND_COMMAND:
		st = command_check(c, fd, deadline, rep);
		break;
	case CHECK_KIND_NONE:
	case CHECK_KIND_BUILTIN:
		return drain(fd, rep);
	}
	/* a check that could not judge leaves the program to finish on its
	 * own, so its status is its own, not a SIGPIPE of ours */
	if (st == CHECK_BAD_ARGS || st == CHECK_CHECKER_FAILED) {
		struct check_report rest;
		memset(&rest, 0, sizeof(rest));
		drain(fd, &rest);
	}
	return st;
}
