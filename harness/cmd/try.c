/* try.c: `flagbench try FILE.c`, one C file across the suite's compilers x
 * -O x march with no family.json: a family of one variant is written into a
 * temporary folder (the file copied, its check from the options), with a
 * suite of the named suite's compilers, opt and march, and run as `flagbench
 * run` would; the run's summary answers which configuration is fastest. */
#define _GNU_SOURCE
#include <errno.h>
#include <ftw.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/config.h"
#include "core/options.h"
#include "cmd/run.h"
#include "cmd/try.h"
#include "core/util.h"

struct try_opts {
	char *args, *expect_sha256, *expect_output;
	int same_output;
	struct run_like_opts run; /* handed to flagbench run where given */
	struct global_opts g;
};

#define TO(f) offsetof(struct try_opts, f)
static const struct option_def try_options[] = {
	{ .name = "args", .type = OPT_STRING, .offset = TO(args), .metavar = "\"WORDS\"", .help = "the program's arguments, split at spaces (no shell); default none" },
	{ .name = "expect-sha256", .type = OPT_STRING, .offset = TO(expect_sha256), .metavar = "HEX", .help = "the output's SHA-256 must be HEX" },
	{ .name = "expect-output", .type = OPT_STRING, .offset = TO(expect_output), .metavar = "FILE", .help = "the output must equal FILE" },
	{ .name = "same-output", .type = OPT_FLAG, .offset = TO(same_output), .help = "every build's output must equal the first configuration's" },
	OPTION_GROUP(options_run_like, struct try_opts, run),
	OPTION_GROUP(options_global, struct try_opts, g),
	{ .name = NULL },
};

const struct command_def cmd_try_def = {
	.name = "try",
	.synopsis = "FILE.c",
	.summary = "one C file across compilers and flags, no family.json",
	.options = try_options,
	.min_pos = 1,
	.max_pos = 1,
	.order = OPTIONS_ANYWHERE,
};

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	return remove(path);
}

/* The variant's name: the file's base name as a family.json name. */
static char *variant_name(const char *file)
{
	const char *b = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
	size_t n = strlen(b) - 2;
	char *name = xasprintf("%.*s", (int)n, b);
	for (char *p = name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_' || *p == '-'))
			*p = (*p >= 'A' && *p <= 'Z') ? (char)(*p - 'A' + 'a') : '_';
	if (name[0] == '.' || name[0] == '-')
		name[0] = '_';
	return name;
}

/* family.json: one variant, compute, N not passed, the check asked for. */
static json_t *try_family(const struct try_opts *o, const char *name, char *why, size_t n)
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
	} else if (o->same_output) {
		check = json_pack("{s:s}", "same_as", name);
	} else {
		check = json_string("none");
	}
	json_t *args = json_array();
	char *words = xstrdup(o->args ? o->args : ""), *save = NULL;
	for (char *w = strtok_r(words, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
		json_array_append_new(args, json_string(w));
	free(words);
	return json_pack("{s:s, s:s, s:s, s:s, s:i, s:b, s:o, s:o, s:s, s:[{s:s}]}", "family", "try", "title", name,
			 "kind", "compute", "unit", "runs", "default_size", 1, "pass_size", 0, "args", args, "check",
			 check, "baseline", name, "variants", "name", name);
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
	size_t l = strlen(pos[0]);
	if (l < 3 || strcmp(pos[0] + l - 2, ".c"))
		return command_usage_error(&cmd_try_def, "try needs one C file, not '%s'", pos[0]);
	if ((o->expect_sha256 != NULL) + (o->expect_output != NULL) + o->same_output > 1) {
		error("--expect-sha256, --expect-output and --same-output exclude each other");
		return EXIT_USAGE;
	}
	if (o->expect_sha256 &&
	    (strlen(o->expect_sha256) != 64 || strspn(o->expect_sha256, "0123456789abcdefABCDEF") != 64)) {
		error("--expect-sha256 must be 64 hex digits, not '%s'", o->expect_sha256);
		return EXIT_USAGE;
	}
	return 0;
}

/* `flagbench run` on the written suite, with the run options given to try
 * (run's own defaults for the rest). */
static int run_try_suite(const struct try_opts *o, const unsigned char *given, const char *sjson)
{
	const struct run_like_opts *r = &o->run;
	struct strvec rargv = STRVEC_INIT;
	sv_push(&rargv, "run");
	sv_push(&rargv, "--suite");
	sv_push(&rargv, sjson);
	const char *names[] = { "cpu", "out", "cache" };
	char *vals[] = { r->cpu, r->out, r->cache };
	for (int i = 0; i < 3; i++)
		if (option_given(try_options, given, names[i])) {
			sv_pushf(&rargv, "--%s", names[i]);
			sv_push(&rargv, vals[i]);
		}
	if (r->keys.runs)
		sv_pushf(&rargv, "--runs=%u", r->keys.runs);
	if (r->keys.warmup || (r->keys.runs && !r->keys.warmup))
		sv_pushf(&rargv, "--warmup=%u", r->keys.warmup);
	if (option_given(try_options, given, "timeout"))
		sv_pushf(&rargv, "--timeout=%.17g", r->timeout);
	if (option_given(try_options, given, "build-timeout"))
		sv_pushf(&rargv, "--build-timeout=%.17g", r->build_timeout);
	if (r->no_render)
		sv_push(&rargv, "--no-render");
	if (r->no_counters)
		sv_push(&rargv, "--no-counters");
	int rc = cmd_run((int)rargv.n, rargv.v);
	sv_clear(&rargv);
	return rc;
}

/* Writes the family (the file and its family.json) and the suite into the
 * temporary folder tmp, and runs it. */
static int try_in(const struct try_opts *o, const unsigned char *given, const char *tmp, const char *file, const char *src, size_t len)
{
	char *name = variant_name(file);
	char *fdir = xasprintf("%s/try", tmp), *cfile = xasprintf("%s/%s.c", fdir, name);
	char *fjson = xasprintf("%s/family.json", fdir), *sjson = xasprintf("%s/suite.json", tmp);
	char why[512] = "";
	json_t *fam = try_family(o, name, why, sizeof(why)), *suite = fam ? try_suite(o, tmp) : NULL;
	int rc = EXIT_USAGE;
	if (!fam && why[0])
		error("%s", why);
	else if (fam && suite &&
		 (mkdir_p(fdir, 0755) < 0 || write_file_atomic(cfile, src, len) < 0 || write_json(fjson, fam) < 0 ||
		  write_json(sjson, suite) < 0))
		error("cannot write into %s: %s", tmp, strerror(errno));
	else if (fam && suite)
		rc = run_try_suite(o, given, sjson);
	json_decref(fam);
	json_decref(suite);
	free(name);
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
	nftw(tmpl, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
	free(src);
	free_try_opts(&o);
	return rc;
}
