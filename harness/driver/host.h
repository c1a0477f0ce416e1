/* host.h: what results.json says about the machine and the tools.
 *
 * host_json() is the doctor's facts (cpu model, kernel, arch, hostname,
 * libc, governor, turbo, smt, load, sensors, topology...: doctor.h) plus
 * what only a run records (cpus_allowed, this process's CPUs);
 * tools_json() the versions of the tools and of the plan's compilers.
 */
#ifndef FLAGBENCH_HOST_H
#define FLAGBENCH_HOST_H

#include <jansson.h>

#include "pipeline/plan.h"

json_t *host_json(void);
json_t *tools_json(const struct plan *p);

#endif
