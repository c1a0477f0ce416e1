/* baseline.c: see baseline.h */
#define _GNU_SOURCE
#include "cmd/baseline.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/options.h"
#include "core/util.h"
#include "results/baseline.h"

struct baseline_opts {
	char *dir, *name;
	struct global_opts g;
};

#define BO(f) offsetof(struct baseline_opts, f)
static const struct option_def baseline_options[] = {
	{ .name = "dir", .short_name = 'd', .type = OPT_STRING, .offset = BO(dir), .metavar = "DIR", .help = "baselines folder (default: baselines/ of the project)" },
	{ .name = "name", .type = OPT_STRING, .offset = BO(name), .metavar = "NAME", .help = "name of the baseline (default latest)" },
	OPTION_GROUP(options_global, struct baseline_opts, g),
	{ .name = NULL },
};

const struct command_def cmd_baseline_def = {
	.name = "baseline",
	.synopsis = "save RUN",
	.summary = "store a run as the baseline of its cpu profile",
	.options = baseline_options,
	.min_pos = 2,
	.max_pos = 2,
	.order = OPTIONS_ANYWHERE,
};

int cmd_baseline(int argc, char **argv)
{
	struct baseline_opts o;
	memset(&o, 0, sizeof(o));
	char *pos[2];
	int code = EXIT_USAGE;
	enum parse_status st = command_parse(&cmd_baseline_def, &o, NULL, argc, argv, pos, NULL);
	if (st != PARSE_OK)
		code = parse_exit(st);
	else if (strcmp(pos[0], "save"))
		command_usage_error(&cmd_baseline_def, "baseline saves, it does not '%s'", pos[0]);
	else
		code = baseline_save(pos[1], o.dir, o.name);
	free(o.dir);
	free(o.name);
	return code;
}
