/* explain_writer.h: the writers of `flagbench explain` (driver/explain.h).
 *
 * explain.md: the title, the metric and the gap, the state (complete, or
 * partial: the budget spent or interrupted), how many flags are tested and
 * in how many builds, a row per group of the search (B without its flags,
 * the share of the gap, what it found), the flags left, the answer and its
 * check, the flags that carry the gap together, the notes; across
 * compilers the gap split both ways instead; printed on stdout at the end.  results.json (schema flagbench-results/1,
 * docs/results-schema.md): the cells explain built, as a run's, plus an
 * "explain" object with the same figures.  Both in --out (default
 * RUN/explain-<time>).  They only format: every number is explain's.
 */
#ifndef FLAGBENCH_EXPLAIN_WRITER_H
#define FLAGBENCH_EXPLAIN_WRITER_H

#include "driver/explain.h"

/* explain.md in r->out (on stdout too when final), results.json beside
 * it: the explain_view's report.  0, or -1 when a file could not be
 * written. */
int explain_report(const struct explain *e, const struct explain_run *r, int final);

#endif
