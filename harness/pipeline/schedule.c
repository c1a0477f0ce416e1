/* schedule.c: see schedule.h */
#define _GNU_SOURCE
#include "pipeline/schedule.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "core/runcmd.h"
#include "core/stats.h"
#include "system/thermal.h"

/* One schedule_run(): the per-cell counts beside the caller's cells. */
struct sched {
	const struct schedule *s;
	const struct schedule_policy *p;
	unsigned *taken; /* runs of this schedule */
	double *spent;   /* seconds they took */
	int *active;     /* admitted and not done */
	/* the cells an open answer took past their own target: they keep
	 * taking runs to their budget whatever the answer says next, so that
	 * no answer stops on the round that happened to make it sure (a lead
	 * measured until it looks real looks more real than it is) */
	unsigned char *extended;
	unsigned *batches; /* of this schedule, skipped or not */
};

static void add(double *total, double v)
{
	if (total)
		*total += v;
}

/* Whether the cell's rerun interval (stats.h) reaches the target: 95 % and
 * narrow enough, so that a rerun's figure lands within the target. */
static int precise(const struct schedule_policy *p, const struct stats *t)
{
	return t->rerun_level >= STATS_CI_TARGET && stats_rerun_percent(t) <= p->precision;
}

static unsigned max_runs(const struct schedule_policy *p)
{
	return p->max_runs > p->runs ? p->max_runs : p->runs;
}

unsigned schedule_emulated_runs(const struct schedule_policy *p)
{
	return p->runs < SCHEDULE_EMULATED_RUNS ? p->runs : SCHEDULE_EMULATED_RUNS;
}

/* The runs every cell gets: `runs`, or fewer for an emulated one. */
static unsigned runs_due(const struct schedule_policy *p, const struct cell *c)
{
	return c->spec.cross ? schedule_emulated_runs(p) : p->runs;
}

/* An interval stated at 45 % tells a reader little, and misses a rerun's
 * figure half the time: the runs for 95 % come first, within
 * SCHEDULE_LEVEL_BUDGETS budgets. */
int schedule_wants_more(const struct schedule_policy *p, const struct cell *c, unsigned taken, double spent_s)
{
	if (fb_interrupted || taken >= max_runs(p))
		return 0;
	if (c->spec.cross)
		return taken < runs_due(p, c);
	if (taken < p->runs)
		return 1;
	if (p->precision > 0 && taken < p->runs_for_rerun && spent_s < SCHEDULE_LEVEL_BUDGETS * p->cell_budget)
		return 1;
	return p->precision > 0 && spent_s < p->cell_budget && !precise(p, &c->measure.time);
}

void schedule_precision_record(const struct schedule_policy *p, struct cell *c, double spent_s)
{
	struct cell_precision *r = &c->measure.precision;
	/* an emulated cell has no precision target */
	r->status = p->precision <= 0 || c->spec.cross ? PRECISION_OFF
		    : precise(p, &c->measure.time) ? PRECISION_REACHED : PRECISION_NOT_REACHED;
	r->target_percent = p->precision;
	r->budget_s = p->cell_budget;
	r->spent_s = spent_s;
}

int schedule_open_budget_left(const struct schedule_policy *p, unsigned taken, double spent_s)
{
	if (spent_s < SCHEDULE_UNDECIDED_BUDGETS * p->cell_budget)
		return 1;
	return taken < p->runs_for_rerun &&
	       spent_s < (SCHEDULE_LEVEL_BUDGETS + SCHEDULE_UNDECIDED_BUDGETS) * p->cell_budget;
}

static int wants_more(const struct sched *k, size_t i)
{
	if (schedule_wants_more(k->p, k->s->cells[i], k->taken[i], k->spent[i]))
		return 1;
	/* past its own target: runs go where an answer may flip */
	if (!k->s->hooks.undecided || fb_interrupted || k->p->precision <= 0 || k->taken[i] >= max_runs(k->p) ||
	    !schedule_open_budget_left(k->p, k->taken[i], k->spent[i]))
		return 0;
	if (!k->extended[i])
		k->extended[i] = (unsigned char)(k->s->hooks.undecided(k->s->hooks.ctx, i) != 0);
	return k->extended[i];
}

