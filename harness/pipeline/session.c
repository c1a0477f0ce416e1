/* session.c: see session.h */
#define _GNU_SOURCE
#include "pipeline/session.h"

#include <pthread.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/heartbeat.h"
#include "core/runcmd.h"
#include "core/util.h"
#include "pipeline/build_progress.h"
#include "pipeline/check_json.h"
#include "pipeline/records.h"

/* A same_as reference the session built (or failed to) for one family. */
struct session_ref {
	struct family *family;
	struct cell cell;
	char *why; /* NULL when built */
};

void session_limits_derive(struct session_limits *l, double run_s, double build_s, double verify_s)
{
	l->run_s = run_s;
	l->build_s = build_s;
	l->verify_s = verify_s > 0 ? verify_s : run_s * SESSION_VERIFY_FACTOR;
	l->count_s = run_s * SESSION_COUNT_FACTOR;
	/* an input is made once per size and may be large: a compile's limit */
	l->input_s = build_s;
}

void session_open(struct session *s, const struct executor *x, const char *cache, unsigned jobs,
		  const struct session_limits *lim)
{
	memset(s, 0, sizeof(*s));
	s->x = x;
	s->cache = cache ? xstrdup(cache) : xasprintf("%s/build/cache", project_root());
	if (!jobs) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		jobs = n > 0 ? (unsigned)n : 1;
	}
	s->jobs = jobs;
	s->lim = *lim;
	s->progress = stderr;
}

struct handoff_gate *session_handoff(struct session *s)
{
	if (!s->x || (s->x->times != EXECUTOR_TIMES_MEASURED && !s->x->handoff_probe))
		return NULL;
	s->handoff.probe = s->x->handoff_probe;
	return &s->handoff;
}

void session_close(struct session *s)
{
	handoff_gate_release(&s->handoff);
	for (size_t i = 0; i < s->nrefs; i++) {
		cell_reset(&s->refs[i].cell);
		cell_spec_clear(&s->refs[i].cell.spec);
		free(s->refs[i].why);
	}
	free(s->refs);
	free(s->cache);
	memset(s, 0, sizeof(*s));
}

/* Pending cells that have a binary were built by an earlier call, or
 * were given one (--binaries-from): only the others are compiled. */
static int build_stage(struct session *s, struct plan *p, struct build_stats *st)
{
	struct build_request rq = { .cache_dir = s->cache, .jobs = s->jobs, .timeout_s = s->lim.build_s,
				    .progress = s->progress, .pretend_s = s->pretend_build_s };
	return s->x->build ? s->x->build(p, &rq, st) : 0;
}

/* A cell of [from, n) that is the same program as an earlier one (plan.h's
 * program identity) is its twin. */
static void dedupe_stage(struct plan *p, size_t from)
{
	for (size_t i = from; i < p->n; i++) {
		struct cell *c = &p->cells[i];
		/* a mock build (--dry-run) has an identity but no file */
		if (!c->build.sha256[0] || c->status != CELL_PENDING || c->build.same_binary_as >= 0)
			continue;
		for (size_t k = 0; k < i; k++) {
			const struct cell *o = &p->cells[k];
			if (o->build.sha256[0] && o->build.same_binary_as < 0 &&
			    (o->status == CELL_PENDING || o->status == CELL_OK) && cells_same_program(o, c)) {
				c->build.same_binary_as = (int)k;
				break;
			}
		}
	}
}

/* The reference of family f's same_as check, built with cell proto's
 * configuration; NULL (and the reason in the entry) when it did not build. */
