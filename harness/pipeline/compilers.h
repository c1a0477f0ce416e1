/* compilers.h: the compilers a suite names, found and asked.
 *
 * A suite names compilers plainly ("gcc", "clang-19") or by glob
 * ("gcc-*", "clang-*": every NAME-VERSION on PATH that matches, in version
 * order, never gcc-ar-12); a compiler is looked up on PATH and known by
 * its identity (its path and whole --version text, part of every cache
 * key), and asked whether it takes a -march.  A missing one is named with
 * the Debian package that provides it.
 *
 * A compiler runs as it is named on PATH (/usr/bin/clang++, not the
 * clang binary it links to: clang reads its argv[0] to pick C or C++),
 * while its identity keeps the resolved path.  C++ sources build with the
 * compiler's C++ driver (compiler_probe_cxx): gcc-12 -> g++-12, clang-14
 * -> clang++-14, cc -> c++, found beside the C driver and of the same
 * release; missing or of another release, the driver records why, naming
 * the Debian package that brings it.
 */
#ifndef FLAGBENCH_COMPILERS_H
#define FLAGBENCH_COMPILERS_H

#include <stddef.h>

#include "config/family.h"
#include "core/util.h"

struct compiler {
	char *name;     /* as the suite names it: gcc, clang-19; a C++ driver's: g++, clang++-19 */
	char *path;     /* found on PATH and run as named (symlinks kept), NULL when missing */
	char *version;  /* first line of --version */
	char *release;  /* the version number of --version: 12.2.0, 14.0.6; NULL when unknown */
	char *identity; /* sha256 of the resolved path and the whole --version text */
	enum source_lang lang;         /* the language it drives: LANG_CXX for g++, clang++ */
	char *missing;                 /* a C++ driver: why it cannot be used, or NULL */
	struct compiler *c_driver; /* a C++ driver: the matrix's C compiler it belongs to, or NULL */
	struct compiler *cxx;      /* a C compiler: its C++ driver once probed (plan.h), or NULL */
	int is_clang;   /* from --version: clang takes -fprofile-instr-*, has no per-pass -O flags */
	int major;      /* major version from --version, 0 when unknown */
	char *const *target_flags; /* a cross target's cflags (--target=...), borrowed; NULL: none */
	int cross;                 /* builds for another machine: the probe also needs its C library */
};

/* Expands compiler names and globs (see the top) into out; a glob that
 * matches nothing adds a warning. */
void expand_compilers(const struct strvec *names, struct strvec *out, struct strvec *warnings);
/* The Debian package that provides a compiler name, or NULL. */
char *compiler_package(const char *name);

/* Looks the compiler up on PATH and records its identity. */
void compiler_probe(struct compiler *c, const char *name);
/* The C++ driver's name of a C compiler (gcc-12 -> g++-12, clang ->
 * clang++, cc -> c++), the name itself for a C++ driver, or NULL when none is
 * known. */
char *compiler_cxx_name(const char *name);
/* Probes into cxx the C++ driver of c, beside c on PATH; cxx->path NULL
 * with cxx->missing set when it is absent or of another release.  Where c
 * is itself a C++ driver (g++), probes its C compiler instead (gcc) and
 * sets c->c_driver to it when found. */
void compiler_probe_cxx(struct compiler *cxx, struct compiler *c);
/* The -x word of the compiler's language: "c" or "c++". */
const char *compiler_x(const struct compiler *c);
/* Whether the compiler accepts -march=MARCH (compiles an empty unit). */
int compiler_accepts_march(struct compiler *c, const char *march, char *why, size_t n);
/* The values given on the command line (NULL: the suite's), checked
 * before anything builds: with compilers, each one found; each -O level
 * and -march accepted by each compiler found (an empty unit compiled with
 * it).  0, or -1 with why ("--march X: gcc does not accept ..."). */
struct matrix_values {
	int compilers;
	const struct strvec *opt, *march;
};
int compilers_check_values(struct compiler *comps, size_t n, const struct matrix_values *v, char *why, size_t wn);
/* clang PGO merges raw profiles with llvm-profdata of the same version: its path, or NULL. */
char *compiler_profdata(const struct compiler *c);
void compiler_free(struct compiler *c);

#endif
