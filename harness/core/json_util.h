/* json_util.h: the small JSON getters and builders every reader and writer
 * of the harness shares (results.json, tables, compare, tune, explain,
 * doctor), so that a missing value reads and writes the same everywhere.
 *
 * Protocol:
 *  - Getters never fail and never allocate: a NULL object, a missing key or
 *    a value of another type gives the getter's fallback, "" for jstr(),
 *    NULL for jstr_opt(), NAN for jnum() and jnum_value().  A string
 *    returned is jansson's, valid while the object holds the value.
 *  - Builders return a new reference and never NULL, so they can stand in
 *    json_pack's "o" and in json_object_set_new() without losing the key
 *    (jansson's json_real() returns NULL for a NaN or an infinity, and
 *    json_object_set_new(obj, key, NULL) then sets nothing: the key is
 *    silently dropped; json_pack() fails as a whole).
 *  - A number that is not finite (NaN, +inf, -inf) is written as JSON null,
 *    explicitly: the key is always there, and a reader's jnum() gets NAN
 *    back.  JSON has no infinity; null says "no figure".  A NULL string, or
 *    one that is not UTF-8, is written as null too.
 *  - A writer that means "absent when unknown" tests isfinite() itself and
 *    leaves the key out on purpose (results.json's user_s, system_s).
 */
#ifndef FLAGBENCH_JSON_UTIL_H
#define FLAGBENCH_JSON_UTIL_H

#include <jansson.h>

#include "core/util.h"

/* obj[key] as a string: "" when missing or not a string. */
const char *jstr(const json_t *obj, const char *key);
/* obj[key] as a string: NULL when missing or not a string. */
const char *jstr_opt(const json_t *obj, const char *key);
/* obj[key] as a number (integer or real): NAN when missing or not a number. */
double jnum(const json_t *obj, const char *key);
/* v as a number: NAN when v is NULL or not a number (array elements). */
double jnum_value(const json_t *v);

/* x as a JSON real, or null when x is not finite. */
json_t *jnum_or_null(double x);
/* s as a JSON string, or null when s is NULL (or not UTF-8). */
json_t *jstr_or_null(const char *s);
/* The strings of sv as a JSON array (a string that is not UTF-8 as null). */
json_t *jstrvec(const struct strvec *sv);
/* The strings of array a pushed onto out ("" for a non-string): 1, or 0
 * (nothing pushed) when a is not an array. */
int jstrvec_read(const json_t *a, struct strvec *out);
/* A copy of obj[key] when it is a string, else NULL. */
char *jstr_dup(const json_t *obj, const char *key);
/* obj[key] = jnum_or_null(x): the key is set either way. */
void jset_num(json_t *obj, const char *key, double x);

#endif
