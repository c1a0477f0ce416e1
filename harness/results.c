/* results.c: see results.h */
#define _GNU_SOURCE
#include "results.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static json_t *num_or_null(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *strvec_json(const struct strvec *sv)
{
	json_t *a = json_array();
	for (size_t i = 0; i < sv->n; i++)
		json_array_append_new(a, json_string(sv->v[i]));
	return a;
}

double cell_rate(const struct cell *c, double *lo, double *hi)
{
	double work;
	if (c->status != CELL_OK || !c->measured || !(c->time.median > 0))
		return NAN;
	if (c->family->kind == KIND_STREAM)
		work = c->expected_bytes != UINT64_MAX ? (double)c->expected_bytes : NAN;
	else
		work = (double)c->size;
	if (lo)
		*lo = work / c->time.max;
	if (hi)
		*hi = work / c->time.min;
	return work / c->time.median;
}


/* The measured cell behind this one (itself, or the identical binary). */
static const struct cell *measured_cell(const struct cell *c, const struct plan *p)
{
	return c->same_binary_as >= 0 ? &p->cells[c->same_binary_as] : c;
}

/* The same cell with the glibc allocator: same id but for the allocator. */
static const struct cell *glibc_twin(const struct plan *p, const struct cell *c)
{
	for (size_t k = 0; k < p->n; k++) {
		const struct cell *g = &p->cells[k];
		if (g->variant == c->variant && g->compiler == c->compiler && !strcmp(g->allocator, "glibc") &&
		    !strcmp(g->opt, c->opt) && !strcmp(g->march, c->march) && g->size == c->size &&
		    str_equal_or_null(g->flagset, c->flagset))
			return g;
	}
	return NULL;
}

void compute_speedups(struct plan *p)
{
	for (size_t i = 0; i < p->n; i++) {
		struct cell *c = &p->cells[i];
		c->speedup = NAN;
		c->vs_glibc = NAN;
		if (c->status == CELL_OK && c->variant && c->allocator && strcmp(c->allocator, "glibc")) {
			const struct cell *g = glibc_twin(p, c);
			double rg = g && g->status == CELL_OK ? cell_rate(measured_cell(g, p), NULL, NULL) : NAN;
			double rc = cell_rate(measured_cell(c, p), NULL, NULL);
			if (rg > 0 && rc > 0)
				c->vs_glibc = rc / rg;
		}
		if (c->status != CELL_OK || !c->variant)
			continue;
		for (size_t k = 0; k < p->n; k++) {
			struct cell *b = &p->cells[k];
			if (b->family == c->family && b->variant && c->family->baseline &&
			    !strcmp(b->variant->name, c->family->baseline) &&
			    !strcmp(b->config, c->config) && b->status == CELL_OK) {
				double rb = cell_rate(measured_cell(b, p), NULL, NULL);
				double rc = cell_rate(measured_cell(c, p), NULL, NULL);
				if (rb > 0 && rc > 0)
					c->speedup = rc / rb;
				break;
			}
		}
	}
}

static json_t *celsius_of(json_t *thermal, const char *when)
{
	json_t *v = json_object_get(json_object_get(thermal, when), "celsius");
	return v ? json_incref(v) : json_null();
}

