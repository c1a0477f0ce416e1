/* compare.c: see compare.h.  Just over 700 lines: the first pass, the
 * confirmation through the scheduler and the JSON record share the static
 * helpers that read a run (run_str, run_option). */
#define _GNU_SOURCE
#include "analysis/compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/family.h"
#include "core/json_util.h"
#include "core/runcmd.h"
#include "pipeline/executor.h"
#include "pipeline/measure.h"
#include "pipeline/schedule.h"
#include "results/replay.h"
#include "results/baseline.h"
#include "results/reader.h"
#include "system/cooldown.h"

const char *metric_name(enum metric m)
{
	return m == METRIC_INSTRUCTIONS ? "instructions" : m == METRIC_CYCLES ? "cycles" : "time";
}

int metric_parse(const char *name, enum metric *out)
{
	if (!strcmp(name, "time"))
		*out = METRIC_TIME;
	else if (!strcmp(name, "instructions"))
		*out = METRIC_INSTRUCTIONS;
	else if (!strcmp(name, "cycles"))
		*out = METRIC_CYCLES;
	else
		return -1;
	return 0;
}

/* Bonferroni on the one-sided error: for identical builds the true ratio
 * is 1, and a cell alarms only when its interval lies wholly above
 * 1 + threshold, i.e. in the upper tail, which a two-sided interval at
 * level 1 - a misses by chance a / 2 at most.  Of m such cells any one
 * alarms with chance at most m a / 2, whatever ties the cells together,
 * so a = 2 alarm_rate / m keeps it at most alarm_rate. */
double confirm_level(double alarm_rate, size_t m)
{
	if (!(alarm_rate > 0 && alarm_rate < 0.5))
		return NAN;
	return comparison_bonferroni_level(2 * alarm_rate, m);
}

void compare_policy(struct comparison_policy *p, double threshold, double quantile, unsigned resamples,
		    unsigned long long seed, double level)
{
	*p = (struct comparison_policy){
		.quantile = quantile,
		.level = level,
		.threshold = threshold,
		/* "same" is within the threshold, as compare has always said */
		.same_band = threshold,
		.resamples = resamples ? resamples : 2000,
		.seed = seed,
	};
}

/* The primitive's runs of n times t (seconds per unit), with their rounds
 * (nrounds 0: none) in one pass; free the result. */
static struct comparison_run *runs_of(const double *t, size_t n, const int *rounds, size_t nrounds, unsigned pass)
{
	struct comparison_run *r = xcalloc(n + 1, sizeof(*r));
	for (size_t i = 0; i < n; i++)
		r[i] = (struct comparison_run){ t[i], i < nrounds ? rounds[i] : COMPARISON_UNKNOWN, (int)pass,
						COMPARISON_UNKNOWN };
	return r;
}

#define IDENTICAL_NOTE "the same sha256 and argv on both sides: a difference is the machine's, not the code's"

char *cell_note_text(const struct cell_cmp *cc)
{
	if (cc->identical_binary)
		return cc->note ? xasprintf("%s; %s", cc->note, IDENTICAL_NOTE) : xstrdup(IDENTICAL_NOTE);
	return cc->note ? xstrdup(cc->note) : NULL;
}

/* ---- loading ---- */


static const char *run_str(const json_t *run, const char *key)
{
	return json_string_value(json_object_get(json_object_get(run, "run"), key));
}

static const char *host_model(const json_t *run)
{
	return json_string_value(json_object_get(json_object_get(run, "host"), "cpu_model"));
}

