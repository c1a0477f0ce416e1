/* Unit tests of issue 13's parsers: gcc's optimizer listing, ISA macros,
 * compiler packages and NAME-VERSION globs, the .text size of an ELF. */
#define _GNU_SOURCE
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "pipeline/build.h"
#include "driver/explain.h"
#include "pipeline/plan.h"
#include "results/explain_record.h"

static void test_parse_optimizers(void **state)
{
	const char *text = "The following options control optimizations:\n"
			   "  -faggressive-loop-optimizations \t[enabled]\n"
			   "  -fpeel-loops                \t\t[disabled]\n"
			   "  -fvect-cost-model=[unlimited|dynamic|cheap|very-cheap] \tvery-cheap\n"
			   "  -fno-threadsafe-statics     \t\t[enabled]\n"
			   "  some other line\n";
	struct strvec kv = STRVEC_INIT;
	explain_parse_optimizers(text, &kv);
	assert_int_equal(kv.n, 4);
	assert_string_equal(kv.v[0], "-faggressive-loop-optimizations\t[enabled]");
	assert_string_equal(kv.v[1], "-fpeel-loops\t[disabled]");
	assert_string_equal(kv.v[2], "-fvect-cost-model\tvery-cheap");
	assert_string_equal(kv.v[3], "-fno-threadsafe-statics\t[enabled]");
	sv_clear(&kv);
	/* gcc 12 lists -falign-functions twice, its state and its value:
	 * explain moves it once, by the first line */
	explain_parse_optimizers("  -falign-functions           \t\t[enabled]\n"
				 "  -falign-functions=          \t\t16\n"
				 "  -fpeel-loops                \t\t[disabled]\n",
				 &kv);
	assert_int_equal(kv.n, 3);
	assert_true(explain_first_of_name(&kv, 0));
	assert_false(explain_first_of_name(&kv, 1));
	assert_true(explain_first_of_name(&kv, 2));
	sv_clear(&kv);
}

/* lines of `gcc-12 -O3 -Q --help=params`: integer values only */
static void test_parse_params(void **state)
{
	(void)state;
	const char *text = "The following options control parameters:\n"
			   "  --param=early-inlining-insns= \t14\n"
			   "  --param=inline-heuristics-hint-percent=<100,1000000> \t600\n"
			   "  --param=align-threshold=<1,65536> \t\t100\n"
			   "  --param=lazy-modules= \t\n"
			   "  --param=ipa-cp-eval-threshold= \t500\n"
			   "  --param=parloops-schedule=[static|dynamic|guided|auto|runtime] \tstatic\n";
	struct strvec kv = STRVEC_INIT;
	explain_parse_params(text, &kv);
	assert_int_equal(kv.n, 4);
	assert_string_equal(kv.v[0], "early-inlining-insns\t14");
	assert_string_equal(kv.v[1], "inline-heuristics-hint-percent\t600");
	assert_string_equal(kv.v[2], "align-threshold\t100");
	assert_string_equal(kv.v[3], "ipa-cp-eval-threshold\t500");
	sv_clear(&kv);
}

static void test_isa_of_macro(void **state)
{
	static const struct {
		const char *line, *isa;
	} cases[] = {
		{ "#define __AVX2__ 1", "avx2" },	  { "#define __SSE4_1__ 1", "sse4.1" },
		{ "#define __SSE4_2__ 1", "sse4.2" },	  { "#define __LAHF_SAHF__ 1", "sahf" },
		{ "#define __AVX512VL__ 1", "avx512vl" }, { "#define __BIGGEST_ALIGNMENT__ 32", NULL },
		{ "#define __FP_FAST_FMA 1", NULL },	  { "#define __GCC_HAVE_SYNC_COMPARE_AND_SWAP_16 1", NULL },
		{ "#define __x86_64__ 1", NULL },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *r = explain_isa_of_macro(cases[i].line);
		if (cases[i].isa) {
			assert_non_null(r);
			assert_string_equal(r, cases[i].isa);
		} else {
			assert_null(r);
		}
		free(r);
	}
}

/* A name mapped to another (NULL: none), as the table says. */
struct name_case {
	const char *name, *want;
};

static void check_name_cases(char *(*fn)(const char *), const struct name_case *cases, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char *p = fn(cases[i].name);
		if (cases[i].want) {
			assert_non_null(p);
			assert_string_equal(p, cases[i].want);
		} else {
			assert_null(p);
		}
		free(p);
	}
}

