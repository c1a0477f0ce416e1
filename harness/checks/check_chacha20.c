/* check_chacha20.c: `flagbench check chacha20 N`: the one digest line that
 * every chacha20 variant prints for N bytes (chacha20_ref.h), recomputed
 * with the reference.  No arguments after N.
 *
 * The expected line is computed before reading, while the variant runs
 * beside it, and remembered for the last few sizes: a suite checks many
 * binaries at each size, so the reference runs once per size, not once per
 * cell. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "checks/chacha20_ref.h"
#include "checks/check.h"

/* a few sizes: a suite may size each variant differently */
#define MEMO_SLOTS 8
static pthread_mutex_t memo_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
	int valid;
	uint64_t n;
	char line[CHACHA20_DIGEST_LINE + 1];
} memo[MEMO_SLOTS];
static unsigned memo_next;

/* Holds the lock while computing, so concurrent checks of one size share the work. */
static void expected_line(uint64_t n, char line[CHACHA20_DIGEST_LINE + 1])
{
	pthread_mutex_lock(&memo_lock);
	unsigned i = 0;
	while (i < MEMO_SLOTS && !(memo[i].valid && memo[i].n == n))
		i++;
	if (i == MEMO_SLOTS) {
		i = memo_next++ % MEMO_SLOTS;
		memo[i].valid = chacha20_bench_digest(n, memo[i].line) == 0;
		memo[i].n = n;
	}
	memcpy(line, memo[i].line, sizeof(memo[i].line));
	pthread_mutex_unlock(&memo_lock);
}

static enum check_status bad_args(const struct check_args *a, struct check_report *rep)
{
	if (a->argc > 0) {
		snprintf(rep->message, sizeof(rep->message), "chacha20 takes no arguments after N, got '%s'",
			 a->argv[0]);
		return CHECK_BAD_ARGS;
	}
	if (a->n > CHACHA20_BENCH_MAX) {
		snprintf(rep->message, sizeof(rep->message),
			 "N = %llu bytes is above %llu: the 32-bit block counter would wrap",
			 (unsigned long long)a->n, (unsigned long long)CHACHA20_BENCH_MAX);
		return CHECK_BAD_ARGS;
	}
	return CHECK_OK;
}

static uint64_t chacha20_expected_bytes(const struct check_args *a)
{
	struct check_report rep;
	return bad_args(a, &rep) == CHECK_OK ? CHACHA20_DIGEST_LINE : UINT64_MAX;
}

static enum check_status chacha20_check(const struct check_args *a, int fd, struct check_report *rep)
{
	enum check_status st = bad_args(a, rep);
	if (st != CHECK_OK)
		return st;
	char want[CHACHA20_DIGEST_LINE + 1];
	expected_line(a->n, want);

	/* keep the first 2 lines' worth for the message; count (and drain) the rest */
	char got[2 * CHACHA20_DIGEST_LINE];
	unsigned long len = 0;
	if (check_read_all(fd, got, sizeof(got), &len, rep) != CHECK_OK)
		return CHECK_IO_ERROR;
	uint64_t total = rep->bytes;
	if (total == CHACHA20_DIGEST_LINE && !memcmp(got, want, CHACHA20_DIGEST_LINE))
		return CHECK_OK;

	char q_got[300], q_want[400];
	size_t i = 0;
	while (i < len && i < CHACHA20_DIGEST_LINE && got[i] == want[i])
		i++;
	if (total == 0) {
		check_quote(want, CHACHA20_DIGEST_LINE, q_want, sizeof(q_want));
		snprintf(rep->message, sizeof(rep->message), "no output: expected the digest line \"%s\"", q_want);
	} else if (i == CHACHA20_DIGEST_LINE) {
		check_quote(got + i, len - i > 64 ? 64 : len - i, q_got, sizeof(q_got));
		snprintf(rep->message, sizeof(rep->message),
			 "extra output after the %d-byte digest line (%llu bytes in all): received \"%s\"",
			 CHACHA20_DIGEST_LINE, (unsigned long long)total, q_got);
	} else if (i == len) {
		check_quote(want + i, CHACHA20_DIGEST_LINE - i, q_want, sizeof(q_want));
		snprintf(rep->message, sizeof(rep->message),
			 "output ends after %llu bytes, inside the %d-byte digest line: missing \"%s\"",
			 (unsigned long long)total, CHACHA20_DIGEST_LINE, q_want);
	} else {
		/* name the 32-bit word (sum[0..15], fold[0..15]) that differs */
		size_t w = i / 9;
		size_t glen = 0;
		while (w * 9 + glen < len && glen < 8 && got[w * 9 + glen] != ' ' && got[w * 9 + glen] != '\n')
			glen++;
		char q_word[40], q_line[300];
		check_quote(got + w * 9, glen, q_word, sizeof(q_word));
		check_quote(got, len, q_line, sizeof(q_line));
		snprintf(rep->message, sizeof(rep->message),
			 "digest word %zu (%s[%zu]) differs at byte %zu: expected %.8s, received \"%s\"; "
			 "expected line \"%.287s\", received \"%s\"",
			 w, w < 16 ? "sum" : "fold", w % 16, i, want + w * 9, q_word, want, q_line);
	}
	return CHECK_MISMATCH;
}

const struct checker checker_chacha20 = {
	.family = "chacha20",
	.usage = "N",
	.check = chacha20_check,
	.expected_bytes = chacha20_expected_bytes,
};