/* The most batches a cell puts off for its CPUs (system/handoff.h): four
 * times the runs a 95 % interval needs.  A skip costs a probe, not a run,
 * but a host that keeps the CPUs apart must not hold the cell for ever:
 * past that a far batch runs, is kept, and said.  With twice, a yes-only
 * run with the CPUs far before 65 % of its batches kept 192 far runs; with
 * four times, one at 69 % kept 73, in 39 s against 35 s. */
static int skip_left(const struct sched *k, const struct cell *c, unsigned runs)
{
	unsigned most = k->p->runs_for_rerun > k->p->runs ? k->p->runs_for_rerun : k->p->runs;
	return c->measure.handoff.runs_skipped + runs <= 4 * most;
}

/* Where the host had a stream cell's two CPUs before a batch of `runs`,
 * into its record; `skipped` when the batch is not run. */
static void record_handoff(struct cell *c, const struct handoff_reading *before, unsigned runs, int skipped)
{
	struct cell_handoff *h = &c->measure.handoff;
	if (before->state == HANDOFF_NOT_PROBED)
		return;
	h->batches++;
	if (!(h->near_ns <= before->near_ns))
		h->near_ns = before->near_ns;
	if (before->state != HANDOFF_FAR)
		return;
	if (!(h->far_ns >= before->probe_ns))
		h->far_ns = before->probe_ns;
	if (skipped) {
		h->skipped++;
		h->runs_skipped += runs;
	} else {
		h->far_kept++;
		h->runs_far_kept += runs;
	}
}

static void done(const struct sched *k, size_t i, enum schedule_end end)
{
	struct cell *c = k->s->cells[i];
	const struct cell_handoff *h = &c->measure.handoff;
	if (h->runs_far_kept && c->measure.time.n)
		sv_pushf(&c->warnings,
			 "%u of its %zu runs ran with its two CPUs far apart on the host (a cache line's round trip "
			 "%.0f ns, against %.0f ns near), after %u such runs were put off to another round: those "
			 "runs may be slower for where the host put the CPUs, not for the build",
			 h->runs_far_kept, c->measure.time.n, h->far_ns, h->near_ns, h->runs_skipped);
	k->active[i] = 0;
	if (k->s->hooks.done)
		k->s->hooks.done(k->s->hooks.ctx, i, end, k->spent[i]);
}

/* Temperatures and clocks before and after a batch of runs; a throttled
 * cell is flagged in its warnings (and so in the tables). */
static void record_thermal(struct cell *c, const struct thermal_snapshot *before, const struct thermal_snapshot *after)
{
	struct strbuf why = STRBUF_INIT;
	struct cell_thermal *t = &c->measure.thermal;
	cell_thermal_free(t);
	t->taken = 1;
	t->throttled = thermal_throttled(before, after, &why);
	t->why = xstrdup(why.buf ? why.buf : "");
	t->celsius_before = before->celsius;
	t->celsius_after = after->celsius;
	t->before = thermal_snapshot_to_json(before);
	t->after = thermal_snapshot_to_json(after);
	if (t->throttled == THROTTLE_YES)
		sv_pushf(&c->warnings, "throttled: %s", t->why);
	sb_release(&why);
}

/* The round of each run the batch added and its place in that round's
 * order (-1: outside the rounds); the runs before it keep theirs, or -1
 * where none was recorded. */
static void record_rounds(struct cell_measurement *m, size_t had, int round, int place)
{
	if (m->time.n < had) /* measured anew */
		had = m->nrounds = 0;
	if (round < 0 && !m->nrounds)
		return;
	m->rounds = xrealloc(m->rounds, (m->time.n + 1) * sizeof(*m->rounds));
	m->places = xrealloc(m->places, (m->time.n + 1) * sizeof(*m->places));
	for (size_t j = m->nrounds; j < had; j++)
		m->rounds[j] = m->places[j] = -1;
	for (size_t j = had; j < m->time.n; j++) {
		m->rounds[j] = round;
		m->places[j] = place;
	}
	m->nrounds = m->time.n;
}

/* What batch() did: ran (or failed), or, in rounds, skipped without
 * running because the host had the cell's CPUs far apart. */
enum batch_outcome {
	BATCH_FAILED = -1,
	BATCH_RAN = 0,
	BATCH_SKIPPED = 1,
};

