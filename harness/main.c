/* main.c: flagbench's entry point; it only dispatches to the commands. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "cmd/baseline.h"
#include "cmd/check.h"
#include "cmd/compare.h"
#include "cmd/cooldown.h"
#include "cmd/doctor.h"
#include "cmd/explain.h"
#include "cmd/history.h"
#include "cmd/join.h"
#include "cmd/list.h"
#include "cmd/meter.h"
#include "cmd/tables.h"
#include "cmd/newfamily.h"
#include "cmd/rerun.h"
#include "cmd/run.h"
#include "cmd/topology.h"
#include "cmd/try.h"
#include "cmd/tune.h"
#include "core/options.h"
#include "core/util.h"
#include "driver/run_options.h"
#include "report/model.h"

/* Each command is listed from its descriptor (core/options.h). */
struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const struct command_def *def;
};

static const struct command commands[] = {
	{ "run", cmd_run, &cmd_run_def },
	{ "list", cmd_list, &cmd_list_def },
	{ "check", cmd_check, &cmd_check_def },
	{ "meter", cmd_meter, &cmd_meter_def },
	{ "cooldown", cmd_cooldown, &cmd_cooldown_def },
	{ "topology", cmd_topology, &cmd_topology_def },
	{ "doctor", cmd_doctor, &cmd_doctor_def },
	{ "try", cmd_try, &cmd_try_def },
	{ "new", cmd_new, &cmd_new_def },
	{ "tables", cmd_tables, &cmd_tables_def },
	{ "report", cmd_tables, &cmd_report_def },
	{ "merge", cmd_tables, &cmd_merge_def },
	{ "join", cmd_join, &cmd_join_def },
	{ "compare", cmd_compare, &cmd_compare_def },
	{ "rerun", cmd_rerun, &cmd_rerun_def },
	{ "baseline", cmd_baseline, &cmd_baseline_def },
	{ "explain", cmd_explain, &cmd_explain_def },
	{ "tune", cmd_tune, &cmd_tune_def },
	{ "history", cmd_history, &cmd_history_def },
	{ NULL, NULL, NULL },
};

static void usage(FILE *out)
{
	fprintf(out, "usage: flagbench COMMAND [ARGS]\n\ncommands:\n");
	for (const struct command *c = commands; c->name; c++) {
		if (c->def->synopsis)
			fprintf(out, "  %-10s %s: %s\n", c->name, c->def->synopsis, c->def->summary);
		else
			fprintf(out, "  %-10s %s\n", c->name, c->def->summary);
	}
	fprintf(out, "\n`flagbench COMMAND --help` for a command's options.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("flagbench %s (%s)\n", FLAGBENCH_VERSION, FLAGBENCH_GIT);
		return 0;
	}
	const char *names[32];
	size_t n = 0;
	for (const struct command *c = commands; c->name; c++) {
		if (!strcmp(c->name, argv[1]))
			return c->fn(argc - 1, argv + 1);
		names[n++] = c->name;
	}
	names[n] = NULL;
	const char *near = closest_word(names, argv[1]);
	if (near)
		error("unknown command '%s'; did you mean '%s'?", argv[1], near);
	else
		error("unknown command '%s' (see flagbench --help)", argv[1]);
	return EXIT_USAGE;
}
