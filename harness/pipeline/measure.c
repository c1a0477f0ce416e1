/* measure.c: see measure.h */
#define _GNU_SOURCE
#include "pipeline/measure.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "system/cooldown.h"
#include "system/meter.h"
#include "pipeline/records.h"
#include "core/runcmd.h"
#include "pipeline/verify.h"

void hyperfine_quote(struct strbuf *cmd, const char *word)
{
	if (cmd->len)
		sb_adds(cmd, " ");
	sb_adds(cmd, "'");
	for (const char *p = word; *p; p++) {
		if (*p == '\'')
			sb_adds(cmd, "'\\''");
		else
			sb_add(cmd, p, 1);
	}
	sb_adds(cmd, "'");
}

void measure_command(const struct cell *c, const struct measure_opts *o, const char *report_path,
		     struct strvec *out)
{
	meter_command(out);
	if (c->spec.family->kind == KIND_COMPUTE) {
		sv_push(out, "--compute");
		if (c->spec.pin.single >= 0)
			sv_pushf(out, "--cpu=%d", c->spec.pin.single);
	} else {
		if (c->spec.pin.producer >= 0)
			sv_pushf(out, "--producer-cpu=%d", c->spec.pin.producer);
		if (c->spec.pin.consumer >= 0)
			sv_pushf(out, "--consumer-cpu=%d", c->spec.pin.consumer);
		if (c->spec.reference && c->spec.reference->unbounded)
			sv_pushf(out, "--max-bytes=%llu", (unsigned long long)c->spec.expected_bytes);
		else if (c->spec.expected_bytes != UINT64_MAX)
			sv_pushf(out, "--expect-bytes=%llu", (unsigned long long)c->spec.expected_bytes);
		if (c->spec.consumer || o->consumer)
			sv_pushf(out, "--consumer=%s", c->spec.consumer ? c->spec.consumer : o->consumer);
		if (o->pipe_size)
			sv_pushf(out, "--pipe-size=%llu", (unsigned long long)o->pipe_size);
		if (o->consumer_wait)
			sv_pushf(out, "--wait=%s", o->consumer_wait);
	}
	if (c->spec.preload)
		sv_pushf(out, "--preload=%s", c->spec.preload);
	if (c->spec.env_pad)
		sv_pushf(out, "--env-pad=%u", c->spec.env_pad);
	if (o->run_timeout_s > 0)
		sv_pushf(out, "--timeout=%g", o->run_timeout_s);
	if (report_path)
		sv_pushf(out, "--report=%s", report_path);
	sv_push(out, "--");
	cell_program_argv(c, out);
}

/* Calls fn on every JSON line of a file (a missing file has none). */
static void each_jsonl(const char *path, void (*fn)(struct cell_measurement *, const json_t *),
		       struct cell_measurement *m)
{
	char *text = read_file(path, NULL);
	if (!text)
		return;
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		json_t *j = json_loads(line, 0, NULL);
		if (j)
			fn(m, j);
		json_decref(j);
	}
	free(text);
}

static void add_meter_run(struct cell_measurement *m, const json_t *j)
{
	m->runs = xrealloc(m->runs, (m->nruns + 1) * sizeof(*m->runs));
	if (meter_run_from_json(&m->runs[m->nruns], j) == 0)
		m->nruns++;
}

static void add_cooldown(struct cell_measurement *m, const json_t *j)
{
	m->cooldown = xrealloc(m->cooldown, (m->ncooldown + 1) * sizeof(*m->cooldown));
	if (cooldown_record_from_json(&m->cooldown[m->ncooldown], j) == 0)
		m->ncooldown++;
}

void measure_store_times(struct cell *c, const struct measure_opts *o, const double *t, size_t n)
{
	struct stats *time = &c->measure.time;
	size_t old = o->append ? time->n : 0;
	double *all = xmalloc((old + n + 1) * sizeof(double));
	if (old)
		memcpy(all, time->runs, old * sizeof(double));
	memcpy(all + old, t, n * sizeof(double));
	stats_free(time);
	stats_compute_at(time, all, old + n, o->quantile);
	free(all);
}