static void test_compiler_package(void **state)
{
	static const struct name_case cases[] = { { "gcc", "gcc" },	      { "cc", "gcc" },
						  { "clang-17", "clang-17" }, { "gcc-13", "gcc-13" },
						  { "clang", "clang" },	      { "icx", NULL },
						  { "gcc-ar-12", NULL },      { "riscv64-linux-gnu-gcc", NULL } };
	(void)state;
	check_name_cases(compiler_package, cases, sizeof(cases) / sizeof(cases[0]));
}

/* Each C compiler's C++ driver by name (issue 47); a C++ driver is its own. */
static void test_compiler_cxx_name(void **state)
{
	static const struct name_case cases[] = { { "gcc", "g++" },
						  { "gcc-12", "g++-12" },
						  { "clang", "clang++" },
						  { "clang-14", "clang++-14" },
						  { "cc", "c++" },
						  { "x86_64-linux-gnu-gcc-12", "x86_64-linux-gnu-g++-12" },
						  { "/opt/bin/clang-16", "/opt/bin/clang++-16" },
						  { "g++", "g++" },
						  { "clang++-14", "clang++-14" },
						  { "icx", NULL } };
	(void)state;
	check_name_cases(compiler_cxx_name, cases, sizeof(cases) / sizeof(cases[0]));
}

static void touch_exec(const char *dir, const char *name)
{
	char *p = xasprintf("%s/%s", dir, name);
	write_file_atomic(p, "#!/bin/sh\n", 10);
	chmod(p, 0755);
	free(p);
}

static void test_expand_compilers(void **state)
{
	char dir[] = "/tmp/flagbench-globs-XXXXXX";
	assert_non_null(mkdtemp(dir));
	const char *names[] = { "fbcc-10", "fbcc-2", "fbcc-9.1", "fbcc-ar-2", "fbcc-x", "fbcc", NULL };
	for (int i = 0; names[i]; i++)
		touch_exec(dir, names[i]);
	char *old = getenv("PATH") ? xstrdup(getenv("PATH")) : NULL;
	setenv("PATH", dir, 1);
	struct strvec in = STRVEC_INIT, out = STRVEC_INIT, warn = STRVEC_INIT;
	sv_push(&in, "fbcc-*");
	sv_push(&in, "gcc-77");
	sv_push(&in, "nothing-*");
	expand_compilers(&in, &out, &warn);
	assert_int_equal(out.n, 4);
	assert_string_equal(out.v[0], "fbcc-2");
	assert_string_equal(out.v[1], "fbcc-9.1");
	assert_string_equal(out.v[2], "fbcc-10");
	assert_string_equal(out.v[3], "gcc-77");
	assert_int_equal(warn.n, 1);
	assert_non_null(strstr(warn.v[0], "nothing-*"));
	if (old)
		setenv("PATH", old, 1);
	free(old);
	for (int i = 0; names[i]; i++) {
		char *p = xasprintf("%s/%s", dir, names[i]);
		unlink(p);
		free(p);
	}
	rmdir(dir);
	sv_clear(&in);
	sv_clear(&out);
	sv_clear(&warn);
}

static void test_elf_text_bytes(void **state)
{
	uint64_t n = 0;
	/* this test binary is an ELF with a .text section */
	assert_int_equal(elf_text_bytes("/proc/self/exe", &n), 0);
	assert_true(n > 0);
	assert_int_equal(elf_text_bytes("/etc/passwd", &n), -1);
}

/* A share whose interval spans more than the whole gap says nothing:
 * printed as too noisy (whether a group carries is test_share_carries). */
static void test_meaningless_share(void **state)
{
	(void)state;
	/* "47% [-21, 233]" is printed as too noisy, never as a share */
	assert_true(explain_share_meaningless(-0.21, 2.33));
	assert_true(explain_share_meaningless(-0.5, 0.9)); /* 140 % wide */
	assert_false(explain_share_meaningless(0.30, 0.70));
	assert_false(explain_share_meaningless(0.9, 0.9)); /* counts: a point */
	assert_false(explain_share_meaningless(NAN, NAN)); /* nothing measured: not noise */
}

