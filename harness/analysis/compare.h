/* compare.h: is run NEW slower than run BASE? (`flagbench compare`, cmd/compare.h)
 *
 * BASE and NEW are run folders or results.json files (or, with --baseline
 * NAME, BASE is the stored baseline of NEW's cpu profile: baseline.h).
 * Cells are matched by id; cells found on one side only are listed.  Per
 * matched cell: the ratio NEW / BASE of the metric, its interval and a
 * verdict, all from the one comparison primitive (analysis/comparison.h),
 * with the policy threshold = same band = t (default 2 %: "same" means
 * within the threshold), the statistic, --resamples and --seed:
 *   slower        the whole interval lies above 1 + t
 *   faster        the whole interval lies below 1 / (1 + t)
 *   same          the whole interval lies within [1 / (1 + t), 1 + t]
 *   inconclusive  the interval straddles a bound: the runs are too noisy
 *                 to say (more runs, or --confirm)
 *   same binary   BASE and NEW are one run (the same run id) and the cell
 *                 ran the same program (pipeline/plan.h's program_id:
 *                 sha256, argv, allocator, placement, consumer and
 *                 environment pad, as the run's dedupe and the tables' ≡
 *                 decide it): the same measurement (ratio 1, [1, 1]).
 *                 The same program in two runs is measured instead: the
 *                 best A/A comparison there is, and a difference (a
 *                 kernel, libc, library or microcode update) is the
 *                 system's; its note says so and names what the runs
 *                 recorded as changed (host facts, binary.libraries), and
 *                 its JSON has same_program true
 *   n/a           a side is not ok, lacks the metric or has too few runs
 *                 (note says why)
 * Metrics:
 *   time          seconds per run (per unit of work when the sizes differ),
 *                 from every stored run: two run folders share no rounds,
 *                 so the primitive's independent method (a seeded
 *                 percentile bootstrap of the ratio of the two sides'
 *                 statistics; NEW's run.statistic, the lower quartile by
 *                 default; --statistic).  Fewer than COMPARISON_MIN_RUNS
 *                 runs on a side: n/a, never slower.
 *   instructions, cycles
 *                 counts per unit from the cells' "counters" (compute
 *                 cells).  They are exact (callgrind counts the same
 *                 program the same way every time): comparison_counts(),
 *                 the ratio itself, never inconclusive.
 * Cells that fail or are skipped the same way on both sides are left out
 * (counted as not_run).
 * Two runs by time: the machine's move.  The cells whose program did not
 * change (same_program, on the same libraries) are controls; with at
 * least COMPARISON_MIN_CONTROLS of them comparison_machine() fits the
 * machine's shift (their median ratio) and its sd, and every cell is
 * compared again with the shift taken out and the sd in its interval
 * (policy.machine_shift, machine_sd): a changed cell's verdict is its own
 * change, a control's whether it stood out from the others.  With fewer,
 * nothing is taken out and every interval is widened by
 * compare_opts.between_spread (how far one binary's time moves between
 * this host's runs, results/ratio_drift.h), a warning and each note saying
 * so (without it, the warning says the intervals lack the machine's move).
 * cell_cmp.raw keeps each comparison before; struct comparison.machine the
 * fit.
 * --confirm N (driver/compare_confirm.h measures): every cell whose
 * program changed and whose verdict is not same (faster too), every cell
 * found slower, or inconclusive with an interval that reaches above 1 + t
 * (compare_confirm_wanted), is measured again: both binaries from the run folders' bin/
 * (pipeline/store.h), through the scheduler (pipeline/schedule.h) in N
 * balanced rounds (as many A B as B A, shuffled, seeded by the cell), the
 * pause of NEW's run once before the cell, between its runs only with a
 * sensor.  It then gets the verdict of the primitive's paired method over
 * those rounds (the sign-test interval of the median log ratio), so a
 * drift of the machine between the runs cannot make it slower; fewer
 * pairs than the level needs (6 reach 96.9 %, 8 reach 99.2 %, 10 reach
 * 99.8 %) give inconclusive.  A cell that cannot be measured again keeps
 * `slower` and says why.
 * --alarm-rate P (percent, default 1): the chance, for identical builds,
 * that the confirmation raises any alarm in one comparison (a family-wise
 * rate).  An alarm is one-sided (an interval wholly above 1 + t), which a
 * two-sided interval at level 1 - a misses by chance a / 2 at most; so
 * each of m suspect cells is confirmed at comparison_bonferroni_level(2 P
 * / 100, m) = 1 - 2 (P / 100) / m, e.g. 99.67 % for 6 cells at 1 %.  The
 * level is shown in each confirmed cell's note and recorded in the JSON.
 * The numbers are computed once, here, into struct comparison; the text
 * and Markdown writers (report/compare_writer.h) only format it, and
 * compare_to_json is its record:
 * JSON (schema flagbench-compare/2): per cell id, verdict, ratio, ci95,
 * base, new, unit, note, identical_binary (the verdict same binary), and
 * for a confirmed cell confirm {rounds, ratio, ci, level, first_verdict,
 * cooldown_s}, control, raw_ratio and raw_ci95 (two runs by time, else
 * null); counts per verdict word; at the top confirmation {rounds,
 * alarm_rate_percent, cells (m), level, status} (null without --confirm;
 * level null when no cell was measured again) and machine {controls,
 * min_controls, shift, taken_out, spread_percent, widened_percent,
 * between_runs_spread_percent, between_runs_ratios} (null but for two
 * runs by time).
 * (/1 had confirm.ci95, always at 95 %.)
 */
