/* family.h: one family folder's family.json: variants, references, the
 * declared check, inputs and build command (format in README.md, "Adding
 * things"; the loader's conventions in config/jsoncfg.h).  Finding the
 * family folders is config.h's.
 */
#ifndef FLAGBENCH_FAMILY_H
#define FLAGBENCH_FAMILY_H

#include <jansson.h>
#include <stdint.h>

#include "core/util.h"

enum family_kind { KIND_STREAM, KIND_COMPUTE };

/* The language of a variant, decided here from its sources' extensions
 * (.cc .cpp .cxx .C are C++) or, for a family's own build system, from
 * its commands ({cxx} or {cxxflags}): a variant with any C++ links with
 * the compiler's C++ driver (pipeline/compilers.h). */
enum source_lang { LANG_C = 0, LANG_CXX };
const char *source_lang_name(enum source_lang l); /* "c", "c++" */
/* Whether a file name is a C++ source by its extension. */
int is_cxx_source(const char *name);

struct variant {
	char *name, *title, *source; /* source: NAME.c, NAME.cpp..., or the folder NAME/ (family_dir.h) */
	struct strvec sources;       /* every C and C++ file compiled and linked: source, or the folder's */
	enum source_lang lang;       /* LANG_CXX when any source is C++ (the link's language) */
	int mixed;                   /* the sources mix C and C++ */
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
	struct strvec build_command; /* the first step ("command", or "commands"[0]) */
	struct strvec *build_steps;  /* every step, in order: "commands", or "command" alone */
	size_t nbuild_steps;
	char *build_binary;
	char *std;            /* "std": c++20, c17: -std= for the variants of its language; NULL: the default */
	char *version;        /* "version_file"'s first line (a source package's version), or NULL */
	char *version_file;   /* its path in the family's folder as declared, or NULL: none declared */
	char *baseline;       /* variant name */
	struct strvec libs;   /* -l names, e.g. gmp */
	struct strvec args;   /* extra arguments after N for every variant */
	struct variant *variants;
	size_t nvariants;
	struct reference *references;
	size_t nreferences;
	json_t *json;
};

/* The -std= word's value for a variant ("std" of its language), or NULL. */
const char *family_std_for(const struct family *f, const struct variant *v);

/* The language of a family's sources (family_lang.c, for load_family):
 * a variant's files decide it (.cc .cpp .cxx .C are C++, .c is C; any
 * C++ file makes the variant C++, both make it mixed).  "std" (c17,
 * gnu11, c++20, gnu++17) is given as -std= to the variants of its
 * language; a family with its own build system sets its own, and a folder
 * mixing C and C++ takes none (one compile of both would hand it to both). */
void variant_lang_set(struct variant *v); /* v->lang and v->mixed from v->sources */
/* Appends folder's C and C++ files (no dotfiles), sorted, to out; their
 * number, or -1 where the folder cannot be read. */
int family_source_files(const char *folder, struct strvec *out);
struct cfg;
/* "std" of family.json into f->std, checked against the variants (loaded
 * first) and the build command: 0, or -1 after a message. */
int family_std_load(struct cfg *c, json_t *root, struct family *f);
/* The family in folder dir (holding family.json); 0, or -1 after a message. */
int load_family(const char *dir, struct family *f);
void free_family(struct family *f);
const char *family_kind_name(enum family_kind k);

#endif
