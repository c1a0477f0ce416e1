/* Unit tests of the core stages: options, config loading and its errors,
 * matrix expansion, cache keys, statistics, status mapping, JSON output,
 * the yes checker.  Table-driven where the cases are alike. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <math.h>
#include <dirent.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "pipeline/build.h"
#include "checks/check.h"
#include "config/config.h"
#include "config/cpu_profile.h"
#include "core/jsonpos.h"
#include "pipeline/measure.h"
#include "core/options.h"
#include "pipeline/plan.h"
#include "pipeline/records.h"
#include "results/results.h"
#include "core/runcmd.h"
#include "core/stats.h"
#include "system/thermal.h"
#include "system/topology.h"
#include "pipeline/verify.h"
#include "core/util.h"
#include "driver/run_options.h"

#include "plan_fixture.h"

/* stderr of the code under test, captured to check error messages */
static char captured[8192];
static int saved_stderr = -1;

static void capture_start(void)
{
	fflush(stderr);
	int fd = open("/tmp/flagbench-test-stderr.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	saved_stderr = dup(2);
	dup2(fd, 2);
	close(fd);
}

static const char *capture_end(void)
{
	fflush(stderr);
	dup2(saved_stderr, 2);
	close(saved_stderr);
	FILE *f = fopen("/tmp/flagbench-test-stderr.txt", "r");
	size_t n = f ? fread(captured, 1, sizeof(captured) - 1, f) : 0;
	captured[n] = '\0';
	if (f)
		fclose(f);
	return captured;
}

/* ---- options ---- */
struct topts {
	unsigned runs;
	double cooldown;
	char *name;
	int flag;
	uint64_t size;
};
static const struct option_def topt_table[] = {
	{ .name = "runs", .short_name = 'r', .type = OPT_UINT, .offset = offsetof(struct topts, runs), .metavar = "N", .min = 1, .max = 100, .help = "runs" },
	{ .name = "cooldown", .type = OPT_DOUBLE, .offset = offsetof(struct topts, cooldown), .metavar = "S", .max = 60, .help = "cooldown" },
	{ .name = "name", .type = OPT_STRING, .offset = offsetof(struct topts, name), .metavar = "X", .help = "name" },
	{ .name = "flag", .type = OPT_FLAG, .offset = offsetof(struct topts, flag), .help = "flag" },
	{ .name = "size", .type = OPT_SIZE, .offset = offsetof(struct topts, size), .metavar = "B", .max = 1e12, .help = "size" },
	{ .name = NULL },
};

static void test_options_parse(void **state)
{
	(void)state;
	struct topts o = { 0 };
	unsigned char given[8] = { 0 };
	char *argv[] = { "--runs", "7", "--cooldown=2.5", "--name", "x y", "--flag", "--size", "0x10", "pos", NULL };
	char *pos[2];
	assert_int_equal(options_parse(topt_table, &o, given, 9, argv, pos, 2), 1);
	assert_int_equal(o.runs, 7);
	assert_true(o.cooldown == 2.5);
	assert_string_equal(o.name, "x y");
	assert_int_equal(o.flag, 1);
	assert_int_equal(o.size, 16);
	assert_string_equal(pos[0], "pos");
	assert_int_equal(given[0], 1);
	free(o.name);
}

static void test_options_errors(void **state)
{
	(void)state;
	static const struct {
		const char *args[3];
		const char *message;
	} cases[] = {
		{ { "--runs", "0", NULL }, "'runs' must be an integer from 1 to 100, not '0'" },
		{ { "--runs", "abc", NULL }, "not 'abc'" },
		{ { "--cooldown", "61", NULL }, "'cooldown' must be a number from 0 to 60" },
		{ { "--rusn", "3", NULL }, "did you mean '--runs'?" },
		{ { "--runs", NULL, NULL }, "needs a value" },
		{ { "--flag=1", NULL, NULL }, "takes no value" },
		{ { "--size", "12Q", NULL }, "'size' must be a size" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct topts o = { 0 };
		int argc = cases[i].args[1] ? 2 : 1;
		capture_start();
		int r = options_parse(topt_table, &o, NULL, argc, (char **)cases[i].args, NULL, 0);
		const char *err = capture_end();
		assert_int_equal(r, -1);
		if (!strstr(err, cases[i].message))
			fail_msg("case %zu: '%s' lacks '%s'", i, err, cases[i].message);
		free(o.name);
	}
}

/* defaults, a group at an offset, a generated usage */
struct tgroup {
	unsigned jobs;
	char *dir;
};
static const struct option_def tgroup_table[] = {
	{ .name = "jobs", .short_name = 'j', .type = OPT_UINT, .offset = offsetof(struct tgroup, jobs), .metavar = "N", .min = 1, .max = 64, .help = "jobs", .def = "4" },
	{ .name = "dir", .type = OPT_STRING, .offset = offsetof(struct tgroup, dir), .metavar = "D", .help = "dir", .def = "build/x" },
	{ .name = NULL },
};
struct tcmd {
	double wait;
	struct tgroup grp;
	struct global_opts g;
};
static const struct option_def tcmd_table[] = {
	{ .name = "wait", .type = OPT_DOUBLE, .offset = offsetof(struct tcmd, wait), .metavar = "S", .max = 10, .help = "wait", .def = "2.5" },
	OPTION_GROUP(tgroup_table, struct tcmd, grp),
	OPTION_GROUP(options_global, struct tcmd, g),
	{ .name = NULL },
};
static const struct command_def tcmd_def = {
	.name = "tcmd",
	.synopsis = "BASE NEW",
	.summary = "a test command",
	.options = tcmd_table,
	.min_pos = 2,
	.max_pos = 2,
	.order = OPTIONS_ANYWHERE,
};

/* The --help text of command c, or of table t alone, into text. */
static void help_text(const struct command_def *c, const struct option_def *t, char *text, size_t n)
{
	FILE *f = tmpfile();
	assert_non_null(f);
	if (c)
		command_help(c, f);
	else
		options_help(t, f);
	rewind(f);
	size_t len = fread(text, 1, n - 1, f);
	text[len] = '\0';
	fclose(f);
}

static void test_options_defaults(void **state)
{
	(void)state;
	struct tcmd o = { 0 };
	char *argv[] = { "--jobs", "8", NULL };
	assert_int_equal(options_parse(tcmd_table, &o, NULL, 0, argv, NULL, 0), 0);
	assert_true(o.wait == 2.5);
	assert_int_equal(o.grp.jobs, 4);
	assert_string_equal(o.grp.dir, "build/x");
	/* the command line replaces a default; given[] counts a group's options in place */
	unsigned char given[OPTIONS_MAX] = { 0 };
	assert_int_equal(options_parse(tcmd_table, &o, given, 2, argv, NULL, 0), 0);
	assert_int_equal(o.grp.jobs, 8);
	assert_int_equal(given[1], 1);
	assert_true(option_given(tcmd_table, given, "jobs"));
	assert_false(option_given(tcmd_table, given, "wait"));
	free(o.grp.dir);
	/* a default goes through the range check */
	static const struct option_def bad[] = {
		{ .name = "n", .type = OPT_UINT, .metavar = "N", .min = 1, .max = 3, .help = "n", .def = "9" },
		{ .name = NULL },
	};
	unsigned n = 0;
	capture_start();
	assert_int_equal(options_parse(bad, &n, NULL, 0, argv, NULL, 0), -1);
	assert_non_null(strstr(capture_end(), "the default of --n: 'n' must be an integer from 1 to 3, not '9'"));
	/* and --help shows it */
	char text[2048];
	help_text(NULL, tcmd_table, text, sizeof(text));
	assert_non_null(strstr(text, "--wait S"));
	assert_non_null(strstr(text, "[0..10] (default 2.5)\n"));
	assert_non_null(strstr(text, "-j, --jobs N"));
	assert_non_null(strstr(text, "(default build/x)\n"));
}

static void test_options_groups(void **state)
{
	(void)state;
	struct tcmd o = { 0 };
	char *argv[] = { "-j", "3", "--dir=d", "--wait", "1", NULL };
	assert_int_equal(options_parse(tcmd_table, &o, NULL, 5, argv, NULL, 0), 0);
	assert_int_equal(o.grp.jobs, 3);
	assert_string_equal(o.grp.dir, "d");
	assert_true(o.wait == 1);
	/* a config key through the same table and checks */
	char err[256];
	assert_int_equal(option_set(tcmd_table, &o, "jobs", "5", err, sizeof(err)), 0);
	assert_int_equal(o.grp.jobs, 5);
	assert_int_equal(option_set(tcmd_table, &o, "jobs", "65", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "'jobs' must be an integer from 1 to 64"));
	assert_int_equal(option_set(tcmd_table, &o, "nope", "1", err, sizeof(err)), -1);
	assert_ptr_equal(option_find(tcmd_table, "help"), &options_global[0]);
	assert_string_equal(option_closest(tcmd_table, "dri"), "dir");
	free(o.grp.dir);
}

static void test_command_usage(void **state)
{
	(void)state;
	struct tcmd o = { 0 };
	char *pos[2];
	int np = 0;
	char *help[] = { "tcmd", "--help", NULL };
	capture_start();
	assert_int_equal(command_parse(&tcmd_def, &o, NULL, 2, help, pos, &np), PARSE_HELP);
	capture_end();
	assert_int_equal(parse_exit(PARSE_HELP), 0);
	char text[2048];
	help_text(&tcmd_def, NULL, text, sizeof(text));
	const char *want = "usage: flagbench tcmd BASE NEW [options]\n\na test command\n\n";
	assert_true(!strncmp(text, want, strlen(want)));
	free(o.grp.dir);
	memset(&o, 0, sizeof(o));
	char *one[] = { "tcmd", "a", NULL };
	capture_start();
	assert_int_equal(command_parse(&tcmd_def, &o, NULL, 2, one, pos, &np), PARSE_USAGE);
	assert_non_null(strstr(capture_end(), "flagbench: tcmd: too few arguments (usage: flagbench tcmd BASE NEW [options]; see --help)"));
	assert_int_equal(parse_exit(PARSE_USAGE), 2);
	free(o.grp.dir);
	memset(&o, 0, sizeof(o));
	char *two[] = { "tcmd", "a", "--wait", "3", "b", NULL };
	assert_int_equal(command_parse(&tcmd_def, &o, NULL, 5, two, pos, &np), PARSE_OK);
	assert_int_equal(np, 2);
	assert_string_equal(pos[1], "b");
	free(o.grp.dir);
}

/* One-option groups at a double, a table included in place, and a second
 * usage form. */
struct tlimits {
	double timeout, build;
	char *fmt;
	struct global_opts g;
};
static const struct option_def tlimits_common[] = {
	OPTION_GROUP(options_timeout, struct tlimits, timeout),
	OPTION_GROUP(options_build_timeout, struct tlimits, build),
	OPTION_GROUP(options_global, struct tlimits, g),
	{ .name = NULL },
};
static const struct option_def tlimits_table[] = {
	{ .name = "fmt", .type = OPT_STRING, .offset = offsetof(struct tlimits, fmt), .metavar = "F", .help = "fmt", .def = "md" },
	OPTION_INCLUDE(tlimits_common),
	{ .name = NULL },
};
static const struct command_def tlimits_def = {
	.name = "tl",
	.synopsis = "A B",
	.synopsis_alt = "--one A",
	.summary = "limits",
	.options = tlimits_table,
	.min_pos = 1,
	.max_pos = 2,
	.order = OPTIONS_ANYWHERE,
};

static void test_options_shared(void **state)
{
	(void)state;
	struct tlimits o = { 0 };
	char *argv[] = { "--build-timeout=9", NULL };
	assert_int_equal(options_parse(tlimits_table, &o, NULL, 1, argv, NULL, 0), 0);
	assert_true(o.timeout == 120);
	assert_true(o.build == 9);
	assert_string_equal(o.fmt, "md");
	char err[256];
	assert_int_equal(option_set(tlimits_table, &o, "timeout", "0.05", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "'timeout' must be a number from 0.1 to 86400"));
	free(o.fmt);
	/* both forms in --help, joined by "or" in a usage error */
	char text[2048];
	help_text(&tlimits_def, NULL, text, sizeof(text));
	const char *want = "usage: flagbench tl A B [options]\n       flagbench tl --one A [options]\n\nlimits\n\n";
	assert_true(!strncmp(text, want, strlen(want)));
	assert_non_null(strstr(text, "--build-timeout SECONDS"));
	capture_start();
	assert_int_equal(command_usage_error(&tlimits_def, "tl: %s", "no"), 2);
	assert_non_null(strstr(capture_end(), "flagbench: tl: no (usage: flagbench tl A B [options] or flagbench tl --one A [options]; see --help)"));
}

/* A suite's "runs" and "warmup" and --runs/--warmup: one row each. */
static void test_suite_keys(void **state)
{
	(void)state;
	struct suite_key_opts k = { 0 };
	char err[256];
	assert_int_equal(option_set(options_suite_keys, &k, "runs", "7", err, sizeof(err)), 0);
	assert_int_equal(option_set(options_suite_keys, &k, "warmup", "0", err, sizeof(err)), 0);
	assert_int_equal(k.runs, 7);
	assert_int_equal(option_set(options_suite_keys, &k, "warmup", "1001", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "'warmup' must be an integer from 0 to 1000, not '1001'"));
	assert_ptr_equal(option_find(options_run_like, "runs"), &options_suite_keys[0]);
	char path[] = "/tmp/test-core-suite-XXXXXX.json";
	int fd = mkstemps(path, 5);
	assert_true(fd >= 0);
	const char *text = "{\"name\": \"k\", \"variants\": [\"yes/buf\"], \"compilers\": [\"gcc\"],\n"
			   " \"opt\": [\"-O2\"], \"runs\": 3, \"warmup\": 2000}\n";
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	struct suite s;
	capture_start();
	assert_int_equal(load_suite(path, &s), -1);
	assert_non_null(strstr(capture_end(), ":2:39: warmup: 'warmup' must be an integer from 0 to 1000, not '2000'"));
	fd = open(path, O_WRONLY | O_TRUNC);
	text = "{\"name\": \"k\", \"variants\": [\"yes/buf\"], \"compilers\": [\"gcc\"],\n"
	       " \"opt\": [\"-O2\"], \"runs\": 3}\n";
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	assert_int_equal(load_suite(path, &s), 0);
	assert_true(s.has_runs && s.runs == 3 && !s.has_warmup && !s.has_cell_budget);
	free_suite(&s);
	/* cell_budget: a number, through --cell-budget's row (range and all) */
	const char *budgets[][2] = {
		{ "1.5", NULL },
		{ "0.05", ":2:44: cell_budget: 'cell-budget' must be a number from 0.1 to 86400, not '0.05'" },
		{ "\"2\"", ":2:44: cell_budget: must be a number, not a string" },
	};
	for (size_t i = 0; i < sizeof(budgets) / sizeof(budgets[0]); i++) {
		fd = open(path, O_WRONLY | O_TRUNC);
		char *t = xasprintf("{\"name\": \"k\", \"variants\": [\"yes/buf\"], \"compilers\": [\"gcc\"],\n"
				    " \"opt\": [\"-O2\"], \"runs\": 3, \"cell_budget\": %s}\n", budgets[i][0]);
		assert_int_equal(write(fd, t, strlen(t)), (ssize_t)strlen(t));
		close(fd);
		free(t);
		capture_start();
		int r = load_suite(path, &s);
		const char *said = capture_end();
		if (!budgets[i][1]) {
			assert_int_equal(r, 0);
			assert_true(s.has_cell_budget && s.cell_budget == 1.5);
			free_suite(&s);
		} else {
			assert_int_equal(r, -1);
			if (!strstr(said, budgets[i][1]))
				fail_msg("%s: %s", budgets[i][0], said);
		}
	}
	unlink(path);
}

/* run's table: the shared groups' defaults, and the fields run's code names. */
static void test_run_options(void **state)
{
	(void)state;
	struct run_opts o;
	memset(&o, 0, sizeof(o));
	struct run_settings s;
	memset(&s, 0, sizeof(s));
	char *argv[] = { "run", "--runs", "4", "--order", "sequential", NULL };
	assert_int_equal(run_opts_parse(&o, 5, argv, &s), 0);
	assert_string_equal(o.cpu, "host");
	assert_string_equal(o.suite, "quick");
	assert_null(o.cache);
	assert_int_equal(o.keys.runs, 4);
	assert_true(o.timeout == 120 && o.build_timeout == 300);
	assert_int_equal(s.order, RUN_ORDER_SEQUENTIAL);
	assert_true(option_given(cmd_run_def.options, o.given, "runs"));
	assert_false(option_given(cmd_run_def.options, o.given, "warmup"));
	/* the cell budget: the option's, else the suite's, else 2.5 s */
	struct suite suite;
	memset(&suite, 0, sizeof(suite));
	suite.cooldown_s = -1;
	struct cpu_profile prof;
	memset(&prof, 0, sizeof(prof));
	run_settings_resolve(&o, &suite, &prof, &s);
	assert_true(s.cell_budget == 2.5);
	suite.has_cell_budget = 1;
	suite.cell_budget = 1.5;
	run_settings_resolve(&o, &suite, &prof, &s);
	assert_true(s.cell_budget == 1.5);
	run_opts_free(&o);
	memset(&o, 0, sizeof(o));
	char *budget[] = { "run", "--cell-budget", "4", NULL };
	assert_int_equal(run_opts_parse(&o, 3, budget, &s), 0);
	run_settings_resolve(&o, &suite, &prof, &s);
	assert_true(s.cell_budget == 4);
	run_opts_free(&o);
	memset(&o, 0, sizeof(o));
	/* --help (on stdout, dropped here) sets o.help, exit 0 */
	char *help[] = { "run", "-h", NULL };
	fflush(stdout);
	int out = dup(1), null = open("/dev/null", O_WRONLY);
	dup2(null, 1);
	int rc = run_opts_parse(&o, 2, help, &s);
	fflush(stdout);
	dup2(out, 1);
	close(out);
	close(null);
	assert_int_equal(rc, 0);
	assert_true(o.help);
	run_opts_free(&o);
	memset(&o, 0, sizeof(o));
	char *bad[] = { "run", "--order", "random", NULL };
	capture_start();
	assert_int_equal(run_opts_parse(&o, 3, bad, &s), 2);
	assert_non_null(strstr(capture_end(), "--order must be sequential or interleave, not 'random'"));
	run_opts_free(&o);
}

static void test_closest_word(void **state)
{
	(void)state;
	const char *words[] = { "smoke", "quick", "full", "seed000", NULL };
	assert_string_equal(closest_word(words, "smoek"), "smoke");
	assert_string_equal(closest_word(words, "quik"), "quick");
	assert_null(closest_word(words, "zzzzzzzz"));
}

/* ---- jsonpos ---- */
static void test_json_locate(void **state)
{
	(void)state;
	const char *text = "{\n  \"a\": 1,\n  \"b\": [10, {\"c\": \"x\"}],\n  \"d\": {\"e\": true}\n}\n";
	struct json_step p1[] = { { "b", 0 }, { NULL, 1 }, { "c", 0 } };
	int line, col;
	assert_int_equal(json_locate(text, p1, 3, &line, &col), 0);
	assert_int_equal(line, 3);
	assert_int_equal(col, 19);
	struct json_step p2[] = { { "d", 0 }, { "e", 0 } };
	assert_int_equal(json_locate(text, p2, 2, &line, &col), 0);
	assert_int_equal(line, 4);
	assert_int_equal(col, 14);
	struct json_step p3[] = { { "zz", 0 } };
	assert_int_equal(json_locate(text, p3, 1, &line, &col), -1);
}

/* ---- config ---- */
static void test_config_errors(void **state)
{
	(void)state;
	static const struct {
		const char *file;
		const char *message;
	} cases[] = {
		{ "tests/fixtures/configs/bad-runs.json", "bad-runs.json:6:11: runs: must be an integer, not a string" },
		{ "tests/fixtures/configs/bad-syntax.json", "bad-syntax.json:4:13: '}' expected near" },
		{ "tests/fixtures/configs/bad-key.json", "bad-key.json:6:13: warmpu: unknown key; did you mean 'warmup'?" },
		{ "tests/fixtures/configs/bad-size.json", "bad-size.json:6:20: sizes.yes: must be a size from 1" },
		{ "tests/fixtures/configs/none.json", "cannot read tests/fixtures/configs/none.json" },
		{ "tests/fixtures/configs/bad-placement.json",
		  "bad-placement.json:6:30: placements[1]: 'same_ccx' is not a placement class" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct suite s;
		capture_start();
		int r = load_suite(cases[i].file, &s);
		const char *err = capture_end();
		assert_int_equal(r, -1);
		if (!strstr(err, cases[i].message))
			fail_msg("case %zu: '%s' lacks '%s'", i, err, cases[i].message);
	}
}

static void test_config_unknown_profile(void **state)
{
	(void)state;
	struct cpu_profile p;
	capture_start();
	assert_int_equal(load_cpu_profile("J4250", &p), -1);
	const char *err = capture_end();
	assert_non_null(strstr(err, "unknown cpu profile 'J4250' (did you mean 'J4205'?)"));
	assert_non_null(strstr(err, "available: host, 2700, 5700X, J4205"));
}

static void test_config_profiles(void **state)
{
	(void)state;
	struct cpu_profile p;
	assert_int_equal(load_cpu_profile("J4205", &p), 0);
	assert_string_equal(p.march.v[0], "goldmont");
	assert_int_equal(p.pin_producer, 0);
	assert_int_equal(p.pin_consumer, 2);
	assert_true(p.cooldown_s == 10);
	free_cpu_profile(&p);
	assert_int_equal(load_cpu_profile("host", &p), 0);
	assert_string_equal(p.march.v[0], "native");
	free_cpu_profile(&p);
}

/* ---- plan ---- */
static int fake_flag(const char *flag)
{
	return strcmp(flag, "avx512bw") != 0;
}

static int fake_march(struct compiler *c, const char *march, char *why, size_t n)
{
	if (!strcmp(march, "x86-64-v3") && !strcmp(c->name, "clang")) {
		snprintf(why, n, "clang does not accept -march=%s", march);
		return 0;
	}
	return 1;
}

static void test_plan_matrix(void **state)
{
	(void)state;
	struct plan_fixture fx;
	fixture_load(&fx, "tests/fixtures/configs/matrix.json", "host", fake_flag, fake_march);
	struct plan plan;
	struct plan_input in = fx.in;
	assert_int_equal(plan_build(&in, &plan), 0);
	/* 2 variants x 3 compilers x 2 opt x 2 march + the GNU yes reference */
	assert_int_equal(plan.n, 2 * 3 * 2 * 2 + 1);
	size_t missing = 0, refused = 0, pending = 0;
	for (size_t i = 0; i < plan.n; i++) {
		struct cell *c = &plan.cells[i];
		if (c->spec.reference) {
			assert_string_equal(c->spec.id, "yes/gnu-yes@reference");
			continue;
		}
		if (!strcmp(c->spec.compiler->name, "no-such-compiler-xyz")) {
			assert_int_equal(c->status, CELL_UNSUPPORTED);
			assert_non_null(strstr(c->reason, "not found on PATH"));
			missing++;
		} else if (!strcmp(c->spec.compiler->name, "clang") && !strcmp(c->spec.march, "x86-64-v3")) {
			assert_int_equal(c->status, CELL_UNSUPPORTED);
			refused++;
		} else {
			assert_int_equal(c->status, CELL_PENDING);
			pending++;
		}
		assert_int_equal(c->spec.size, !strcmp(c->spec.variant->name, "vmsplice") ? 5000 : 1000);
		assert_int_equal(c->spec.expected_bytes, c->spec.size * 2);
	}
	assert_int_equal(missing, 8);
	assert_int_equal(refused, 4);
	assert_int_equal(pending, 12);
	assert_string_equal(plan.cells[0].spec.id, "yes/buf@gcc/-O2/x86-64");
	assert_string_equal(plan.cells[0].spec.cflags.v[0], "-O2");
	assert_string_equal(plan.cells[0].spec.cflags.v[1], "-march=x86-64");

	/* cache keys: same inputs, same key; any flag changes it */
	char k0[65], k1[65], k2[65];
	assert_int_equal(build_cache_key(&plan.cells[0], k0), 0);
	assert_int_equal(build_cache_key(&plan.cells[0], k1), 0);
	assert_string_equal(k0, k1);
	assert_int_equal(build_cache_key(&plan.cells[1], k2), 0); /* -O2 x86-64-v3 */
	assert_string_not_equal(k0, k2);

	/* --only keeps the cells it selects, in plan order, and drops the rest */
	struct plan p2;
	in.only = "yes/vmsplice@gcc/*";
	assert_int_equal(plan_build(&in, &p2), 0);
	assert_int_equal(p2.n, 4);
	for (size_t i = 0; i < p2.n; i++) {
		assert_int_equal(fnmatch(in.only, p2.cells[i].spec.id, 0), 0);
		assert_int_not_equal(p2.cells[i].status, CELL_SKIPPED);
	}
	plan_free(&p2);
	/* one that selects nothing is refused, naming the nearest */
	in.only = "yes/vmsplise@gcc/*";
	assert_int_equal(plan_build(&in, &p2), -1);
	assert_non_null(strstr(p2.refused, "did you mean 'yes/vmsplice@gcc/*'?"));
	plan_free(&p2);
	in.only = NULL;

	/* the results JSON of a pending cell and of the whole plan */
	struct run_state rs;
	memset(&rs, 0, sizeof(rs));
	rs.id = "test";
	rs.dir = "/tmp";
	rs.suite = &fx.s;
	rs.cpu_profile = &fx.p;
	rs.plan = &plan;
	rs.argv = json_array();
	rs.host = json_object();
	rs.tools = json_object();
	rs.profile = json_object();
	json_t *doc = results_to_json(&rs);
	assert_string_equal(json_string_value(json_object_get(doc, "schema")), "flagbench-results/1");
	json_t *cells = json_object_get(doc, "cells");
	assert_int_equal(json_array_size(cells), plan.n);
	json_t *c0 = json_array_get(cells, 0);
	assert_string_equal(json_string_value(json_object_get(c0, "config")), "gcc/-O2/x86-64");
	assert_true(json_is_null(json_object_get(c0, "time_s")));
	json_t *ref = json_array_get(cells, plan.n - 1);
	assert_string_equal(json_string_value(json_object_get(ref, "compiler")), "none");
	json_decref(doc);
	json_decref(rs.argv);
	json_decref(rs.host);
	json_decref(rs.tools);
	json_decref(rs.profile);

	plan_free(&plan);
	fixture_free(&fx);
}

/* stream families cross placements and consumers; references too */
static void test_plan_placements(void **state)
{
	(void)state;
	struct plan_fixture fx;
	fixture_load(&fx, "tests/fixtures/configs/placements.json", "host", fake_flag, fake_march);
	struct plan plan;
	struct plan_input in = fx.in;
	assert_int_equal(plan_build(&in, &plan), 0);
	assert_int_equal(plan.n, 3 * 2 + 3 * 2);
	assert_string_equal(plan.cells[0].spec.id, "yes/buf@gcc/-O2/default/same_cpu/splice");
	assert_string_equal(plan.cells[1].spec.id, "yes/buf@gcc/-O2/default/same_cpu/pv");
	assert_string_equal(plan.cells[5].spec.id, "yes/buf@gcc/-O2/default/unpinned/pv");
	assert_string_equal(plan.cells[6].spec.id, "yes/gnu-yes@reference/same_cpu/splice");
	assert_string_equal(plan.cells[6].spec.placement, "same_cpu");
	assert_string_equal(plan.cells[11].spec.consumer, "pv");
	plan_free(&plan);
	fixture_free(&fx);
}

/* cross targets: own compiler and marches, emulator prefix, own sizes;
 * more (compiler, march) probes than the native matrix has */
static void test_plan_cross(void **state)
{
	(void)state;
	struct plan_fixture fx;
	fixture_load(&fx, "tests/fixtures/configs/cross.json", "J4205", fake_flag, fake_march);
	struct plan plan;
	struct plan_input in = fx.in;
	assert_int_equal(plan_build(&in, &plan), 0);
	assert_int_equal(plan.n, 1 + 3 + 1 + 1); /* native, 3 cross, missing cross, reference */
	struct cell *x = &plan.cells[1];
	assert_string_equal(x->spec.id, "yes/buf@gcc/-O2/x86-64-v2");
	assert_non_null(x->spec.cross);
	assert_int_equal(x->spec.size, 77);
	assert_int_equal(x->status, CELL_PENDING);
	/* no profile flags (-msse4 of the J4205) in a cross build */
	assert_int_equal(x->spec.cflags.n, 2);
	assert_int_equal(plan.cells[0].spec.cflags.n, 3);
	struct strvec argv = STRVEC_INIT;
	x->build.binary = xstrdup("/bin/prog");
	cell_program_argv(x, &argv);
	assert_string_equal(argv.v[0], "env");
	assert_string_equal(argv.v[1], "/bin/prog");
	sv_clear(&argv);
	struct cell *missing = &plan.cells[4];
	assert_int_equal(missing->status, CELL_UNSUPPORTED);
	assert_non_null(strstr(missing->reason, "install gcc-riscv64-linux-gnu qemu-user"));
	plan_free(&plan);
	fixture_free(&fx);
}

/* ---- where cells run: resolved by the plan ---- */
static const char *fake_allocator(const char *name, char *reason, size_t n)
{
	if (!strcmp(name, "glibc"))
		return "";
	if (!strcmp(name, "mimalloc"))
		return "/fake/libmimalloc.so.2";
	snprintf(reason, n, "%s: not installed here", name);
	return NULL;
}

static void test_plan_runtime(void **state)
{
	(void)state;
	struct topology topo;
	struct plan_fixture fx;
	fixture_load(&fx, "tests/fixtures/configs/placements.json", "host", fake_flag, fake_march);
	assert_int_equal(topology_load("tests/fixtures/sys/j4205", &topo), 0);
	struct plan plan;
	struct plan_input in = fx.in;
	in.topology = &topo;
	assert_int_equal(plan_build(&in, &plan), 0);
	size_t with_pair = 0;
	for (size_t i = 0; i < plan.n; i++) {
		const struct cell *c = &plan.cells[i];
		enum placement_class cls;
		int a, b;
		assert_int_equal(placement_class_parse(c->spec.placement, &cls), 0);
		if (topology_class_pair(&topo, cls, &a, &b) == 0) {
			with_pair++;
			assert_int_equal(c->status, CELL_PENDING);
			assert_int_equal(c->spec.pin.producer, a);
			assert_int_equal(c->spec.pin.consumer, b);
		} else {
			assert_int_equal(c->status, CELL_UNSUPPORTED);
			assert_non_null(strstr(c->reason, "pair on this machine"));
		}
	}
	assert_true(with_pair >= 4); /* same_cpu and unpinned exist everywhere */
	plan_free(&plan);

	/* without a topology no placement can be honoured */
	in.topology = NULL;
	assert_int_equal(plan_build(&in, &plan), 0);
	for (size_t i = 0; i < plan.n; i++) {
		assert_int_equal(plan.cells[i].status, CELL_UNSUPPORTED);
		assert_non_null(strstr(plan.cells[i].reason, "cpu topology unreadable"));
	}
	plan_free(&plan);
	free_suite(&fx.s);

	/* allocators: a library to preload, or unsupported with the reason */
	assert_int_equal(load_suite("seed004", &fx.s), 0);
	in.suite = &fx.s;
	in.allocator_library = fake_allocator;
	assert_int_equal(plan_build(&in, &plan), 0);
	size_t seen[3] = { 0 };
	for (size_t i = 0; i < plan.n; i++) {
		const struct cell *c = &plan.cells[i];
		if (!strcmp(c->spec.allocator, "glibc")) {
			assert_null(c->spec.preload);
			seen[0]++;
		} else if (!strcmp(c->spec.allocator, "mimalloc")) {
			assert_string_equal(c->spec.preload, "/fake/libmimalloc.so.2");
			seen[1]++;
		} else {
			assert_int_equal(c->status, CELL_UNSUPPORTED);
			assert_non_null(strstr(c->reason, "not installed here"));
			seen[2]++;
		}
	}
	assert_true(seen[0] > 0 && seen[0] == seen[1] && seen[2] == 2 * seen[0]);
	/* vs_glibc: against the same build under glibc, not another variant's */
	for (size_t i = 0; i < plan.n; i++) {
		struct cell *c = &plan.cells[i];
		int glibc = !strcmp(c->spec.allocator, "glibc");
		/* each variant its own time, the glibc build twice as slow */
		double t = c->spec.variant ? (double)(c->spec.variant - c->spec.family->variants + 1) * (glibc ? 2.0 : 1.0)
					   : 1.0;
		double runs[3] = { t, t, t };
		if (c->spec.variant && (glibc || !strcmp(c->spec.allocator, "mimalloc"))) {
			c->status = CELL_OK;
			stats_compute(&c->measure.time, runs, 3);
		}
	}
	compute_speedups(&plan);
	for (size_t i = 0; i < plan.n; i++) {
		const struct cell *c = &plan.cells[i];
		if (!strcmp(c->spec.allocator, "mimalloc"))
			assert_true(fabs(c->vs_glibc - 2.0) < 1e-9);
		else
			assert_true(isnan(c->vs_glibc));
	}
	plan_free(&plan);
	topology_free(&topo);
	fixture_free(&fx);
}

/* ---- a cell's records: serialized once, parsed back the same ---- */
static void fill_measured_cell(struct cell *c)
{
	static const double t[] = { 0.20, 0.21, 0.19, 0.20, 0.22 };
	c->status = CELL_OK;
	sv_push(&c->warnings, "throttled: clock fell");
	snprintf(c->build.sha256, sizeof(c->build.sha256), "%064d", 7);
	c->build.bytes = 16384;
	c->build.libraries = json_pack("[{s:s, s:s}]", "path", "/lib/x86_64-linux-gnu/libc.so.6", "sha256", "ab");
	c->verify.status = VERIFY_PASSED;
	c->verify.seconds = 0.5;
	struct cell_measurement *m = &c->measure;
	stats_compute(&m->time, t, 5);
	m->user_s = 0.01;
	m->system_s = 0.02;
	json_t *run = json_pack("{s:i, s:f, s:s, s:s, s:s}", "bytes", 2000, "seconds", 0.2, "producer", "exited 0",
				"status", "ok", "consumer", "splice");
	m->runs = xcalloc(1, sizeof(*m->runs));
	assert_int_equal(meter_run_from_json(&m->runs[0], run), 0);
	m->nruns = 1;
	json_decref(run);
	m->cooldown = xcalloc(1, sizeof(*m->cooldown));
	m->ncooldown = 1;
	m->cooldown[0].status = COOLDOWN_REACHED;
	m->cooldown[0].temp_before = 60;
	m->cooldown[0].temp_after = NAN;
	m->cooldown[0].waited_s = 3;
	snprintf(m->cooldown[0].sensor, sizeof(m->cooldown[0].sensor), "k10temp/Tctl");
	snprintf(m->cooldown[0].reason, sizeof(m->cooldown[0].reason), "reached");
	m->thermal.taken = 1;
	m->thermal.throttled = THROTTLE_YES;
	m->thermal.why = xstrdup("clock fell");
	m->thermal.celsius_before = 55;
	m->thermal.before = json_pack("{s:f}", "celsius", 55.0);
	m->thermal.after = json_pack("{s:n}", "celsius");
	m->counters.state = COUNTERS_COUNTED;
	m->counters.source = xstrdup("callgrind");
	m->counters.unit = xstrdup("byte");
	m->counters.size = 4096;
	m->counters.instructions_per_unit = 3.5;
}

static void test_cell_round_trip(void **state)
{
	(void)state;
	struct plan_fixture fx;
	fixture_load(&fx, "tests/fixtures/configs/matrix.json", "host", fake_flag, fake_march);
	struct plan a, b;
	struct plan_input in = fx.in;
	assert_int_equal(plan_build(&in, &a), 0);
	assert_int_equal(plan_build(&in, &b), 0);
	/* cell 0 measured with every record; the last variant cell shares its binary */
	size_t twin = a.n - 2;
	fill_measured_cell(&a.cells[0]);
	a.cells[twin].status = CELL_OK;
	a.cells[twin].build.same_binary_as = 0;
	cell_set_status(&a.cells[1], CELL_WRONG_OUTPUT, "line 3 differs");
	size_t idx[] = { 0, 1, twin };
	for (size_t k = 0; k < 3; k++) {
		json_t *j = cell_to_json(&a.cells[idx[k]], &a);
		char *text = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(10));
		json_t *back = json_loads(text, 0, NULL); /* through text, as the journal */
		assert_int_equal(cell_from_json(&b.cells[idx[k]], back, &b), 0);
		json_t *again = cell_to_json(&b.cells[idx[k]], &b);
		assert_true(json_equal(j, again));
		json_decref(j);
		json_decref(back);
		json_decref(again);
		free(text);
	}
	/* the restored measurement computes as the original does */
	assert_int_equal(b.cells[0].measure.time.n, 5);
	assert_true(cell_rate(&b.cells[0], NULL, NULL) > 0);
	assert_int_equal(b.cells[twin].build.same_binary_as, 0);
	assert_true(json_equal(b.cells[0].build.libraries, a.cells[0].build.libraries));
	assert_int_equal(b.cells[0].measure.thermal.throttled, THROTTLE_YES);
	assert_int_equal(b.cells[0].measure.cooldown[0].status, COOLDOWN_REACHED);
	assert_int_equal(b.cells[1].status, CELL_WRONG_OUTPUT);
	assert_string_equal(b.cells[1].reason, "line 3 differs");
	json_t *bad = json_pack("{s:s}", "status", "no_such_status");
	assert_int_equal(cell_from_json(&b.cells[2], bad, &b), -1);
	json_decref(bad);
	plan_free(&a);
	plan_free(&b);
	fixture_free(&fx);
}

/* ---- statistics ---- */
static void test_stats(void **state)
{
	(void)state;
	struct stats s;
	double a[] = { 1.0, 2.0, 3.0, 4.0, 100.0 };
	stats_compute(&s, a, 5);
	assert_true(s.median == 3.0);
	assert_true(s.min == 1.0 && s.max == 100.0);
	assert_true(s.mean == 22.0);
	assert_true(s.mad == 1.0);
	assert_int_equal(s.outliers, 1); /* 100 is flagged, not dropped */
	assert_int_equal(s.n, 5);
	stats_free(&s);

	double eq[] = { 2.0, 2.0, 2.0, 2.0 };
	stats_compute(&s, eq, 4);
	assert_true(s.median == 2.0 && s.stddev == 0 && s.mad == 0 && s.cv == 0);
	assert_true(s.ci_low == 2.0 && s.ci_high == 2.0);
	assert_int_equal(s.outliers, 0);
	assert_true(stats_ci_percent(&s) == 0);
	stats_free(&s);

	double one[] = { 0.5 };
	stats_compute(&s, one, 1);
	assert_true(s.median == 0.5 && s.stddev == 0 && s.ci_low == 0.5 && s.ci_high == 0.5);
	json_t *j = stats_to_json(&s);
	assert_int_equal(json_array_size(json_object_get(j, "runs")), 1);
	json_decref(j);
	stats_free(&s);

	/* 20 samples: the CI covers the middle order statistics */
	double v[20];
	for (int i = 0; i < 20; i++)
		v[i] = 1.0 + i * 0.01;
	stats_compute(&s, v, 20);
	assert_true(s.ci_low < s.median && s.median < s.ci_high);
	assert_true(s.ci_low >= v[4] && s.ci_high <= v[15]);
	stats_free(&s);
}

/* ---- statuses ---- */
static void test_status_mapping(void **state)
{
	(void)state;
	const char *names[] = { "ok", "build_failed", "unsupported", "wrong_output", "crashed", "timeout", "skipped",
				"failed" };
	const int failed[] = { 0, 1, 0, 1, 1, 1, 0, 1 };
	for (size_t i = 0; i < 8; i++) {
		enum cell_status s;
		assert_int_equal(cell_status_parse(names[i], &s), 0);
		assert_string_equal(cell_status_name(s), names[i]);
		assert_int_equal(cell_status_failed(s), failed[i]);
	}
	enum cell_status s;
	assert_int_equal(cell_status_parse("bogus", &s), -1);
}

/* ---- hyperfine quoting ---- */
static void test_hyperfine_quote(void **state)
{
	(void)state;
	struct strbuf sb = STRBUF_INIT;
	hyperfine_quote(&sb, "/a b/prog");
	hyperfine_quote(&sb, "it's");
	assert_string_equal(sb.buf, "'/a b/prog' 'it'\\''s'");
	sb_release(&sb);
}

/* ---- spawning with an environment of the child's own ---- */
static void test_run_capture_env(void **state)
{
	(void)state;
	setenv("FB_TEST_KEEP", "parent", 1);
	unsetenv("FB_TEST_CHILD");
	char *argv[] = { "sh", "-c", "printf '%s|%s' \"$FB_TEST_CHILD\" \"$FB_TEST_KEEP\"", NULL };
	char *env[] = { "FB_TEST_CHILD=x y", NULL };
	struct strbuf out = STRBUF_INIT;
	struct child_exit ex;
	assert_int_equal(run_capture_env(argv, env, CHILD_DEVNULL, 10, 4096, &out, NULL, &ex), 0);
	assert_string_equal(out.buf, "x y|parent");
	/* the parent's environment is untouched */
	assert_null(getenv("FB_TEST_CHILD"));
	sb_release(&out);
	char *env2[] = { "FB_TEST_KEEP=child", NULL };
	assert_int_equal(run_capture_env(argv, env2, CHILD_DEVNULL, 10, 4096, &out, NULL, &ex), 0);
	assert_string_equal(out.buf, "|child");
	assert_string_equal(getenv("FB_TEST_KEEP"), "parent");
	sb_release(&out);
	/* env alone (counts): the parent's variables do not reach the child,
	 * yet "sh" is still found on the parent's PATH */
	assert_int_equal(run_capture_env_only(argv, env, CHILD_DEVNULL, 10, 4096, &out, NULL, &ex), 0);
	assert_string_equal(out.buf, "x y|");
	sb_release(&out);
	char *count[] = { "sh", "-c", "env | wc -l", NULL };
	assert_int_equal(run_capture_env_only(count, env, CHILD_DEVNULL, 10, 4096, &out, NULL, &ex), 0);
	/* FB_TEST_CHILD, and what sh itself sets (PWD, SHLVL, _) */
	assert_true(atoi(out.buf) >= 1 && atoi(out.buf) <= 4);
	sb_release(&out);
}

/* ---- the yes checker ---- */
static enum check_status check_text(const char *family, uint64_t n, int argc, char **argv, const char *text,
				    size_t len, struct check_report *rep)
{
	int p[2];
	assert_int_equal(pipe(p), 0);
	assert_int_equal(write(p[1], text, len), (ssize_t)len);
	close(p[1]);
	struct check_args a = { n, argc, argv };
	memset(rep, 0, sizeof(*rep));
	enum check_status st = checker_find(family)->check(&a, p[0], rep);
	close(p[0]);
	return st;
}

static void test_check_yes(void **state)
{
	(void)state;
	struct check_report rep;
	char *hello[] = { "hello", "world" };
	static const struct {
		uint64_t n;
		int argc;
		const char *text;
		enum check_status want;
		const char *message;
	} cases[] = {
		{ 3, 0, "y\ny\ny\n", CHECK_OK, "" },
		{ 0, 0, "", CHECK_OK, "" },
		{ 3, 0, "y\ny\n", CHECK_MISMATCH, "output ends after 4 bytes (line 3), expected 3 lines" },
		{ 3, 0, "y\nx\ny\n", CHECK_MISMATCH, "line 2 differs at byte 2: expected \"y\", received \"x\"" },
		{ 2, 0, "y\ny\ny\n", CHECK_MISMATCH, "extra output after line 2" },
		{ 2, 0, "y\ny", CHECK_MISMATCH, "output ends after 3 bytes" },
		{ 2, 2, "hello world\nhello world\n", CHECK_OK, "" },
		{ 2, 2, "hello world\nhello wor1d\n", CHECK_MISMATCH, "line 2 differs at byte 21" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		enum check_status st = check_text("yes", cases[i].n, cases[i].argc, hello, cases[i].text,
						  strlen(cases[i].text), &rep);
		if (st != cases[i].want || !strstr(rep.message, cases[i].message))
			fail_msg("case %zu: status %d, message '%s'", i, st, rep.message);
	}
	/* a long stream across many reads, one byte changed deep inside */
	size_t n = 3000000, len = n * 2;
	char *big = malloc(len);
	for (size_t i = 0; i < n; i++)
		memcpy(big + 2 * i, "y\n", 2);
	struct check_args a = { n, 0, NULL };
	assert_int_equal(checker_find("yes")->expected_bytes(&a), len);
	big[2 * 2000000] = 'n';
	int p[2];
	assert_int_equal(pipe(p), 0);
	pid_t pid = fork();
	if (pid == 0) {
		close(p[0]);
		size_t off = 0;
		while (off < len) {
			ssize_t w = write(p[1], big + off, len - off);
			if (w <= 0)
				_exit(0);
			off += (size_t)w;
		}
		_exit(0);
	}
	close(p[1]);
	enum check_status st = checker_find("yes")->check(&a, p[0], &rep);
	close(p[0]);
	waitpid(pid, NULL, 0);
	assert_int_equal(st, CHECK_MISMATCH);
	assert_non_null(strstr(rep.message, "line 2000001 differs at byte 4000000"));
	free(big);
}

/* ---- write_file_atomic ---- */
/* The names in DIR but . and .., sorted, joined by spaces. */
static char *dir_names(const char *dir)
{
	struct dirent **ents;
	int n = scandir(dir, &ents, NULL, alphasort);
	assert_true(n >= 0);
	char *out = xstrdup("");
	for (int i = 0; i < n; i++) {
		const char *name = ents[i]->d_name;
		if (strcmp(name, ".") && strcmp(name, "..")) {
			char *more = xasprintf("%s%s%s", out, *out ? " " : "", name);
			free(out);
			out = more;
		}
		free(ents[i]);
	}
	free(ents);
	return out;
}

/* The replacement is a new file renamed over the path: a reader that holds
 * the old file keeps reading the old content whole, the path names a new
 * inode, and no temporary file is left beside it, also when the rename
 * fails.  An in-place write (open the path with O_TRUNC, write) changes the
 * held inode; without this the full-tmpfs end-to-end test, which needs root
 * to mount, is the only one to notice. */
static void test_write_file_atomic(void **state)
{
	(void)state;
	char dir[] = "/tmp/flagbench-atomic-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char *path = xasprintf("%s/results.json", dir);
	const char *old = "{\"old\": true}\n", *new = "{\"new\": true, \"longer\": \"than the old\"}\n";
	size_t len;

	assert_int_equal(write_file_atomic(path, old, strlen(old)), 0);
	char *got = read_file(path, &len);
	assert_non_null(got);
	assert_int_equal(len, strlen(old));
	assert_string_equal(got, old);
	free(got);
	struct stat before, after, held;
	assert_int_equal(stat(path, &before), 0);
	mode_t um = umask(0);
	umask(um);
	assert_int_equal(before.st_mode & 0777, 0644 & ~um);
	/* a reader of the old file, and a second name for its inode */
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	char *link_path = xasprintf("%s/held", dir);
	assert_int_equal(link(path, link_path), 0);

	assert_int_equal(write_file_atomic(path, new, strlen(new)), 0);
	got = read_file(path, &len);
	assert_non_null(got);
	assert_string_equal(got, new);
	free(got);
	/* the path is a new inode; the old one is untouched: its size, its
	 * bytes through the open descriptor and through the hard link */
	assert_int_equal(stat(path, &after), 0);
	assert_true(after.st_ino != before.st_ino);
	assert_int_equal(fstat(fd, &held), 0);
	assert_true(held.st_ino == before.st_ino);
	assert_int_equal(held.st_size, (off_t)strlen(old));
	char buf[256];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	assert_int_equal(n, (ssize_t)strlen(old));
	buf[n] = '\0';
	assert_string_equal(buf, old);
	got = read_file(link_path, &len);
	assert_non_null(got);
	assert_string_equal(got, old);
	free(got);
	close(fd);
	/* only the file and the link: no temporary file left */
	char *names = dir_names(dir);
	assert_string_equal(names, "held results.json");
	free(names);

	/* a failed replace (the path is a folder: the rename fails) removes
	 * its temporary file and says why */
	char *sub = xasprintf("%s/sub", dir);
	assert_int_equal(mkdir(sub, 0755), 0);
	capture_start();
	int r = write_file_atomic(sub, new, strlen(new));
	const char *err = capture_end();
	assert_int_equal(r, -1);
	assert_non_null(strstr(err, "cannot replace"));
	names = dir_names(dir);
	assert_string_equal(names, "held results.json sub");
	free(names);

	assert_int_equal(rmdir(sub), 0);
	assert_int_equal(unlink(link_path), 0);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(rmdir(dir), 0);
	free(sub);
	free(link_path);
	free(path);
}

int main(void)
{
	setenv("FLAGBENCH_ROOT", ".", 1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_options_parse),  cmocka_unit_test(test_options_errors),
		cmocka_unit_test(test_options_defaults), cmocka_unit_test(test_options_groups),
		cmocka_unit_test(test_command_usage),  cmocka_unit_test(test_options_shared),
		cmocka_unit_test(test_suite_keys),     cmocka_unit_test(test_run_options),
		cmocka_unit_test(test_closest_word),   cmocka_unit_test(test_json_locate),
		cmocka_unit_test(test_config_errors),  cmocka_unit_test(test_config_unknown_profile),
		cmocka_unit_test(test_config_profiles), cmocka_unit_test(test_plan_matrix),
		cmocka_unit_test(test_plan_placements), cmocka_unit_test(test_plan_cross),
		cmocka_unit_test(test_plan_runtime),   cmocka_unit_test(test_cell_round_trip),
		cmocka_unit_test(test_stats),          cmocka_unit_test(test_status_mapping),
		cmocka_unit_test(test_hyperfine_quote), cmocka_unit_test(test_check_yes),
		cmocka_unit_test(test_run_capture_env), cmocka_unit_test(test_write_file_atomic),
	};
	return cmocka_run_group_tests_name("core", tests, NULL, NULL);
}
