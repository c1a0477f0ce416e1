/* beside.c: see beside.h */
#define _GNU_SOURCE
#include "results/beside.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/json_util.h"
#include "core/util.h"
#include "results/results.h"

int results_record_beside(const char *run, const char *base_run, double threshold, double alarm_rate,
			  const struct beside_cell *cells, size_t n)
{
	struct stat st;
	char *path = stat(run, &st) == 0 && S_ISDIR(st.st_mode) ? xasprintf("%s/results.json", run) : xstrdup(run);
	json_error_t err;
	json_t *doc = json_load_file(path, 0, &err);
	int r = -1;
	if (!json_is_object(doc)) {
		error("%s: cannot record what was measured beside %s: %s", path, base_run,
		      doc ? "not a JSON object" : err.text);
		goto out;
	}
	json_t *list = json_array();
	for (size_t i = 0; i < n; i++) {
		const struct beside_cell *c = &cells[i];
		json_t *j = json_object();
		json_object_set_new(j, "cell", json_string(c->cell));
		json_object_set_new(j, "base_sha256", c->base_sha256 ? json_string(c->base_sha256) : json_null());
		json_object_set_new(j, "sha256", c->sha256 ? json_string(c->sha256) : json_null());
		json_object_set_new(j, "rounds", json_integer(c->rounds));
		json_object_set_new(j, "ratio", jnum_or_null(c->ratio));
		json_object_set_new(j, "ci", json_pack("[o,o]", jnum_or_null(c->low), jnum_or_null(c->high)));
		json_object_set_new(j, "level", jnum_or_null(c->level));
		json_object_set_new(j, "verdict", json_string(c->verdict));
		if (c->libraries)
			json_object_set_new(j, "libraries", json_true());
		json_array_append_new(list, j);
	}
	json_object_set_new(doc, "beside",
			    json_pack("{s:s, s:f, s:f, s:o}", "run", base_run, "threshold_percent", 100 * threshold,
				      "alarm_rate_percent", 100 * alarm_rate, "cells", list));
	errno = 0;
	r = results_write_document(path, doc);
	if (r < 0 && errno)
		error("%s: cannot write: %s", path, strerror(errno));
out:
	json_decref(doc);
	free(path);
	return r;
}
