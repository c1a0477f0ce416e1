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
#include "cmd/list.h"
#include "cmd/meter.h"
#include "cmd/tables.h"
#include "cmd/newfamily.h"
#include "cmd/rerun.h"
#include "cmd/run.h"
#include "cmd/topology.h"
#include "cmd/try.h"
#include "core/options.h"
#include "core/util.h"
#include "report/model.h"

/* A command with a descriptor (core/options.h) is listed from it; the
 * others by their help here until they have one. */
struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
	const struct command_def *def;
};

static const struct command commands[] = {
	{ "run", cmd_run, "compile, verify and time a suite on a cpu profile" },
	{ "list", cmd_list, NULL, &cmd_list_def },
	{ "check", cmd_check, NULL, &cmd_check_def },
	{ "meter", cmd_meter, NULL, &cmd_meter_def },
	{ "cooldown", cmd_cooldown, NULL, &cmd_cooldown_def },
	{ "topology", cmd_topology, NULL, &cmd_topology_def },
	{ "doctor", cmd_doctor, NULL, &cmd_doctor_def },
	{ "try", cmd_try, NULL, &cmd_try_def },
	{ "new", cmd_new, NULL, &cmd_new_def },
	{ "tables", cmd_tables, "RUN_DIR... [--format term|md|csv|json|tsv]: the tables of runs" },
	{ "report", cmd_tables, "RUN_DIR: the tables of a run in the terminal (tables)" },
	{ "merge", cmd_tables, "RUN_DIR...: runs side by side in Markdown (tables --format md)" },
	{ "compare", cmd_compare, "BASE NEW: is NEW slower? per cell ratio, interval and verdict" },
	{ "rerun", cmd_rerun, NULL, &cmd_rerun_def },
	{ "baseline", cmd_baseline, "save RUN: store a run as the baseline of its cpu profile" },
	{ "explain", cmd_explain, "RUN_DIR CELL_A CELL_B: which flags make B faster than A" },
	{ NULL, NULL, NULL, NULL },
};

static void usage(FILE *out)
{
	fprintf(out, "usage: flagbench COMMAND [ARGS]\n\ncommands:\n");
	for (const struct command *c = commands; c->name; c++) {
		if (!c->def)
			fprintf(out, "  %-10s %s\n", c->name, c->help);
		else if (c->def->synopsis)
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
