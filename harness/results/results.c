/* results.c: see results.h */
#define _GNU_SOURCE
#include "results/results.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/json_util.h"
#include "pipeline/records.h"

/* A time interval [low, high] around the time point as the interval of
 * the rate it gives: the slow end of the time is its low end. */
static json_t *rate_interval(double rate, double point, double low, double high, double level)
{
	return json_pack("{s:o, s:o, s:f}", "low", jnum_or_null(rate * point / high), "high",
			 jnum_or_null(rate * point / low), "level", level);
}

double cell_rate(const struct cell *c, double *lo, double *hi)
{
	double work;
	if (c->status != CELL_OK || !c->measure.time.n || !(c->measure.time.point > 0))
		return NAN;
	if (c->spec.family->kind == KIND_STREAM)
		work = c->spec.expected_bytes != UINT64_MAX ? (double)c->spec.expected_bytes : NAN;
	else
		work = (double)c->spec.size;
	if (lo)
		*lo = work / c->measure.time.max;
	if (hi)
		*hi = work / c->measure.time.min;
	return work / c->measure.time.point;
}


/* The measured cell behind this one (itself, or the identical binary). */
static const struct cell *measured_cell(const struct cell *c, const struct plan *p)
{
	return c->build.same_binary_as >= 0 ? &p->cells[c->build.same_binary_as] : c;
}

/* The same cell with the glibc allocator: the same build, run alike. */
static const struct cell *glibc_twin(const struct plan *p, const struct cell *c)
{
	for (size_t k = 0; k < p->n; k++) {
		const struct cell_spec *g = &p->cells[k].spec;
		if (!strcmp(g->allocator, "glibc") && cell_spec_same_build(g, &c->spec) &&
		    cell_spec_same_run(g, &c->spec))
			return &p->cells[k];
	}
	return NULL;
}

void compute_speedups(struct plan *p)
{
	for (size_t i = 0; i < p->n; i++) {
		struct cell *c = &p->cells[i];
		c->speedup = NAN;
		c->vs_glibc = NAN;
		if (c->status == CELL_OK && c->spec.variant && c->spec.allocator && strcmp(c->spec.allocator, "glibc")) {
			const struct cell *g = glibc_twin(p, c);
			double rg = g && g->status == CELL_OK ? cell_rate(measured_cell(g, p), NULL, NULL) : NAN;
			double rc = cell_rate(measured_cell(c, p), NULL, NULL);
			if (rg > 0 && rc > 0)
				c->vs_glibc = rc / rg;
		}
		if (c->status != CELL_OK || !c->spec.variant)
			continue;
		for (size_t k = 0; k < p->n; k++) {
			struct cell *b = &p->cells[k];
			if (b->spec.family == c->spec.family && b->spec.variant && c->spec.family->baseline &&
			    !strcmp(b->spec.variant->name, c->spec.family->baseline) &&
			    !strcmp(b->spec.config, c->spec.config) && b->status == CELL_OK) {
				double rb = cell_rate(measured_cell(b, p), NULL, NULL);
				double rc = cell_rate(measured_cell(c, p), NULL, NULL);
				if (rb > 0 && rc > 0)
					c->speedup = rc / rb;
				break;
			}
		}
	}
}

static json_t *pins_json(const struct cell *c)
{
	const struct pins *pin = &c->spec.pin;
	if (c->spec.family->kind == KIND_STREAM)
		return json_pack("{s:o, s:o}", "producer", pin->producer >= 0 ? json_integer(pin->producer) : json_null(),
				 "consumer", pin->consumer >= 0 ? json_integer(pin->consumer) : json_null());
	return json_pack("{s:o}", "single", pin->single >= 0 ? json_integer(pin->single) : json_null());
}

