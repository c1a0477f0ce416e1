/* history_writer.c: see history_writer.h */
#define _GNU_SOURCE
#include "report/history_writer.h"

#include <fnmatch.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/json_util.h"
#include "core/util.h"

/* ---- list ---- */

void history_write_list(const struct history_data *d, enum history_format f, FILE *out)
{
	if (f == HFMT_JSON) {
		json_t *runs = json_array();
		for (size_t i = 0; i < d->nruns; i++) {
			const struct hist_run *r = &d->runs[i];
			json_t *facts = json_object();
			for (size_t k = 0; k < r->nfacts; k++)
				json_object_set_new(facts, r->facts[k].key, json_string(r->facts[k].value));
			json_array_append_new(runs, json_pack("{s:s, s:s, s:s, s:s, s:I, s:o}", "id", r->run_id, "profile",
							      r->profile, "host", r->host, "started", r->started, "cells",
							      (json_int_t)r->ncells, "facts", facts));
		}
		json_t *doc = json_pack("{s:s, s:o}", "schema", "flagbench-history-list/1", "runs", runs);
		json_dumpf(doc, out, JSON_INDENT(2));
		fputc('\n', out);
		json_decref(doc);
		return;
	}
	for (size_t i = 0; i < d->nruns; i++) {
		const struct hist_run *r = &d->runs[i];
		if (f == HFMT_TSV)
			fprintf(out, "%s\t%s\t%s\t%s\t%zu\n", r->started, r->run_id, r->profile, r->host, r->ncells);
		else
			fprintf(out, "%-22s %-40s %s/%s  %zu cells\n", r->started, r->run_id, r->profile, r->host, r->ncells);
	}
	if (f == HFMT_TEXT)
		fprintf(out, "%zu runs\n", d->nruns);
}

/* ---- what a change point is called ---- */

static const char *direction(const struct history_analysis *a, const struct cp_point *p)
{
	(void)a;
	return p->ratio > 1 ? "slower" : "faster";
}

/* "+25.0% system: library /lib/libc.so.6" (allocated); a step measured
 * beside the night before's binary says so (the page's label) */
static char *label(const struct hcell *c, size_t k)
{
	const struct cp_point *p = &c->cps[k].point;
	const struct cp_cause *cause = &c->cps[k].cause;
	int measured = c->cps[k].measured == HISTORY_MEASURED_STEP;
	return xasprintf("%+.1f%% %s%s%s%s", (p->ratio - 1) * 100, cp_cause_word(cause->kind), cause->what.n ? ": " : "",
			 cause->what.n ? cause->what.v[0] : "", measured ? " (measured beside the night before)" : "");
}

static json_t *change_json(const struct history_analysis *a, const struct hcell *c, size_t k)
{
	const struct cp_point *p = &c->cps[k].point;
	const struct hist_point *b = &c->s->pts[c->nights[p->at].pt], *pre = &c->s->pts[c->nights[p->at - 1].pt];
	const struct hist_run *r = &a->d.runs[b->run];
	const struct cp_cause *cause = &c->cps[k].cause;
	/* the night's binary measured beside the night before's (analysis/history_changes.h) */
	const struct hist_beside *m = &b->beside;
	json_t *measured = c->cps[k].measured ? json_pack("{s:s, s:s, s:i, s:f, s:[f,f], s:o, s:b}", "beside", m->run,
								      "verdict", m->verdict, "rounds", (int)m->rounds, "ratio", m->ratio,
								      "ci", m->low, m->high, "level", jnum_or_null(m->level),
								      "step", c->cps[k].measured == HISTORY_MEASURED_STEP)
							   : json_null();
	json_t *j = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:o, s:[o,o], s:s, s:o, s:b, s:b, s:{s:s, s:o, s:s}}",
			 "profile",
			 c->s->profile, "host", c->s->host, "cell", c->s->cell, "night", r->run_id, "started", r->started,
			 "before", a->d.runs[pre->run].run_id, "ratio", jnum_or_null(p->ratio), "ci95",
			 jnum_or_null(p->low), jnum_or_null(p->high), "direction", direction(a, p), "p",
			 jnum_or_null(p->p), "newest", history_run_is_newest(&a->d, b->run), "alarm", c->cps[k].alarm, "cause", "kind",
			 cp_cause_word(cause->kind), "what", jstrvec(&cause->what), "text", cause->text);
	json_object_set_new(j, "measured", measured);
	return j;
}

