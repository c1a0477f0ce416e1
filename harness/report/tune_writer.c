/* tune_writer.c: see tune_writer.h */
#define _GNU_SOURCE
#include "report/tune_writer.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/ddmin.h"
#include "core/json_util.h"
#include "core/runcmd.h"
#include "driver/tune_probe.h"
#include "driver/tune_state.h"

static const char *metric_word(const struct tune *t)
{
	return t->metric == METRIC_INSTRUCTIONS ? "instructions" : "time";
}

/* A screen figure as a ratio to the start: "0.652x". */
static void screen_ratio(const struct tune *t, double score, char *buf, size_t n)
{
	if (!isfinite(score))
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%.3fx", score / t->start_score);
}

static size_t count_words(const char *key)
{
	size_t n = 0;
	for (const char *p = key; *p; p++)
		n += (p == key || p[-1] == ' ') && *p != ' ' && strncmp(p, "-mllvm", 6) != 0 ? 1 : 0;
	return n;
}

/* "1.53x faster" / "1.05x slower" from the comparison of B to A; a lead
 * the comparison does not call real is not worded as one. */
static void speed_words(const struct comparison_result *c, char *buf, size_t n)
{
	if (!isfinite(c->ratio))
		snprintf(buf, n, "not compared");
	else if (c->verdict == VERDICT_FASTER)
		snprintf(buf, n, "%.2fx faster", 1 / c->ratio);
	else if (c->verdict == VERDICT_SLOWER)
		snprintf(buf, n, "%.2fx slower", c->ratio);
	else if (c->verdict == VERDICT_SAME_BINARY)
		snprintf(buf, n, "the same binary");
	else
		snprintf(buf, n, "not really different");
}

/* The flags of the start and the answer's: a CFLAGS line to paste. */
static char *cflags_line(const struct tune *t, const char *key)
{
	const struct cell_spec *p = &t->start.plan.cells[t->proto].spec;
	struct strbuf sb = STRBUF_INIT;
	/* an -O level of the key replaces the start's */
	char *opt = NULL, *rest = tune_key_split_opt(key, &opt);
	sb_adds(&sb, opt ? opt : p->opt);
	if (p->march && *p->march && strcmp(p->march, "default"))
		sb_addf(&sb, " -march=%s", p->march);
	if (*rest)
		sb_addf(&sb, " %s", rest);
	free(opt);
	free(rest);
	return sb_detach(&sb);
}

/* What a candidate cost and what the budget bought (tune_probe.h), the
 * rate the searches ran at, and the screen's checks against time. */
static void budget_md(const struct tune *t, struct strbuf *md)
{
	const struct tune_budget_plan *p = &t->plan;
	char all[32], b[32], c[32], s[32];
	tune_format_seconds(p->candidate_s, all, sizeof(all));
	tune_format_seconds(t->cost.build_s, b, sizeof(b));
	tune_format_seconds(t->cost.check_s, c, sizeof(c));
	tune_format_seconds(t->cost.screen_s, s, sizeof(s));
	sb_addf(md, "One candidate cost about %s (build %s, check %s, screen %s); with %u compiler%s at once and batches "
		    "of %u, the budget bought about %u candidates per technique; a search of this space needs about %zu to "
		    "do better than chance (%zu seeds, then %d rounds of the ensemble's %d operators).",
		all, b, c, s, p->jobs, p->jobs == 1 ? "" : "s", p->batch, p->candidates, t->needed, t->nseeds,
		TUNE_NEEDED_ROUNDS, TUNE_OPERATORS);
	if (t->search_wall_s > 0 && isfinite(p->compile_per_minute))
		sb_addf(md, " The searches ran %.3g candidates a minute; %u compiler%s at one compile's rate allow %.3g.",
			60.0 * (double)t->search_candidates / t->search_wall_s, p->jobs, p->jobs == 1 ? "" : "s",
			p->compile_per_minute);
	sb_adds(md, "\n\n");
	for (size_t i = 0; i < t->check_lines.n; i++)
		sb_addf(md, "- screen check: %s\n", t->check_lines.v[i]);
	if (t->switch_why)
		sb_addf(md, "- the screen turned to time after %zu candidates: the figures before it are counts, and the "
			    "searches started again from the start\n",
			t->switched_after);
	if (t->check_lines.n || t->switch_why)
		sb_adds(md, "\n");
}

