/* tune_journal.c: see tune_journal.h */
#define _GNU_SOURCE
#include "driver/tune_journal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/json_util.h"
#include "core/util.h"

#define TUNE_JOURNAL_KIND "flagbench-tune-journal"

static const char *track_name(const struct tune *t, size_t track)
{
	return track == TUNE_MINIMISE ? "minimise"
	       : track == TUNE_PROBE  ? "probe"
				       : tune_technique_name(t->tracks[track].technique);
}

json_t *tune_eval_json(const struct tune *t, const struct tune_eval *e)
{
	json_t *o = json_pack("{s:s, s:I, s:s, s:s, s:s, s:f}", "technique", track_name(t, e->technique), "seq",
			      (json_int_t)e->seq, "key", e->key, "op", e->op ? e->op : "", "status",
			      cell_status_name(e->status), "at_s", e->at_s);
	jset_num(o, "score", e->score);
	json_object_set_new(o, "metric", json_string(metric_name(e->metric)));
	if (e->reason)
		json_object_set_new(o, "reason", json_string(e->reason));
	if (e->sha256[0])
		json_object_set_new(o, "sha256", json_string(e->sha256));
	if (e->same_as)
		json_object_set_new(o, "same_as", json_string(e->same_as));
	return o;
}

/* One journal line, synced: what finished survives Ctrl-C and power loss. */
void tune_journal_write(struct tune *t, json_t *line)
{
	if (!t->journal) {
		json_decref(line);
		return;
	}
	char *s = json_dumps(line, JSON_COMPACT);
	json_decref(line);
	fprintf(t->journal, "%s\n", s);
	free(s);
	fflush(t->journal);
	fsync(fileno(t->journal));
}

char *tune_journal_space_hash(const struct tune_space *s)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < s->n; i++) {
		for (size_t k = 0; k < s->dims[i].nchoices; k++)
			sb_addf(&sb, "%s\n", s->dims[i].choices[k]);
		sb_addf(&sb, "start %zu\n", s->dims[i].start);
	}
	char hex[65];
	sha256_hex(sb.buf ? sb.buf : "", sb.len, hex);
	sb_release(&sb);
	return xstrdup(hex);
}

static json_t *journal_header(const struct tune *t)
{
	json_t *argv = json_array(), *tech = json_array();
	json_array_append_new(argv, json_string("flagbench"));
	for (int i = 0; i < t->o->argc; i++)
		json_array_append_new(argv, json_string(t->o->argv[i]));
	for (size_t i = 0; i < t->ntracks; i++)
		json_array_append_new(tech, json_string(tune_technique_name(t->tracks[i].technique)));
	return json_pack("{s:s, s:i, s:o, s:s, s:s, s:s, s:s, s:I, s:o}", "kind", TUNE_JOURNAL_KIND, "version", 1, "argv",
			 argv, "start", t->start.plan.cells[t->proto].spec.id, "start_sha256", t->start_sha, "space", t->space_hash,
			 "metric", metric_name(t->metric), "seed", (json_int_t)t->o->seed, "techniques", tech);
}

static enum cell_status status_of(const char *word)
{
	enum cell_status st = CELL_FAILED;
	cell_status_parse(word, &st);
	return st;
}

/* --resume: the journal's candidates, to be told again; a journal of
 * another start, space, metric, seed or techniques is refused. */
static int journal_load(struct tune *t)
{
	FILE *f = fopen(t->journal_path, "r");
	if (!f)
		return error("--resume %s: no journal: %s", t->dir, strerror(errno));
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int lineno = 0, rc = 0;
	json_t *want = journal_header(t);
	while ((len = getline(&line, &cap, f)) > 0 && rc == 0) {
		lineno++;
		json_error_t err;
		json_t *o = json_loadb(line, (size_t)len, 0, &err);
		if (!o) {
			/* a line cut by a crash is the last one: what it said is lost */
			fprintf(stderr, "flagbench: %s:%d: an unfinished line is skipped\n", t->journal_path, lineno);
			continue;
		}
		if (lineno == 1) {
			static const char *const must[] = { "kind", "start", "start_sha256", "space", "metric", "seed",
							    "techniques", NULL };
			for (const char *const *k = must; *k && rc == 0; k++)
				if (!json_equal(json_object_get(o, *k), json_object_get(want, *k)))
					rc = error("%s:1: the journal's %s differs from this tune's: --resume continues the same "
						   "tune (the same start, compiler, space, metric, seed and techniques)",
						   t->journal_path, *k);
			json_decref(o);
			continue;
		}
		/* the probe's and the screen checks' lines (tune_probe.h, tune_screen.h) */
		const char *event = jstr_opt(o, "event");
		if (event && !strcmp(event, "probe")) {
			json_decref(t->journal_probe);
			t->journal_probe = o;
			continue;
		}
		if (event && !strcmp(event, "check")) {
			if (!t->journal_checks)
				t->journal_checks = json_array();
			json_array_append_new(t->journal_checks, o);
			continue;
		}
		const char *tech = jstr(o, "technique");
		size_t track = !strcmp(tech, "probe") ? TUNE_PROBE : TUNE_MINIMISE;
		for (size_t i = 0; i < t->ntracks; i++)
			if (!strcmp(tech, tune_technique_name(t->tracks[i].technique)))
				track = i;
		if (track == TUNE_MINIMISE && strcmp(tech, "minimise")) {
			json_decref(o);
			continue;
		}
		if (t->nev == t->ev_alloc) {
			t->ev_alloc = t->ev_alloc ? t->ev_alloc * 2 : 64;
			t->ev = xrealloc(t->ev, t->ev_alloc * sizeof(*t->ev));
		}
		struct tune_eval *e = &t->ev[t->nev++];
		memset(e, 0, sizeof(*e));
		e->technique = track;
		e->seq = (size_t)json_integer_value(json_object_get(o, "seq"));
		e->key = xstrdup(jstr(o, "key"));
		e->op = xstrdup(jstr(o, "op"));
		e->status = status_of(jstr(o, "status"));
		const char *reason = jstr_opt(o, "reason");
		e->reason = reason ? xstrdup(reason) : NULL;
		snprintf(e->sha256, sizeof(e->sha256), "%s", jstr(o, "sha256"));
		const char *same = jstr_opt(o, "same_as");
		e->same_as = same ? xstrdup(same) : NULL;
		/* a score written as null was no figure: never a best */
		e->score = jnum(o, "score");
		if (isnan(e->score))
			e->score = INFINITY;
		e->at_s = jnum(o, "at_s");
		e->metric = t->metric;
		if (jstr_opt(o, "metric"))
			metric_parse(jstr(o, "metric"), &e->metric);
		e->from_journal = 1;
		json_decref(o);
	}
	free(line);
	fclose(f);
	json_decref(want);
	if (lineno == 0)
		rc = error("--resume %s: the journal is empty", t->dir);
	return rc;
}

int tune_journal_open(struct tune *t)
{
	t->journal_path = xasprintf("%s/journal.jsonl", t->dir);
	if (t->o->resume && journal_load(t) < 0)
		return -1;
	t->journal = fopen(t->journal_path, t->o->resume ? "a" : "w");
	if (!t->journal)
		return error("cannot write %s: %s", t->journal_path, strerror(errno));
	if (!t->o->resume)
		tune_journal_write(t, journal_header(t));
	return 0;
}
