/* reader.h: the one reader of results.json.
 *
 * Every command that takes a run folder (compare, baseline, tables,
 * explain, rerun, tune, run --resume) loads it here: the file parses, its
 * schema is RESULTS_SCHEMA (results.h), "cells" is an array of objects
 * with a string id, no id twice.  What a command then reads of a cell it
 * reads from that checked document.
 */
#ifndef FLAGBENCH_READER_H
#define FLAGBENCH_READER_H

#include <jansson.h>

/* Loads a run: DIR/results.json or a results.json path.  Returns NULL
 * after an error message naming the file (and line:column for bad JSON):
 * the caller exits 2.  *dir receives the run folder (allocated). */
json_t *results_load(const char *path, char **dir);

#endif
