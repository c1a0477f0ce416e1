/* explain_record.c: see explain_record.h */
#define _GNU_SOURCE
#include "results/explain_record.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/json_util.h"
#include "core/util.h"

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
		r->run = jstr_dup(doc, "run");
		r->a = jstr_dup(doc, "a");
		r->b = jstr_dup(doc, "b");
		r->metric = jstr_dup(doc, "metric");
		r->way = jstr_dup(doc, "way");
		jstrvec_read(json_object_get(doc, "flags"), &r->flags);
		const json_t *x;
		size_t i;
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
	sv_clear(&r->flags);
	free(r->groups);
	memset(r, 0, sizeof(*r));
}
