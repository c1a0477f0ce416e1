/* history_sim.c: simulated nightly histories, the history's change points
 * (analysis/history_changes.h, the code `flagbench history changes` runs) beside
 * today's gate (each night against the last accepted baseline at its
 * threshold, confirmed side by side, as ci/nightly.sh did).
 *
 * Each cell's runs are drawn from a real cell's spread: the log residuals
 * (run / median) of a cell of the results.json files given, resampled,
 * scaled to --run-cv where given; each night moves every run of a cell by
 * one draw of N(0, --night-sd).  Half the cells get one step (+2, 3, 5 or
 * 10 %) at a random night: half of those with a new binary (another sha256
 * and compiler version: one recorded fact), half with the same binary and
 * one library changed.  Beside them, the bound: what a test told the
 * step's night finds (oracle_found).  bench/history_sim.sh builds and
 * runs it.
 *
 * usage: history_sim [--nights N] [--cells C] [--runs R] [--seed S]
 *                    [--night-sd PCT] [--run-cv PCT] [--alarm-rate PCT]
 *                    [--measured 0|1] [--write DIR] RESULTS.json...
 * --measured 1 (the default): the night a new binary or library comes is
 * measured beside the previous night's binary or kept libraries, as the
 * nightly does (measure_beside);
 * 0: the nights alone, as before the nightly did.
 * --write DIR: the nights as results.json files (DIR/night-NNN/) and no
 * analysis, for timing `flagbench history import` and `changes`.
 */
#define _GNU_SOURCE
#include <gsl/gsl_cdf.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/stats.h"
#include "core/util.h"
#include "analysis/history_changes.h"

static unsigned long long rng = 1;

static double uni(void)
{
	return ((double)(stats_random(&rng) >> 11) + 0.5) / 9007199254740992.0;
}

static double gauss(void)
{
	return sqrt(-2 * log(uni())) * cos(2 * M_PI * uni());
}