static void report_md(const struct tune *t, struct strbuf *md)
{
	const struct cell_spec *p = &t->start.plan.cells[t->proto].spec;
	char r1[64], d[32];
	sb_addf(md, "# tune %s\n\n", p->id);
	sb_addf(md, "%s, %zu dimensions searched (%zu left out: `--list-space` lists both); screened by %s%s%s.\n\n",
		p->compiler->version, t->space.n, t->space.excluded.n,
		t->metric == METRIC_INSTRUCTIONS ? "instructions per unit (deterministic)" : "time, paired with the start in each batch",
		t->metric_why ? ": " : "", t->metric_why ? t->metric_why : "");
	for (size_t i = 0; i < t->ntracks; i++) {
		const struct tune_track *k = &t->tracks[i];
		format_duration(k->spent_s, d, sizeof(d));
		screen_ratio(t, k->best, r1, sizeof(r1));
		sb_addf(md, "- %s: %zu candidates in %s (%zu failed to build or run, %zu wrong output, %zu the same binary as "
			    "another); best %s the start's %s%s%s\n",
			tune_technique_name(k->technique), k->evaluated, d, k->failed, k->wrong, k->same_binary, r1,
			metric_word(t), k->best_key && *k->best_key ? " with " : "",
			k->best_key && *k->best_key ? (count_words(k->best_key) > 6 ? "several flags" : k->best_key) : "");
	}
	sb_adds(md, "\n");
	budget_md(t, md);
	/* the answer */
	if (t->better) {
		const struct tune_confirmed *a = &t->confirmed[t->better_index];
		char *line = cflags_line(t, a->key);
		speed_words(&a->vs_start, r1, sizeof(r1));
		size_t nw = count_words(a->key);
		if (nw <= 6)
			sb_addf(md, "**Answer: %s (%s) is %s than the start %s**: %s.\n\n", a->key, a->label, r1, p->opt, a->text);
		else
			sb_addf(md, "**Answer: the %s, %zu flags (the CFLAGS line below), is %s than the start %s**: %s.\n\n",
				a->label, nw, r1, p->opt, a->text);
		sb_addf(md, "    CFLAGS=\"%s\"\n\n", line);
		free(line);
	} else {
		const struct tune_confirmed *b = t->nconfirmed > 1 && t->confirmed[1].cell >= 0 && strncmp(t->confirmed[1].label, "-O", 2)
							 ? &t->confirmed[1]
							 : NULL;
		sb_addf(md, "**No better configuration found** than the start %s", p->opt);
		if (b && b->text[0] && count_words(b->key) <= 4)
			sb_addf(md, ": the %s, `%s`, is %s against it", b->label, b->key, b->text);
		else if (b && b->text[0])
			sb_addf(md, ": the %s, %zu flags, is %s against it", b->label, count_words(b->key), b->text);
		else
			sb_adds(md, ": no candidate beat it in the screen");
		sb_adds(md, ".\n\n");
	}
	for (size_t i = 1; i < t->nconfirmed; i++) {
		const struct tune_confirmed *c = &t->confirmed[i];
		if (strncmp(c->label, "-O", 2) || !c->answer_text[0])
			continue;
		speed_words(&c->answer_vs, r1, sizeof(r1));
		sb_addf(md, "- against %s of the same compiler: the %s is %s (%s)\n", c->label,
			t->better ? "answer" : "start", r1, c->answer_text);
	}
	for (size_t i = 1; i < t->nconfirmed; i++) {
		const struct tune_confirmed *c = &t->confirmed[i];
		if (!strncmp(c->label, "-O", 2) && c->answer_text[0] && c->answer_vs.verdict == VERDICT_SLOWER)
			sb_addf(md, "- %s alone is faster than the %s: start the search from %s (--opt %s)\n", c->label,
				t->better ? "answer" : "start", c->label, c->label);
	}
	/* the flags that carry it */
	if (t->nshares) {
		sb_addf(md, "\nThe flags that carry the gain: %zu, minimised by delta debugging (%zu step%s) from the best's; a "
			    "subset stands for it when it keeps %.0f %% of its gain; each flag's share is the gain lost without "
			    "it (screen):\n\n",
			t->minimal.n, t->minimise_steps, t->minimise_steps == 1 ? "" : "s", TUNE_KEEP * 100);
		sb_adds(md, "| flag | share | without it |\n|---|---:|---:|\n");
		for (size_t i = 0; i < t->nshares; i++) {
			screen_ratio(t, t->shares[i].without, r1, sizeof(r1));
			if (isfinite(t->shares[i].share))
				sb_addf(md, "| `%s` | %.0f %% | %s |\n", t->shares[i].flag, t->shares[i].share * 100, r1);
			else
				sb_addf(md, "| `%s` | - | %s |\n", t->shares[i].flag, r1);
		}
	}
	if (t->minimise_note)
		sb_addf(md, "\nThe flags that carry the gain: %s.\n", t->minimise_note);
	/* the confirmation */
	sb_addf(md, "\nConfirmation by time: %u rounds%s, %u code layout%s%s; each build against the start by the one "
		    "comparison at %.1f %% (Bonferroni over %zu):\n\n",
		t->o->confirm_runs, "", t->o->layouts ? t->o->layouts : 1, (t->o->layouts ? t->o->layouts : 1) > 1 ? "s" : "",
		(t->o->layouts ? t->o->layouts : 1) > 1 ? "" : " (--layouts K varies them)", t->confirm_level * 100,
		t->nconfirmed > 1 ? t->nconfirmed - 1 : 1);
	sb_adds(md, "| build | flags | screen | against the start |\n|---|---|---:|---|\n");
	for (size_t i = 0; i < t->nconfirmed; i++) {
		const struct tune_confirmed *c = &t->confirmed[i];
		screen_ratio(t, c->screen, r1, sizeof(r1));
		size_t nw = count_words(c->key);
		char flags[160];
		if (!*c->key)
			snprintf(flags, sizeof(flags), "%s", p->opt);
		else if (nw > 4 || strlen(c->key) + 3 > sizeof(flags))
			snprintf(flags, sizeof(flags), "%zu flags", nw);
		else
			snprintf(flags, sizeof(flags), "`%s`", c->key);
		sb_addf(md, "| %s | %s | %s | %s |\n", c->label, flags, i == 0 ? "1.000x" : r1,
			i == 0 ? "-" : c->text[0] ? c->text : "not measured");
	}
	for (size_t i = 0; i < t->notes.n; i++)
		sb_addf(md, "\nnote: %s\n", t->notes.v[i]);
}

