/* doctor.c: see doctor.h */
#include "cmd/doctor.h"

#include <stdlib.h>

#include "system/doctor.h"
#include "system/topology.h"

struct doctor_args {
	char *root;
	int json;
	struct global_opts g;
};

static const struct option_def doctor_options[] = {
	{ .name = "root", .type = OPT_STRING, .offset = offsetof(struct doctor_args, root), .metavar = "DIR", .help = "read sys/, proc/ and topology.xml under DIR instead of / (fixture trees; skips live probes)" },
	{ .name = "json", .type = OPT_FLAG, .offset = offsetof(struct doctor_args, json), .help = "print JSON instead of text" },
	OPTION_GROUP(options_global, struct doctor_args, g),
	{ .name = NULL },
};

const struct command_def cmd_doctor_def = {
	.name = "doctor",
	.summary = "system checks: governor, turbo, smt, load, sensors, tools (a hint per problem)",
	.options = doctor_options,
	.min_pos = 0,
	.max_pos = 0,
	.order = OPTIONS_ANYWHERE,
};

int cmd_doctor(int argc, char **argv)
{
	struct doctor_args a = { 0 };
	enum parse_status st = command_parse(&cmd_doctor_def, &a, NULL, argc, argv, NULL, NULL);
	if (st != PARSE_OK) {
		free(a.root);
		return parse_exit(st);
	}
	/* a fixture root cannot answer syscalls, and its tools are not ours */
	struct doctor_options o = { a.root, DOCTOR_PROBE_ALL, 0, NULL };
	if (!rootfs_is_live(a.root))
		o.probes = DOCTOR_PROBE_NONE;
	struct doctor_report r;
	doctor_collect(&o, &r);
	if (a.json) {
		json_t *j = doctor_report_to_json(&r, a.root);
		char *s = json_dumps(j, JSON_INDENT(2) | JSON_SORT_KEYS);
		printf("%s\n", s);
		free(s);
		json_decref(j);
	} else {
		doctor_report_print(&r, stdout);
	}
	doctor_report_free(&r);
	free(a.root);
	return EXIT_ALL_OK;
}
