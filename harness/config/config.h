/* config.h: CPU profiles, suites and family.json files (formats in README.md, "Adding things").
 *
 * Everything is read with jansson and checked for shape and range here,
 * once; later stages trust these structs.  A bad value is reported as
 * "flagbench: FILE:LINE:COLUMN: what is wrong" (jsonpos finds the place)
 * and makes the loader return -1; the caller exits with code 2.
 *
 * Names: a PROFILE or SUITE argument is a name under configs/cpus or
 * configs/suites of the project root, or a path to a JSON file.  The
 * profile "host" is not a file: it is probed from /proc and /sys.
 */
#ifndef FLAGBENCH_CONFIG_H
#define FLAGBENCH_CONFIG_H

#include <jansson.h>
#include <stdint.h>

#include "core/util.h"

#define PIN_NONE (-1)

enum family_kind { KIND_STREAM, KIND_COMPUTE };

struct cpu_profile {
	char *name, *path;     /* path NULL for the probed host */
	char *title;
	char *match;           /* text expected in the host's cpu model, or NULL */
	struct strvec march;   /* "default" means no -march flag */
	struct strvec cflags;  /* added to every build on this profile */
	/* pins: a CPU number, or PIN_NONE; a class name (topology) in *_class */
	int pin_producer, pin_consumer, pin_single;
	char *pin_class;       /* e.g. "same_l3": the pair is chosen from the topology */
	double cooldown_s;
	double cooldown_below_c; /* NAN when not set */
	double cooldown_max_wait_s;
	json_t *json;          /* as loaded (for results.json "profile") */
};

struct variant {
	char *name, *title, *source; /* source: NAME.c, or the folder NAME/ (family_dir.h) */
	struct strvec sources;       /* every .c file compiled and linked: source, or the folder's */
	struct strvec requires_flags, requires_cpu, args;
	/* globs on -march: elsewhere the cell is unsupported (RISC-V vector
	 * intrinsics need "rv64*v*"); empty: any */
	struct strvec requires_march;
	struct strvec include_dirs, defines, libs; /* added to the family's */
};

/* An external program measured beside the variants (GNU yes). */
struct reference {
	char *name, *title;
	struct strvec argv;   /* argv; "{N}" is replaced by the size */
	int unbounded;        /* never stops by itself: the meter cuts it at the expected bytes */
};

/* How a family's output is checked: a checker built into flagbench
 * (check.h), or one declared in family.json (checks/check_json.h). */
enum check_kind {
	CHECK_KIND_BUILTIN = 0, /* check names a checker in check.h */
	CHECK_KIND_SAME_AS,     /* equal to the output of a variant (same_as) */
	CHECK_KIND_SHA256,      /* sha256 {"N": "hex"} */
	CHECK_KIND_COMMAND,     /* check_command reads the output on stdin, exit 0 = right */
	CHECK_KIND_NONE,        /* not checked: the tables mark the cells unchecked */
};

struct family {
	char *name, *dir, *title;
	enum family_kind kind;
	char *unit;           /* lines, bytes, blocks, ops */
	char *rate_unit;      /* compute: "bytes/s", "ops/s" */
	uint64_t default_size;
	uint64_t counter_size; /* size for instruction counting under callgrind; 0: the run's */
	uint64_t train_size;  /* PGO training run's size; 0: counter_size, else the cell's */
	char *check;          /* checker name (check.h), or the JSON check's kind */
	enum check_kind check_kind;
	char *same_as;        /* CHECK_KIND_SAME_AS: the variant whose output is right */
	json_t *sha256;       /* CHECK_KIND_SHA256: {"N": "hex"} */
	struct strvec check_command; /* CHECK_KIND_COMMAND: argv, "{N}" replaced */
	char *same_as_binary; /* set after the build: the same_as variant of the run's first config */
	struct strvec include_dirs, defines; /* absolute -I folders, -D words */
	int args_template;    /* args hold "{N}" or "{input}", or "pass_size": false: they are the whole argv (no N first) */
	char *input_file;     /* "input": {"file": F}: shipped with the family (absolute), or NULL */
	struct strvec input_command; /* "input": {"command": [...]}: its stdout, "{N}" replaced */
	/* "build": {"command": [...], "binary": "{src}/prog"}: the family's own
	 * build system, run in a private copy of the variant's source tree
	 * (build.h); empty when the harness compiles the variants itself */
	struct strvec build_command;
	char *build_binary;
	char *version;        /* "version_file"'s first line (a source package's version), or NULL */
	char *baseline;       /* variant name */
	struct strvec libs;   /* -l names, e.g. gmp */
	struct strvec args;   /* extra arguments after N for every variant */
	struct variant *variants;
	size_t nvariants;
	struct reference *references;
	size_t nreferences;
	json_t *json;
};

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

int load_cpu_profile(const char *name_or_path, struct cpu_profile *p);
int load_suite(const char *name_or_path, struct suite *s);
int load_family(const char *dir, struct family *f);
void free_cpu_profile(struct cpu_profile *p);
void free_suite(struct suite *s);
void free_family(struct family *f);

/* All families under variants/ (sorted by name); returns count or -1. */
int load_all_families(struct family **out);
/* The same, then the families of each of dirs: a family folder (holding
 * family.json) or a folder of family folders.  A family name seen twice
 * is an error. */
int load_families(const struct strvec *dirs, struct family **out);

/* Names of the profiles or suites available, for listings and errors
 * ("host" first for profiles). */
void list_config_names(const char *kind, struct strvec *out);

/* The work size of a variant (or, with variant NULL, of the family's
 * references) in a suite: sizes["family/variant"], else sizes["family"],
 * else the family's default_size. */
uint64_t suite_size_for(const struct suite *s, const struct family *f, const char *variant);
/* The same lookup in any sizes object, with a fallback. */
uint64_t sizes_lookup(const json_t *sizes, const struct family *f, const char *variant, uint64_t fallback);

/* Each of the suite's variant globs must match a variant of fams: else
 * "FILE:LINE:COLUMN: variants[i]: 'GLOB' matches no variant; did you mean
 * 'NEAR'?" and -1 (exit 2). */
int suite_check_globs(const struct suite *s, const struct family *fams, size_t nfams);

const char *family_kind_name(enum family_kind k);

/* configs/KIND/NAME.json of the project, or the path itself. */
char *cfg_config_path(const char *kind, const char *name_or_path);
/* "unknown cpu profile 'X' (did you mean 'Y'?); available: ..."; returns -1. */
int cfg_unknown_name(const char *kind, const char *what, const char *name);

#endif