/* The metric of one side: times (several) or one count; -1 with a note. */
static int side_values(const json_t *c, enum metric m, double per, double **v, size_t *n, char **note,
		       const char *side)
{
	const char *status = json_string_value(json_object_get(c, "status"));
	*v = NULL;
	*n = 0;
	if (!status || strcmp(status, "ok")) {
		*note = xasprintf("%s: %s", side, status ? status : "no status");
		return -1;
	}
	if (m == METRIC_TIME) {
		size_t k;
		struct comparison_run *r = compare_stored_runs(c, per, 0, &k);
		if (!r) {
			*note = json_array_size(json_object_get(json_object_get(c, "time_s"), "runs"))
					? xasprintf("%s: a run is not a positive time", side)
					: xasprintf("%s: no timed runs", side);
			return -1;
		}
		*v = xmalloc(k * sizeof(double));
		for (size_t i = 0; i < k; i++)
			(*v)[i] = r[i].seconds;
		free(r);
		*n = k;
		return 0;
	}
	const char *key = m == METRIC_INSTRUCTIONS ? "instructions_per_unit" : "cycles_per_unit";
	json_t *k = json_object_get(c, "counters");
	double x = json_number_value(json_object_get(k, key));
	if (!(x > 0)) {
		const char *skipped = json_string_value(json_object_get(k, "skipped"));
		*note = skipped ? xasprintf("%s: no %s (%s)", side, metric_name(m), skipped)
				: xasprintf("%s: no %s counted", side, metric_name(m));
		return -1;
	}
	*v = xmalloc(sizeof(double));
	**v = x;
	*n = 1;
	return 0;
}

static void compare_cell(const json_t *b, const json_t *nw, const struct compare_opts *o, double quantile,
			 struct cell_cmp *cc)
{
	double *va = NULL, *vb = NULL;
	struct comparison_run *ra = NULL, *rb = NULL;
	/* the programs of the sides (their identical method): unknown where
	 * a record lacks its binary or argv, never the same binary */
	struct program_id prog_a, prog_b;
	program_id_from_json(&prog_a, b);
	program_id_from_json(&prog_b, nw);
	size_t na = 0, nb = 0;
	cc->ci.ratio = cc->ci.low = cc->ci.high = NAN;
	cc->base_value = cc->new_value = NAN;
	cc->verdict = VERDICT_NO_DATA;
	cc->ci.verdict = VERDICT_NO_DATA;
	cc->confirm_level = NAN;
	/* time per unit of work when the sizes differ */
	double sa = json_number_value(json_object_get(b, "size")), sb = json_number_value(json_object_get(nw, "size"));
	int per_unit = o->metric == METRIC_TIME && sa > 0 && sb > 0 && sa != sb;
	cc->unit = o->metric == METRIC_INSTRUCTIONS ? "instructions/unit"
		   : o->metric == METRIC_CYCLES     ? "cycles/unit"
		   : per_unit                       ? "s/unit"
						    : "s";
	if (side_values(b, o->metric, per_unit ? sa : 1, &va, &na, &cc->note, "base") < 0 ||
	    side_values(nw, o->metric, per_unit ? sb : 1, &vb, &nb, &cc->note, "new") < 0)
		goto out;
	/* both sides from their runs, by one statistic (counts: the median) */
	double q = o->metric == METRIC_TIME ? quantile : 0.5;
	struct stats s;
	stats_compute_at(&s, va, na, q);
	cc->base_value = s.point;
	stats_free(&s);
	stats_compute_at(&s, vb, nb, q);
	cc->new_value = s.point;
	stats_free(&s);
	struct comparison_side A = { 0 }, B = { 0 };
	if (o->same_binary == COMPARE_SAME_BINARY_IS_SAME) {
		A.program = &prog_a;
		B.program = &prog_b;
	}
	if (o->metric != METRIC_TIME) {
		/* counts are point values: the interval is the ratio itself */
		struct comparison_run pa = { va[0], COMPARISON_UNKNOWN, 0, COMPARISON_UNKNOWN }, pb = pa;
		pb.seconds = vb[0];
		A.runs = &pa;
		B.runs = &pb;
		A.n = B.n = 1;
		/* the identical method needs no runs; one count a side is "none" */
		struct comparison_policy pol;
		compare_policy(&pol, o->threshold, 0.5, o->resamples, o->seed, 0.95);
		comparison_compute(&A, &B, &pol, &cc->ci);
		if (cc->ci.method != COMPARISON_IDENTICAL) {
			cc->ci.ratio = cc->ci.low = cc->ci.high = vb[0] / va[0];
			cc->ci.verdict = comparison_decide(cc->ci.ratio, cc->ci.ratio, o->threshold, o->threshold);
		}
	} else {
		/* two run folders share no rounds: their runs pair up with
		 * nothing, so the primitive compares them as independent */
		ra = runs_of(va, na, NULL, 0, 0);
		rb = runs_of(vb, nb, NULL, 0, 0);
		A.runs = ra;
		A.n = na;
		B.runs = rb;
		B.n = nb;
		struct comparison_policy pol;
		compare_policy(&pol, o->threshold, q, o->resamples, o->seed, 0.95);
		if (comparison_compute(&A, &B, &pol, &cc->ci) < 0) {
			cc->note = xstrdup(q > 0 ? "values that are not positive"
					         : "the minimum has no interval: ask for a quantile above it (--statistic)");
			goto out;
		}
	}
	cc->verdict = cc->ci.verdict;
	cc->identical_binary = cc->ci.method == COMPARISON_IDENTICAL;
	if (cc->ci.method == COMPARISON_NONE)
		cc->note = xasprintf("fewer than %d runs on a side: no interval", COMPARISON_MIN_RUNS);
	else if (per_unit)
		cc->note = xasprintf("sizes differ (%.0f, %.0f): time per unit", sa, sb);
out:
	cc->first = cc->verdict;
	free(va);
	free(vb);
	free(ra);
	free(rb);
	program_id_clear(&prog_a);
	program_id_clear(&prog_b);
}

