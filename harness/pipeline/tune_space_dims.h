/* tune_space_dims.h: a tune space's dimensions, and the flags never searched.
 *
 * The types of a space (tune_space.h says what a space and a point are)
 * and the one table of what is left out, with its reasons: the gcc and
 * clang readers (tune_space_gcc.h, tune_space_clang.h) consult it as they
 * build a space, and excluded carries its reasons to --list-space.  Apart
 * from tune_space.h, which includes it, so that the readers can build a
 * space without including the module that calls them.
 */
#ifndef FLAGBENCH_TUNE_SPACE_DIMS_H
#define FLAGBENCH_TUNE_SPACE_DIMS_H

#include <stddef.h>

#include "core/util.h"

/* The reasons excluded gives (tune_space_excluded and the readers). */
#define WHY_RESULTS "changes results"
#define WHY_ABI "changes the ABI"
#define WHY_INSTRUMENTS "instruments the code, not an optimization"
#define WHY_NOT_C "does nothing for a C program's code"
#define WHY_PROFILE "needs profile feedback"
#define WHY_DEBUG "changes only debug info or diagnostics"

enum tune_dim_kind {
	TUNE_DIM_FLAG,  /* -fX / -fno-X */
	TUNE_DIM_ENUM,  /* -fX=choice */
	TUNE_DIM_PARAM, /* --param=NAME=VALUE (gcc) */
	TUNE_DIM_MLLVM, /* -mllvm -NAME=VALUE (clang) */
	TUNE_DIM_OPT,   /* the -O level: -O3, -O2, -Os, -O1 (tune_space_opt.h) */
};

struct tune_dim {
	enum tune_dim_kind kind;
	char *name;      /* peel-loops, vect-cost-model, max-unroll-times, unroll-threshold */
	/* each choice as the compiler words it adds, one string: "-fpeel-loops",
	 * "-fno-peel-loops", "--param=max-unroll-times=8", "-mllvm -unroll-threshold=600"
	 * (a space separates two argv words; no flag has a space of its own) */
	char **choices;
	size_t nchoices; /* at least 2 */
	size_t start;    /* the start's choice: adds no flag */
	/* A dimension the -O levels set differently (tune_space_opt.h): for
	 * each choice of the -O dimension, the choice of this one that spells
	 * what that level does by itself; its start is then "" (as the -O
	 * level says).  NULL for a dimension every level sets alike. */
	size_t *level_choice;
};

struct tune_space {
	struct tune_dim *dims;
	size_t n;
	struct strvec excluded; /* "-ffast-math: changes results" */
	char *source;           /* how it was read: "gcc-12 -Q --help=optimizers --help=params -O2 -march=native" */
};

/* Why a dimension is left out ("changes results", "changes the ABI" ...),
 * or NULL when it is searched; unsafe: the reason is "changes results". */
const char *tune_space_excluded(enum tune_dim_kind kind, const char *name, int *unsafe);

/* Frees s's dimensions, notes and source, leaving it empty (defined in
 * tune_space_build.c, beside free_dim, which the gcc reader uses too). */
void tune_space_free(struct tune_space *s);

#endif
