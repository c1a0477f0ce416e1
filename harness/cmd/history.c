/* history.c: see history.h */
#define _GNU_SOURCE
#include "cmd/history.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/util.h"
#include "driver/history.h"
#include "report/history_writer.h"
#include "results/history.h"
#include "results/reader.h"

struct history_cli {
	char *db, *profile, *metric, *format;
	double alarm_rate;
	int rebuild;
	struct global_opts g;
};

#define HO(f) offsetof(struct history_cli, f)
static const struct option_def history_options[] = {
	{ .name = "db", .type = OPT_STRING, .offset = HO(db), .metavar = "FILE", .help = "the history file (default results/history.db of the project)" },
	{ .name = "profile", .type = OPT_STRING, .offset = HO(profile), .metavar = "PROFILE", .help = "only the machines of this cpu profile (show, changes, the false-alarm rate's cells)" },
	{ .name = "metric", .short_name = 'm', .type = OPT_STRING, .offset = HO(metric), .metavar = "time|instructions", .help = "what the change points are found in", .def = "time" },
	{ .name = "alarm-rate", .type = OPT_DOUBLE, .offset = HO(alarm_rate), .metavar = "PERCENT", .min = 0.001, .max = 20, .help = "false-alarm rate: the expected share of false change points among the cells that have one (Benjamini-Hochberg)", .def = "1" },
	{ .name = "format", .short_name = 'f', .type = OPT_STRING, .offset = HO(format), .metavar = "text|json|tsv", .help = "output on stdout", .def = "text" },
	{ .name = "rebuild", .type = OPT_FLAG, .offset = HO(rebuild), .help = "import: make the history anew from the runs given (replaces a corrupt one)" },
	OPTION_GROUP(options_global, struct history_cli, g),
	{ .name = NULL },
};

static void history_help_more(FILE *out)
{
	fprintf(out, "\nimport RUN...: add runs (by run id; twice adds nothing).  list: the runs.  show CELL: one\n"
		     "cell's nights and change points.  changes: every change point, newest first, and what\n"
		     "changed; exit 1 when one lands on a machine's newest night.  docs/history.md.\n");
}

const struct command_def cmd_history_def = {
	.name = "history",
	.synopsis = "import RUN...|list|show CELL|changes",
	.summary = "the nightly history: runs in one SQLite file, change points and what changed",
	.options = history_options,
	.min_pos = 1,
	.max_pos = -1,
	.order = OPTIONS_ANYWHERE,
	.help_more = history_help_more,
};

static int do_import(const struct history_cli *o, const char *db, char **runs, int nruns)
{
	if (nruns < 1)
		return command_usage_error(&cmd_history_def, "history import takes one run or more");
	/* a rebuild writes a new file beside the old and renames it over it:
	 * the old one, corrupt or not, is never read */
	char *path = o->rebuild ? xasprintf("%s.rebuild-%ld", db, (long)getpid()) : xstrdup(db);
	if (o->rebuild)
		unlink(path);
	struct history *h;
	if (history_open(path, 1, &h) < 0) {
		free(path);
		return EXIT_USAGE;
	}
	int added = 0, there = 0, code = 0;
	for (int i = 0; i < nruns && !code; i++) {
		struct results_run run;
		if (results_open(runs[i], &run) < 0) {
			code = EXIT_USAGE;
			break;
		}
		int r = history_import(h, &run);
		results_close(&run);
		if (r < 0)
			code = EXIT_USAGE;
		else if (r)
			added++;
		else
			there++;
	}
	history_close(h);
	if (o->rebuild) {
		if (code == 0 && rename(path, db) < 0) {
			error("%s: cannot replace: %m", db);
			code = EXIT_USAGE;
		}
		if (code)
			unlink(path);
	}
	free(path);
	if (code == 0)
		printf("%s: %d run%s imported, %d already there\n", db, added, added == 1 ? "" : "s", there);
	return code;
}

static int parse_format(const char *s, enum history_format *f)
{
	if (!strcmp(s, "text"))
		*f = HFMT_TEXT;
	else if (!strcmp(s, "json"))
		*f = HFMT_JSON;
	else if (!strcmp(s, "tsv"))
		*f = HFMT_TSV;
	else
		return error("--format must be text, json or tsv, not '%s'", s);
	return 0;
}

static int run_sub(const struct history_cli *o, const char *db, char **pos, int npos)
{
	static const char *const subs[] = { "import", "list", "show", "changes", NULL };
	const char *sub = pos[0];
	enum history_format fmt = HFMT_TEXT;
	enum metric metric = METRIC_TIME;
	if (parse_format(o->format, &fmt) < 0)
		return EXIT_USAGE;
	if (metric_parse(o->metric, &metric) < 0 || metric == METRIC_CYCLES) {
		error("--metric must be time or instructions, not '%s'", o->metric);
		return EXIT_USAGE;
	}
	if (!strcmp(sub, "import"))
		return do_import(o, db, pos + 1, npos - 1);
	if (o->rebuild)
		return command_usage_error(&cmd_history_def, "--rebuild is for import");
	int known = 0;
	for (int i = 0; subs[i]; i++)
		known |= !strcmp(subs[i], sub);
	if (!known) {
		const char *near = closest_word(subs, sub);
		return near ? command_usage_error(&cmd_history_def, "history has no '%s'; did you mean '%s'?", sub, near)
			    : command_usage_error(&cmd_history_def, "history has no '%s'", sub);
	}
	int want = !strcmp(sub, "show") ? 2 : 1;
	if (npos != want)
		return command_usage_error(&cmd_history_def, "history %s takes %s", sub,
					   want == 2 ? "one cell id" : "no argument");
	struct history *h;
	if (history_open(db, 0, &h) < 0)
		return EXIT_USAGE;
	int code = 0;
	if (!strcmp(sub, "list")) {
		struct history_data d;
		if (history_load(h, o->profile, NULL, &d) < 0) {
			code = EXIT_USAGE;
		} else {
			history_write_list(&d, fmt, stdout);
			history_data_free(&d);
		}
	} else {
		struct history_analysis a;
		if (history_analyse(h, o->profile, metric, o->alarm_rate / 100, &a) < 0) {
			code = EXIT_USAGE;
		} else if (!strcmp(sub, "show")) {
			if (history_write_show(&a, pos[1], fmt, stdout) < 0) {
				error("%s: no cell '%s' in the history%s%s", db, pos[1], o->profile ? " of cpu profile " : "",
				      o->profile ? o->profile : "");
				code = EXIT_USAGE;
			}
			history_analysis_free(&a);
		} else {
			history_write_changes(&a, fmt, stdout);
			code = a.newest_steps ? 1 : 0;
			history_analysis_free(&a);
		}
	}
	history_close(h);
	return code;
}

int cmd_history(int argc, char **argv)
{
	struct history_cli o;
	memset(&o, 0, sizeof(o));
	char **pos = xcalloc((size_t)argc + 1, sizeof(char *));
	int npos = 0, code;
	enum parse_status st = command_parse(&cmd_history_def, &o, NULL, argc, argv, pos, &npos);
	if (st != PARSE_OK) {
		code = parse_exit(st);
	} else {
		char *db = o.db ? xstrdup(o.db) : xasprintf("%s/" HISTORY_DEFAULT_DB, project_root());
		code = run_sub(&o, db, pos, npos);
		free(db);
	}
	free(pos);
	free(o.db);
	free(o.profile);
	free(o.metric);
	free(o.format);
	return code;
}
