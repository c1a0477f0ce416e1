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
	int help;
};

#define BO(f) offsetof(struct baseline_opts, f)
static const struct option_def baseline_options[] = {
	{ "dir", 'd', OPT_STRING, BO(dir), "DIR", 0, 0, "baselines folder (default: baselines/ of the project)" },
	{ "name", 0, OPT_STRING, BO(name), "NAME", 0, 0, "name of the baseline (default latest)" },
	{ "help", 'h', OPT_FLAG, BO(help), NULL, 0, 0, "show this help" },
	{ NULL, 0, 0, 0, NULL, 0, 0, NULL },
};

int cmd_baseline(int argc, char **argv)
{
	struct baseline_opts o;
	memset(&o, 0, sizeof(o));
	char *pos[2];
	int npos = options_parse(baseline_options, &o, NULL, argc - 1, argv + 1, pos, 2);
	int code = EXIT_USAGE;
	if (npos < 0)
		goto out;
	if (o.help) {
		printf("usage: flagbench baseline save RUN [--dir DIR] [--name NAME]\n\n"
		       "stores RUN (a run folder) as the baseline NAME of its cpu profile\n\n");
		options_help(baseline_options, stdout);
		code = 0;
		goto out;
	}
	if (npos != 2 || strcmp(pos[0], "save")) {
		error("usage: flagbench baseline save RUN [--dir DIR] [--name NAME]");
		goto out;
	}
	code = baseline_save(pos[1], o.dir, o.name);
out:
	free(o.dir);
	free(o.name);
	return code;
}
