/* compare.c: see compare.h */
#define _GNU_SOURCE
#include "analysis/compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/json_util.h"
#include "results/reader.h"
#include "system/handoff.h"

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
						COMPARISON_UNKNOWN, 0 };
	return r;
}

#define IDENTICAL_NOTE "the same sha256 and argv on both sides: a difference is the machine's, not the code's"

char *cell_note_text(const struct cell_cmp *cc)
{
	if (cc->identical_binary)
		return cc->note ? xasprintf("%s; %s", cc->note, IDENTICAL_NOTE) : xstrdup(IDENTICAL_NOTE);
	if (cc->same_program && cc->system_note)
		return cc->note ? xasprintf("%s; %s", cc->note, cc->system_note) : xstrdup(cc->system_note);
	return cc->note ? xstrdup(cc->note) : NULL;
}

/* What the system changed between two runs for one binary: the host facts
 * a same binary's speed depends on, and the libraries it loads
 * (binary.libraries); "nothing recorded changed" else.  *changed: 1 a
 * fact or library changed, 0 nothing did (both sides listed their
 * libraries), -1 unknown; *libraries: 1 a library changed. */
static char *system_changes(const struct results_run *base, const struct results_run *nw,
			    const struct results_cell *b, const struct results_cell *n, int *changed, int *libraries)
{
	struct strbuf sb = STRBUF_INIT;
	for (int i = 0; i < RESULTS_NHOST_FACTS; i++) {
		const char *x = base->host.fact[i], *y = nw->host.fact[i];
		if (x && y && strcmp(x, y))
			sb_addf(&sb, "%s%s \"%s\" -> \"%s\"", sb.len ? ", " : "", RESULTS_HOST_FACTS[i], x, y);
	}
	int lb = b->libs_listed, ln = n->libs_listed;
	for (size_t i = 0; i < n->nlibs; i++) {
		const struct results_lib *y = &n->libs[i];
		int same = 0;
		for (size_t k = 0; k < b->nlibs; k++)
			if (str_equal_or_null(y->path, b->libs[k].path))
				same = str_equal_or_null(y->sha256, b->libs[k].sha256) ? 1 : -1;
		if (y->path && same <= 0 && lb) {
			sb_addf(&sb, "%slibrary %s%s", sb.len ? ", " : "", y->path, same ? "" : " (new)");
			*libraries = 1;
		}
	}
	for (size_t k = 0; k < b->nlibs; k++) {
		const char *path = b->libs[k].path;
		int kept = 0;
		for (size_t i = 0; i < n->nlibs; i++)
			kept |= str_equal_or_null(path, n->libs[i].path);
		if (path && !kept && ln) {
			sb_addf(&sb, "%slibrary %s (gone)", sb.len ? ", " : "", path);
			*libraries = 1;
		}
	}
	*changed = sb.len ? 1 : lb && ln ? 0 : -1;
	char *what = sb.len ? xasprintf("a difference is the system's: %s", sb.buf)
			    : xstrdup(lb && ln ? "a difference is the system's: nothing recorded changed (the machine)"
					      : "a difference is the system's (libraries not listed on a side)");
	sb_release(&sb);
	char *note = xasprintf("the same binary in two runs (sha256 and argv), measured as an A/A comparison; %s", what);
	free(what);
	return note;
}

/* ---- loading ---- */