/* The spec part of a cell: what the plan decided. */
static void spec_to_json(json_t *j, const struct cell_spec *s)
{
	const struct family *f = s->family;
	json_object_set_new(j, "id", json_string(s->id));
	json_object_set_new(j, "family", json_string(f->name));
	json_object_set_new(j, "variant", json_string(s->variant ? s->variant->name : s->reference->name));
	json_object_set_new(j, "title", json_string(s->variant ? s->variant->title : s->reference->title));
	json_object_set_new(j, "kind", json_string(family_kind_name(f->kind)));
	json_object_set_new(j, "config", json_string(s->config));
	json_object_set_new(j, "compiler", json_string(s->compiler ? s->compiler->name : "none"));
	json_object_set_new(j, "compiler_version", jstr_or_null(s->compiler ? s->compiler->version : NULL));
	/* the language of the variant's sources, and the driver run for it (g++ for C++) */
	json_object_set_new(j, "language", s->variant ? json_string(source_lang_name(s->variant->lang)) : json_null());
	json_object_set_new(j, "driver", jstr_or_null(s->compiler ? s->compiler->path : NULL));
	json_object_set_new(j, "opt", jstr_or_null(s->opt));
	json_object_set_new(j, "march", jstr_or_null(s->march));
	json_object_set_new(j, "cflags", jstrvec(&s->cflags));
	/* flag sets (issue 13): the set's name, or null in suites without "flags" */
	json_object_set_new(j, "flags", jstr_or_null(s->flagset));
	json_object_set_new(j, "allocator", json_string(s->allocator ? s->allocator : "glibc"));
	json_object_set_new(j, "size", json_integer((json_int_t)s->size));
	json_object_set_new(j, "unit", json_string(f->unit));
	json_object_set_new(j, "argv", jstrvec(&s->run_args));
	json_object_set_new(j, "bytes", f->kind == KIND_STREAM && s->expected_bytes != UINT64_MAX
						? json_integer((json_int_t)s->expected_bytes)
						: json_null());
	/* emulated times are not comparable with native ones */
	json_object_set_new(j, "emulated", json_boolean(s->cross != NULL));
	json_object_set_new(j, "placement", jstr_or_null(s->placement));
	json_object_set_new(j, "consumer", jstr_or_null(s->consumer));
	/* layouts (plan.h): which of K, and how it was padded */
	json_object_set_new(j, "layout", s->layouts > 1 ? json_pack("{s:i, s:i, s:i, s:i}", "index", (int)s->layout, "of",
								   (int)s->layouts, "code_pad_bytes", (int)s->code_pad,
								   "env_pad_bytes", (int)s->env_pad)
						 : json_null());
}

/* The round of each run (schedule.h) and its place in the round beside the
 * runs, and the pass: what the paired comparison pairs by
 * (analysis/comparison.h). */
static void rounds_to_json(json_t *time_s, const struct cell_measurement *m)
{
	json_t *rounds = json_null(), *places = json_null();
	if (m->nrounds == m->time.n && m->nrounds) {
		rounds = json_array();
		places = json_array();
		for (size_t i = 0; i < m->nrounds; i++) {
			json_array_append_new(rounds, m->rounds[i] >= 0 ? json_integer(m->rounds[i]) : json_null());
			json_array_append_new(places, m->places && m->places[i] >= 0 ? json_integer(m->places[i]) : json_null());
		}
	}
	json_object_set_new(time_s, "rounds", rounds);
	json_object_set_new(time_s, "places", places);
	json_object_set_new(time_s, "pass", json_integer((json_int_t)m->pass));
}

