/* check_yes.c: `flagbench check yes N [STRING...]`: exactly N lines of
 * STRING (default "y"; several words are joined by spaces as yes(1) does). */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks/check.h"
#include "core/util.h"

static char *yes_line(const struct check_args *a, size_t *len)
{
	struct strbuf sb = STRBUF_INIT;
	if (a->argc == 0)
		sb_adds(&sb, "y");
	for (int i = 0; i < a->argc; i++) {
		if (i)
			sb_adds(&sb, " ");
		sb_adds(&sb, a->argv[i]);
	}
	sb_adds(&sb, "\n");
	*len = sb.len;
	return sb_detach(&sb);
}

static uint64_t yes_expected_bytes(const struct check_args *a)
{
	size_t len;
	free(yes_line(a, &len));
	if (a->n > UINT64_MAX / len)
		return UINT64_MAX;
	return a->n * len;
}

static enum check_status yes_check(const struct check_args *a, int fd, struct check_report *rep)
{
	size_t L;
	char *line = yes_line(a, &L);
	uint64_t total = yes_expected_bytes(a);
	/* A pattern of whole lines at least 256 KiB long, so one memcmp covers a
	 * whole read at any phase within the line. */
	size_t reps = (256 * 1024) / L + 2;
	size_t P = reps * L;
	char *pattern = xmalloc(P);
	for (size_t i = 0; i < reps; i++)
		memcpy(pattern + i * L, line, L);
	size_t bufsz = 128 * 1024;
	char *buf = xmalloc(bufsz);
	uint64_t off = 0;
	enum check_status st = CHECK_OK;
	char got[128], want[128];
	for (;;) {
		long r = check_read(fd, buf, bufsz);
		if (r < 0) {
			snprintf(rep->message, sizeof(rep->message), "read error after %llu bytes",
				 (unsigned long long)off);
			st = CHECK_IO_ERROR;
			break;
		}
		if (r == 0)
			break;
		size_t n = (size_t)r;
		size_t phase = (size_t)(off % L);
		if (off + n > total) {
			/* compare what is still expected, then report the surplus */
			size_t ok = (size_t)(total - off);
			if (memcmp(buf, pattern + phase, ok) == 0) {
				check_quote(buf + ok, n - ok > 40 ? 40 : n - ok, got, sizeof(got));
				snprintf(rep->message, sizeof(rep->message),
					 "extra output after line %llu (byte %llu): received \"%s\"",
					 (unsigned long long)a->n, (unsigned long long)total, got);
				off += n;
				st = CHECK_MISMATCH;
				break;
			}
		}
		if (memcmp(buf, pattern + phase, n) != 0) {
			size_t i = 0;
			while (buf[i] == pattern[phase + i])
				i++;
			uint64_t bad = off + i;
			uint64_t lineno = bad / L + 1;
			/* show the received line from its start where it is in this buffer */
			size_t from = i >= (size_t)(bad % L) ? i - (size_t)(bad % L) : 0;
			size_t glen = 0;
			while (from + glen < n && buf[from + glen] != '\n' && glen < 40)
				glen++;
			check_quote(buf + from, glen, got, sizeof(got));
			check_quote(line, L - 1 > 40 ? 40 : L - 1, want, sizeof(want));
			snprintf(rep->message, sizeof(rep->message),
				 "line %llu differs at byte %llu: expected \"%s\", received \"%s\"",
				 (unsigned long long)lineno, (unsigned long long)bad, want, got);
			off += n;
			st = CHECK_MISMATCH;
			break;
		}
		off += n;
	}
	if (st == CHECK_OK && off < total) {
		snprintf(rep->message, sizeof(rep->message),
			 "output ends after %llu bytes (line %llu), expected %llu lines (%llu bytes)",
			 (unsigned long long)off, (unsigned long long)(off / L + 1), (unsigned long long)a->n,
			 (unsigned long long)total);
		st = CHECK_MISMATCH;
	}
	rep->bytes = off;
	free(buf);
	free(pattern);
	free(line);
	return st;
}

const struct checker checker_yes = {
	.family = "yes",
	.usage = "N [STRING...]",
	.check = yes_check,
	.expected_bytes = yes_expected_bytes,
};