void comparison_recount(struct comparison *c)
{
	memset(c->count, 0, sizeof(c->count));
	for (size_t i = 0; i < c->n; i++)
		c->count[c->cells[i].verdict]++;
}

void compare_runs(const json_t *base, const json_t *nw, const struct compare_opts *o, struct comparison *out)
{
	memset(out, 0, sizeof(*out));
	out->metric = o->metric;
	out->threshold = o->threshold;
	/* --statistic, else the one NEW reports (checked by cmd_compare) */
	const char *stat = o->statistic ? o->statistic : run_str(nw, "statistic");
	if (!stat || stats_statistic_parse(stat, &out->quantile) < 0)
		out->quantile = 0.5;
	out->confirm_level = NAN;
	const char *bl = run_str(base, "id"), *nl = run_str(nw, "id");
	const char *bp = run_str(base, "cpu_profile"), *np = run_str(nw, "cpu_profile");
	out->base_label = xstrdup(bl ? bl : "base");
	out->new_label = xstrdup(nl ? nl : "new");
	out->base_profile = xstrdup(bp ? bp : "?");
	out->new_profile = xstrdup(np ? np : "?");
	if (strcmp(out->base_profile, out->new_profile))
		sv_pushf(&out->warnings, "cpu profiles differ: base %s, new %s", out->base_profile, out->new_profile);
	const char *bm = host_model(base), *nm = host_model(nw);
	if (o->metric != METRIC_INSTRUCTIONS && bm && nm && strcmp(bm, nm))
		sv_pushf(&out->warnings, "measured on different cpus (base '%s', new '%s'): the %s are not comparable",
			 bm, nm, o->metric == METRIC_TIME ? "times" : "cycle counts");
	else if (bm && nm && strcmp(bm, nm))
		sv_pushf(&out->warnings, "counted on different cpus (base '%s', new '%s'): libraries that pick their "
			 "code at run time (glibc string functions, GMP) may count differently", bm, nm);
	json_t *cells = json_object_get(nw, "cells");
	out->cells = xcalloc(json_array_size(cells) + 1, sizeof(*out->cells));
	size_t i;
	json_t *c;
	json_array_foreach(cells, i, c) {
		const char *id = json_string_value(json_object_get(c, "id"));
		const json_t *b = results_json_cell(base, id);
		if (!b) {
			sv_push(&out->only_new, id);
			continue;
		}
		const char *sb = json_string_value(json_object_get(b, "status"));
		const char *sn = json_string_value(json_object_get(c, "status"));
		if (sb && sn && !strcmp(sb, sn) && strcmp(sb, "ok")) {
			out->not_run++; /* skipped or unsupported on both sides: nothing to say */
			continue;
		}
		struct cell_cmp *cc = &out->cells[out->n++];
		cc->id = xstrdup(id);
		compare_cell(b, c, o, out->quantile, cc);
	}
	json_array_foreach(json_object_get(base, "cells"), i, c) {
		const char *id = json_string_value(json_object_get(c, "id"));
		if (!results_json_cell(nw, id))
			sv_push(&out->only_base, id);
	}
	comparison_recount(out);
}

