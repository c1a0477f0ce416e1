/* measure.c: see measure.h */
#define _GNU_SOURCE
#include "measure.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "meter.h"
#include "runcmd.h"
#include "verify.h"

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
	if (c->family->kind == KIND_COMPUTE) {
		sv_push(out, "--compute");
		if (c->pin_single >= 0)
			sv_pushf(out, "--cpu=%d", c->pin_single);
	} else {
		if (c->pin_producer >= 0)
			sv_pushf(out, "--producer-cpu=%d", c->pin_producer);
		if (c->pin_consumer >= 0)
			sv_pushf(out, "--consumer-cpu=%d", c->pin_consumer);
		if (c->reference && c->reference->unbounded)
			sv_pushf(out, "--max-bytes=%llu", (unsigned long long)c->expected_bytes);
		else if (c->expected_bytes != UINT64_MAX)
			sv_pushf(out, "--expect-bytes=%llu", (unsigned long long)c->expected_bytes);
		if (c->consumer || o->consumer)
			sv_pushf(out, "--consumer=%s", c->consumer ? c->consumer : o->consumer);
		if (o->pipe_size)
			sv_pushf(out, "--pipe-size=%llu", (unsigned long long)o->pipe_size);
	}
	if (c->preload)
		sv_pushf(out, "--preload=%s", c->preload);
	if (o->run_timeout_s > 0)
		sv_pushf(out, "--timeout=%g", o->run_timeout_s);
	if (report_path)
		sv_pushf(out, "--report=%s", report_path);
	sv_push(out, "--");
	cell_program_argv(c, out);
}

/* Parses the meter's per-run report lines into an array, and finds the
 * first failure among them. */
static json_t *read_jsonl(const char *path)
{
	json_t *arr = json_array();
	char *text = read_file(path, NULL);
	if (!text)
		return arr;
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		json_t *j = json_loads(line, 0, NULL);
		if (j)
			json_array_append_new(arr, j);
	}
	free(text);
	return arr;
}

/* Mock executor (--dry-run): deterministic times derived from the cell id,
 * so planning, JSON and rendering are testable without compilers. */
/* Replaces c->time with the new runs, or appends them (o->append). */
static void store_times(struct cell *c, const struct measure_opts *o, const double *t, size_t n)
{
	size_t old = o->append && c->measured ? c->time.n : 0;
	double *all = xmalloc((old + n + 1) * sizeof(double));
	if (old)
		memcpy(all, c->time.runs, old * sizeof(double));
	memcpy(all + old, t, n * sizeof(double));
	stats_free(&c->time);
	stats_compute(&c->time, all, old + n);
	free(all);
	c->measured = 1;
}

static void mock_times(struct cell *c, const struct measure_opts *o)
{
	char hex[65];
	sha256_hex(c->id, strlen(c->id), hex);
	unsigned long h = strtoul(hex + 56, NULL, 16);
	double base = 0.05 + (double)(h % 1000) / 4000.0;
	double *t = xmalloc(o->runs * sizeof(double));
	size_t seen = o->append && c->measured ? c->time.n : 0;
	for (unsigned i = 0; i < o->runs; i++)
		t[i] = base * (1.0 + 0.01 * (double)((h >> ((seen + i) % 24)) % 5) / 4.0);
	store_times(c, o, t, o->runs);
	free(t);
}

