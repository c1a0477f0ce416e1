/* model.h: the results model, the one place that gives a result its meaning.
 *
 * From one results.json it builds, per family, tables of variants (rows,
 * references last) by build configurations (columns, in the order cells
 * appear; a column is a cell's "config" string, so a new dimension needs no
 * change here): throughput; speedup against the baseline variant built the
 * same way; each variant against itself built with one configuration
 * (--against COMPILER/-OLEVEL, default the first compiler at its first -O
 * level) and with glibc's malloc; gcc against clang with the same other
 * flags; instructions and cycles per unit of work where counted.  From
 * several results.json: per family throughput and speedup with a column per
 * machine, a row per (variant, configuration); runs built each for their
 * own profile's -march meet as "(profile march)", and each family gets the
 * answers across machines (model_across.h).  Emulated cells form a
 * family of their own.  A ratio table with no ratio of two measurements is
 * left out.
 *
 * A cell has a state, a value, its interval and the level that interval
 * reaches (from the runs in time_s, through stats.h: the rerun interval
 * of the run's statistic, the median or a low quantile, its exact coverage,
 * none under 3 runs; a ratio: the bootstrap interval of the ratio of the
 * two cells' statistics, from both cells' runs, only where both cells'
 * own intervals reach 95 %), marks (throttled:
 * yes; warnings other than that; the precision target not reached) and, in throughput tables, the heatmap share of
 * its row's best, the same for cells whose intervals overlap.  The answer,
 * printed first: per variant the fastest configuration, its margin over the
 * runner-up and the slowest, and whether the lead is beyond both intervals;
 * per family the compiler and flags that win most often.  Every derived
 * number and its text are made here; writers.c only lays texts out.
 */
#ifndef FLAGBENCH_MODEL_H
#define FLAGBENCH_MODEL_H

#include <jansson.h>
#include <stdio.h>

#include "analysis/comparison.h"
#include "core/util.h"
#include "results/ratio_drift.h"
#include "results/reader.h"

struct stats;
struct mcmp;
struct macross;

enum mstate { MS_OK, MS_STATUS, MS_ABSENT, MS_NA };
enum mfmt { MF_VALUE, MF_RATIO };
enum { MARK_THROTTLED = 1, MARK_WARNED = 2, SHOWN_CI = 4, SHOWN_REF = 8, MARK_IMPRECISE = 16, SHOWN_LOW_LEVEL = 32,
       MARK_UNCHECKED = 64, MARK_SAME_BINARY = 128, MARK_NOT_REAL = 256, SHOWN_LAYOUTS = 512,
       /* a ratio compared within the runs of one state of the host's two
	* CPUs (system/handoff.h), or across them where no state had the runs */
       MARK_NEAR = 1024, MARK_FAR = 2048, MARK_ACROSS_STATES = 4096 };

struct mcell {
	enum mstate state;
	const char *word;        /* shown when not ok: a status word, "absent", "n/a" */
	/* lo, hi: the interval, NaN without; ci: a value's half-width in percent
	 * (its ±), NaN without and for a ratio, whose interval is not symmetric */
	double value, lo, hi, ci;
	double share;            /* heatmap colour, throughput tables only, else NaN */
	unsigned marks;
	const char *id;          /* the results.json cell shown, or NULL */
	double level;            /* the interval's confidence, 0..1 (exact for a value, bootstrap for a ratio); NaN without */
	/* a ratio: what the one comparison (model_compare.h) says of it;
	 * VERDICT_NO_DATA where it was not asked or could not tell */
	enum comparison_verdict verdict;
	enum comparison_method method;
	/* a configuration measured under several code layouts: how many, and
	 * the spread of its figure over them (sd of the log, 0.01 about 1 %) */
	size_t layouts;
	double spread;
};

struct mrow {
	const char *label, *title;
	int ref;
	struct mcell *cells;
};

struct mtable {
	const char *name; /* throughput speedup against vs_glibc compilers instructions cycles */
	const char *title, *caption, *col2; /* col2: the second row header, "title" or "config" */
	enum mfmt fmt;
	const char *unit; /* of values: bytes/s, ops/s, blocks/s, x, instructions/byte */
	const char **cols;
	size_t ncols, nrows;
	struct mrow *rows;
	unsigned shown; /* the marks, SHOWN_CI and SHOWN_REF (a reference row) the table uses, for its legend */
	const char *drift_note; /* the legend's line on the machine's drift in ±, or NULL */
	const char *ci_note;    /* a ratio table's line on its [low, high]: the one comparison and the run's level */
	const char *folded;     /* the variants left out, unsupported in every column ("rvv_naive, rvv_mb"), or NULL */
	const char *folded_note; /* the legend's line on them */
};

/* The words of a variant unsupported in every configuration, in its problem line. */
#define MODEL_NOT_FOR_THIS_MACHINE "not for this machine"
/* The start of a family warning that says why some of its cells have no
 * counts (model_tables.c); the answers repeat it on the family's line. */
