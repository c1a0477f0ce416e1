/* main.c: flagbench's entry point; it only dispatches to the commands. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "results/baseline.h"
#include "checks/check.h"
#include "analysis/compare.h"
#include "system/cooldown.h"
#include "system/doctor.h"
#include "analysis/explain.h"
#include "system/meter.h"
#include "core/options.h"
#include "cmd/tables.h"
#include "cmd/newfamily.h"
#include "cmd/rerun.h"
#include "cmd/list.h"
#include "cmd/run.h"
#include "cmd/try.h"
#include "system/topology.h"
#include "core/util.h"

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
};

static const struct command commands[] = {
	{ "run", cmd_run, "compile, verify and time a suite on a cpu profile" },
	{ "list", cmd_list, "list cpus|suites|variants|compilers" },
	{ "check", cmd_check, "FAMILY N [ARGS]: prove a stream on stdin right" },
	{ "meter", cmd_meter, "[options] -- PROGRAM ARGS: the pipe consumer hyperfine times" },
	{ "cooldown", cmd_cooldown, "[options]: pause against thermal throttling" },
	{ "topology", cmd_topology, "cpus, caches and producer/consumer placement classes" },
	{ "doctor", cmd_doctor, "system checks: governor, turbo, smt, load, sensors, tools" },
	{ "try", cmd_try, "FILE.c [--args ...] [--expect-...]: one C file across compilers and flags" },
	{ "new", cmd_new, "family NAME [DIR]: write a family skeleton that runs as it is" },
	{ "tables", cmd_tables, "RUN_DIR... [--format term|md|csv|json|tsv]: the tables of runs" },
	{ "report", cmd_tables, "RUN_DIR: the tables of a run in the terminal (tables)" },
	{ "merge", cmd_tables, "RUN_DIR...: runs side by side in Markdown (tables --format md)" },
	{ "compare", cmd_compare, "BASE NEW: is NEW slower? per cell ratio, interval and verdict" },
	{ "rerun", cmd_rerun, "RUN_DIR: measure a run again with the binaries it kept" },
	{ "baseline", cmd_baseline, "save RUN: store a run as the baseline of its cpu profile" },
	{ "explain", cmd_explain, "RUN_DIR CELL_A CELL_B: which flags make B faster than A" },
	{ NULL, NULL, NULL },
};

static void usage(FILE *out)
{
	fprintf(out, "usage: flagbench COMMAND [ARGS]\n\ncommands:\n");
	for (const struct command *c = commands; c->name; c++)
		fprintf(out, "  %-10s %s\n", c->name, c->help);
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
