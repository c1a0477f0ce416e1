/* cooldown.c: see cooldown.h */
#include "cmd/cooldown.h"

#include <math.h>
#include <stdlib.h>

#include "system/cooldown.h"

struct cooldown_args {
	double seconds, below, max_wait;
	char *log, *root;
	int log_waits;
	struct global_opts g;
};

#define CO(f) offsetof(struct cooldown_args, f)
static const struct option_def cooldown_options[] = {
	{ .name = "seconds", .type = OPT_DOUBLE, .offset = CO(seconds), .metavar = "S", .max = 3600, .help = "pause at least this long", .def = "0" },
	{ .name = "below", .type = OPT_DOUBLE, .offset = CO(below), .metavar = "CELSIUS", .min = 10, .max = 110, .help = "then wait until the hottest sensor is below this (default: no wait)" },
	{ .name = "max-wait", .type = OPT_DOUBLE, .offset = CO(max_wait), .metavar = "S", .max = 7200, .help = "never wait longer than this in all (default --seconds)" },
	{ .name = "log", .type = OPT_STRING, .offset = CO(log), .metavar = "FILE", .help = "append a JSON line saying what was done" },
	{ .name = "root", .type = OPT_STRING, .offset = CO(root), .metavar = "DIR", .help = "read sensors under DIR instead of / (tests)", .def = "/" },
	{ .name = "log-waits", .type = OPT_FLAG, .offset = CO(log_waits), .help = "log only a wait that waited" },
	OPTION_GROUP(options_global, struct cooldown_args, g),
	{ .name = NULL },
};

const struct command_def cmd_cooldown_def = {
	.name = "cooldown",
	.summary = "pause against thermal throttling",
	.options = cooldown_options,
	.min_pos = 0,
	.max_pos = 0,
	.order = OPTIONS_ANYWHERE,
};

int cmd_cooldown(int argc, char **argv)
{
	/* no --below: no temperature to wait for; no --max-wait: --seconds */
	struct cooldown_args o = { .below = NAN, .max_wait = -1 };
	enum parse_status st = command_parse(&cmd_cooldown_def, &o, NULL, argc, argv, NULL, NULL);
	if (st == PARSE_OK) {
		struct cooldown_spec spec = { o.seconds, o.below, o.max_wait < 0 ? o.seconds : o.max_wait };
		struct cooldown_record rec;
		cooldown_run(&spec, o.root, cooldown_sleep, &rec);
		if (o.log && (!o.log_waits || rec.waited_s > 0))
			cooldown_log_append(o.log, &rec);
	}
	free(o.log);
	free(o.root);
	return st == PARSE_OK ? EXIT_ALL_OK : parse_exit(st);
}
