/* test_tune_space.c: the space `flagbench tune` searches (pipeline/tune_space.h):
 * gcc's listings and clang's -print-all-options parsed from lines the
 * real gcc 12 and clang 14 printed, what is left out and why, the points'
 * flags and keys, and the space of the gcc and clang on PATH (skipped
 * where there is none). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline/tune_space.h"

/* `gcc-12 -O2 -Q --help=optimizers`, a few of its lines */
static const char optimizers_q[] =
	"The following options control optimizations:\n"
	"  -O<number>                  \t\t\n"
	"  -faggressive-loop-optimizations \t[enabled]\n"
	"  -falign-functions           \t\t[enabled]\n"
	"  -falign-functions=          \t\t16\n"
	"  -fexceptions                \t\t[available in Modula-2]\n"
	"  -fexcess-precision=[fast|standard|16] \t[default]\n"
	"  -ffast-math                 \t\t\n"
	"  -fhandle-exceptions         \t\t-fexceptions\n"
	"  -flifetime-dse              \t\t[enabled]\n"
	"  -flifetime-dse=<0,2>        \t\t2\n"
	"  -fpack-struct               \t\t[disabled]\n"
	"  -fpack-struct=<number>      \t\t\n"
	"  -fpeel-loops                \t\t[disabled]\n"
	"  -fprefetch-loop-arrays      \t\t\n"
	"  -frtti                      \t\t[available in C++, D, ObjC++]\n"
	"  -fsched-stalled-insns=<number> \t\n"
	"  -fshort-enums               \t\t[enabled]\n"
	"  -fstack-check=[no|generic|specific] \t\n"
	"  -fno-threadsafe-statics     \t\t[available in C++, ObjC++]\n"
	"  -ftree-loop-vectorize       \t\t[enabled]\n"
	"  -ftree-vectorize            \t\t[disabled]\n"
	"  -fvect-cost-model=[unlimited|dynamic|cheap|very-cheap] \tvery-cheap\n"
	"  -fwrapv                     \t\t[disabled]\n"
	"  -fwrapv-pointer             \t\t[disabled]\n";

/* `gcc-12 -O2 --help=optimizers`: the lines that say what an option takes */
static const char optimizers_help[] =
	"The following options control optimizations:\n"
	"  -falign-functions           Align the start of functions.\n"
	"  -falign-functions=          This option lacks documentation.\n"
	"  -fexcess-precision=[fast|standard|16] Specify handling of excess floating-\n"
	"  -flifetime-dse              Tell DSE that the storage for a C++ object is\n"
	"  -flifetime-dse=<0,2>        This option lacks documentation.\n"
	"  -fpack-struct=<number>      Set initial maximum structure member alignment.\n"
	"  -fpeel-loops                Perform loop peeling.\n"
	"  -fsched-stalled-insns=<number> Set number of queued insns that can be\n"
	"  -fstack-check=[no|generic|specific] Insert stack checking code into the\n"
	"  -fvect-cost-model=[unlimited|dynamic|cheap|very-cheap] Specifies the cost\n"
	"                              model for vectorization.\n";

/* `gcc-12 -O2 -Q --help=params` */
static const char params_q[] =
	"The following options control parameters:\n"
	"  --param=align-loop-iterations= \t4\n"
	"  --param=align-threshold=<1,65536> \t\t100\n"
	"  --param=analyzer-max-constraints= \t20\n"
	"  --param=asan-stack=<0,1>    \t\t1\n"
	"  --param=case-values-threshold= \t0\n"
	"  --param=evrp-mode=          \t\tranger\n"
	"  --param=lazy-modules=       \t\t[available in C++]\n"
	"  --param=logical-op-non-short-circuit=<0,1> \t-1\n"
	"  --param=max-combine-insns=<2,4> \t\t4\n"
	"  --param=max-pow-sqrt-depth=<1,32> \t\t5\n"
	"  --param=max-unroll-times=   \t\t8\n"
	"  --param=openacc-kernels=[decompose|parloops] \tparloops\n"
	"  --param=vect-max-peeling-for-alignment=<0,64> \t-1\n";