/* the decimals a share's percent is printed with: counts' steps are
 * hundredths of a percent */
static int decimals(double share)
{
	return share < 0.01 ? 2 : 1;
}

/* {step_percent, nights, runs (null: no number of runs does it), taken};
 * null without a typical night */
static json_t *runs_for_step_json(double runs, double taken)
{
	if (isnan(runs))
		return json_null();
	return json_pack("{s:f, s:i, s:o, s:o}", "step_percent", 100 * HISTORY_SEEN_STEP, "nights", HISTORY_SEEN_NIGHTS,
			 "runs", isinf(runs) ? json_null() : json_real(runs), "taken", jnum_or_null(taken));
}

/* What no change point means on these nights, in one sentence for the
 * text, the JSON (seen_text) and through it the nightly's summary and the
 * page: "a step under X % (the median cell; L to H % across cells) may go
 * unseen for 3 nights; to see 5 % that soon the median cell needs N runs a
 * night at least (these took M)".  Nothing without a typical night. */
static void seen_words(const struct history_analysis *a, struct strbuf *sb)
{
	if (isnan(a->seen_median))
		return;
	sb_addf(sb, "a step under %.*f %% (the median cell; %.*f to %.*f %% across cells) may go unseen for %d nights",
		decimals(a->seen_median), 100 * a->seen_median, decimals(a->seen_low), 100 * a->seen_low,
		decimals(a->seen_high), 100 * a->seen_high, HISTORY_SEEN_NIGHTS);
	if (isinf(a->runs_for_step_median))
		sb_addf(sb, "; no number of runs a night sees %.0f %% that soon", 100 * HISTORY_SEEN_STEP);
	else if (!isnan(a->runs_for_step_median))
		sb_addf(sb, "; to see %.0f %% that soon the median cell needs %.0f run%s a night at least (these took %.0f)",
			100 * HISTORY_SEEN_STEP, a->runs_for_step_median, a->runs_for_step_median == 1 ? "" : "s",
			a->runs_typical_median);
}

/* ---- show ---- */

