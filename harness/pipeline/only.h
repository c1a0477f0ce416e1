/* only.h: what `--only GLOB` selects among a plan's cell ids, and the
 * nearest selection when it selects none.
 *
 * A cell id is "FAMILY/VARIANT@CONFIG" (plan.h).  A glob that matches no
 * id is a typo more often than not ("crc33" for "crc32"): the nearest is looked for
 * part by part, the family first, then family/variant, then the config,
 * each with closest_word() (core/options.h), and the glob's other parts
 * kept, so the suggestion is a glob that selects something.
 */
#ifndef FLAGBENCH_ONLY_H
#define FLAGBENCH_ONLY_H

#include "core/util.h"

/* How many of ids the glob matches. */
size_t only_count(const char *glob, const struct strvec *ids);
/* The nearest glob to one that matches no id, or NULL when none is
 * close; the caller frees it. */
char *only_closest(const char *glob, const struct strvec *ids);

#endif
