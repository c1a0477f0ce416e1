/* explain.h: which flags make cell B of a run faster than cell A, within a
 * budget, and what a compiler carries against another.
 *
 * A and B are two cells of one run of the same variant.  With one compiler
 * they differ in -O level or in -march (not both), and the candidate flags
 * are:
 *   -O levels (gcc only): the optimizer flags whose state differs between
 *     the two cells, as `gcc -Q --help=optimizers <cflags>` lists them,
 *     and the --param values that differ in `gcc -Q --help=params`.
 *     clang's -O levels choose pass pipelines that no flag names (exit 2).
 *   -march: the ISA extensions whose predefined macro differs between the
 *     two cells' `-dM -E`, as -m<ext> / -mno-<ext> that the compiler
 *     accepts (both gcc and clang).
 * The flags are searched by halves (analysis/group_search.h): all of
 * them moved first, then each half of a group that carries the gap, so k
 * carrying flags among n cost about 1 + 2 k log2(n) builds, not one build
 * per flag (nor one per ISA extension).  Optimizer flags are moved out of
 * B (B without them: a group's share of the gap G = ln(m(A) / m(B)) is
 * ln(m(B without it) / m(B)) / G); ISA extensions into A (A with them:
 * ln(m(A) / m(A with it)) / G), since -mavx2 brings what it needs along
 * while -mno-sse3 takes away every extension above it.  Each share's
 * interval is the comparison's (analysis/comparison.h); a group carries
 * where its share is at least 5 % and (for time) the comparison calls
 * the move real.
 * The answer: the single flags that carry (the claim, at most --top of
 * them, checked by B without all of them together where there are two or
 * more) and the groups that carry while neither half does (flags that
 * carry the gap together).  The claim is ranked by the search's
 * shares, at most --top flags until 90 % of the gap is covered; where two
 * ISA extensions or more carry it alone, each is also built the other way
 * (B without it) to break near-ties (-mf16c brings -mavx along as -mavx
 * itself does).
 *
 * With two compilers (gcc/-Os against clang/-Os, or gcc/-O2 against
 * clang/-O3): X = A's compiler with B's flags and Y = B's compiler with
 * A's flags are built beside A and B, and the gap splits two ways: the
 * compiler at A's flags (A / Y) then the flags within B's compiler (Y / B),
 * and the flags within A's compiler (A / X) then the compiler at B's flags
 * (X / B).  At the same flags the whole gap is the compiler's.
 *
 * Every build goes through the session (pipeline/session.h: the build
 * cache first, argv only, the family's check), every distinct binary is
 * counted (instructions per unit, deterministic under callgrind) or timed
 * through the scheduler beside A and B again in each batch, so drift
 * spreads over all of them.  First it asks the comparison whether B is
 * faster than A at all in the run's times; where not it says so in the
 * comparison's words and stops, exit 0, nothing built.
 *
 * Budget and journal.  --budget is a time (10m) or a count of builds; up
 * front explain says what a full explanation needs (one build per flag,
 * and about how many by halves), at about how long a build (the run's own
 * build time, then this explain's) and what the budget buys; a batch that
 * would end past the budget is not started.  After every batch the
 * findings are written, each file atomically: OUT/journal.json (the
 * groups measured, what --resume replays), explain.md and results.json
 * with the partial answer (the flags tested, those that carry the gap so
 * far, the groups still waiting).  So a budget's end or an interrupt
 * (SIGINT, SIGTERM) leaves the answer so far; `--resume OUT` goes on from
 * there, measuring only the groups still waiting (the cache spares the
 * builds an interrupted batch finished).
 *
 * What it found is reported through an explain_view (report/explain_writer.h),
 * so analysis needs no report/ code.
 */
#ifndef FLAGBENCH_EXPLAIN_H
#define FLAGBENCH_EXPLAIN_H

#include "driver/explain_measure.h"
#include "driver/explain_state.h"

/* One explain: RUN (a run folder or its results.json), cells A and B of
 * it (all three NULL with o->resume: the journal's), the command line it
 * records.  Returns the exit code: 0 done or the budget spent (the
 * answer says which), 1 A or B could not be rebuilt or verified (or an
 * output not written), 2 bad input, 130 interrupted (the partial answer
 * written). */
int explain_main(const char *run, const char *id_a, const char *id_b, int argc, char **argv,
		 const struct explain_opts *o, const struct explain_view *view);

/* The smallest measured group holding candidate i, or -1 (untested). */
int explain_group_of(const struct explain *e, size_t i);

#endif
