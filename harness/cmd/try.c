/* try.c: `flagbench try FILE.c` (or FILE.cpp: a C++ file builds with each
 * compiler's C++ driver), one file across the suite's compilers x
 * -O x march with no family.json: a family of one variant is written into a
 * temporary folder (the file copied, the file's folder linked in as its
 * include folder, its size, unit and check from the options: by default
 * every build's output against the first configuration's), with a suite of
 * the named suite's compilers, opt and march (or --compilers, --opt,
 * --march and --flags, as run takes them), and run as `flagbench run`
 * would; the run's summary answers which configuration is fastest, and a
 * time per run that is mostly process start-up is warned of. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/suite.h"
#include "core/options.h"
#include "cmd/run.h"
#include "cmd/try.h"
#include "core/util.h"
#include "driver/run_dir.h"
#include "results/reader.h"

/* Under this a run is mostly the process starting and exiting, not the
 * file's work. */
#define TRY_STARTUP_S 0.005

struct try_opts {
	char *args, *expect_sha256, *expect_output, *unit;
	uint64_t size;
	int same_output, unchecked;
	struct run_like_opts run; /* handed to flagbench run where given */
	struct global_opts g;
};

#define TO(f) offsetof(struct try_opts, f)
static const struct option_def try_options[] = {
	{ .name = "args", .type = OPT_STRING, .offset = TO(args), .metavar = "\"WORDS\"", .help = "the program's arguments, split at spaces (no shell); {N} is --size; default none" },
	{ .name = "size", .type = OPT_SIZE, .offset = TO(size), .metavar = "N", .min = 1, .max = 1e18, .help = "the work of one run: {N} in --args, else the first argument; rates are per N" },
	{ .name = "unit", .type = OPT_STRING, .offset = TO(unit), .metavar = "NAME", .help = "what N counts, for the rates (NAME/s; default units with --size, else runs)" },
	{ .name = "expect-sha256", .type = OPT_STRING, .offset = TO(expect_sha256), .metavar = "HEX", .help = "the output's SHA-256 must be HEX" },
	{ .name = "expect-output", .type = OPT_STRING, .offset = TO(expect_output), .metavar = "FILE", .help = "the output must equal FILE" },
	{ .name = "same-output", .type = OPT_FLAG, .offset = TO(same_output), .help = "every build's output must equal the first configuration's (the default)" },
	{ .name = "unchecked", .type = OPT_FLAG, .offset = TO(unchecked), .help = "check no output (the tables mark the cells unchecked)" },
	OPTION_GROUP(options_run_like, struct try_opts, run),
	OPTION_GROUP(options_global, struct try_opts, g),
	{ .name = NULL },
};

const struct command_def cmd_try_def = {
	.name = "try",
	.synopsis = "FILE.c|FILE.cpp",
	.summary = "one C file across compilers and flags, no family.json",
	.options = try_options,
	.min_pos = 1,
	.max_pos = 1,
	.order = OPTIONS_ANYWHERE,
};


/* The variant's name: the file's base name as a family.json name. */
/* The file's extension: .c, .cpp, ... */
static const char *file_ext(const char *file)
{
	const char *b = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
	return strrchr(b, '.') ? strrchr(b, '.') : b + strlen(b);
}

