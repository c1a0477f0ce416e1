/* across_writer.h: the answers across machines (model_across.h) in the
 * terminal, in Markdown and in JSON.
 *
 * `flagbench tables RUN...` (term, md) opens with the level every answer
 * of the view is shown at, then per family, before its tables: the
 * family's line, per variant each machine's fastest build and its lead,
 * whether the machines agree (the gaps that flip, largest first), the
 * portable choice with its loss on each machine, what each machine's own
 * fastest costs on the others and the builds left out; then every gap
 * across the machines, those that flip first.  `--format json` puts the
 * same under families[].across.  It lays out what the model derived and
 * computes nothing.
 */
#ifndef FLAGBENCH_ACROSS_WRITER_H
#define FLAGBENCH_ACROSS_WRITER_H

#include <jansson.h>

#include "report/model.h"

/* Whether any family of m has answers across machines. */
int across_any(const struct model *m);
/* The opening lines (the level), once: how 't' terminal, 'm' Markdown. */
void across_write_head(struct model *m, char how, size_t width, struct strbuf *out);
/* The family's block, or nothing when it has none; width 0: no wrapping. */
void across_write_family(const struct mfamily *f, char how, size_t width, struct strbuf *out);
/* families[].across, or null. */
json_t *across_json(struct model *m, const struct mfamily *f);

#endif
