/* check_bignum.c: `flagbench check bignum N OPERATION`.
 *
 * The bignum family's variants compute different things, so the check
 * arguments name the operation: OPERATION is "fp_mul" or "ec_mul".
 * Convention: each variant in variants/bignum/family.json has
 * "args": ["<its name>"]; the core passes a variant's args after N both to
 * the variant (which accepts only its own name there) and to this checker.
 * The expected line comes from bignum_ref.c (by other roads than the
 * variants take) and is remembered for the last N of each operation. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "checks/bignum_ref.h"
#include "checks/check.h"

enum op { OP_FP_MUL, OP_EC_MUL, OP_COUNT };

static const struct {
	const char *name;
	size_t line;
	void (*expected)(uint64_t n, char *line);
} ops[OP_COUNT] = {
	[OP_FP_MUL] = { "fp_mul", BIGNUM_FP_MUL_LINE, bignum_fp_mul_expected },
	[OP_EC_MUL] = { "ec_mul", BIGNUM_EC_MUL_LINE, bignum_ec_mul_expected },
};

static pthread_mutex_t memo_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
	int valid;
	uint64_t n;
	char line[BIGNUM_EC_MUL_LINE + 1];
} memo[OP_COUNT];

static int parse_op(const struct check_args *a, struct check_report *rep)
{
	if (a->argc == 0) {
		snprintf(rep->message, sizeof(rep->message),
			 "the operation after N is missing: fp_mul or ec_mul (family.json gives it as the variant's "
			 "\"args\")");
		return -1;
	}
	if (a->argc > 1) {
		snprintf(rep->message, sizeof(rep->message), "one operation name after N, got %d arguments", a->argc);
		return -1;
	}
	for (int i = 0; i < OP_COUNT; i++)
		if (!strcmp(a->argv[0], ops[i].name))
			return i;
	snprintf(rep->message, sizeof(rep->message), "unknown operation '%s': expected fp_mul or ec_mul", a->argv[0]);
	return -1;
}

static uint64_t bignum_expected_bytes(const struct check_args *a)
{
	struct check_report rep;
	int op = parse_op(a, &rep);
	return op < 0 ? UINT64_MAX : ops[op].line;
}

static enum check_status bignum_check(const struct check_args *a, int fd, struct check_report *rep)
{
	int op = parse_op(a, rep);
	if (op < 0)
		return CHECK_BAD_ARGS;
	const size_t L = ops[op].line;
	char want[BIGNUM_EC_MUL_LINE + 1];
	pthread_mutex_lock(&memo_lock);
	if (!memo[op].valid || memo[op].n != a->n) {
		ops[op].expected(a->n, memo[op].line);
		memo[op].valid = 1;
		memo[op].n = a->n;
	}
	memcpy(want, memo[op].line, L + 1);
	pthread_mutex_unlock(&memo_lock);

	char got[2 * BIGNUM_EC_MUL_LINE];
	unsigned long len = 0;
	if (check_read_all(fd, got, sizeof(got), &len, rep) != CHECK_OK)
		return CHECK_IO_ERROR;
	uint64_t total = rep->bytes;
	if (total == L && !memcmp(got, want, L))
		return CHECK_OK;

	size_t i = 0;
	while (i < len && i < L && got[i] == want[i])
		i++;
	char q_got[600], q_want[300];
	check_quote(want, L, q_want, sizeof(q_want));
	if (i == L) {
		check_quote(got + i, len - i > 64 ? 64 : len - i, q_got, sizeof(q_got));
		snprintf(rep->message, sizeof(rep->message), "%s %llu: extra output after the result line: received \"%s\"",
			 ops[op].name, (unsigned long long)a->n, q_got);
	} else {
		check_quote(got, len > L + 20 ? L + 20 : len, q_got, sizeof(q_got));
		snprintf(rep->message, sizeof(rep->message),
			 "%s %llu: %s at byte %zu: expected \"%s\", received \"%s\"", ops[op].name,
			 (unsigned long long)a->n, i == len ? "output ends" : "differs", i, q_want, q_got);
	}
	return CHECK_MISMATCH;
}

const struct checker checker_bignum = {
	.family = "bignum",
	.usage = "N fp_mul|ec_mul",
	.check = bignum_check,
	.expected_bytes = bignum_expected_bytes,
};