/* time_s, and the rate it gives: throughput_Bps (stream) or rate (compute). */
static void time_to_json(json_t *j, const struct cell *c, const struct cell *m)
{
	const struct family *f = c->spec.family;
	if (c->status != CELL_OK || !m->measure.time.n) {
		json_object_set_new(j, "time_s", json_null());
		json_object_set_new(j, "throughput_Bps", json_null());
		json_object_set_new(j, "rate", json_null());
		return;
	}
	const struct stats *t = &m->measure.time;
	json_t *time_s = stats_to_json(t);
	rounds_to_json(time_s, &m->measure);
	json_object_set_new(j, "time_s", time_s);
	double lo, hi, r = cell_rate(m, &lo, &hi);
	char name[32];
	/* value: the rate of the statistic's time; median: of the median time */
	json_t *rate = json_pack("{s:s, s:o, s:o, s:o, s:o}", "statistic",
				 stats_statistic_name(t->quantile, name, sizeof(name)), "value", jnum_or_null(r), "median",
				 jnum_or_null(r * t->point / t->median), "min", jnum_or_null(lo), "max", jnum_or_null(hi));
	/* the interval of the statistic's time, as a rate (ci95 only where it
	 * reaches 95 %), and where a rerun's rate falls (stats.h) */
	if (t->n >= 3) {
		json_object_set_new(rate, t->ci_level >= STATS_CI_TARGET ? "ci95" : "ci",
				    rate_interval(r, t->point, t->ci_low, t->ci_high, t->ci_level));
		json_object_set_new(rate, "rerun", rate_interval(r, t->point, t->rerun_low, t->rerun_high, t->rerun_level));
	}
	static const char *precision_names[] = { "off", "reached", "not_reached" };
	const struct cell_precision *pr = &m->measure.precision;
	json_object_set_new(j, "precision",
			    pr->status == PRECISION_OFF ? json_null()
			    : json_pack("{s:s, s:f, s:f, s:f}", "status", precision_names[pr->status], "target_percent",
					pr->target_percent, "budget_s", pr->budget_s, "spent_s", pr->spent_s));
	if (f->kind == KIND_STREAM) {
		json_object_set_new(j, "throughput_Bps", rate);
		json_object_set_new(j, "rate", json_null());
	} else {
		json_object_set_new(rate, "unit", json_string(f->rate_unit));
		json_object_set_new(j, "throughput_Bps", json_null());
		json_object_set_new(j, "rate", rate);
	}
}

static json_t *counters_json(const struct cell_counters *k)
{
	if (k->state == COUNTERS_SKIPPED)
		return json_pack("{s:s}", "skipped", k->why ? k->why : "");
	if (k->state != COUNTERS_COUNTED)
		return json_null();
	return json_pack("{s:s, s:I, s:s, s:o, s:o}", "source", k->source ? k->source : "", "size",
			 (json_int_t)k->size, "unit", k->unit ? k->unit : "", "cycles_per_unit",
			 jnum_or_null(k->cycles_per_unit), "instructions_per_unit", jnum_or_null(k->instructions_per_unit));
}

static json_t *thermal_json(const struct cell_thermal *t)
{
	return json_pack("{s:s, s:s, s:O?, s:O?}", "throttled", throttle_verdict_name(t->throttled), "why",
			 t->why ? t->why : "", "before", t->before, "after", t->after);
}

/* Where the host had a stream cell's CPUs before each batch
 * (system/handoff.h), and the cell's figure in each state it ran in. */
static json_t *handoff_json(const struct cell_measurement *m)
{
	const struct cell_handoff *h = &m->handoff;
	json_t *readings = json_array(), *levels = json_array(), *states = json_array();
	for (size_t b = 0; b < h->batches; b++)
		json_array_append_new(readings, json_pack("{s:o, s:I, s:I}", "ns", jnum_or_null(h->batch[b].ns), "runs",
							  (json_int_t)h->batch[b].runs, "state",
							  (json_int_t)h->batch[b].state));
	for (unsigned g = 0; g < h->states && g < LEVELS_MAX; g++)
		json_array_append_new(levels, json_real(h->level_ns[g]));
	unsigned *st;
	unsigned k = cell_run_states(m, &st);
	double *v = xmalloc((m->time.n + 1) * sizeof(*v));
	for (unsigned g = 1; g <= k; g++) {
		size_t n = 0;
		for (size_t r = 0; r < m->time.n; r++)
			if (st[r] == g)
				v[n++] = m->time.runs[r];
		if (!n)
			continue;
		struct stats t;
		stats_compute_at(&t, v, n, m->time.quantile);
		json_array_append_new(states, json_pack("{s:I, s:I, s:f, s:f, s:f, s:f}", "state", (json_int_t)g, "runs",
							(json_int_t)n, "point", t.point, "low", t.ci_low, "high",
							t.ci_high, "level", t.ci_level));
		stats_free(&t);
	}
	free(v);
	free(st);
	return json_pack("{s:I, s:o, s:o, s:o}", "batches", (json_int_t)h->batches, "readings", readings, "levels_ns",
			 levels, "states", states);
}

static const char *const verify_names[] = { [VERIFY_NOT_RUN] = "not_run", [VERIFY_PASSED] = "passed",
					    [VERIFY_FAILED] = "failed" };