void comparison_free(struct comparison *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->cells[i].id);
		free(c->cells[i].note);
	}
	free(c->cells);
	free(c->base_label);
	free(c->new_label);
	free(c->base_profile);
	free(c->new_profile);
	sv_clear(&c->only_base);
	sv_clear(&c->only_new);
	sv_clear(&c->warnings);
	memset(c, 0, sizeof(*c));
}

/* ---- confirmation: both binaries again, interleaved ---- */

struct confirm_opts {
	unsigned rounds;
	double alarm_rate; /* fraction: the family-wise false-alarm rate */
	double timeout_s;
	/* the run's cooldown policy (cooldown.h): a pause before each cell,
	 * between its runs only where a sensor follows the temperature */
	struct cooldown_policy cool;
	uint64_t pipe_size;
	const char *consumer, *consumer_wait;
};

/* The run's own --consumer / --consumer-wait / --pipe-size, so the replay drains streams the
 * same way (the cells record only a crossed consumer). */
static const char *run_option(const json_t *run, const char *name)
{
	json_t *argv = json_object_get(json_object_get(run, "run"), "argv");
	size_t len = strlen(name);
	for (size_t i = 0; i < json_array_size(argv); i++) {
		const char *s = json_string_value(json_array_get(argv, i));
		if (!s || strncmp(s, "--", 2) || strncmp(s + 2, name, len))
			continue;
		if (s[2 + len] == '=')
			return s + 3 + len;
		if (!s[2 + len])
			return json_string_value(json_array_get(argv, i + 1));
	}
	return NULL;
}

void compare_format_level(double level, char *buf, size_t n)
{
	double miss = (1 - level) * 100;
	int decimals = miss > 0 ? (int)ceil(-log10(miss) - 1e-9) + 1 : 1;
	if (decimals < 1)
		decimals = 1;
	snprintf(buf, n, "%.*g", 2 + decimals, level * 100);
}

/* FNV-1a of the cell id: the seed of its rounds' order, so one cell is
 * confirmed in the same order every time */
static unsigned long long cell_seed(const char *id)
{
	unsigned long long seed = 1469598103934665603ULL;
	for (const char *s = id; *s; s++)
		seed = (seed ^ (unsigned char)*s) * 1099511628211ULL;
	return seed;
}

struct comparison_run *compare_cell_runs(const struct cell *c, double per, size_t *n)
{
	const struct cell_measurement *m = &c->measure;
	double *t = xcalloc(m->time.n + 1, sizeof(double));
	for (size_t i = 0; i < m->time.n; i++)
		t[i] = m->time.runs[i] / per;
	struct comparison_run *r = runs_of(t, m->time.n, m->rounds, m->nrounds, m->pass);
	free(t);
	*n = m->time.n;
	return r;
}

