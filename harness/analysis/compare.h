/* compare.h: is run NEW slower than run BASE? (`flagbench compare`, cmd/compare.h)
 *
 * BASE and NEW are run folders or results.json files (or, with --baseline
 * NAME, BASE is the stored baseline of NEW's cpu profile: baseline.h).
 * Cells are matched by id; cells found on one side only are listed.  Per
 * matched cell: the ratio NEW / BASE of the metric and its 95 % interval,
 * then a verdict by the threshold t (default 2 %), with up = 1 + t and
 * down = 1 / (1 + t):
 *   slower        the whole interval lies above up
 *   faster        the whole interval lies below down
 *   same          the whole interval lies within [down, up]
 *   inconclusive  the interval straddles up or down: the runs are too
 *                 noisy to say (more runs, or --confirm)
 *   n/a           a side is not ok, or lacks the metric (note says why)
 * Metrics:
 *   time          seconds per run (per unit of work when the sizes differ),
 *                 from every stored run: the ratio of the two sides'
 *                 statistics (NEW's run.statistic, the lower quartile by
 *                 default; --statistic) with a percentile bootstrap over
 *                 the runs of both sides
 *                 (stats_bootstrap_ratio, fixed seed: reproducible).
 *                 Fewer than 2 runs on a side gives no interval: such a
 *                 cell is at most inconclusive, never slower.
 *   instructions, cycles
 *                 counts per unit from the cells' "counters" (compute
 *                 cells).  They are point values (callgrind counts the
 *                 same program the same way every time), so the interval
 *                 is the ratio itself and the verdict is the threshold
 *                 test on it: never inconclusive.
 * Cells that fail or are skipped the same way on both sides are left out
 * (counted as not_run).
 * --confirm N: every cell found slower (time metric), or inconclusive
 * with an interval that reaches above up (a slowdown the noise may hide),
 * is measured again: both binaries from the run folders' bin/ (pipeline/store.h),
 * interleaved for N rounds in this process, as many rounds A B as B A in a
 * shuffled order (an edge of the first or second run of a pair falls on
 * both sides, and a disturbance that recurs cannot line up with one),
 * pausing as NEW's run did (cooldown.h): the profile's pause before each
 * confirmed cell, between its runs only with a sensor.  It then gets the
 * verdict of the paired ratios instead (stats_paired_ratio_t: their
 * geometric mean, a t interval), so a drift of the machine between the runs
 * cannot make it slower.  A cell that cannot be measured again keeps
 * `slower` and says why.
 * --alarm-rate P (percent, default 1): the chance, for identical builds,
 * that the confirmation raises any alarm in one comparison (a family-wise
 * rate).  With m suspect cells confirmed, each paired interval is taken at
 * the two-sided level 1 - 2 (P / 100) / m (confirm_level), e.g. 99.67 %
 * for 6 cells at 1 %: at 95 % each, a nightly confirming 6 cells would
 * alarm for nothing in several percent of comparisons.  The level is shown
 * in each confirmed cell's note and recorded in the JSON.
 * A cell whose BASE and NEW binaries have the same sha256 and argv gets
 * the note "identical binary: ..." beside its verdict (which it keeps): any
 * difference it shows is the machine's.
 * The numbers are computed once, here, into struct comparison; the text
 * and Markdown writers (report/compare_writer.h) only format it, and
 * compare_to_json is its record:
 * JSON (schema flagbench-compare/2): per cell id, verdict, ratio, ci95,
 * base, new, unit, note, identical_binary, and for a confirmed cell
 * confirm {rounds, ratio, ci, level, first_verdict}; at the top
 * confirmation {rounds, alarm_rate_percent, cells (m), level} (null
 * without --confirm; level null when no cell was measured again).
 * (/1 had confirm.ci95, always at 95 %.)
 */
#ifndef FLAGBENCH_COMPARE_H
#define FLAGBENCH_COMPARE_H

#include <jansson.h>

#include "core/stats.h"
#include "core/util.h"

enum verdict { VERDICT_SAME, VERDICT_FASTER, VERDICT_SLOWER, VERDICT_INCONCLUSIVE, VERDICT_NA };
#define VERDICT_COUNT 5
enum metric { METRIC_TIME, METRIC_INSTRUCTIONS, METRIC_CYCLES };