/* "details": what came with the times, for the record. */
static json_t *details_json(const struct cell *c, const struct cell *m)
{
	const struct cell_measurement *me = &m->measure;
	json_t *d = json_object();
	if (me->nruns || me->time.n) {
		json_t *runs = json_array();
		for (size_t i = 0; i < me->nruns; i++) {
			const struct meter_run *r = &me->runs[i];
			json_array_append_new(runs, json_pack("{s:I, s:f, s:s, s:s, s:s, s:s}", "bytes",
							      (json_int_t)r->bytes, "seconds", r->seconds, "producer",
							      r->producer, "status", r->status, "consumer", r->consumer,
							      "wait", r->wait));
		}
		json_object_set_new(d, "meter_runs", runs);
	}
	if (me->ncooldown) {
		json_t *cool = json_array();
		for (size_t i = 0; i < me->ncooldown; i++)
			json_array_append_new(cool, cooldown_record_to_json(&me->cooldown[i]));
		json_object_set_new(d, "cooldown", cool);
	}
	if (me->thermal.taken)
		json_object_set_new(d, "thermal", thermal_json(&me->thermal));
	if (me->counters.state != COUNTERS_NOT_RUN)
		json_object_set_new(d, "counters", counters_json(&me->counters));
	if (me->handoff.batches)
		json_object_set_new(d, "handoff", handoff_json(me));
	if (isfinite(me->user_s))
		json_object_set_new(d, "user_s", json_real(me->user_s));
	if (isfinite(me->system_s))
		json_object_set_new(d, "system_s", json_real(me->system_s));
	if (c->verify.status != VERIFY_NOT_RUN)
		json_object_set_new(d, "verify", json_pack("{s:s, s:f}", "status", verify_names[c->verify.status],
							   "seconds", c->verify.seconds));
	return d;
}

json_t *cell_to_json(const struct cell *c, const struct plan *p)
{
	json_t *j = json_object();
	spec_to_json(j, &c->spec);
	json_object_set_new(j, "pin", pins_json(c));
	json_object_set_new(j, "status", json_string(cell_status_name(c->status)));
	json_object_set_new(j, "reason", jstr_or_null(c->reason));
	/* a binary that exists has bytes; the mock's pretend binary (--dry-run)
	 * has none and is not recorded: nothing was built */
	if (c->build.sha256[0] && c->build.bytes)
		json_object_set_new(j, "binary", json_pack("{s:s, s:I}", "sha256", c->build.sha256, "bytes",
							   (json_int_t)c->build.bytes));
	else
		json_object_set_new(j, "binary", json_null());
	/* what the binary loads: the history names a library that changed */
	if (c->build.libraries && json_is_object(json_object_get(j, "binary")))
		json_object_set(json_object_get(j, "binary"), "libraries", c->build.libraries);
	json_object_set_new(j, "text_bytes", c->build.text_bytes ? json_integer((json_int_t)c->build.text_bytes)
								 : json_null());
	/* the training run of a profiled build: recorded, never the cell's time */
	json_object_set_new(j, "pgo", c->spec.pgo ? json_pack("{s:I, s:o}", "train_size", (json_int_t)c->spec.train_size,
							       "train_s", jnum_or_null(c->build.train_s))
						   : json_null());
	json_object_set_new(j, "same_binary_as", c->build.same_binary_as >= 0
							 ? json_string(p->cells[c->build.same_binary_as].spec.id)
							 : json_null());
	/* a cell that shares an identical binary shows the measured one's figures */
	const struct cell *m = measured_cell(c, p);
	const struct cell_measurement *me = &m->measure;
	time_to_json(j, c, m);
	json_object_set_new(j, "counters", counters_json(&me->counters));
	/* throttle flag and temperatures, lifted from the thermal record */
	json_object_set_new(j, "throttled",
			    me->thermal.taken ? json_string(throttle_verdict_name(me->thermal.throttled)) : json_null());
	json_object_set_new(j, "temperature_c",
			    me->thermal.taken ? json_pack("{s:o, s:o}", "before", jnum_or_null(me->thermal.celsius_before),
							  "after", jnum_or_null(me->thermal.celsius_after))
					      : json_null());
	jset_num(j, "speedup", c->speedup);
	/* allocator suites: the rate against the same build under glibc malloc */
	if (c->spec.allocator && strcmp(c->spec.allocator, "glibc"))
		jset_num(j, "vs_glibc", c->vs_glibc);
	json_object_set_new(j, "warnings", jstrvec(&c->warnings));
	json_t *d = details_json(c, m);
	if (json_object_size(d))
		json_object_set_new(j, "details", d);
	else
		json_decref(d);
	return j;
}