#ifndef FLAGBENCH_COMPARE_H
#define FLAGBENCH_COMPARE_H

#include <jansson.h>

#include "analysis/comparison.h"
#include "core/stats.h"
#include "core/util.h"
#include "pipeline/plan.h"
#include "results/reader.h"

/* counts per verdict (comparison.h's enum comparison_verdict) */
#define VERDICT_COUNT (VERDICT_SAME_BINARY + 1)


/* A level as a percentage with the digits that tell it from 100: 95,
 * 99.67, 99.998. */
void compare_format_level(double level, char *buf, size_t n);
/* The two-sided level of each of m confirmation intervals that keeps the
 * chance of any one-sided false alarm among them at most alarm_rate (a
 * fraction): comparison_bonferroni_level(2 alarm_rate, m).  NAN when m is
 * 0 or alarm_rate is outside (0, 0.5). */
double confirm_level(double alarm_rate, size_t m);
/* The primitive's policy of a comparison: threshold and same band both t. */
void compare_policy(struct comparison_policy *p, double threshold, double quantile, unsigned resamples,
		    unsigned long long seed, double level);
/* The primitive's runs of a cell measured here (seconds / per), with the
 * rounds and the pass the scheduler recorded; *n their number.  Free it. */
struct comparison_run *compare_cell_runs(const struct cell *c, double per, size_t *n);
/* The one builder of a comparison between cells measured here: B / A
 * over the runs of b[0..nb) and a[0..na) (a configuration's layouts are
 * several cells, their runs carry their layout), paired where they share
 * rounds; a side of one cell carries its program (the identical method).
 * 0, or -1 when the runs cannot be compared (method none). */
int compare_cell_groups(struct cell *const *a, size_t na, struct cell *const *b, size_t nb,
			const struct comparison_policy *pol, struct comparison_result *out);
/* The primitive's runs of a results.json cell as the reader views it: time_s.runs / per,
 * with time_s.rounds and time_s.pass where with_rounds; NULL (and *n 0)
 * when it has none or a run is not a positive time.  Free it. */
struct comparison_run *compare_stored_runs(const struct results_cell *c, double per, int with_rounds, size_t *n);

struct cell_cmp {
	char *id;
	enum comparison_verdict verdict;
	char *note;              /* why n/a, what confirmation did; or NULL */
	struct comparison_result ci; /* NEW / BASE (comparison.h); ratio NAN when n/a */
	double base_value, new_value; /* the statistic of times (comparison.quantile), or median counts per unit */
	const char *unit;        /* "s", "s/unit", "instructions/unit", "cycles/unit" */
	int confirmed;           /* rounds measured again (0: not confirmed) */
	struct comparison_result confirm; /* the paired comparison of those rounds */
	double confirm_level;    /* its two-sided level (confirm_level) */
	double confirm_cooldown_s; /* paused for heat while confirming: before the cell, between runs */
	enum comparison_verdict first; /* the verdict before confirmation */
	int identical_binary;    /* 1: the verdict same binary (the same program within one run) */
	int same_program;        /* 1: the same program on both sides (plan.h's program_id), in one run or two */
	int programs_known;      /* 1: both sides' binaries are known (a reference program's is not) */
	char *system_note;       /* the same program in two runs: what the system changed, or NULL */
	int system_changed;      /* with system_note: 1 a host fact or library changed, 0 nothing recorded, -1 unknown */
	int libraries_changed;   /* with system_note: 1 a library it loads changed (both sides listed them) */
	int control;             /* 1: a control, the same program in two runs on the same libraries (its ratio is the machine's) */
	struct comparison_result raw; /* two runs: ci before the machine was taken out (method none: not compared) */
};

