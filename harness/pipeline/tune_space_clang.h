/* tune_space_clang.h: the clang space: -f flags tried, -mllvm thresholds.
 *
 * clang lists no state for its -f flags, so tune_space_read_clang() tries
 * each of a fixed list both ways against the start's cc1 line (-###) and
 * an empty unit, keeps what this clang accepts under -Werror, and reads
 * the -mllvm defaults from `-mllvm -print-all-options`.  tune_space_read()
 * calls it for a clang; the tests call tune_space_parse_clang() on a
 * stored listing.  tune_space.h says what the space holds.
 */
#ifndef FLAGBENCH_TUNE_SPACE_CLANG_H
#define FLAGBENCH_TUNE_SPACE_CLANG_H

#include "pipeline/tune_space_dims.h"
#include "pipeline/compilers.h"

/* tune_space_read() for clang: 0, or -1 after an error message when
 * clang cannot be asked. */
int tune_space_read_clang(const struct compiler *comp, char *const *start_cflags, int allow_unsafe,
			  struct tune_space *out);

/* What tune_space_read() parses, without running anything (tests):
 * `clang -mllvm -print-all-options` output and the -f flags the clang
 * accepted (as "-fX", each with its -fno-X): the clang space.  Each word
 * of accepted_flags also says the start's state: "-fX" (adding -fX
 * changes nothing), "-fno-X" (adding -fno-X changes nothing) or
 * "-fX|-fno-X" (both change the cc1 line: the start is neither). */
void tune_space_parse_clang(const char *print_all_options, char *const *accepted_flags, int allow_unsafe,
			    struct tune_space *out);

#endif