json_t *cell_to_json(const struct cell *c, const struct plan *p)
{
	if (c->restored)
		return json_incref(c->restored);
	const struct family *f = c->family;
	json_t *j = json_object();
	json_object_set_new(j, "id", json_string(c->id));
	json_object_set_new(j, "family", json_string(f->name));
	json_object_set_new(j, "variant", json_string(c->variant ? c->variant->name : c->reference->name));
	json_object_set_new(j, "title", json_string(c->variant ? c->variant->title : c->reference->title));
	json_object_set_new(j, "kind", json_string(family_kind_name(f->kind)));
	json_object_set_new(j, "config", json_string(c->config));
	json_object_set_new(j, "compiler", json_string(c->compiler ? c->compiler->name : "none"));
	json_object_set_new(j, "compiler_version", str_or_null(c->compiler ? c->compiler->version : NULL));
	json_object_set_new(j, "opt", str_or_null(c->opt));
	json_object_set_new(j, "march", str_or_null(c->march));
	json_object_set_new(j, "cflags", strvec_json(&c->cflags));
	/* flag sets (issue 13): the set's name, or null in suites without "flags" */
	json_object_set_new(j, "flags", str_or_null(c->flagset));
	json_object_set_new(j, "pgo", c->pgo ? json_pack("{s:I, s:o}", "train_size", (json_int_t)c->train_size,
							   "train_s", num_or_null(c->train_s))
					     : json_null());
	json_object_set_new(j, "text_bytes", c->text_bytes ? json_integer((json_int_t)c->text_bytes) : json_null());
	json_object_set_new(j, "allocator", json_string(c->allocator ? c->allocator : "glibc"));
	json_object_set_new(j, "size", json_integer((json_int_t)c->size));
	json_object_set_new(j, "unit", json_string(f->unit));
	json_object_set_new(j, "argv", strvec_json(&c->run_args));
	json_object_set_new(j, "status", json_string(cell_status_name(c->status)));
	json_object_set_new(j, "reason", str_or_null(c->reason));
	if (c->binary)
		json_object_set_new(j, "binary", json_pack("{s:s, s:I}", "sha256", c->binary_sha256, "bytes",
							   (json_int_t)c->binary_bytes));
	else
		json_object_set_new(j, "binary", json_null());
	json_object_set_new(j, "same_binary_as",
			    c->same_binary_as >= 0 ? json_string(p->cells[c->same_binary_as].id) : json_null());
	json_object_set_new(j, "bytes", f->kind == KIND_STREAM && c->expected_bytes != UINT64_MAX
						? json_integer((json_int_t)c->expected_bytes)
						: json_null());
	if (f->kind == KIND_STREAM)
		json_object_set_new(j, "pin", json_pack("{s:o, s:o}", "producer",
							c->pin_producer >= 0 ? json_integer(c->pin_producer) : json_null(),
							"consumer",
							c->pin_consumer >= 0 ? json_integer(c->pin_consumer) : json_null()));
	else
		json_object_set_new(j, "pin", json_pack("{s:o}", "single",
							c->pin_single >= 0 ? json_integer(c->pin_single) : json_null()));
	const struct cell *m = measured_cell(c, p);
	if (c->status == CELL_OK && m->measured) {
		json_object_set_new(j, "time_s", stats_to_json(&m->time));
		double lo, hi, r = cell_rate(m, &lo, &hi);
		json_t *rate = json_pack("{s:o, s:o, s:o}", "median", num_or_null(r), "min", num_or_null(lo), "max",
					 num_or_null(hi));
		/* the interval of the median time, as a rate */
		if (m->time.n >= 3)
			json_object_set_new(rate, "ci95", json_pack("{s:o, s:o}", "low",
								    num_or_null(r * m->time.median / m->time.ci_high),
								    "high",
								    num_or_null(r * m->time.median / m->time.ci_low)));
		if (f->kind == KIND_STREAM) {
			json_object_set_new(j, "throughput_Bps", rate);
			json_object_set_new(j, "rate", json_null());
		} else {
			json_object_set_new(rate, "unit", json_string(f->rate_unit));
			json_object_set_new(j, "throughput_Bps", json_null());
			json_object_set_new(j, "rate", rate);
		}
	} else {
		json_object_set_new(j, "time_s", json_null());
		json_object_set_new(j, "throughput_Bps", json_null());
		json_object_set_new(j, "rate", json_null());
	}
	json_t *k = m->extra ? json_object_get(m->extra, "counters") : NULL;
	json_object_set_new(j, "counters", k ? json_incref(k) : json_null());
	/* emulated times are not comparable with native ones */
	json_object_set_new(j, "emulated", json_boolean(c->cross != NULL));
	json_object_set_new(j, "placement", str_or_null(c->placement));
	json_object_set_new(j, "consumer", str_or_null(c->consumer));
	/* throttle flag and temperatures, lifted from the measurement details */
	json_t *th = m->extra ? json_object_get(m->extra, "thermal") : NULL;
	json_object_set_new(j, "throttled", th ? json_incref(json_object_get(th, "throttled")) : json_null());
	json_object_set_new(j, "temperature_c",
			    th ? json_pack("{s:o, s:o}", "before", celsius_of(th, "before"), "after",
					   celsius_of(th, "after"))
			       : json_null());
	json_object_set_new(j, "speedup", num_or_null(c->speedup));
	/* allocator suites: the rate against the same build under glibc malloc */
	if (c->allocator && strcmp(c->allocator, "glibc"))
		json_object_set_new(j, "vs_glibc", num_or_null(c->vs_glibc));
	json_object_set_new(j, "warnings", strvec_json(&c->warnings));
	if (m->extra)
		json_object_set(j, "details", m->extra);
	return j;
}

