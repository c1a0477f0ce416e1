/* plan.h: the matrix, expanded into cells.
 *
 * plan_build() crosses the suite's variant globs with compilers x opt x
 * march x flag sets x allocators, adds the families' reference programs (compiler
 * "none"), and drops nothing silently: a cell that cannot run here (a
 * missing compiler, a CPU feature the host lacks, an allocator that is not
 * installed, a -march the compiler rejects) is kept with status
 * "unsupported" and a reason.  --only filters cells by id glob; the rest
 * are kept as "skipped" so that tables still show them.
 *
 * Compilers: a suite names them plainly ("gcc", "clang-19") or by glob
 * ("gcc-*", "clang-*"): a glob stands for every NAME-VERSION on PATH that
 * matches it (gcc-11, gcc-12; never gcc-ar-12), in version order.  A named
 * compiler that is missing gives unsupported cells naming the Debian
 * package to install.  Flag sets ("flags" of a suite) add their name to
 * the config ("gcc-12/-O2/native/lto") and their flags after the profile's;
 * a "pgo" set marks the cell pgo (build.h does the two phases), and a
 * clang PGO cell without the llvm-profdata of its version is unsupported.
 */
#ifndef FLAGBENCH_PLAN_H
#define FLAGBENCH_PLAN_H

#include <jansson.h>
#include <stdint.h>

#include "config.h"
#include "stats.h"

enum cell_status {
	CELL_PENDING = 0, /* not finished yet */
	CELL_OK,
	CELL_BUILD_FAILED,
	CELL_UNSUPPORTED,
	CELL_WRONG_OUTPUT,
	CELL_CRASHED,
	CELL_TIMEOUT,
	CELL_SKIPPED,
};
const char *cell_status_name(enum cell_status s);
int cell_status_parse(const char *name, enum cell_status *out);
/* Whether the status counts as a failure for the exit code (1). */
int cell_status_failed(enum cell_status s);

struct compiler {
	char *name;     /* as the suite names it: gcc, clang-19 */
	char *path;     /* resolved on PATH, NULL when missing */
	char *version;  /* first line of --version */
	char *identity; /* sha256 of path and the whole --version text */
	int is_clang;   /* from --version: clang takes -fprofile-instr-*, has no per-pass -O flags */
	int major;      /* major version from --version, 0 when unknown */
};

struct cell {
	char *id;       /* fizzbuzz/sse@clang/-O3/x86-64-v3 */
	char *config;   /* clang/-O3/x86-64-v3 (+ /allocator), or "reference" */
	struct family *family;
	struct variant *variant;     /* NULL for a reference */
	struct reference *reference; /* NULL for a variant */
	struct compiler *compiler;   /* NULL for a reference */
	const struct cross_target *cross; /* a cross build run under an emulator, or NULL */
	char *opt, *march, *allocator;
	char *flagset;               /* the suite's flag-set name, or NULL when it has none */
	int pgo;                     /* a profile-guided build (flag set "pgo") */
	char *profdata;              /* clang pgo: the llvm-profdata of the compiler's version */
	uint64_t train_size;         /* pgo: size of the training run */
	double train_s;              /* pgo: the training run's seconds (NAN when not run here) */
	uint64_t text_bytes;         /* size of the binary's .text section, 0 when unknown */
	char *placement;             /* a placement class, or NULL for the profile's pins */
	char *consumer;              /* the meter's consumer, or NULL for the default (splice) */
	struct strvec cflags;        /* the full flag list given to the compiler */
	struct strvec run_args;      /* argv after the program: N and extra arguments */
	uint64_t size;
	uint64_t expected_bytes;     /* stream: exact output bytes, UINT64_MAX when unknown */
	char *preload;               /* allocator library to LD_PRELOAD, or NULL */

	enum cell_status status;
	char *reason;
	struct strvec warnings;
	char *binary;                /* path of the built binary (cache) */
	char binary_sha256[65];
	uint64_t binary_bytes;
	int same_binary_as;          /* index of the cell measured for this one, or -1 */
	int pin_producer, pin_consumer, pin_single;
	struct stats time;           /* seconds per run */
	int measured;
	double speedup;              /* NAN when unknown */
	double vs_glibc;             /* rate against the glibc-malloc twin; NAN when none */
	json_t *extra;               /* measure details: cooldown records, temperatures, ... */
	json_t *restored;            /* a finished cell read back by --resume */
};

struct plan {
	struct cell *cells;
	size_t n;
	struct compiler *compilers;
	size_t ncompilers;
	struct family *families;
	size_t nfamilies;
	struct strvec warnings;
};

struct plan_input {
	const struct suite *suite;
	const struct cpu_profile *profile;
	struct family *families; /* all loaded families */
	size_t nfamilies;
	const char *only;        /* glob on cell ids, or NULL */
	/* for tests: pretend the host lacks/has CPU flags and compilers */
	int (*has_cpu_flag)(const char *flag);
	int (*probe_march)(struct compiler *c, const char *march, char *why, size_t n);
};

int plan_build(const struct plan_input *in, struct plan *out);
void plan_free(struct plan *p);
void cell_set_status(struct cell *c, enum cell_status s, const char *fmt, ...) FB_PRINTF(3, 4);

/* Expands compiler names and globs (see above) into out; a glob that
 * matches nothing adds a warning. */
void expand_compilers(const struct strvec *names, struct strvec *out, struct strvec *warnings);
/* The Debian package that provides a compiler name, or NULL. */
char *compiler_package(const char *name);

/* Looks the compiler up on PATH and records its identity. */
void compiler_probe(struct compiler *c, const char *name);
/* Whether the compiler accepts -march=MARCH (compiles an empty unit). */
int compiler_accepts_march(struct compiler *c, const char *march, char *why, size_t n);

#endif