/* `clang-14 -O2 -mllvm -print-all-options`, a few of its lines */
static const char print_all_options[] =
	"  --amdgpu-unroll-threshold-if                                                = 200      (default: 200)\n"
	"  --enable-loopinterchange                                                    = 0        (default: 0)\n"
	"  --enable-chr                                                                = 1        (default: 1)\n"
	"  --force-vector-interleave                                                   = 0        (default: 0)\n"
	"  --force-vector-width                                                        = 0        (default: 0)\n"
	"  --inline-threshold                                                          = 225      (default: 225)\n"
	"  --licm-versioning-invariant-threshold                                       = 2.500000e+01 (default: 2.500000e+01)\n"
	"    --misched                                                                   = default  (default: default)\n"
	"  --slp-threshold                                                             = 0        (default: 0)\n"
	"  --unroll-threshold                                                          = 0        (default: 0)\n"
	"  --unroll-threshold-aggressive                                               = 300      (default: 300)\n"
	"  --unroll-threshold-default                                                  = 150      (default: 150)\n";

static const struct tune_dim *find_dim(const struct tune_space *s, enum tune_dim_kind kind, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->dims[i].kind == kind && !strcmp(s->dims[i].name, name))
			return &s->dims[i];
	return NULL;
}

static int has_excluded(const struct tune_space *s, const char *line)
{
	return sv_contains(&s->excluded, line);
}

/* The choices of d joined by '|' (the "" of a start that is neither: "-"). */
static char *choices_of(const struct tune_dim *d)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < d->nchoices; i++)
		sb_addf(&sb, "%s%s", i ? "|" : "", d->choices[i][0] ? d->choices[i] : "-");
	return sb_detach(&sb);
}

static void assert_choices(const struct tune_dim *d, const char *want, size_t start)
{
	assert_non_null(d);
	char *got = choices_of(d);
	assert_string_equal(got, want);
	free(got);
	assert_int_equal(d->start, start);
}

static void test_gcc_flags(void **state)
{
	(void)state;
	struct tune_space s;
	tune_space_parse_gcc(optimizers_q, optimizers_help, params_q, 0, &s);

	assert_choices(find_dim(&s, TUNE_DIM_FLAG, "peel-loops"), "-fpeel-loops|-fno-peel-loops", 1);
	assert_choices(find_dim(&s, TUNE_DIM_FLAG, "tree-loop-vectorize"),
		       "-ftree-loop-vectorize|-fno-tree-loop-vectorize", 0);
	assert_choices(find_dim(&s, TUNE_DIM_FLAG, "tree-vectorize"), "-ftree-vectorize|-fno-tree-vectorize", 1);
	assert_choices(find_dim(&s, TUNE_DIM_FLAG, "align-functions"), "-falign-functions|-fno-align-functions", 0);
	assert_choices(find_dim(&s, TUNE_DIM_ENUM, "vect-cost-model"),
		       "-fvect-cost-model=unlimited|-fvect-cost-model=dynamic|-fvect-cost-model=cheap|"
		       "-fvect-cost-model=very-cheap",
		       3);
	/* a number with a small documented range: every value */
	assert_choices(find_dim(&s, TUNE_DIM_ENUM, "lifetime-dse"),
		       "-flifetime-dse=0|-flifetime-dse=1|-flifetime-dse=2", 2);
	assert_non_null(find_dim(&s, TUNE_DIM_FLAG, "lifetime-dse"));
	/* no state listed: gcc's own choice is the start */
	assert_choices(find_dim(&s, TUNE_DIM_FLAG, "prefetch-loop-arrays"),
		       "-|-fprefetch-loop-arrays|-fno-prefetch-loop-arrays", 0);

	/* left out, with the reason */
	assert_null(find_dim(&s, TUNE_DIM_FLAG, "fast-math"));
	assert_true(has_excluded(&s, "-ffast-math: changes results"));
	assert_null(find_dim(&s, TUNE_DIM_FLAG, "wrapv"));
	assert_true(has_excluded(&s, "-fwrapv: changes results"));
	assert_true(has_excluded(&s, "-fwrapv-pointer: changes results"));
	assert_null(find_dim(&s, TUNE_DIM_ENUM, "excess-precision"));
	assert_true(has_excluded(&s, "-fexcess-precision: changes results"));
	assert_null(find_dim(&s, TUNE_DIM_FLAG, "short-enums"));
	assert_true(has_excluded(&s, "-fshort-enums: changes the ABI"));
	assert_true(has_excluded(&s, "-fpack-struct: changes the ABI"));
	assert_true(has_excluded(&s, "-fexceptions: changes the ABI"));
	assert_true(has_excluded(&s, "-fstack-check: instruments the code, not an optimization"));
	assert_true(has_excluded(&s, "-frtti: does nothing for a C program's code"));
	assert_true(has_excluded(&s, "-fthreadsafe-statics: does nothing for a C program's code"));
	assert_true(has_excluded(&s, "-falign-functions=: takes a number: not searched"));
	assert_true(has_excluded(&s, "-fsched-stalled-insns=: takes a number: not searched"));
	/* an alias and the -O lines are neither */
	assert_null(find_dim(&s, TUNE_DIM_FLAG, "handle-exceptions"));
	for (size_t i = 0; i < s.excluded.n; i++) {
		assert_null(strstr(s.excluded.v[i], "handle-exceptions"));
		assert_null(strstr(s.excluded.v[i], "-O"));
	}
	for (size_t i = 0; i < s.n; i++) {
		assert_true(s.dims[i].nchoices >= 2);
		assert_true(s.dims[i].start < s.dims[i].nchoices);
		assert_int_not_equal(s.dims[i].name[0], 'O');
	}
	tune_space_free(&s);

	/* allow_unsafe keeps the results-changing ones, not the ABI ones */
	tune_space_parse_gcc(optimizers_q, optimizers_help, params_q, 1, &s);
	assert_choices(find_dim(&s, TUNE_DIM_FLAG, "fast-math"), "-|-ffast-math|-fno-fast-math", 0);
	assert_choices(find_dim(&s, TUNE_DIM_FLAG, "wrapv"), "-fwrapv|-fno-wrapv", 1);
	assert_false(has_excluded(&s, "-ffast-math: changes results"));
	assert_null(find_dim(&s, TUNE_DIM_FLAG, "short-enums"));
	assert_true(has_excluded(&s, "-fshort-enums: changes the ABI"));
	tune_space_free(&s);
}

