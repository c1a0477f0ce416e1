/* explain_record.c: see explain_record.h */
#define _GNU_SOURCE
#include "results/explain_record.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/json_util.h"
#include "core/util.h"

static char *dup_opt(const json_t *o, const char *key)
{
	const char *s = jstr_opt(o, key);
	return s ? xstrdup(s) : NULL;
}

static void group_of(struct explain_record_group *g, const json_t *j)
{
	const char *st = jstr_opt(j, "state");
	const json_t *ci = json_object_get(j, "share_ci95");
	*g = (struct explain_record_group){
		.from = (size_t)json_integer_value(json_object_get(j, "from")),
		.to = (size_t)json_integer_value(json_object_get(j, "to")),
		.failed = st && !strcmp(st, "failed"),
		.share = jnum(j, "share"),
		.share_low = jnum_value(json_array_get(ci, 0)),
		.share_high = jnum_value(json_array_get(ci, 1)),
		.value = jnum(j, "value"),
		.unchanged = json_is_true(json_object_get(j, "unchanged")),
		.carries = json_is_true(json_object_get(j, "carries")),
	};
}

int explain_record_load(const char *dir, struct explain_record *r)
{
	memset(r, 0, sizeof(*r));
	char *path = xasprintf("%s/journal.json", dir);
	json_error_t err;
	json_t *doc = json_load_file(path, 0, &err);
	if (!doc) {
		int e = error("--resume %s: cannot read %s: %s (the folder of an earlier explain holds it)", dir, path,
			      err.text);
		free(path);
		return e;
	}
	const char *schema = jstr_opt(doc, "schema");
	int rc = 0;
	if (!schema || strcmp(schema, EXPLAIN_JOURNAL_SCHEMA) || !jstr_opt(doc, "run") || !jstr_opt(doc, "a") ||
	    !jstr_opt(doc, "b")) {
		rc = error("%s: not an explain journal (schema %s)", path, EXPLAIN_JOURNAL_SCHEMA);
	} else {
		r->run = dup_opt(doc, "run");
		r->a = dup_opt(doc, "a");
		r->b = dup_opt(doc, "b");
		r->metric = dup_opt(doc, "metric");
		r->way = dup_opt(doc, "way");
		const json_t *flags = json_object_get(doc, "flags"), *x;
		size_t i;
		r->flags = xcalloc(json_array_size(flags) + 1, sizeof(*r->flags));
		json_array_foreach(flags, i, x) r->flags[r->nflags++] = xstrdup(json_string_value(x) ? json_string_value(x) : "");
		const json_t *groups = json_object_get(doc, "groups");
		r->groups = xcalloc(json_array_size(groups) + 1, sizeof(*r->groups));
		json_array_foreach(groups, i, x) group_of(&r->groups[r->ngroups++], x);
		r->builds = (size_t)json_integer_value(json_object_get(doc, "builds"));
	}
	json_decref(doc);
	free(path);
	return rc;
}

void explain_record_free(struct explain_record *r)
{
	free(r->run);
	free(r->a);
	free(r->b);
	free(r->metric);
	free(r->way);
	for (size_t i = 0; i < r->nflags; i++)
		free(r->flags[i]);
	free(r->flags);
	free(r->groups);
	memset(r, 0, sizeof(*r));
}
