/* tune_writer.h: the writers of `flagbench tune` (driver/tune.h).
 *
 * tune.md (printed on stdout too): the start and the space, each
 * technique's search, the answer in words (the build to use, its verified
 * ratio to the start and to the -O levels, a CFLAGS line), the flags that
 * carry the gain with their shares, and the confirmation's table.
 * results.json (kind flagbench-tune, docs/tune.md): every figure of the
 * same, each technique's convergence (best so far against its time) and
 * every candidate.  convergence.tsv and, by plots/tune.sh (jq, gnuplot),
 * convergence.svg and index.html.  They only format: every number and
 * every verdict is tune's or the comparison's.
 */
#ifndef FLAGBENCH_TUNE_WRITER_H
#define FLAGBENCH_TUNE_WRITER_H

#include "driver/tune.h"

/* The tune_view's report: 0, or -1 when a file could not be written. */
int tune_report(const struct tune *t);

#endif
