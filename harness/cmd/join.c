/* join.c: see join.h */
#define _GNU_SOURCE
#include "cmd/join.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/options.h"
#include "core/util.h"
#include "driver/run_dir.h"
#include "results/baseline.h"
#include "results/join.h"
#include "results/reader.h"
#include "results/results.h"

struct join_opts {
	char *out;
	int no_render;
	struct global_opts g;
};

#define JO(f) offsetof(struct join_opts, f)
static const struct option_def join_options[] = {
	{ .name = "out", .type = OPT_STRING, .offset = JO(out), .metavar = "DIR", .help = "the joined run's folder (made; one that holds a run already is refused)" },
	{ .name = "no-render", .type = OPT_FLAG, .offset = JO(no_render), .help = "do not render tables, plots and index.html (plots/render.sh)" },
	OPTION_GROUP(options_global, struct join_opts, g),
	{ .name = NULL },
};

const struct command_def cmd_join_def = {
	.name = "join",
	.synopsis = "SHARD_RUN...",
	.summary = "the shards of one plan (run --shard K/N) as one run folder",
	.options = join_options,
	.min_pos = 1,
	.max_pos = -1,
	.order = OPTIONS_ANYWHERE,
};

/* The binaries and libraries each shard kept, into the joined folder:
 * compare --confirm and rerun measure them again from there. */
static void keep_shard_binaries(const struct results_run *runs, int n, const char *out)
{
	char *bin = xasprintf("%s/bin", out);
	if (mkdir_p(bin, 0755) < 0)
		warning("cannot create %s: %s", bin, strerror(errno));
	for (int i = 0; i < n; i++)
		kept_binaries_copy(&runs[i], out);
	free(bin);
}

/* Loads the shards, joins them, writes DIR/results.json (after the
 * binaries, so a folder with results has them) and renders it. */
static int join_write(char **pos, int npos, const struct join_opts *o, int argc, char **argv)
{
	struct results_run *runs = xcalloc((size_t)npos + 1, sizeof(*runs));
	int code = EXIT_USAGE, loaded = 0;
	for (; loaded < npos; loaded++)
		if (results_open(pos[loaded], &runs[loaded]) < 0)
			break;
	json_t *joined = loaded == npos ? results_join(runs, (const char *const *)pos, (size_t)npos) : NULL;
	char *file = xasprintf("%s/results.json", o->out);
	if (joined) {
		json_t *av = json_array();
		json_array_append_new(av, json_string("flagbench"));
		for (int i = 0; i < argc; i++)
			json_array_append_new(av, json_string(argv[i]));
		json_object_set_new(json_object_get(joined, "run"), "argv", av);
		if (access(file, F_OK) == 0) {
			error("%s already holds a run: join into a new folder", o->out);
		} else if (mkdir_p(o->out, 0755) < 0) {
			error("cannot create %s: %s", o->out, strerror(errno));
		} else {
			keep_shard_binaries(runs, npos, o->out);
			if (results_write_document(file, joined) < 0)
				error("cannot write %s: %s", file, strerror(errno));
			else
				code = EXIT_ALL_OK;
		}
	}
	if (code == EXIT_ALL_OK) {
		fprintf(stderr, "flagbench: joined %d shards, %zu cells: %s\n", npos,
			json_array_size(json_object_get(joined, "cells")), file);
		if (!o->no_render)
			run_dir_render(o->out);
	}
	json_decref(joined);
	for (int i = 0; i < loaded; i++)
		results_close(&runs[i]);
	free(runs);
	free(file);
	return code;
}

int cmd_join(int argc, char **argv)
{
	struct join_opts o;
	memset(&o, 0, sizeof(o));
	char **pos = xcalloc((size_t)argc + 1, sizeof(*pos));
	int npos = 0, code = EXIT_USAGE;
	enum parse_status st = command_parse(&cmd_join_def, &o, NULL, argc, argv, pos, &npos);
	if (st != PARSE_OK)
		code = parse_exit(st);
	else if (!o.out)
		command_usage_error(&cmd_join_def, "join: --out DIR: where the joined run goes");
	else
		code = join_write(pos, npos, &o, argc, argv);
	free(pos);
	free(o.out);
	return code;
}
