/* topology.h: which CPUs share a core, a cache, a package; where to pin.
 *
 * Protocol:
 *  - Every reader takes a ROOT prefix: "/" (or NULL or "") reads the live
 *    system, any other directory is a fixture tree that mirrors the kernel's
 *    files (tests/fixtures/sys/<machine>/sys/devices/system/cpu/...).
 *  - topology_load() reads <root>/sys/devices/system/cpu: the online list,
 *    each online cpuN/topology/{thread_siblings_list,core_id,
 *    physical_package_id,die_id} and cpuN/cache/indexN/{level,type,
 *    shared_cpu_list,size}.  Missing files are not errors (VMs and ARM
 *    boards lack some): the field stays -1 or empty.  Only a missing or
 *    unreadable online list with no cpuN directories is an error.
 *  - A producer/consumer pair of CPUs falls in exactly one placement class,
 *    the closest relation that holds (seed 003: throughput through a pipe
 *    depends on it):
 *        same_cpu       both on one logical CPU
 *        smt_sibling    two hardware threads of one core
 *        same_l2        different cores sharing an L2 (Atom/Goldmont pairs)
 *        same_l3        different cores sharing the L3: one core complex
 *        other_l3       same package, no shared cache at any level: another
 *                       core complex (Zen CCX), or on chips without an L3
 *                       (J4205) another L2 module
 *        other_package  different sockets
 *        unpinned       no pinning at all; the scheduler chooses
 *    A pair that cannot be classified (CPU offline, or no cache information
 *    for two cores of one package) is PLACE_UNKNOWN, which is never parsed
 *    nor offered as a class.
 *  - Representative pair of a class: producer < consumer (equal for
 *    same_cpu), the lexicographically lowest pair that avoids CPU 0, else
 *    the lowest pair with CPU 0.  CPU 0 is avoided because it takes most
 *    housekeeping (timer and default IRQ affinity, many kernel threads)
 *    and so is the noisiest CPU; low numbers keep the choice stable across
 *    machines of one model.  unpinned has the pair (-1, -1).
 */
#ifndef FLAGBENCH_TOPOLOGY_H
#define FLAGBENCH_TOPOLOGY_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "core/util.h"

/* ---- reading files under a root prefix (shared by thermal.c, doctor.c) ---- */

/* "<root>/<rel>" ("/<rel>" for the live system); rel has no leading '/'. */
char *rootfs_path(const char *root, const char *rel);
/* Whole file under root with trailing whitespace removed, or NULL (errno
 * set) when it does not exist or cannot be read.  Never prints. */
char *rootfs_read(const char *root, const char *rel);
/* The file as one integer; 0 on success, -1 when missing or not a number. */
int rootfs_read_ll(const char *root, const char *rel, long long *out);
/* Whether root is the live system ("/", "" or NULL). */
int rootfs_is_live(const char *root);

/* ---- CPU lists in the kernel's format: "0-3,8-11", "" ---- */

struct cpulist {
	int *cpu; /* ascending, no duplicates */
	size_t n;
};
#define CPULIST_INIT { NULL, 0 }

/* Parses text (trailing newline allowed) into l (replacing its contents);
 * -1 on junk, with l left empty.  Never prints. */
int cpulist_parse(const char *text, struct cpulist *l);
int cpulist_contains(const struct cpulist *l, int cpu);
int cpulist_equal(const struct cpulist *a, const struct cpulist *b);
/* Appends the kernel form ("0-3,8-11"; "" when empty). */
void cpulist_format(const struct cpulist *l, struct strbuf *out);
void cpulist_free(struct cpulist *l);

/* ---- the topology ---- */

enum placement_class {
	PLACE_SAME_CPU,
	PLACE_SMT_SIBLING,
	PLACE_SAME_L2,
	PLACE_SAME_L3,
	PLACE_OTHER_L3,
	PLACE_OTHER_PACKAGE,
	PLACE_UNPINNED,
	PLACE_NCLASSES,
	PLACE_UNKNOWN = PLACE_NCLASSES /* not a class: see above */
};

/* One cache domain: a cache and the CPUs that share it (deduplicated). */
struct topo_cache {
	int level;        /* 1, 2, 3, or -1 */
	char type[16];    /* "Data", "Instruction", "Unified" (kernel spelling) */
	uint64_t size;    /* bytes, 0 when unknown */
	struct cpulist cpus;
};

struct topo_cpu {
	int cpu;
	int core_id, die_id, package_id; /* -1 when unknown */
	struct cpulist siblings;         /* thread_siblings_list, with cpu itself */
	int l2, l3;                      /* index in topology.caches, -1 when none */
	int *caches;                     /* indexes of every cache domain it is in */
	size_t ncaches;
};

struct topology {
	struct cpulist online;
	struct topo_cpu *cpus; /* one per online CPU, ascending */
	size_t ncpus;
	struct topo_cache *caches;
	size_t ncaches;
	int npackages, ncores; /* distinct packages and (package, die, core) */
	/* representative pair per class; producer -1 when the class is absent
	 * (unpinned: present with -1, -1) */
	int pair[PLACE_NCLASSES][2];
	int has_class[PLACE_NCLASSES];
};

/* Reads the topology under root; -1 after printing an error. */
int topology_load(const char *root, struct topology *t);
void topology_free(struct topology *t);

/* The topology entry of a CPU, or NULL when it is not online. */
const struct topo_cpu *topology_cpu(const struct topology *t, int cpu);

enum placement_class topology_classify(const struct topology *t, int a, int b);
/* The representative pair of a class: 0 and *producer, *consumer set, or
 * -1 when the machine has no such pair (no message: the caller says why). */
int topology_class_pair(const struct topology *t, enum placement_class c, int *producer, int *consumer);

/* "same_l3"; "unknown" for PLACE_UNKNOWN and anything out of range. */
const char *placement_class_name(enum placement_class c);
/* 0 and *out set, or -1 (no message) for a name that is not a class. */
int placement_class_parse(const char *name, enum placement_class *out);

/* {"online": "0-15", "cpus": [...], "caches": [...], "packages", "cores",
 *  "threads", "classes": {"same_l3": {"producer": 1, "consumer": 2}, ...}} */
json_t *topology_to_json(const struct topology *t);

/* As text: cpus, caches and the pair of each placement class
 * (`flagbench topology`, cmd/topology.h). */
void topology_print(const struct topology *t, FILE *f);

#endif
