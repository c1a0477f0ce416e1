/* check.c: see check.h */
#include "cmd/check.h"

#include <stdlib.h>
#include <string.h>

#include "checks/check.h"
#include "core/util.h"

static void check_help_more(FILE *out)
{
	fprintf(out, "\nfamilies:");
	checker_names(out);
	fprintf(out, "\n");
}

const struct command_def cmd_check_def = {
	.name = "check",
	.synopsis = "FAMILY N [ARGS...]",
	.summary = "prove a stream on stdin right",
	.options = options_global,
	.min_pos = 2,
	.max_pos = -1,
	.order = OPTIONS_FIRST,
	.help_more = check_help_more,
};

int cmd_check(int argc, char **argv)
{
	struct global_opts g = { 0 };
	char **pos = xcalloc((size_t)argc + 1, sizeof(*pos));
	int np = 0;
	enum parse_status st = command_parse(&cmd_check_def, &g, NULL, argc, argv, pos, &np);
	int rc = st == PARSE_OK ? check_stdin(pos[0], pos[1], np - 2, pos + 2) : parse_exit(st);
	free(pos);
	return rc;
}