/* The note a writer shows for a cell: its note and, for an identical
 * binary, what that means; NULL when there is none (free it). */
char *cell_note_text(const struct cell_cmp *cc);

/* What --confirm did (driver/compare_confirm.h). */
enum confirm_status {
	CONFIRM_NOT_ASKED,
	CONFIRM_DONE,         /* every selected cell was measured again (or said why not) */
	CONFIRM_NOTHING,      /* no cell to measure again */
	CONFIRM_COUNTS,       /* the metric is a count: nothing measured */
	CONFIRM_NO_TOOL,      /* the executor's program (hyperfine) is not on PATH */
	CONFIRM_NO_WORKDIR,   /* no folder for the replays could be made */
	CONFIRM_INTERRUPTED,
};
/* "not asked", "done", "nothing to confirm", "counts", "no hyperfine", "no work folder", "interrupted" */
const char *confirm_status_word(enum confirm_status s);

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
	enum confirm_status confirm_status;
	/* two runs, time: the machine's move (comparison_machine over the
	 * controls); taken out of every ratio with enough controls, else each
	 * interval is widened by between_spread (NAN: nothing known) */
	int against_machine;     /* 1: two runs compared by time, the machine measured */
	struct comparison_machine machine;
	double between_spread;   /* the history's between-run spread of one binary's time; NAN unknown */
	size_t between_ratios;
	double machine_sd;       /* what every interval was widened by for the machine (0: nothing) */
};

/* What a cell whose two sides ran the same binary with the same argv gets. */
enum compare_same_binary {
	COMPARE_SAME_BINARY_IS_SAME,  /* the verdict same binary, whatever the times */
	COMPARE_TIMES_OF_SAME_BINARY, /* its times compared like any (--times-of-same-binary: A/A checks) */
};

struct compare_opts {
	enum metric metric;
	double threshold;   /* fraction */
	unsigned resamples; /* bootstrap resamples (comparison_policy) */
	uint64_t seed;      /* of the bootstrap */
	const char *statistic; /* of times (stats.h); NULL: NEW's run.statistic, the median for older runs */
	enum compare_same_binary same_binary;
	/* the history's between-run spread of one binary's time on NEW's
	 * host (results/ratio_drift.h time_spread, from time_ratios ratios):
	 * what two runs with fewer than COMPARISON_MIN_CONTROLS controls are
	 * widened by; NAN unknown */
	double between_spread;
	size_t between_ratios;
};

/* Which cells --confirm measures again (driver/compare_confirm.h). */
enum confirm_which {
	CONFIRM_CHANGED_NOT_SAME, /* --confirm: every new binary whose verdict is not same, faster too */
	CONFIRM_EVERY_CHANGED,    /* --confirm-changed: every new binary, same too */
};
/* Slower, or inconclusive with an interval that reaches above 1 + t: a
 * slowdown the noise may hide. */
int compare_suspected(enum comparison_verdict v, const struct comparison_result *ci, double threshold);
/* The same program on other libraries (both runs listed them): measured
 * with each run's kept libraries. */
int compare_library_step(const struct cell_cmp *cc);
/* Whether --confirm measures cc again: a new binary (both programs known,
 * not the same) whose verdict is not same (which: every one); the same
 * program only where its libraries changed (a library step), when
 * suspected (which: every one); a program not known (a reference) when
 * suspected; never n/a or same binary. */
int compare_confirm_wanted(const struct cell_cmp *cc, double threshold, enum confirm_which which);

/* Compares two runs as the reader read them into out (free with
 * comparison_free). */
void compare_runs(const struct results_run *base, const struct results_run *new_run, const struct compare_opts *o,
		  struct comparison *out);
void comparison_free(struct comparison *c);
/* Recounts the verdicts after a change (confirmation). */
void comparison_recount(struct comparison *c);

json_t *compare_to_json(const struct comparison *c);


#endif
