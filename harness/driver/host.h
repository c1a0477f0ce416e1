/* host.h: what results.json says about the machine and the tools.
 *
 * host_json() is the doctor's facts (governor, turbo, smt, load, sensors,
 * topology...) plus what only a run records (cpu model, cpus, kernel,
 * libc); tools_json() the versions of the tools and of the plan's
 * compilers.
 */
#ifndef FLAGBENCH_HOST_H
#define FLAGBENCH_HOST_H

#include <jansson.h>

#include "pipeline/plan.h"

json_t *host_json(void);
json_t *tools_json(const struct plan *p);

#endif