static void test_gcc_params(void **state)
{
	(void)state;
	struct tune_space s;
	tune_space_parse_gcc(optimizers_q, optimizers_help, params_q, 0, &s);
	/* a range: 1/4..4x inside it */
	assert_choices(find_dim(&s, TUNE_DIM_PARAM, "align-threshold"),
		       "--param=align-threshold=25|--param=align-threshold=50|--param=align-threshold=100|"
		       "--param=align-threshold=200|--param=align-threshold=400",
		       2);
	assert_choices(find_dim(&s, TUNE_DIM_PARAM, "max-pow-sqrt-depth"),
		       "--param=max-pow-sqrt-depth=1|--param=max-pow-sqrt-depth=2|--param=max-pow-sqrt-depth=5|"
		       "--param=max-pow-sqrt-depth=10|--param=max-pow-sqrt-depth=20",
		       2);
	/* no range */
	assert_choices(find_dim(&s, TUNE_DIM_PARAM, "max-unroll-times"),
		       "--param=max-unroll-times=2|--param=max-unroll-times=4|--param=max-unroll-times=8|"
		       "--param=max-unroll-times=16|--param=max-unroll-times=32",
		       2);
	assert_choices(find_dim(&s, TUNE_DIM_PARAM, "align-loop-iterations"),
		       "--param=align-loop-iterations=1|--param=align-loop-iterations=2|"
		       "--param=align-loop-iterations=4|--param=align-loop-iterations=8|"
		       "--param=align-loop-iterations=16",
		       2);
	assert_choices(find_dim(&s, TUNE_DIM_PARAM, "case-values-threshold"),
		       "--param=case-values-threshold=0|--param=case-values-threshold=1|"
		       "--param=case-values-threshold=2|--param=case-values-threshold=8",
		       0);
	/* a small range: all of it (and the default, -1, outside it) */
	assert_choices(find_dim(&s, TUNE_DIM_PARAM, "max-combine-insns"),
		       "--param=max-combine-insns=2|--param=max-combine-insns=3|--param=max-combine-insns=4", 2);
	assert_choices(find_dim(&s, TUNE_DIM_PARAM, "logical-op-non-short-circuit"),
		       "--param=logical-op-non-short-circuit=-1|--param=logical-op-non-short-circuit=0|"
		       "--param=logical-op-non-short-circuit=1",
		       0);
	/* not integers, or left out by the table */
	assert_null(find_dim(&s, TUNE_DIM_PARAM, "evrp-mode"));
	assert_true(has_excluded(&s, "--param=evrp-mode: not an integer: not searched"));
	assert_null(find_dim(&s, TUNE_DIM_PARAM, "lazy-modules"));
	assert_null(find_dim(&s, TUNE_DIM_PARAM, "openacc-kernels"));
	assert_null(find_dim(&s, TUNE_DIM_PARAM, "asan-stack"));
	assert_true(has_excluded(&s, "--param=asan-stack: instruments the code, not an optimization"));
	assert_true(has_excluded(&s, "--param=analyzer-max-constraints: does nothing for a C program's code"));
	tune_space_free(&s);
}