#define MODEL_NOT_COUNTED "instructions not counted"

/* A variant's answer as data (model_answer.h), for writers that lay it out
 * their own way; the sentences in mfamily.answer say the same. */
struct manswer {
	const char *variant;
	const char *leader, *twins; /* twins: the leader's byte-identical builds, or NULL */
	/* the build the lead is measured against: the runner-up (second in
	 * the one comparison's order), or the nearest build further back
	 * that the leader does not clearly lead (then second names the
	 * runner-up, which it does);
	 * runner NULL: a single build */
	const char *runner, *second;
	/* the build fastest by its figure where the one comparison puts
	 * another first (the figures are each cell's statistic alone, the
	 * comparison pairs runs by round), its figure over the leader's; NULL */
	const char *by_figure;
	double figure_ratio;
	/* the leader over the runner-up (throughput, or counts for fewest) and
	 * its interval at the run's level; NAN without */
	double lead, low, high;
	enum comparison_verdict verdict; /* of the lead; VERDICT_NO_DATA: no interval to tell */
	double repeat;                 /* the chance a second run repeats a real lead (struct mview's repeat), or NAN */
	const char *words;             /* the verdict's words ("a real lead"), or NULL for fewest */
	int fewest;                    /* ranked by fewest instructions (emulated cells): exact counts */
	const char *note;              /* instead of a lead, "only gcc/-O2/native measured", or NULL */
	/* the rest of the evidence (model_evidence.h): the sentence or NULL;
	 * the runner-up's instructions over the leader's (NAN: not counted);
	 * a real lead by time for the build with more instructions; the
	 * seconds a cell would need for time to decide (NAN: it decided) */
	const char *evidence;
	double count_ratio;
	int counts_disagree;
	double need_s;
};

/* One difference the family's configurations make (model_gaps.h): B
 * against A where the two configurations differ in one part only (the
 * compiler, the -O level, the -march, a flag set ...), per variant. */
struct mgap_entry {
	const char *variant;
	double ratio, low, high; /* throughput of B over A and its interval (NAN without) */
	enum comparison_verdict verdict;
	double repeat; /* the chance a second run repeats the verdict (struct mview's repeat) */
	/* A's instructions per unit over B's, exact (above 1.00x: B runs
	 * fewer, as a throughput ratio reads); NAN where either is not counted */
	double count_ratio;
};
struct mgap {
	const char *a, *b;       /* the part that differs: "-O2", "-O3" */
	const char *context;     /* the parts both share that vary elsewhere in the family ("gcc"), or "" */
	struct mgap_entry *v;    /* real ones first, largest first; then the rest */
	size_t n, real;          /* real: faster or slower, by the one comparison */
	size_t counted_apart;    /* entries not real by time whose counts differ (EVIDENCE_GAP_COUNT) */
	double largest;          /* |log ratio| of the largest real one; 0 with none */
};

struct mfamily {
	const char *name, *slug, *title, *kind;
	struct mtable *tables;
	size_t ntables;
	struct strvec answer, problems, warnings; /* sentences; "id: status: reason"; "id: warning" */
	struct manswer *answers;  /* per variant, as data */
	size_t nanswers;
	const char *summary;      /* the family's line: who wins most often, how many leads are real; or NULL */
	/* the same as data: the compiler and the other flags most often fastest,
	 * for how many of nleads variants, and how many of the leads are real */
	const char *most_compiler, *most_flags;
	size_t most_compiler_n, most_flags_n, nleads, nreal;
	int unchecked;            /* its outputs were not proven right (family.json "check": "none") */
	unsigned layouts;         /* the code layouts its cells ran under (--layouts K); 1: not varied */
	struct mgap *gaps;        /* the real gaps first, largest first (model_gaps.h) */
	size_t ngaps;
	/* several runs: the answers across machines (model_across.h), or NULL */
	const struct macross *across;
};

struct mrun {
	struct results_run run; /* as results/reader.h read it */
	const char *path, *label, *slug, *id;
	const char *statistic; /* run.statistic: what each figure is (stats.h); "median" for older runs */
	double drift_sd;       /* run.drift.sd_percent / 100 (stats.h): widens every rerun interval; 0 when none */
	/* the drift of its paired ratios over the run (results/ratio_drift.h):
	 * widens every ratio's interval; 0 none seen, NAN unknown */
	double ratio_drift;
	size_t ratio_drift_pairs;
	/* how far its ratios moved from this machine's earlier runs
	 * (results/ratio_drift.h): widens the ratios of a family and kind */
	struct between_runs between;
	size_t ncells, nok, nunsupported;
};

struct model {
	struct mrun *runs;
	struct mfamily *fams;
	size_t nruns, nfams;
	void **mem; /* everything allocated for the model */
	size_t nmem, amem;
	/* every comparison the tables asked (model_compare.h), and the level
	 * they are shown at once settled */
	struct mcmp *cmps;
	size_t ncmps, acmps;
	int settled;
	double cmp_level;
	size_t cmp_real, cmp_asked;
	size_t term_columns; /* the terminal writer splits a wider table into blocks of columns; 0: never */
};