/* A round in which every cell that wanted a run skipped it waits this
 * long before the next: a far spell lasts seconds, and rounds of probes
 * alone would spend the cells' skips in a moment. */
#define FAR_ROUND_PAUSE_S 0.1

/* One batch of runs through the executor; a cell's first batch of this
 * schedule takes the warmup, and the new runs join any times it has.
 * may_skip (rounds): a batch the probe before it reads far is not run,
 * and another round gives the cell its run. */
static enum batch_outcome batch(const struct sched *k, size_t i, unsigned runs, int round, int place, int may_skip)
{
	const struct schedule *s = k->s;
	struct cell *c = s->cells[i];
	struct measure_opts o = *s->mo;
	o.runs = runs;
	o.warmup = k->taken[i] ? 0 : k->p->warmup;
	o.append = c->measure.time.n > 0;
	struct handoff_reading cpus = { .state = HANDOFF_NOT_PROBED };
	/* a cell measured anew starts a new record; one whose first batches
	 * were skipped keeps it */
	int first_batch = !k->batches[i]++;
	if (!o.append && first_batch)
		cell_handoff_clear(&c->measure.handoff);
	if (s->handoff && c->spec.family->kind != KIND_COMPUTE && !c->spec.cross)
		handoff_read(s->handoff, c->spec.pin.producer, c->spec.pin.consumer, &cpus);
	int skip = may_skip && cpus.state == HANDOFF_FAR && skip_left(k, c, runs);
	record_handoff(c, &cpus, runs, skip);
	if (skip)
		return BATCH_SKIPPED;
	struct thermal_snapshot before, after;
	if (k->p->thermal_root)
		thermal_snapshot_take(k->p->thermal_root, &before);
	double cool = 0, spent = 0, t0 = now_monotonic();
	size_t had = c->measure.time.n;
	int v = s->x->measure(c, &o, &cool, &spent);
	double dt = now_monotonic() - t0;
	record_rounds(&c->measure, had, round, place);
	c->measure.pass = k->p->pass;
	if (k->p->thermal_root) {
		thermal_snapshot_take(k->p->thermal_root, &after);
		record_thermal(c, &before, &after);
		thermal_snapshot_free(&before);
		thermal_snapshot_free(&after);
	}
	add(s->tally.measure_s, dt - cool);
	add(s->tally.cooldown_s, cool);
	k->spent[i] += spent;
	k->taken[i] += runs;
	return v == 0 ? BATCH_RAN : BATCH_FAILED;
}

/* The pause (cooldown.h); with SCHEDULE_PAUSE_EACH_CELL the first of the
 * cell's cooldown records. */
static void pause_before(const struct sched *k, struct cell *c)
{
	struct cooldown_record rec;
	if (k->p->pause == SCHEDULE_PAUSE_EACH_CELL)
		c->measure.ncooldown = 0;
	if (!k->s->x->pause(k->p->cool, k->s->mo, &rec))
		return;
	add(k->s->tally.cooldown_s, rec.waited_s);
	if (k->p->pause != SCHEDULE_PAUSE_EACH_CELL)
		return;
	struct cell_measurement *m = &c->measure;
	m->cooldown = xrealloc(m->cooldown, (m->ncooldown + 1) * sizeof(*m->cooldown));
	m->cooldown[m->ncooldown++] = rec;
}

static int admit(const struct sched *k, size_t i)
{
	const struct schedule_hooks *h = &k->s->hooks;
	return h->admit ? h->admit(h->ctx, i) : 0;
}