static void test_excluded_table(void **state)
{
	(void)state;
	int unsafe = -1;
	assert_string_equal(tune_space_excluded(TUNE_DIM_FLAG, "fast-math", &unsafe), "changes results");
	assert_int_equal(unsafe, 1);
	assert_string_equal(tune_space_excluded(TUNE_DIM_FLAG, "short-enums", &unsafe), "changes the ABI");
	assert_int_equal(unsafe, 0);
	assert_non_null(tune_space_excluded(TUNE_DIM_FLAG, "stack-protector-strong", &unsafe));
	assert_int_equal(unsafe, 0);
	assert_non_null(tune_space_excluded(TUNE_DIM_ENUM, "fp-contract", NULL));
	assert_non_null(tune_space_excluded(TUNE_DIM_PARAM, "lto-partitions", NULL));
	assert_null(tune_space_excluded(TUNE_DIM_FLAG, "peel-loops", &unsafe));
	assert_null(tune_space_excluded(TUNE_DIM_FLAG, "semantic-interposition", &unsafe));
	assert_null(tune_space_excluded(TUNE_DIM_FLAG, "ipa-profile", &unsafe));
	assert_null(tune_space_excluded(TUNE_DIM_PARAM, "max-unroll-times", &unsafe));
	assert_null(tune_space_excluded(TUNE_DIM_MLLVM, "inline-threshold", &unsafe));
}

static void test_clang_parse(void **state)
{
	(void)state;
	char *accepted[] = { "-fvectorize", "-fno-function-sections", "-funroll-loops|-fno-unroll-loops",
			     "-ffast-math", "-fshort-enums", NULL };
	struct tune_space s;
	tune_space_parse_clang(print_all_options, accepted, 0, &s);
	assert_choices(find_dim(&s, TUNE_DIM_FLAG, "vectorize"), "-fvectorize|-fno-vectorize", 0);
	assert_choices(find_dim(&s, TUNE_DIM_FLAG, "function-sections"),
		       "-ffunction-sections|-fno-function-sections", 1);
	assert_choices(find_dim(&s, TUNE_DIM_FLAG, "unroll-loops"), "-|-funroll-loops|-fno-unroll-loops", 0);
	assert_null(find_dim(&s, TUNE_DIM_FLAG, "fast-math"));
	assert_true(has_excluded(&s, "-ffast-math: changes results"));
	assert_true(has_excluded(&s, "-fshort-enums: changes the ABI"));

	assert_choices(find_dim(&s, TUNE_DIM_MLLVM, "inline-threshold"),
		       "-mllvm -inline-threshold=56|-mllvm -inline-threshold=112|-mllvm -inline-threshold=225|"
		       "-mllvm -inline-threshold=450|-mllvm -inline-threshold=900",
		       2);
	assert_choices(find_dim(&s, TUNE_DIM_MLLVM, "unroll-threshold-default"),
		       "-mllvm -unroll-threshold-default=37|-mllvm -unroll-threshold-default=75|"
		       "-mllvm -unroll-threshold-default=150|-mllvm -unroll-threshold-default=300|"
		       "-mllvm -unroll-threshold-default=600",
		       2);
	assert_non_null(find_dim(&s, TUNE_DIM_MLLVM, "unroll-threshold-aggressive"));
	assert_choices(find_dim(&s, TUNE_DIM_MLLVM, "force-vector-width"),
		       "-mllvm -force-vector-width=0|-mllvm -force-vector-width=1|-mllvm -force-vector-width=2|"
		       "-mllvm -force-vector-width=4|-mllvm -force-vector-width=8|-mllvm -force-vector-width=16",
		       0);
	assert_choices(find_dim(&s, TUNE_DIM_MLLVM, "force-vector-interleave"),
		       "-mllvm -force-vector-interleave=0|-mllvm -force-vector-interleave=1|"
		       "-mllvm -force-vector-interleave=2|-mllvm -force-vector-interleave=4|"
		       "-mllvm -force-vector-interleave=8",
		       0);
	assert_choices(find_dim(&s, TUNE_DIM_MLLVM, "enable-loopinterchange"),
		       "-mllvm -enable-loopinterchange=false|-mllvm -enable-loopinterchange=true", 0);
	assert_choices(find_dim(&s, TUNE_DIM_MLLVM, "enable-chr"),
		       "-mllvm -enable-chr=false|-mllvm -enable-chr=true", 1);
	assert_non_null(find_dim(&s, TUNE_DIM_MLLVM, "slp-threshold"));
	/* "not set" (0) is no default to scale, and what is not listed is not asked */
	assert_null(find_dim(&s, TUNE_DIM_MLLVM, "unroll-threshold"));
	assert_null(find_dim(&s, TUNE_DIM_MLLVM, "enable-gvn-hoist"));
	tune_space_free(&s);

	tune_space_parse_clang(print_all_options, accepted, 1, &s);
	assert_choices(find_dim(&s, TUNE_DIM_FLAG, "fast-math"), "-ffast-math|-fno-fast-math", 0);
	assert_null(find_dim(&s, TUNE_DIM_FLAG, "short-enums"));
	tune_space_free(&s);
}

