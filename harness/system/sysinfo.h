/* sysinfo.h: what the harness needs to know about the host right now.
 *
 * The CPU model and feature flags (for requires_cpu), online CPUs (for pin
 * remapping), the machine's identity (cpu model, kernel, arch, hostname,
 * libc) for doctor's facts and so results.json "host", and tool versions
 * for results.json "tools".  The full system report (doctor, topology,
 * thermal) lives in doctor.h / topology.h / thermal.h; this is the part
 * every run needs.
 */
#ifndef FLAGBENCH_SYSINFO_H
#define FLAGBENCH_SYSINFO_H

#include <jansson.h>

/* "AMD EPYC", from /proc/cpuinfo (or "unknown"): the first of "model
 * name", "Model", "Hardware" and "cpu model" there. */
const char *host_cpu_model(void);
/* Whether /proc/cpuinfo lists the flag (sse4_1, avx2, avx512bw ...). */
int host_has_cpu_flag(const char *flag);
/* CPUs this process may run on, ascending; returns the count. */
int host_cpus(int *cpus, int max);
int host_cpu_allowed(int cpu);

/* The machine's identity, the one writer of these facts for `flagbench
 * doctor` and results.json "host" (doctor.c's facts): sets in facts
 *   cpu_model  ROOT/proc/cpuinfo as host_cpu_model() reads it
 *   kernel     the release, ROOT/proc/sys/kernel/osrelease ("6.1.0-13-amd64")
 *   arch       uname's machine ("x86_64"), the live system only
 *   hostname   ROOT/proc/sys/kernel/hostname
 *   libc       this program's, "glibc 2.36"
 *   microcode  the CPU's microcode revision, ROOT/proc/cpuinfo ("0x1000065"; x86)
 * each null where unknown; on the live system (topology.h's rootfs_is_live)
 * uname() answers for a file that cannot be read. */
void host_identity_facts(const char *root, json_t *facts);

/* First line of `TOOL --version` (or -V), or NULL if not runnable. */
char *tool_version(const char *tool);

#endif