/* Loads each RUN_DIR/results.json (or the file itself) and builds the tables;
 * against: "COMPILER/-OLEVEL" or NULL.  0, or -1 after a message. */
int model_load(struct model *m, char **paths, size_t n, const char *against);
void model_free(struct model *m);
struct mfamily *model_family(struct model *m, const char *name_or_slug);

/* A cell as every format shows it: a value with its symmetric rerun
 * interval as ± ("7.36 GiB/s ±1.2% †", "7.10 GiB/s ±3.0% (75%)" for an
 * interval below 95 %), a ratio with its interval as [low, high] ("0.92x
 * [0.77x, 0.98x] §", "[0.77x, 0.98x] (83%)" below 95 %), "101.35x"
 * without one, "timeout"; figure and spread, when not NULL, get its parts
 * ("7.36 GiB/s", "±1.2%"; "0.92x", "[0.77x, 0.98x]"), MODEL_PART bytes each. */
#define MODEL_PART 96
void model_text(const struct mtable *t, const struct mcell *c, char *buf, size_t n, char *figure, char *spread);
/* Whether a cell has an interval: a value's ±, a ratio's [low, high]. */
int model_has_interval(const struct mtable *t, const struct mcell *c);
/* A rate cell's interval from the time stats of its runs: lo, hi, ci and
 * level from the rerun interval (stats.h), widened on both sides by
 * exp(STATS_DRIFT_SIGMAS drift_sd), the machine's drift over the run (0:
 * none); left as they are under 3 runs. */
void model_rate_interval(struct mcell *x, const struct stats *st, double drift_sd);
/* The marks as every format shows them: "†" throttled, "‡" warnings, "§" imprecise, "¶" unchecked. */
const char *model_marks(unsigned marks, char *buf, size_t n);
/* "7.36 GiB/s", "0.155 usec/op" (for ops/s), "1.90 Mblocks/s". */
void model_format_value(double v, const char *unit, char *buf, size_t n);
/* Units: per operation (shown as usec/op), bytes per second. */
int model_per_op(const char *unit);
int model_bytes_unit(const char *unit);
/* "1.05x", three significant digits below 0.01. */
void model_format_ratio(double r, char *buf, size_t n);
/* A ratio and its interval: "0.92x" and "[0.77x, 0.98x]", all three at
 * one number of decimals: model_format_ratio's (at least min_decimals),
 * up to two more where fewer would print an end beyond 1.00x as 1.00x or
 * on the other side of it (so an interval that excludes 1.00x reads so),
 * or two of the three that differ alike (while a decimal is coarser than
 * 0.1 % of the ratio).  interval is "" when an end is not a number. */
struct mratio_text {
	char ratio[32], interval[80];
};
void model_format_interval(double r, double lo, double hi, int min_decimals, struct mratio_text *out);
/* The unit a table is plotted in: v / div, or div / v when inv. */
struct mscale {
	double div;
	int inv;
	const char *label;
};
struct mscale model_scale(const struct mtable *t);
/* What a table's ± or [low, high], †, ‡, § and ¶ mean; returns how many lines. */
#define MODEL_LEGEND_MAX 16
size_t model_legend(const struct mtable *t, const char *lines[MODEL_LEGEND_MAX]);

/* One writer per format (writers.c); family, table: only these, or NULL. */
enum mformat { FMT_TERM, FMT_MD, FMT_CSV, FMT_JSON, FMT_TSV };
int model_write(struct model *m, enum mformat f, const char *family, const char *table, struct strbuf *out);

/* The width a run's own terminal tables keep to. */
#define MODEL_TERM_COLUMNS 120
/* The tables of runs paths[0..n) in format f (only family, table where not
 * NULL) on stdout, or written atomically to out: `flagbench tables`, with
 * name (tables, report, merge) in messages; report of one run, whole, in
 * the terminal format, ends with its answers, as the run did.  0, 2 on bad input, 1 when
 * writing fails. */
int model_print(const char *name, char **paths, size_t n, const char *against, enum mformat f, const char *family,
		const char *table, const char *out, size_t width);
/* Every table of every family (those --family and --table select) to its
 * own file, DIR/SLUG-TABLE.EXT (atomically): one model for all of them,
 * where a file each from model_print builds the model each time (the
 * render's many tables and plots).  0, 2 on bad input, 1 when writing fails. */
int model_print_each(char **paths, size_t n, const char *against, enum mformat f, const char *family, const char *table,
		     const char *dir, size_t width);
/* On stdout, the end of a finished run: its line, then the answers
 * (answers_writer.h); verbose: every terminal table first, as `flagbench
 * tables RUN_DIR`. */
int tables_print_run(const char *run_dir, int verbose);

#endif
