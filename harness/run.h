/* run.h: `flagbench run`, the pipeline from configs to results.json.
 *
 *   load -> plan -> (--resume: restore) -> build -> for each cell:
 *   verify, measure, count -> results (after every cell) -> render
 *   (plots/render.sh; --no-render skips it) -> summary table on stdout
 *
 * cmd_run() is that sequence of stage calls over one struct run (run.c);
 * docs/architecture.md walks through it.  A finished run folder holds
 * results.json, journal.jsonl and what the render made; the scratch
 * folder .work/ stays only in an interrupted one.
 *
 * Options are declared once in run.c's table (also the --help text).  A
 * failing cell gets a status and a reason and the run goes on; Ctrl-C
 * stops at once, kills the child's process group, leaves a valid
 * results.json (run.interrupted true) and exits 130; --resume DIR then
 * runs only the cells that the journal lacks.
 * Exit: 0 every cell ok (or unsupported/skipped), 1 some cell failed,
 * 2 bad usage or config, 130 interrupted.
 */
#ifndef FLAGBENCH_RUN_H
#define FLAGBENCH_RUN_H

int cmd_run(int argc, char **argv);
/* `flagbench list cpus|suites|variants|compilers` */
int cmd_list(int argc, char **argv);

#endif
