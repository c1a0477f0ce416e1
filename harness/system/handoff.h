/* handoff.h: how far apart the host has put two CPUs, right now.
 *
 * A stream cell's program and the meter run on two CPUs and hand the
 * pipe's pages from one to the other; on a VM the host places and moves
 * those vCPUs between states (near: a shared cache; far: not), and a
 * stream's time follows where they are (docs/comparison.md, "Where the
 * host puts the two CPUs").
 *
 * handoff_probe() times a cache line's round trip between two threads
 * pinned to the two CPUs.  handoff_read(), before each batch of such a
 * cell, probes the pair once and keeps the reading.  The states are the
 * levels every reading of the pair shows at once (core/levels.h: one
 * where the CPUs stay put, two or three where the host moves them), never
 * a running level.  The batch runs whatever the state: its runs are
 * figures of that state, and the comparisons pair cells within one state
 * (analysis/comparison.h); the scheduler spends a cell's runs on the
 * state its comparisons lack (pipeline/schedule.h).
 */
#ifndef FLAGBENCH_HANDOFF_H
#define FLAGBENCH_HANDOFF_H

#include <stddef.h>

#include "core/levels.h"
#include "core/util.h"

/* Round trips per probe, over its batches: about 0.3 ms near and 1.1 ms
 * far here (a probe before every batch of a stream cell); the first
 * batch, which reads the threads' start, is not counted. */
#define HANDOFF_TRIPS 3000

enum handoff_status {
	HANDOFF_MEASURED,
	HANDOFF_UNAVAILABLE, /* a thread could not start or be pinned, or the other never answered: why says */
};

/* The fastest per-trip time of a few batches of round trips (`trips` in
 * all) of one cache line between a thread on cpu_a and one on cpu_b, in *ns;
 * INFINITY where the other side stopped answering (for 50 ms).  Reentrant:
 * each call has a line of its own, so threads may probe at once. */
enum handoff_status handoff_probe(int cpu_a, int cpu_b, unsigned trips, double *ns, struct strbuf *why);

/* Where the host had the two CPUs before a batch: one probe's reading
 * and the state it falls in among every reading of the pair so far. */
enum handoff_probed {
	HANDOFF_NOT_PROBED, /* no gate, one CPU, or the probe is unavailable */
	HANDOFF_PROBED,
};

struct handoff_reading {
	enum handoff_probed probed;
	double probe_ns;  /* the round trip (NAN: not probed; INFINITY: the partner never answered) */
	/* provisional: the level (core/levels.h) of probe_ns among all the
	 * pair's readings so far, 1 the nearest; 0 not probed.  The run's
	 * states are settled from all its readings at the end
	 * (schedule_settle_states), so a cell's early batches may move. */
	unsigned state;
	struct levels levels; /* the pair's levels so far */
};

/* One per session: every reading of each pair of CPUs the session's
 * cells use (the arrays grow).  probe stands in for the real one in
 * tests (NULL: handoff_probe). */
struct handoff_gate {
	struct handoff_pair {
		int a, b;           /* a < b: a pair's two directions are one pair */
		double *ns;         /* every reading, in order */
		size_t n, cap;
		struct levels levels; /* of ns[0..n) */
	} *pairs;
	size_t npairs, cap;
	enum handoff_status (*probe)(int cpu_a, int cpu_b, unsigned trips, double *ns, struct strbuf *why);
	/* once a probe is unavailable the gate stops probing and says why */
	enum handoff_status status;
	struct strbuf why;
};

#define HANDOFF_GATE_INIT { .pairs = NULL, .npairs = 0, .status = HANDOFF_MEASURED, .why = STRBUF_INIT }

/* Probes cpu_a and cpu_b once: the reading, and its state among all the
 * pair's readings so far (the levels found again from all of them: no
 * running level, so a spell in one state is never learnt as another). */
void handoff_read(struct handoff_gate *g, int cpu_a, int cpu_b, struct handoff_reading *out);
/* The levels of the pair's readings so far (k 0: none). */
const struct levels *handoff_levels(const struct handoff_gate *g, int cpu_a, int cpu_b);
void handoff_gate_release(struct handoff_gate *g);

/* A run's mix of states: how many of its stream batches ran in each. */
struct handoff_mix {
	unsigned states;               /* 0 or 1: nothing to say */
	double level_ns[LEVELS_MAX];   /* each state's round trip */
	size_t batches[LEVELS_MAX], total;
};
/* A state's name: "near", "far", "farthest" (of two: "near", "far"). */
const char *handoff_state_name(unsigned state, unsigned states);
/* The mix in words, into sb: "the host kept the two CPUs apart (far: a
 * cache line's round trip 480 ns, against 90 ns near) before 98 % of the
 * 5515 batches", and the shares of a third. */
void handoff_mix_say(const struct handoff_mix *m, struct strbuf *sb);

#endif