/* Cell after cell: the pause, then batches until it is content. */
static enum schedule_status run_sequential(const struct sched *k)
{
	const struct schedule *s = k->s;
	int paused = 0;
	for (size_t i = 0; i < s->n && !fb_interrupted; i++) {
		if (admit(k, i) != 0) {
			done(k, i, SCHEDULE_NOT_ADMITTED);
			continue;
		}
		k->active[i] = 1;
		double t0 = now_monotonic();
		if (k->p->pause == SCHEDULE_PAUSE_EACH_CELL || (k->p->pause == SCHEDULE_PAUSE_ONCE && !paused++))
			pause_before(k, s->cells[i]);
		int v = fb_interrupted ? -1 : batch(k, i, runs_due(k->p, s->cells[i]), -1, -1, 0);
		while (v == 0 && wants_more(k, i)) {
			/* up to the runs a 95 % rerun interval needs (9 for the median,
			 * 13 for p25), then half as many again */
			unsigned have = k->taken[i], need = k->p->runs_for_rerun;
			unsigned more = have < need ? need - have : have / 2, left = max_runs(k->p) - have;
			v = batch(k, i, more < left ? more : left, -1, -1, 0);
		}
		add(s->tally.wall_s, now_monotonic() - t0);
		done(k, i, v == 0 ? SCHEDULE_MEASURED : k->taken[i] ? SCHEDULE_FAILED : SCHEDULE_INTERRUPTED);
		if (v != 0 && k->p->on_failure == SCHEDULE_STOP_ALL)
			return SCHEDULE_STOPPED;
	}
	return fb_interrupted ? SCHEDULE_WAS_INTERRUPTED : SCHEDULE_DONE;
}

struct blocked {
	unsigned long long group_key, block_key;
	size_t place, cell;
};

static int cmp_blocked(const void *x, const void *y)
{
	const struct blocked *u = x, *v = y;
	if (u->group_key != v->group_key)
		return u->group_key < v->group_key ? -1 : 1;
	if (u->block_key != v->block_key)
		return u->block_key < v->block_key ? -1 : 1;
	return (u->place > v->place) - (u->place < v->place);
}

/* order[0..n) already shuffled: each group's blocks together and each
 * block's cells together, in that order within a block, the groups and
 * the blocks in orders drawn from seed (schedule.h). */
static void group_blocks(const unsigned *block, const unsigned *group, size_t *order, size_t n,
			 unsigned long long *seed)
{
	struct blocked *b = xmalloc((n + 1) * sizeof(*b));
	unsigned long long block_salt = stats_random(seed), group_salt = stats_random(seed);
	for (size_t j = 0; j < n; j++) {
		size_t i = order[j];
		/* a key per number and round: equal numbers get equal keys */
		b[j] = (struct blocked){ group ? stats_random_at(group_salt, group[i]) : 0,
					 stats_random_at(block_salt, block[i]), j, i };
	}
	qsort(b, n, sizeof(*b), cmp_blocked);
	for (size_t j = 0; j < n; j++)
		order[j] = b[j].cell;
	free(b);
}

/* The round's cells in their order for this round. */
static void arrange(const struct sched *k, size_t *order, size_t n, unsigned round, const size_t *turns,
		    unsigned long long *seed)
{
	if (k->p->order == SCHEDULE_SHUFFLED) {
		stats_shuffle(order, n, seed);
		if (k->s->block)
			group_blocks(k->s->block, k->s->group, order, n, seed);
	} else if (k->p->order == SCHEDULE_BALANCED && turns && round < k->p->runs && n > 1) {
		size_t by = turns[round] % n, *was = xmalloc(n * sizeof(*was));
		for (size_t j = 0; j < n; j++)
			was[j] = order[j];
		for (size_t j = 0; j < n; j++)
			order[j] = was[(j + by) % n];
		free(was);
	}
}

/* Every cell admitted first, then rounds of one run per cell that wants
 * one; a cell content after a round is done then. */
