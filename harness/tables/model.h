/* model.h: the results model, the one place that gives a result its meaning.
 *
 * From one results.json (or several, for a comparison across machines) it
 * builds families of tables.  One run: per family the throughput table
 * (variants down, references last; build configurations across, in the
 * order their cells appear), the speedup against the baseline variant built
 * the same way, the ratio against a baseline configuration (default: the
 * first compiler at its first -O level; --against gcc/-O2), gcc against
 * clang with the same other flags, and instructions and cycles per unit of
 * work where counted.  Several runs: per family the throughput and the
 * speedup of every (variant, configuration) with one column per machine;
 * runs built for one -march each are matched build for build ("(profile
 * march)").  Cells run under an emulator form a family of their own.
 *
 * A cell has a state (ok, a status word, absent, n/a), a value with its
 * interval (the half-width of the 95 % interval of the median time, in
 * percent; a ratio combines both intervals through stats.h), marks (†
 * throttled, ‡ warnings) and, in throughput tables, the share of its row's
 * best that colours the heatmap: cells whose intervals overlap get the same
 * share, so colour never ranks a tie.  Every derived number and every
 * number's text (model_text) is made here; the writers (writers.c) only lay
 * the texts out.  A ratio table whose cells are all n/a is left out.
 *
 * The answer, printed first: per variant the fastest configuration, its
 * margin over the runner-up and over the slowest, and whether the lead is
 * beyond both intervals or a tie; per family the compiler and the flags
 * that win most often.  Column keys are the cells' "config" strings, so a
 * new dimension of configurations needs no change here.
 */
#ifndef FLAGBENCH_MODEL_H
#define FLAGBENCH_MODEL_H

#include <jansson.h>
#include <stdio.h>

#include "util.h"

enum mstate { MS_OK, MS_STATUS, MS_ABSENT, MS_NA };
enum mfmt { MF_VALUE, MF_RATIO, MF_COUNT };
enum { MARK_THROTTLED = 1, MARK_WARNED = 2 };

struct mcell {
	enum mstate state;
	const char *word;      /* what a cell that is not ok shows */
	double value, lo, hi;  /* lo, hi: the interval's ends, NaN without one */
	double ci;             /* half-width in percent, NaN without one */
	double share;          /* throughput: heatmap share of the row's best, NaN otherwise */
	unsigned marks;
	const char *id;        /* the results.json cell shown, or NULL */
};

struct mrow {
	const char *label, *title;
	int ref;
	struct mcell *cells;
};

struct mtable {
	const char *name;  /* throughput, speedup, against, compilers, instructions, cycles */
	const char *title, *caption;
	const char *col2; /* what the row's second header says: "title", "config" */
	enum mfmt fmt;
	const char *unit;  /* of values: bytes/s, ops/s, blocks/s, "x", instructions/byte */
	const char **cols;
	size_t ncols, nrows;
	struct mrow *rows;
	unsigned shown;    /* marks shown, and SHOWN_CI */
};
enum { SHOWN_CI = 4 };

struct mfamily {
	const char *name, *slug, *title, *kind;
	struct mtable *tables;
	size_t ntables;
	struct strvec answer;   /* sentences, the family's own last */
	struct strvec problems; /* "id: status: reason" of cells that are not ok */
	struct strvec warnings; /* "id: warning" */
};

struct mrun {
	json_t *root;
	const char *path, *label, *slug, *id;
	size_t ncells, nok;
};

struct model {
	struct mrun *runs;
	size_t nruns;
	struct mfamily *fams;
	size_t nfams;
	void **mem; /* everything allocated for the model */
	size_t nmem, amem;
};

/* Loads RUN_DIR/results.json or the file itself, for each path; builds the
 * tables.  against: "COMPILER/-OLEVEL" or NULL.  0, or -1 after a message. */
int model_load(struct model *m, char **paths, size_t n, const char *against);
void model_free(struct model *m);
struct mfamily *model_family(struct model *m, const char *name_or_slug);

/* A cell as every format shows it: "7.36 GiB/s ±1.2% †", "101.35x", "timeout".
 * figure/pm get the parts ("7.36 GiB/s", "±1.2%") when not NULL. */
void model_text(const struct mtable *t, const struct mcell *c, char *buf, size_t n, char *figure, char *pm);
/* A value in its family's unit: "7.36 GiB/s", "0.155 usec/op", "1.90 Mblocks/s". */
void model_format_value(double v, const char *unit, char *buf, size_t n);
/* "1.05x", three significant digits below 0.01 ("0.000221x"). */
void model_format_ratio(double r, char *buf, size_t n);
/* The unit a table's numbers are plotted in: v / div, or div / v when inv. */
struct mscale {
	double div;
	int inv;
	const char *label;
};
struct mscale model_scale(const struct mtable *t);
/* The legend lines of a table (what its ±, † and ‡ mean); returns how many. */
size_t model_legend(const struct mtable *t, const char *lines[3]);

/* The writers (writers.c): one per format. */
enum mformat { FMT_TERM, FMT_MD, FMT_CSV, FMT_JSON, FMT_TSV };
/* family, table: only these (NULL: all).  0, or -1 after a message. */
int model_write(struct model *m, enum mformat f, const char *family, const char *table, struct strbuf *out);

/* `flagbench tables RUN... [--format F] [--family F] [--table T] [--against C/-O] [--out FILE]`;
 * `flagbench report RUN` and `flagbench merge RUN...` are its other spellings.
 * 0, 2 on bad usage or input, 1 when writing fails. */
int cmd_tables(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_merge(int argc, char **argv);
/* The terminal tables of a finished run, as `flagbench tables RUN_DIR`. */
int tables_print_run(FILE *out, const char *run_dir);

#endif
