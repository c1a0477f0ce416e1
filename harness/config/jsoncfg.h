/* jsoncfg.h: checking a config file's JSON, for the loaders of config/.
 *
 * Every config error names file:line:column (core/jsonpos.h finds the
 * position of the key path in the text) and the key path, and the run
 * stops with exit 2.  The getters check type, range and text (no control
 * characters; names that become ids and file names: a safe alphabet), and
 * an unknown key gets the closest known one suggested.  Each returns 0, 1
 * where an optional key is absent, or -1 after the message.  Also here:
 * where a config named on the command line lives (configs/KIND/NAME.json).
 */
#ifndef FLAGBENCH_JSONCFG_H
#define FLAGBENCH_JSONCFG_H

#include <jansson.h>
#include <stdint.h>

#include "core/jsonpos.h"
#include "core/util.h"

/* Where we are while checking one file: its text and the path of keys
 * (text NULL: JSON from elsewhere, the command line's matrix, said as
 * "FILE: PATH: message"). */
struct cfg {
	const char *file;
	const char *text;
	struct json_step path[16];
	size_t depth;
};

void cfg_push_key(struct cfg *c, const char *key);
void cfg_push_index(struct cfg *c, size_t i);
void cfg_pop(struct cfg *c);
/* "FILE:LINE:COL: PATH: message"; returns -1. */
int cfg_error(struct cfg *c, const char *fmt, ...) FB_PRINTF(2, 3);
/* "an object", "a string", ... for messages. */
const char *cfg_type_name(const json_t *v);
/* Reads the file and parses it; syntax errors carry jansson's position. */
json_t *cfg_load_json(const char *path, char **text_out);
/* Rejects keys that the format does not know, suggesting the closest. */
int cfg_check_keys(struct cfg *c, json_t *obj, const char *const *known);
/* No control characters: config text reaches terminals, tables and file names. */
int cfg_check_text(struct cfg *c, const char *s);
/* Letters, digits and . _ + - only, not starting with '.', at most 64:
 * names become parts of cell ids, run ids and file names. */
int cfg_check_name(struct cfg *c, const char *key, const char *s);
/* 0 where holds, else message at key (-1): a rule no getter checks. */
int cfg_require(struct cfg *c, int holds, const char *key, const char *message);
int cfg_string(struct cfg *c, json_t *obj, const char *key, int required, char **out);
int cfg_string_list(struct cfg *c, json_t *obj, const char *key, int required, struct strvec *out);
int cfg_number(struct cfg *c, json_t *obj, const char *key, double min, double max, int integer, double *out);
/* A size: an integer, "0x.." or a K/M/G suffix, at least min. */
int cfg_size(struct cfg *c, json_t *v, uint64_t min, uint64_t *out);

/* configs/KIND/NAME.json of the project, or the path itself: a PROFILE or
 * SUITE argument is a name under configs/cpus or configs/suites, or a path
 * to a JSON file (the profile "host" is probed: cpu_profile.h). */
char *cfg_config_path(const char *kind, const char *name_or_path);
/* Names of the profiles or suites available, for listings and errors
 * ("host" first for profiles). */
void list_config_names(const char *kind, struct strvec *out);
/* "unknown cpu profile 'X' (did you mean 'Y'?); available: ..."; returns -1. */
int cfg_unknown_name(const char *kind, const char *what, const char *name);

#endif
