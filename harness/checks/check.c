/* check.c: the checker table */
#define _GNU_SOURCE
#include "checks/check.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/runcmd.h"
#include "core/util.h"

static const struct checker *const checkers[] = {
#define CHECKER(name) &checker_##name,
	CHECKERS
#undef CHECKER
};

const struct checker *checker_find(const char *family)
{
	for (size_t i = 0; i < sizeof(checkers) / sizeof(checkers[0]); i++)
		if (!strcmp(checkers[i]->family, family))
			return checkers[i];
	return NULL;
}

static struct child *source;
static double source_deadline;

void check_set_source(struct child *c, double deadline)
{
	source = c;
	source_deadline = deadline;
}

long check_read(int fd, void *buf, unsigned long n)
{
	/* Ctrl-C (fb_interrupted) and the deadline end a verification at once */
	return (long)child_read(source, fd, buf, n, source_deadline);
}

enum check_status check_read_all(int fd, char *keep, unsigned long cap, unsigned long *kept,
				 struct check_report *report)
{
	char buf[4096];
	unsigned long len = 0;
	uint64_t total = 0;
	for (;;) {
		long r = check_read(fd, buf, sizeof(buf));
		if (r < 0) {
			snprintf(report->message, sizeof(report->message), "read error after %llu bytes",
				 (unsigned long long)total);
			report->bytes = total;
			*kept = len;
			return CHECK_IO_ERROR;
		}
		if (r == 0)
			break;
		unsigned long take = cap - len < (unsigned long)r ? cap - len : (unsigned long)r;
		memcpy(keep + len, buf, take);
		len += take;
		total += (uint64_t)r;
	}
	report->bytes = total;
	*kept = len;
	return CHECK_OK;
}

void check_quote(const char *data, unsigned long n, char *out, unsigned long outn)
{
	unsigned long o = 0;
	if (outn == 0)
		return;
	for (unsigned long i = 0; i < n && o + 5 < outn; i++) {
		unsigned char c = (unsigned char)data[i];
		if (c == '\n') {
			out[o++] = '\\';
			out[o++] = 'n';
		} else if (c == '\\' || c == '"') {
			out[o++] = '\\';
			out[o++] = (char)c;
		} else if (c < 32 || c >= 127) {
			o += (unsigned long)snprintf(out + o, outn - o, "\\x%02x", c);
		} else {
			out[o++] = (char)c;
		}
	}
	out[o] = '\0';
}

void checker_names(FILE *out)
{
	for (size_t i = 0; i < sizeof(checkers) / sizeof(checkers[0]); i++)
		fprintf(out, " %s", checkers[i]->family);
}

int check_stdin(const char *family, const char *size, int argc, char **argv)
{
	const struct checker *c = checker_find(family);
	if (!c) {
		error("no checker for family '%s'", family);
		return EXIT_USAGE;
	}
	struct check_args a = { 0, argc, argv };
	if (parse_u64(size, &a.n) < 0) {
		error("bad size '%s': expected a non-negative integer", size);
		return EXIT_USAGE;
	}
	struct check_report rep;
	memset(&rep, 0, sizeof(rep));
	enum check_status st = c->check(&a, 0, &rep);
	switch (st) {
	case CHECK_OK:
		fprintf(stderr, "flagbench: ok: %s %s: %llu bytes\n", family, size, (unsigned long long)rep.bytes);
		return 0;
	case CHECK_MISMATCH:
		error("%s", rep.message);
		return 1;
	case CHECK_BAD_ARGS:
		error("%s (usage: flagbench check %s %s)", rep.message[0] ? rep.message : "bad arguments", c->family,
		      c->usage);
		return EXIT_USAGE;
	case CHECK_IO_ERROR:
	case CHECK_CHECKER_FAILED:
		error("%s", rep.message[0] ? rep.message : "read error");
		return 1;
	}
	return 1;
}