int measure_cell(struct cell *c, const struct measure_opts *o, double *cooldown_s)
{
	*cooldown_s = 0;
	if (o->dry_run) {
		mock_times(c, o);
		return 0;
	}
	char *json_path = xasprintf("%s/hyperfine.json", o->workdir);
	char *report_path = xasprintf("%s/meter.jsonl", o->workdir);
	char *cool_path = xasprintf("%s/cooldown.jsonl", o->workdir);
	unlink(json_path);
	unlink(report_path);
	unlink(cool_path);

	struct strvec words = STRVEC_INIT;
	measure_command(c, o, report_path, &words);
	struct strbuf cmd = STRBUF_INIT;
	for (size_t i = 0; i < words.n; i++)
		hyperfine_quote(&cmd, words.v[i]);

	struct strvec argv = STRVEC_INIT;
	sv_push(&argv, o->hyperfine);
	sv_push(&argv, "-N");
	sv_push(&argv, "--style");
	sv_push(&argv, "basic");
	sv_pushf(&argv, "--warmup=%u", o->warmup);
	sv_pushf(&argv, "--runs=%u", o->runs);
	sv_pushf(&argv, "--export-json=%s", json_path);
	sv_pushf(&argv, "--command-name=%s", c->id);
	int cooling = o->cooldown_s > 0 || isfinite(o->cooldown_below_c);
	if (cooling) {
		struct strbuf prep = STRBUF_INIT;
		struct strvec pw = STRVEC_INIT;
		sv_push(&pw, self_exe());
		sv_push(&pw, "cooldown");
		sv_pushf(&pw, "--seconds=%g", o->cooldown_s);
		if (isfinite(o->cooldown_below_c))
			sv_pushf(&pw, "--below=%g", o->cooldown_below_c);
		sv_pushf(&pw, "--max-wait=%g", o->cooldown_max_wait_s);
		sv_pushf(&pw, "--log=%s", cool_path);
		for (size_t i = 0; i < pw.n; i++)
			hyperfine_quote(&prep, pw.v[i]);
		sv_push(&argv, "--prepare");
		sv_push(&argv, prep.buf);
		sb_release(&prep);
		sv_clear(&pw);
	}
	sv_push(&argv, cmd.buf);

	double per_run = (o->run_timeout_s > 0 ? o->run_timeout_s : 600) + (cooling ? o->cooldown_max_wait_s + 5 : 0);
	double limit = (o->warmup + o->runs) * (per_run + 1) + 30;
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	struct child_exit ex;
	run_capture(argv.v, CHILD_DEVNULL, limit, 16384, &out, &err, &ex);

	json_t *meter = read_jsonl(report_path);
	json_t *cool = read_jsonl(cool_path);
	size_t i;
	json_t *e;
	json_array_foreach(cool, i, e) *cooldown_s += json_number_value(json_object_get(e, "waited_s"));
	/* the first failing run says what went wrong */
	const char *meter_status = NULL;
	json_t *bad = NULL;
	json_array_foreach(meter, i, e) {
		const char *s = json_string_value(json_object_get(e, "status"));
		if (s && strcmp(s, "ok")) {
			meter_status = s;
			bad = e;
			break;
		}
	}
	int rc = -1;
	if (ex.outcome == CHILD_INTERRUPTED || fb_interrupted) {
		cell_set_status(c, CELL_SKIPPED, "interrupted while measuring");
	} else if (ex.outcome == CHILD_TIMED_OUT) {
		cell_set_status(c, CELL_TIMEOUT, "hyperfine did not finish within %.0fs", limit);
	} else if (meter_status) {
		const char *prod = json_string_value(json_object_get(bad, "producer"));
		unsigned long long bytes = (unsigned long long)json_integer_value(json_object_get(bad, "bytes"));
		if (!strcmp(meter_status, "timeout"))
			cell_set_status(c, CELL_TIMEOUT, "a timed run took longer than %gs", o->run_timeout_s);
		else if (!strcmp(meter_status, "producer_failed"))
			cell_set_status(c, CELL_CRASHED, "during timing the program %s after %llu bytes",
					prod ? prod : "failed", bytes);
		else
			cell_set_status(c, CELL_WRONG_OUTPUT, "during timing: %s (%llu bytes, expected %llu)",
					meter_status, bytes, (unsigned long long)c->expected_bytes);
	} else if (ex.outcome != CHILD_EXITED || ex.exit_code != 0) {
		char how[128];
		describe_exit(&ex, limit, how, sizeof(how));
		const char *m = err.len ? err.buf : out.buf ? out.buf : "";
		const char *e2 = strstr(m, "Error");
		if (!e2)
			e2 = m;
		cell_set_status(c, CELL_CRASHED, "hyperfine %s: %.*s", how, (int)strcspn(e2, "\n"), e2);
	} else {
		json_error_t je;
		json_t *root = json_load_file(json_path, 0, &je);
		json_t *res = root ? json_array_get(json_object_get(root, "results"), 0) : NULL;
		json_t *times = res ? json_object_get(res, "times") : NULL;
		if (!json_is_array(times) || !json_array_size(times)) {
			cell_set_status(c, CELL_CRASHED, "hyperfine wrote no times to %s", json_path);
		} else {
			size_t n = json_array_size(times);
			double *t = xmalloc(n * sizeof(double));
			for (size_t k = 0; k < n; k++)
				t[k] = json_number_value(json_array_get(times, k));
			store_times(c, o, t, n);
			free(t);
			if (!c->extra)
				c->extra = json_object();
			json_object_set(c->extra, "user_s", json_object_get(res, "user"));
			json_object_set(c->extra, "system_s", json_object_get(res, "system"));
			rc = 0;
		}
		json_decref(root);
	}
	if (!c->extra)
		c->extra = json_object();
	json_t *prev = o->append ? json_object_get(c->extra, "meter_runs") : NULL;
	if (json_is_array(prev)) {
		json_array_extend(prev, meter);
		json_decref(meter);
	} else {
		json_object_set_new(c->extra, "meter_runs", meter);
	}
	json_t *prev_cool = o->append ? json_object_get(c->extra, "cooldown") : NULL;
	if (json_is_array(prev_cool)) {
		json_array_extend(prev_cool, cool);
		json_decref(cool);
	} else if (json_array_size(cool))
		json_object_set_new(c->extra, "cooldown", cool);
	else
		json_decref(cool);
	sb_release(&out);
	sb_release(&err);
	sb_release(&cmd);
	sv_clear(&argv);
	sv_clear(&words);
	free(json_path);
	free(report_path);
	free(cool_path);
	return rc;
}