/* The metric of one side: times (several) or one count; -1 with a note. */
static int side_values(const struct results_cell *c, enum metric m, double per, double **v, size_t *n, char **note,
		       const char *side)
{
	*v = NULL;
	*n = 0;
	if (c->status != CELL_OK) {
		*note = xasprintf("%s: %s", side, c->status_name ? c->status_name : "no status");
		return -1;
	}
	if (m == METRIC_TIME) {
		size_t k;
		struct comparison_run *r = compare_stored_runs(c, per, 0, &k);
		if (!r) {
			*note = c->time.nruns ? xasprintf("%s: a run is not a positive time", side)
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
	double x = m == METRIC_INSTRUCTIONS ? c->instructions_per_unit : c->cycles_per_unit;
	if (!(x > 0)) {
		const char *skipped = c->counters_skipped;
		*note = skipped ? xasprintf("%s: no %s (%s)", side, metric_name(m), skipped)
				: xasprintf("%s: no %s counted", side, metric_name(m));
		return -1;
	}
	*v = xmalloc(sizeof(double));
	**v = x;
	*n = 1;
	return 0;
}

/* The states of two runs' cells as one scale (system/handoff.h): each
 * run's own states are numbered by its own levels, so a level of one run
 * and one of the other within LEVELS_MIN_FACTOR are one state, numbered
 * nearest first; *k the states in all.  A cell without states leaves
 * both sides' runs at 0 (not known). */
static void align_states(const struct results_cell *b, struct comparison_run *ra, size_t na,
			 const struct results_cell *nw, struct comparison_run *rb, size_t nb, unsigned *k)
{
	*k = 0;
	if (!b->states || !nw->states || !b->handoff_states || !nw->handoff_states)
		return;
	double v[2 * LEVELS_MAX];
	size_t n = 0;
	for (unsigned g = 0; g < b->handoff_states; g++)
		v[n++] = b->level_ns[g];
	for (unsigned g = 0; g < nw->handoff_states; g++)
		v[n++] = nw->level_ns[g];
	qsort(v, n, sizeof(*v), stats_cmp_double);
	unsigned group[2 * LEVELS_MAX];
	for (size_t i = 0; i < n; i++)
		group[i] = i && v[i] < LEVELS_MIN_FACTOR * v[i - 1] ? group[i - 1] : (i ? group[i - 1] + 1 : 1);
	*k = n ? group[n - 1] : 0;
	for (int side = 0; side < 2; side++) {
		const struct results_cell *c = side ? nw : b;
		struct comparison_run *r = side ? rb : ra;
		size_t m = side ? nb : na;
		for (size_t i = 0; i < m; i++) {
			unsigned st = c->states[i];
			r[i].state = 0;
			for (size_t j = 0; st >= 1 && st <= c->handoff_states && j < n; j++)
				if (v[j] == c->level_ns[st - 1])
					r[i].state = group[j] <= COMPARISON_STATES ? group[j] : 0;
		}
	}
}

/* The share of r's runs in state st, in percent. */
static double state_share(const struct comparison_run *r, size_t n, unsigned st)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		k += r[i].state == st;
	return n ? 100.0 * (double)k / (double)n : 0;
}

/* The statistic of r's runs in state st (all of them with st 0). */
static double state_point(const struct comparison_run *r, size_t n, unsigned st, double q)
{
	double *v = xmalloc((n + 1) * sizeof(*v));
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (!st || r[i].state == st)
			v[k++] = r[i].seconds;
	struct stats s;
	stats_compute_at(&s, v, k, q);
	double p = s.point;
	stats_free(&s);
	free(v);
	return p;
}

/* Where the host had the cell's two CPUs in the two runs: the figures of
 * the state compared within, and a note where the mix moved; a ratio
 * across states is the machine's, never called a change of the code. */
static void states_note(struct cell_cmp *cc, const struct comparison_run *ra, size_t na,
			const struct comparison_run *rb, size_t nb, unsigned k, double q)
{
	unsigned st = cc->ci.state;
	if (k < 2 || !st)
		return;
	if (st == COMPARISON_ACROSS_STATES) {
		cc->note = xasprintf("no state of the host's two CPUs holds runs of both (base near before %.0f %% of its "
				     "runs, new before %.0f %%): compared across states, and a move is the machine's, "
				     "not called a change of the code",
				     state_share(ra, na, 1), state_share(rb, nb, 1));
		return;
	}
	cc->base_value = state_point(ra, na, st, q);
	cc->new_value = state_point(rb, nb, st, q);
	double sa = state_share(ra, na, st), sb = state_share(rb, nb, st);
	if (fabs(sa - sb) >= 10)
		cc->note = xasprintf("the host's two CPUs %s before %.0f %% of the base's runs and %.0f %% of the new's: "
				     "compared within that state, so the move of the mix is the machine's",
				     handoff_state_name(st, k), sa, sb);
}

/* A time cell's runs, kept for its comparison against the machine. */
struct kept_runs {
	struct comparison_run *ra, *rb;
	size_t na, nb;
	double q;
	struct program_id pa, pb;
	int programs; /* pa, pb are the sides' programs (the identical method applies) */
};

static void compare_cell(const struct results_cell *b, const struct results_cell *nw, const struct compare_opts *o,
			 double quantile, int across, struct cell_cmp *cc, struct kept_runs *keep)
{
	double *va = NULL, *vb = NULL;
	struct comparison_run *ra = NULL, *rb = NULL;
	/* the programs of the sides (their identical method): unknown where
	 * a record lacks its binary or argv, never the same binary */
	struct program_id prog_a, prog_b;
	program_id_from_record(&prog_a, b);
	program_id_from_record(&prog_b, nw);
	size_t na = 0, nb = 0;
	unsigned nstates = 0;
	cc->ci.ratio = cc->ci.low = cc->ci.high = NAN;
	cc->base_value = cc->new_value = NAN;
	cc->verdict = VERDICT_NO_DATA;
	cc->ci.verdict = VERDICT_NO_DATA;
	cc->confirm_level = NAN;
	/* time per unit of work when the sizes differ */
	double sa = (double)b->size, sb = (double)nw->size;
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
	{
		struct comparison_side pa = { .program = &prog_a }, pb = { .program = &prog_b };
		cc->same_program = comparison_same_binary(&pa, &pb);
		cc->programs_known = prog_a.sha256 && prog_b.sha256;
	}
	/* the same binary in two runs is the best A/A comparison there is: its
	 * times are measured like any pair's, and a difference is the system's
	 * (only within one run is it the same measurement) */
	if (o->same_binary == COMPARE_SAME_BINARY_IS_SAME && !across) {
		A.program = &prog_a;
		B.program = &prog_b;
	}
	if (o->metric != METRIC_TIME) {
		/* counts are exact: the one rule for them */
		struct comparison_policy pol;
		compare_policy(&pol, o->threshold, 0.5, o->resamples, o->seed, 0.95);
		comparison_counts(va[0], vb[0], A.program, B.program, &pol, &cc->ci);
	} else {
		/* two run folders share no rounds: their runs pair up with
		 * nothing, so the primitive compares them as independent */
		ra = runs_of(va, na, NULL, 0, 0);
		rb = runs_of(vb, nb, NULL, 0, 0);
		align_states(b, ra, na, nw, rb, nb, &nstates);
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
		states_note(cc, ra, na, rb, nb, nstates, q);
		/* compared again against the machine once every cell is read */
		*keep = (struct kept_runs){ ra, rb, na, nb, q, prog_a, prog_b, A.program != NULL };
		ra = rb = NULL;
		prog_a = prog_b = (struct program_id){ 0 };
	}
	cc->verdict = cc->ci.verdict;
	cc->identical_binary = cc->ci.method == COMPARISON_IDENTICAL;
	if (cc->ci.method == COMPARISON_NONE) {
		free(cc->note);
		cc->note = xasprintf("fewer than %d runs on a side: no interval", COMPARISON_MIN_RUNS);
	} else if (per_unit && !cc->note)
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

/* A note added to a cell's (freed, replaced). */
static void add_note(struct cell_cmp *cc, char *more)
{
	char *n = cc->note ? xasprintf("%s; %s", cc->note, more) : xstrdup(more);
	free(cc->note);
	free(more);
	cc->note = n;
}

/* Two runs: the programs that did not change measure the machine's move
 * between them (comparison_machine); every cell is compared again with
 * that move taken out, or, with too few of them, with the history's
 * between-run spread in its interval. */
static void against_machine(struct comparison *out, struct kept_runs *keep, const struct compare_opts *o)
{
	struct comparison_result *ctl = xcalloc(out->n + 1, sizeof(*ctl));
	size_t k = 0;
	for (size_t i = 0; i < out->n; i++) {
		struct cell_cmp *cc = &out->cells[i];
		cc->raw = cc->ci;
		/* a program on other libraries may have moved on its own: not the machine's measure */
		cc->control = cc->same_program && cc->libraries_changed != 1 && keep[i].ra && isfinite(cc->ci.ratio);
		if (cc->control)
			ctl[k++] = cc->ci;
	}
	comparison_machine(ctl, k, &out->machine);
	free(ctl);
	out->against_machine = 1;
	out->between_spread = o->between_spread;
	out->between_ratios = o->between_ratios;
	int taken_out = isfinite(out->machine.shift);
	double shift = taken_out ? log(out->machine.shift) : 0;
	out->machine_sd = taken_out ? out->machine.sd : isfinite(o->between_spread) ? o->between_spread : 0;
	char *why = NULL;
	if (taken_out)
		; /* the writers' machine line says it */
	else if (isfinite(o->between_spread))
		why = xasprintf("%zu unchanged program%s, fewer than the %d that measure the machine's move between the "
				"runs: it is not taken out, and every interval is widened by this host's between-run spread "
				"of %.1f %% (%zu ratios of earlier runs)",
				k, k == 1 ? "" : "s", COMPARISON_MIN_CONTROLS, 100 * o->between_spread, o->between_ratios);
	else
		why = xasprintf("%zu unchanged program%s, fewer than the %d that measure the machine's move between the "
				"runs, and no earlier runs of this host beside NEW to tell how far it moves: the intervals hold "
				"each run's own noise only, not the machine's move",
				k, k == 1 ? "" : "s", COMPARISON_MIN_CONTROLS);
	if (why)
		sv_push(&out->warnings, why);
	free(why);
	for (size_t i = 0; i < out->n; i++) {
		struct cell_cmp *cc = &out->cells[i];
		struct kept_runs *kr = &keep[i];
		if (!kr->ra || cc->raw.method == COMPARISON_NONE)
			continue;
		struct comparison_side A = { kr->ra, kr->na, kr->programs ? &kr->pa : NULL },
				       B = { kr->rb, kr->nb, kr->programs ? &kr->pb : NULL };
		struct comparison_policy pol;
		compare_policy(&pol, o->threshold, kr->q, o->resamples, o->seed, 0.95);
		pol.machine_shift = shift;
		pol.machine_sd = out->machine_sd;
		if (comparison_compute(&A, &B, &pol, &cc->ci) < 0)
			continue;
		cc->verdict = cc->first = cc->ci.verdict;
		if (taken_out)
			add_note(cc, xasprintf("%.3fx before the machine's %.3fx (%zu controls) was taken out",
					       cc->raw.ratio, out->machine.shift, k));
		else if (out->machine_sd > 0)
			add_note(cc, xasprintf("too few controls (%zu): widened by the history's between-run spread %.1f %%",
					       k, 100 * out->machine_sd));
		/* neither: the interval is as it was, the warning says what it lacks */
	}
}

int compare_suspected(enum comparison_verdict v, const struct comparison_result *ci, double threshold)
{
	return v == VERDICT_SLOWER || (v == VERDICT_INCONCLUSIVE && ci->high > 1 + threshold);
}

int compare_library_step(const struct cell_cmp *cc)
{
	return cc->same_program && cc->libraries_changed == 1;
}

int compare_confirm_wanted(const struct cell_cmp *cc, double threshold, enum confirm_which which)
{
	if (cc->verdict == VERDICT_NO_DATA || cc->verdict == VERDICT_SAME_BINARY)
		return 0;
	/* the same program on the same libraries: measured side by side now,
	 * both would run on today's system, so a kernel's or microcode's
	 * slowdown could never be seen (its verdict stands, its note names
	 * the system) */
	if (cc->same_program)
		return compare_library_step(cc) &&
		       (which == CONFIRM_EVERY_CHANGED || compare_suspected(cc->verdict, &cc->ci, threshold));
	/* a new binary: whatever the two runs said but same (faster too: a
	 * machine that moved between the runs can make a slowdown look like
	 * a speedup), or every one (--confirm-changed); a reference program
	 * has no binary to have changed: only a suspect */
	if (cc->programs_known)
		return which == CONFIRM_EVERY_CHANGED || cc->verdict != VERDICT_SAME;
	return compare_suspected(cc->verdict, &cc->ci, threshold);
}

void comparison_recount(struct comparison *c)
{
	memset(c->count, 0, sizeof(c->count));
	for (size_t i = 0; i < c->n; i++)
		c->count[c->cells[i].verdict]++;
}

void compare_runs(const struct results_run *base, const struct results_run *nw, const struct compare_opts *o,
		  struct comparison *out)
{
	memset(out, 0, sizeof(*out));
	out->metric = o->metric;
	out->threshold = o->threshold;
	/* --statistic, else the one NEW reports (checked by cmd_compare) */
	const char *stat = o->statistic ? o->statistic : nw->statistic;
	if (!stat || stats_statistic_parse(stat, &out->quantile) < 0)
		out->quantile = 0.5;
	out->confirm_level = NAN;
	/* the reader's id is "" where the run has none */
	const char *bl = base->id[0] ? base->id : NULL, *nl = nw->id[0] ? nw->id : NULL;
	const char *bp = base->cpu_profile, *np = nw->cpu_profile;
	out->base_label = xstrdup(bl ? bl : "base");
	out->new_label = xstrdup(nl ? nl : "new");
	out->base_profile = xstrdup(bp ? bp : "?");
	out->new_profile = xstrdup(np ? np : "?");
	if (strcmp(out->base_profile, out->new_profile))
		sv_pushf(&out->warnings, "cpu profiles differ: base %s, new %s", out->base_profile, out->new_profile);
	const char *bm = base->host.cpu_model, *nm = nw->host.cpu_model;
	if (o->metric != METRIC_INSTRUCTIONS && bm && nm && strcmp(bm, nm))
		sv_pushf(&out->warnings, "measured on different cpus (base '%s', new '%s'): the %s are not comparable",
			 bm, nm, o->metric == METRIC_TIME ? "times" : "cycle counts");
	else if (bm && nm && strcmp(bm, nm))
		sv_pushf(&out->warnings, "counted on different cpus (base '%s', new '%s'): libraries that pick their "
			 "code at run time (glibc string functions, GMP) may count differently", bm, nm);
	out->cells = xcalloc(nw->ncells + 1, sizeof(*out->cells));
	struct kept_runs *keep = xcalloc(nw->ncells + 1, sizeof(*keep));
	/* two runs, or one run compared with itself (the same measurements) */
	int across = !(bl && nl && !strcmp(bl, nl));
	for (size_t i = 0; i < nw->ncells; i++) {
		const struct results_cell *vn = &nw->cells[i], *vb = results_cell_by_id(base, vn->id);
		if (!vb) {
			sv_push(&out->only_new, vn->id);
			continue;
		}
		if (vb->status == vn->status && vb->status != CELL_OK) {
			out->not_run++; /* skipped or unsupported on both sides: nothing to say */
		} else {
			struct cell_cmp *cc = &out->cells[out->n++];
			cc->id = xstrdup(vn->id);
			compare_cell(vb, vn, o, out->quantile, across, cc, &keep[out->n - 1]);
			if (cc->same_program && !cc->identical_binary)
				cc->system_note = system_changes(base, nw, vb, vn, &cc->system_changed,
								 &cc->libraries_changed);
		}
	}
	for (size_t i = 0; i < base->ncells; i++)
		if (!results_cell_by_id(nw, base->cells[i].id))
			sv_push(&out->only_base, base->cells[i].id);
	if (across && o->metric == METRIC_TIME)
		against_machine(out, keep, o);
	for (size_t k = 0; k < out->n; k++) {
		free(keep[k].ra);
		free(keep[k].rb);
		program_id_clear(&keep[k].pa);
		program_id_clear(&keep[k].pb);
	}
	free(keep);
	comparison_recount(out);
}

void comparison_free(struct comparison *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->cells[i].id);
		free(c->cells[i].note);
		free(c->cells[i].system_note);
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

void compare_format_level(double level, char *buf, size_t n)
{
	double miss = (1 - level) * 100;
	int decimals = miss > 0 ? (int)ceil(-log10(miss) - 1e-9) + 1 : 1;
	if (decimals < 1)
		decimals = 1;
	snprintf(buf, n, "%.*g", 2 + decimals, level * 100);
}

struct comparison_run *compare_cell_runs(const struct cell *c, double per, size_t *n)
{
	const struct cell_measurement *m = &c->measure;
	double *t = xcalloc(m->time.n + 1, sizeof(double));
	for (size_t i = 0; i < m->time.n; i++)
		t[i] = m->time.runs[i] / per;
	struct comparison_run *r = runs_of(t, m->time.n, m->rounds, m->nrounds, m->pass);
	unsigned *st;
	cell_run_states(m, &st);
	for (size_t i = 0; st && i < m->time.n; i++)
		r[i].state = st[i];
	free(st);
	free(t);
	*n = m->time.n;
	return r;
}

/* The runs of cells[0..n) (a configuration's layouts) for the comparison. */
static struct comparison_run *runs_of_cells(struct cell *const *cells, size_t n, size_t *count)
{
	struct comparison_run *all = NULL;
	*count = 0;
	for (size_t i = 0; i < n; i++) {
		size_t k = 0;
		struct comparison_run *r = compare_cell_runs(cells[i], 1, &k);
		all = xrealloc(all, (*count + k + 1) * sizeof(*all));
		for (size_t j = 0; j < k; j++) {
			all[*count + j] = r[j];
			all[*count + j].layout = cells[i]->spec.layouts > 1 ? (int)cells[i]->spec.layout : COMPARISON_UNKNOWN;
		}
		*count += k;
		free(r);
	}
	return all;
}

int compare_cell_groups(struct cell *const *a, size_t na, struct cell *const *b, size_t nb,
			const struct comparison_policy *pol, struct comparison_result *out)
{
	struct comparison_side A = { 0 }, B = { 0 };
	struct comparison_run *ra = runs_of_cells(a, na, &A.n), *rb = runs_of_cells(b, nb, &B.n);
	A.runs = ra;
	B.runs = rb;
	/* one cell a side: its program (a configuration's layouts are several) */
	struct program_id pa, pb;
	program_id_from_cell(&pa, a[0]);
	program_id_from_cell(&pb, b[0]);
	A.program = na == 1 ? &pa : NULL;
	B.program = nb == 1 ? &pb : NULL;
	int v = comparison_compute(&A, &B, pol, out);
	free(ra);
	free(rb);
	program_id_clear(&pa);
	program_id_clear(&pb);
	return v < 0 || out->method == COMPARISON_NONE ? -1 : 0;
}

struct comparison_run *compare_stored_runs(const struct results_cell *c, double per, int with_rounds, size_t *n)
{
	size_t k = c->time.nruns;
	*n = 0;
	if (!k)
		return NULL;
	struct comparison_run *r = xcalloc(k, sizeof(*r));
	for (size_t i = 0; i < k; i++) {
		double x = c->time.runs[i];
		if (!(x > 0)) {
			free(r);
			return NULL;
		}
		int round = with_rounds && c->rounds && i < c->nrounds ? c->rounds[i] : -1;
		/* a run's state is its run's own: within one run only */
		r[i] = (struct comparison_run){ x / per, round >= 0 ? round : COMPARISON_UNKNOWN, (int)c->pass,
						COMPARISON_UNKNOWN, with_rounds && c->states ? c->states[i] : 0 };
	}
	*n = k;
	return r;
}

/* The machine's move between the two runs; null where it is not measured
 * (one run, or counts). */
static json_t *machine_json(const struct comparison *c)
{
	if (!c->against_machine)
		return json_null();
	const struct comparison_machine *m = &c->machine;
	int out = isfinite(m->shift);
	return json_pack("{s:I, s:i, s:o, s:b, s:o, s:o, s:o, s:I}", "controls", (json_int_t)m->controls, "min_controls",
			 COMPARISON_MIN_CONTROLS, "shift", jnum_or_null(m->shift), "taken_out", out, "spread_percent",
			 out ? json_real(100 * m->spread) : json_null(), "widened_percent",
			 c->machine_sd > 0 ? json_real(100 * c->machine_sd) : json_null(), "between_runs_spread_percent",
			 isfinite(c->between_spread) ? json_real(100 * c->between_spread) : json_null(), "between_runs_ratios",
			 (json_int_t)c->between_ratios);
}

const char *confirm_status_word(enum confirm_status s)
{
	switch (s) {
	case CONFIRM_DONE:
		return "done";
	case CONFIRM_NOTHING:
		return "nothing to confirm";
	case CONFIRM_COUNTS:
		return "counts";
	case CONFIRM_NO_TOOL:
		return "no hyperfine";
	case CONFIRM_NO_WORKDIR:
		return "no work folder";
	case CONFIRM_INTERRUPTED:
		return "interrupted";
	case CONFIRM_NOT_ASKED:
		break;
	}
	return "not asked";
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
		json_object_set_new(j, "same_program", json_boolean(cc->same_program));
		/* the same program in two runs: whether the runs recorded a change of the system */
		json_object_set_new(j, "system_changed", cc->system_note && cc->system_changed >= 0
								 ? json_boolean(cc->system_changed)
								 : json_null());
		/* and whether a library it loads was among it: what --confirm
		 * measures beside the base run's kept libraries */
		json_object_set_new(j, "libraries_changed", json_boolean(cc->system_note && cc->libraries_changed == 1));
		free(note);
		/* two runs by time: the ratio before the machine was taken out */
		int raw = c->against_machine && cc->raw.method != COMPARISON_NONE && isfinite(cc->raw.ratio);
		json_object_set_new(j, "control", json_boolean(cc->control));
		json_object_set_new(j, "raw_ratio", raw ? json_real(cc->raw.ratio) : json_null());
		json_object_set_new(j, "raw_ci95", raw ? json_pack("[f,f]", cc->raw.low, cc->raw.high) : json_null());
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
	if (json_is_object(confirmation))
		json_object_set_new(confirmation, "status", json_string(confirm_status_word(c->confirm_status)));
	char stat[32];
	json_t *root = json_pack("{s:s, s:s, s:s, s:f, s:{s:s, s:s}, s:{s:s, s:s}, s:o, s:o, s:o, s:o, s:o, s:I, s:o}",
			 "schema", "flagbench-compare/2", "metric", metric_name(c->metric), "statistic",
			 c->metric == METRIC_TIME ? stats_statistic_name(c->quantile, stat, sizeof(stat)) : "median",
			 "threshold_percent",
			 c->threshold * 100, "base", "id", c->base_label, "cpu_profile", c->base_profile, "new", "id",
			 c->new_label, "cpu_profile", c->new_profile, "cells", cells, "only_in_base",
			 jstrvec(&c->only_base), "only_in_new", jstrvec(&c->only_new), "counts", counts,
			 "warnings", jstrvec(&c->warnings), "not_run", (json_int_t)c->not_run, "confirmation",
			 confirmation);
	json_object_set_new(root, "machine", machine_json(c));
	return root;
}

