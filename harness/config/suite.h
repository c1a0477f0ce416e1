/* suite.h: configs/suites/NAME.json and the sizes it gives (format in
 * README.md, "Adding things"; the loader's conventions in
 * config/jsoncfg.h).  A SUITE argument is a name under configs/suites of
 * the project root, or a path to a JSON file.
 */
#ifndef FLAGBENCH_SUITE_H
#define FLAGBENCH_SUITE_H

#include <jansson.h>
#include <stdint.h>

#include "config/family.h"
#include "core/util.h"

/* A cross target: its own compiler and -march list; programs run under an
 * emulator, so their times are marked emulated. */
struct cross_target {
	char *compiler;        /* riscv64-linux-gnu-gcc */
	struct strvec march;   /* rv64gc, rv64gc_zbb, rv64gcv */
	struct strvec run_prefix; /* qemu-riscv64 -L /usr/riscv64-linux-gnu */
	char *packages;        /* what to install when missing */
	struct strvec cflags;  /* before -march, e.g. clang's --target=riscv64-linux-gnu */
	struct strvec variants; /* globs "family/variant" this target builds; empty: the suite's */
	json_t *sizes;         /* emulation is slow: sizes for these cells, as the suite's */
};

/* A named set of extra compiler flags crossed with the matrix ("flags" of
 * a suite); pgo: the set is the string "pgo", a two-phase profiled build. */
struct flag_set {
	char *name;
	struct strvec flags;
	int pgo;
};

struct suite {
	char *name, *path, *title;
	struct strvec variants;   /* globs "family/variant" */
	struct strvec compilers, opt, march, allocators;
	struct strvec placements; /* stream families: placement classes (topology.h) */
	struct strvec consumers;  /* stream families: splice, read, pv */
	int march_from_profile;
	json_t *sizes;            /* {"family": N, "family/variant": N} */
	struct cross_target *cross;
	size_t ncross;
	struct flag_set *flagsets; /* none: cells carry no flag-set name (ids as before) */
	size_t nflagsets;
	unsigned runs, warmup;
	double cell_budget;       /* seconds; "cell_budget" */
	int has_runs, has_warmup, has_cell_budget;
	unsigned layouts;         /* code and environment layouts per configuration (plan.h); 0: unset, one */
	double cooldown_s;        /* < 0: the profile's */
	struct strvec family_dirs; /* "family_dirs", relative to the suite file, resolved */
	json_t *json;
};

/* The most layouts a suite or --layouts may ask for. */
#define SUITE_LAYOUTS_MAX 64

int load_suite(const char *name_or_path, struct suite *s);

/* The matrix from the command line (struct matrix_opts, core/options.h:
 * --compilers, --opt, --march, --flags) in the shape of a suite's keys,
 * {"compilers": [..], "opt": [..], "march": [..] or "profile", "flags":
 * {NAME: [..] or "pgo"}}, only the dimensions given; *out NULL when none
 * is.  0, or -1 after a message (an empty entry, a set without '=').
 * results.json keeps it (run.matrix) so that a run is read again as it ran. */
struct matrix_opts;
int suite_matrix_parse(const struct matrix_opts *m, json_t **out);
/* Replaces the dimensions matrix holds (suite_matrix_parse's shape) in s,
 * checked as a suite's own keys are; origin names the source in messages
 * ("command line", a results.json).  0, or -1 after a message. */
int suite_set_matrix(struct suite *s, json_t *matrix, const char *origin);
void free_suite(struct suite *s);

/* The work size of a variant (or, with variant NULL, of the family's
 * references) in a suite: sizes["family/variant"], else sizes["family"],
 * else the family's default_size. */
uint64_t suite_size_for(const struct suite *s, const struct family *f, const char *variant);
/* The same lookup in any sizes object, with a fallback. */
uint64_t sizes_lookup(const json_t *sizes, const struct family *f, const char *variant, uint64_t fallback);

#endif
