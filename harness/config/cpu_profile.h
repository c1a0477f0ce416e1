/* cpu_profile.h: configs/cpus/NAME.json and the probed host profile
 * (format in README.md, "Adding things"; the loader's conventions in
 * config/jsoncfg.h: checked once, "FILE:LINE:COLUMN: ..." and -1).
 *
 * A PROFILE argument is a name under configs/cpus of the project root, or
 * a path to a JSON file.  The profile "host" is not a file: it is probed
 * from /proc and /sys.
 */
#ifndef FLAGBENCH_CPU_PROFILE_H
#define FLAGBENCH_CPU_PROFILE_H

#include <jansson.h>

#include "core/util.h"

#define PIN_NONE (-1)

struct cpu_profile {
	char *name, *path;     /* path NULL for the probed host */
	char *title;
	char *match;           /* text expected in the host's cpu model, or NULL */
	struct strvec march;   /* "default" means no -march flag */
	struct strvec cflags;  /* added to every build on this profile */
	/* pins: a CPU number, or PIN_NONE; a class name (topology) in *_class */
	int pin_producer, pin_consumer, pin_single;
	char *pin_class;       /* e.g. "same_l3": the pair is chosen from the topology */
	double cooldown_s;
	double cooldown_below_c; /* NAN when not set */
	double cooldown_max_wait_s;
	json_t *json;          /* as loaded (for results.json "profile") */
};

int load_cpu_profile(const char *name_or_path, struct cpu_profile *p);
void free_cpu_profile(struct cpu_profile *p);

#endif