struct comparison_run *compare_stored_runs(const json_t *cell, double per, int with_rounds, size_t *n)
{
	const json_t *ts = json_object_get(cell, "time_s"), *runs = json_object_get(ts, "runs");
	const json_t *rounds = with_rounds ? json_object_get(ts, "rounds") : NULL;
	size_t k = json_array_size(runs);
	*n = 0;
	if (!k)
		return NULL;
	struct comparison_run *r = xcalloc(k, sizeof(*r));
	json_int_t pass = json_integer_value(json_object_get(ts, "pass"));
	for (size_t i = 0; i < k; i++) {
		double x = json_number_value(json_array_get(runs, i));
		const json_t *rd = json_array_get(rounds, i);
		if (!(x > 0)) {
			free(r);
			return NULL;
		}
		r[i] = (struct comparison_run){ x / per, json_is_integer(rd) ? (int)json_integer_value(rd) : COMPARISON_UNKNOWN,
						(int)pass, COMPARISON_UNKNOWN };
	}
	*n = k;
	return r;
}

/* The paired comparison of the confirmation's rounds, into cc. */
static void confirm_verdict(struct cell_cmp *cc, const struct cell *a, const struct cell *b, double level,
			    const struct compare_opts *o, double quantile, unsigned rounds)
{
	/* per unit when the sizes differ, as the first comparison did */
	uint64_t sa = a->spec.size, sb = b->spec.size;
	double pa = sa && sb && sa != sb ? (double)sa : 1;
	double pb = sa && sb && sa != sb ? (double)sb : 1;
	struct comparison_side A = { 0 }, B = { 0 };
	struct comparison_run *ra = compare_cell_runs(a, pa, &A.n), *rb = compare_cell_runs(b, pb, &B.n);
	A.runs = ra;
	B.runs = rb;
	struct comparison_policy pol;
	compare_policy(&pol, o->threshold, quantile, o->resamples, o->seed, level);
	if (comparison_compute(&A, &B, &pol, &cc->confirm) == 0 && cc->confirm.method != COMPARISON_NONE) {
		char lv[32];
		compare_format_level(level, lv, sizeof(lv));
		cc->confirmed = (int)rounds;
		cc->confirm_level = level;
		cc->verdict = cc->confirm.verdict;
		char short_of[96] = "";
		if (cc->confirm.level_reached < level) {
			char got[32];
			compare_format_level(cc->confirm.level_reached, got, sizeof(got));
			snprintf(short_of, sizeof(short_of), " (%zu pairs reach %s %%: more rounds)", cc->confirm.pairs, got);
		}
		cc->note = xasprintf("%s after %u interleaved rounds: %.3fx [%.3f, %.3f] at %s %%%s",
				     cc->verdict == VERDICT_SLOWER ? "confirmed" : "not confirmed", rounds,
				     cc->confirm.ratio, cc->confirm.low, cc->confirm.high, lv, short_of);
	} else {
		cc->note = xstrdup("not confirmed: the new times do not pair up");
	}
	free(ra);
	free(rb);
}

/* Both binaries again, through the scheduler: balanced rounds, the pause
 * once before the cell, the first failure ends it; while the answer stays
 * inconclusive, as many rounds again, up to CONFIRM_EXTENSIONS times. */