static json_t *cmp_json(const struct comparison_result *c, const char *text)
{
	if (!isfinite(c->ratio))
		return json_null();
	return json_pack("{s:f, s:f, s:f, s:f, s:s, s:s, s:I, s:s}", "ratio", c->ratio, "low", c->low, "high", c->high,
			 "level", c->level_reached, "method", comparison_method_word(c->method), "verdict",
			 comparison_verdict_word(c->verdict), "pairs", (json_int_t)c->pairs, "text", text);
}

/* What a candidate cost, what the budget bought, what the search needed
 * (tune_probe.h), and the rate the searches ran at. */
static json_t *budget_json(const struct tune *t)
{
	const struct tune_budget_plan *p = &t->plan;
	json_t *cost = json_object(), *buys = json_object(), *o = json_object();
	jset_num(cost, "build_s", t->cost.build_s);
	jset_num(cost, "check_s", t->cost.check_s);
	jset_num(cost, "screen_s", t->cost.screen_s);
	jset_num(cost, "candidate_s", p->candidate_s);
	json_object_set_new(buys, "candidates", json_integer(p->candidates));
	json_object_set_new(buys, "batches", json_integer(p->batches));
	jset_num(buys, "seconds", p->seconds);
	json_object_set_new(o, "cost", cost);
	json_object_set_new(o, "jobs", json_integer(p->jobs));
	json_object_set_new(o, "batch", json_integer(p->batch));
	jset_num(o, "batch_s", p->batch_s);
	json_object_set_new(o, "budget_s", t->o->budget_s > 0 ? json_real(t->o->budget_s) : json_null());
	json_object_set_new(o, "budget_candidates", t->o->budget_s > 0 ? json_null() : json_integer(t->o->budget_candidates));
	json_object_set_new(o, "buys", buys);
	json_object_set_new(o, "needed", json_integer((json_int_t)t->needed));
	json_object_set_new(o, "seeds", json_integer((json_int_t)t->nseeds));
	json_object_set_new(o, "needed_rule", json_string("seeds + " /* tune_budget.h */
							  "3 rounds of the ensemble's 5 operators"));
	jset_num(o, "planned_per_minute", p->per_minute);
	jset_num(o, "compile_per_minute", p->compile_per_minute);
	jset_num(o, "measured_per_minute",
		 t->search_wall_s > 0 ? 60.0 * (double)t->search_candidates / t->search_wall_s : NAN);
	return o;
}

