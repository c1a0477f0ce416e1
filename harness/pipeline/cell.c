/* cell.c: the cell record's part of plan.h: its status, its reset and
 * the freeing of what it measured, and the copy, variant and clearing of
 * its spec (plan.c builds the plan from them). */
#define _GNU_SOURCE
#include "pipeline/plan.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const status_names[] = {
	[CELL_PENDING] = "pending",	    [CELL_OK] = "ok",		      [CELL_BUILD_FAILED] = "build_failed",
	[CELL_UNSUPPORTED] = "unsupported", [CELL_WRONG_OUTPUT] = "wrong_output", [CELL_CRASHED] = "crashed",
	[CELL_TIMEOUT] = "timeout",	    [CELL_SKIPPED] = "skipped",	      [CELL_FAILED] = "failed",
};

const char *cell_status_name(enum cell_status s)
{
	return status_names[s];
}

int cell_status_parse(const char *name, enum cell_status *out)
{
	for (size_t i = 0; i < sizeof(status_names) / sizeof(status_names[0]); i++)
		if (!strcmp(status_names[i], name)) {
			*out = (enum cell_status)i;
			return 0;
		}
	return -1;
}

int cell_status_failed(enum cell_status s)
{
	return s == CELL_BUILD_FAILED || s == CELL_WRONG_OUTPUT || s == CELL_CRASHED || s == CELL_FAILED ||
	       s == CELL_TIMEOUT;
}

void cell_set_status(struct cell *c, enum cell_status s, const char *fmt, ...)
{
	c->status = s;
	free(c->reason);
	c->reason = NULL;
	if (fmt) {
		char buf[2048];
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(buf, sizeof(buf), fmt, ap);
		va_end(ap);
		c->reason = xstrdup(buf);
	}
}

void cell_counters_free(struct cell_counters *k)
{
	free(k->source);
	free(k->unit);
	free(k->why);
	memset(k, 0, sizeof(*k));
	k->cycles_per_unit = k->instructions_per_unit = NAN;
}

void cell_thermal_free(struct cell_thermal *t)
{
	free(t->why);
	json_decref(t->before);
	json_decref(t->after);
	memset(t, 0, sizeof(*t));
	t->throttled = THROTTLE_UNKNOWN;
	t->celsius_before = t->celsius_after = NAN;
}

void cell_handoff_clear(struct cell_handoff *h)
{
	free(h->batch);
	memset(h, 0, sizeof(*h));
}

void cell_handoff_add(struct cell_handoff *h, double ns, unsigned runs, unsigned state)
{
	if (h->batches == h->cap)
		h->batch = xrealloc(h->batch, (h->cap = h->cap ? 2 * h->cap : 16) * sizeof(*h->batch));
	h->batch[h->batches++] = (struct handoff_batch){ ns, runs, state };
}

unsigned cell_run_states(const struct cell_measurement *m, unsigned **states)
{
	const struct cell_handoff *h = &m->handoff;
	size_t covered = 0;
	for (size_t b = 0; b < h->batches; b++)
		covered += h->batch[b].runs;
	*states = NULL;
	if (!h->batches || !h->states || covered > m->time.n)
		return 0;
	unsigned *s = xcalloc(m->time.n + 1, sizeof(*s));
	size_t r = m->time.n - covered;
	for (size_t b = 0; b < h->batches; b++)
		for (unsigned k = 0; k < h->batch[b].runs; k++)
			s[r++] = h->batch[b].state;
	*states = s;
	return h->states;
}

void meter_run_free(struct meter_run *r)
{
	free(r->producer);
	free(r->status);
	free(r->consumer);
	free(r->wait);
}

