/* list.c: see list.h */
#include "cmd/list.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "config/jsoncfg.h"
#include "core/util.h"
#include "pipeline/plan.h"

const struct command_def cmd_list_def = {
	.name = "list",
	.synopsis = "cpus|suites|variants|compilers",
	.summary = "what is available",
	.options = options_global,
	.min_pos = 1,
	.max_pos = 1,
	.order = OPTIONS_ANYWHERE,
};

int cmd_list(int argc, char **argv)
{
	static const char *const whats[] = { "cpus", "suites", "variants", "compilers", NULL };
	struct global_opts go = { 0 };
	char *pos[1];
	enum parse_status st = command_parse(&cmd_list_def, &go, NULL, argc, argv, pos, NULL);
	if (st != PARSE_OK)
		return parse_exit(st);
	const char *what = pos[0];
	if (!strcmp(what, "cpus") || !strcmp(what, "suites")) {
		struct strvec names = STRVEC_INIT;
		list_config_names(what, &names);
		for (size_t i = 0; i < names.n; i++)
			printf("%s\n", names.v[i]);
		sv_clear(&names);
		return 0;
	}
	if (!strcmp(what, "variants")) {
		struct family *fams;
		int n = load_all_families(&fams);
		if (n < 0)
			return EXIT_USAGE;
		for (int i = 0; i < n; i++) {
			for (size_t k = 0; k < fams[i].nvariants; k++)
				printf("%s/%s\t%s\n", fams[i].name, fams[i].variants[k].name, fams[i].variants[k].title);
			for (size_t k = 0; k < fams[i].nreferences; k++)
				printf("%s/%s\t%s (reference)\n", fams[i].name, fams[i].references[k].name,
				       fams[i].references[k].title);
			free_family(&fams[i]);
		}
		free(fams);
		return 0;
	}
	if (!strcmp(what, "compilers")) {
		/* every installed version, as a suite's "gcc-*" and "clang-*" see them */
		struct strvec globs = STRVEC_INIT, names = STRVEC_INIT, warn = STRVEC_INIT;
		const char *g[] = { "gcc", "clang", "cc", "gcc-*", "clang-*", NULL };
		for (int i = 0; g[i]; i++)
			sv_push(&globs, g[i]);
		expand_compilers(&globs, &names, &warn);
		for (size_t i = 0; i < names.n; i++) {
			struct compiler c;
			compiler_probe(&c, names.v[i]);
			if (c.path)
				printf("%s\t%s\t%s\n", c.name, c.path, c.version);
			free(c.name);
			free(c.path);
			free(c.version);
			free(c.identity);
		}
		sv_clear(&globs);
		sv_clear(&names);
		sv_clear(&warn);
		return 0;
	}
	const char *near = closest_word(whats, what);
	if (near)
		return command_usage_error(&cmd_list_def, "cannot list '%s'; did you mean '%s'?", what, near);
	return command_usage_error(&cmd_list_def, "cannot list '%s'", what);
}