/* ---- the parser: the inverse of the serializer above ---- */

static void thermal_from_json(struct cell_thermal *t, const json_t *j, const json_t *celsius)
{
	if (!json_is_object(j))
		return;
	const char *v = json_string_value(json_object_get(j, "throttled"));
	t->taken = 1;
	t->throttled = !v ? THROTTLE_UNKNOWN : !strcmp(v, "yes") ? THROTTLE_YES : !strcmp(v, "no") ? THROTTLE_NO
												   : THROTTLE_UNKNOWN;
	t->why = record_string(json_object_get(j, "why"));
	t->celsius_before = jnum(celsius, "before");
	t->celsius_after = jnum(celsius, "after");
	t->before = json_incref(json_object_get(j, "before"));
	t->after = json_incref(json_object_get(j, "after"));
}

int *results_per_run(const json_t *time_s, const char *key, size_t nruns)
{
	json_t *a = json_object_get(time_s, key);
	if (!json_is_array(a) || json_array_size(a) != nruns || !nruns)
		return NULL;
	int *v = xmalloc(nruns * sizeof(*v));
	for (size_t r = 0; r < nruns; r++) {
		json_t *x = json_array_get(a, r);
		v[r] = json_is_integer(x) ? (int)json_integer_value(x) : -1;
	}
	return v;
}

static void handoff_from_json(struct cell_handoff *h, const json_t *j)
{
	json_t *r = json_object_get(j, "readings"), *l = json_object_get(j, "levels_ns"), *x;
	size_t i;
	json_array_foreach(r, i, x)
		cell_handoff_add(h, jnum(x, "ns"), (unsigned)json_integer_value(json_object_get(x, "runs")),
				 (unsigned)json_integer_value(json_object_get(x, "state")));
	json_array_foreach(l, i, x)
		if (i < LEVELS_MAX) {
			h->level_ns[i] = json_number_value(x);
			h->states = (unsigned)i + 1;
		}
}

static void measurement_from_json(struct cell_measurement *m, const json_t *j)
{
	json_t *d = json_object_get(j, "details");
	json_t *time = json_object_get(j, "time_s");
	if (json_is_object(time))
		stats_from_json(&m->time, time);
	m->rounds = results_per_run(time, "rounds", m->time.n);
	if (m->rounds) {
		m->places = results_per_run(time, "places", m->time.n);
		if (!m->places) {
			m->places = xmalloc(m->time.n * sizeof(*m->places));
			for (size_t r = 0; r < m->time.n; r++)
				m->places[r] = -1;
		}
		m->nrounds = m->time.n;
	}
	m->pass = (unsigned)json_integer_value(json_object_get(time, "pass"));
	json_t *prec = json_object_get(j, "precision");
	const char *ps = json_string_value(json_object_get(prec, "status"));
	if (ps) {
		m->precision.status = !strcmp(ps, "reached") ? PRECISION_REACHED : PRECISION_NOT_REACHED;
		m->precision.target_percent = json_number_value(json_object_get(prec, "target_percent"));
		m->precision.budget_s = json_number_value(json_object_get(prec, "budget_s"));
		m->precision.spent_s = json_number_value(json_object_get(prec, "spent_s"));
	}
	m->user_s = jnum(d, "user_s");
	m->system_s = jnum(d, "system_s");
	size_t i;
	json_t *e;
	json_t *runs = json_object_get(d, "meter_runs");
	m->runs = xcalloc(json_array_size(runs) + 1, sizeof(*m->runs));
	json_array_foreach(runs, i, e) if (meter_run_from_json(&m->runs[m->nruns], e) == 0) m->nruns++;
	json_t *cool = json_object_get(d, "cooldown");
	m->cooldown = xcalloc(json_array_size(cool) + 1, sizeof(*m->cooldown));
	json_array_foreach(cool, i, e) if (cooldown_record_from_json(&m->cooldown[m->ncooldown], e) == 0) m->ncooldown++;
	thermal_from_json(&m->thermal, json_object_get(d, "thermal"), json_object_get(j, "temperature_c"));
	cell_counters_from_json(&m->counters, json_object_get(j, "counters"));
	handoff_from_json(&m->handoff, json_object_get(d, "handoff"));
}