static json_t *phases_json(const struct run_state *rs)
{
	double total = (rs->finished ? rs->finished_wall - rs->started_wall : now_wall() - rs->started_wall);
	const struct phases *ph = &rs->phases;
	double known = ph->plan_s + ph->build_s + ph->verify_s + ph->measure_s + ph->cooldown_s;
	return json_pack("{s:f, s:f, s:f, s:f, s:f, s:f, s:f}", "plan_s", ph->plan_s, "build_s", ph->build_s,
			 "verify_s", ph->verify_s, "measure_s", ph->measure_s, "cooldown_s", ph->cooldown_s, "total_s",
			 total, "other_s", total - known > 0 ? total - known : 0.0);
}

json_t *results_to_json(const struct run_state *rs)
{
	char started[32], finished[32];
	format_utc(rs->started_wall, started, sizeof(started));
	format_utc(rs->finished_wall, finished, sizeof(finished));
	json_t *run = json_object();
	json_object_set_new(run, "id", json_string(rs->id));
	json_object_set_new(run, "started", json_string(started));
	json_object_set_new(run, "finished", rs->finished ? json_string(finished) : json_null());
	json_object_set_new(run, "interrupted", json_boolean(rs->interrupted));
	json_object_set(run, "argv", rs->argv);
	json_object_set_new(run, "suite", json_string(rs->suite->name));
	json_object_set_new(run, "suite_path", json_string(rs->suite->path));
	json_object_set_new(run, "cpu_profile", json_string(rs->cpu_profile->name));
	json_object_set_new(run, "warnings", strvec_json(&rs->warnings));
	json_object_set_new(run, "phases", phases_json(rs));

	json_t *fams = json_object();
	json_t *cells = json_array();
	for (size_t i = 0; i < rs->plan->n; i++) {
		const struct cell *c = &rs->plan->cells[i];
		const struct family *f = c->family;
		if (!json_object_get(fams, f->name))
			json_object_set_new(fams, f->name,
					    json_pack("{s:s, s:s, s:s, s:o, s:I, s:o}", "title", f->title, "kind",
						      family_kind_name(f->kind), "unit", f->unit, "baseline",
						      f->baseline ? json_string(f->baseline) : json_null(),
						      "size", (json_int_t)c->size, "rate_unit",
						      f->rate_unit ? json_string(f->rate_unit) : json_string("B/s")));
		json_array_append_new(cells, cell_to_json(c, rs->plan));
	}
	return json_pack("{s:s, s:s, s:o, s:O, s:O, s:O, s:o, s:o}", "schema", RESULTS_SCHEMA, "flagbench_version",
			 FLAGBENCH_VERSION " (" FLAGBENCH_GIT ")", "run", run, "host", rs->host, "tools", rs->tools,
			 "profile", rs->profile, "families", fams, "cells", cells);
}

int results_write(const struct run_state *rs)
{
	json_t *doc = results_to_json(rs);
	char *text = json_dumps(doc, JSON_INDENT(1) | JSON_SORT_KEYS | JSON_REAL_PRECISION(10));
	json_decref(doc);
	if (!text)
		return error("cannot encode results");
	char *path = xasprintf("%s/results.json", rs->dir);
	struct strbuf sb = STRBUF_INIT;
	sb_adds(&sb, text);
	sb_adds(&sb, "\n");
	int r = write_file_atomic(path, sb.buf, sb.len);
	sb_release(&sb);
	free(text);
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
		/* one write per line: O_APPEND keeps a line whole */
		if (write(fd, sb.buf, sb.len) != (ssize_t)sb.len || fsync(fd) < 0)
			r = error("cannot append to %s: %s", path, strerror(errno));
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
	if (!text) {
		int r = error("cannot resume from %s: %s", path, strerror(errno));
		free(path);
		return r;
	}
	int restored = 0;
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		json_t *j = json_loads(line, 0, NULL);
		if (!j)
			continue; /* a torn last line after a crash */
		const char *id = json_string_value(json_object_get(j, "id"));
		const char *st = json_string_value(json_object_get(j, "status"));
		enum cell_status s;
		for (size_t i = 0; id && st && i < p->n; i++) {
			struct cell *c = &p->cells[i];
			/* interrupted or skipped cells run again */
			if (strcmp(c->id, id) || cell_status_parse(st, &s) < 0 || s == CELL_SKIPPED ||
			    s == CELL_PENDING)
				continue;
			json_decref(c->restored);
			c->restored = json_incref(j);
			c->status = s;
			restored++;
		}
		json_decref(j);
	}
	free(text);
	free(path);
	return restored;
}