int history_write_show(const struct history_analysis *a, const char *cell, enum history_format f, FILE *out)
{
	int found = 0;
	json_t *doc = f == HFMT_JSON ? json_array() : NULL;
	for (size_t i = 0; i < a->ncells; i++) {
		const struct hcell *c = &a->cells[i];
		if (strcmp(c->s->cell, cell) && fnmatch(cell, c->s->cell, 0))
			continue;
		found = 1;
		json_t *nights = json_array(), *changes = json_array();
		if (f == HFMT_TEXT) {
			fprintf(out, "%s on %s/%s: %zu nights of %s per unit (%s), %zu change point%s\n", c->s->cell,
				c->s->profile, c->s->host, c->n, metric_name(a->metric),
				a->metric == METRIC_TIME ? "lower quartile" : "count", c->ncps, c->ncps == 1 ? "" : "s");
			/* what a step must beat: how well a night is known */
			if (c->n)
				fprintf(out, "  a typical night known to \xc2\xb1%.1f %% by its runs, nights \xc2\xb1%.1f %% apart "
					"beyond that (the machine's cells together)\n",
					100 * sqrt(c->cs.w_typical), 100 * sqrt(c->cs.tau2));
			if (!isnan(c->level_ns))
				fprintf(out, "  nights read in one state of the host's two CPUs (a cache line's round trip about "
					"%.0f ns); %zu night%s with fewer than %d runs in it left out: the machine's mix moved, "
					"not the code\n", c->level_ns, c->other_state, c->other_state == 1 ? "" : "s",
					COMPARISON_MIN_RUNS);
			if (!isnan(c->step_seen))
				fprintf(out, "  a step under %.*f %% may go unseen for %d nights: no test finds one that small "
					"19 times in 20 at 1 false alarm in 1,000 nights\n",
					decimals(c->step_seen), 100 * c->step_seen, HISTORY_SEEN_NIGHTS);
			if (isinf(c->runs_for_step))
				fprintf(out, "  no number of runs a night sees a %.0f %% step within %d nights: the nights differ "
					"by more than their runs\n", 100 * HISTORY_SEEN_STEP, HISTORY_SEEN_NIGHTS);
			else if (!isnan(c->runs_for_step))
				fprintf(out, "  to see a %.0f %% step within %d nights a night needs %.0f run%s at least (these took %.0f)\n",
					100 * HISTORY_SEEN_STEP, HISTORY_SEEN_NIGHTS, c->runs_for_step, c->runs_for_step == 1 ? "" : "s",
					c->runs_typical);
		}
		for (size_t k = 0; k < c->n; k++) {
			const struct hist_point *p = &c->s->pts[c->nights[k].pt];
			const struct hist_run *r = &a->d.runs[p->run];
			size_t cp = 0;
			while (cp < c->ncps && c->cps[cp].point.at != k)
				cp++;
			char *lab = cp < c->ncps ? label(c, cp) : NULL;
			double rel = c->nights[k].value / c->nights[0].value;
			if (f == HFMT_TSV) {
				fprintf(out, "%s/%s\t%s\t%zu\t%s\t%s\t%.9g\t%.6f\t%zu\t%s\t%.12s\n", c->s->profile, c->s->host,
					c->s->cell, k, r->started, r->run_id, c->nights[k].value, rel, c->nights[k].runs, lab ? lab : "",
					p->sha256 ? p->sha256 : "");
			} else if (f == HFMT_TEXT) {
				if (lab)
					fprintf(out, "  -- change point: %.3fx [%.3fx, %.3fx] %s, %s\n", c->cps[cp].point.ratio,
						c->cps[cp].point.low, c->cps[cp].point.high, direction(a, &c->cps[cp].point), c->cps[cp].cause.text);
				fprintf(out, "  %-22s %-40s %12.6g  %6.3fx  %2zu runs  %.12s\n", r->started, r->run_id, c->nights[k].value,
					rel, c->nights[k].runs, p->sha256 ? p->sha256 : "-");
			} else {
				json_array_append_new(nights, json_pack("{s:s, s:s, s:o, s:f, s:I, s:o}", "started", r->started,
									"run", r->run_id, "value", jnum_or_null(c->nights[k].value),
									"relative", rel, "runs", (json_int_t)c->nights[k].runs,
									"sha256", jstr_or_null(p->sha256)));
			}
			free(lab);
		}
		if (doc) {
			for (size_t k = 0; k < c->ncps; k++)
				json_array_append_new(changes, change_json(a, c, k));
			json_array_append_new(doc, json_pack("{s:s, s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:I}", "profile", c->s->profile,
							     "host", c->s->host, "cell", c->s->cell, "nights", nights, "changes",
							     changes, "step_seen_percent", jnum_or_null(100 * c->step_seen),
							     "runs_for_step", runs_for_step_json(c->runs_for_step, c->runs_typical),
							     "state_ns", jnum_or_null(c->level_ns), "nights_other_state",
							     (json_int_t)c->other_state));
		} else {
			json_decref(nights);
			json_decref(changes);
		}
	}
	if (doc) {
		if (found) {
			json_dumpf(doc, out, JSON_INDENT(2));
			fputc('\n', out);
		}
		json_decref(doc);
	}
	return found ? 0 : -1;
}

/* ---- changes ---- */

struct ref {
	const struct hcell *c;
	size_t k, run;
};

static int newest_first(const void *x, const void *y)
{
	const struct ref *a = x, *b = y;
	if (a->run != b->run)
		return a->run < b->run ? 1 : -1;
	return strcmp(a->c->s->cell, b->c->s->cell);
}

