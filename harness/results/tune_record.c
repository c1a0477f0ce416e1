/* tune_record.c: see tune_record.h */
#define _GNU_SOURCE
#include "results/tune_record.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json_util.h"
#include "core/util.h"

static char *str(const json_t *o, const char *key)
{
	return xstrdup(jstr(o, key));
}

static void header_of(struct tune_record_header *h, const json_t *o)
{
	h->argv_recorded = jstrvec_read(json_object_get(o, "argv"), &h->argv);
	h->kind = jstr_dup(o, "kind");
	h->start = jstr_dup(o, "start");
	h->start_sha256 = jstr_dup(o, "start_sha256");
	h->space = jstr_dup(o, "space");
	h->metric = jstr_dup(o, "metric");
	const json_t *seed = json_object_get(o, "seed");
	h->seeded = json_is_integer(seed);
	h->seed = (long long)json_integer_value(seed);
	h->techniques_recorded = jstrvec_read(json_object_get(o, "techniques"), &h->techniques);
}

static void probe_of(struct tune_record_probe *p, const json_t *o)
{
	p->build_s = jnum(o, "build_s");
	p->check_s = jnum(o, "check_s");
	p->screen_s = jnum(o, "screen_s");
	const json_t *levels = json_object_get(o, "levels"), *l;
	size_t i;
	p->levels = xcalloc(json_array_size(levels) + 1, sizeof(*p->levels));
	json_array_foreach(levels, i, l) p->levels[p->nlevels++] = (struct tune_record_level){
		str(l, "opt"), jnum(l, "count"), jnum(l, "time_ratio"), jstr_dup(l, "time_verdict") };
	p->checked = json_is_true(json_object_get(o, "checked"));
}

static void probe_free(struct tune_record_probe *p)
{
	for (size_t i = 0; i < p->nlevels; i++) {
		free(p->levels[i].opt);
		free(p->levels[i].time_verdict);
	}
	free(p->levels);
	memset(p, 0, sizeof(*p));
}

static void eval_of(struct tune_record_eval *e, const json_t *o)
{
	*e = (struct tune_record_eval){
		.technique = str(o, "technique"),
		.key = str(o, "key"),
		.op = str(o, "op"),
		.status = str(o, "status"),
		.sha256 = str(o, "sha256"),
		.reason = jstr_dup(o, "reason"),
		.same_as = jstr_dup(o, "same_as"),
		.metric = jstr_dup(o, "metric"),
		.seq = (size_t)json_integer_value(json_object_get(o, "seq")),
		.score = jnum(o, "score"),
		.at_s = jnum(o, "at_s"),
	};
}

/* One line after the header into r. */
static void line_of(struct tune_record *r, const json_t *o)
{
	const char *event = jstr_opt(o, "event");
	if (event && !strcmp(event, "probe")) {
		probe_free(&r->probe);
		probe_of(&r->probe, o);
		r->has_probe = 1;
	} else if (event && !strcmp(event, "check")) {
		r->checks = xrealloc(r->checks, (r->nchecks + 1) * sizeof(*r->checks));
		r->checks[r->nchecks++] = (struct tune_record_check){ str(o, "line"), jstr_dup(o, "why"),
								      json_is_true(json_object_get(o, "switch")),
								      (size_t)json_integer_value(json_object_get(o, "ev")) };
	} else {
		r->evals = xrealloc(r->evals, (r->nevals + 1) * sizeof(*r->evals));
		eval_of(&r->evals[r->nevals++], o);
	}
}

int tune_record_load(const char *path, int header_only, struct tune_record *r)
{
	memset(r, 0, sizeof(*r));
	FILE *f = fopen(path, "r");
	if (!f)
		return -1; /* errno set: the caller says which journal */
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	while ((len = getline(&line, &cap, f)) > 0) {
		r->lines++;
		json_error_t err;
		json_t *o = json_loadb(line, (size_t)len, 0, &err);
		if (!o) {
			/* a line cut by a crash is the last one: what it said is lost */
			if (!header_only)
				fprintf(stderr, "flagbench: %s:%zu: an unfinished line is skipped\n", path, r->lines);
			if (header_only)
				break;
			continue;
		}
		if (r->lines == 1) {
			header_of(&r->header, o);
			r->has_header = 1;
		} else {
			line_of(r, o);
		}
		json_decref(o);
		if (header_only)
			break;
	}
	free(line);
	fclose(f);
	return 0;
}

void tune_record_free(struct tune_record *r)
{
	struct tune_record_header *h = &r->header;
	sv_clear(&h->argv);
	free(h->kind);
	free(h->start);
	free(h->start_sha256);
	free(h->space);
	free(h->metric);
	sv_clear(&h->techniques);
	probe_free(&r->probe);
	for (size_t i = 0; i < r->nchecks; i++) {
		free(r->checks[i].line);
		free(r->checks[i].why);
	}
	free(r->checks);
	for (size_t i = 0; i < r->nevals; i++) {
		struct tune_record_eval *e = &r->evals[i];
		free(e->technique);
		free(e->key);
		free(e->op);
		free(e->status);
		free(e->sha256);
		free(e->reason);
		free(e->same_as);
		free(e->metric);
	}
	free(r->evals);
	memset(r, 0, sizeof(*r));
}