/* The -O levels measured before the search and the screen's checks
 * against time (tune_screen.h). */
static json_t *screen_json(const struct tune *t)
{
	json_t *levels = json_array();
	for (size_t i = 0; i < t->nlevels; i++) {
		const struct tune_level *l = &t->levels[i];
		json_t *o = json_pack("{s:s, s:s}", "opt", l->opt, "time_verdict", comparison_verdict_word(l->time_verdict));
		jset_num(o, "count_ratio", l->count / t->count_start);
		jset_num(o, "time_ratio", l->time_ratio);
		json_array_append_new(levels, o);
	}
	json_t *o = json_pack("{s:s, s:o, s:o, s:b, s:o, s:I}", "final", metric_word(t), "levels", levels, "checks",
			      jstrvec(&t->check_lines), "switched", t->switch_why != NULL, "why", jstr_or_null(t->switch_why),
			      "switched_after", (json_int_t)t->switched_after);
	return o;
}

static json_t *report_json(const struct tune *t)
{
	const struct cell_spec *p = &t->start.plan.cells[t->proto].spec;
	json_t *argv = json_array();
	json_array_append_new(argv, json_string("flagbench"));
	for (int i = 0; i < t->o->argc; i++)
		json_array_append_new(argv, json_string(t->o->argv[i]));
	json_t *cflags = jstrvec(&p->cflags), *excluded = jstrvec(&t->space.excluded), *techs = json_array(),
	       *cands = json_array();
	for (size_t i = 0; i < t->ntracks; i++) {
		const struct tune_track *k = &t->tracks[i];
		json_t *conv = json_array();
		double best = t->start_score;
		json_array_append_new(conv, json_pack("[f, f, i]", 0.0, 1.0, 0));
		/* the convergence of the final screen only (tune_screen.h) */
		for (size_t e = t->screen_from; e < t->nev; e++) {
			const struct tune_eval *v = &t->ev[e];
			if (v->technique != i || (v->from_journal && !v->replayed))
				continue;
			if (v->score < best) {
				best = v->score;
				json_array_append_new(conv, json_pack("[f, f, I]", v->at_s, best / t->start_score, (json_int_t)v->seq));
			}
		}
		json_array_append_new(conv, json_pack("[f, f, I]", k->spent_s, best / t->start_score, (json_int_t)k->evaluated));
		json_array_append_new(techs, json_pack("{s:s, s:I, s:I, s:I, s:I, s:f, s:o, s:s, s:o}", "technique",
						       tune_technique_name(k->technique), "candidates", (json_int_t)k->evaluated,
						       "failed", (json_int_t)k->failed, "wrong_output", (json_int_t)k->wrong,
						       "same_binary", (json_int_t)k->same_binary, "spent_s", k->spent_s,
						       "best_ratio", jnum_or_null(k->best / t->start_score), "best_flags",
						       k->best_key ? k->best_key : "", "convergence", conv));
	}
	for (size_t e = 0; e < t->nev; e++) {
		const struct tune_eval *v = &t->ev[e];
		if (v->from_journal && !v->replayed && v->technique < t->ntracks)
			continue;
		/* a ratio to the start by the screen it was told, which a check
		 * may have turned from instructions to time */
		double base = v->metric == METRIC_INSTRUCTIONS ? t->count_start : 1;
		json_t *o = json_pack("{s:s, s:I, s:s, s:s, s:s, s:f, s:s, s:o}", "technique",
				      v->technique == TUNE_MINIMISE ? "minimise"
				      : v->technique == TUNE_PROBE  ? "probe"
								    : tune_technique_name(t->tracks[v->technique].technique),
				      "seq", (json_int_t)v->seq, "flags", v->key, "operator", v->op ? v->op : "", "status",
				      cell_status_name(v->status), "at_s", v->at_s, "screen", v->metric == METRIC_INSTRUCTIONS ? "instructions" : "time",
				      "ratio", jnum_or_null(v->score / base));
		if (v->reason)
			json_object_set_new(o, "reason", json_string(v->reason));
		if (v->same_as)
			json_object_set_new(o, "same_binary_as", json_string(v->same_as));
		if (v->sha256[0])
			json_object_set_new(o, "sha256", json_string(v->sha256));
		json_array_append_new(cands, o);
	}
	json_t *minimal = jstrvec(&t->minimal), *shares = json_array();
	for (size_t i = 0; i < t->nshares; i++)
		json_array_append_new(shares, json_pack("{s:s, s:o, s:o}", "flag", t->shares[i].flag, "share",
							jnum_or_null(t->shares[i].share), "without_ratio",
							jnum_or_null(t->shares[i].without / t->start_score)));
	json_t *lines = json_array();
	for (size_t i = 0; i < t->nconfirmed; i++) {
		const struct tune_confirmed *c = &t->confirmed[i];
		json_array_append_new(lines, json_pack("{s:s, s:s, s:o, s:o, s:o}", "build", c->label, "flags", c->key,
						       "screen_ratio", jnum_or_null(c->screen / t->start_score), "vs_start",
						       cmp_json(&c->vs_start, c->text), "answer_vs_it",
						       cmp_json(&c->answer_vs, c->answer_text)));
	}
	json_t *answer = json_object();
	json_object_set_new(answer, "better", json_boolean(t->better));
	if (t->better) {
		const struct tune_confirmed *a = &t->confirmed[t->better_index];
		char *line = cflags_line(t, a->key);
		json_object_set_new(answer, "build", json_string(a->label));
		json_object_set_new(answer, "flags", json_string(a->key));
		json_object_set_new(answer, "cflags", json_string(line));
		json_object_set_new(answer, "vs_start", cmp_json(&a->vs_start, a->text));
		free(line);
	}
	json_t *root = json_pack("{s:s, s:i, s:o, s:{s:s, s:s, s:s, s:s, s:s, s:o, s:s, s:f}, s:s, s:o, s:{s:I, s:s, s:o}, "
			 "s:o, s:o, s:{s:s, s:o, s:o, s:o, s:I}, s:{s:f, s:I, s:I, s:o}, s:o}",
			 "kind", "flagbench-tune", "version", 1, "argv", argv,
			 "start", "id", p->id, "compiler", p->compiler->name, "compiler_version", p->compiler->version, "opt",
			 p->opt, "march", p->march ? p->march : "", "cflags", cflags, "sha256", t->start_sha, "score",
			 t->start_score,
			 "metric", metric_word(t), "metric_why", jstr_or_null(t->metric_why),
			 "space", "dimensions", (json_int_t)t->space.n, "source", t->space.source ? t->space.source : "",
			 "excluded", excluded,
			 "techniques", techs, "candidates", cands,
			 "minimal", "best_flags", t->best_key ? t->best_key : "", "best_ratio",
			 jnum_or_null(t->best_score / t->start_score), "flags", minimal, "shares", shares, "steps",
			 (json_int_t)t->minimise_steps,
			 "confirmation", "level", isfinite(t->confirm_level) ? t->confirm_level : 0.0, "rounds",
			 (json_int_t)t->o->confirm_runs, "layouts", (json_int_t)(t->o->layouts ? t->o->layouts : 1), "builds",
			 lines, "answer", answer);
	json_object_set_new(json_object_get(root, "minimal"), "note", jstr_or_null(t->minimise_note));
	json_object_set_new(root, "budget", budget_json(t));
	json_object_set_new(root, "screen", screen_json(t));
	return root;
}