/* Whether a group carries: a real move of 5 % of the gap or more carries
 * however noisy its size (zstd gcc -O1 against -O2: B without the 46
 * flags 0.093 s against B 0.079 s and A 0.085 s, a share of 217 %
 * [45 %, 178 %], was once "cleared" and the answer "little closer"). */
static void test_share_carries(void **state)
{
	(void)state;
	/* the zstd case: B's gap is B faster (gap > 0), B without the flags slower */
	assert_true(explain_share_carries(1, 0.08, 2.17, VERDICT_SLOWER));
	assert_true(explain_share_carries(1, 0.08, 0.30, VERDICT_SLOWER));
	/* not real: a move the comparison leaves inconclusive, or the wrong way */
	assert_false(explain_share_carries(1, 0.08, 0.60, VERDICT_INCONCLUSIVE));
	assert_false(explain_share_carries(1, 0.08, 0.60, VERDICT_FASTER));
	/* a gap the other way (B slower than A): the move must be faster */
	assert_true(explain_share_carries(1, -0.08, 0.60, VERDICT_FASTER));
	assert_false(explain_share_carries(1, -0.08, 0.60, VERDICT_SLOWER));
	/* under 5 % never carries; counts need no verdict */
	assert_false(explain_share_carries(1, 0.08, 0.04, VERDICT_SLOWER));
	assert_true(explain_share_carries(0, 0.08, 0.05, VERDICT_INCONCLUSIVE));
	assert_false(explain_share_carries(0, 0.08, NAN, VERDICT_SLOWER));
}

/* --resume's journal read back typed: the pair, metric, way, flags (a
 * non-string ""), each group with its state, share interval and value;
 * another schema is refused. */
static void test_journal_record(void **state)
{
	(void)state;
	char dir[] = "/tmp/flagbench-test-journal-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char *path = xasprintf("%s/journal.json", dir);
	const char *doc = "{\"schema\": \"flagbench-explain-journal/1\", \"run\": \"r\", \"a\": \"x\", \"b\": \"y\","
			  " \"metric\": \"time_s\", \"way\": \"b_without\", \"flags\": [\"-fa\", 7], \"builds\": 3,"
			  " \"groups\": [{\"from\": 0, \"to\": 2, \"state\": \"failed\"},"
			  "  {\"from\": 2, \"to\": 3, \"state\": \"measured\", \"share\": 0.5, \"share_ci95\": [0.25, 0.75],"
			  "   \"unchanged\": true, \"carries\": false, \"value\": 1.5}]}";
	assert_int_equal(write_file_atomic(path, doc, strlen(doc)), 0);
	struct explain_record r;
	assert_int_equal(explain_record_load(dir, &r), 0);
	assert_string_equal(r.run, "r");
	assert_string_equal(r.a, "x");
	assert_string_equal(r.b, "y");
	assert_string_equal(r.metric, "time_s");
	assert_string_equal(r.way, "b_without");
	assert_int_equal(r.flags.n, 2);
	assert_string_equal(r.flags.v[1], "");
	assert_int_equal(r.builds, 3);
	assert_int_equal(r.ngroups, 2);
	assert_true(r.groups[0].failed && r.groups[0].to == 2 && isnan(r.groups[0].share));
	assert_true(!r.groups[1].failed && r.groups[1].from == 2 && r.groups[1].to == 3 && r.groups[1].share == 0.5 &&
		    r.groups[1].share_low == 0.25 && r.groups[1].share_high == 0.75 && r.groups[1].unchanged &&
		    !r.groups[1].carries && r.groups[1].value == 1.5);
	explain_record_free(&r);
	const char *other = "{\"schema\": \"flagbench-results/1\", \"run\": \"r\", \"a\": \"x\", \"b\": \"y\"}";
	assert_int_equal(write_file_atomic(path, other, strlen(other)), 0);
	assert_int_equal(explain_record_load(dir, &r), -1);
	unlink(path);
	rmdir(dir);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_optimizers), cmocka_unit_test(test_parse_params), cmocka_unit_test(test_meaningless_share), cmocka_unit_test(test_share_carries), cmocka_unit_test(test_isa_of_macro),
		cmocka_unit_test(test_compiler_package), cmocka_unit_test(test_compiler_cxx_name),
		cmocka_unit_test(test_expand_compilers), cmocka_unit_test(test_journal_record),
		cmocka_unit_test(test_elf_text_bytes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