void history_write_changes(const struct history_analysis *a, enum history_format f, FILE *out)
{
	struct ref *refs = xcalloc(a->nchanges + 1, sizeof(*refs));
	size_t n = 0;
	for (size_t i = 0; i < a->ncells; i++)
		for (size_t k = 0; k < a->cells[i].ncps; k++)
			refs[n++] = (struct ref){ &a->cells[i], k, hcell_run_of(&a->cells[i], a->cells[i].cps[k].point.at) };
	qsort(refs, n, sizeof(*refs), newest_first);
	if (f == HFMT_JSON) {
		json_t *changes = json_array();
		for (size_t i = 0; i < n; i++)
			json_array_append_new(changes, change_json(a, refs[i].c, refs[i].k));
		json_t *doc = json_pack("{s:s, s:s, s:f, s:o, s:I, s:I, s:I, s:o}", "schema", "flagbench-history-changes/1",
					"metric", metric_name(a->metric), "alarm_rate_percent", a->alarm_rate * 100, "cut",
					jnum_or_null(a->cut), "cells", (json_int_t)a->ncells, "tested", (json_int_t)a->tested,
					"on_newest_night", (json_int_t)a->newest_steps, "changes", changes);
		json_object_set_new(doc, "alarms", json_integer((json_int_t)a->alarms));
		json_object_set_new(doc, "step_seen_percent",
				    json_pack("{s:i, s:o, s:o, s:o}", "nights", HISTORY_SEEN_NIGHTS, "median",
					      jnum_or_null(100 * a->seen_median), "low", jnum_or_null(100 * a->seen_low),
					      "high", jnum_or_null(100 * a->seen_high)));
		json_object_set_new(doc, "runs_for_step", runs_for_step_json(a->runs_for_step_median, a->runs_typical_median));
		struct strbuf words = STRBUF_INIT;
		seen_words(a, &words);
		json_object_set_new(doc, "seen_text", words.len ? json_string(words.buf) : json_null());
		sb_release(&words);
		json_dumpf(doc, out, JSON_INDENT(2));
		fputc('\n', out);
		json_decref(doc);
		free(refs);
		return;
	}
	size_t with = 0;
	for (size_t i = 0; i < a->ncells; i++)
		with += a->cells[i].ncps > 0;
	if (f == HFMT_TEXT)
		fprintf(out, "%zu change point%s in %zu of %zu cells tested (%s; false-alarm rate %g %%, Benjamini-Hochberg "
			"cut p <= %.3g)\n",
			n, n == 1 ? "" : "s", with, a->tested, metric_name(a->metric), a->alarm_rate * 100, a->cut);
	if (f == HFMT_TEXT) {
		struct strbuf words = STRBUF_INIT;
		seen_words(a, &words);
		if (words.len)
			fprintf(out, "%s: `history show CELL` says each cell's\n", words.buf);
		sb_release(&words);
	}
	for (size_t i = 0; i < n; i++) {
		const struct hcell *c = refs[i].c;
		const struct cp_point *p = &c->cps[refs[i].k].point;
		const struct hist_run *r = &a->d.runs[refs[i].run];
		const struct cp_cause *cause = &c->cps[refs[i].k].cause;
		int newest = history_run_is_newest(&a->d, refs[i].run);
		if (f == HFMT_TSV)
			fprintf(out, "%s\t%s\t%s/%s\t%s\t%.6f\t%.6f\t%.6f\t%s\t%s\t%s\n", r->started, r->run_id, c->s->profile,
				c->s->host, c->s->cell, p->ratio, p->low, p->high, direction(a, p), cp_cause_word(cause->kind),
				cause->text);
		else
			fprintf(out, "%s %s/%s %s: %.3fx [%.3fx, %.3fx] %s from %s%s%s; what changed: %s\n", r->started,
				c->s->profile, c->s->host, c->s->cell, p->ratio, p->low, p->high, direction(a, p), r->run_id,
				newest ? " (the newest night)" : "", c->cps[refs[i].k].alarm ? " [alarm]" : "", cause->text);
	}
	free(refs);
}