const char *verdict_name(enum verdict v);
const char *metric_name(enum metric m);
int metric_parse(const char *name, enum metric *out);

/* The verdict of an interval [low, high] of NEW / BASE; threshold is a
 * fraction (0.02 for 2 %). */
enum verdict verdict_of_interval(double low, double high, double threshold);
/* A level as a percentage with the digits that tell it from 100: 95,
 * 99.67, 99.998. */
void compare_format_level(double level, char *buf, size_t n);
/* The two-sided level of each of m confirmation intervals that keeps the
 * chance of any false alarm among them at most alarm_rate (a fraction):
 * 1 - 2 alarm_rate / m.  NAN when m is 0 or alarm_rate is outside (0, 0.5]. */
double confirm_level(double alarm_rate, size_t m);

struct cell_cmp {
	char *id;
	enum verdict verdict;
	char *note;              /* why n/a, what confirmation did; or NULL */
	struct ratio_ci ci;      /* NEW / BASE; ratio NAN when n/a */
	double base_value, new_value; /* the statistic of times (comparison.quantile), or median counts per unit */
	const char *unit;        /* "s", "s/unit", "instructions/unit", "cycles/unit" */
	int confirmed;           /* rounds measured again (0: not confirmed) */
	struct ratio_ci confirm; /* the paired ratio of those rounds */
	double confirm_level;    /* its two-sided level (confirm_level) */
	double confirm_cooldown_s; /* paused for heat while confirming: before the cell, between runs */
	enum verdict first;      /* the verdict before confirmation */
	int identical_binary;    /* 1: the same sha256 and argv on both sides */
};

/* The note a writer shows for a cell: its note and, for an identical
 * binary, what that means; NULL when there is none (free it). */
char *cell_note_text(const struct cell_cmp *cc);

struct comparison {
	enum metric metric;
	double threshold;        /* fraction */
	double quantile;         /* the statistic of times both sides are compared by (stats.h) */
	char *base_label, *new_label; /* run ids */
	char *base_profile, *new_profile;
	struct cell_cmp *cells;
	size_t n;
	struct strvec only_base, only_new, warnings;
	size_t not_run;          /* cells with the same failing status on both sides, left out */
	size_t count[VERDICT_COUNT];
	/* --confirm: rounds (0 without), the family-wise alarm rate (fraction),
	 * m (the cells measured again) and the level of each (NAN when m = 0) */
	unsigned confirm_rounds;
	double alarm_rate;
	size_t confirm_cells;
	double confirm_level;
};

struct compare_opts {
	enum metric metric;
	double threshold;   /* fraction */
	unsigned resamples; /* bootstrap resamples */
	uint64_t seed;
	const char *statistic; /* of times (stats.h); NULL: NEW's run.statistic, the median for older runs */
};

/* Compares two loaded runs into out (free with comparison_free). */
void compare_runs(const json_t *base, const json_t *new_run, const struct compare_opts *o,
		  struct comparison *out);
void comparison_free(struct comparison *c);
/* Recounts the verdicts after a change (confirmation). */
void comparison_recount(struct comparison *c);

json_t *compare_to_json(const struct comparison *c);

/* One comparison as the command line asks it. */
struct compare_request {
	const char *base;          /* BASE: a run folder or results.json; unused with baseline */
	const char *new_run;       /* NEW, the same */
	const char *baseline;      /* NULL, or BASE is the stored baseline NAME of NEW's cpu profile */
	const char *baselines_dir; /* where baselines are stored (NULL: the project's baselines/) */
	struct compare_opts opts;
	unsigned confirm;          /* --confirm rounds; 0: none */
	double alarm_rate;         /* fraction */
	double timeout_s;          /* of one run while confirming */
};

/* Loads NEW, then BASE (or the baseline), compares them into out and,
 * with rq->confirm, measures the suspect cells again.  0, or -1 after an
 * error message (bad input: exit 2).  Free out with comparison_free
 * either way. */
int compare_main(const struct compare_request *rq, struct comparison *out);

#endif
