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

/* Whether the journal's header is this tune's: the first key that
 * differs, or NULL. */
static const char *header_differs(const struct tune *t, const struct tune_record_header *h)
{
	if (!str_equal_or_null(h->kind, TUNE_JOURNAL_KIND) || !h->kind)
		return "kind";
	if (!h->start || strcmp(h->start, t->start.plan.cells[t->proto].spec.id))
		return "start";
	if (!h->start_sha256 || strcmp(h->start_sha256, t->start_sha))
		return "start_sha256";
	if (!h->space || strcmp(h->space, t->space_hash))
		return "space";
	if (!h->metric || strcmp(h->metric, metric_name(t->metric)))
		return "metric";
	if (!h->seeded || h->seed != (long long)t->o->seed)
		return "seed";
	int same = h->techniques_recorded && h->techniques.n == t->ntracks;
	for (size_t i = 0; same && i < t->ntracks; i++)
		same = !strcmp(h->techniques.v[i], tune_technique_name(t->tracks[i].technique));
	return same ? NULL : "techniques";
}

/* A candidate line of the journal into t->ev (one of another technique is left out). */
static void eval_from_journal(struct tune *t, const struct tune_record_eval *r)
{
	const char *tech = r->technique;
	size_t track = !strcmp(tech, "probe") ? TUNE_PROBE : TUNE_MINIMISE;
	for (size_t i = 0; i < t->ntracks; i++)
		if (!strcmp(tech, tune_technique_name(t->tracks[i].technique)))
			track = i;
	if (track == TUNE_MINIMISE && strcmp(tech, "minimise"))
		return;
	if (t->nev == t->ev_alloc) {
		t->ev_alloc = t->ev_alloc ? t->ev_alloc * 2 : 64;
		t->ev = xrealloc(t->ev, t->ev_alloc * sizeof(*t->ev));
	}
	struct tune_eval *e = &t->ev[t->nev++];
	memset(e, 0, sizeof(*e));
	e->technique = track;
	e->seq = r->seq;
	e->key = xstrdup(r->key);
	e->op = xstrdup(r->op);
	e->status = status_of(r->status);
	e->reason = r->reason ? xstrdup(r->reason) : NULL;
	snprintf(e->sha256, sizeof(e->sha256), "%s", r->sha256);
	e->same_as = r->same_as ? xstrdup(r->same_as) : NULL;
	/* a score written as null was no figure: never a best */
	e->score = isnan(r->score) ? INFINITY : r->score;
	e->at_s = r->at_s;
	e->metric = t->metric;
	if (r->metric)
		metric_parse(r->metric, &e->metric);
	e->from_journal = 1;
}

/* --resume: the journal's candidates, to be told again, read through
 * results/tune_record.h; a journal of another start, space, metric, seed
 * or techniques is refused. */
static int journal_load(struct tune *t)
{
	struct tune_record *r = xcalloc(1, sizeof(*r));
	if (tune_record_load(t->journal_path, 0, r) < 0) {
		free(r);
		return error("--resume %s: no journal: %s", t->dir, strerror(errno));
	}
	t->journaled = r;
	const char *key = r->has_header ? header_differs(t, &r->header) : NULL;
	if (key)
		return error("%s:1: the journal's %s differs from this tune's: --resume continues the same "
			     "tune (the same start, compiler, space, metric, seed and techniques)",
			     t->journal_path, key);
	for (size_t i = 0; i < r->nevals; i++)
		eval_from_journal(t, &r->evals[i]);
	if (r->lines == 0)
		return error("--resume %s: the journal is empty", t->dir);
	return 0;
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