static void measurement_free(struct cell_measurement *m)
{
	stats_free(&m->time);
	for (size_t i = 0; i < m->nruns; i++)
		meter_run_free(&m->runs[i]);
	free(m->runs);
	free(m->cooldown);
	free(m->rounds);
	free(m->places);
	m->rounds = m->places = NULL;
	m->nrounds = 0;
	m->pass = 0;
	cell_thermal_free(&m->thermal);
	cell_counters_free(&m->counters);
	cell_handoff_clear(&m->handoff);
	memset(&m->time, 0, sizeof(m->time));
	m->runs = NULL;
	m->nruns = 0;
	m->cooldown = NULL;
	m->ncooldown = 0;
	m->user_s = m->system_s = NAN;
}

void cell_reset(struct cell *c)
{
	free(c->reason);
	sv_clear(&c->warnings);
	free(c->build.binary);
	json_decref(c->build.libraries);
	measurement_free(&c->measure);
	c->status = CELL_PENDING;
	c->reason = NULL;
	c->origin = CELL_FROM_THIS_RUN;
	memset(&c->build, 0, sizeof(c->build));
	c->build.same_binary_as = -1;
	c->build.train_s = NAN;
	memset(&c->verify, 0, sizeof(c->verify));
	c->speedup = NAN;
	c->vs_glibc = NAN;
}

void cell_spec_clear(struct cell_spec *s)
{
	free(s->id);
	free(s->config);
	free(s->opt);
	free(s->march);
	free(s->allocator);
	free(s->flagset);
	free(s->profdata);
	free(s->placement);
	free(s->consumer);
	free(s->preload);
	sv_clear(&s->cflags);
	sv_clear(&s->run_args);
	sv_clear(&s->loader);
}

void cell_spec_copy(struct cell_spec *dst, const struct cell_spec *src)
{
	*dst = *src;
	dst->id = src->id ? xstrdup(src->id) : NULL;
	dst->config = src->config ? xstrdup(src->config) : NULL;
	dst->opt = src->opt ? xstrdup(src->opt) : NULL;
	dst->march = src->march ? xstrdup(src->march) : NULL;
	dst->allocator = src->allocator ? xstrdup(src->allocator) : NULL;
	dst->flagset = src->flagset ? xstrdup(src->flagset) : NULL;
	dst->profdata = src->profdata ? xstrdup(src->profdata) : NULL;
	dst->placement = src->placement ? xstrdup(src->placement) : NULL;
	dst->consumer = src->consumer ? xstrdup(src->consumer) : NULL;
	dst->preload = src->preload ? xstrdup(src->preload) : NULL;
	memset(&dst->cflags, 0, sizeof(dst->cflags));
	memset(&dst->run_args, 0, sizeof(dst->run_args));
	memset(&dst->loader, 0, sizeof(dst->loader));
	sv_pushv(&dst->cflags, src->cflags.v);
	sv_pushv(&dst->run_args, src->run_args.v);
	sv_pushv(&dst->loader, src->loader.v);
}

/* Removes every word equal to w. */
static void drop_word(struct strvec *sv, const char *w)
{
	size_t k = 0;
	for (size_t i = 0; i < sv->n; i++) {
		if (!strcmp(sv->v[i], w))
			free(sv->v[i]);
		else
			sv->v[k++] = sv->v[i];
	}
	sv->n = k;
	if (sv->v)
		sv->v[k] = NULL;
}

void cell_spec_set_variant(struct cell_spec *s, struct variant *v)
{
	const char *was = s->variant ? family_std_for(s->family, s->variant) : NULL, *now = family_std_for(s->family, v);
	s->variant = v;
	if (s->compiler && v->lang == LANG_CXX && s->compiler->lang != LANG_CXX && s->compiler->cxx)
		s->compiler = s->compiler->cxx;
	else if (s->compiler && v->lang == LANG_C && s->compiler->c_driver)
		s->compiler = s->compiler->c_driver;
	if (was) {
		char *w = xasprintf("-std=%s", was);
		drop_word(&s->cflags, w);
		free(w);
	}
	if (now)
		sv_pushf(&s->cflags, "-std=%s", now);
}
