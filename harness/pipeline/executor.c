/* executor.c: see executor.h */
#define _GNU_SOURCE
#include "pipeline/executor.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/runcmd.h"
#include "pipeline/build_progress.h"
#include "pipeline/inputs.h"
#include "pipeline/records.h"
#include "pipeline/verify.h"

/* --- the real executor --- */

static int real_verify(struct cell *c, double timeout_s)
{
	double t0 = now_monotonic();
	int v = verify_cell(c, timeout_s);
	c->verify.seconds = now_monotonic() - t0;
	c->verify.status = v == 0 ? VERIFY_PASSED : VERIFY_FAILED;
	return v;
}

static int real_measure(struct cell *c, const struct measure_opts *o, double *cooldown_s, double *spent_s)
{
	double t0 = now_monotonic();
	int v = measure_cell(c, o, cooldown_s);
	*spent_s = now_monotonic() - t0 - *cooldown_s;
	return v;
}

/* The wait as a `flagbench cooldown` child (runcmd: its own group, a
 * limit, reaped), so it shows in ps and dies with the run. */
static int real_pause(const struct cooldown_policy *p, const struct measure_opts *o, struct cooldown_record *rec)
{
	struct cooldown_spec s;
	if (!cooldown_before_cell_spec(p, &s))
		return 0;
	char *log = xasprintf("%s/before.jsonl", o->workdir);
	unlink(log);
	struct strvec argv = STRVEC_INIT;
	cooldown_argv(&s, log, 0, &argv);
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	struct child_exit ex;
	double limit = (s.max_wait_seconds > s.seconds ? s.max_wait_seconds : s.seconds) + 30;
	run_capture(argv.v, CHILD_DEVNULL, limit, 4096, &out, &err, &ex);
	char *text = read_file(log, NULL);
	json_t *j = text ? json_loads(text, 0, NULL) : NULL;
	int paused = j && cooldown_record_from_json(rec, j) == 0;
	json_decref(j);
	free(text);
	unlink(log);
	free(log);
	sb_release(&out);
	sb_release(&err);
	sv_clear(&argv);
	return paused;
}

const struct executor executor_hyperfine = {
	.name = "hyperfine",
	.times = EXECUTOR_TIMES_MEASURED,
	.tool = "hyperfine",
	.build = build_plan,
	.prepare = inputs_prepare,
	.verify = real_verify,
	.measure = real_measure,
	.pause = real_pause,
	.count = counters_measure,
};

/* --- the mock executor (--dry-run) --- */

static int mock_probe_march(struct compiler *c, const char *march, char *why, size_t n)
{
	return 1; /* no compiler is run in a dry run */
}

/* The progress lines (build_progress.h) of compiles that each take
 * rq->pretend_s seconds, rq->jobs at once, on a pretend clock stepped by a
 * second: what a slow build would print, at once. */
static void mock_build_clock(const struct build_request *rq, const struct strvec *ids)
{
	unsigned jobs = rq->jobs ? rq->jobs : 1;
	struct build_progress bp;
	build_progress_begin(&bp, rq->progress, ids->n, 0, jobs, 0);
	struct build_running *run = xcalloc(jobs, sizeof(*run));
	size_t next = 0, nrun = 0;
	for (double now = 0;; now += 1) {
		for (size_t k = 0; k < nrun;)
			if (now - run[k].started >= rq->pretend_s) {
				build_progress_finished(&bp, now - run[k].started, 1);
				run[k] = run[--nrun];
			} else {
				k++;
			}
		while (nrun < jobs && next < ids->n)
			run[nrun++] = (struct build_running){ ids->v[next++], now };
		if (!nrun) {
			build_progress_end(&bp, now);
			break;
		}
		build_progress_tick(&bp, now, run, nrun);
	}
	free(run);
}

/* Compiles nothing: a cell's pretend binary is known by what a compile
 * would read (compiler, flags, family, variant and its defines, the
 * layout's code pad, pgo), so identical builds are one binary as real
 * ones would be (session.h dedupes them), and no file is written. */
