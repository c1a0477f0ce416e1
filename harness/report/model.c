/* model.c: the one place a figure gets its digits and a table its legend
 * (model.h); the model itself is built in model_load.c, model_cells.c,
 * model_tables.c and model_answer.c. */
#define _GNU_SOURCE
#include "report/model.h"
#include "core/stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int model_per_op(const char *unit)
{
	return unit && (!strcmp(unit, "ops/s") || !strcmp(unit, "op/s"));
}

int model_bytes_unit(const char *unit)
{
	return !unit || !strcmp(unit, "bytes/s") || !strcmp(unit, "B/s");
}

/* 3 decimals, or 3 significant digits for tiny figures. */
static int digits(double x, int d)
{
	if (x > 0 && x < 0.01) {
		double e = 2 - floor(log10(x));
		return e <= 9 ? (int)e : 9;
	}
	return d;
}

void model_format_value(double v, const char *unit, char *buf, size_t n)
{
	if (model_bytes_unit(unit))
		format_rate(v, buf, n);
	else if (!strcmp(unit, "bytes")) /* a size: 1024-based, whole bytes below 1 KiB */
		snprintf(buf, n, v < 1024 ? "%.0f B" : v < 1048576 ? "%.1f KiB" : "%.2f MiB", v < 1024 ? v : v < 1048576 ? v / 1024 : v / 1048576);
	else if (model_per_op(unit) && v > 0)
		snprintf(buf, n, "%.*f usec/op", digits(1e6 / v, 3), 1e6 / v);
	else if (v >= 1e9)
		snprintf(buf, n, "%.2f G%s", v / 1e9, unit);
	else if (v >= 1e6)
		snprintf(buf, n, "%.2f M%s", v / 1e6, unit);
	else if (v >= 1e3)
		snprintf(buf, n, "%.2f k%s", v / 1e3, unit);
	else
		snprintf(buf, n, "%.2f %s", v, unit);
}

void model_format_ratio(double r, char *buf, size_t n)
{
	snprintf(buf, n, "%.*fx", digits(r, 2), r);
}

/* x at d decimals, as the texts print it */
static double printed(double x, int d)
{
	char buf[64];
	snprintf(buf, sizeof(buf), "%.*f", d, x);
	return strtod(buf, NULL);
}

/* Whether d decimals blur what an interval says: an end beyond 1 printed
 * as 1 or past it (the reader would take an interval that excludes 1.00x
 * for one that holds it); or, while a decimal is coarser than
 * INTERVAL_RESOLUTION of the ratio, two of the three that differ printed
 * alike (finer than that they differ in noise only). */
#define INTERVAL_RESOLUTION 0.001
static int blurred(double r, double lo, double hi, int d)
{
	if ((lo != 1 && (printed(lo, d) - 1) * (lo - 1) <= 0) || (hi != 1 && (printed(hi, d) - 1) * (hi - 1) <= 0))
		return 1;
	if (pow(10, -d) <= INTERVAL_RESOLUTION * fabs(r))
		return 0;
	return (r != lo && printed(r, d) == printed(lo, d)) || (r != hi && printed(r, d) == printed(hi, d)) ||
	       (lo != hi && printed(lo, d) == printed(hi, d));
}

/* Two more decimals at most. */
#define INTERVAL_MORE_DECIMALS 2

void model_format_interval(double r, double lo, double hi, int min_decimals, struct mratio_text *out)
{
	int d = digits(r, min_decimals);
	out->interval[0] = '\0';
	if (isnan(lo) || isnan(hi)) {
		snprintf(out->ratio, sizeof(out->ratio), "%.*fx", d, r);
		return;
	}
	d = digits(lo, d) > d ? digits(lo, d) : d;
	d = digits(hi, d) > d ? digits(hi, d) : d;
	for (int most = d + INTERVAL_MORE_DECIMALS; d < most && d < 9 && blurred(r, lo, hi, d);)
		d++;
	snprintf(out->ratio, sizeof(out->ratio), "%.*fx", d, r);
	snprintf(out->interval, sizeof(out->interval), "[%.*fx, %.*fx]", d, lo, d, hi);
}