/* A space of three dimensions made by hand. */
static void add_test_dim(struct tune_space *s, enum tune_dim_kind kind, const char *name, const char *const *choices,
			 size_t n, size_t start)
{
	s->dims = xrealloc(s->dims, (s->n + 1) * sizeof(*s->dims));
	struct tune_dim *d = &s->dims[s->n++];
	d->kind = kind;
	d->name = xstrdup(name);
	d->choices = xcalloc(n, sizeof(*d->choices));
	for (size_t i = 0; i < n; i++)
		d->choices[i] = xstrdup(choices[i]);
	d->nchoices = n;
	d->start = start;
	d->level_choice = NULL;
}

static void small_space(struct tune_space *s)
{
	memset(s, 0, sizeof(*s));
	static const char *const peel[] = { "-fpeel-loops", "-fno-peel-loops" };
	static const char *const x[] = { "-mllvm -x=0", "-mllvm -x=1", "-mllvm -x=2" };
	static const char *const unroll[] = { "--param=max-unroll-times=4", "--param=max-unroll-times=8",
					      "--param=max-unroll-times=16" };
	static const char *const fast[] = { "", "-ffast-math", "-fno-fast-math" };
	add_test_dim(s, TUNE_DIM_FLAG, "peel-loops", peel, 2, 1);
	add_test_dim(s, TUNE_DIM_MLLVM, "x", x, 3, 0);
	add_test_dim(s, TUNE_DIM_PARAM, "max-unroll-times", unroll, 3, 1);
	add_test_dim(s, TUNE_DIM_FLAG, "fast-math", fast, 3, 0);
	sv_push(&s->excluded, "-fshort-enums: changes the ABI");
	s->source = xstrdup("by hand");
}

