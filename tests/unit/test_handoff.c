/* test_handoff.c: the gate before a stream batch (system/handoff.h) on a
 * made-up probe, and the real probe where two CPUs are there. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>

#include "system/handoff.h"

/* the made-up probe: reads these in turn, then the last one forever */
static const double *reads;
static size_t nreads, probed;

static enum handoff_status fake_probe(int a, int b, unsigned trips, double *ns, struct strbuf *why)
{
	if (!nreads) {
		sb_addf(why, "no probe here");
		return HANDOFF_UNAVAILABLE;
	}
	*ns = reads[probed < nreads ? probed : nreads - 1];
	probed++;
	return HANDOFF_MEASURED;
}

static void use(const double *r, size_t n)
{
	reads = r;
	nreads = n;
	probed = 0;
}

/* One reading of the pair (0, 1) reading ns; its provisional state. */
static unsigned read_as(struct handoff_gate *g, double ns, struct handoff_reading *w)
{
	static double one; /* reads points at it after this returns */
	one = ns;
	use(&one, 1);
	handoff_read(g, 0, 1, w);
	return w->state;
}

static struct handoff_gate fake_gate(void)
{
	struct handoff_gate g = HANDOFF_GATE_INIT;
	g.probe = fake_probe;
	return g;
}

/* One probe a batch, each reading kept; its state among all the pair's
 * readings so far: one level while they are alike, two once three
 * readings of another show. */
static void probes_once_and_keeps(void **state)
{
	struct handoff_gate g = fake_gate();
	struct handoff_reading w;
	for (int i = 0; i < 10; i++) {
		assert_int_equal(read_as(&g, 84 + i % 3, &w), 1);
		assert_int_equal(w.probed, HANDOFF_PROBED);
		assert_int_equal(w.levels.k, 1);
	}
	assert_int_equal(probed, 1);
	assert_int_equal(read_as(&g, 360, &w), 1); /* one stray reading: not a level */
	assert_int_equal(read_as(&g, 370, &w), 1);
	assert_int_equal(read_as(&g, 365, &w), 2);
	assert_int_equal(w.levels.k, 2);
	assert_true(w.probe_ns == 365);
	assert_int_equal(read_as(&g, 86, &w), 1);
	/* the pair's two directions are one pair */
	handoff_read(&g, 1, 0, &w);
	assert_int_equal(g.npairs, 1);
	assert_int_equal(handoff_levels(&g, 1, 0)->k, 2);
	assert_int_equal(handoff_levels(&g, 0, 2)->k, 0);
	handoff_gate_release(&g);
}

/* A pair first seen far, for 13 batches, then near: once near shows,
 * those readings are far and the near ones near; no level learnt in the
 * far spell calls far near.  An unanswered probe is the farthest. */
static void starts_far(void **state)
{
	struct handoff_gate g = fake_gate();
	struct handoff_reading w;
	for (int i = 0; i < 13; i++)
		read_as(&g, 470 + i, &w);
	assert_int_equal(w.levels.k, 1);
	for (int i = 0; i < 20; i++)
		read_as(&g, 88 + i % 4, &w);
	assert_int_equal(w.state, 1);
	assert_int_equal(w.levels.k, 2);
	assert_int_equal(read_as(&g, 475, &w), 2);
	assert_int_equal(read_as(&g, INFINITY, &w), 2);
	const struct levels *l = handoff_levels(&g, 0, 1);
	assert_true(l->center[0] > 85 && l->center[0] < 95 && l->center[1] > 460 && l->center[1] < 490);
	for (int i = 0; i < 13; i++)
		assert_int_equal(levels_of(l, 470 + i), 2);
	handoff_gate_release(&g);
}

/* No probe: the gate says why once and probes no more; one CPU or none
 * is not probed at all. */
static void unavailable_and_one_cpu(void **state)
{
	struct handoff_gate g = fake_gate();
	struct handoff_reading w;
	use(NULL, 0);
	handoff_read(&g, 0, 1, &w);
	assert_int_equal(w.probed, HANDOFF_NOT_PROBED);
	assert_int_equal(g.status, HANDOFF_UNAVAILABLE);
	assert_non_null(strstr(g.why.buf, "no probe here"));
	assert_int_equal(read_as(&g, 84, &w), 0);
	assert_int_equal(w.probed, HANDOFF_NOT_PROBED);
	assert_int_equal(probed, 0);
	handoff_gate_release(&g);
	struct handoff_gate h = fake_gate();
	handoff_read(&h, 1, 1, &w);
	assert_int_equal(w.probed, HANDOFF_NOT_PROBED);
	handoff_read(&h, -1, 1, &w);
	assert_int_equal(w.probed, HANDOFF_NOT_PROBED);
	assert_int_equal(probed, 0);
	handoff_read(NULL, 0, 1, &w);
	assert_int_equal(w.probed, HANDOFF_NOT_PROBED);
	handoff_gate_release(&h);
}

/* The real probe: a round trip on two CPUs this process may use is a
 * finite time; the same CPU twice, or one it may not use, says why. */