int model_has_interval(const struct mtable *t, const struct mcell *c)
{
	return t->fmt == MF_RATIO ? !isnan(c->lo) && !isnan(c->hi) : !isnan(c->ci);
}

/* " (83%)" after an interval below 95 %: never a 95 % it does not have */
static void add_level(char *p, size_t n, double level)
{
	if (level < STATS_CI_TARGET)
		snprintf(p + strlen(p), n - strlen(p), " (%g%%)", floor(level * 1000) / 10);
}

void model_text(const struct mtable *t, const struct mcell *c, char *buf, size_t n, char *figure, char *spread)
{
	char fig[MODEL_PART] = "", p[MODEL_PART] = "";
	if (c->state != MS_OK) {
		snprintf(buf, n, "%s", c->word);
	} else {
		if (t->fmt == MF_VALUE) {
			model_format_value(c->value, t->unit, fig, sizeof(fig));
			if (model_has_interval(t, c))
				snprintf(p, sizeof(p), "\xc2\xb1%.1f%%", c->ci);
		} else {
			/* a ratio's interval is not symmetric: its ends, not a ± */
			struct mratio_text rt;
			model_format_interval(c->value, c->lo, c->hi, 2, &rt);
			snprintf(fig, sizeof(fig), "%s", rt.ratio);
			snprintf(p, sizeof(p), "%s", rt.interval);
		}
		if (*p)
			add_level(p, sizeof(p), c->level);
		char mk[32];
		snprintf(buf, n, "%s%s%s%s%s", fig, *p ? " " : "", p, c->marks ? " " : "", model_marks(c->marks, mk, sizeof(mk)));
	}
	if (figure)
		strcpy(figure, fig);
	if (spread)
		strcpy(spread, p);
}

const char *model_marks(unsigned marks, char *buf, size_t n)
{
	snprintf(buf, n, "%s%s%s%s%s%s%s", marks & MARK_SAME_BINARY ? "\xe2\x89\xa1" : "", marks & MARK_NOT_REAL ? "~" : "",
		 marks & MARK_THROTTLED ? "\xe2\x80\xa0" : "", marks & MARK_WARNED ? "\xe2\x80\xa1" : "",
		 marks & MARK_IMPRECISE ? "\xc2\xa7" : "", marks & MARK_UNCHECKED ? "\xc2\xb6" : "",
		 marks & MARK_NEAR ? "\xe2\x81\xbf" : marks & MARK_FAR ? "\xe1\xb6\xa0" : marks & MARK_ACROSS_STATES ? "\xe2\x87\x84" : "");
	return buf;
}

struct mscale model_scale(const struct mtable *t)
{
	double max = 0;
	for (size_t r = 0; r < t->nrows; r++)
		for (size_t c = 0; c < t->ncols; c++)
			if (t->rows[r].cells[c].state == MS_OK && t->rows[r].cells[c].value > max)
				max = t->rows[r].cells[c].value;
	if (t->fmt == MF_RATIO)
		return (struct mscale){ 1, 0, t->unit };
	if (model_bytes_unit(t->unit))
		return max >= 1073741824.0 ? (struct mscale){ 1073741824.0, 0, "GiB/s" }
					   : (struct mscale){ 1048576, 0, "MiB/s" };
	if (model_per_op(t->unit))
		return (struct mscale){ 1e6, 1, "usec/op" };
	return (struct mscale){ 1, 0, t->unit };
}