static void test_points(void **state)
{
	(void)state;
	struct tune_space s;
	small_space(&s);
	size_t start[4] = { 1, 0, 1, 0 }, val[4];

	char *key = tune_point_key(&s, start);
	assert_string_equal(key, "");
	free(key);
	assert_int_equal(tune_point_changes(&s, start), 0);
	assert_int_equal(tune_point_parse(&s, "", val), 0);
	assert_memory_equal(val, start, sizeof(val));

	size_t p[4] = { 0, 1, 2, 2 };
	struct strvec flags = STRVEC_INIT;
	tune_point_flags(&s, p, &flags);
	assert_int_equal(flags.n, 5);
	assert_string_equal(flags.v[0], "-fpeel-loops");
	assert_string_equal(flags.v[1], "-mllvm");
	assert_string_equal(flags.v[2], "-x=1");
	assert_string_equal(flags.v[3], "--param=max-unroll-times=16");
	assert_string_equal(flags.v[4], "-fno-fast-math");
	sv_clear(&flags);
	assert_int_equal(tune_point_changes(&s, p), 4);

	key = tune_point_key(&s, p);
	assert_string_equal(key, "-fpeel-loops -mllvm -x=1 --param=max-unroll-times=16 -fno-fast-math");
	assert_int_equal(tune_point_parse(&s, key, val), 0);
	assert_memory_equal(val, p, sizeof(val));
	free(key);

	/* one change: only its words */
	size_t q[4] = { 1, 2, 1, 0 };
	key = tune_point_key(&s, q);
	assert_string_equal(key, "-mllvm -x=2");
	assert_int_equal(tune_point_changes(&s, q), 1);
	assert_int_equal(tune_point_parse(&s, key, val), 0);
	assert_memory_equal(val, q, sizeof(val));
	free(key);

	/* a start's own spelling reads as the start; words not in the space do not read */
	assert_int_equal(tune_point_parse(&s, "-fno-peel-loops", val), 0);
	assert_memory_equal(val, start, sizeof(val));
	assert_int_equal(tune_point_parse(&s, "-fbogus", val), -1);
	assert_int_equal(tune_point_parse(&s, "-mllvm", val), -1);
	assert_int_equal(tune_point_parse(&s, "-mllvm -x=9", val), -1);
	assert_int_equal(tune_point_parse(&s, "-x=1", val), -1);
	assert_int_equal(tune_point_parse(&s, "-fpeel-loops -fno-peel-loops", val), -1);
	tune_space_free(&s);
}

/* The -O levels' settings, a few lines of gcc-12's listings at -O2 and -O3. */
static const char level_o2[] = "  -fpeel-loops                \t\t[disabled]\n"
			       "  -ftree-vectorize            \t\t[disabled]\n"
			       "  -funswitch-loops            \t\t[disabled]\n"
			       "  -fvect-cost-model=[unlimited|dynamic|cheap|very-cheap] \tvery-cheap\n";
static const char level_o3[] = "  -fpeel-loops                \t\t[enabled]\n"
			       "  -ftree-vectorize            \t\t[disabled]\n"
			       "  -funswitch-loops            \t\t[enabled]\n"
			       "  -fvect-cost-model=[unlimited|dynamic|cheap|very-cheap] \tdynamic\n";
static const char level_help[] =
	"  -fvect-cost-model=[unlimited|dynamic|cheap|very-cheap] Specifies the cost\n";
static const char params_o2[] = "  --param=max-inline-insns-auto= \t15\n  --param=max-unroll-times=   \t\t8\n";
static const char params_o3[] = "  --param=max-inline-insns-auto= \t30\n  --param=max-unroll-times=   \t\t8\n";