static struct session_ref *build_reference(struct session *s, struct family *f, const struct cell *proto)
{
	s->refs = xrealloc(s->refs, (s->nrefs + 1) * sizeof(*s->refs));
	struct session_ref *ref = &s->refs[s->nrefs++];
	memset(ref, 0, sizeof(*ref));
	ref->family = f;
	struct cell *c = &ref->cell;
	cell_reset(c);
	cell_spec_copy(&c->spec, &proto->spec);
	struct variant *same = NULL;
	for (size_t i = 0; i < f->nvariants; i++)
		if (!strcmp(f->variants[i].name, f->same_as))
			same = &f->variants[i];
	if (same)
		cell_spec_set_variant(&c->spec, same);
	if (!same || c->spec.cross) {
		ref->why = xasprintf("same_as: no variant %s to build natively", f->same_as);
		return ref;
	}
	if (!c->spec.compiler) {
		/* a cell replayed from its record has a binary, not a build */
		ref->why = xasprintf("same_as: a replayed cell has no build of %s to check against", f->same_as);
		return ref;
	}
	free(c->spec.id);
	c->spec.id = xasprintf("%s/%s@%s", f->name, f->same_as, c->spec.config);
	struct plan one = { .cells = c, .n = 1 };
	struct build_stats bs = { 0 };
	struct build_request rq = { .cache_dir = s->cache, .jobs = 1, .timeout_s = s->lim.build_s,
				    .progress = s->progress, .pretend_s = s->pretend_build_s };
	if (s->x->build)
		s->x->build(&one, &rq, &bs);
	if (c->status != CELL_PENDING || !c->build.binary)
		ref->why = xasprintf("same_as: variant %s did not build with %s: %s", f->same_as, c->spec.config,
				     c->reason ? c->reason : cell_status_name(c->status));
	else
		fprintf(stderr, "flagbench: built %s, the reference of %s's same_as check\n", c->spec.id, f->name);
	return ref;
}

static struct session_ref *ref_of(struct session *s, const struct family *f)
{
	for (size_t i = 0; i < s->nrefs; i++)
		if (s->refs[i].family == f)
			return &s->refs[i];
	return NULL;
}

/* Each same_as family of the pending cells gets its reference binary. */
static void prepare_references(struct session *s, struct plan *p, size_t from)
{
	for (size_t i = from; i < p->n; i++) {
		struct cell *c = &p->cells[i];
		struct family *f = c->spec.family;
		if (c->status != CELL_PENDING || f->check_kind != CHECK_KIND_SAME_AS || c->spec.reference)
			continue;
		struct session_ref *ref = ref_of(s, f);
		if (!f->same_as_binary && !ref) {
			int k = check_json_reference(p, f);
			if (k >= 0)
				f->same_as_binary = xstrdup(p->cells[k].build.binary);
			else
				ref = build_reference(s, f, c);
			if (ref && !ref->why)
				f->same_as_binary = xstrdup(ref->cell.build.binary);
		}
		if (!f->same_as_binary)
			cell_set_status(c, CELL_UNSUPPORTED, "%s", ref && ref->why ? ref->why : "same_as: no reference");
	}
}

static void prepare_stage(struct session *s, struct plan *p, size_t from)
{
	/* the mock builds nothing: there is nothing to prepare */
	if (!s->x->prepare)
		return;
	s->x->prepare(p, s->cache, s->lim.input_s);
	prepare_references(s, p, from);
}

/* What the verification says of one cell. */
enum verdict {
	MEASURE, /* proven: to be timed or counted */
	TWIN,    /* the same program as an earlier cell: its figure is that cell's */
	REFUSED, /* not to be measured: its status says why */
};

static enum verdict verify_one(struct session *s, struct plan *p, struct cell *c)
{
	if (c->status != CELL_PENDING)
		return REFUSED;
	if (c->build.same_binary_as >= 0) {
		const struct cell *src = &p->cells[c->build.same_binary_as];
		if (src->status != CELL_OK && src->status != CELL_PENDING) {
			cell_set_status(c, src->status, "same binary as %s: %s", src->spec.id, src->reason ? src->reason : "");
			return REFUSED;
		}
		return TWIN;
	}
	heartbeat_begin("verifying %s (its output through the check)", c->spec.id);
	int r = s->x->verify(c, s->lim.verify_s);
	heartbeat_end();
	return r == 0 && !fb_interrupted ? MEASURE : REFUSED;
}

int session_find_tool(const struct session *s, char **path)
{
	*path = s->x->tool ? find_on_path(s->x->tool) : NULL;
	return s->x->tool && !*path ? -1 : 0;
}

enum counter_source session_counter_source(const struct session *s, const struct family *f, char *why, size_t n)
{
	if (f->kind != KIND_COMPUTE) {
		snprintf(why, n, "%s is a stream family: instructions are counted for compute families only", f->name);
		return COUNTERS_NONE;
	}
	if (!s->x->count) {
		snprintf(why, n, "the %s executor counts nothing", s->x->name);
		return COUNTERS_NONE;
	}
	return counters_probe(why, n);
}

/* The shared state of count_stage's workers. */
struct counting {
	struct session *s;
	const struct cell *const *cells;
	enum counter_source src;
	json_t **out;
	size_t n, next, done, running;
	double done_s;
	pthread_mutex_t lock;
};

