/* comparison.h: is B faster than A?  the one place that decides.
 *
 * Every "A is faster than B" in the project (the tables' leads, compare,
 * --confirm, explain, the answer in words) asks this module, so one
 * protocol holds everywhere and two places can never disagree.
 *
 * Input: two sides, each a set of run times (seconds, > 0), each run with
 * optional metadata: the interleaved round it was measured in, the pass (a
 * --resume starts another pass) and the code-layout index (layout
 * randomisation); per side the program it ran (pipeline/plan.h's struct
 * program_id: binary, arguments, allocator, placement, consumer and
 * environment pad).
 * Output: the ratio B / A of times (< 1: B is faster), an interval, how it
 * was obtained (the method), a p-value, and the verdict.
 *
 * The method, the first that applies:
 *   identical       both programs known and the same (program_id_same): the
 *                   same program twice, so any difference is the machine's.
 *                   Ratio 1, interval [1, 1], verdict same binary, whatever
 *                   the runs say.  The same sha256 with other arguments, or
 *                   another allocator, placement, consumer or environment
 *                   pad, is another program.
 *   across layouts  both sides have runs in at least 2 common layouts: the
 *                   layout is a random effect (a lead from one lucky
 *                   alignment is not the code's), so each layout gives one
 *                   log ratio (the paired median where it has
 *                   COMPARISON_MIN_LAYOUT_PAIRS pairs, else the log of the
 *                   ratio of the two sides' statistics there), and the
 *                   point is exp(mean of the K log ratios) with a Student t
 *                   interval of that mean (K - 1 df); the spread is their
 *                   standard deviation.  A lead is real only if it holds
 *                   across layouts; few layouts give a wide interval, as
 *                   they should.
 *   paired          both sides have rounds and at least COMPARISON_MIN_PAIRS
 *                   runs pair up by (pass, round) (and layout, where both
 *                   sides have layouts; the k-th run of a key on one side
 *                   pairs with the k-th of that key on the other, unmatched
 *                   runs are left out): d = log(b / a) per pair, point
 *                   exp(median d), and the sign-test interval of the median
 *                   of d, [d(k), d(n+1-k)], the narrowest whose exact
 *                   coverage P(k <= B <= n-k), B ~ Binomial(n, 1/2), reaches
 *                   the level (stats_median_ci_rank); the p-value is the
 *                   exact two-sided sign test of median d = 0 (ties at 0
 *                   dropped).  A drift shared by both runs of a round
 *                   cancels; a disturbed run moves one d only; no shape is
 *                   assumed.  Where even [min, max] falls short of the level
 *                   (6 pairs reach 96.9 %, 8 reach 99.2 %, 10 reach 99.8 %),
 *                   level_reached says what it has and the verdict is
 *                   inconclusive: ask for more rounds.
 *   independent     otherwise, with at least COMPARISON_MIN_RUNS runs per
 *                   side: the percentile bootstrap of point_q(b*) /
 *                   point_q(a*), each side resampled on its own, seeded (the
 *                   same runs give the same answer); each side's resamples
 *                   come from a generator seeded by the seed and both sides'
 *                   runs, not by which side is A nor by the order of the
 *                   runs, so swapping the sides inverts the answer exactly.  p = 2 min(share of
 *                   resampled ratios >= 1, share <= 1), each share counted
 *                   as (count + 1) / (resamples + 1).  The resampled
 *                   quantile is lumpy, so the interval errs wide: measured
 *                   96-97 % at a nominal 95 % for 20-100 runs a side.
 *                   q = 0 (the minimum) has no valid bootstrap: ask for a
 *                   quantile above it.
 *   none            too few runs: verdict no data.
 *
 * Within one state: where every run of both sides has a state (where the
 * host had a stream's two CPUs, system/handoff.h) and they are not all one,
 * the sides are compared within the first state, nearest first, in which
 * the method above finds the runs an interval needs: the paired one
 * (COMPARISON_MIN_PAIRS rounds where both ran in that state) where both
 * sides have rounds, else COMPARISON_MIN_RUNS runs a side.  A run of
 * another state is left out: a ratio of a near run to a far one is the
 * host's, not the programs'.  Where no state has them, every run is
 * compared, the result says so (state COMPARISON_ACROSS_STATES), and a
 * lead is not called real (inconclusive).
 *
 * The verdict, from the interval [lo, hi] and the policy (t the threshold,
 * s the same band), decided on log lo and log hi so that swapping the
 * sides swaps faster and slower exactly:
 *   faster        hi < 1 / (1 + t): B's lead holds over the whole interval
 *   slower        lo > 1 + t
 *   same          1 / (1 + s) <= lo and hi <= 1 + s: no difference the band
 *                 would notice
 *   inconclusive  anything else: too noisy to say, or an interval short of
 *                 the level asked
 *   same binary   the identical method
 *   no data       the method none, or input that is not a time
 * Between two runs (policy.machine_shift, machine_sd): the log ratio and
 * its interval are moved by the machine's shift and widened by its sd
 * (each half in quadrature, as the ratio drift is), the p-value a normal
 * test on the widened half toward no difference; the identical method
 * keeps [1, 1].
 * With t = 0 a lead is real exactly when the interval excludes 1 (the
 * tables' rule); faster and slower are tested before same, so a real lead
 * smaller than the band is still a lead.
 *
 * Many answers at once: each interval at 95 % alone would call one lead in
 * twenty among identical builds.  comparison_select applies
 * Benjamini-Hochberg to the p-values (chosen over Holm: when every
 * comparison is a null, as between identical builds, it is as strict as
 * Holm, so it keeps the family's false-alarm rate at alpha; when some leads
 * are real it finds more of the others, at a false share of at most alpha
 * among the leads called; it assumes the p-values independent or
 * positively dependent, which a shared machine's drift gives), and gives
 * the level at which the selected intervals are to be reported:
 * 1 - R alpha / m for R selected of m, the false-coverage-rate intervals of
 * Benjamini and Yekutieli (2005).  Callers compute the comparisons again at
 * that level; for the paired and layout methods a selected lead's interval
 * at that level excludes 1 (the test and the interval are one).
 *
 * The verdict enumerators carry the names compare.h uses for its own enum
 * verdict, which this replaces: a file includes one of the two.
 */
