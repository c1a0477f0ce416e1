/* Unit tests of qemucount: the trace-line counter on logs cut at every
 * byte, and qemu-riscv64 counting a tiny static RISC-V program whose
 * instruction count is known (skipped where the cross tools are missing). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "pipeline/qemucount.h"
#include "core/runcmd.h"

/* ---- the line counter ---- */

static const struct {
	const char *log;
	unsigned long long lines;
} logs[] = {
	{ "", 0 },
	{ "Trace 0: 0x7f78db800100 [0000000000000000/000000000001010c/00207600/00000201] \n", 1 },
	{ "Trace 0: a\nTrace 0: b\nTrace 0: c\n", 3 },
	{ "Trace 0: no newline at the end", 1 },
	/* only lines that begin with the tag */
	{ "xTrace 0: a\n Trace 0: b\nTracer\nTrace\nTRACE 0\n", 0 },
	{ "guest text\nTrace 1: a\n\n\nTrace 2: b\nTrac", 2 },
	{ "TTrace 0\nTrace Trace \nTrace \n", 2 },
};

static void test_counter_whole_and_cut(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(logs) / sizeof(logs[0]); i++) {
		const char *s = logs[i].log;
		size_t n = strlen(s);
		struct trace_counter t = TRACE_COUNTER_INIT;
		trace_counter_feed(&t, s, n);
		assert_int_equal(t.lines, logs[i].lines);
		/* any cut into two reads gives the same count */
		for (size_t cut = 0; cut <= n; cut++) {
			struct trace_counter u = TRACE_COUNTER_INIT;
			trace_counter_feed(&u, s, cut);
			trace_counter_feed(&u, s + cut, n - cut);
			assert_int_equal(u.lines, logs[i].lines);
		}
		/* and byte by byte */
		struct trace_counter b = TRACE_COUNTER_INIT;
		for (size_t k = 0; k < n; k++)
			trace_counter_feed(&b, s + k, 1);
		assert_int_equal(b.lines, logs[i].lines);
	}
}

/* ---- a program with a known count under qemu-riscv64 ---- */

/* 1 (li) + 10 x 2 (addi, bnez) + 4 (ld, addi, li, ecall) = 25
 * instructions; the exit code is argc - 1, so a failing run can be asked for */
static const char tiny_asm[] = "\t.globl _start\n"
			       "_start:\n"
			       "\tli t0, 10\n"
			       "1:\taddi t0, t0, -1\n"
			       "\tbnez t0, 1b\n"
			       "\tld a0, 0(sp)\n"
			       "\taddi a0, a0, -1\n"
			       "\tli a7, 93\n"
			       "\tecall\n";
#define TINY_COUNT 25

static char tmpdir[] = "/tmp/flagbench-qemucount-XXXXXX";
static char *tiny_bin;

static int build_tiny(void **state)
{
	(void)state;
	char *cc = find_on_path("riscv64-linux-gnu-gcc"), *emu = find_on_path("qemu-riscv64");
	int have = cc && emu;
	free(cc);
	free(emu);
	if (!have || !mkdtemp(tmpdir))
		return 0;
	char *src = xasprintf("%s/tiny.S", tmpdir);
	FILE *f = fopen(src, "w");
	assert_non_null(f);
	fputs(tiny_asm, f);
	fclose(f);
	char *bin = xasprintf("%s/tiny", tmpdir);
	char *argv[] = { "riscv64-linux-gnu-gcc", "-nostdlib", "-static", "-o", bin, src, NULL };
	struct strbuf err = STRBUF_INIT;
	struct child_exit ex;
	if (run_capture(argv, CHILD_DEVNULL, 60, 4096, NULL, &err, &ex) == 0 && ex.outcome == CHILD_EXITED &&
	    !ex.exit_code)
		tiny_bin = bin;
	else {
		fprintf(stderr, "riscv64-linux-gnu-gcc failed: %s\n", err.buf ? err.buf : "");
		free(bin);
	}
	sb_release(&err);
	unlink(src);
	free(src);
	return 0;
}

static int remove_tiny(void **state)
{
	(void)state;
	if (tiny_bin) {
		unlink(tiny_bin);
		rmdir(tmpdir);
		free(tiny_bin);
	}
	return 0;
}

static void test_known_count(void **state)
{
	(void)state;
	if (!tiny_bin)
		skip(); /* needs riscv64-linux-gnu-gcc and qemu-riscv64 (scripts/deps.sh riscv) */
	char *emu[] = { "qemu-riscv64", NULL };
	char *prog[] = { tiny_bin, NULL };
	char why[512] = "";
	assert_int_equal(qemucount_run(emu, prog, 60, why, sizeof(why)), TINY_COUNT);
	/* deterministic: the same count again */
	assert_int_equal(qemucount_run(emu, prog, 60, why, sizeof(why)), TINY_COUNT);
}

static void test_failing_run(void **state)
{
	(void)state;
	if (!tiny_bin)
		skip();
	char *emu[] = { "qemu-riscv64", NULL };
	char *prog[] = { tiny_bin, "a", "b", NULL }; /* argc 3: exits 2 */
	char why[512] = "";
	assert_int_equal(qemucount_run(emu, prog, 60, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "exited 2"));
}

static void test_not_qemu(void **state)
{
	(void)state;
	char *emu[] = { "/usr/bin/box64", NULL };
	char *prog[] = { "/bin/true", NULL };
	char why[512] = "";
	assert_int_equal(qemucount_run(emu, prog, 5, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "no instruction counter for emulator box64"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counter_whole_and_cut),
		cmocka_unit_test(test_known_count),
		cmocka_unit_test(test_failing_run),
		cmocka_unit_test(test_not_qemu),
	};
	return cmocka_run_group_tests_name("qemucount", tests, build_tiny, remove_tiny);
}