static void test_levels(void **state)
{
	(void)state;
	struct tune_space s, at[4];
	memset(at, 0, sizeof(at));
	tune_space_parse_gcc(level_o2, level_help, params_o2, 0, &s);
	const char *levels[TUNE_OPT_LEVELS_MAX];
	size_t start, n = tune_opt_levels("-O2", 0, &s, levels, &start);
	assert_int_equal(n, 4);
	assert_int_equal(start, 1);
	assert_string_equal(levels[0], "-O3");
	assert_string_equal(levels[3], "-O1");
	assert_true(has_excluded(&s, "-Ofast: changes results"));
	/* -O3 read; -Os and -O1 not (an empty space: they tie nothing) */
	tune_space_parse_gcc(level_o3, level_help, params_o3, 0, &at[0]);
	tune_space_add_levels(&s, levels, n, start, at);
	assert_int_equal(tune_space_opt_dim(&s), 0);
	assert_choices(&s.dims[0], "-O3|-O2|-Os|-O1", 1);
	assert_int_equal(s.dims[0].kind, TUNE_DIM_OPT);
	/* set otherwise at -O3: "" first, the start, each level's setting a choice */
	const struct tune_dim *d = find_dim(&s, TUNE_DIM_FLAG, "peel-loops");
	assert_choices(d, "-|-fpeel-loops|-fno-peel-loops", 0);
	assert_int_equal(d->level_choice[0], 1);
	assert_int_equal(d->level_choice[1], 2);
	assert_int_equal(d->level_choice[2], 0); /* not read: as the level says */
	d = find_dim(&s, TUNE_DIM_ENUM, "vect-cost-model");
	assert_choices(d,
		       "-|-fvect-cost-model=unlimited|-fvect-cost-model=dynamic|-fvect-cost-model=cheap|"
		       "-fvect-cost-model=very-cheap",
		       0);
	assert_string_equal(d->choices[d->level_choice[0]], "-fvect-cost-model=dynamic");
	/* a param: -O3's value joins the values searched */
	d = find_dim(&s, TUNE_DIM_PARAM, "max-inline-insns-auto");
	assert_non_null(d);
	assert_int_equal(d->start, 0);
	assert_string_equal(d->choices[d->level_choice[0]], "--param=max-inline-insns-auto=30");
	assert_string_equal(d->choices[d->level_choice[1]], "--param=max-inline-insns-auto=15");
	/* set alike: as it was */
	d = find_dim(&s, TUNE_DIM_FLAG, "tree-vectorize");
	assert_choices(d, "-ftree-vectorize|-fno-tree-vectorize", 1);
	assert_null(d->level_choice);
	d = find_dim(&s, TUNE_DIM_PARAM, "max-unroll-times");
	assert_null(d->level_choice);
	/* a point's -O word is apart from its flags (it replaces the start's) */
	size_t *val = xcalloc(s.n, sizeof(*val));
	for (size_t i = 0; i < s.n; i++)
		val[i] = s.dims[i].start;
	val[0] = 0;
	char *key = tune_point_key(&s, val), *opt = NULL, *rest = tune_key_split_opt(key, &opt);
	assert_string_equal(key, "-O3");
	assert_string_equal(opt, "-O3");
	assert_string_equal(rest, "");
	free(key);
	free(opt);
	free(rest);
	rest = tune_key_split_opt("-O1 -fpeel-loops -mllvm -Owhatever", &opt);
	assert_string_equal(opt, "-O1");
	assert_string_equal(rest, "-fpeel-loops -mllvm -Owhatever");
	free(opt);
	free(rest);
	rest = tune_key_split_opt("-fpeel-loops", &opt);
	assert_null(opt);
	free(rest);
	free(val);
	/* a start at another level keeps it, last; -Ofast with allow_unsafe */
	n = tune_opt_levels("-Og", 1, NULL, levels, &start);
	assert_int_equal(n, 6);
	assert_string_equal(levels[4], "-Ofast");
	assert_string_equal(levels[5], "-Og");
	assert_int_equal(start, 5);
	char *const cf[] = { "-march=native", "-O2", "-g", NULL };
	assert_string_equal(tune_cflags_opt(cf), "-O2");
	tune_space_free(&s);
	for (int i = 0; i < 4; i++)
		tune_space_free(&at[i]);
}

static void test_print(void **state)
{
	(void)state;
	struct tune_space s;
	small_space(&s);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	tune_space_print(&s, f);
	fclose(f);
	assert_string_equal(text, "4 dimensions, from by hand\n"
				  "  -fpeel-loops               on|off          start: off\n"
				  "  -mllvm -x=                 0|1|2           start: 0\n"
				  "  --param=max-unroll-times=  4|8|16          start: 8\n"
				  "  -ffast-math                default|on|off  start: default\n"
				  "left out:\n"
				  "  -fshort-enums: changes the ABI\n");
	free(text);
	tune_space_free(&s);
}

static const char *start_word(const struct tune_dim *d)
{
	return d->choices[d->start];
}