#define CONFIRM_EXTENSIONS 2
static void confirm_cell(struct cell_cmp *cc, const json_t *base, const char *base_dir, const json_t *nw,
			 const char *new_dir, struct family *fams, size_t nfams, const struct confirm_opts *co,
			 double level, const struct compare_opts *o, double quantile, const char *hyperfine,
			 const char *work)
{
	struct cell a = { 0 }, b = { 0 }; /* b too is freed when a cannot be replayed */
	char why[512] = "";
	int ok = replay_cell_init(&a, results_json_cell(base, cc->id), base_dir, fams, nfams, why, sizeof(why)) == 0 &&
		 replay_cell_init(&b, results_json_cell(nw, cc->id), new_dir, fams, nfams, why, sizeof(why)) == 0;
	char *old_note = cc->note;
	if (!ok) {
		cc->note = xasprintf("not confirmed: %s", why);
		goto out;
	}
	double below = NAN, max_wait = 0;
	cooldown_between_runs(&co->cool, &below, &max_wait);
	struct measure_opts mo = {
		.hyperfine = hyperfine,
		.workdir = work,
		.run_timeout_s = co->timeout_s,
		.cooldown_below_c = below,
		.cooldown_max_wait_s = max_wait,
		.consumer = co->consumer,
		.consumer_wait = co->consumer_wait,
		.pipe_size = co->pipe_size,
		.quantile = 0.5,
	};
	struct schedule_policy pol = {
		.order = SCHEDULE_BALANCED,
		.runs = co->rounds,
		.warmup = 1,
		.seed = cell_seed(cc->id),
		.pause = SCHEDULE_PAUSE_ONCE,
		.cool = &co->cool,
		.on_failure = SCHEDULE_STOP_ALL,
	};
	struct cell *cells[] = { &a, &b };
	struct schedule sc = {
		.policy = &pol,
		.x = &executor_hyperfine,
		.mo = &mo,
		.cells = cells,
		.n = 2,
		.tally = { .cooldown_s = &cc->confirm_cooldown_s },
	};
	fprintf(stderr, "flagbench: confirming %s: %u rounds, as many A B as B A, shuffled\n", cc->id, co->rounds);
	enum schedule_status st = schedule_run(&sc);
	if (st == SCHEDULE_STOPPED) {
		const struct cell *bad = a.status != CELL_PENDING ? &a : &b;
		cc->note = xasprintf("not confirmed: %s: %s", bad == &a ? "base" : "new",
				     bad->reason ? bad->reason : "measuring failed");
		goto out;
	}
	if (st == SCHEDULE_WAS_INTERRUPTED || a.measure.time.n != co->rounds || b.measure.time.n != co->rounds) {
		cc->note = xstrdup("not confirmed: interrupted");
		goto out;
	}
	confirm_verdict(cc, &a, &b, level, o, quantile, co->rounds);
	/* an open answer gets the rounds again, up to CONFIRM_EXTENSIONS times,
	 * and is decided on all of them (runs go where an answer is undecided) */
	for (unsigned k = 1; k <= CONFIRM_EXTENSIONS && cc->verdict == VERDICT_INCONCLUSIVE && !fb_interrupted; k++) {
		pol.round_base = k * co->rounds;
		pol.seed = cell_seed(cc->id) + k;
		pol.warmup = 0;
		pol.pause = SCHEDULE_PAUSE_NONE;
		fprintf(stderr, "flagbench: %s still open: %u rounds more\n", cc->id, co->rounds);
		if (schedule_run(&sc) != SCHEDULE_DONE || a.measure.time.n != (k + 1) * co->rounds ||
		    b.measure.time.n != (k + 1) * co->rounds)
			break;
		if (cc->note != old_note)
			free(cc->note);
		confirm_verdict(cc, &a, &b, level, o, quantile, (k + 1) * co->rounds);
	}
out:
	if (cc->note != old_note)
		free(old_note);
	replay_cell_free(&a);
	replay_cell_free(&b);
}

/* Slower, or inconclusive with an interval that reaches above the
 * threshold: a slowdown hidden by noise is measured again too. */
static int confirm_suspect(const struct cell_cmp *cc, double threshold)
{
	return cc->verdict == VERDICT_SLOWER || (cc->verdict == VERDICT_INCONCLUSIVE && cc->ci.high > 1 + threshold);
}

