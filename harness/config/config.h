/* config.h: the configs of a run, found and checked together: the family
 * folders (the project's variants/, --family-dir, a suite's family_dirs)
 * and a suite's variant globs against them.  The files themselves are
 * read by cpu_profile.h, suite.h and family.h, over jsoncfg.h (formats in
 * README.md, "Adding things").
 *
 * Everything is read with jansson and checked for shape and range there,
 * once; later stages trust these structs.  A bad value is reported as
 * "flagbench: FILE:LINE:COLUMN: what is wrong" (jsonpos finds the place)
 * and makes the loader return -1; the caller exits with code 2.
 */
#ifndef FLAGBENCH_CONFIG_H
#define FLAGBENCH_CONFIG_H

#include <stddef.h>

#include "config/family.h"
#include "config/suite.h"
#include "core/util.h"

/* All families under variants/ (sorted by name); returns count or -1. */
int load_all_families(struct family **out);
/* The same, then the families of each of dirs: a family folder (holding
 * family.json) or a folder of family folders.  A family name seen twice
 * is an error. */
int load_families(const struct strvec *dirs, struct family **out);

/* Each of the suite's variant globs must match a variant of fams: else
 * "FILE:LINE:COLUMN: variants[i]: 'GLOB' matches no variant; did you mean
 * 'NEAR'?" and -1 (exit 2). */
int suite_check_globs(const struct suite *s, const struct family *fams, size_t nfams);

#endif
