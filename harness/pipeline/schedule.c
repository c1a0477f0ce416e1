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
static int wants(const struct schedule_policy *p, const struct cell *c, unsigned taken, unsigned have,
		 const struct stats *t, double spent_s)
{
	if (fb_interrupted || taken >= max_runs(p))
		return 0;
	if (c->spec.cross)
		return taken < runs_due(p, c);
	if (taken < p->runs)
		return 1;
	/* short of `runs` in its state: within the level budgets */
	if (have < p->runs)
		return p->cell_budget > 0 && spent_s < SCHEDULE_LEVEL_BUDGETS * p->cell_budget;
	if (p->precision > 0 && have < p->runs_for_rerun && spent_s < SCHEDULE_LEVEL_BUDGETS * p->cell_budget)
		return 1;
	return p->precision > 0 && spent_s < p->cell_budget && !precise(p, t);
}

int schedule_wants_more(const struct schedule_policy *p, const struct cell *c, unsigned taken, double spent_s)
{
	return wants(p, c, taken, taken, &c->measure.time, spent_s);
}

/* The state a stream cell's runs are wanted in: the one most of its
 * pair's readings so far are in (the host's usual state, where every
 * cell of a comparison gets its runs soonest; the nearest of equals).
 * 0 where the pair shows one state or none. */
static unsigned wanted_state(const struct levels *l)
{
	if (l->k < 2)
		return 0;
	unsigned best = 1;
	for (unsigned g = 1; g < l->k; g++)
		if (l->count[g] > l->count[best - 1])
			best = g + 1;
	return best;
}

/* The cell's runs in state `want` by the levels found so far: their count,
 * and their stats in *t (the caller frees). */