size_t model_legend(const struct mtable *t, const char *lines[MODEL_LEGEND_MAX])
{
	size_t n = 0;
	int value = t->fmt != MF_RATIO;
	if (t->shown & SHOWN_CI)
		lines[n++] = value ? "\xc2\xb1 is the half-width of the rerun interval, in percent: a rerun's figure falls "
				     "inside with 95 % probability (order statistics of the runs, exact and "
				     "distribution-free for runs alike and independent); a figure without \xc2\xb1 has "
				     "none (fewer than 3 runs)."
				   : t->ci_note;
	if (value && (t->shown & SHOWN_LAYOUTS))
		lines[n++] = "A configuration measured under several code layouts (--layouts) shows the geometric mean of "
			     "its layouts' figures, and \xc2\xb1 the 95 % interval of that mean over the layouts.";
	if (t->shown & MARK_SAME_BINARY)
		lines[n++] = value ? "\xe2\x89\xa1 the same binary as another build of its row: byte-identical and run "
				     "alike, measured once and shown in each of its columns."
				   : "\xe2\x89\xa1 the same binary: both builds are byte-identical and run alike, so this is one "
				     "program measured twice, not a ratio of two.";
	if (t->shown & MARK_NOT_REAL)
		lines[n++] = "~ not a real difference: the interval holds 1.00x.";
	if (t->shown & MARK_NEAR)
		lines[n++] = value ? "\xe2\x81\xbf the figure of the cell's runs with its two CPUs near each other on the host "
				     "(the run saw more than one state: docs/comparison.md)."
				   : "\xe2\x81\xbf compared within the runs the host ran with the stream's two CPUs near each "
				     "other (the run saw more than one state: docs/comparison.md).";
	if (t->shown & MARK_FAR)
		lines[n++] = value ? "\xe1\xb6\xa0 the figure of the cell's runs with its two CPUs apart on the host (the "
				     "state most of the run's batches ran in, or the cell's own)."
				   : "\xe1\xb6\xa0 compared within the runs the host ran with the stream's two CPUs apart (the "
				     "run saw more than one state; too few runs of both cells near).";
	if (t->shown & MARK_ACROSS_STATES)
		lines[n++] = "\xe2\x87\x84 no state of the host's two CPUs holds both cells' runs: compared across "
			     "states, and not called a real difference.";
	if (value && (t->shown & SHOWN_CI) && t->drift_note)
		lines[n++] = t->drift_note;
	if (t->shown & SHOWN_LOW_LEVEL)
		lines[n++] = value ? "(83%) after a \xc2\xb1: too few runs for 95 %; the interval's exact confidence is that level."
				   : "(83%) after an interval: too few rounds in common for the run's level; the interval's "
				     "confidence is that level, too low to call a lead real.";
	if (t->shown & MARK_THROTTLED)
		lines[n++] = value ? "\xe2\x80\xa0 the CPU throttled while this cell was measured (throttled: yes): its "
				     "figure may be too low."
				   : "\xe2\x80\xa0 one of the two cells compared was measured while the CPU throttled.";
	if (t->shown & MARK_WARNED)
		lines[n++] = "\xe2\x80\xa1 the cell has warnings, listed below the tables.";
	if (t->shown & MARK_UNCHECKED)
		lines[n++] = "\xc2\xb6 unchecked: the family declares \"check\": \"none\", so this output was not proven right.";
	if (t->shown & MARK_IMPRECISE)
		lines[n++] = value ? (t->drift_note ? "\xc2\xa7 the cell's interval from its own runs (the machine's drift aside) did "
						      "not reach the run's precision target within its time budget (results.json: "
						      "precision)."
						    : "\xc2\xa7 the cell's interval did not reach the run's precision target within its time "
						      "budget (results.json: precision).")
				   : "\xc2\xa7 one of the two cells compared did not reach the run's precision target.";
	if (t->folded)
		lines[n++] = t->folded_note;
	if (t->shown & SHOWN_REF)
		lines[n++] = "A reference row shows in each column the reference measured with that column's placement "
			     "and consumer, or its one measurement in every column.";
	return n;
}

