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
	{ "seconds", 0, OPT_DOUBLE, CO(seconds), "S", 0, 3600, "pause at least this long", "0" },
	{ "below", 0, OPT_DOUBLE, CO(below), "CELSIUS", 10, 110, "then wait until the hottest sensor is below this (default: no wait)" },
	{ "max-wait", 0, OPT_DOUBLE, CO(max_wait), "S", 0, 7200, "never wait longer than this in all (default --seconds)" },
	{ "log", 0, OPT_STRING, CO(log), "FILE", 0, 0, "append a JSON line saying what was done" },
	{ "root", 0, OPT_STRING, CO(root), "DIR", 0, 0, "read sensors under DIR instead of / (tests)", "/" },
	{ "log-waits", 0, OPT_FLAG, CO(log_waits), NULL, 0, 0, "log only a wait that waited" },
	OPTION_GROUP(options_global, struct cooldown_args, g),
	{ NULL, 0, 0, 0, NULL, 0, 0, NULL },
};

const struct command_def cmd_cooldown_def = {
	"cooldown", NULL, "pause against thermal throttling",
	cooldown_options, 0, 0, OPTIONS_ANYWHERE, NULL,
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