static void real_probe(void **state)
{
	struct strbuf why = STRBUF_INIT;
	double ns;
	assert_int_equal(handoff_probe(0, 0, 100, &ns, &why), HANDOFF_UNAVAILABLE);
	assert_true(isnan(ns) && why.len > 0);
	cpu_set_t set;
	assert_int_equal(sched_getaffinity(0, sizeof(set), &set), 0);
	int cpus[2], n = 0, outside = -1;
	for (int c = 0; c < CPU_SETSIZE; c++) {
		if (CPU_ISSET(c, &set) && n < 2)
			cpus[n++] = c;
		else if (!CPU_ISSET(c, &set) && outside < 0)
			outside = c;
	}
	sb_reset(&why);
	if (outside >= 0) {
		assert_int_equal(handoff_probe(cpus[0], outside, 100, &ns, &why), HANDOFF_UNAVAILABLE);
		assert_non_null(strstr(why.buf, "cannot start a thread on CPU"));
	}
	cpu_set_t after;
	assert_int_equal(sched_getaffinity(0, sizeof(after), &after), 0);
	assert_true(CPU_EQUAL(&set, &after)); /* the caller's CPUs are given back */
	sb_release(&why);
	if (n < 2)
		skip(); /* one CPU: nothing to hand off between */
	/* INFINITY is a partner that never answered: not a reading.  On a
	 * loaded machine a probe may lose its partner for 50 ms (at a load of
	 * 57 on 2 CPUs, five probes of 1000 trips in a row did): short probes,
	 * up to 20, of which one must read a finite time; a probe that never
	 * works fails. */
	int finite = 0;
	for (int i = 0; i < 20 && !finite; i++) {
		assert_int_equal(handoff_probe(cpus[0], cpus[1], 60, &ns, &why), HANDOFF_MEASURED);
		assert_true(ns > 0 && !isnan(ns));
		finite = isfinite(ns);
	}
	assert_true(finite);
	assert_int_equal(sched_getaffinity(0, sizeof(after), &after), 0);
	assert_true(CPU_EQUAL(&set, &after));
}

/* Every pair a session uses is probed and kept, however many there are
 * (a fixed table once left the 17th and later pairs unprobed, silently). */
static void every_pair_probed(void **state)
{
	struct handoff_gate g = fake_gate();
	struct handoff_reading w;
	const double r[] = { 85 };
	for (int round = 0; round < 2; round++)
		for (int b = 1; b <= 40; b++) {
			use(r, 1);
			handoff_read(&g, 0, b, &w);
			assert_int_equal(w.state, 1);
		}
	assert_int_equal(g.npairs, 40);
	assert_int_equal(g.pairs[39].n, 2);
	handoff_gate_release(&g);
	assert_int_equal(g.npairs, 0);
}

struct concurrent {
	int a, b, measured, finite, unavailable_why;
};

static void *probe_often(void *arg)
{
	struct concurrent *c = arg;
	struct strbuf why = STRBUF_INIT;
	for (int i = 0; i < 20; i++) {
		double ns;
		sb_reset(&why);
		if (handoff_probe(c->a, c->b, 300, &ns, &why) == HANDOFF_MEASURED) {
			c->measured += ns > 0;
			c->finite += isfinite(ns);
		} else
			c->unavailable_why += why.len > 0 && isnan(ns);
	}
	sb_release(&why);
	return NULL;
}

/* Two threads probing at once: every probe ends, measured or unavailable
 * with the reason (a loaded machine may not start a thread within 1 s),
 * and gives its threads back (under ASan, no line freed while the other
 * side spins on it).  A shared line (a static one) is not told apart by this: here it
 * read 5-11 of 20 probes finite against 13-17 with a line per call, too
 * close on a loaded machine for a threshold. */
static void probes_at_once(void **state)
{
	cpu_set_t set;
	assert_int_equal(sched_getaffinity(0, sizeof(set), &set), 0);
	int cpus[2], n = 0;
	for (int c = 0; c < CPU_SETSIZE && n < 2; c++)
		if (CPU_ISSET(c, &set))
			cpus[n++] = c;
	if (n < 2)
		skip(); /* one CPU: nothing to hand off between */
	struct concurrent c[2] = { { cpus[0], cpus[1], 0, 0, 0 }, { cpus[1], cpus[0], 0, 0, 0 } };
	pthread_t t[2];
	for (int i = 0; i < 2; i++)
		assert_int_equal(pthread_create(&t[i], NULL, probe_often, &c[i]), 0);
	for (int i = 0; i < 2; i++)
		assert_int_equal(pthread_join(t[i], NULL), 0);
	for (int i = 0; i < 2; i++)
		assert_int_equal(c[i].measured + c[i].unavailable_why, 20);
	assert_true(c[0].finite + c[1].finite > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(probes_once_and_keeps),
		cmocka_unit_test(starts_far),
		cmocka_unit_test(unavailable_and_one_cpu),
		cmocka_unit_test(real_probe),
		cmocka_unit_test(every_pair_probed),
		cmocka_unit_test(probes_at_once),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