#ifndef FLAGBENCH_COMPARISON_H
#define FLAGBENCH_COMPARISON_H

#include <stddef.h>

/* round, pass and layout of a run not measured that way */
#define COMPARISON_UNKNOWN (-1)
#define COMPARISON_MIN_PAIRS 6
#define COMPARISON_MIN_RUNS 3
#define COMPARISON_MIN_LAYOUT_PAIRS 3
#define COMPARISON_STATES 3
#define COMPARISON_ACROSS_STATES 99

struct comparison_run {
	double seconds;
	int round;  /* interleaved round, or COMPARISON_UNKNOWN */
	int pass;   /* measuring pass: a --resume starts the next */
	int layout; /* code layout 0..K-1, or COMPARISON_UNKNOWN */
	/* where the host had a stream's two CPUs before the run
	 * (system/handoff.h): 1 the nearest state, up to COMPARISON_STATES;
	 * 0 not known (a compute cell, an older run) */
	unsigned state;
};

struct program_id; /* pipeline/plan.h */

struct comparison_side {
	const struct comparison_run *runs;
	size_t n;
	const struct program_id *program; /* the program run, or NULL: unknown (never the same binary) */
};

struct comparison_policy {
	double quantile;  /* the statistic: 0.5 the median, 0.25 p25 (stats.h) */
	double level;     /* two-sided confidence, in (0, 1) */
	double threshold; /* the smallest lead worth calling, a fraction; 0: any real lead */
	double same_band; /* within it both are the same, a fraction (0.01) */
	unsigned resamples; /* of the bootstrap (at least 100) */
	unsigned long long seed;
	/* the sd of the log ratio's drift between runs beyond the runs' own
	 * noise (results/ratio_drift.h), added to the paired and independent
	 * intervals; 0: none */
	double ratio_drift;
	/* Between two runs: the machine's move, as the programs that did not
	 * change measure it (comparison_machine): the log of the shift taken
	 * out of the ratio (B / A / shift), and the sd added to the interval
	 * (the controls' spread and their median's error, or without enough
	 * controls the history's between-run spread); 0 and 0: none */
	double machine_shift;
	double machine_sd;
};
#define COMPARISON_POLICY_DEFAULT { 0.25, 0.95, 0, 0.01, 2000, 1, 0, 0, 0 }

