/* jsonpos.h: where a value sits in JSON text, for error messages.
 *
 * jansson reports line and column for syntax errors only; a value of the
 * wrong type or out of range must still be pointed at.  json_locate() walks
 * the original text along a path of object keys and array indices and
 * returns the 1-based line and column where that value starts (or where its
 * parent starts when the key is missing).
 */
#ifndef FLAGBENCH_JSONPOS_H
#define FLAGBENCH_JSONPOS_H

#include <stddef.h>

/* One step of a path: a key (key != NULL) or an index. */
struct json_step {
	const char *key;
	size_t index;
};

/* Returns 0 and sets line/column on success, -1 when the text does not
 * parse along the path (line/column then point at the deepest value found). */
int json_locate(const char *text, const struct json_step *path, size_t depth, int *line, int *column);

#endif
