/* tune.c: see tune.h.  The options, the two forms of the start, and
 * --resume (the journal's own command line, parsed again). */
#define _GNU_SOURCE
#include "cmd/tune.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "driver/tune.h"
#include "core/options.h"
#include "report/tune_writer.h"
#include "results/tune_record.h"

struct tune_cli {
	struct tune_opts x;
	char *budget, *technique, *metric, *seed;
	struct global_opts g;
};

#define TO(f) offsetof(struct tune_cli, f)
static const struct option_def tune_options[] = {
	{ .name = "compiler", .short_name = 'c', .type = OPT_STRING, .offset = TO(x.compiler), .metavar = "CC", .help = "the compiler whose flags are searched (FAMILY/VARIANT form)", .def = "gcc" },
	{ .name = "opt", .type = OPT_STRING, .offset = TO(x.opt), .metavar = "-On", .help = "the start's -O level (FAMILY/VARIANT form)", .def = "-O2" },
	{ .name = "march", .type = OPT_STRING, .offset = TO(x.march), .metavar = "ARCH", .help = "the start's -march (default: the profile's first)" },
	{ .name = "cpu", .type = OPT_STRING, .offset = TO(x.cpu), .metavar = "PROFILE", .help = "cpu profile: its pins and -march", .def = "host" },
	{ .name = "suite", .type = OPT_STRING, .offset = TO(x.suite), .metavar = "SUITE", .help = "the suite whose size the variant runs at", .def = "quick" },
	{ .name = "family-dir", .type = OPT_LIST, .offset = TO(x.family_dirs), .metavar = "DIR", .help = "families from DIR too (repeatable)" },
	{ .name = "budget", .short_name = 'b', .type = OPT_STRING, .offset = TO(budget), .metavar = "TIME|N", .help = "per technique: a time (90s, 10m, 1h) or a count of candidates", .def = "10m" },
	{ .name = "technique", .short_name = 't', .type = OPT_STRING, .offset = TO(technique), .metavar = "LIST", .help = "ensemble, random, or both side by side (ensemble,random)", .def = "ensemble" },
	{ .name = "metric", .type = OPT_STRING, .offset = TO(metric), .metavar = "instructions|time", .help = "the screen (default: instructions for compute families where counters exist, else time)" },
	{ .name = "jobs", .short_name = 'j', .type = OPT_UINT, .offset = TO(x.jobs), .metavar = "N", .min = 1, .max = 256, .help = "parallel compilers (default: online cpus)" },
	{ .name = "batch", .type = OPT_UINT, .offset = TO(x.batch), .metavar = "N", .min = 1, .max = 256, .help = "candidates per batch (built together, timed in one schedule; default: the smallest multiple of --jobs from 4)" },
	{ .name = "screen-runs", .type = OPT_UINT, .offset = TO(x.screen_runs), .metavar = "N", .min = 3, .max = 1000, .help = "rounds of a time screen's batch", .def = "5" },
	{ .name = "confirm-runs", .type = OPT_UINT, .offset = TO(x.confirm_runs), .metavar = "N", .min = 6, .max = 10000, .help = "rounds of the confirmation", .def = "15" },
	{ .name = "warmup", .short_name = 'w', .type = OPT_UINT, .offset = TO(x.warmup), .metavar = "N", .max = 1000, .help = "untimed runs first", .def = "1" },
	{ .name = "layouts", .type = OPT_UINT, .offset = TO(x.layouts), .metavar = "K", .min = 1, .max = 64, .help = "code layouts per build in the confirmation", .def = "1" },
	{ .name = "seed", .type = OPT_STRING, .offset = TO(seed), .metavar = "N", .help = "of the searches", .def = "1" },
	{ .name = "allow-unsafe", .type = OPT_FLAG, .offset = TO(x.allow_unsafe), .help = "search flags that change results too (-ffast-math ...)" },
	{ .name = "list-space", .type = OPT_FLAG, .offset = TO(x.list_space), .help = "print the flags that would be searched, and those left out, and stop" },
	{ .name = "out", .short_name = 'o', .type = OPT_STRING, .offset = TO(x.out), .metavar = "DIR", .help = "the tune folder (default results/tune-<time>-<family>-<variant>)" },
	{ .name = "resume", .type = OPT_STRING, .offset = TO(x.resume), .metavar = "DIR", .help = "continue an interrupted tune from its journal" },
	{ .name = "cache", .type = OPT_STRING, .offset = TO(x.cache), .metavar = "DIR", .help = "build cache (default: build/cache of the project)" },
	{ .name = "no-render", .type = OPT_FLAG, .offset = TO(x.no_render), .help = "no plot or page (plots/tune.sh)" },
	OPTION_GROUP(options_timeout, struct tune_cli, x.timeout),
	OPTION_GROUP(options_build_timeout, struct tune_cli, x.build_timeout),
	OPTION_GROUP(options_dry_run, struct tune_cli, x.dry_run),
	OPTION_GROUP(options_global, struct tune_cli, g),
	{ .name = NULL },
};

static void tune_help_more(FILE *out)
{
	fprintf(out, "\nSearches the compiler's own optimizer flags and --params (gcc -Q --help=optimizers, --help=params;\n"
		     "clang: the -f flags it accepts and -mllvm thresholds) from the start's -O level and -march.\n"
		     "Every candidate passes the family's check; identical binaries are measured once; the best is\n"
		     "minimised to the flags that carry its gain and confirmed by time against the start and the\n"
		     "-O levels with the one comparison.  Ctrl-C keeps the journal: --resume DIR continues.\n");
}