static int confirm_slower(struct comparison *cmp, const json_t *base, const char *base_dir, const json_t *nw,
			  const char *new_dir, const struct confirm_opts *co, const struct compare_opts *o)
{
	size_t suspects = 0;
	cmp->confirm_rounds = co->rounds;
	cmp->alarm_rate = co->alarm_rate;
	for (size_t i = 0; i < cmp->n; i++)
		suspects += confirm_suspect(&cmp->cells[i], o->threshold);
	if (!suspects)
		return 0;
	if (o->metric != METRIC_TIME) {
		sv_pushf(&cmp->warnings, "--confirm measures times: %s counts are not measured again",
			 metric_name(o->metric));
		return 0;
	}
	char *hyperfine = find_on_path("hyperfine");
	if (!hyperfine) {
		sv_push(&cmp->warnings, "--confirm needs hyperfine (not on PATH): slower cells are not confirmed");
		return 0;
	}
	/* the runs' own family folders too, wherever they live */
	struct family *fams = NULL;
	int nfams = load_families_of_runs(base, base_dir, nw, new_dir, &fams);
	if (nfams < 0) {
		free(hyperfine);
		return -1;
	}
	/* every suspect at the level that keeps the comparison's chance of a
	 * false alarm at --alarm-rate (confirm_level) */
	cmp->confirm_cells = suspects;
	cmp->confirm_level = confirm_level(co->alarm_rate, suspects);
	char tmpl[] = "/tmp/flagbench-confirm-XXXXXX";
	char *work = mkdtemp(tmpl);
	install_interrupt_handler();
	for (size_t i = 0; work && i < cmp->n && !fb_interrupted; i++)
		if (confirm_suspect(&cmp->cells[i], o->threshold))
			confirm_cell(&cmp->cells[i], base, base_dir, nw, new_dir, fams, (size_t)nfams, co,
				     cmp->confirm_level, o, cmp->quantile, hyperfine, work);
	if (work) {
		const char *files[] = { "hyperfine.json", "meter.jsonl", "cooldown.jsonl", "before.jsonl", NULL };
		for (int k = 0; files[k]; k++) {
			char *p = xasprintf("%s/%s", work, files[k]);
			unlink(p);
			free(p);
		}
		rmdir(work);
	}
	for (int i = 0; i < nfams; i++)
		free_family(&fams[i]);
	free(fams);
	free(hyperfine);
	comparison_recount(cmp);
	return 0;
}

json_t *compare_to_json(const struct comparison *c)
{
	json_t *cells = json_array();
	for (size_t i = 0; i < c->n; i++) {
		const struct cell_cmp *cc = &c->cells[i];
		char *note = cell_note_text(cc);
		json_t *j = json_pack("{s:s, s:s, s:o, s:[o,o], s:o, s:o, s:s, s:o, s:b}", "id", cc->id, "verdict",
				      comparison_verdict_word(cc->verdict), "ratio", jnum_or_null(cc->ci.ratio), "ci95",
				      jnum_or_null(cc->ci.low), jnum_or_null(cc->ci.high), "base", jnum_or_null(cc->base_value),
				      "new", jnum_or_null(cc->new_value), "unit", cc->unit ? cc->unit : "", "note",
				      jstr_or_null(note),
				      "identical_binary", cc->identical_binary);
		free(note);
		if (cc->confirmed)
			json_object_set_new(j, "confirm",
					    json_pack("{s:i, s:o, s:[o,o], s:o, s:s, s:f}", "rounds", cc->confirmed, "ratio",
						      jnum_or_null(cc->confirm.ratio), "ci", jnum_or_null(cc->confirm.low),
						      jnum_or_null(cc->confirm.high), "level", jnum_or_null(cc->confirm_level),
						      "first_verdict", comparison_verdict_word(cc->first), "cooldown_s",
						      cc->confirm_cooldown_s));
		json_array_append_new(cells, j);
	}
	json_t *counts = json_object();
	for (int v = 0; v < VERDICT_COUNT; v++)
		json_object_set_new(counts, comparison_verdict_word((enum comparison_verdict)v), json_integer((json_int_t)c->count[v]));
	json_t *confirmation = c->confirm_rounds ? json_pack("{s:i, s:f, s:I, s:o}", "rounds", (int)c->confirm_rounds,
							     "alarm_rate_percent", c->alarm_rate * 100, "cells",
							     (json_int_t)c->confirm_cells, "level",
							     jnum_or_null(c->confirm_level))
						 : json_null();
	char stat[32];
	return json_pack("{s:s, s:s, s:s, s:f, s:{s:s, s:s}, s:{s:s, s:s}, s:o, s:o, s:o, s:o, s:o, s:I, s:o}",
			 "schema", "flagbench-compare/2", "metric", metric_name(c->metric), "statistic",
			 c->metric == METRIC_TIME ? stats_statistic_name(c->quantile, stat, sizeof(stat)) : "median",
			 "threshold_percent",
			 c->threshold * 100, "base", "id", c->base_label, "cpu_profile", c->base_profile, "new", "id",
			 c->new_label, "cpu_profile", c->new_profile, "cells", cells, "only_in_base",
			 jstrvec(&c->only_base), "only_in_new", jstrvec(&c->only_new), "counts", counts,
			 "warnings", jstrvec(&c->warnings), "not_run", (json_int_t)c->not_run, "confirmation",
			 confirmation);
}