static unsigned runs_in_state(const struct cell *c, const struct levels *l, unsigned want, struct stats *t)
{
	const struct cell_measurement *m = &c->measure;
	const struct cell_handoff *h = &m->handoff;
	double *v = xmalloc((m->time.n + 1) * sizeof(*v));
	size_t covered = 0, n = 0;
	for (size_t b = 0; b < h->batches; b++)
		covered += h->batch[b].runs;
	size_t r = covered <= m->time.n ? m->time.n - covered : m->time.n;
	for (size_t b = 0; b < h->batches && r < m->time.n; b++) {
		unsigned in = levels_of(l, h->batch[b].ns) == want;
		for (unsigned k = 0; k < h->batch[b].runs && r < m->time.n; k++, r++)
			if (in)
				v[n++] = m->time.runs[r];
	}
	stats_compute_at(t, v, n, m->time.quantile);
	free(v);
	return (unsigned)n;
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

/* A stream cell whose pair shows more than one state wants runs until
 * the wanted state has them: runs of another state are kept, figures of
 * that state, but a comparison within the wanted one needs its own. */
static int cell_wants_more(const struct sched *k, size_t i)
{
	const struct cell *c = k->s->cells[i];
	const struct levels *l = handoff_levels(k->s->handoff, c->spec.pin.producer, c->spec.pin.consumer);
	unsigned want = c->measure.handoff.batches ? wanted_state(l) : 0;
	if (!want)
		return schedule_wants_more(k->p, c, k->taken[i], k->spent[i]);
	struct stats t;
	unsigned have = runs_in_state(c, l, want, &t);
	int w = wants(k->p, c, k->taken[i], have, &t, k->spent[i]);
	stats_free(&t);
	return w;
}

static int wants_more(const struct sched *k, size_t i)
{
	if (cell_wants_more(k, i))
		return 1;
	/* past its own target: runs go where an answer may flip */
	if (!k->s->hooks.undecided || fb_interrupted || k->p->precision <= 0 || k->taken[i] >= max_runs(k->p) ||
	    !schedule_open_budget_left(k->p, k->taken[i], k->spent[i]))
		return 0;
	if (!k->extended[i])
		k->extended[i] = (unsigned char)(k->s->hooks.undecided(k->s->hooks.ctx, i) != 0);
	return k->extended[i];
}

/* Where the host had a stream cell's two CPUs before a batch that added
 * `runs` runs, into its record, with the state the pair's readings so far
 * put it in (schedule_settle_states settles them at the end). */
static void record_handoff(struct cell *c, const struct handoff_reading *before, unsigned runs)
{
	struct cell_handoff *h = &c->measure.handoff;
	if (before->probed != HANDOFF_PROBED)
		return;
	cell_handoff_add(h, before->probe_ns, runs, before->state);
	h->states = before->levels.k;
	for (unsigned g = 0; g < LEVELS_MAX; g++)
		h->level_ns[g] = g < before->levels.k ? before->levels.center[g] : 0;
}

static void done(const struct sched *k, size_t i, enum schedule_end end)
{
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

/* One batch of runs through the executor, a stream cell's probed first;
 * a cell's first batch of this schedule takes the warmup, and the new
 * runs join any times it has.  0, or -1 when it failed. */
static int batch(const struct sched *k, size_t i, unsigned runs, int round, int place)
{
	const struct schedule *s = k->s;
	struct cell *c = s->cells[i];
	struct measure_opts o = *s->mo;
	o.runs = runs;
	o.warmup = k->taken[i] ? 0 : k->p->warmup;
	o.append = c->measure.time.n > 0;
	struct handoff_reading cpus = { .probed = HANDOFF_NOT_PROBED };
	/* a cell measured anew starts a new record */
	if (!o.append)
		cell_handoff_clear(&c->measure.handoff);
	if (s->handoff && c->spec.family->kind != KIND_COMPUTE && !c->spec.cross)
		handoff_read(s->handoff, c->spec.pin.producer, c->spec.pin.consumer, &cpus);
	struct thermal_snapshot before, after;
	if (k->p->thermal_root)
		thermal_snapshot_take(k->p->thermal_root, &before);
	double cool = 0, spent = 0, t0 = now_monotonic();
	size_t had = c->measure.time.n;
	int v = s->x->measure(c, &o, &cool, &spent);
	double dt = now_monotonic() - t0;
	record_rounds(&c->measure, had, round, place);
	record_handoff(c, &cpus, c->measure.time.n > had ? (unsigned)(c->measure.time.n - had) : 0);
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
	return v == 0 ? 0 : -1;
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
		int v = fb_interrupted ? -1 : batch(k, i, runs_due(k->p, s->cells[i]), -1, -1);
		while (v == 0 && wants_more(k, i)) {
			/* up to the runs a 95 % rerun interval needs (9 for the median,
			 * 13 for p25), then half as many again */
			unsigned have = k->taken[i], need = k->p->runs_for_rerun;
			unsigned more = have < need ? need - have : have / 2, left = max_runs(k->p) - have;
			v = batch(k, i, more < left ? more : left, -1, -1);
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
		for (size_t j = 0; j < n && !fb_interrupted && !stopped; j++) {
			size_t i = order[j];
			double t0 = now_monotonic();
			if (round == 0 && (p->pause == SCHEDULE_PAUSE_EACH_CELL || (p->pause == SCHEDULE_PAUSE_ONCE && !paused++)))
				pause_before(k, s->cells[i]);
			if (fb_interrupted)
				break;
			int v = batch(k, i, 1, (int)(p->round_base + round), (int)j);
			add(s->tally.wall_s, now_monotonic() - t0);
			if (v != 0) {
				done(k, i, SCHEDULE_FAILED);
				stopped = p->on_failure == SCHEDULE_STOP_ALL;
			}
		}
		for (size_t j = 0; j < n && !fb_interrupted && !stopped; j++)
			if (k->active[order[j]] && !wants_more(k, order[j]))
				done(k, order[j], SCHEDULE_MEASURED);
		if (s->hooks.round_done)
			s->hooks.round_done(s->hooks.ctx, round);
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
			   xcalloc(s->n + 1, sizeof(int)), xcalloc(s->n + 1, 1) };
	enum schedule_status st = s->policy->order == SCHEDULE_SEQUENTIAL ? run_sequential(&k) : run_rounds(&k);
	free(k.extended);
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

void schedule_settle_states(struct cell *cells, size_t n)
{
	double *ns = NULL;
	size_t cap = 0;
	unsigned char *settled = xcalloc(n + 1, 1);
	for (size_t i = 0; i < n; i++) {
		if (!cells[i].measure.handoff.batches || settled[i])
			continue;
		int a = cells[i].spec.pin.producer, b = cells[i].spec.pin.consumer;
		/* every cell of this pair of CPUs, either way round */
		size_t m = 0;
		for (size_t j = i; j < n; j++) {
			const struct cell_handoff *o = &cells[j].measure.handoff;
			int x = cells[j].spec.pin.producer, y = cells[j].spec.pin.consumer;
			if (!o->batches || !((x == a && y == b) || (x == b && y == a)))
				continue;
			if (m + o->batches > cap)
				ns = xrealloc(ns, (cap = 2 * (m + o->batches)) * sizeof(*ns));
			for (size_t k = 0; k < o->batches; k++)
				ns[m++] = o->batch[k].ns;
		}
		struct levels l;
		levels_find(ns, m, &l);
		for (size_t j = i; j < n; j++) {
			struct cell_handoff *o = &cells[j].measure.handoff;
			int x = cells[j].spec.pin.producer, y = cells[j].spec.pin.consumer;
			if (!o->batches || !((x == a && y == b) || (x == b && y == a)))
				continue;
			for (size_t k = 0; k < o->batches; k++)
				o->batch[k].state = levels_of(&l, o->batch[k].ns);
			o->states = l.k;
			for (unsigned g = 0; g < LEVELS_MAX; g++)
				o->level_ns[g] = g < l.k ? l.center[g] : 0;
			settled[j] = 1;
		}
	}
	free(settled);
	free(ns);
}
