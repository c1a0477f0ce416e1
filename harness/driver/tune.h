/* tune.h: `flagbench tune`, a search of one compiler's flag space for the
 * fastest build of one variant, and the flags that carry its gain.
 *
 * The start: a variant built by one compiler at one -O level and -march
 * (a cell of a run, or named on the command line), planned as `flagbench
 * run` would plan it (plan.h: its cflags, size, arguments, pins).  The
 * space: what the compiler itself lists for that start (tune_space.h),
 * the -O level first among its dimensions (tune_space_opt.h).
 *
 * Before the search (tune_probe.h): the start's build, check and screen
 * are timed, the other -O levels built, checked and screened as one batch,
 * and what one candidate costs, what the budget buys and how many
 * candidates the search needs to do better than chance are said on stderr
 * before the first candidate (analysis/tune_budget.h).  Where tune chose
 * to count instructions, the counts are checked against time on the -O
 * levels and on each markedly better best, and the screen turns to time
 * where they rank builds otherwise (tune_screen.h).
 *
 * Every candidate, a point of the space, is compiled (build.h: argv only,
 * the cache, --jobs compilers at once), and its binary is known by its
 * sha256: a binary seen before takes that figure and is never measured
 * again.  A new binary must pass the family's check (verify.h) before it is
 * measured; one the compiler rejects, crashes on or times out on is
 * recorded as build_failed, one whose output is wrong as wrong_output, and
 * the search goes on (their score is infinite).  The screen, the score the
 * search is told (lower is better):
 *   instructions  callgrind's (or perf's) instructions per unit, for compute
 *                 families where a counter source exists: deterministic,
 *                 so one count is the figure;
 *   time          otherwise (streams, or a build valgrind cannot run): the
 *                 candidates of one batch timed in rounds with the start
 *                 (schedule.h), each scored by its ratio to the start paired
 *                 over those rounds (comparison.h), so drift between
 *                 batches cancels; a candidate that would be its
 *                 technique's new best is timed again beside the start
 *                 first (the best of many noisy screens drew luck).
 * The techniques (tune_search.h) of --technique run side by side, a batch
 * each in turn, each with the whole --budget (a time of its own batches, or
 * a count of candidates), so a search and the random baseline meet the same
 * machine.
 *
 * Then, on the best point by the screen: the flags in which it differs
 * from the start are minimised by delta debugging (Zeller's ddmin over
 * complements): a subset is kept when it holds TUNE_KEEP of the best's gain
 * (in log space), until no flag can go; each remaining flag's share is the
 * gain lost without it, as explain's.  Last, the confirmation: the start,
 * each technique's best, the minimal set and -O2/-O3/-Os of the same
 * compiler and -march, timed in rounds (--confirm-runs, --layouts code
 * layouts), and each compared with the start by the one comparison, paired
 * over the rounds (across layouts with --layouts); the result is called
 * better than the start only where that comparison says faster.
 *
 * Everything goes to the tune folder (--out, default
 * results/tune-<time>-<family>-<variant>): journal.jsonl (a header with the
 * command line and the space, then one line per candidate, written as it
 * finishes and synced, so Ctrl-C loses nothing; --resume replays it: the
 * searches are deterministic, so a journaled candidate is told its figure
 * again instead of being built), results.json (the whole outcome,
 * atomically) and what report/tune_writer.h renders from it.
 *
 * The stages are a module each over one struct tune (tune_state.h, which
 * this header does not include): tune_start.h, tune_probe.h, tune_eval.h
 * (a batch of candidates), tune_journal.h, tune_loop.h (the techniques
 * side by side), tune_screen.h, tune_minimise.h and tune_confirm.h;
 * tune.c runs them in order.
 */
#ifndef FLAGBENCH_TUNE_H
#define FLAGBENCH_TUNE_H

#include "driver/tune_opts.h"

/* A tune's state (driver/tune_state.h): a writer includes that header to
 * read it; a caller of tune_main() holds none. */
struct tune;

/* How a finished tune is reported (report/tune_writer.h): 0, or -1 when
 * an output could not be written. */
struct tune_view {
	int (*report)(const struct tune *t);
};

/* One tune; returns the exit code: 0 done (whether or not a better build
 * was found), 1 the start could not be built, verified or measured, 2 bad
 * input, 130 interrupted (the journal holds what finished). */
int tune_main(const struct tune_opts *o, const struct tune_view *view);

/* "10m", "90s", "1h": seconds into *seconds; "200": a count into
 * *candidates.  0, or -1 for junk. */
int tune_parse_budget(const char *text, double *seconds, unsigned *candidates);

#endif
