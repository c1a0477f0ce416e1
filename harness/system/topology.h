/* topology.h: which CPUs share a core, a cache, a package; which kind of
 * core each is; where to pin.
 *
 * Protocol:
 *  - The topology comes from hwloc (libhwloc-dev), the library HPC and
 *    benchmarking tools share for this, so that what the kernel spells out
 *    only indirectly (core kinds of hybrid parts, the cgroup cpuset of a
 *    container, NUMA nodes, dies) is known too.  topology_load(ROOT):
 *    "/" (or NULL or "") discovers the live system; any other ROOT is a
 *    fixture: a directory holding topology.xml (hwloc's XML export, as
 *    `lstopo --of xml` writes it: tests/fixtures/sys/<machine>/topology.xml,
 *    made by tests/fixtures/sys/gen-topology.c), or such an XML file
 *    itself.  topology_load_synthetic() takes an hwloc synthetic string
 *    ("package:2 l3:1 core:4 pu:2").  The rootfs_* readers below serve the
 *    other modules that read /sys and /proc under a ROOT (thermal, doctor).
 *  - Only the CPUs this process may use are offered: online, in hwloc's
 *    allowed set (the cgroup cpuset on the live system, the root object's
 *    allowed_cpuset in XML) and, on the live system, in this thread's
 *    affinity mask (taskset).  `online` lists them and every pair comes
 *    from them; `machine` lists every online CPU, allowed or not, so that
 *    the doctor can say when the allowed set is smaller.
 *  - Core kinds: where hwloc reports two kinds of core or more (Intel
 *    hybrids since Alder Lake, ARM big.LITTLE), each CPU names its kind.
 *    hwloc ranks kinds by efficiency (0 the most energy-efficient, higher
 *    more performant); the most performant kind is "P", the others "E"
 *    ("E0", "E1"... when there are three kinds or more).  A machine with
 *    one kind, or none reported, has no kinds at all (nkinds 0).
 *  - A producer/consumer pair of CPUs falls in exactly one placement class,
 *    the closest relation that holds (seed 003: throughput through a pipe
 *    depends on it):
 *        same_cpu       both on one logical CPU
 *        smt_sibling    two hardware threads of one core
 *        p_to_e         cores of two kinds (ranked, in one package): the
 *                       producer on the more performant kind (a P-core),
 *                       the consumer on the less (an E-core)
 *        e_to_p         the reverse: producer on an E-core, consumer on a
 *                       P-core; a different experiment from p_to_e
 *        same_l2        different cores sharing an L2 (Atom/Goldmont pairs,
 *                       E-core clusters)
 *        same_l3        different cores sharing the L3: one core complex
 *        other_l3       same package, no shared cache at any level: another
 *                       core complex (Zen CCX), or on chips without an L3
 *                       (J4205) another L2 module
 *        other_package  different sockets
 *        unpinned       no pinning at all; the scheduler chooses
 *    A pair that cannot be classified (a CPU offline or not allowed, or no
 *    cache information for two cores of one package) is PLACE_UNKNOWN,
 *    which is never parsed nor offered as a class.
 *  - Representative pair of a class: the lexicographically lowest ordered
 *    (producer, consumer) pair of the class that avoids CPU 0, else the
 *    lowest with CPU 0.  For every class but e_to_p that is producer <
 *    consumer (equal for same_cpu); for e_to_p the producer is the E-core,
 *    usually the higher number.  CPU 0 is avoided because it takes most
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
	PLACE_P_TO_E,
	PLACE_E_TO_P,
	PLACE_UNPINNED,
	PLACE_NCLASSES,
	PLACE_UNKNOWN = PLACE_NCLASSES /* not a class: see above */
};
/* The names, for messages that list them (suites, cpu profiles). */
#define PLACEMENT_CLASS_NAMES                                                                                  \
	"same_cpu, smt_sibling, same_l2, same_l3, other_l3, other_package, p_to_e, e_to_p, unpinned"

/* One cache domain: a cache and the CPUs that share it (deduplicated). */
struct topo_cache {
	int level;        /* 1, 2, 3, or -1 */
	char type[16];    /* "Data", "Instruction", "Unified" (kernel spelling) */
	uint64_t size;    /* bytes, 0 when unknown */
	struct cpulist cpus;
};

/* One kind of core (hybrid parts only: see above). */
struct topo_kind {
	char name[24];       /* "P", "E" ("E0", "E1"... with three kinds); "K0"... unranked */
	char core_type[32];  /* hwloc's CoreType info ("IntelCore", "IntelAtom"), "" when none */
	int efficiency;      /* hwloc's rank, 0 the most energy-efficient; -1 unknown */
	struct cpulist cpus; /* the allowed CPUs of this kind */
};

struct topo_cpu {
	int cpu;
	int core_id, die_id, package_id; /* -1 when unknown; die 0 in a package of one die */
	int numa;                        /* NUMA node, -1 when unknown */
	int kind;                        /* index in topology.kinds, -1 when none */
	struct cpulist siblings;         /* the allowed threads of its core, with cpu itself */
	int l2, l3;                      /* index in topology.caches, -1 when none */
	int *caches;                     /* indexes of every cache domain it is in */
	size_t ncaches;
};

struct topology {
	struct cpulist online;  /* online and allowed: the CPUs offered (see above) */
	struct cpulist machine; /* every online CPU, allowed or not */
	struct topo_cpu *cpus;  /* one per CPU of online, ascending */
	size_t ncpus;
	struct topo_cache *caches;
	size_t ncaches;
	struct topo_kind *kinds; /* by efficiency, the least performant first */
	size_t nkinds;           /* 0 unless two kinds or more */
	int npackages, ncores;   /* distinct packages and cores with an allowed CPU */
	int nnuma;               /* distinct NUMA nodes of the allowed CPUs */
	/* representative pair per class; producer -1 when the class is absent
	 * (unpinned: present with -1, -1) */
	int pair[PLACE_NCLASSES][2];
	int has_class[PLACE_NCLASSES];
};

/* Reads the topology of root (see above); -1 after printing an error. */
int topology_load(const char *root, struct topology *t);
/* The topology of an hwloc synthetic string: every CPU allowed, no kinds. */
int topology_load_synthetic(const char *desc, struct topology *t);
void topology_free(struct topology *t);
/* Fills in what follows from cpus[], caches[] and kinds[] once a loader
 * has set them: the counts and the representative pairs (topology.c). */
void topology_finish(struct topology *t);

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

/* {"online": "0-15", "machine": "0-15", "cpus": [...], "caches": [...],
 *  "kinds": [...], "packages", "cores", "threads", "numa_nodes",
 *  "classes": {"same_l3": {"producer": 1, "consumer": 2}, ...}} */
json_t *topology_to_json(const struct topology *t);

/* As text: cpus, caches and the pair of each placement class
 * (`flagbench topology`, cmd/topology.h).  Core kinds, NUMA nodes and the
 * allowed set are shown only where the machine has them, so a plain
 * machine reads as it always has. */
void topology_print(const struct topology *t, FILE *f);

#endif