static enum schedule_status run_rounds(const struct sched *k)
{
	const struct schedule *s = k->s;
	const struct schedule_policy *p = k->p;
	size_t *order = xcalloc(s->n + 1, sizeof(size_t)), *turns = NULL;
	unsigned long long seed = p->seed;
	for (size_t i = 0; i < s->n && !fb_interrupted; i++) {
		k->active[i] = admit(k, i) == 0;
		if (!k->active[i])
			done(k, i, SCHEDULE_NOT_ADMITTED);
	}
	if (p->order == SCHEDULE_BALANCED && s->n) {
		/* every turn of the list equally often, in a shuffled order, so a
		 * disturbance that comes back every few seconds cannot line up
		 * with one side, as it can with A B, B A, A B, ... */
		turns = xcalloc(p->runs + 1, sizeof(*turns));
		for (unsigned r = 0; r < p->runs; r++)
			turns[r] = r % s->n;
		stats_shuffle(turns, p->runs, &seed);
	}
	int paused = 0, stopped = 0;
	for (unsigned round = 0; !fb_interrupted && !stopped; round++) {
		size_t n = 0;
		for (size_t i = 0; i < s->n; i++)
			if (k->active[i] && (round == 0 || wants_more(k, i)))
				order[n++] = i;
		if (!n)
			break;
		/* the cells report when all rounds are done: say how the rounds go */
		if (p->progress_every && round > 0 && round % p->progress_every == 0)
			fprintf(stderr, "flagbench: round %u: %zu cells want more runs (%.0fs so far)\n", round + 1, n,
				s->tally.wall_s ? *s->tally.wall_s : 0);
		arrange(k, order, n, round, turns, &seed);
		size_t ran = 0;
		for (size_t j = 0; j < n && !fb_interrupted && !stopped; j++) {
			size_t i = order[j];
			double t0 = now_monotonic();
			if (round == 0 && (p->pause == SCHEDULE_PAUSE_EACH_CELL || (p->pause == SCHEDULE_PAUSE_ONCE && !paused++)))
				pause_before(k, s->cells[i]);
			if (fb_interrupted)
				break;
			enum batch_outcome v = batch(k, i, 1, (int)(p->round_base + round), (int)j, 1);
			ran += v != BATCH_SKIPPED;
			add(s->tally.wall_s, now_monotonic() - t0);
			if (v == BATCH_FAILED) {
				done(k, i, SCHEDULE_FAILED);
				stopped = p->on_failure == SCHEDULE_STOP_ALL;
			}
		}
		for (size_t j = 0; j < n && !fb_interrupted && !stopped; j++)
			if (k->active[order[j]] && !wants_more(k, order[j]))
				done(k, order[j], SCHEDULE_MEASURED);
		if (s->hooks.round_done)
			s->hooks.round_done(s->hooks.ctx, round);
		if (!ran && !fb_interrupted) {
			double t0 = now_monotonic();
			struct timespec ts = { 0, (long)(FAR_ROUND_PAUSE_S * 1e9) };
			nanosleep(&ts, NULL);
			/* not a cooldown (results.json's phases keep that for the
			 * thermal pauses), but the wall time of the rounds */
			add(s->tally.wall_s, now_monotonic() - t0);
		}
	}
	/* interrupted (or stopped): a cell that has its runs keeps them */
	for (size_t i = 0; i < s->n; i++)
		if (k->active[i])
			done(k, i, (!fb_interrupted && !stopped) || k->taken[i] >= runs_due(p, s->cells[i])
					   ? SCHEDULE_MEASURED : SCHEDULE_INTERRUPTED);
	free(turns);
	free(order);
	return stopped ? SCHEDULE_STOPPED : fb_interrupted ? SCHEDULE_WAS_INTERRUPTED : SCHEDULE_DONE;
}

enum schedule_status schedule_run(const struct schedule *s)
{
	struct sched k = { s, s->policy, xcalloc(s->n + 1, sizeof(unsigned)), xcalloc(s->n + 1, sizeof(double)),
			   xcalloc(s->n + 1, sizeof(int)), xcalloc(s->n + 1, 1), xcalloc(s->n + 1, sizeof(unsigned)) };
	enum schedule_status st = s->policy->order == SCHEDULE_SEQUENTIAL ? run_sequential(&k) : run_rounds(&k);
	free(k.extended);
	free(k.batches);
	free(k.taken);
	free(k.spent);
	free(k.active);
	return st;
}

enum schedule_status schedule_listed_run(struct cell **cells, size_t n, const struct schedule_listed *l)
{
	struct measure_opts mo = {
		.hyperfine = l->hyperfine,
		.workdir = l->workdir,
		.run_timeout_s = l->run_timeout_s,
		.cooldown_below_c = NAN,
		.quantile = 0.5,
	};
	struct schedule_policy pol = {
		.order = SCHEDULE_LISTED,
		.round_base = l->round_base,
		.runs = l->runs,
		.warmup = l->warmup,
	};
	struct schedule sc = {
		.policy = &pol,
		.x = l->x ? l->x : &executor_hyperfine,
		.mo = &mo,
		.cells = cells,
		.n = n,
		.hooks = l->hooks,
		.handoff = l->handoff,
	};
	return schedule_run(&sc);
}
