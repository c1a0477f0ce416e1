/* handoff.h: how far apart the host has put two CPUs, right now.
 *
 * A stream cell's program and the meter run on two CPUs and hand the
 * pipe's pages from one to the other.  On a VM those CPUs are vCPUs the
 * host places where it likes, and it moves them: on the 2-vCPU AMD EPYC VM
 * this was built on, a cache line's round trip between CPU 0 and CPU 1
 * read 83-86 ns for seconds at a time and 350-367 ns for seconds at a time
 * (2026-12-07), and yes/buf (8 KiB write()s into the pipe) ran 0.021 s a
 * run in the first state and 0.070 s in the second: 1,085 runs against
 * 166 over 45 s, the probe before each run telling every one of them
 * apart.  Runs of one build in one state paired with another's in the
 * other made the yes speedups of two quick runs differ by 40 %.
 *
 * handoff_probe() times that round trip with two threads pinned to the
 * two CPUs.  handoff_read(), before each batch of such a cell, probes the
 * pair and calls it far where the trip reads more than HANDOFF_FAR_FACTOR
 * times the pair's near level (below); the scheduler puts a far batch off
 * to a later round (pipeline/schedule.h).  Waiting for the host instead
 * cost more: a far spell lasted seconds, so a batch that waited half a
 * second for it to end mostly ran far anyway.  Setting aside a batch that
 * a probe after it read far cost a run each time: lz4/hc's 1.2-s runs,
 * up to 12 a cell.  On a machine whose CPUs stay where they are (bare
 * metal, a pinned VM) every probe reads alike and nothing is put off.
 */
#ifndef FLAGBENCH_HANDOFF_H
#define FLAGBENCH_HANDOFF_H

#include <stddef.h>

#include "core/util.h"

/* Round trips per probe, over its batches: about 0.3 ms near and 1.1 ms
 * far here (a probe before every batch of a stream cell); the first
 * batch, which reads the threads' start, is not counted. */
#define HANDOFF_TRIPS 3000
/* Far: more than this many times the pair's near level, the median of
 * its last HANDOFF_NEAR_READINGS near readings.  Here the near state read
 * 75-100 ns, with a few readings of 30-50 ns (the two vCPUs on one core,
 * it seems) and the far state 325-410 ns.  Against the nearest reading
 * alone (2x, as first built) a 30-ns reading made the usual 80 ns far:
 * a quick run called 1665 of 2826 batches far.  A reading below the level
 * by the same factor says the level was read in a far spell: the level
 * starts again from it. */
#define HANDOFF_FAR_FACTOR 2.5
#define HANDOFF_NEAR_READINGS 15
/* Probes the first time a pair is seen, so that its near level is known
 * before the first batch is judged. */
#define HANDOFF_CALIBRATION 8

enum handoff_status {
	HANDOFF_MEASURED,
	HANDOFF_UNAVAILABLE, /* a thread could not start or be pinned, or the other never answered: why says */
};

/* The fastest per-trip time of a few batches of round trips (`trips` in
 * all) of one cache line between a thread on cpu_a and one on cpu_b, in *ns;
 * INFINITY where the other side stopped answering (for 50 ms). */
enum handoff_status handoff_probe(int cpu_a, int cpu_b, unsigned trips, double *ns, struct strbuf *why);

/* Where the host had the two CPUs, by one probe. */
enum handoff_state {
	HANDOFF_NOT_PROBED, /* no gate, one CPU, or the probe is unavailable */
	HANDOFF_NEAR,
	HANDOFF_FAR,
};

struct handoff_reading {
	enum handoff_state state;
	double probe_ns;  /* the probe that decided (NAN: none) */
	double near_ns;   /* the pair's near level (NAN: none) */
	unsigned probes;
};

#define HANDOFF_MAX_PAIRS 16

/* One per session: the near level of each pair of CPUs.  probe stands in
 * for the real one in tests (NULL: handoff_probe). */
struct handoff_gate {
	struct handoff_pair {
		int a, b;
		double near[HANDOFF_NEAR_READINGS]; /* the last near readings, a ring */
		unsigned nnear, next;
		double level; /* their median; NAN: none yet */
	} pairs[HANDOFF_MAX_PAIRS];
	size_t npairs;
	enum handoff_status (*probe)(int cpu_a, int cpu_b, unsigned trips, double *ns, struct strbuf *why);
	/* once a probe is unavailable the gate stops probing and says why */
	enum handoff_status status;
	struct strbuf why;
};

#define HANDOFF_GATE_INIT { .npairs = 0, .status = HANDOFF_MEASURED, .why = STRBUF_INIT }

/* Probes cpu_a and cpu_b (HANDOFF_CALIBRATION times the first time, the
 * last deciding): near or far against the pair's near level, in *out. */
void handoff_read(struct handoff_gate *g, int cpu_a, int cpu_b, struct handoff_reading *out);
void handoff_gate_release(struct handoff_gate *g);

#endif