static void *count_worker(void *arg)
{
	struct counting *k = arg;
	for (;;) {
		pthread_mutex_lock(&k->lock);
		size_t i = k->next < k->n && !fb_interrupted ? k->next++ : k->n;
		k->running += i < k->n;
		pthread_mutex_unlock(&k->lock);
		if (i >= k->n)
			return NULL;
		double t0 = now_monotonic();
		json_t *j = k->s->x->count(k->cells[i], k->src, k->s->lim.count_s);
		pthread_mutex_lock(&k->lock);
		k->out[i] = j;
		k->done++;
		k->running--;
		k->done_s += now_monotonic() - t0;
		pthread_mutex_unlock(&k->lock);
	}
}

/* "counting: 3 of 6 done, 2 running after 50s; eta 40s" */
static void count_line(struct counting *k, double t0, unsigned jobs)
{
	pthread_mutex_lock(&k->lock);
	size_t done = k->done, running = k->running;
	double mean = done ? k->done_s / (double)done : -1;
	pthread_mutex_unlock(&k->lock);
	char spent[32], eta[32] = "?";
	format_duration(now_monotonic() - t0, spent, sizeof(spent));
	if (mean >= 0)
		format_duration(mean * (double)(k->n - done) / jobs, eta, sizeof(eta));
	if (!k->s->progress)
		return; /* quiet: the heartbeat names the counting instead */
	heartbeat_spoke();
	fprintf(k->s->progress, "flagbench: counting: %zu of %zu done, %zu running after %s; counts eta %s\n", done, k->n,
		running, spent, eta);
}

/* "not counted in chacha20 (6 of 6 builds): WHY", once per family, each
 * reason once: a count line must not say what did not happen. */
static void not_counted_lines(FILE *progress, const struct cell *const *cells, json_t *const *out, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct family *fam = cells[i]->spec.family;
		int first = 1;
		for (size_t j = 0; j < i && first; j++)
			first = cells[j]->spec.family != fam;
		if (!first)
			continue;
		size_t builds = 0, missed = 0;
		struct strvec whys = STRVEC_INIT;
		for (size_t j = i; j < n; j++) {
			if (cells[j]->spec.family != fam)
				continue;
			builds++;
			const char *why = json_string_value(json_object_get(out[j], "skipped"));
			if (!why)
				continue;
			missed++;
			if (!sv_contains(&whys, why))
				sv_push(&whys, why);
		}
		if (missed) {
			fprintf(progress, "flagbench: not counted in %s (%zu of %zu build%s): ", fam && fam->name ? fam->name : "?",
				missed, builds, builds == 1 ? "" : "s");
			for (size_t w = 0; w < whys.n; w++)
				fprintf(progress, "%s%s", w ? "; " : "", whys.v[w]);
			fprintf(progress, "\n");
		}
		sv_clear(&whys);
	}
}

/* Counts cells[0..n) with src, s->jobs at once, each one's JSON into
 * out[i] (NULL where the executor counts nothing, or after an interrupt). */
static void count_cells(struct session *s, const struct cell *const *cells, size_t n, enum counter_source src,
			json_t **out)
{
	for (size_t i = 0; i < n; i++)
		out[i] = NULL;
	if (!s->x->count || !n)
		return;
	unsigned jobs = s->jobs ? s->jobs : 1;
	if (jobs > n)
		jobs = (unsigned)n;
	struct counting k = { .s = s, .cells = cells, .src = src, .out = out, .n = n };
	pthread_mutex_init(&k.lock, NULL);
	if (s->progress)
		fprintf(s->progress, "flagbench: counting %zu build%s, %u at a time (%s)\n", n, n == 1 ? "" : "s", jobs,
			counter_source_name(src));
	double t0 = now_monotonic(), last = t0;
	pthread_t *t = xcalloc(jobs, sizeof(*t));
	unsigned started = 0;
	for (unsigned i = 0; i < jobs; i++)
		started += pthread_create(&t[started], NULL, count_worker, &k) == 0;
	if (!started)
		count_worker(&k); /* no thread to be had: count here */
	for (;;) {
		pthread_mutex_lock(&k.lock);
		int all = k.done == k.n || (fb_interrupted && !k.running);
		pthread_mutex_unlock(&k.lock);
		if (all)
			break;
		struct timespec ts = { 0, 100 * 1000 * 1000 };
		nanosleep(&ts, NULL);
		if (now_monotonic() - last >= BUILD_PROGRESS_S) {
			count_line(&k, t0, jobs);
			last = now_monotonic();
		}
	}
	for (unsigned i = 0; i < started; i++)
		pthread_join(t[i], NULL);
	free(t);
	pthread_mutex_destroy(&k.lock);
	if (s->progress && n) {
		char spent[32];
		format_duration(now_monotonic() - t0, spent, sizeof(spent));
		size_t skipped = 0;
		for (size_t i = 0; i < n; i++)
			skipped += out[i] && json_object_get(out[i], "skipped");
		fprintf(s->progress, "flagbench: counted %zu of %zu in %s", k.done - skipped, n, spent);
		if (skipped)
			fprintf(s->progress, "; %zu could not be counted", skipped);
		fprintf(s->progress, "\n");
		not_counted_lines(s->progress, cells, out, n);
	}
}