/* The gcc on PATH at -O2 (no -march: whatever the host's CPU). */
static void test_real_gcc(void **state)
{
	(void)state;
	struct compiler comp = { 0 };
	comp.path = find_on_path("gcc");
	if (!comp.path)
		skip();
	comp.name = "gcc";
	char *cflags[] = { "-O2", NULL };
	struct tune_space s;
	assert_int_equal(tune_space_read(&comp, cflags, 0, &s), 0);
	assert_true(s.n > 100);
	/* the -O level first, the start's among them */
	assert_int_equal(tune_space_opt_dim(&s), 0);
	assert_choices(&s.dims[0], "-O3|-O2|-Os|-O1", 1);
	assert_true(has_excluded(&s, "-Ofast: changes results"));
	/* -O3 peels loops, -O2 does not: "" (as the level says), and each
	 * level's own setting spelled */
	const struct tune_dim *d = find_dim(&s, TUNE_DIM_FLAG, "peel-loops");
	assert_non_null(d);
	assert_string_equal(start_word(d), "");
	assert_non_null(d->level_choice);
	assert_string_equal(d->choices[d->level_choice[0]], "-fpeel-loops");
	assert_string_equal(d->choices[d->level_choice[1]], "-fno-peel-loops");
	/* -O2 vectorizes (-ftree-loop-vectorize, since gcc 12), -O1 and -Os do
	 * not, while the umbrella -ftree-vectorize is listed off at every level */
	d = find_dim(&s, TUNE_DIM_FLAG, "tree-loop-vectorize");
	assert_non_null(d);
	assert_non_null(d->level_choice);
	assert_string_equal(d->choices[d->level_choice[1]], "-ftree-loop-vectorize");
	assert_string_equal(d->choices[d->level_choice[3]], "-fno-tree-loop-vectorize");
	d = find_dim(&s, TUNE_DIM_FLAG, "tree-vectorize");
	assert_non_null(d);
	assert_null(d->level_choice);
	assert_string_equal(start_word(d), "-fno-tree-vectorize");
	d = find_dim(&s, TUNE_DIM_FLAG, "inline-functions");
	assert_non_null(d);
	assert_non_null(find_dim(&s, TUNE_DIM_ENUM, "vect-cost-model"));
	assert_non_null(find_dim(&s, TUNE_DIM_PARAM, "max-unroll-times"));
	assert_null(find_dim(&s, TUNE_DIM_FLAG, "fast-math"));
	assert_true(has_excluded(&s, "-ffast-math: changes results"));
	assert_non_null(strstr(s.source, " -Q --help=optimizers --help=params -O2"));
	for (size_t i = 0; i < s.n; i++) {
		assert_true(s.dims[i].nchoices >= 2);
		assert_true(s.dims[i].start < s.dims[i].nchoices);
	}
	/* every point's key reads back */
	size_t *val = xcalloc(s.n, sizeof(*val)), *back = xcalloc(s.n, sizeof(*back));
	for (size_t i = 0; i < s.n; i++)
		val[i] = (s.dims[i].start + 1 + i % 3) % s.dims[i].nchoices;
	char *key = tune_point_key(&s, val);
	assert_int_equal(tune_point_parse(&s, key, back), 0);
	for (size_t i = 0; i < s.n; i++)
		assert_true(back[i] == val[i] || (s.dims[i].choices[val[i]][0] == '\0' && back[i] == s.dims[i].start));
	free(key);
	free(val);
	free(back);
	tune_space_free(&s);
	free(comp.path);
}

static void test_real_clang(void **state)
{
	(void)state;
	struct compiler comp = { 0 };
	comp.path = find_on_path("clang");
	if (!comp.path)
		skip();
	comp.name = "clang";
	comp.is_clang = 1;
	char *cflags[] = { "-O2", NULL };
	struct tune_space s;
	assert_int_equal(tune_space_read(&comp, cflags, 0, &s), 0);
	assert_true(s.n > 5);
	size_t mllvm = 0;
	for (size_t i = 0; i < s.n; i++)
		mllvm += s.dims[i].kind == TUNE_DIM_MLLVM;
	assert_true(mllvm > 0);
	assert_non_null(find_dim(&s, TUNE_DIM_FLAG, "vectorize"));
	assert_null(find_dim(&s, TUNE_DIM_FLAG, "fast-math"));
	assert_true(has_excluded(&s, "-ffast-math: changes results"));
	tune_space_free(&s);
	free(comp.path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gcc_flags),  cmocka_unit_test(test_gcc_params), cmocka_unit_test(test_excluded_table),
		cmocka_unit_test(test_clang_parse), cmocka_unit_test(test_points),     cmocka_unit_test(test_print),
		cmocka_unit_test(test_real_gcc),   cmocka_unit_test(test_real_clang), cmocka_unit_test(test_levels),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
