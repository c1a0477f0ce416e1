/* reader.c: see reader.h */
#define _GNU_SOURCE
#include "results/reader.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/util.h"
#include "results/results.h"

json_t *results_load(const char *path, char **dir)
{
	char *file;
	size_t len = strlen(path);
	if (len >= 5 && !strcmp(path + len - 5, ".json")) {
		file = xstrdup(path);
		const char *slash = strrchr(path, '/');
		*dir = slash ? xasprintf("%.*s", (int)(slash - path), path) : xstrdup(".");
	} else {
		file = xasprintf("%s/results.json", path);
		*dir = xstrdup(path);
	}
	json_error_t je;
	json_t *j = json_load_file(file, 0, &je);
	if (!j) {
		if (je.line < 0 || access(file, R_OK) < 0)
			error("%s: %s", file, je.text);
		else
			error("%s:%d:%d: %s", file, je.line, je.column, je.text);
		goto bad;
	}
	const char *schema = json_string_value(json_object_get(j, "schema"));
	if (!schema || strcmp(schema, RESULTS_SCHEMA)) {
		error("%s: not a flagbench results file (schema %s, expected %s)", file,
		      schema ? schema : "missing", RESULTS_SCHEMA);
		goto bad;
	}
	json_t *cells = json_object_get(j, "cells");
	if (!json_is_array(cells)) {
		error("%s: \"cells\" must be an array", file);
		goto bad;
	}
	size_t i;
	json_t *c;
	json_t *seen = json_object();
	json_array_foreach(cells, i, c) {
		const char *id = json_string_value(json_object_get(c, "id"));
		if (!json_is_object(c) || !id) {
			error("%s: cells[%zu] has no string \"id\"", file, i);
			json_decref(seen);
			goto bad;
		}
		if (json_object_get(seen, id)) {
			error("%s: cell id %s appears twice", file, id);
			json_decref(seen);
			goto bad;
		}
		json_object_set_new(seen, id, json_true());
	}
	json_decref(seen);
	free(file);
	return j;
bad:
	json_decref(j);
	free(file);
	free(*dir);
	*dir = NULL;
	return NULL;
}
