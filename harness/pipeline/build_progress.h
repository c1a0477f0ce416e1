/* build_progress.h: what a build says while it compiles.
 *
 * A build of a real program takes minutes (a 250,000-line translation unit
 * compiles for a minute), and a run that is silent that long looks hung,
 * on a terminal and in a log alike.  So the build prints a line when it
 * starts (how many compiles, how many at once, how many the cache spares),
 * then one every BUILD_PROGRESS_S seconds (9 s, so that a log is never silent for 10) while compilers run
 * (how many done, which is the slowest still running and for how long, the
 * builds' eta), and one when it ends.
 *
 * The eta: the mean seconds of the compiles finished so far, for each one
 * waiting, and for each one running less what it has run (at least a
 * tenth of the mean: it runs on), spread over the parallel compilers, and
 * never less than the longest running one still needs.  Before the first
 * compile finishes there is nothing to estimate from: "eta ?".
 *
 * Times are passed in (`now`, seconds on any monotonic clock), so the mock
 * executor (executor.h) can pretend slow compiles on a pretend clock and
 * the lines can be tested without waiting.
 */
#ifndef FLAGBENCH_BUILD_PROGRESS_H
#define FLAGBENCH_BUILD_PROGRESS_H

#include <stddef.h>
#include <stdio.h>

#define BUILD_PROGRESS_S 9.0
/* The most characters of a compile's name the line prints. */
#define BUILD_PROGRESS_NAME 100

struct build_progress {
	FILE *out;            /* NULL: silent */
	size_t total;         /* compiles to run (the cache's hits not counted) */
	size_t cached;
	size_t done, failed;  /* finished compiles, of which failed */
	unsigned jobs;
	double start, last_line;
	double done_s;        /* seconds of the finished compiles, summed */
};

/* One compile running: what it builds (a cell id) and since when. */
struct build_running {
	const char *what;
	double started;
};

void build_progress_begin(struct build_progress *bp, FILE *out, size_t total, size_t cached, unsigned jobs,
			  double now);
void build_progress_finished(struct build_progress *bp, double seconds, int ok);
/* Seconds until the last compile ends; negative when nothing is known. */
double build_progress_eta(const struct build_progress *bp, double now, const struct build_running *run,
			  size_t nrun);
/* what in at most BUILD_PROGRESS_NAME characters: the words that fit, then
 * "and N more flags" (explain's and tune's cells carry dozens of flags). */
void build_progress_name(const char *what, char *out, size_t n);
/* The line every BUILD_PROGRESS_S seconds: prints it when due, else nothing. */
void build_progress_tick(struct build_progress *bp, double now, const struct build_running *run, size_t nrun);
void build_progress_end(struct build_progress *bp, double now);

#endif
