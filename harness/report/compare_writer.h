/* compare_writer.h: the writers of `flagbench compare` (analysis/compare.h).
 *
 * Output: a terminal table, Markdown (for a CI job summary) or JSON
 * (compare_to_json, schema flagbench-compare/2), and the JSON as well in a
 * file.  A row per matched cell: base, new, new/base, its interval (the
 * confirmation's, at its level, for a confirmed cell), verdict and note;
 * then the unmatched cells, the warnings and the counts.  They only format
 * struct comparison: every number is compare's.
 */
#ifndef FLAGBENCH_COMPARE_WRITER_H
#define FLAGBENCH_COMPARE_WRITER_H

#include <stdio.h>

#include "analysis/compare.h"

enum compare_format { COMPARE_TEXT, COMPARE_MARKDOWN, COMPARE_JSON };

void compare_write_text(FILE *out, const struct comparison *c);
void compare_write_markdown(FILE *out, const struct comparison *c);
/* c on stdout in format f and, with json_out, as JSON into that file: 0,
 * or -1 when the file could not be written. */
int compare_write(const struct comparison *c, enum compare_format f, const char *json_out);

#endif