int cell_from_json(struct cell *c, const json_t *j, const struct plan *p)
{
	enum cell_status s;
	const char *st = json_string_value(json_object_get(j, "status"));
	if (!st || cell_status_parse(st, &s) < 0)
		return -1;
	cell_reset(c);
	c->status = s;
	c->reason = record_string(json_object_get(j, "reason"));
	size_t i;
	json_t *e;
	json_array_foreach(json_object_get(j, "warnings"), i, e) if (json_is_string(e)) sv_push(&c->warnings,
												 json_string_value(e));
	json_t *bin = json_object_get(j, "binary");
	const char *sha = json_string_value(json_object_get(bin, "sha256"));
	snprintf(c->build.sha256, sizeof(c->build.sha256), "%s", sha ? sha : "");
	c->build.bytes = (uint64_t)json_integer_value(json_object_get(bin, "bytes"));
	json_t *libs = json_object_get(bin, "libraries");
	c->build.libraries = json_is_array(libs) ? json_incref(libs) : NULL;
	c->build.text_bytes = (uint64_t)json_integer_value(json_object_get(j, "text_bytes"));
	c->build.train_s = jnum(json_object_get(j, "pgo"), "train_s");
	/* the twin's own line carries the measurement; this one's copy is used
	 * only when the twin is no longer in the plan */
	const char *same = json_string_value(json_object_get(j, "same_binary_as"));
	for (size_t k = 0; same && k < p->n; k++)
		if (!strcmp(p->cells[k].spec.id, same))
			c->build.same_binary_as = (int)k;
	json_t *ver = json_object_get(json_object_get(j, "details"), "verify");
	const char *vs = json_string_value(json_object_get(ver, "status"));
	for (int v = VERIFY_NOT_RUN; vs && v <= VERIFY_FAILED; v++)
		if (!strcmp(vs, verify_names[v]))
			c->verify.status = (enum verify_status)v;
	c->verify.seconds = json_number_value(json_object_get(ver, "seconds"));
	measurement_from_json(&c->measure, j);
	return 0;
}

static json_t *phases_json(const struct run_state *rs)
{
	double total = (rs->finished ? rs->finished_wall - rs->started_wall : now_wall() - rs->started_wall);
	const struct phases *ph = &rs->phases;
	double known = ph->plan_s + ph->build_s + ph->verify_s + ph->measure_s + ph->cooldown_s + ph->count_s;
	return json_pack("{s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f}", "plan_s", ph->plan_s, "build_s", ph->build_s,
			 "verify_s", ph->verify_s, "count_s", ph->count_s, "measure_s", ph->measure_s, "cooldown_s",
			 ph->cooldown_s, "total_s", total, "other_s", total - known > 0 ? total - known : 0.0);
}

