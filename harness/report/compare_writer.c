/* compare_writer.c: see compare_writer.h */
#define _GNU_SOURCE
#include "report/compare_writer.h"
#include "report/model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void format_value(double v, const char *unit, char *buf, size_t n)
{
	if (!isfinite(v))
		snprintf(buf, n, "-");
	else if (!strcmp(unit, "s") && v < 1e-3)
		snprintf(buf, n, "%.4g us", v * 1e6);
	else if (!strcmp(unit, "s") && v < 1)
		snprintf(buf, n, "%.4g ms", v * 1e3);
	else if (!strcmp(unit, "s"))
		snprintf(buf, n, "%.4g s", v);
	else
		snprintf(buf, n, "%.4g", v);
}

/* The figures of one row, as both table writers show them. */
struct row_text {
	char base[32], new_value[32], ratio[32], ci[128];
};

static void format_row(const struct cell_cmp *cc, struct row_text *t)
{
	const struct comparison_result *r = cc->confirmed ? &cc->confirm : &cc->ci;
	format_value(cc->base_value, cc->unit, t->base, sizeof(t->base));
	format_value(cc->new_value, cc->unit, t->new_value, sizeof(t->new_value));
	if (!isfinite(r->ratio)) {
		snprintf(t->ratio, sizeof(t->ratio), "-");
		snprintf(t->ci, sizeof(t->ci), "-");
		return;
	}
	/* the ratio and its ends as the tables print them (report/model.h),
	 * at least 3 decimals for compare's thresholds of a few percent */
	struct mratio_text rt;
	model_format_interval(r->ratio, r->low, r->high, 3, &rt);
	snprintf(t->ratio, sizeof(t->ratio), "%s", rt.ratio);
	if (cc->confirmed) {
		/* not the 95 % of the column: say which */
		char lv[32];
		compare_format_level(cc->confirm_level, lv, sizeof(lv));
		snprintf(t->ci, sizeof(t->ci), "%s %s%%", rt.interval, lv);
	} else if (r->method == COMPARISON_EXACT) {
		/* a count has no interval: the ratio is exact */
		snprintf(t->ci, sizeof(t->ci), "exact");
	} else if (!*rt.interval) {
		snprintf(t->ci, sizeof(t->ci), "-");
	} else if (r->level_reached < r->level) {
		/* too few pairs for the column's 95 %: the level it has */
		snprintf(t->ci, sizeof(t->ci), "%s (%g%%)", rt.interval, floor(r->level_reached * 1000) / 10);
	} else {
		snprintf(t->ci, sizeof(t->ci), "%s", rt.interval);
	}
}

/* The machine's move between the two runs, as the comparison measured it. */
static void write_machine_line(FILE *out, const struct comparison *c, const char *prefix)
{
	const struct comparison_machine *m = &c->machine;
	if (!c->against_machine)
		return;
	if (isfinite(m->shift))
		fprintf(out, "%smachine: %.3fx (%.1f %% %s in new), from %zu controls (unchanged programs), spread %.1f %%: "
			"taken out of every ratio\n",
			prefix, m->shift, 100 * fabs(m->shift - 1), m->shift > 1 ? "slower" : "faster", m->controls,
			100 * m->spread);
	else if (c->machine_sd > 0)
		fprintf(out, "%smachine: not measured, %zu controls (%d needed): intervals widened by the history's "
			"between-run spread %.1f %%\n",
			prefix, m->controls, COMPARISON_MIN_CONTROLS, 100 * c->machine_sd);
	else
		fprintf(out, "%smachine: not measured, %zu controls (%d needed), no history: its move is not in the "
			"intervals\n",
			prefix, m->controls, COMPARISON_MIN_CONTROLS);
}

static void write_summary_line(FILE *out, const struct comparison *c)
{
	fprintf(out, "%zu cells: %zu same, %zu slower, %zu faster, %zu inconclusive, %zu n/a", c->n,
		c->count[VERDICT_SAME], c->count[VERDICT_SLOWER], c->count[VERDICT_FASTER],
		c->count[VERDICT_INCONCLUSIVE], c->count[VERDICT_NO_DATA]);
	if (c->count[VERDICT_SAME_BINARY])
		fprintf(out, ", %zu same binary", c->count[VERDICT_SAME_BINARY]);
	if (c->only_base.n || c->only_new.n)
		fprintf(out, "; %zu only in base, %zu only in new", c->only_base.n, c->only_new.n);
	if (c->not_run)
		fprintf(out, "; %zu not ok on both sides (same status), left out", c->not_run);
}