static int cmpd(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* the residual pools: one per real cell with 3 runs or more */
struct pool {
	double *r;
	size_t n;
};
static struct pool *pools;
static size_t npools;

/* the pair pools: two builds of one variant measured in the same rounds
 * of one real run (a variant's builds run back to back, one block), their
 * log residuals paired by round: what a new binary measured beside the old
 * one shares with it within a round */
struct pair_pool {
	double *a, *b;
	size_t n;
};
static struct pair_pool *pairs;
static size_t npairs;

/* cell c's log residuals (run / median) by round, NAN where none: 1 with
 * out[0..max_round] set, 0 when it has no rounds */
#define MAX_ROUND 256
static int residuals_by_round(const json_t *c, double *out)
{
	const json_t *t = json_object_get(c, "time_s"), *runs = json_object_get(t, "runs"),
		     *rounds = json_object_get(t, "rounds");
	size_t n = json_array_size(runs);
	if (n < 3 || json_array_size(rounds) != n || strcmp(json_string_value(json_object_get(c, "status")) ?: "", "ok"))
		return 0;
	double *s = xcalloc(n, sizeof(double));
	for (size_t k = 0; k < n; k++)
		s[k] = json_number_value(json_array_get(runs, k));
	qsort(s, n, sizeof(double), cmpd);
	double med = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(s);
	for (size_t r = 0; r < MAX_ROUND; r++)
		out[r] = NAN;
	for (size_t k = 0; k < n; k++) {
		json_int_t r = json_integer_value(json_array_get(rounds, k));
		double v = json_number_value(json_array_get(runs, k));
		if (r >= 0 && r < MAX_ROUND && v > 0 && med > 0)
			out[r] = log(v / med);
	}
	return 1;
}

static void load_pairs(const json_t *doc)
{
	const json_t *cells = json_object_get(doc, "cells");
	for (size_t i = 0; i < json_array_size(cells); i++) {
		const json_t *x = json_array_get(cells, i);
		const char *fx = json_string_value(json_object_get(x, "family")),
			   *vx = json_string_value(json_object_get(x, "variant"));
		double ra[MAX_ROUND], rb[MAX_ROUND];
		if (!fx || !vx || !residuals_by_round(x, ra))
			continue;
		for (size_t j = i + 1; j < json_array_size(cells); j++) {
			const json_t *y = json_array_get(cells, j);
			const char *fy = json_string_value(json_object_get(y, "family")),
				   *vy = json_string_value(json_object_get(y, "variant"));
			if (!fy || !vy || strcmp(fx, fy) || strcmp(vx, vy) || !residuals_by_round(y, rb))
				continue;
			struct pair_pool p = { xcalloc(MAX_ROUND, sizeof(double)), xcalloc(MAX_ROUND, sizeof(double)), 0 };
			for (size_t r = 0; r < MAX_ROUND; r++)
				if (!isnan(ra[r]) && !isnan(rb[r])) {
					p.a[p.n] = ra[r];
					p.b[p.n++] = rb[r];
				}
			if (p.n < 3) {
				free(p.a);
				free(p.b);
				continue;
			}
			/* two builds of one speed: the pairs' differences centred on 0
			 * (two cells' own medians leave their median difference off 0,
			 * which would read as a real step of every rebuild) */
			double *d = xcalloc(p.n, sizeof(double));
			for (size_t k = 0; k < p.n; k++)
				d[k] = p.b[k] - p.a[k];
			qsort(d, p.n, sizeof(double), cmpd);
			double md = p.n % 2 ? d[p.n / 2] : (d[p.n / 2 - 1] + d[p.n / 2]) / 2;
			free(d);
			for (size_t k = 0; k < p.n; k++)
				p.b[k] -= md;
			pairs = xrealloc(pairs, (npairs + 1) * sizeof(*pairs));
			pairs[npairs++] = p;
		}
	}
}

static void load_pools(const char *file)
{
	json_t *doc = json_load_file(file, 0, NULL);
	size_t i;
	json_t *c;
	load_pairs(doc);
	json_array_foreach(json_object_get(doc, "cells"), i, c) {
		json_t *runs = json_object_get(json_object_get(c, "time_s"), "runs");
		size_t n = json_array_size(runs);
		if (n < 3 || strcmp(json_string_value(json_object_get(c, "status")) ?: "", "ok"))
			continue;
		double *v = xcalloc(n, sizeof(double));
		int ok = 1;
		for (size_t k = 0; k < n; k++)
			ok &= (v[k] = json_number_value(json_array_get(runs, k))) > 0;
		if (!ok) {
			free(v);
			continue;
		}
		double *s = xcalloc(n, sizeof(double));
		memcpy(s, v, n * sizeof(double));
		qsort(s, n, sizeof(double), cmpd);
		double med = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
		for (size_t k = 0; k < n; k++)
			v[k] = log(v[k] / med);
		free(s);
		pools = xrealloc(pools, (npools + 1) * sizeof(*pools));
		pools[npools++] = (struct pool){ v, n };
	}
	json_decref(doc);
}

static double pool_sd(const struct pool *p)
{
	double ss = 0;
	for (size_t k = 0; k < p->n; k++)
		ss += p->r[k] * p->r[k];
	return sqrt(ss / (double)(p->n > 1 ? p->n - 1 : 1));
}

struct cell_plan {
	const struct pool *pool;
	double scale;  /* of the residuals */
	size_t step;   /* night of the step, or (size_t)-1 */
	double size;   /* ratio */
	int binary;    /* 1: a new binary; 0: a library */
	size_t rebuild; /* a cell without a step: the night a new binary of the same speed came, or (size_t)-1 */
};

#define MAX_RUNS 512
static size_t NIGHTS = 60, CELLS = 100, RUNS = 5;
static double NIGHT_SD = 0.005, RUN_CV = 0, ALARM = 0.01;
static int MEASURED = 1; /* the nightly measures new binaries beside the old (--measured 0: not) */

/* seconds of run k of cell c on night n (night effect e) */
static double draw(const struct cell_plan *c, size_t n, double e)
{
	double level = c->step != (size_t)-1 && n >= c->step ? c->size : 1;
	return 0.1 * level * exp(e + c->scale * c->pool->r[stats_random(&rng) % c->pool->n]);
}

/* ---- today's gate: each night against the last accepted baseline ---- */

static double lower_quartile(double *v, size_t n)
{
	qsort(v, n, sizeof(double), cmpd);
	size_t r = (size_t)ceil(0.25 * (double)n);
	return v[r ? r - 1 : 0];
}

/* compare's verdict of new over base: the bootstrap interval of the ratio
 * of lower quartiles reaches above 1 + t (slower or inconclusive) */
static int suspect(const double *base, const double *nw, size_t n, double t)
{
	double ratios[400], a[MAX_RUNS], b[MAX_RUNS];
	for (int k = 0; k < 400; k++) {
		for (size_t i = 0; i < n; i++) {
			a[i] = base[stats_random(&rng) % n];
			b[i] = nw[stats_random(&rng) % n];
		}
		ratios[k] = lower_quartile(b, n) / lower_quartile(a, n);
	}
	qsort(ratios, 400, sizeof(double), cmpd);
	return ratios[389] > 1 + t; /* the 97.5 % point */
}

/* --confirm 10: both binaries side by side tonight, 10 pairs; slower when
 * the sign-test interval (10 pairs: [min, max], 99.8 %) lies above 1 + t.
 * The same binary on both sides is never a suspect (compare called it
 * "same binary"). */
static int confirmed(const struct cell_plan *c, size_t base_night, size_t night, double t)
{
	double e = NIGHT_SD * gauss(), lo = INFINITY;
	for (int k = 0; k < 10; k++) {
		double r = draw(c, night, e) / draw(c, base_night, e);
		lo = r < lo ? r : lo;
	}
	return lo > 1 + t;
}

/* ---- the night of a new binary measured beside the old one ----
 *
 * The nightly measures every new binary beside the previous night's
 * (compare --confirm 20 --confirm-changed --record, NIGHTLY_BESIDE_ROUNDS): 20 pairs in one night
 * (one night effect for both; with the runs as recorded and files whose
 * cells kept their rounds, each pair two builds' residuals of one round of
 * a real run, so the pairs share a round's state as real ones do), the sign-test interval of their ratios at
 * 99.8 % (the sign test: [min, max] of 10 pairs), an open answer measured again up to
 * twice (40 and 60 pairs), the verdict at the threshold t.  The history
 * reads it as the step's size at that night (analysis/history_changes.h). */
#define BESIDE_ROUNDS 20
#define BESIDE_LEVEL 0.998

/* one round's ratio of the new binary over the old: from a pair pool (the
 * runs as recorded, rounds kept: the two builds' residuals of one round),
 * else two independent draws */
static double beside_ratio(const struct cell_plan *c, const struct pair_pool *pp, int swap, size_t base_night,
			   size_t night, double e)
{
	if (!pp)
		return draw(c, night, e) / draw(c, base_night, e);
	double level = (c->step != (size_t)-1 && night >= c->step ? c->size : 1) /
		       (c->step != (size_t)-1 && base_night >= c->step ? c->size : 1);
	size_t k = stats_random(&rng) % pp->n;
	return level * exp(swap ? pp->a[k] - pp->b[k] : pp->b[k] - pp->a[k]);
}

static void measure_beside(const struct cell_plan *c, size_t base_night, size_t night, double t, struct hist_beside *b)
{
	double e = NIGHT_SD * gauss(), r[3 * BESIDE_ROUNDS];
	size_t n = 0;
	const char *verdict = "inconclusive";
	double lo = NAN, hi = NAN, mid = NAN;
	const struct pair_pool *pp = npairs && RUN_CV <= 0 ? &pairs[stats_random(&rng) % npairs] : NULL;
	int swap = (int)(stats_random(&rng) % 2);
	for (int ext = 0; ext < 3; ext++) {
		for (int k = 0; k < BESIDE_ROUNDS; k++, n++)
			r[n] = beside_ratio(c, pp, swap, base_night, night, e);
		double v[3 * BESIDE_ROUNDS];
		memcpy(v, r, n * sizeof(double));
		qsort(v, n, sizeof(double), cmpd);
		/* the sign test's interval [x(k), x(n - k + 1)], as the harness's */
		double covered;
		size_t k = stats_median_ci_rank(n, BESIDE_LEVEL, &covered);
		lo = v[k - 1];
		hi = v[n - k];
		mid = n % 2 ? v[n / 2] : sqrt(v[n / 2 - 1] * v[n / 2]);
		verdict = lo > 1 + t ? "slower" : hi < 1 / (1 + t) ? "faster" : lo >= 1 / (1 + t) && hi <= 1 + t ? "same" : "inconclusive";
		if (strcmp(verdict, "inconclusive"))
			break;
	}
	b->run = xasprintf("night-%03zu", base_night);
	b->verdict = xstrdup(verdict);
	b->rounds = (unsigned)n;
	b->ratio = mid;
	b->low = lo;
	b->high = hi;
	b->level = BESIDE_LEVEL;
	b->threshold = t;
}

/* ---- the bound: a test that knows the step's night ----
 *
 * No method that has to find where a step is can do better than one told
 * where to look: the nights' figures (the lower quartile of each night's
 * runs, in logs) after the step against those of the 20 nights before it,
 * a one-sided t-test at the false-alarm rate per cell-night the goals ask
 * (1 in 1,000), found when it rejects with `delay` nights after.  Where
 * this bound misses a step, the machine's spread is what misses it. */
#define ORACLE_BEFORE 20
#define ORACLE_FALSE 0.001

static double night_figure(const double *runs, size_t n)
{
	double v[MAX_RUNS];
	memcpy(v, runs, n * sizeof(double));
	return log(lower_quartile(v, n));
}

static int oracle_found(double **nights, size_t step, size_t delay)
{
	if (step + delay > NIGHTS)
		return 0;
	size_t from = step > ORACLE_BEFORE ? step - ORACLE_BEFORE : 0, nb = step - from;
	double mb = 0, ma = 0, ss = 0;
	for (size_t n = from; n < step; n++)
		mb += night_figure(nights[n], RUNS) / (double)nb;
	for (size_t n = step; n < step + delay; n++)
		ma += night_figure(nights[n], RUNS) / (double)delay;
	for (size_t n = from; n < step + delay; n++) {
		double d = night_figure(nights[n], RUNS) - (n < step ? mb : ma);
		ss += d * d;
	}
	double df = (double)(nb + delay - 2), sd = sqrt(ss / df);
	double t = (ma - mb) / (sd * sqrt(1.0 / (double)nb + 1.0 / (double)delay));
	return t > gsl_cdf_tdist_Pinv(1 - ORACLE_FALSE, df);
}

/* ---- the history's facts ---- */

static char *sha_of(const struct cell_plan *c, size_t i, size_t n)
{
	return xasprintf("%060zx%04d", i,
			 (c->binary && c->step != (size_t)-1 && n >= c->step) || (c->rebuild != (size_t)-1 && n >= c->rebuild));
}

static void build_data(struct cell_plan *plan, double ***times, struct history_data *d)
{
	memset(d, 0, sizeof(*d));
	d->runs = xcalloc(NIGHTS, sizeof(*d->runs));
	d->nruns = NIGHTS;
	for (size_t n = 0; n < NIGHTS; n++) {
		struct hist_run *r = &d->runs[n];
		r->run_id = xasprintf("night-%03zu", n);
		r->profile = xstrdup("sim");
		r->host = xstrdup("sim");
		r->started = xasprintf("2027-01-01T00:00:00Z+%03zu", n);
		r->facts = xcalloc(1, sizeof(*r->facts));
		r->facts[0] = (struct hist_fact){ xstrdup("kernel"), xstrdup("6.1.0-13") };
		r->nfacts = 1;
	}
	d->series = xcalloc(CELLS, sizeof(*d->series));
	d->nseries = CELLS;
	for (size_t i = 0; i < CELLS; i++) {
		struct hist_series *s = &d->series[i];
		const struct cell_plan *c = &plan[i];
		s->profile = xstrdup("sim");
		s->host = xstrdup("sim");
		s->cell = xasprintf("sim/c%03zu@gcc/-O2", i);
		s->pts = xcalloc(NIGHTS, sizeof(*s->pts));
		s->n = NIGHTS;
		for (size_t n = 0; n < NIGHTS; n++) {
			struct hist_point *p = &s->pts[n];
			int after = c->step != (size_t)-1 && n >= c->step;
			p->run = n;
			p->status = xstrdup("ok");
			p->size = 1;
			p->times = xcalloc(RUNS, sizeof(double));
			memcpy(p->times, times[i][n], RUNS * sizeof(double));
			p->ntimes = RUNS;
			p->instructions = NAN;
			p->sha256 = sha_of(c, i, n);
			p->compiler_version = xstrdup(c->binary && after ? "gcc 13.2.0" : "gcc 12.2.0");
			p->cflags = xstrdup("[\"-O2\"]");
			p->argv = xstrdup("[\"1000\"]");
			p->family = xstrdup("sim");
			p->libs = xcalloc(2, sizeof(*p->libs));
			p->libs[0] = (struct hist_fact){ xstrdup("/lib/x86_64-linux-gnu/libc.so.6"), xstrdup("c1") };
			p->libs[1] = (struct hist_fact){ xstrdup("/usr/lib/libsim.so.1"),
							 xstrdup(!c->binary && after ? "s2" : "s1") };
			p->nlibs = 2;
			p->libs_listed = 1;
			/* the night a new binary or a new library came, measured beside
			 * the old one, a library on the night before's kept copy (--measured 1) */
			if (MEASURED && (c->step == n || c->rebuild == n) && n > 0) {
				measure_beside(c, n - 1, n, 0.03, &p->beside);
				p->beside.base_sha256 = sha_of(c, i, n - 1);
				p->beside.libraries = !c->binary && c->step == n;
			}
		}
	}
}

static void write_nights(const char *dir, struct cell_plan *plan, double ***times)
{
	for (size_t n = 0; n < NIGHTS; n++) {
		json_t *cells = json_array();
		for (size_t i = 0; i < CELLS; i++) {
			json_t *runs = json_array();
			for (size_t k = 0; k < RUNS; k++)
				json_array_append_new(runs, json_real(times[i][n][k]));
			char *sha = sha_of(&plan[i], i, n);
			json_array_append_new(cells, json_pack("{s:s+, s:s, s:s, s:s, s:s, s:I, s:{s:o}, s:{s:s, s:I, s:[{s:s, s:s}]}}",
							       "id", "sim/c", xasprintf("%03zu@gcc/-O2", i) /* leaked: a bench */,
							       "family", "sim", "variant", "c", "config", "gcc/-O2", "status", "ok", "size", (json_int_t)1,
							       "time_s", "runs", runs, "binary", "sha256", sha, "bytes", (json_int_t)1000,
							       "libraries", "path", "/usr/lib/libsim.so.1", "sha256",
							       !plan[i].binary && plan[i].step != (size_t)-1 && n >= plan[i].step ? "s2" : "s1"));
			free(sha);
		}
		char *id = xasprintf("2027%02zu%02zuT020000Z-nightly-sim", 1 + n / 28, 1 + n % 28);
		char *started = xasprintf("2027-%02zu-%02zuT02:00:00Z", 1 + n / 28, 1 + n % 28);
		json_t *doc = json_pack("{s:s, s:{s:s, s:s, s:s}, s:{s:s, s:s}, s:o}", "schema", "flagbench-results/1", "run", "id",
					id, "started", started, "cpu_profile", "sim", "host", "hostname", "sim", "kernel", "6.1",
					"cells", cells);
		char *d = xasprintf("%s/night-%03zu", dir, n), *f = xasprintf("%s/results.json", d);
		mkdir_p(d, 0755);
		json_dump_file(doc, f, JSON_COMPACT);
		json_decref(doc);
		free(id);
		free(started);
		free(d);
		free(f);
	}
}

int main(int argc, char **argv)
{
	const char *write = NULL;
	int i;
	for (i = 1; i < argc - 1 && !strncmp(argv[i], "--", 2); i += 2) {
		const char *o = argv[i] + 2, *v = argv[i + 1];
		if (!strcmp(o, "nights"))
			NIGHTS = strtoul(v, NULL, 10);
		else if (!strcmp(o, "cells"))
			CELLS = strtoul(v, NULL, 10);
		else if (!strcmp(o, "runs"))
			RUNS = strtoul(v, NULL, 10);
		else if (!strcmp(o, "seed"))
			rng = strtoull(v, NULL, 10);
		else if (!strcmp(o, "night-sd"))
			NIGHT_SD = atof(v) / 100;
		else if (!strcmp(o, "run-cv"))
			RUN_CV = atof(v) / 100;
		else if (!strcmp(o, "alarm-rate"))
			ALARM = atof(v) / 100;
		else if (!strcmp(o, "measured"))
			MEASURED = atoi(v) != 0;
		else if (!strcmp(o, "write"))
			write = v;
		else
			die(2, "history_sim: unknown option --%s", o);
	}
	for (; i < argc; i++)
		load_pools(argv[i]);
	if (!npools || NIGHTS < 20 || RUNS < 1 || RUNS > MAX_RUNS)
		die(2, "history_sim: no cell with 3 runs or more in the files given, or --nights < 20, or --runs outside 1..%d",
		    MAX_RUNS);
	static const double sizes[] = { 1.02, 1.03, 1.05, 1.10 };
	struct cell_plan *plan = xcalloc(CELLS, sizeof(*plan));
	size_t k = 0;
	for (size_t c = 0; c < CELLS; c++) {
		plan[c].pool = &pools[stats_random(&rng) % npools];
		plan[c].scale = RUN_CV > 0 ? RUN_CV / pool_sd(plan[c].pool) : 1;
		plan[c].step = plan[c].rebuild = (size_t)-1;
		/* a quarter of the cells: rebuilt once at the same speed (a change
		 * elsewhere in the family): a measured step there is false */
		if (c % 4 == 0)
			plan[c].rebuild = 10 + stats_random(&rng) % (NIGHTS - 16);
		if (c % 2) {
			plan[c].step = 10 + stats_random(&rng) % (NIGHTS - 16);
			plan[c].size = sizes[k % 4];
			plan[c].binary = (k / 4) % 2 == 0;
			k++;
		}
	}
	double ***times = xcalloc(CELLS, sizeof(double **));
	for (size_t c = 0; c < CELLS; c++) {
		times[c] = xcalloc(NIGHTS, sizeof(double *));
		for (size_t n = 0; n < NIGHTS; n++) {
			double e = NIGHT_SD * gauss();
			times[c][n] = xcalloc(RUNS, sizeof(double));
			for (size_t r = 0; r < RUNS; r++)
				times[c][n][r] = draw(&plan[c], n, e);
		}
	}
	if (write) {
		write_nights(write, plan, times);
		printf("wrote %zu nights of %zu cells under %s\n", NIGHTS, CELLS, write);
		return 0;
	}
	struct history_data d;
	build_data(plan, times, &d);
	/* the history: every prefix analysed as the nightly would, night by night */
	size_t *found = xcalloc(CELLS, sizeof(size_t)); /* delay + 1 of the first detection; 0 none */
	size_t online_false = 0, online_nights = 0, alarm_false = 0;
	for (size_t L = 3; L <= NIGHTS; L++) {
		d.nruns = L;
		for (size_t c = 0; c < CELLS; c++)
			d.series[c].n = L;
		struct history_analysis a;
		history_analyse_data(&d, METRIC_TIME, ALARM, &a);
		for (size_t c = 0; c < CELLS; c++) {
			const struct hcell *h = &a.cells[c];
			size_t s = plan[c].step;
			int newest_true = s == L - 1;
			if (!newest_true) {
				online_nights++;
				for (size_t p = 0; p < h->ncps; p++)
					online_false += h->cps[p].point.at == L - 1;
			}
			/* what fails the nightly (history_alarm): a change point that
			 * alarms tonight away from a true step (+-1 night) */
			for (size_t p = 0; p < h->ncps; p++)
				alarm_false += h->cps[p].alarm &&
					       (s == (size_t)-1 || h->cps[p].point.at + 1 < s || h->cps[p].point.at > s + 1);
			for (size_t p = 0; p < h->ncps && s != (size_t)-1 && !found[c]; p++)
				if (h->cps[p].point.at + 1 >= s && h->cps[p].point.at <= s + 1 && L > s)
					found[c] = L - s;
		}
		history_analysis_free(&a);
	}
	/* the whole history once: false change points and what changed */
	struct history_analysis a;
	history_analyse_data(&d, METRIC_TIME, ALARM, &a);
	size_t false_cps = 0, free_nights = 0, named = 0, named_right = 0;
	for (size_t c = 0; c < CELLS; c++) {
		const struct hcell *h = &a.cells[c];
		size_t s = plan[c].step;
		free_nights += s == (size_t)-1 ? NIGHTS : NIGHTS - 1;
		for (size_t p = 0; p < h->ncps; p++) {
			if (s == (size_t)-1 || h->cps[p].point.at + 1 < s || h->cps[p].point.at > s + 1) {
				false_cps++;
				continue;
			}
			named++;
			const struct cp_cause *cause = &h->cps[p].cause;
			int right = plan[c].binary ? cause->kind == CAUSE_BINARY && cause->what.n == 1 &&
							     !strcmp(cause->what.v[0], "compiler gcc 12.2.0 -> gcc 13.2.0")
						   : cause->kind == CAUSE_SYSTEM && cause->what.n == 1 &&
							     !strcmp(cause->what.v[0], "library /usr/lib/libsim.so.1");
			named_right += right;
		}
	}
	history_analysis_free(&a);
	/* today's gate over the same nights */
	size_t *today = xcalloc(CELLS, sizeof(size_t)), today_false = 0, today_nights = 0;
	for (size_t c = 0; c < CELLS; c++) {
		size_t base = 0;
		for (size_t n = 1; n < NIGHTS; n++) {
			int same = !plan[c].binary || plan[c].step == (size_t)-1 || (n < plan[c].step) == (base < plan[c].step);
			int fail = !same && suspect(times[c][base], times[c][n], RUNS, 0.03) && confirmed(&plan[c], base, n, 0.03);
			int stepped = plan[c].step != (size_t)-1 && n >= plan[c].step && base < plan[c].step;
			if (!stepped) {
				today_nights++;
				today_false += fail;
			}
			if (fail && stepped && !today[c])
				today[c] = n - plan[c].step + 1;
			if (!fail)
				base = n;
		}
	}
	printf("%zu nights x %zu cells, %zu runs a night, night sd %.2f %%, runs %s%.2f %%, alarm rate %g %%, new binaries %s\n",
	       NIGHTS, CELLS, RUNS, NIGHT_SD * 100, RUN_CV > 0 ? "cv " : "as recorded, e.g. ",
	       (RUN_CV > 0 ? RUN_CV : pool_sd(&pools[0])) * 100, ALARM * 100,
	       !MEASURED ? "not measured beside the old"
	       : npairs && RUN_CV <= 0 ? "measured beside the old (pairs of one round of a real run)"
				       : "measured beside the old (independent draws)");
	printf("%-6s %-8s %6s  %-28s  %-28s  %s\n", "step", "changed", "cells", "history: found within 1/3/5", "today: within 1/3/5",
	       "bound: 3/5");
	for (size_t z = 0; z < 4; z++)
		for (int b = 1; b >= 0; b--) {
			size_t n = 0, h1 = 0, h3 = 0, h5 = 0, t1 = 0, t3 = 0, t5 = 0, o3 = 0, o5 = 0;
			for (size_t c = 0; c < CELLS; c++) {
				if (plan[c].step == (size_t)-1 || plan[c].size != sizes[z] || plan[c].binary != b)
					continue;
				n++;
				h1 += found[c] && found[c] <= 1;
				h3 += found[c] && found[c] <= 3;
				h5 += found[c] && found[c] <= 5;
				t1 += today[c] && today[c] <= 1;
				t3 += today[c] && today[c] <= 3;
				t5 += today[c] && today[c] <= 5;
				o3 += oracle_found(times[c], plan[c].step, 3);
				o5 += oracle_found(times[c], plan[c].step, 5);
			}
			printf("+%-4.0f%% %-8s %6zu  %8zu %8zu %8zu    %8zu %8zu %8zu    %5zu %4zu\n", (sizes[z] - 1) * 100,
			       b ? "binary" : "library", n, h1, h3, h5, t1, t3, t5, o3, o5);
		}
	printf("history: %zu false change points in %zu cell-nights without a step (%.3f per 1,000); "
	       "%zu false change points on the newest night in %zu nightly checks (%.3f per 1,000), "
	       "%zu false alarms that fail the night (%.3f per 1,000)\n",
	       false_cps, free_nights, 1000.0 * (double)false_cps / (double)free_nights, online_false, online_nights,
	       1000.0 * (double)online_false / (double)online_nights, alarm_false,
	       1000.0 * (double)alarm_false / (double)online_nights);
	printf("history: what changed named right at %zu of %zu steps found at their night (+-1)\n", named_right, named);
	printf("today: %zu false failures in %zu nightly checks without a new step (%.3f per 1,000)\n", today_false,
	       today_nights, 1000.0 * (double)today_false / (double)today_nights);
	return 0;
}