static int write_text(const char *dir, const char *name, const char *text, size_t len)
{
	char *path = xasprintf("%s/%s", dir, name);
	int rc = write_file_atomic(path, text, len);
	if (rc < 0)
		error("cannot write %s: %s", path, strerror(errno));
	free(path);
	return rc;
}

/* convergence.tsv: technique, seconds, best ratio so far; the plot's data. */
static void convergence_tsv(const json_t *root, struct strbuf *sb)
{
	sb_adds(sb, "# technique\tseconds\tbest_ratio\n");
	size_t i, k;
	json_t *tech, *pt;
	json_array_foreach(json_object_get(root, "techniques"), i, tech) {
		const char *name = json_string_value(json_object_get(tech, "technique"));
		double last = 1;
		json_array_foreach(json_object_get(tech, "convergence"), k, pt) {
			double s = json_number_value(json_array_get(pt, 0)), r = json_number_value(json_array_get(pt, 1));
			if (k)
				sb_addf(sb, "%s\t%.3f\t%.6f\n", name, s, last); /* a step: flat until the next best */
			sb_addf(sb, "%s\t%.3f\t%.6f\n", name, s, r);
			last = r;
		}
		sb_adds(sb, "\n\n");
	}
}

int tune_report(const struct tune *t)
{
	struct strbuf md = STRBUF_INIT, tsv = STRBUF_INIT;
	report_md(t, &md);
	fputs(md.buf, stdout);
	json_t *root = report_json(t);
	char *js = json_dumps(root, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
	convergence_tsv(root, &tsv);
	int rc = 0;
	if (write_text(t->dir, "tune.md", md.buf, md.len) < 0 || write_text(t->dir, "results.json", js, strlen(js)) < 0 ||
	    write_text(t->dir, "convergence.tsv", tsv.buf, tsv.len) < 0)
		rc = -1;
	free(js);
	json_decref(root);
	sb_release(&md);
	sb_release(&tsv);
	if (rc == 0 && !t->o->no_render) {
		/* the plot and the page: plots/tune.sh, from results.json alone */
		char *script = xasprintf("%s/plots/tune.sh", project_root());
		char *argv[] = { "bash", script, t->dir, NULL };
		struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
		struct child_exit ex;
		if (run_capture(argv, CHILD_DEVNULL, 60, 1 << 16, &out, &err, &ex) < 0 || ex.exit_code != 0)
			fprintf(stderr, "flagbench: warning: the plot and page were not rendered: %s\n",
				err.buf && err.len ? err.buf : "plots/tune.sh failed");
		sb_release(&out);
		sb_release(&err);
		free(script);
	}
	fprintf(stderr, "flagbench: tune folder: %s (tune.md, results.json, journal.jsonl, convergence.svg, index.html)\n",
		t->dir);
	return rc;
}
