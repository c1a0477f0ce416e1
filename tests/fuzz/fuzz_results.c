/* fuzz_results.c: libFuzzer target for the readers of a run folder: the
 * one reader of results.json (results/reader.h: results_open, and
 * results_load as compare and rerun call it), the results model behind
 * `flagbench tables`, `report` and `merge` over it (report/model*.c, every
 * format) and the journal reader of --resume (results_resume).  Any input must give a table or an error, never a
 * crash, a leak or an out-of-bounds access.  Built and run by
 * `make fuzz-run` (the slow tier). */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pipeline/plan.h"
#include "report/model.h"
#include "cmd/tables.h"
#include "results/reader.h"
#include "results/results.h"
#include "core/util.h"

static char dir[64];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "/tmp/flagbench-fuzz-results.%ld", (long)getpid());
		mkdir_p(dir, 0755);
		/* the tables go nowhere; only crashes matter */
		if (!freopen("/dev/null", "w", stdout))
			abort();
	}
	char *path = xasprintf("%s/results.json", dir);
	FILE *f = fopen(path, "wb");
	if (!f || (size && fwrite(data, 1, size, f) != size))
		abort();
	fclose(f);
	struct results_run run;
	if (results_open(dir, &run) == 0)
		results_close(&run);
	char *rdir = NULL;
	json_decref(results_load(path, &rdir));
	free(rdir);
	static const char *const formats[] = { "term", "md", "csv", "json", "tsv" };
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		char *argv[] = { "tables", dir, "--format", (char *)formats[i], NULL };
		cmd_tables(4, argv);
	}
	/* two runs side by side: the merged columns */
	char *merge_argv[] = { "tables", dir, dir, "--format", "md", NULL };
	cmd_tables(5, merge_argv);
	/* the same bytes as a journal, resumed into an empty plan */
	char *jpath = xasprintf("%s/journal.jsonl", dir);
	if (rename(path, jpath) < 0)
		abort();
	struct plan p;
	memset(&p, 0, sizeof(p));
	results_resume(&p, dir);
	unlink(jpath);
	free(jpath);
	free(path);
	return 0;
}
