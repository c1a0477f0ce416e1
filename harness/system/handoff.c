/* handoff.c: see handoff.h */
#define _GNU_SOURCE
#include "system/handoff.h"

#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>


/* The batches a probe times; the first warms the line and the threads. */
#define PROBE_BATCHES 6
/* The other side must answer within this, or the probe gives up (a CPU
 * taken offline, a cgroup that never schedules it). */
#define PROBE_PATIENCE_S 0.05

struct probe {
	_Alignas(64) atomic_int ball; /* 1: with the far thread; 0: back */
	_Alignas(64) atomic_int quit;
	unsigned trips;
	atomic_int ready;
};

static int pin_self(int cpu)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

/* A clock check every so many spins keeps a lost partner from holding
 * the probe, at no cost to the trips timed: the patience starts at the
 * first check, not on every call. */
static int wait_for(atomic_int *v, int want, const atomic_int *quit, double patience_s)
{
	double deadline = 0;
	for (unsigned spins = 1;; spins++) {
		if (atomic_load_explicit(v, memory_order_acquire) == want)
			return 0;
		if (quit && atomic_load_explicit(quit, memory_order_relaxed))
			return -1;
		if (!(spins & 1023)) {
			double now = now_monotonic();
			if (!deadline)
				deadline = now + patience_s;
			else if (now > deadline)
				return -1;
		}
	}
}

static void *far_side(void *arg)
{
	struct probe *p = arg;
	atomic_store_explicit(&p->ready, 1, memory_order_release);
	for (unsigned i = 0; i < p->trips * PROBE_BATCHES; i++) {
		if (wait_for(&p->ball, 1, &p->quit, PROBE_PATIENCE_S) < 0)
			return NULL;
		atomic_store_explicit(&p->ball, 0, memory_order_release);
	}
	return NULL;
}

enum handoff_status handoff_probe(int cpu_a, int cpu_b, unsigned trips, double *ns, struct strbuf *why)
{
	*ns = NAN;
	if (cpu_a < 0 || cpu_b < 0 || cpu_a >= CPU_SETSIZE || cpu_b >= CPU_SETSIZE || cpu_a == cpu_b || !trips) {
		sb_addf(why, "no two CPUs to probe (%d and %d)", cpu_a, cpu_b);
		return HANDOFF_UNAVAILABLE;
	}
	/* this thread goes to cpu_a for the probe and back where it was */
	cpu_set_t was, on_b;
	if (pthread_getaffinity_np(pthread_self(), sizeof(was), &was) != 0) {
		sb_addf(why, "cannot read this thread's CPUs");
		return HANDOFF_UNAVAILABLE;
	}
	/* one line per call, aligned (a stack frame need not honour 64) */
	struct probe *p = aligned_alloc(_Alignof(struct probe), sizeof(struct probe));
	if (!p) {
		sb_addf(why, "out of memory for a probe");
		return HANDOFF_UNAVAILABLE;
	}
	memset(p, 0, sizeof(*p));
	/* `trips` in all, over the batches */
	unsigned per = trips / PROBE_BATCHES ? trips / PROBE_BATCHES : 1;
	p->trips = per;
	/* The far thread starts on cpu_b: created on cpu_a it would wait there
	 * for this one's time slice to end (4 ms a probe, all spent spinning),
	 * and with every signal blocked, so that they reach the main thread. */
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	CPU_ZERO(&on_b);
	CPU_SET(cpu_b, &on_b);
	int err = pthread_attr_setaffinity_np(&attr, sizeof(on_b), &on_b);
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pthread_t t;
	if (!err)
		err = pthread_create(&t, &attr, far_side, p);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	if (err) {
		sb_addf(why, "cannot start a thread on CPU %d: %s", cpu_b, strerror(err));
		free(p);
		return HANDOFF_UNAVAILABLE;
	}
	enum handoff_status st = HANDOFF_MEASURED;
	err = pin_self(cpu_a);
	if (err) {
		sb_addf(why, "cannot pin a thread to CPU %d: %s", cpu_a, strerror(err));
		st = HANDOFF_UNAVAILABLE;
	} else if (wait_for(&p->ready, 1, NULL, 1) < 0) {
		sb_addf(why, "the thread on CPU %d never started", cpu_b);
		st = HANDOFF_UNAVAILABLE;
	}
	double best = INFINITY;
	int lost = 0;
	for (unsigned k = 0; st == HANDOFF_MEASURED && !lost && k < PROBE_BATCHES; k++) {
		double t0 = now_monotonic();
		for (unsigned i = 0; i < per; i++) {
			atomic_store_explicit(&p->ball, 1, memory_order_release);
			/* no answer: as far as can be this time (the host ran
			 * something else there), not a probe that cannot work */
			if (wait_for(&p->ball, 0, NULL, PROBE_PATIENCE_S) < 0) {
				lost = 1;
				break;
			}
		}
		double ns_per = (now_monotonic() - t0) / per * 1e9;
		if (k > 0 && !lost && ns_per < best)
			best = ns_per;
	}
	atomic_store_explicit(&p->quit, 1, memory_order_relaxed);
	pthread_join(t, NULL);
	free(p);
	pthread_setaffinity_np(pthread_self(), sizeof(was), &was);
	if (st == HANDOFF_MEASURED)
		*ns = lost ? INFINITY : best;
	return st;
}

