/* rerun.c: see rerun.h */
#define _GNU_SOURCE
#include "cmd/rerun.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/options.h"
#include "cmd/run.h"
#include "core/util.h"
#include "pipeline/store.h"
#include "results/reader.h"

/* ---- flagbench rerun ---- */

struct rerun_opts {
	char *only, *out;
	unsigned runs;
	struct global_opts g;
};

#define RR(f) offsetof(struct rerun_opts, f)
static const struct option_def rerun_options[] = {
	{ .name = "only", .type = OPT_STRING, .offset = RR(only), .metavar = "GLOB", .help = "replay only the cells whose id matches GLOB" },
	{ .name = "out", .short_name = 'o', .type = OPT_STRING, .offset = RR(out), .metavar = "DIR", .help = "run folder of the replay (default results/<new id>)" },
	{ .name = "runs", .short_name = 'r', .type = OPT_UINT, .offset = RR(runs), .metavar = "N", .min = 1, .max = 10000, .help = "timed runs per cell (default: those of the run)" },
	OPTION_GROUP(options_global, struct rerun_opts, g),
	{ .name = NULL },
};

const struct command_def cmd_rerun_def = {
	.name = "rerun",
	.synopsis = "RUN_DIR",
	.summary = "measure a run again with the binaries it kept (RUN_DIR/bin)",
	.options = rerun_options,
	.min_pos = 1,
	.max_pos = 1,
	.order = OPTIONS_ANYWHERE,
};

/* A --family-dir of the run, replaced by the copies the run kept of the
 * families in it (results.json families.NAME.kept): what it measured, and
 * there even when the folder moved.  A folder whose families the run kept
 * nothing of stays as it was. */
static void push_family_dir(struct strvec *av, const char *dir, const struct results_run *old)
{
	char *abs = realpath(dir, NULL);
	const char *want = abs ? abs : dir;
	size_t l = strlen(want);
	int kept = 0;
	for (size_t f = 0; f < old->nfamilies; f++) {
		const char *fdir = old->families[f].dir, *copy = old->families[f].kept;
		if (!fdir || !copy || strstr(copy, "..") || strncmp(fdir, want, l) || (fdir[l] && fdir[l] != '/'))
			continue;
		sv_push(av, "--family-dir");
		sv_pushf(av, "%s/%s", old->dir, copy);
		kept = 1;
	}
	if (!kept) {
		sv_push(av, "--family-dir");
		sv_push(av, dir);
	}
	free(abs);
}

/* run options whose value is replaced by the replay's own (--only only
 * when the replay has one: else it keeps the run's selection) */
static int dropped_option(const char *arg, int *takes_value, int new_only)
{
	static const char *const names[] = { "out", "resume", "binaries-from", "only", NULL };
	*takes_value = 0;
	if (!strcmp(arg, "-o")) {
		*takes_value = 1;
		return 1;
	}
	if (strncmp(arg, "--", 2))
		return 0;
	for (int i = 0; names[i]; i++) {
		size_t len = strlen(names[i]);
		if (!strcmp(names[i], "only") && !new_only)
			break;
		if (!strncmp(arg + 2, names[i], len) && (arg[2 + len] == '=' || !arg[2 + len])) {
			*takes_value = !arg[2 + len];
			return 1;
		}
	}
	return 0;
}

int cmd_rerun(int argc, char **argv)
{
	struct rerun_opts o;
	memset(&o, 0, sizeof(o));
	char *pos[1];
	enum parse_status st = command_parse(&cmd_rerun_def, &o, NULL, argc, argv, pos, NULL);
	if (st != PARSE_OK) {
		free(o.only);
		free(o.out);
		return parse_exit(st);
	}
	struct results_run old;
	if (results_open(pos[0], &old) < 0) {
		free(o.only);
		free(o.out);
		return EXIT_USAGE;
	}
	const char *const *args = old.settings.argv;
	size_t nargs = old.settings.nargv;
	int code = EXIT_USAGE;
	struct strvec av = STRVEC_INIT;
	sv_push(&av, "run");
	int skip_next = 0, dry = 0;
	for (size_t i = 0; i < nargs; i++) {
		const char *s = args[i];
		int takes;
		if (i < 2 || !s)
			continue; /* "flagbench", "run" */
		if (skip_next) {
			skip_next = 0;
			continue;
		}
		if (dropped_option(s, &takes, o.only != NULL)) {
			skip_next = takes;
			continue;
		}
		if (!strcmp(s, "--family-dir") && i + 1 < nargs) {
			push_family_dir(&av, args[i + 1] ? args[i + 1] : "", &old);
			skip_next = 1;
			continue;
		}
		if (!strncmp(s, "--family-dir=", 13)) {
			push_family_dir(&av, s + 13, &old);
			continue;
		}
		dry |= !strcmp(s, "--dry-run") || !strcmp(s, "-n");
		sv_push(&av, s);
	}
	if (!args || nargs < 2) {
		error("%s/results.json records no arguments (run.argv): cannot replay it", pos[0]);
		goto out;
	}
	if (dry) {
		error("%s is a dry run: it measured no binaries", pos[0]);
		goto out;
	}
	sv_pushf(&av, "--binaries-from=%s", pos[0]);
	if (o.out)
		sv_pushf(&av, "--out=%s", o.out);
	if (o.only)
		sv_pushf(&av, "--only=%s", o.only);
	if (o.runs)
		sv_pushf(&av, "--runs=%u", o.runs);
	fprintf(stderr, "flagbench: replaying %s:", pos[0]);
	for (size_t k = 0; k < av.n; k++)
		fprintf(stderr, " %s", av.v[k]);
	fprintf(stderr, "\n");
	code = cmd_run((int)av.n, av.v);
out:
	sv_clear(&av);
	results_close(&old);
	free(o.only);
	free(o.out);
	return code;
}