const struct command_def cmd_tune_def = {
	.name = "tune",
	.synopsis = "RUN_DIR CELL | FAMILY/VARIANT",
	.summary = "search the compiler's flags for the fastest build, and name the flags that carry it",
	.options = tune_options,
	.min_pos = 0,
	.max_pos = 2,
	.order = OPTIONS_ANYWHERE,
	.help_more = tune_help_more,
};

static const struct tune_view tune_view_md = {
	.report = tune_report,
};

static void free_cli(struct tune_cli *o)
{
	free(o->x.run);
	free(o->x.cell);
	free(o->x.variant);
	free(o->x.compiler);
	free(o->x.opt);
	free(o->x.march);
	free(o->x.suite);
	free(o->x.cpu);
	sv_clear(&o->x.family_dirs);
	free(o->x.out);
	free(o->x.cache);
	free(o->x.resume);
	free(o->budget);
	free(o->technique);
	free(o->metric);
	free(o->seed);
}

/* The settings given as words into the tune's. */
static int settle(struct tune_cli *o)
{
	if (tune_parse_budget(o->budget, &o->x.budget_s, &o->x.budget_candidates) < 0)
		return error("--budget must be a time (90s, 10m, 1h) or a count of candidates, not '%s'", o->budget);
	char *copy = xstrdup(o->technique), *save = NULL;
	o->x.ntechniques = 0;
	int rc = 0;
	for (char *w = strtok_r(copy, ",", &save); w && rc == 0; w = strtok_r(NULL, ",", &save)) {
		enum tune_technique tt;
		if (tune_technique_parse(w, &tt) < 0)
			rc = error("--technique: '%s' is not a technique (ensemble, random)", w);
		else if (o->x.ntechniques == TUNE_TECHNIQUES_MAX)
			rc = error("--technique: at most %d techniques", TUNE_TECHNIQUES_MAX);
		else
			o->x.techniques[o->x.ntechniques++] = tt;
	}
	free(copy);
	if (rc == 0 && !o->x.ntechniques)
		rc = error("--technique: name one (ensemble, random)");
	for (size_t i = 0; rc == 0 && i < o->x.ntechniques; i++)
		for (size_t k = 0; k < i; k++)
			if (o->x.techniques[i] == o->x.techniques[k])
				rc = error("--technique: %s named twice", tune_technique_name(o->x.techniques[i]));
	if (rc)
		return rc;
	o->x.metric_asked = o->metric != NULL;
	o->x.metric = METRIC_TIME;
	if (o->metric && (metric_parse(o->metric, &o->x.metric) < 0 || o->x.metric == METRIC_CYCLES))
		return error("--metric must be instructions or time, not '%s'", o->metric);
	char *end;
	o->x.seed = strtoull(o->seed, &end, 10);
	if (!*o->seed || *end)
		return error("--seed must be a number, not '%s'", o->seed);
	return 0;
}

/* --resume DIR: the journal's first line holds the command line. */
static int resume_argv(const char *dir, struct strvec *out)
{
	char *path = xasprintf("%s/journal.jsonl", dir);
	struct tune_record r;
	int rc = -1;
	if (tune_record_load(path, 1, &r) < 0) {
		error("--resume %s: no journal.jsonl there", dir);
		free(path);
		return -1;
	}
	if (!r.has_header || !r.header.argv_recorded || r.header.argv.n < 2) {
		error("%s:1: not a tune journal's header", path);
	} else {
		for (size_t i = 1; i < r.header.argv.n; i++)
			sv_push(out, r.header.argv.v[i]);
		rc = 0;
	}
	tune_record_free(&r);
	free(path);
	return rc;
}

static int parse(struct tune_cli *o, int argc, char **argv, int *code)
{
	char *pos[2] = { 0 };
	int npos = 0;
	enum parse_status st = command_parse(&cmd_tune_def, o, NULL, argc, argv, pos, &npos);
	if (st != PARSE_OK) {
		*code = parse_exit(st);
		return -1;
	}
	if (npos == 2) {
		o->x.run = xstrdup(pos[0]);
		o->x.cell = xstrdup(pos[1]);
	} else if (npos == 1) {
		o->x.variant = xstrdup(pos[0]);
	} else if (!o->x.resume) {
		error("name the start: RUN_DIR CELL (a measured cell) or FAMILY/VARIANT (with --compiler, --opt)");
		command_synopsis(&cmd_tune_def, " | ", stderr);
		fputc('\n', stderr);
		return -1;
	}
	return settle(o) < 0 ? -1 : 0;
}

int cmd_tune(int argc, char **argv)
{
	struct tune_cli o;
	memset(&o, 0, sizeof(o));
	int code = EXIT_USAGE;
	struct strvec again = STRVEC_INIT;
	if (parse(&o, argc, argv, &code) < 0)
		goto done;
	if (o.x.resume && !o.x.variant && !o.x.run) {
		/* the tune as it was started, into the same folder */
		char *dir = xstrdup(o.x.resume);
		if (resume_argv(dir, &again) < 0) {
			free(dir);
			goto done;
		}
		free_cli(&o);
		memset(&o, 0, sizeof(o));
		if (parse(&o, (int)again.n, again.v, &code) < 0) {
			free(dir);
			goto done;
		}
		free(o.x.resume);
		o.x.resume = dir;
		argc = (int)again.n;
		argv = again.v;
	} else if (o.x.resume) {
		error("--resume DIR takes no start: the journal names it");
		goto done;
	}
	if (!o.x.jobs) {
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);
		o.x.jobs = cpus > 0 ? (unsigned)cpus : 1;
	}
	o.x.argc = argc;
	o.x.argv = argv;
	code = tune_main(&o.x, &tune_view_md);
done:
	free_cli(&o);
	sv_clear(&again);
	return code;
}