static struct handoff_pair *find_pair(const struct handoff_gate *g, int a, int b)
{
	if (a > b) {
		int t = a;
		a = b;
		b = t;
	}
	for (size_t i = 0; i < g->npairs; i++)
		if (g->pairs[i].a == a && g->pairs[i].b == b)
			return &g->pairs[i];
	return NULL;
}

static struct handoff_pair *pair_of(struct handoff_gate *g, int a, int b)
{
	struct handoff_pair *p = find_pair(g, a, b);
	if (p)
		return p;
	if (g->npairs == g->cap) {
		g->cap = g->cap ? 2 * g->cap : 4;
		g->pairs = xrealloc(g->pairs, g->cap * sizeof(*g->pairs));
	}
	p = &g->pairs[g->npairs++];
	memset(p, 0, sizeof(*p));
	p->a = a < b ? a : b;
	p->b = a < b ? b : a;
	return p;
}

void handoff_read(struct handoff_gate *g, int cpu_a, int cpu_b, struct handoff_reading *out)
{
	memset(out, 0, sizeof(*out));
	out->probed = HANDOFF_NOT_PROBED;
	out->probe_ns = NAN;
	if (!g || g->status != HANDOFF_MEASURED || cpu_a == cpu_b || cpu_a < 0 || cpu_b < 0)
		return;
	double ns = NAN;
	enum handoff_status st = (g->probe ? g->probe : handoff_probe)(cpu_a, cpu_b, HANDOFF_TRIPS, &ns, &g->why);
	if (st != HANDOFF_MEASURED || !(ns > 0)) {
		g->status = HANDOFF_UNAVAILABLE;
		return;
	}
	struct handoff_pair *pair = pair_of(g, cpu_a, cpu_b);
	if (pair->n == pair->cap)
		pair->ns = xrealloc(pair->ns, (pair->cap = pair->cap ? 2 * pair->cap : 64) * sizeof(*pair->ns));
	pair->ns[pair->n++] = ns;
	/* all of them again: a few thousand doubles, once a batch */
	levels_find(pair->ns, pair->n, &pair->levels);
	out->probed = HANDOFF_PROBED;
	out->probe_ns = ns;
	out->levels = pair->levels;
	out->state = levels_of(&pair->levels, ns);
}

const struct levels *handoff_levels(const struct handoff_gate *g, int cpu_a, int cpu_b)
{
	static const struct levels none;
	const struct handoff_pair *p = g ? find_pair(g, cpu_a, cpu_b) : NULL;
	return p ? &p->levels : &none;
}

void handoff_gate_release(struct handoff_gate *g)
{
	for (size_t i = 0; i < g->npairs; i++)
		free(g->pairs[i].ns);
	free(g->pairs);
	g->pairs = NULL;
	g->npairs = g->cap = 0;
	sb_release(&g->why);
}

const char *handoff_state_name(unsigned state, unsigned states)
{
	static const char *const names[] = { "none", "near", "far", "farthest" };
	if (states < 2)
		return state ? "one" : "none";
	return state <= LEVELS_MAX ? names[state] : "none";
}

void handoff_mix_say(const struct handoff_mix *m, struct strbuf *sb)
{
	if (m->states < 2 || !m->total)
		return;
	unsigned most = 1;
	for (unsigned g = 1; g < m->states; g++)
		if (m->batches[g] > m->batches[most - 1])
			most = g + 1;
	double share = 100.0 * (double)m->batches[most - 1] / (double)m->total;
	sb_addf(sb, "the host kept the two CPUs %s (a cache line's round trip %.0f ns",
		most == 1 ? "near each other" : "apart", m->level_ns[most - 1]);
	for (unsigned g = 1; g <= m->states; g++)
		if (g != most)
			sb_addf(sb, ", against %.0f ns %s", m->level_ns[g - 1], handoff_state_name(g, m->states));
	sb_addf(sb, ") before %.0f %% of the %zu batches", share, m->total);
	for (unsigned g = 1; g <= m->states; g++)
		if (g != most && m->batches[g - 1])
			sb_addf(sb, ", %s before %.0f %%", handoff_state_name(g, m->states),
				100.0 * (double)m->batches[g - 1] / (double)m->total);
}
