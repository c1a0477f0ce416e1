/* explain.h: `flagbench explain RUN CELL_A CELL_B`: which flags make B faster than A.
 *
 * A and B are two cells of one run with the same variant and compiler that
 * differ in -O level or in -march (not both).  The candidate flags are:
 *   -O levels (gcc only): the optimizer flags whose state differs between
 *     the two cells, as `gcc -Q --help=optimizers <cflags>` lists them
 *     (-fpeel-loops, -fvect-cost-model=dynamic, ...).  clang's -O levels
 *     choose pass pipelines that no flag names, so clang cells get -march
 *     attribution only, and explain says so (exit 2).
 *   -march: the ISA extensions whose predefined macro (__AVX2__, __FMA__)
 *     differs between the two cells' `-dM -E`, as -m<ext> / -mno-<ext> that
 *     the compiler accepts (both gcc and clang).
 * For each candidate it builds B moved one flag toward A ("B without it")
 * and A moved one flag toward B ("A with it"), through the build stage (the
 * cache, argv only), verifies every distinct binary with the family's
 * checker, and measures each distinct binary once (identical binaries
 * share a figure: most single flags change nothing, and the output says how
 * many).  Metric: instructions per unit counted by callgrind or perf
 * (deterministic under callgrind; the default for compute families where a
 * counter source exists), or time (hyperfine runs interleaved round-robin
 * over all distinct binaries, each with a 95 % interval).
 *
 * The share of a flag is measured in log space against the gap
 * G = ln(m(A) / m(B)):  without = ln(m(B without f) / m(B)) / G,
 * with = ln(m(A) / m(A with f)) / G; its score is their mean.  The flags
 * with the highest scores (at least 5 % each, at most --top, until 90 % of
 * the gap is covered; for time, an interval that excludes zero) are the
 * claim, which is then checked by building and measuring B without all of
 * them together ("explained" = that build's share of the gap).
 *
 * Output: a table on stdout, explain.md and results.json (schema
 * flagbench-results/1: the built cells, plus an "explain" object, see
 * docs/results-schema.md) in --out (default RUN/explain-<time>).
 * Exit: 0 done, 1 A or B could not be rebuilt or verified, 2 bad usage,
 * 130 interrupted.
 */
#ifndef FLAGBENCH_EXPLAIN_H
#define FLAGBENCH_EXPLAIN_H

#include "core/util.h"

int cmd_explain(int argc, char **argv);

/* Parses `gcc -Q --help=optimizers` output into "name\tvalue" lines
 * ("-fpeel-loops\t[enabled]", "-fvect-cost-model\tdynamic"). */
void explain_parse_optimizers(const char *text, struct strvec *out);
/* The -m flag of an ISA macro line ("#define __AVX2__ 1" -> "avx2"), or
 * NULL when the line is not one. */
char *explain_isa_of_macro(const char *line);

#endif
