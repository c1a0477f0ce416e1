/* sysinfo.h: what the harness needs to know about the host right now.
 *
 * The CPU model and feature flags (for
 * requires_cpu), online CPUs (for pin remapping), and tool versions for
 * results.json "tools".  The full system report (doctor, topology, thermal)
 * lives in doctor.h / topology.h / thermal.h; this is the part every run needs.
 */
#ifndef FLAGBENCH_SYSINFO_H
#define FLAGBENCH_SYSINFO_H

#include <jansson.h>

/* "AMD EPYC", from /proc/cpuinfo (or "unknown"). */
const char *host_cpu_model(void);
/* Whether /proc/cpuinfo lists the flag (sse4_1, avx2, avx512bw ...). */
int host_has_cpu_flag(const char *flag);
/* CPUs this process may run on, ascending; returns the count. */
int host_cpus(int *cpus, int max);
int host_cpu_allowed(int cpu);

/* First line of `TOOL --version` (or -V), or NULL if not runnable. */
char *tool_version(const char *tool);

#endif