static char *variant_name(const char *file)
{
	const char *b = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
	size_t n = (size_t)(file_ext(file) - b);
	char *name = xasprintf("%.*s", (int)n, b);
	for (char *p = name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_' || *p == '-'))
			*p = (*p >= 'A' && *p <= 'Z') ? (char)(*p - 'A' + 'a') : '_';
	if (name[0] == '.' || name[0] == '-')
		name[0] = '_';
	return name;
}

/* family.json: one variant, compute, the file's folder its include folder
 * ("src", linked), N as --size says, the check asked for (by default the
 * first configuration's output). */
static json_t *try_family(const struct try_opts *o, const char *name, const char *source, char *why, size_t n)
{
	json_t *check;
	if (o->expect_sha256) {
		check = json_pack("{s:{s:s}}", "sha256", "1", o->expect_sha256);
	} else if (o->expect_output) {
		char h[65];
		if (sha256_file_hex(o->expect_output, h, NULL) < 0) {
			snprintf(why, n, "cannot read %s: %s", o->expect_output, strerror(errno));
			return NULL;
		}
		check = json_pack("{s:{s:s}}", "sha256", "1", h);
	} else if (o->unchecked) {
		check = json_string("none");
	} else {
		check = json_pack("{s:s}", "same_as", name);
	}
	json_t *args = json_array();
	char *words = xstrdup(o->args ? o->args : ""), *save = NULL;
	for (char *w = strtok_r(words, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
		json_array_append_new(args, json_string(w));
	free(words);
	/* N goes where {N} is, else first, as a family's variants take it */
	int templated = o->args && strstr(o->args, "{N}");
	const char *unit = o->unit ? o->unit : o->size ? "units" : "runs";
	return json_pack("{s:s, s:s, s:s, s:s, s:I, s:b, s:o, s:o, s:s, s:[s], s:[{s:s, s:s}]}", "family", "try", "title",
			 name, "kind", "compute", "unit", unit, "default_size", (json_int_t)(o->size ? o->size : 1),
			 "pass_size", o->size && !templated, "args", args, "check", check, "baseline", name,
			 "include_dirs", "src", "variants", "name", name, "source", source);
}

/* The suite: the named suite's compilers, opt and march; this family only. */
static json_t *try_suite(const struct try_opts *o, const char *dir)
{
	struct suite s;
	if (load_suite(o->run.suite, &s) < 0)
		return NULL;
	json_t *j = json_pack("{s:s, s:[s], s:O, s:O, s:[s]}", "name", "try", "variants", "try/*", "compilers",
			      json_object_get(s.json, "compilers"), "opt", json_object_get(s.json, "opt"),
			      "family_dirs", dir);
	const char *keep[] = { "march", "runs", "warmup", NULL };
	for (int i = 0; keep[i]; i++)
		if (json_object_get(s.json, keep[i]))
			json_object_set(j, keep[i], json_object_get(s.json, keep[i]));
	free_suite(&s);
	return j;
}

static int write_json(const char *path, json_t *j)
{
	char *text = json_dumps(j, JSON_INDENT(2));
	int r = text ? write_file_atomic(path, text, strlen(text)) : -1;
	free(text);
	return r;
}

/* The one C file and the check options: 0, or EXIT_USAGE with the error
 * said. */
static int check_try_args(const struct try_opts *o, char **pos)
{
	const char *b = strrchr(pos[0], '/') ? strrchr(pos[0], '/') + 1 : pos[0];
	if (file_ext(pos[0]) == b || (strcmp(file_ext(pos[0]), ".c") && !is_cxx_source(pos[0])))
		return command_usage_error(&cmd_try_def, "try needs one C or C++ file (.c .cc .cpp .cxx .C), not '%s'",
					   pos[0]);
	if ((o->expect_sha256 != NULL) + (o->expect_output != NULL) + o->same_output + o->unchecked > 1) {
		error("--expect-sha256, --expect-output, --same-output and --unchecked exclude each other");
		return EXIT_USAGE;
	}
	if (o->args && strstr(o->args, "{N}") && !o->size) {
		error("--args has {N}: give the size with --size N");
		return EXIT_USAGE;
	}
	if (o->expect_sha256 &&
	    (strlen(o->expect_sha256) != 64 || strspn(o->expect_sha256, "0123456789abcdefABCDEF") != 64)) {
		error("--expect-sha256 must be 64 hex digits, not '%s'", o->expect_sha256);
		return EXIT_USAGE;
	}
	return 0;
}

/* The fastest time per run of the run's cells that were timed: under
 * TRY_STARTUP_S the figures are mostly process start-up, said on stderr. */
static void warn_startup(const char *dir, const struct try_opts *o)
{
	struct results_run run;
	if (results_open(dir, &run) < 0)
		return;
	double fastest = NAN;
	for (size_t i = 0; i < run.ncells; i++) {
		double t = run.cells[i].time.median;
		if (run.cells[i].status == CELL_OK && t > 0 && !(t >= fastest))
			fastest = t;
	}
	if (fastest < TRY_STARTUP_S)
		warning("%.2f ms per run: that is mostly the process starting and exiting, not the file's work; "
			"give each run more (%s)", fastest * 1e3,
			o->size ? "a larger --size" : "--size N with {N} in --args, or a longer loop");
	results_close(&run);
}

/* The run folder: --out, else results/<id> as `flagbench run` names it
 * (given to run, so the warning above can read it). */
static char *try_out(const struct try_opts *o)
{
	if (o->run.out)
		return xstrdup(o->run.out);
	const char *cpu = o->run.cpu ? o->run.cpu : "host", *b = strrchr(cpu, '/') ? strrchr(cpu, '/') + 1 : cpu;
	char *prof = xasprintf("%.*s", (int)(strstr(b, ".json") ? (size_t)(strstr(b, ".json") - b) : strlen(b)), b);
	char *id = run_dir_new_id("try", prof), *out = xasprintf("%s/results/%s", project_root(), id);
	free(id);
	free(prof);
	return out;
}

/* `flagbench run` on the written suite, with the run options given to try
 * (run's own defaults for the rest). */
static int run_try_suite(const struct try_opts *o, const unsigned char *given, const char *sjson)
{
	const struct run_like_opts *r = &o->run;
	struct strvec rargv = STRVEC_INIT;
	char *out = try_out(o);
	sv_push(&rargv, "run");
	sv_push(&rargv, "--suite");
	sv_push(&rargv, sjson);
	sv_push(&rargv, "--out");
	sv_push(&rargv, out);
	/* the command line's matrix replaces the suite's, as run's does */
	const char *names[] = { "cpu", "cache", "compilers", "opt", "march", "flags" };
	char *vals[] = { r->cpu, r->cache, r->matrix.compilers, r->matrix.opt, r->matrix.march, r->matrix.flags };
	for (int i = 0; i < 6; i++)
		if (option_given(try_options, given, names[i])) {
			sv_pushf(&rargv, "--%s", names[i]);
			sv_push(&rargv, vals[i]);
		}
	if (r->keys.runs)
		sv_pushf(&rargv, "--runs=%u", r->keys.runs);
	if (r->keys.warmup || (r->keys.runs && !r->keys.warmup))
		sv_pushf(&rargv, "--warmup=%u", r->keys.warmup);
	if (r->keys.cell_budget > 0)
		sv_pushf(&rargv, "--cell-budget=%.15g", r->keys.cell_budget);
	if (option_given(try_options, given, "timeout"))
		sv_pushf(&rargv, "--timeout=%.17g", r->timeout);
	if (option_given(try_options, given, "build-timeout"))
		sv_pushf(&rargv, "--build-timeout=%.17g", r->build_timeout);
	if (r->no_render)
		sv_push(&rargv, "--no-render");
	if (r->no_counters)
		sv_push(&rargv, "--no-counters");
	int rc = cmd_run((int)rargv.n, rargv.v);
	if (rc != EXIT_USAGE)
		warn_startup(out, o);
	free(out);
	sv_clear(&rargv);
	return rc;
}

/* fdir/src: the file's folder, so that `#include "common.h"` beside it
 * finds it (the family's include folder; its headers join the cache key). */
static int link_folder(const char *fdir, const char *file)
{
	char *copy = xstrdup(file), *slash = strrchr(copy, '/');
	if (slash)
		*slash = '\0';
	char *abs = realpath(slash ? (copy[0] ? copy : "/") : ".", NULL), *link = xasprintf("%s/src", fdir);
	int r = abs ? symlink(abs, link) : -1;
	free(abs);
	free(link);
	free(copy);
	return r;
}

/* Writes the family (the file and its family.json) and the suite into the
 * temporary folder tmp, and runs it. */
static int try_in(const struct try_opts *o, const unsigned char *given, const char *tmp, const char *file, const char *src, size_t len)
{
	char *name = variant_name(file);
	char *fdir = xasprintf("%s/try", tmp), *cfile = xasprintf("%s/%s%s", fdir, name, file_ext(file));
	char *source = xasprintf("%s%s", name, file_ext(file));
	char *fjson = xasprintf("%s/family.json", fdir), *sjson = xasprintf("%s/suite.json", tmp);
	char why[512] = "";
	json_t *fam = try_family(o, name, source, why, sizeof(why)), *suite = fam ? try_suite(o, tmp) : NULL;
	int rc = EXIT_USAGE;
	if (!fam && why[0])
		error("%s", why);
	else if (fam && suite &&
		 (mkdir_p(fdir, 0755) < 0 || write_file_atomic(cfile, src, len) < 0 || link_folder(fdir, file) < 0 ||
		  write_json(fjson, fam) < 0 || write_json(sjson, suite) < 0))
		error("cannot write into %s: %s", tmp, strerror(errno));
	else if (fam && suite)
		rc = run_try_suite(o, given, sjson);
	json_decref(fam);
	json_decref(suite);
	free(name);
	free(source);
	free(fdir);
	free(cfile);
	free(fjson);
	free(sjson);
	return rc;
}

static void free_try_opts(struct try_opts *o)
{
	free(o->args);
	free(o->expect_sha256);
	free(o->expect_output);
	free(o->unit);
	run_like_opts_free(&o->run);
}

int cmd_try(int argc, char **argv)
{
	struct try_opts o;
	memset(&o, 0, sizeof(o));
	unsigned char given[OPTIONS_MAX] = { 0 };
	char *pos[1];
	enum parse_status st = command_parse(&cmd_try_def, &o, given, argc, argv, pos, NULL);
	if (st != PARSE_OK || check_try_args(&o, pos)) {
		free_try_opts(&o);
		return st != PARSE_OK ? parse_exit(st) : EXIT_USAGE;
	}
	size_t len;
	char *src = read_file(pos[0], &len);
	if (!src) {
		error("cannot read %s: %s", pos[0], strerror(errno));
		return EXIT_USAGE;
	}
	char tmpl[] = "/tmp/flagbench-try-XXXXXX";
	if (!mkdtemp(tmpl)) {
		free(src);
		error("cannot create a temporary folder: %s", strerror(errno));
		return EXIT_USAGE;
	}
	int rc = try_in(&o, given, tmpl, pos[0], src, len);
	remove_tree(tmpl);
	free(src);
	free_try_opts(&o);
	return rc;
}