json_t *results_to_json(const struct run_state *rs)
{
	char started[32], finished[32];
	format_utc(rs->started_wall, started, sizeof(started));
	format_utc(rs->finished_wall, finished, sizeof(finished));
	json_t *run = json_object();
	json_object_set_new(run, "id", json_string(rs->id));
	if (rs->name)
		json_object_set_new(run, "name", json_string(rs->name));
	json_object_set_new(run, "started", json_string(started));
	json_object_set_new(run, "finished", rs->finished ? json_string(finished) : json_null());
	json_object_set_new(run, "interrupted", json_boolean(rs->interrupted));
	json_object_set(run, "argv", rs->argv);
	json_object_set_new(run, "suite", json_string(rs->suite->name));
	json_object_set_new(run, "suite_path", json_string(rs->suite->path));
	json_object_set_new(run, "cpu_profile", json_string(rs->cpu_profile->name));
	if (rs->matrix)
		json_object_set(run, "matrix", rs->matrix);
	if (rs->earlier_dir)
		json_object_set_new(run, "earlier_runs_dir", json_string(rs->earlier_dir));
	if (rs->earlier_any_host)
		json_object_set_new(run, "earlier_runs_of", json_string("cpu"));
	if (rs->shard.of) {
		json_t *at = json_array();
		for (size_t i = 0; i < rs->plan->n; i++)
			json_array_append_new(at, json_integer((json_int_t)rs->shard_cells[i]));
		json_object_set_new(run, "shard", json_pack("{s:i, s:i, s:s, s:I, s:o}", "index", (int)rs->shard.index, "of",
							     (int)rs->shard.of, "plan_sha256", rs->plan_sha256,
							     "plan_cells", (json_int_t)rs->plan_cells, "plan_index", at));
	}
	char name[32];
	json_object_set_new(run, "statistic", json_string(stats_statistic_name(rs->quantile, name, sizeof(name))));
	json_object_set_new(run, "warnings", jstrvec(&rs->warnings));
	json_object_set_new(run, "phases", phases_json(rs));
	/* the cooldown as taken: the profile's with --cooldown or the suite's pause applied */
	if (rs->cool) {
		const struct cooldown_spec *cs = &rs->cool->spec;
		json_object_set_new(run, "cooldown",
				    json_pack("{s:f, s:o, s:f, s:b}", "seconds", cs->seconds, "below_celsius",
					      jnum_or_null(cs->below_celsius > 0 ? cs->below_celsius : NAN), "max_wait_seconds",
					      cs->max_wait_seconds, "override", rs->cool->override));
	}
	const struct run_drift *d = &rs->drift;
	/* no rounds counted yet: still measuring, or a command without rounds */
	const char *why = d->why ? d->why : d->rounds ? NULL : "not measured (yet)";
	json_object_set_new(run, "drift",
			    why ? json_pack("{s:n, s:n, s:I, s:I, s:s}", "sd_percent", "widen_percent", "rounds",
					    (json_int_t)d->rounds, "cells", (json_int_t)d->cells, "why", why)
				   : json_pack("{s:f, s:f, s:I, s:I, s:n}", "sd_percent", 100 * d->sd, "widen_percent",
					       100 * (exp(STATS_DRIFT_SIGMAS * d->sd) - 1), "rounds", (json_int_t)d->rounds,
					       "cells", (json_int_t)d->cells, "why"));

	json_object_set_new(run, "steal",
			    json_pack("{s:o, s:o}", "percent", jnum_or_null(100 * rs->steal_share), "worst_round_percent",
				      jnum_or_null(100 * rs->steal_worst)));
	json_t *fams = json_object();
	json_t *cells = json_array();
	for (size_t i = 0; i < rs->plan->n; i++) {
		const struct cell *c = &rs->plan->cells[i];
		const struct family *f = c->spec.family;
		if (!json_object_get(fams, f->name))
			json_object_set_new(fams, f->name,
					    json_pack("{s:s, s:s, s:s, s:s, s:o, s:I, s:o}", "title", f->title, "check", f->check, "kind",
						      family_kind_name(f->kind), "unit", f->unit, "baseline", jstr_or_null(f->baseline),
						      "size", (json_int_t)c->spec.size, "rate_unit",
						      f->rate_unit ? json_string(f->rate_unit) : json_string("B/s")));
		/* where the family came from, so that the commands that rebuild or
		 * replay its cells find it wherever it lives (reader.h) */
		if (f->dir && !json_object_get(json_object_get(fams, f->name), "dir")) {
			char *abs = realpath(f->dir, NULL);
			json_object_set_new(json_object_get(fams, f->name), "dir", json_string(abs ? abs : f->dir));
			free(abs);
		}
		json_t *kept = rs->kept_families ? json_object_get(rs->kept_families, f->name) : NULL;
		if (kept && !json_object_get(json_object_get(fams, f->name), "kept"))
			json_object_update(json_object_get(fams, f->name), kept);
		if (f->version && !json_object_get(json_object_get(fams, f->name), "version"))
			json_object_set_new(json_object_get(fams, f->name), "version", json_string(f->version));
		json_array_append_new(cells, cell_to_json(c, rs->plan));
	}
	return json_pack("{s:s, s:s, s:o, s:O, s:O, s:O, s:o, s:o}", "schema", RESULTS_SCHEMA, "flagbench_version",
			 FLAGBENCH_VERSION " (" FLAGBENCH_GIT ")", "run", run, "host", rs->host, "tools", rs->tools,
			 "profile", rs->profile, "families", fams, "cells", cells);
}