/* The words of hyperfine's --prepare: the wait before every run, set only
 * where a sensor can say the CPU is too hot (cooldown.h). */
static void cooldown_prepare(const struct measure_opts *o, const char *log_path, struct strbuf *prep)
{
	struct strvec pw = STRVEC_INIT;
	struct cooldown_spec spec = { o->cooldown_s, o->cooldown_below_c, o->cooldown_max_wait_s };
	cooldown_argv(&spec, log_path, 1, &pw); /* most waits between runs do not wait */
	for (size_t i = 0; i < pw.n; i++)
		hyperfine_quote(prep, pw.v[i]);
	sv_clear(&pw);
}

struct measure_files {
	char *json, *report, *cooldown; /* hyperfine's export, the meter's report, the cooldown log */
};

/* hyperfine's argv for the cell; returns its time limit in seconds. */
static double hyperfine_argv(const struct cell *c, const struct measure_opts *o, const struct measure_files *f,
			     struct strvec *argv)
{
	struct strvec words = STRVEC_INIT;
	measure_command(c, o, f->report, &words);
	struct strbuf cmd = STRBUF_INIT;
	for (size_t i = 0; i < words.n; i++)
		hyperfine_quote(&cmd, words.v[i]);
	sv_push(argv, o->hyperfine);
	sv_push(argv, "-N");
	sv_push(argv, "--style");
	sv_push(argv, "basic");
	sv_pushf(argv, "--warmup=%u", o->warmup);
	sv_pushf(argv, "--runs=%u", o->runs);
	sv_pushf(argv, "--export-json=%s", f->json);
	sv_pushf(argv, "--command-name=%s", c->spec.id);
	int cooling = o->cooldown_s > 0 || isfinite(o->cooldown_below_c);
	if (cooling) {
		struct strbuf prep = STRBUF_INIT;
		cooldown_prepare(o, f->cooldown, &prep);
		sv_push(argv, "--prepare");
		sv_push(argv, prep.buf);
		sb_release(&prep);
	}
	sv_push(argv, cmd.buf);
	sb_release(&cmd);
	sv_clear(&words);
	double per_run = (o->run_timeout_s > 0 ? o->run_timeout_s : 600) + (cooling ? o->cooldown_max_wait_s + 5 : 0);
	return (o->warmup + o->runs) * (per_run + 1) + 30;
}

/* The meter says how the program ended (describe_exit): "killed by
 * SIG..." is a crash, "exited N" its own failure (plan.h). */
static void producer_failed(struct cell *c, const char *how, unsigned long long bytes)
{
	int code;
	if (sscanf(how, "exited %d", &code) == 1)
		cell_set_status(c, CELL_FAILED, "during timing the program exited with status %d after %llu bytes", code,
				bytes);
	else
		cell_set_status(c, strncmp(how, "killed by", 9) ? CELL_FAILED : CELL_CRASHED,
				"during timing the program %s after %llu bytes", *how ? how : "failed", bytes);
}

/* The first failing meter run of this batch says what went wrong. */
static int meter_failure(struct cell *c, const struct measure_opts *o, size_t first)
{
	const struct cell_measurement *m = &c->measure;
	for (size_t i = first; i < m->nruns; i++) {
		const struct meter_run *r = &m->runs[i];
		unsigned long long bytes = (unsigned long long)r->bytes;
		if (!strcmp(r->status, "ok"))
			continue;
		if (!strcmp(r->status, "timeout"))
			cell_set_status(c, CELL_TIMEOUT, "a timed run took longer than %gs", o->run_timeout_s);
		else if (!strcmp(r->status, "producer_failed"))
			producer_failed(c, r->producer, bytes);
		else
			cell_set_status(c, CELL_WRONG_OUTPUT, "during timing: %s (%llu bytes, expected %llu)", r->status,
					bytes, (unsigned long long)c->spec.expected_bytes);
		return -1;
	}
	return 0;
}