enum comparison_method {
	COMPARISON_NONE,
	COMPARISON_PAIRED,
	COMPARISON_INDEPENDENT,
	COMPARISON_ACROSS_LAYOUTS,
	COMPARISON_IDENTICAL,
	COMPARISON_EXACT,        /* counts: comparison_counts() */
};

/* What is compared: a program's time, or what it counts (per unit of
 * work).  One enum for every command that measures (compare, tune,
 * explain); a command that may choose keeps "asked" apart from it. */
enum metric { METRIC_TIME, METRIC_INSTRUCTIONS, METRIC_CYCLES };
/* "time", "instructions", "cycles" */
const char *metric_name(enum metric m);
/* 0, or -1 for another word */
int metric_parse(const char *name, enum metric *out);

enum comparison_verdict {
	VERDICT_NO_DATA,
	VERDICT_FASTER,
	VERDICT_SLOWER,
	VERDICT_SAME,
	VERDICT_INCONCLUSIVE,
	VERDICT_SAME_BINARY,
};

struct comparison_result {
	double ratio;         /* B / A; NAN without data */
	double low, high;     /* the interval of the ratio */
	double level;         /* the level asked */
	double level_reached; /* the interval's coverage: exact for paired, nominal for the others */
	enum comparison_method method;
	enum comparison_verdict verdict;
	size_t pairs;             /* paired runs used (paired, and layouts compared by pairs) */
	size_t runs_a, runs_b;    /* runs used on each side */
	size_t layouts;           /* layouts compared (across layouts), else 0 */
	double layout_spread;     /* sd of the layouts' log ratios (0.01 is about 1 %); NAN without layouts */
	double p_value;           /* of no difference; NAN for identical and none */
	double p_floor;           /* the smallest p the method can give (paired: 2 / 2^pairs not tied,
				   * independent: 2 / (resamples + 1)); 0 where it has none */
	double drift_widened;     /* the ratio drift added to the interval (policy.ratio_drift), else 0 */
	double machine_shift;     /* the machine's shift taken out of the ratio (exp policy.machine_shift); 1 none */
	double machine_widened;   /* the sd added for it (policy.machine_sd), else 0 */
	/* the state the runs compared were in (comparison_run.state): 0 not
	 * known, COMPARISON_ACROSS_STATES where no state held the runs an
	 * interval needs on both sides and every run was compared */
	unsigned state;
};

/* The machine between two runs, from the comparisons of the programs
 * that did not change (controls: the same program_id on both sides,
 * their times measured like any pair's): the shift is the median of their
 * ratios (0.88: the machine ran everything 12 % faster in B's run); the
 * spread is the sd of a control's log ratio about it beyond its own noise
 * (read off its interval: core/stats.h stats_excess_variance, a fit by the
 * median, so one program that moved alone cannot set it); sd, what a
 * changed cell's comparison adds (policy.machine_sd), is that spread and
 * the error of the median (stats_median_noise, at least (pi/2) times the
 * controls' mean variance over k) together.  With fewer than
 * COMPARISON_MIN_CONTROLS controls nothing is fitted (shift NAN): the
 * caller says so and widens by what the history knows. */
#define COMPARISON_MIN_CONTROLS 3
struct comparison_machine {
	size_t controls;
	double shift;  /* B / A of the unchanged programs; NAN with too few */
	double spread; /* sd of a control's log ratio beyond its own noise */
	double sd;     /* of the shift as a changed cell meets it: spread and the median's error */
};
void comparison_machine(const struct comparison_result *controls, size_t k, struct comparison_machine *out);

/* Compares B to A.  0 with *out filled; -1 when a time is not a finite
 * number > 0 or the policy is out of range (out then says no data). */
int comparison_compute(const struct comparison_side *a, const struct comparison_side *b,
		       const struct comparison_policy *policy, struct comparison_result *out);
/* The identical method's rule alone (the sides' programs; the runs are
 * not read): for a caller that must know without asking a comparison. */
