/* explain_writer.h: the writers of `flagbench explain` (driver/explain.h).
 *
 * explain.md: the title, the metric and the gap, a row per flag that
 * changes the binary (B without it, A with it, the share of the gap each
 * way), the flags that change nothing, the answer and its check, the notes;
 * printed on stdout as well.  results.json (schema flagbench-results/1,
 * docs/results-schema.md): the cells explain built, as a run's, plus an
 * "explain" object with the same figures.  Both in --out (default
 * RUN/explain-<time>).  They only format: every number is explain's.
 */
#ifndef FLAGBENCH_EXPLAIN_WRITER_H
#define FLAGBENCH_EXPLAIN_WRITER_H

#include "driver/explain.h"

/* explain.md on stdout and in r->out, results.json beside it: the
 * explain_view's report.  0, or -1 when a file could not be written. */
int explain_report(const struct explain *e, const struct explain_run *r);

#endif
