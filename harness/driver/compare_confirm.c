/* compare_confirm.c: see compare_confirm.h */
#define _GNU_SOURCE
#include "driver/compare_confirm.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/config.h"
#include "config/family.h"
#include "core/json_util.h"
#include "core/runcmd.h"
#include "core/util.h"
#include "pipeline/executor.h"
#include "pipeline/measure.h"
#include "pipeline/schedule.h"
#include "pipeline/session.h"
#include "results/baseline.h"
#include "results/beside.h"
#include "results/ratio_drift.h"
#include "results/reader.h"
#include "results/replay.h"
#include "system/cooldown.h"

struct confirm_opts {
	unsigned rounds;
	enum confirm_which which;
	double alarm_rate; /* fraction: the family-wise false-alarm rate */
	struct session *session; /* the executor, the limits and the handoff gate of every replay */
	/* the run's cooldown policy (cooldown.h): a pause before each cell,
	 * between its runs only where a sensor follows the temperature */
	struct cooldown_policy cool;
	uint64_t pipe_size;
	const char *consumer, *consumer_wait;
};

/* FNV-1a of the cell id: the seed of its rounds' order, so one cell is
 * confirmed in the same order every time */
static unsigned long long cell_seed(const char *id)
{
	return fnv1a(FNV1A_OFFSET, id, strlen(id));
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
		/* a cell measured only because its program changed was not suspected */
		int suspect = compare_suspected(cc->first, &cc->ci, o->threshold);
		cc->note = xasprintf("%s after %u interleaved rounds%s: %.3fx [%.3fx, %.3fx] at %s %%%s",
				     cc->verdict == VERDICT_SLOWER ? "confirmed" : suspect ? "not confirmed" : "measured again",
				     rounds, compare_library_step(cc) ? " of the same binary, each on its run's kept libraries" : "",
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

/* What every cell's confirmation shares: the two runs, their families,
 * the settings, the level and the work folder. */
struct confirm_job {
	const struct results_run *base, *nw;
	const char *base_dir, *new_dir;
	struct family *fams;
	size_t nfams;
	const struct confirm_opts *co;
	const struct compare_opts *o;
	double level, quantile;
	const char *hyperfine; /* the executor's program; NULL for one that drives none (the mock) */
	const char *work;
};

/* The reference of a same_as check for replayed cell c: the run's kept
 * build of the same_as variant with c's configuration (BASE's, else
 * NEW's), replayed into *ref; 0, or -1 where neither run kept one (the
 * session then says so). */
static int replay_reference(struct cell *ref, const struct cell *c, const struct confirm_job *job)
{
	const struct family *f = c->spec.family;
	const char *at = strchr(c->spec.id, '@');
	if (f->check_kind != CHECK_KIND_SAME_AS || !f->same_as || !at || !c->spec.variant ||
	    !strcmp(c->spec.variant->name, f->same_as))
		return -1;
	char *id = xasprintf("%s/%s%s", f->name, f->same_as, at), why[256];
	int r = -1;
	for (int side = 0; side < 2 && r < 0; side++) {
		const struct results_cell *rec = results_cell_by_id(side ? job->nw : job->base, id);
		if (rec)
			r = replay_cell_init(ref, rec, side ? job->new_dir : job->base_dir, job->fams, job->nfams, why,
					     sizeof(why));
		if (r < 0)
			replay_cell_free(ref);
	}
	free(id);
	/* the reference is the check's, not a cell to measure: never pending */
	if (r == 0)
		ref->status = CELL_OK;
	return r;
}

/* Both replayed cells through the session as any build is (stored: not
 * compiled; then prepared and verified, a same_as check against the
 * run's kept reference), so a binary whose output is wrong is reported,
 * not timed: 0 when both are to be timed, else -1 with why. */
static int confirm_ready(struct session *s, struct cell *cells, const struct confirm_job *job, char *why, size_t n)
{
	struct plan p = { .cells = cells, .n = 2 };
	if (replay_reference(&cells[2], &cells[0], job) == 0)
		p.n = 3;
	struct session_batch b = { .upto = SESSION_VERIFIED, .stored = 1 };
	session_ready(s, &p, &b);
	size_t measured = b.nmeasure;
	session_batch_release(&b);
	if (measured == 2)
		return 0;
	const struct cell *bad = cells[0].status != CELL_PENDING ? &cells[0] : &cells[1];
	if (bad->status == CELL_PENDING)
		snprintf(why, n, "interrupted");
	else
		snprintf(why, n, "%s: %s: %s", bad == &cells[0] ? "base" : "new", cell_status_name(bad->status),
			 bad->reason ? bad->reason : "");
	return -1;
}

static void confirm_cell(struct cell_cmp *cc, const struct confirm_job *job)
{
	const struct results_run *base = job->base, *nw = job->nw;
	const char *base_dir = job->base_dir, *new_dir = job->new_dir, *work = job->work;
	const struct confirm_opts *co = job->co;
	struct cell ab[3]; /* base, new and a same_as reference; each freed whatever was replayed */
	memset(ab, 0, sizeof(ab));
	struct cell *a = &ab[0], *b = &ab[1];
	char why[512] = "";
	const struct results_cell *ra = results_cell_by_id(base, cc->id), *rb = results_cell_by_id(nw, cc->id);
	int ok = replay_cell_init(a, ra, base_dir, job->fams, job->nfams, why, sizeof(why)) == 0 &&
		 replay_cell_init(b, rb, new_dir, job->fams, job->nfams, why, sizeof(why)) == 0;
	/* a library step: the one binary, each side on its run's libraries */
	char *libs_a = compare_library_step(cc) ? xasprintf("%s/libs-base", work) : NULL;
	char *libs_b = libs_a ? xasprintf("%s/libs-new", work) : NULL;
	if (ok && libs_a) {
		char w[400];
		ok = replay_cell_libraries(a, ra, base_dir, libs_a, w, sizeof(w)) == 0 &&
		     replay_cell_libraries(b, rb, new_dir, libs_b, w, sizeof(w)) == 0;
		if (!ok)
			snprintf(why, sizeof(why), "the same binary on each run's libraries: %s", w);
	}
	ok = ok && confirm_ready(co->session, ab, job, why, sizeof(why)) == 0;
	char *old_note = cc->note;
	if (!ok) {
		cc->note = xasprintf("not confirmed: %s", why);
		goto out;
	}
	double below = NAN, max_wait = 0;
	cooldown_between_runs(&co->cool, &below, &max_wait);
	struct measure_opts mo = {
		.hyperfine = job->hyperfine,
		.workdir = work,
		.run_timeout_s = co->session->lim.run_s,
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
	struct cell *cells[] = { a, b };
	struct schedule sc = {
		.policy = &pol,
		.x = co->session->x,
		.mo = &mo,
		.cells = cells,
		.n = 2,
		.tally = { .cooldown_s = &cc->confirm_cooldown_s },
		.handoff = session_handoff(co->session),
	};
	fprintf(stderr, "flagbench: confirming %s: %u rounds, as many A B as B A, shuffled\n", cc->id, co->rounds);
	enum schedule_status st = schedule_run(&sc);
	if (st == SCHEDULE_STOPPED) {
		const struct cell *bad = a->status != CELL_PENDING ? a : b;
		cc->note = xasprintf("not confirmed: %s: %s", bad == a ? "base" : "new",
				     bad->reason ? bad->reason : "measuring failed");
		goto out;
	}
	if (st == SCHEDULE_WAS_INTERRUPTED || a->measure.time.n != co->rounds || b->measure.time.n != co->rounds) {
		cc->note = xstrdup("not confirmed: interrupted");
		goto out;
	}
	confirm_verdict(cc, a, b, job->level, job->o, job->quantile, co->rounds);
	/* an open answer gets the rounds again, up to CONFIRM_EXTENSIONS times,
	 * and is decided on all of them (runs go where an answer is undecided) */
	for (unsigned k = 1; k <= CONFIRM_EXTENSIONS && cc->verdict == VERDICT_INCONCLUSIVE && !fb_interrupted; k++) {
		pol.round_base = k * co->rounds;
		pol.seed = cell_seed(cc->id) + k;
		pol.warmup = 0;
		pol.pause = SCHEDULE_PAUSE_NONE;
		fprintf(stderr, "flagbench: %s still open: %u rounds more\n", cc->id, co->rounds);
		if (schedule_run(&sc) != SCHEDULE_DONE || a->measure.time.n != (k + 1) * co->rounds ||
		    b->measure.time.n != (k + 1) * co->rounds)
			break;
		if (cc->note != old_note)
			free(cc->note);
		confirm_verdict(cc, a, b, job->level, job->o, job->quantile, (k + 1) * co->rounds);
	}
out:
	if (cc->note != old_note)
		free(old_note);
	replay_cell_free(a);
	replay_cell_free(b);
	replay_cell_free(&ab[2]);
	if (libs_a) {
		remove_tree(libs_a);
		remove_tree(libs_b);
	}
	free(libs_a);
	free(libs_b);
}

/* Every cell to confirm, with the reason it was not where nothing could be. */
static void not_confirmed(struct comparison *cmp, const struct compare_opts *o, enum confirm_which which,
			  const char *why)
{
	for (size_t i = 0; i < cmp->n; i++) {
		struct cell_cmp *cc = &cmp->cells[i];
		if (!compare_confirm_wanted(cc, o->threshold, which))
			continue;
		char *n = cc->note ? xasprintf("%s; not confirmed: %s", cc->note, why) : xasprintf("not confirmed: %s", why);
		free(cc->note);
		cc->note = n;
	}
}

/* A folder for the replays' scratch files, under $TMPDIR (else /tmp);
 * NULL with errno. */
static char *confirm_workdir(void)
{
	const char *tmp = getenv("TMPDIR");
	char *tmpl = xasprintf("%s/flagbench-confirm-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(tmpl)) {
		int e = errno;
		free(tmpl);
		errno = e;
		return NULL;
	}
	return tmpl;
}

static int confirm_slower(struct comparison *cmp, const struct results_run *base, const struct results_run *nw,
			  const struct confirm_opts *co, const struct compare_opts *o)
{
	size_t suspects = 0;
	cmp->confirm_rounds = co->rounds;
	cmp->alarm_rate = co->alarm_rate;
	for (size_t i = 0; i < cmp->n; i++)
		suspects += compare_confirm_wanted(&cmp->cells[i], o->threshold, co->which);
	cmp->confirm_status = CONFIRM_NOTHING;
	if (!suspects)
		return 0;
	if (o->metric != METRIC_TIME) {
		cmp->confirm_status = CONFIRM_COUNTS;
		sv_pushf(&cmp->warnings, "--confirm measures times: %s counts are not measured again",
			 metric_name(o->metric));
		return 0;
	}
	struct confirm_job job = { .base = base, .nw = nw, .base_dir = base->dir, .new_dir = nw->dir, .co = co, .o = o,
				   .quantile = cmp->quantile };
	char *tool = NULL;
	if (session_find_tool(co->session, &tool) < 0) {
		cmp->confirm_status = CONFIRM_NO_TOOL;
		sv_push(&cmp->warnings, "--confirm needs hyperfine (not on PATH): no cell is confirmed");
		not_confirmed(cmp, o, co->which, "hyperfine is not on PATH");
		return 0;
	}
	job.hyperfine = tool;
	/* every cell at the level that keeps the comparison's chance of a
	 * false alarm at --alarm-rate (confirm_level) */
	cmp->confirm_cells = suspects;
	cmp->confirm_level = confirm_level(co->alarm_rate, suspects);
	char *work = confirm_workdir();
	if (!work) {
		char why[320];
		snprintf(why, sizeof(why), "cannot make a work folder for the replays in %s: %s",
			 getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", strerror(errno));
		cmp->confirm_status = CONFIRM_NO_WORKDIR;
		sv_pushf(&cmp->warnings, "--confirm: %s", why);
		not_confirmed(cmp, o, co->which, why);
		free(tool);
		return 0;
	}
	job.work = work;
	/* the runs' own family folders too, wherever they live */
	struct family *fams = NULL;
	int nfams = load_families_of_runs(base, nw, &fams);
	if (nfams < 0) {
		remove_tree(work);
		free(work);
		free(tool);
		return -1;
	}
	job.fams = fams;
	job.nfams = (size_t)nfams;
	job.level = cmp->confirm_level;
	install_interrupt_handler();
	for (size_t i = 0; i < cmp->n && !fb_interrupted; i++)
		if (compare_confirm_wanted(&cmp->cells[i], o->threshold, co->which))
			confirm_cell(&cmp->cells[i], &job);
	cmp->confirm_status = fb_interrupted ? CONFIRM_INTERRUPTED : CONFIRM_DONE;
	remove_tree(work);
	free(work);
	for (int i = 0; i < nfams; i++)
		free_family(&fams[i]);
	free(fams);
	free(tool);
	comparison_recount(cmp);
	return 0;
}

/* The cooldown policy NEW's run took (run.cooldown: the profile's with
 * --cooldown or the suite's pause applied); its profile's for older runs. */
static void profile_cooldown(const struct results_run *run, struct cooldown_policy *p)
{
	const struct results_cooldown *c = &run->settings.cooldown;
	double s = c->seconds, below = c->below_celsius, max_wait = c->max_wait_seconds;
	struct cooldown_spec spec = { s > 0 ? s : 0, below > 0 ? below : NAN, max_wait > s ? max_wait : s > 0 ? s : 0 };
	cooldown_policy_init(p, &spec, c->override, "/");
}

/* BASE as given, or the stored baseline of NEW's cpu profile; NULL when
 * that baseline does not exist. */
static char *base_path_of(const struct compare_request *rq, const struct results_run *nw)
{
	if (!rq->baseline)
		return xstrdup(rq->base);
	const char *prof = nw->cpu_profile;
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
static int confirm_with_run_settings(const struct compare_request *rq, struct comparison *cmp,
				     const struct results_run *base, const struct results_run *nw)
{
	/* the run's own --consumer / --consumer-wait / --pipe-size, so the replay drains
	 * streams the same way (the cells record only a crossed consumer) */
	const char *consumer = results_run_option(nw, "consumer");
	uint64_t pipe = 0;
	const char *ps = results_run_option(nw, "pipe-size");
	if (ps && parse_u64(ps, &pipe) < 0)
		pipe = 0;
	struct confirm_opts cf = { .rounds = rq->confirm,
				   .which = rq->confirm_changed ? CONFIRM_EVERY_CHANGED : CONFIRM_CHANGED_NOT_SAME,
				   .alarm_rate = rq->alarm_rate, .pipe_size = pipe, .consumer = consumer,
				   .consumer_wait = results_run_option(nw, "consumer-wait") };
	profile_cooldown(nw, &cf.cool);
	struct session s;
	session_open(&s, rq->executor ? rq->executor : &executor_hyperfine, NULL, 1, &rq->lim);
	cf.session = &s;
	int r = confirm_slower(cmp, base, nw, &cf, &rq->opts);
	/* the mock's made-up confirmations say so */
	if (s.x->warning && cmp->confirm_cells)
		sv_pushf(&cmp->warnings, "--confirm: %s", s.x->warning);
	session_close(&s);
	return r;
}

static const char *sha256_of(const struct results_run *run, const char *id)
{
	const struct results_cell *c = results_cell_by_id(run, id);
	return c ? c->sha256 : NULL;
}

/* --record: the cells measured again, as NEW's "beside" (results/beside.h):
 * the history takes them as the measured size of a step between the two
 * runs. */
static int record_beside(const struct compare_request *rq, const struct comparison *cmp,
			 const struct results_run *base, const struct results_run *nw)
{
	const char *base_id = base->id[0] ? base->id : NULL;
	if (!base_id)
		return error("--record: BASE has no run.id: what was measured beside it cannot be named");
	struct beside_cell *cells = xcalloc(cmp->n + 1, sizeof(*cells));
	size_t n = 0;
	for (size_t i = 0; i < cmp->n; i++) {
		const struct cell_cmp *cc = &cmp->cells[i];
		if (!cc->confirmed)
			continue;
		cells[n++] = (struct beside_cell){
			.cell = cc->id,
			.base_sha256 = sha256_of(base, cc->id),
			.sha256 = sha256_of(nw, cc->id),
			.verdict = comparison_verdict_word(cc->confirm.verdict),
			.rounds = (unsigned)cc->confirmed,
			.ratio = cc->confirm.ratio,
			.low = cc->confirm.low,
			.high = cc->confirm.high,
			.level = cc->confirm_level,
			.libraries = compare_library_step(cc),
		};
	}
	int r = results_record_beside(rq->new_run, base_id, rq->opts.threshold, rq->alarm_rate, cells, n);
	free(cells);
	if (r == 0)
		fprintf(stderr, "flagbench: %zu cell%s measured beside %s, recorded in %s\n", n, n == 1 ? "" : "s", base_id,
			rq->new_run);
	return r;
}

/* How far one binary's time moves between runs on NEW's host, from the
 * runs beside it (results/ratio_drift.h time_spread): what two runs with
 * too few unchanged programs are widened by. */
static void between_spread_of(const struct results_run *nw, struct compare_opts *o)
{
	o->between_spread = NAN;
	o->between_ratios = 0;
	if (o->metric != METRIC_TIME)
		return;
	struct between_runs b;
	results_between_runs(nw, &b);
	o->between_spread = b.time_spread;
	o->between_ratios = b.time_ratios;
	results_between_release(&b);
}

int compare_main(const struct compare_request *rq, struct comparison *out)
{
	int r = -1;
	struct results_run base, nw;
	int have_base = 0, have_new = 0;
	char *base_path = NULL;
	memset(out, 0, sizeof(*out));
	have_new = results_open(rq->new_run, &nw) == 0;
	if (!have_new)
		goto out;
	base_path = base_path_of(rq, &nw);
	if (!base_path)
		goto out;
	have_base = results_open(base_path, &base) == 0;
	if (!have_base)
		goto out;
	struct compare_opts opts = rq->opts;
	between_spread_of(&nw, &opts);
	compare_runs(&base, &nw, &opts, out);
	if (rq->confirm && confirm_with_run_settings(rq, out, &base, &nw) < 0)
		goto out;
	if (rq->record && record_beside(rq, out, &base, &nw) < 0)
		goto out;
	r = 0;
out:
	if (have_base)
		results_close(&base);
	if (have_new)
		results_close(&nw);
	free(base_path);
	return r;
}