static int mock_build(struct plan *p, const struct build_request *rq, struct build_stats *st)
{
	memset(st, 0, sizeof(*st));
	struct strvec ids = STRVEC_INIT; /* the first cell of each pretend compile */
	for (size_t i = 0; i < p->n; i++) {
		struct cell *c = &p->cells[i];
		if (c->status != CELL_PENDING || !c->spec.variant || c->build.sha256[0])
			continue;
		struct strbuf b = STRBUF_INIT;
		sb_addf(&b, "%s\n%s\n%s\n", c->spec.compiler ? c->spec.compiler->name : "", c->spec.family->name,
			c->spec.variant->name);
		for (size_t k = 0; k < c->spec.cflags.n; k++)
			sb_addf(&b, "%s\n", c->spec.cflags.v[k]);
		for (size_t k = 0; k < c->spec.variant->defines.n; k++)
			sb_addf(&b, "-D%s\n", c->spec.variant->defines.v[k]);
		sb_addf(&b, "pad %u pgo %d\n", c->spec.code_pad, c->spec.pgo);
		sha256_hex(b.buf, b.len, c->build.sha256);
		sb_release(&b);
		int seen = 0;
		for (size_t k = 0; k < i && !seen; k++)
			seen = p->cells[k].build.sha256[0] && !strcmp(p->cells[k].build.sha256, c->build.sha256) &&
			       p->cells[k].status == CELL_PENDING;
		if (!seen)
			sv_push(&ids, c->spec.id);
		st->compiled++;
	}
	if (rq->pretend_s > 0)
		mock_build_clock(rq, &ids);
	sv_clear(&ids);
	return 0;
}

static int mock_verify(struct cell *c, double timeout_s)
{
	return 0; /* nothing built, nothing to prove: c->verify stays not_run */
}

/* The last round trip the made-up probe read (NAN: none). */
static double mock_handoff_ns = NAN;

static enum handoff_status mock_handoff_probe(int cpu_a, int cpu_b, unsigned trips, double *ns, struct strbuf *why)
{
	static size_t next;
	const char *list = getenv("FLAGBENCH_MOCK_HANDOFF");
	if (!list || !*list) {
		sb_addf(why, "no made-up probe (FLAGBENCH_MOCK_HANDOFF)");
		return HANDOFF_UNAVAILABLE;
	}
	/* "NS" once, "NS*K" K probes in a row */
	size_t n = 0;
	for (const char *p = list; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
		char *end;
		strtod(p, &end);
		n += *end == '*' ? strtoul(end + 1, NULL, 10) : 1;
	}
	size_t k = n ? next++ % n : 0;
	for (const char *p = list; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
		char *end;
		double v = strtod(p, &end);
		size_t times = *end == '*' ? strtoul(end + 1, NULL, 10) : 1;
		if (k < times) {
			*ns = mock_handoff_ns = v;
			return HANDOFF_MEASURED;
		}
		k -= times;
	}
	sb_addf(why, "FLAGBENCH_MOCK_HANDOFF reads no round trip");
	return HANDOFF_UNAVAILABLE;
}

/* Times derived from the cell id, the same in every dry run; they are
 * also what the batch spent, so the budgets behave as they would and
 * tests can watch them. */
static int mock_measure(struct cell *c, const struct measure_opts *o, double *cooldown_s, double *spent_s)
{
	char hex[65];
	sha256_hex(c->spec.id, strlen(c->spec.id), hex);
	unsigned long h = strtoul(hex + 56, NULL, 16);
	double base = 0.05 + (double)(h % 1000) / 4000.0;
	double *t = xmalloc((o->runs + 1) * sizeof(double));
	size_t seen = o->append ? c->measure.time.n : 0;
	*spent_s = 0;
	/* a made-up probe's state slows every stream cell alike; a compute
	 * cell, never probed, is not moved by the last stream's */
	if (mock_handoff_ns > 0 && c->spec.family->kind != KIND_COMPUTE)
		base *= 1 + mock_handoff_ns / 1000;
	mock_handoff_ns = NAN;
	for (unsigned i = 0; i < o->runs; i++) {
		t[i] = base * (1.0 + 0.01 * (double)((h >> ((seen + i) % 24)) % 5) / 4.0);
		*spent_s += t[i];
	}
	measure_store_times(c, o, t, o->runs);
	free(t);
	*cooldown_s = 0;
	return 0;
}

/* The pause is recorded, not taken. */
static double mock_sleep(double seconds)
{
	return seconds;
}

static int mock_pause(const struct cooldown_policy *p, const struct measure_opts *o, struct cooldown_record *rec)
{
	return cooldown_before_cell(p, "/", mock_sleep, rec);
}

const struct executor executor_mock = {
	.name = "mock",
	.times = EXECUTOR_TIMES_MADE_UP,
	.warning = "dry run: nothing was compiled or timed; the times are made up by the mock executor",
	.probe_march = mock_probe_march,
	.build = mock_build,
	.verify = mock_verify,
	.measure = mock_measure,
	.pause = mock_pause,
	.handoff_probe = mock_handoff_probe,
};