/* Unmatched cells and warnings, one a line (Markdown: a list, ids as code). */
static void write_lists(FILE *out, const struct comparison *c, const char *bullet, const char *quote)
{
	for (size_t i = 0; i < c->only_base.n; i++)
		fprintf(out, "%sonly in base: %s%s%s\n", bullet, quote, c->only_base.v[i], quote);
	for (size_t i = 0; i < c->only_new.n; i++)
		fprintf(out, "%sonly in new: %s%s%s\n", bullet, quote, c->only_new.v[i], quote);
	for (size_t i = 0; i < c->warnings.n; i++)
		fprintf(out, "%swarning: %s\n", bullet, c->warnings.v[i]);
}

void compare_write_text(FILE *out, const struct comparison *c)
{
	char stat[32];
	fprintf(out, "compare %s (%s) -> %s (%s): %s%s%s, threshold %g%%\n", c->base_label, c->base_profile,
		c->new_label, c->new_profile, metric_name(c->metric), c->metric == METRIC_TIME ? " by the " : "",
		c->metric == METRIC_TIME ? stats_statistic_name(c->quantile, stat, sizeof(stat)) : "",
		c->threshold * 100);
	write_machine_line(out, c, "");
	size_t w = 4, wci = 16;
	for (size_t i = 0; i < c->n; i++) {
		struct row_text t;
		format_row(&c->cells[i], &t);
		if (strlen(c->cells[i].id) > w)
			w = strlen(c->cells[i].id);
		if (strlen(t.ci) > wci)
			wci = strlen(t.ci);
	}
	fprintf(out, "%-*s  %12s  %12s  %8s  %-*s  %s\n", (int)w, "cell", "base", "new", "new/base", (int)wci,
		"95% interval", "verdict");
	for (size_t i = 0; i < c->n; i++) {
		const struct cell_cmp *cc = &c->cells[i];
		struct row_text t;
		format_row(cc, &t);
		char *note = cell_note_text(cc);
		fprintf(out, "%-*s  %12s  %12s  %8s  %-*s  %s%s%s\n", (int)w, cc->id, t.base, t.new_value, t.ratio,
			(int)wci, t.ci, comparison_verdict_word(cc->verdict), note ? ": " : "", note ? note : "");
		free(note);
	}
	write_lists(out, c, "", "");
	write_summary_line(out, c);
	fprintf(out, "\n");
}

/* Markdown cells: a | in an id would end the cell */
static void md_text(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			fputs("\\|", out);
		else
			fputc(*s, out);
	}
}

void compare_write_markdown(FILE *out, const struct comparison *c)
{
	fprintf(out, "### flagbench compare: %s, threshold %g%%\n\n", metric_name(c->metric), c->threshold * 100);
	fprintf(out, "base `%s` (%s), new `%s` (%s)\n\n", c->base_label, c->base_profile, c->new_label, c->new_profile);
	if (c->against_machine) {
		write_machine_line(out, c, "");
		fprintf(out, "\n");
	}
	fprintf(out, "| cell | base | new | new/base | 95 %% interval | verdict | note |\n");
	fprintf(out, "| --- | ---: | ---: | ---: | --- | --- | --- |\n");
	for (size_t i = 0; i < c->n; i++) {
		const struct cell_cmp *cc = &c->cells[i];
		struct row_text t;
		format_row(cc, &t);
		fputs("| `", out);
		md_text(out, cc->id);
		fprintf(out, "` | %s | %s | %s | %s | %s%s%s | ", t.base, t.new_value, t.ratio, t.ci,
			cc->verdict == VERDICT_SLOWER ? "**" : "", comparison_verdict_word(cc->verdict),
			cc->verdict == VERDICT_SLOWER ? "**" : "");
		char *note = cell_note_text(cc);
		md_text(out, note ? note : "");
		free(note);
		fputs(" |\n", out);
	}
	fprintf(out, "\n");
	write_lists(out, c, "- ", "`");
	fprintf(out, "\n");
	write_summary_line(out, c);
	fprintf(out, "\n");
}

int compare_write(const struct comparison *cmp, enum compare_format f, const char *json_out)
{
	json_t *j = compare_to_json(cmp);
	if (f == COMPARE_JSON) {
		char *s = json_dumps(j, JSON_INDENT(2) | JSON_SORT_KEYS);
		printf("%s\n", s);
		free(s);
	} else if (f == COMPARE_MARKDOWN) {
		compare_write_markdown(stdout, cmp);
	} else {
		compare_write_text(stdout, cmp);
	}
	int wr = 0;
	if (json_out) {
		char *s = json_dumps(j, JSON_INDENT(2) | JSON_SORT_KEYS);
		wr = write_file_atomic(json_out, s, strlen(s));
		free(s);
	}
	json_decref(j);
	return wr;
}