/* ---- one comparison, as the command asks it ---- */

/* The cooldown policy NEW's run took (run.cooldown: the profile's with
 * --cooldown or the suite's pause applied); its profile's for older runs. */
static void profile_cooldown(const json_t *run, struct cooldown_policy *p)
{
	json_t *c = json_object_get(json_object_get(run, "run"), "cooldown");
	int override = json_is_true(json_object_get(c, "override"));
	if (!json_is_object(c))
		c = json_object_get(json_object_get(run, "profile"), "cooldown");
	double s = json_number_value(json_object_get(c, "seconds"));
	double below = json_number_value(json_object_get(c, "below_celsius"));
	double max_wait = json_number_value(json_object_get(c, "max_wait_seconds"));
	struct cooldown_spec spec = { s > 0 ? s : 0, below > 0 ? below : NAN, max_wait > s ? max_wait : s > 0 ? s : 0 };
	cooldown_policy_init(p, &spec, override, "/");
}

/* BASE as given, or the stored baseline of NEW's cpu profile; NULL when
 * that baseline does not exist. */
static char *base_path_of(const struct compare_request *rq, const json_t *nw)
{
	if (!rq->baseline)
		return xstrdup(rq->base);
	const char *prof = run_str(nw, "cpu_profile");
	char *path = baseline_path(rq->baselines_dir, rq->baseline, prof ? prof : "host");
	if (access(path, F_OK) < 0) {
		error("no baseline '%s' for cpu profile %s (looked for %s; flagbench baseline save RUN stores one)",
		      rq->baseline, prof ? prof : "host", path);
		free(path);
		return NULL;
	}
	return path;
}

/* --confirm replays with NEW's own drain settings and its profile's cooldown. */
static int confirm_with_run_settings(const struct compare_request *rq, struct comparison *cmp, const json_t *base,
				     const char *base_dir, const json_t *nw, const char *new_dir)
{
	const char *consumer = run_option(nw, "consumer");
	uint64_t pipe = 0;
	const char *ps = run_option(nw, "pipe-size");
	if (ps && parse_u64(ps, &pipe) < 0)
		pipe = 0;
	struct confirm_opts cf = { .rounds = rq->confirm, .alarm_rate = rq->alarm_rate, .timeout_s = rq->timeout_s,
				   .pipe_size = pipe, .consumer = consumer,
				   .consumer_wait = run_option(nw, "consumer-wait") };
	profile_cooldown(nw, &cf.cool);
	return confirm_slower(cmp, base, base_dir, nw, new_dir, &cf, &rq->opts);
}

int compare_main(const struct compare_request *rq, struct comparison *out)
{
	int r = -1;
	json_t *base = NULL, *nw = NULL;
	char *base_dir = NULL, *new_dir = NULL, *base_path = NULL;
	memset(out, 0, sizeof(*out));
	nw = results_load(rq->new_run, &new_dir);
	if (!nw)
		goto out;
	base_path = base_path_of(rq, nw);
	if (!base_path)
		goto out;
	base = results_load(base_path, &base_dir);
	if (!base)
		goto out;
	compare_runs(base, nw, &rq->opts, out);
	if (rq->confirm && confirm_with_run_settings(rq, out, base, base_dir, nw, new_dir) < 0)
		goto out;
	r = 0;
out:
	json_decref(base);
	json_decref(nw);
	free(base_dir);
	free(new_dir);
	free(base_path);
	return r;
}