/* Whether the caller has cell i's figure already (session_batch.known). */
static int known(const struct session_batch *b, const struct plan *p, size_t i)
{
	return b->known && b->known(b->ctx, p, i);
}

/* Every distinct pending program of the batch verified, then the twins
 * given their source's verdict; the proven ones listed in b->measure. */
static void verify_stage(struct session *s, struct plan *p, struct session_batch *b)
{
	double t0 = now_monotonic();
	b->measure = xcalloc(p->n - b->from + 1, sizeof(*b->measure));
	b->nmeasure = 0;
	for (size_t i = b->from; i < p->n && !fb_interrupted; i++) {
		struct cell *c = &p->cells[i];
		if (c->build.same_binary_as >= 0 || c->status != CELL_PENDING || known(b, p, i))
			continue;
		b->verified++;
		if (verify_one(s, p, c) == MEASURE && c->status == CELL_PENDING)
			b->measure[b->nmeasure++] = i;
	}
	/* a twin after its source, whose verdict it takes */
	for (size_t i = b->from; i < p->n; i++)
		if (p->cells[i].build.same_binary_as >= 0)
			verify_one(s, p, &p->cells[i]);
	b->verify_s = now_monotonic() - t0;
}

/* The verified compute cells counted, each into its measure.counters. */
static void count_stage(struct session *s, struct plan *p, struct session_batch *b)
{
	double t0 = now_monotonic();
	const struct cell **todo = xcalloc(b->nmeasure + 1, sizeof(*todo));
	json_t **out = xcalloc(b->nmeasure + 1, sizeof(*out));
	size_t n = 0;
	for (size_t k = 0; k < b->nmeasure; k++) {
		const struct cell *c = &p->cells[b->measure[k]];
		if (c->spec.family->kind == KIND_COMPUTE && c->build.binary &&
		    c->measure.counters.state == COUNTERS_NOT_RUN)
			todo[n++] = c;
	}
	/* quiet: no counting lines, so the heartbeat names the counting */
	FILE *progress = s->progress;
	if (b->quiet) {
		s->progress = NULL;
		heartbeat_begin("counting %zu build%s (%s)", n, n == 1 ? "" : "s", counter_source_name(b->counters));
	}
	count_cells(s, todo, n, b->counters, out);
	if (b->quiet)
		heartbeat_end();
	s->progress = progress;
	for (size_t k = 0; k < n; k++) {
		if (!out[k])
			continue; /* not counted: the executor counts nothing, or an interrupt */
		struct cell *c = (struct cell *)todo[k];
		cell_counters_free(&c->measure.counters);
		cell_counters_from_json(&c->measure.counters, out[k]);
		json_decref(out[k]);
	}
	free(todo);
	free(out);
	b->count_s = now_monotonic() - t0;
}

int session_ready(struct session *s, struct plan *p, struct session_batch *b)
{
	int r = 0;
	if (b->reached < SESSION_BUILT && b->upto >= SESSION_BUILT) {
		double t0 = now_monotonic();
		if (!b->stored)
			r = build_stage(s, p, &b->built);
		dedupe_stage(p, b->from);
		prepare_stage(s, p, b->from);
		b->build_s = now_monotonic() - t0;
		b->reached = SESSION_BUILT;
	}
	if (b->reached == SESSION_BUILT && b->upto >= SESSION_VERIFIED) {
		verify_stage(s, p, b);
		b->reached = SESSION_VERIFIED;
	}
	if (b->reached == SESSION_VERIFIED && b->upto >= SESSION_COUNTED) {
		count_stage(s, p, b);
		b->reached = SESSION_COUNTED;
	}
	return r;
}

void session_batch_release(struct session_batch *b)
{
	free(b->measure);
	b->measure = NULL;
	b->nmeasure = 0;
}
