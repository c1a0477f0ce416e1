/* answers_writer.h: the end of a run in the terminal.
 *
 * What a person reads when `flagbench run` (and ./run.sh) ends, on the
 * last screen and within a width: the level every lead is shown at, then
 * per family who wins most often, each variant's fastest build with its
 * lead over the runner-up (the model's struct manswer), the gaps that are
 * real, largest first, and the ones that make no real difference
 * (struct mgap, model_gaps.h); then where the tables, plots and page are.
 * It lays out what the model derived and computes nothing.
 */
#ifndef FLAGBENCH_ANSWERS_WRITER_H
#define FLAGBENCH_ANSWERS_WRITER_H

#include "report/model.h"

/* Appends the block for m (one run, in run_dir; NULL: no lines on where its files are) to out, no line wider
 * than width columns (a word longer than that stands alone). */
void answers_write_term(const struct model *m, const char *run_dir, size_t width, struct strbuf *out);
/* One logical line onto out, wrapped at width at its spaces, continuation
 * lines indented by indent; control characters shown as '?'. */
void answers_emit(struct strbuf *out, const char *text, size_t indent, size_t width);

#endif
