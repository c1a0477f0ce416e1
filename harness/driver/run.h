/* run.h: `flagbench run`, the pipeline from configs to results.json.
 *
 *   load -> plan -> (--resume: restore) -> build -> for each cell:
 *   verify, measure, count -> results (after every cell) -> render
 *   (plots/render.sh; --no-render skips it) -> summary table on stdout
 *
 * run_main() is that sequence of stage calls over one struct run (run.c);
 * docs/architecture.md walks through it.  The stages go through an
 * executor (pipeline/executor.h: hyperfine, or the mock with --dry-run)
 * and the cells' runs through the scheduler (pipeline/schedule.h); the
 * options are run_options.h's, the folder and its lock run_dir.h's, the
 * host facts host.h's.  A finished run folder holds
 * results.json, journal.jsonl and what the render made; the scratch
 * folder .work/ stays only in an interrupted one.
 *
 * Options are declared once in run_options.c's table (also the --help text).  A
 * failing cell gets a status and a reason and the run goes on; Ctrl-C
 * stops at once, kills the child's process group, leaves a valid
 * results.json (run.interrupted true) and exits 130; --resume DIR then
 * runs only the cells that the journal lacks.
 * Exit: 0 every cell ok (or unsupported/skipped), 1 some cell failed,
 * 2 bad usage or config, 130 interrupted.
 */
#ifndef FLAGBENCH_RUN_H
#define FLAGBENCH_RUN_H

#include <stddef.h>

struct cell;
struct plan;
struct between_runs;

/* What the driver shows a person, given by the command (cmd/run.c) so
 * the layers below need no writer: a cell's figure on its progress line,
 * and the tables of a finished run. */
struct run_view {
	void (*cell_figure)(const struct cell *c, const struct plan *p, char *buf, size_t n);
	int (*summary)(const char *run_dir, int verbose);
	/* marks the cells whose answer is still undecided (analysis/undecided.h);
	 * NULL: runs stop at each cell's own target */
	void (*undecided)(const struct plan *p, const struct between_runs *between, unsigned char *mark);
};

/* `flagbench run ARGS` (argv[0] "run"); returns the exit code. */
int run_main(int argc, char **argv, const struct run_view *view);

#endif
