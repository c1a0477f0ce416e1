/* handoff.h: how far apart the host has put two CPUs, right now.
 *
 * A stream cell's program and the meter run on two CPUs and hand the
 * pipe's pages from one to the other; on a VM the host places and moves
 * those vCPUs, and a stream's time follows where they are (the figures and
 * the ways tried and left out: docs/comparison.md, "Where the host puts
 * the two CPUs").
 *
 * handoff_probe() times a cache line's round trip between two threads
 * pinned to the two CPUs.  handoff_read(), before each batch of such a
 * cell, probes the pair and calls it far where the trip reads more than
 * HANDOFF_FAR_FACTOR times the pair's near level, the median of its last
 * HANDOFF_NEAR_READINGS near readings; the scheduler puts a far batch off
 * to a later round (pipeline/schedule.h).  Where the CPUs stay put, every
 * probe reads alike and nothing is put off.
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
 * its last HANDOFF_NEAR_READINGS near readings.  A reading below the level
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
 * INFINITY where the other side stopped answering (for 50 ms).  Reentrant:
 * each call has a line of its own, so threads may probe at once. */
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

/* One per session: the near level of each pair of CPUs, as many pairs as
 * the session's cells use (the array grows).  probe stands in for the real
 * one in tests (NULL: handoff_probe). */
struct handoff_gate {
	struct handoff_pair {
		int a, b;
		double near[HANDOFF_NEAR_READINGS]; /* the last near readings, a ring */
		unsigned nnear, next;
		double level; /* their median; NAN: none yet */
	} *pairs;
	size_t npairs, cap;
	enum handoff_status (*probe)(int cpu_a, int cpu_b, unsigned trips, double *ns, struct strbuf *why);
	/* once a probe is unavailable the gate stops probing and says why */
	enum handoff_status status;
	struct strbuf why;
};

#define HANDOFF_GATE_INIT { .pairs = NULL, .npairs = 0, .status = HANDOFF_MEASURED, .why = STRBUF_INIT }

/* Probes cpu_a and cpu_b (HANDOFF_CALIBRATION times the first time, the
 * last deciding): near or far against the pair's near level, in *out. */
void handoff_read(struct handoff_gate *g, int cpu_a, int cpu_b, struct handoff_reading *out);
void handoff_gate_release(struct handoff_gate *g);

#endif
