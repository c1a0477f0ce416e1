/* check.h: the checker protocol (one checker per family, one table).
 *
 * A checker proves a variant's output right: it reads the whole stream
 * from fd and accepts it only if it is exactly the family's expected output
 * for the arguments (work size n plus the family's extra arguments).  On a
 * mismatch it names the first byte or line that differs, with what was
 * expected and what was received, in report->message.  Checkers are
 * streaming (constant memory) and about as fast as the fastest variant.
 *
 * `flagbench check FAMILY N [ARGS...]` (cmd/check.h) runs one on stdin; the verify stage
 * runs one in-process on a pipe from the variant.
 *
 * To add a family: write check_<family>.c defining a `const struct checker
 * checker_<family>` and add one CHECKER(<family>) line to CHECKERS below.
 */
#ifndef FLAGBENCH_CHECK_H
#define FLAGBENCH_CHECK_H

#include <stdint.h>
#include <stdio.h>

enum check_status {
	CHECK_OK = 0,
	CHECK_MISMATCH = 1, /* the output differs: report->message says where */
	CHECK_BAD_ARGS = 2, /* n or the extra arguments are not valid for the family */
	CHECK_IO_ERROR = 3, /* reading the stream failed */
	CHECK_CHECKER_FAILED = 4, /* the check itself could not run (check_json.h) */
};

struct check_args {
	uint64_t n;        /* the work size, argv[1] of the variant */
	int argc;          /* extra arguments after n (e.g. the string of yes) */
	char *const *argv;
};

struct check_report {
	uint64_t bytes;     /* bytes read from the stream */
	char message[1024]; /* why it was rejected; empty when ok */
};

struct checker {
	const char *family;
	const char *usage; /* "N [STRING]" */
	enum check_status (*check)(const struct check_args *args, int fd, struct check_report *report);
	/* Exact byte count of the expected output, or UINT64_MAX if it is not
	 * known in advance; the meter uses it to fail a short or long stream. */
	uint64_t (*expected_bytes)(const struct check_args *args);
};

#define CHECKERS \
	CHECKER(yes) \
	CHECKER(fizzbuzz) \
	CHECKER(chacha20) \
	CHECKER(bignum)

#define CHECKER(name) extern const struct checker checker_##name;
CHECKERS
#undef CHECKER

const struct checker *checker_find(const char *family);
/* " yes fizzbuzz ...": the families with a checker, each after a space. */
void checker_names(FILE *out);
/* `flagbench check`: FAMILY's checker on stdin for the work size SIZE
 * (text) and the extra words argv; says the verdict and returns the exit
 * code: 0 ok, 1 mismatch or a read error, 2 an unknown family or bad
 * arguments. */
int check_stdin(const char *family, const char *size, int argc, char **argv);

/* Helpers for checkers: read with EINTR handling; describe a byte. */
long check_read(int fd, void *buf, unsigned long n);
struct child;
/* The program whose pipe check_read() reads (the verify stage), or NULL
 * (stdin): reads of its non-blocking pipe wait at most until deadline
 * (ETIMEDOUT) and end when it has exited but a process it started holds
 * the pipe (ECHILD; see child_read in core/runcmd.h), so a program that
 * stops writing cannot hold its checker. */
void check_set_source(struct child *c, double deadline);
/* Reads the stream to its end, keeping its first cap bytes in keep (*kept
 * of them) and counting all in report->bytes; a read error fills the
 * report and returns CHECK_IO_ERROR.  For checkers of short outputs. */
enum check_status check_read_all(int fd, char *keep, unsigned long cap, unsigned long *kept,
				 struct check_report *report);
void check_quote(const char *data, unsigned long n, char *out, unsigned long outn);

#endif