int results_write_document(const char *path, const json_t *doc)
{
	char *text = json_dumps(doc, JSON_INDENT(1) | JSON_SORT_KEYS | JSON_REAL_PRECISION(10));
	if (!text)
		return error("cannot encode results");
	struct strbuf sb = STRBUF_INIT;
	sb_adds(&sb, text);
	sb_adds(&sb, "\n");
	int r = write_file_atomic(path, sb.buf, sb.len);
	sb_release(&sb);
	free(text);
	return r;
}

int results_write(const struct run_state *rs)
{
	json_t *doc = results_to_json(rs);
	char *path = xasprintf("%s/results.json", rs->dir);
	int r = results_write_document(path, doc);
	json_decref(doc);
	free(path);
	return r;
}

int results_journal_append(const struct run_state *rs, const struct cell *c)
{
	json_t *j = cell_to_json(c, rs->plan);
	char *line = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(10));
	json_decref(j);
	char *path = xasprintf("%s/journal.jsonl", rs->dir);
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	int r = 0;
	if (fd < 0) {
		r = error("cannot open %s: %s", path, strerror(errno));
	} else {
		struct strbuf sb = STRBUF_INIT;
		sb_adds(&sb, line);
		sb_adds(&sb, "\n");
		/* one write per line: O_APPEND keeps a line whole; a short write
		 * (a full disk) is cut back off, so no torn line is left */
		off_t before = lseek(fd, 0, SEEK_END);
		ssize_t w = write(fd, sb.buf, sb.len);
		if (w != (ssize_t)sb.len || fsync(fd) < 0) {
			int e = w < 0 ? errno : w != (ssize_t)sb.len ? ENOSPC : errno;
			if (before >= 0 && ftruncate(fd, before) < 0)
				e = errno;
			r = error("cannot append to %s: %s", path, strerror(e));
		}
		sb_release(&sb);
		close(fd);
	}
	free(line);
	free(path);
	return r;
}

int results_resume(struct plan *p, const char *dir)
{
	char *path = xasprintf("%s/journal.jsonl", dir);
	char *text = read_file(path, NULL);
	if (!text && errno == ENOENT) {
		/* interrupted before its first cell finished: nothing is done yet */
		free(path);
		return 0;
	}
	if (!text) {
		int r = error("cannot resume from %s: %s", path, strerror(errno));
		free(path);
		return r;
	}
	/* A torn last line (killed during an append) would glue itself to the
	 * next cell's line: cut the journal back to its last whole line. */
	size_t len = strlen(text);
	if (len && text[len - 1] != '\n') {
		char *nl = strrchr(text, '\n');
		off_t keep = nl ? (off_t)(nl - text + 1) : 0;
		if (truncate(path, keep) < 0) {
			int r = error("cannot repair the torn last line of %s: %s", path, strerror(errno));
			free(text);
			free(path);
			return r;
		}
		warning("%s: dropped a torn last line (%zu bytes); that cell runs again", path, len - (size_t)keep);
	}
	int restored = 0;
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		json_t *j = json_loads(line, 0, NULL);
		if (!j)
			continue; /* a torn last line after a crash */
		const char *id = json_string_value(json_object_get(j, "id"));
		const char *st = json_string_value(json_object_get(j, "status"));
		enum cell_status s;
		/* interrupted or skipped cells run again */
		if (!id || !st || cell_status_parse(st, &s) < 0 || s == CELL_SKIPPED || s == CELL_PENDING) {
			json_decref(j);
			continue;
		}
		for (size_t i = 0; i < p->n; i++) {
			struct cell *c = &p->cells[i];
			/* a later line of the same cell replaces an earlier one */
			int again = c->origin == CELL_FROM_JOURNAL;
			if (strcmp(c->spec.id, id) || cell_from_json(c, j, p) < 0)
				continue;
			restored += !again;
			c->origin = CELL_FROM_JOURNAL;
		}
		json_decref(j);
	}
	free(text);
	free(path);
	return restored;
}