/* Reads hyperfine's export into the cell's times; 0 on success. */
static int read_hyperfine(struct cell *c, const struct measure_opts *o, const char *json_path)
{
	json_t *root = json_load_file(json_path, 0, NULL);
	json_t *res = root ? json_array_get(json_object_get(root, "results"), 0) : NULL;
	json_t *times = res ? json_object_get(res, "times") : NULL;
	int rc = -1;
	if (!json_is_array(times) || !json_array_size(times)) {
		cell_set_status(c, CELL_FAILED, "hyperfine wrote no times to %s", json_path);
	} else {
		size_t n = json_array_size(times);
		double *t = xmalloc(n * sizeof(double));
		for (size_t k = 0; k < n; k++)
			t[k] = json_number_value(json_array_get(times, k));
		measure_store_times(c, o, t, n);
		free(t);
		c->measure.user_s = json_number_value(json_object_get(res, "user"));
		c->measure.system_s = json_number_value(json_object_get(res, "system"));
		rc = 0;
	}
	json_decref(root);
	return rc;
}

/* hyperfine's own failure, in one line of its output. */
static void hyperfine_failed(struct cell *c, const struct child_exit *ex, double limit, const struct strbuf *out,
			     const struct strbuf *err)
{
	char how[128];
	describe_exit(ex, limit, how, sizeof(how));
	const char *m = err->len ? err->buf : out->buf ? out->buf : "";
	const char *e = strstr(m, "Error");
	if (!e)
		e = m;
	cell_set_status(c, ex->outcome == CHILD_SIGNALED ? CELL_CRASHED : CELL_FAILED, "hyperfine %s: %.*s", how,
			(int)strcspn(e, "\n"), e);
}

int measure_cell(struct cell *c, const struct measure_opts *o, double *cooldown_s)
{
	*cooldown_s = 0;
	struct measure_files f = { xasprintf("%s/hyperfine.json", o->workdir), xasprintf("%s/meter.jsonl", o->workdir),
				   xasprintf("%s/cooldown.jsonl", o->workdir) };
	unlink(f.json);
	unlink(f.report);
	unlink(f.cooldown);
	struct strvec argv = STRVEC_INIT;
	double limit = hyperfine_argv(c, o, &f, &argv);
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	struct child_exit ex;
	run_capture(argv.v, CHILD_DEVNULL, limit, 16384, &out, &err, &ex);

	struct cell_measurement *m = &c->measure;
	/* the cooldown records already there (the pause before the cell, earlier batches) are not this batch's */
	size_t first_run = o->append ? m->nruns : 0, first_cool = m->ncooldown;
	if (!o->append) {
		/* a first batch replaces whatever an earlier attempt left */
		for (size_t i = 0; i < m->nruns; i++)
			meter_run_free(&m->runs[i]);
		m->nruns = 0; /* the cooldown records stay: the pause before the cell comes first (run.c) */
	}
	each_jsonl(f.report, add_meter_run, m);
	each_jsonl(f.cooldown, add_cooldown, m);
	for (size_t i = first_cool; i < m->ncooldown; i++)
		*cooldown_s += m->cooldown[i].waited_s;
	int rc = -1;
	if (ex.outcome == CHILD_INTERRUPTED || fb_interrupted)
		cell_set_status(c, CELL_SKIPPED, "interrupted while measuring");
	else if (ex.outcome == CHILD_TIMED_OUT)
		cell_set_status(c, CELL_TIMEOUT, "hyperfine did not finish within %.0fs", limit);
	else if (meter_failure(c, o, first_run) < 0)
		;
	else if (ex.outcome != CHILD_EXITED || ex.exit_code != 0)
		hyperfine_failed(c, &ex, limit, &out, &err);
	else
		rc = read_hyperfine(c, o, f.json);
	sb_release(&out);
	sb_release(&err);
	sv_clear(&argv);
	free(f.json);
	free(f.report);
	free(f.cooldown);
	return rc;
}