int comparison_same_binary(const struct comparison_side *a, const struct comparison_side *b);
/* The verdict of an interval [low, high] of B / A by the rules above (for
 * figures that come with their own interval, e.g. counted instructions:
 * low = high = the ratio). */
enum comparison_verdict comparison_decide(double low, double high, double threshold, double same_band);
/* Counts (instructions, cycles per unit) are exact: nothing to resample.
 * The identical method first, as for times (pa, pb may be NULL: unknown);
 * else the ratio b / a is the answer, its interval the point itself
 * (method exact, the level reached 1), the verdict decided on it at the
 * policy's threshold and band.  0, or -1 when a count is not a positive
 * finite number (out then says no data). */
int comparison_counts(double a, double b, const struct program_id *pa, const struct program_id *pb,
		      const struct comparison_policy *policy, struct comparison_result *out);
/* The chance that a second run of the same size and noise calls a real
 * lead again, in the same direction, at the same level and threshold: the
 * replication probability of a z test, Phi((z - z_crit) / sqrt 2), z read
 * off the comparison's p-value (which holds the ratio drift), z_crit off
 * the level asked; with a threshold t, z is scaled to the distance from
 * 1 + t.  The sqrt 2: the second run's estimate scatters around the true
 * ratio, which the first run knows only to its own error, so both errors
 * add.  A lead at p just under 1 - level repeats about half the time.
 * Read off the p-value, not the interval's ends: the sign test's ends are
 * order statistics, and the leads whose ends happened to lie far from 1
 * are the ones the interval calls real, so a chance from the ends claimed
 * 88 % where 73 % repeated (tests/unit/test_comparison.c); from the
 * p-value it claimed 74.5 %.  A p-value at its method's floor
 * (p_floor) only says "at most": there the interval's ends give z where
 * they give more.  For an inconclusive result, the chance
 * that a second run calls the lead its point leans to real (below one
 * half).  NAN for the other verdicts and without a p-value; 1 for exact
 * counts, which repeat. */
double comparison_repeat_chance(const struct comparison_result *c, double threshold);
/* The same rule for a lead z standard errors from the line (z >= 0) at a
 * two-sided level: Phi((z - z_crit) / sqrt 2). */
double comparison_repeat_chance_at(double z, double level);
/* Whether a verdict may not come out the same in a second run: a real
 * lead whose chance to repeat is below COMPARISON_REPEAT_SURE, or an
 * inconclusive one whose chance to turn real is COMPARISON_REPEAT_SHOWN
 * or more.  The one rule the answers flag verdicts by (report/model_compare.h)
 * and the scheduler gives an open answer more runs by (analysis/undecided.h):
 * a tie that stays a tie needs none. */
#define COMPARISON_REPEAT_SURE 0.9
#define COMPARISON_REPEAT_SHOWN 0.2
int comparison_may_flip(enum comparison_verdict verdict, double repeat);
/* "faster", "slower", "same", "inconclusive", "same binary", "n/a". */
const char *comparison_verdict_word(enum comparison_verdict v);
/* "paired", "independent", "across layouts", "identical", "exact", "none". */
const char *comparison_method_word(enum comparison_method m);
/* A short text for writers, e.g. "0.870x [0.850, 0.890] paired over 13
 * rounds, faster"; the level appears when it is not 95 % or was not
 * reached.  Returns what snprintf returns. */
int comparison_describe(const struct comparison_result *c, char *buf, size_t len);

enum comparison_lead {
	LEAD_NOT_SHOWN,
	LEAD_REAL,
};
/* Benjamini-Hochberg at family rate alpha over m p-values (NAN counts as
 * 1: a comparison without a test can be no lead, but was asked): lead[i]
 * says which are real leads.  Returns R, how many; *level gets the level
 * for the selected intervals, 1 - R alpha / m (1 - alpha / m when R is 0).
 * m = 0 or alpha outside (0, 1): R = 0, *level NAN. */
size_t comparison_select(const double *p_values, size_t m, double alpha, enum comparison_lead *lead,
			 double *level);
/* The Bonferroni level of each of m intervals: 1 - alpha / m (NAN for m = 0). */
double comparison_bonferroni_level(double alpha, size_t m);

#endif
