/* test_history.c: change points (analysis/changepoint.h), what changed at
 * them (analysis/cp_cause.h) and the history file (results/history.h):
 * steps the tests know are found where they are, flat series and a lone
 * outlier night give none, a same-binary step is the system's, an import
 * twice adds nothing, a corrupt file is refused. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/changepoint.h"
#include "analysis/cp_cause.h"
#include "core/stats.h"
#include "driver/history.h"
#include "results/history.h"
#include "results/reader.h"

static double gauss(unsigned long long *st)
{
	double u = ((double)(stats_random(st) >> 11) + 0.5) / 9007199254740992.0;
	double v = ((double)(stats_random(st) >> 11) + 0.5) / 9007199254740992.0;
	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/* n nights of 5 runs each: 1 s, night noise sd_night, run noise sd_run
 * (relative), times step from night `at` on (at >= n: none); night
 * `outlier` (or none) off by 8 sd. */
static void make_series(struct cp_series *s, size_t n, double sd_night, double sd_run, size_t at, double step,
			size_t outlier, unsigned long long seed)
{
	unsigned long long st = seed;
	s->n = n;
	s->y = calloc(n, sizeof(double));
	s->w = calloc(n, sizeof(double));
	for (size_t i = 0; i < n; i++) {
		double level = (i >= at ? step : 1) * exp(sd_night * gauss(&st) + (i == outlier ? 8 * sd_night : 0));
		double x[5];
		for (int k = 0; k < 5; k++)
			x[k] = level * exp(sd_run * gauss(&st));
		cp_night(x, 5, CP_QUANTILE, &s->y[i], &s->w[i]);
	}
	cp_noise(s, CP_FLOOR_TIME);
}

static void test_night_summary(void **state)
{
	(void)state;
	double x[] = { 2, 1, 3 }, y, w;
	cp_night(x, 3, 0.5, &y, &w);
	assert_true(fabs(y - log(2)) < 1e-12);
	assert_true(w > 0);
	/* the lower quartile: X(ceil(3 / 4)) = X(1); its variance is larger
	 * than the median's for the same runs (1.85 s^2 / n against pi/2) */
	double wm = w;
	cp_night(x, 3, CP_QUANTILE, &y, &w);
	assert_true(fabs(y - log(1)) < 1e-12);
	assert_true(w > wm * 1.17 && w < wm * 1.19);
	/* runs in two modes, the slow one near the quartile (yes/gnu-yes on
	 * the VM here: 6 runs at 0.17 s, 7 at 0.35 s): the quartile is the
	 * fast mode's, but a night with one more slow run would read the slow
	 * mode, which the runs' order statistics say and their spread about the
	 * median (MAD: the slow mode's own) does not */
	double modes[13];
	for (int k = 0; k < 13; k++)
		modes[k] = (k < 6 ? 0.17 : 0.35) * (1 + 0.001 * k);
	cp_night(modes, 13, CP_QUANTILE, &y, &w);
	assert_true(fabs(y - log(0.17 * 1.003)) < 1e-12);
	assert_true(sqrt(w) > 0.15); /* log(0.35 / 0.17) / 3.92 = 0.18 */
	double one = 5;
	cp_night(&one, 1, CP_QUANTILE, &y, &w);
	assert_true(fabs(y - log(5)) < 1e-12);
	assert_true(w == 0);
}

static void test_step_found_where_it_is(void **state)
{
	(void)state;
	for (unsigned long long seed = 1; seed <= 20; seed++) {
		struct cp_series s;
		make_series(&s, 40, 0.005, 0.01, 25, 1.05, 99, seed);
		struct cp_point *p;
		size_t n = cp_segment(&s, 0.01, &p);
		assert_int_equal(n, 1);
		assert_int_equal(p[0].at, 25);
		assert_true(p[0].low < 1.05 + 0.01 && p[0].high > 1.05 - 0.01);
		assert_true(p[0].ratio > 1.03 && p[0].ratio < 1.07);
		free(p);
		cp_series_free(&s);
	}
}

static void test_flat_and_outlier_give_none(void **state)
{
	(void)state;
	size_t false_points = 0;
	for (unsigned long long seed = 1; seed <= 200; seed++) {
		struct cp_series s;
		make_series(&s, 30, 0.005, 0.01, 99, 1, seed % 2 ? 99 : 12, seed);
		struct cp_point *p;
		false_points += cp_segment(&s, cp_first_p(&s) <= 0.01 ? 0.01 : 0, &p);
		free(p);
		cp_series_free(&s);
	}
	/* at a cut of 1 %: 2 of 200 histories expected at most, outliers included */
	assert_true(false_points <= 2);
}

static void test_step_on_the_newest_night(void **state)
{
	(void)state;
	struct cp_series s;
	make_series(&s, 20, 0.003, 0.005, 19, 1.10, 99, 7);
	struct cp_point *p;
	size_t n = cp_segment(&s, 0.01, &p);
	assert_int_equal(n, 1);
	assert_int_equal(p[0].at, 19);
	assert_int_equal(p[0].to, 20);
	free(p);
	cp_series_free(&s);
}

/* A step's night is an estimate (cp_fits_at): 30 nights of 1 % noise, a
 * 2.5 % step at night 20, where the change was recorded.  The scan puts it
 * at 21 (these nights' noise); a step at 20 fits the runs nearly as well,
 * and nights 18 and 23 do not. */
static void test_step_fits_at_the_recorded_night(void **state)
{
	(void)state;
	unsigned long long st = 3;
	struct cp_series s = { .n = 30 };
	s.y = calloc(30, sizeof(double));
	s.w = calloc(30, sizeof(double));
	for (size_t i = 0; i < 30; i++) {
		s.y[i] = (i >= 20 ? 0.025 : 0) + 0.01 * gauss(&st);
		s.w[i] = 0.01 * 0.01;
	}
	cp_noise(&s, CP_FLOOR_TIME);
	struct cp_point *p;
	size_t n = cp_segment(&s, 0.01, &p);
	assert_int_equal(n, 1);
	assert_int_equal(p[0].at, 21);
	struct cp_point moved;
	assert_int_equal(cp_fits_at(&s, &p[0], 20, &moved), 0);
	assert_int_equal(moved.at, 20);
	assert_true(moved.ratio > 1.015 && moved.ratio < 1.035 && moved.low < moved.ratio && moved.high > moved.ratio);
	assert_true(moved.t > 0 && moved.t < p[0].t);
	assert_true(moved.p == p[0].p); /* found where it was found */
	assert_int_equal(cp_fits_at(&s, &p[0], 18, &moved), -1);
	assert_int_equal(cp_fits_at(&s, &p[0], 23, &moved), -1);
	assert_int_equal(cp_fits_at(&s, &p[0], 30, &moved), -1);
	assert_int_equal(cp_fits_at(&s, &p[0], 21, &moved), -1);
	free(p);
	cp_series_free(&s);
}

/* What a quiet history can say (cp_step_seen): the smallest step a test
 * told its night finds within 3 nights grows with the nights' noise, and
 * means what it says: the change points, which must find the night, find a
 * step twice as large within 3 nights in (nearly) every history (1.5
 * times: 17 of 20), and one a third its size seldom. */
static void test_step_seen(void **state)
{
	(void)state;
	size_t big = 0, small = 0;
	double log_ratio = 0;
	for (unsigned long long seed = 1; seed <= 20; seed++) {
		struct cp_series quiet, noisy;
		make_series(&quiet, 27, 0.005, 0.02, 99, 1, 99, seed);
		make_series(&noisy, 27, 0.005, 0.06, 99, 1, 99, seed);
		double seen = cp_step_seen(&quiet, 3), seen_noisy = cp_step_seen(&noisy, 3);
		assert_true(seen > 0.01 && seen < 0.1);
		log_ratio += log(seen_noisy / seen) / 20;
		assert_true(cp_step_seen(&quiet, 5) < seen);
		/* the runs a night for that step are the runs it has (5); for a
		 * step half its size about 4 times as many, more where the nights'
		 * excess weighs; none where the excess alone is too much */
		double now = cp_runs_for_step(&quiet, 5, seen * 0.999, 3), half = cp_runs_for_step(&quiet, 5, seen / 2, 3);
		assert_true(now >= 4 && now <= 6);
		assert_true(isinf(half) || half >= 4 * 5 - 1);
		assert_true(cp_runs_for_step(&quiet, 5, seen * 3, 3) == 1);
		struct cp_series excess = quiet;
		excess.tau2 = 0.05 * 0.05;
		assert_true(isinf(cp_runs_for_step(&excess, 5, seen, 3)));
		cp_series_free(&quiet);
		cp_series_free(&noisy);
		for (int k = 0; k < 2; k++) {
			struct cp_series s;
			make_series(&s, 27, 0.005, 0.02, 24, 1 + (k ? 0.3 : 2.0) * seen, 99, seed + 100);
			struct cp_point *p;
			size_t n = cp_segment(&s, cp_first_p(&s) <= 0.01 ? 0.01 : 0, &p), hit = 0;
			for (size_t i = 0; i < n; i++)
				hit |= p[i].at >= 23 && p[i].at <= 25;
			*(k ? &small : &big) += hit;
			free(p);
			cp_series_free(&s);
		}
	}
	/* runs 3 times as spread: the quartile's sd 3 times, tau the same */
	assert_true(exp(log_ratio) > 2.2 && exp(log_ratio) < 3.8);
	assert_true(big >= 18);
	assert_true(small <= 5);
	struct cp_series none = { 0 };
	assert_true(isnan(cp_step_seen(&none, 0)));
}

/* One machine's cells over 8 nights: 19 runs a night of run_sd spread
 * (9 % on the 2-vCPU VM here, where the nightly suite's night quartiles
 * vary as their runs say; 3 % on a quieter machine); cell 0 is 5 % slower
 * from night 5 (index 4) when step. */
#define POOL_CELLS 13
#define POOL_NIGHTS 8
static void make_machine(struct cp_series *s, int step, double run_sd, double noisy_sd, unsigned long long seed)
{
	unsigned long long st = seed;
	for (size_t c = 0; c < POOL_CELLS; c++) {
		s[c].n = POOL_NIGHTS;
		s[c].y = calloc(POOL_NIGHTS, sizeof(double));
		s[c].w = calloc(POOL_NIGHTS, sizeof(double));
		for (size_t i = 0; i < POOL_NIGHTS; i++) {
			/* cell 1 may move from night to night far beyond its runs */
			double level = (step && c == 0 && i >= 4 ? 1.05 : 1) * exp(c == 1 ? noisy_sd * gauss(&st) : 0);
			double x[19];
			for (int k = 0; k < 19; k++)
				x[k] = level * exp(run_sd * gauss(&st));
			cp_night(x, 19, CP_QUANTILE, &s[c].y[i], &s[c].w[i]);
		}
	}
}

/* The cells found with a change point at the cut their first scans pass
 * under Benjamini-Hochberg at 1 %, as `flagbench history` does; which
 * cells in *found (a bit per cell), the night of cell 0's in *at0. */
static size_t machine_changes(struct cp_series *s, int pooled, unsigned *found, size_t *at0)
{
	struct cp_series *ptr[POOL_CELLS];
	double p[POOL_CELLS];
	for (size_t c = 0; c < POOL_CELLS; c++) {
		ptr[c] = &s[c];
		if (!pooled)
			cp_noise(&s[c], CP_FLOOR_TIME);
	}
	if (pooled)
		cp_pool(ptr, POOL_CELLS, CP_FLOOR_TIME);
	for (size_t c = 0; c < POOL_CELLS; c++)
		p[c] = cp_first_p(&s[c]);
	double cut = cp_bh_cut(p, POOL_CELLS, 0.01);
	size_t n = 0;
	*found = 0;
	for (size_t c = 0; c < POOL_CELLS; c++) {
		struct cp_point *pt = NULL;
		size_t k = p[c] <= cut ? cp_segment(&s[c], cut, &pt) : 0;
		if (k) {
			*found |= 1u << c;
			if (c == 0)
				*at0 = pt[0].at;
		}
		n += k;
		free(pt);
	}
	return n;
}

/* The cells' shared scale finds in 8 nights, where it is, the 5 % step a
 * cell's own 6 degrees of freedom find half the time (runs of 3 %: a
 * night's quartile known to about 1.2 %): 15 of 20 against 9 here. */
static void test_pool_finds_the_short_history_step(void **state)
{
	(void)state;
	size_t pooled_found = 0, own_found = 0, other = 0;
	for (unsigned long long seed = 1; seed <= 20; seed++) {
		struct cp_series s[POOL_CELLS];
		unsigned found;
		size_t at0 = 0;
		make_machine(s, 1, 0.03, 0, seed);
		machine_changes(s, 1, &found, &at0);
		pooled_found += (found & 1) && (at0 == 4 || at0 == 5);
		other += (found & ~1u) != 0;
		machine_changes(s, 0, &found, &at0);
		own_found += found & 1;
		for (size_t c = 0; c < POOL_CELLS; c++)
			cp_series_free(&s[c]);
	}
	print_message("5 %% step in 8 nights: found by the pool in %zu of 20, by the cell alone in %zu\n", pooled_found,
		      own_found);
	assert_true(pooled_found >= 14);
	assert_true(pooled_found >= own_found + 5);
	assert_true(other <= 1);
}

/* No step anywhere: at most the alarm rate's share of machines has any
 * change point, a cell that moves 6 % from night to night (beyond its
 * runs) among them or not. */
static void test_pool_false_alarms(void **state)
{
	(void)state;
	size_t with_any = 0, noisy_with_any = 0;
	for (unsigned long long seed = 100; seed < 400; seed++) {
		struct cp_series s[POOL_CELLS];
		unsigned found;
		size_t at0;
		make_machine(s, 0, 0.09, 0, seed);
		with_any += machine_changes(s, 1, &found, &at0) > 0;
		for (size_t c = 0; c < POOL_CELLS; c++)
			cp_series_free(&s[c]);
		make_machine(s, 0, 0.09, 0.06, seed);
		noisy_with_any += machine_changes(s, 1, &found, &at0) > 0;
		for (size_t c = 0; c < POOL_CELLS; c++)
			cp_series_free(&s[c]);
	}
	print_message("machines with a false change point: %zu of 300, %zu of 300 with a noisy cell\n", with_any,
		      noisy_with_any);
	/* 1 % of 300 is 3; room for the binomial's spread */
	assert_true(with_any <= 8);
	assert_true(noisy_with_any <= 8);
}

static void test_bh_cut(void **state)
{
	(void)state;
	double p[] = { 0.001, 0.5, 0.012, 0.9 };
	/* ranks: 0.001 <= 0.05/4, 0.012 <= 0.05*2/4 = 0.025 */
	assert_true(cp_bh_cut(p, 4, 0.05) == 0.012);
	assert_true(cp_bh_cut(p, 4, 0.001) == 0);
	/* the rank's share is of m tests: 0.012 <= 0.05 / 4 passes alone */
	const double one[] = { 0.012, 0.9, 0.9, 0.9 };
	assert_true(cp_bh_cut(one, 4, 0.05) == 0.012);
}

/* ---- what changed ---- */

static struct hist_fact kernel_a[] = { { "kernel", "6.1.0-13" } }, kernel_b[] = { { "kernel", "6.1.0-17" } };
static struct hist_fact libs_a[] = { { "/lib/libc.so.6", "aaaa" }, { "/lib/libm.so.6", "mmmm" } };
static struct hist_fact libs_b[] = { { "/lib/libc.so.6", "bbbb" }, { "/lib/libm.so.6", "mmmm" } };

static void test_cause(void **state)
{
	(void)state;
	struct hist_run runs[2] = { { .facts = kernel_a, .nfacts = 1 }, { .facts = kernel_a, .nfacts = 1 } };
	struct history_data d = { .runs = runs, .nruns = 2 };
	struct hist_point a = { .run = 0, .sha256 = "s1", .compiler_version = "gcc 12", .cflags = "[\"-O2\"]",
				.libs = libs_a, .nlibs = 2, .libs_listed = 1 };
	struct hist_point b = a;
	b.run = 1;
	struct cp_cause c;
	/* nothing changed: the machine */
	cp_cause_of(&d, &a, &b, &c);
	assert_int_equal(c.kind, CAUSE_MACHINE);
	cp_cause_free(&c);
	/* one library: the system, that library */
	b.libs = libs_b;
	cp_cause_of(&d, &a, &b, &c);
	assert_int_equal(c.kind, CAUSE_SYSTEM);
	assert_int_equal(c.what.n, 1);
	assert_string_equal(c.what.v[0], "library /lib/libc.so.6");
	cp_cause_free(&c);
	/* the kernel alone */
	b.libs = libs_a;
	runs[1].facts = kernel_b;
	cp_cause_of(&d, &a, &b, &c);
	assert_int_equal(c.kind, CAUSE_SYSTEM);
	assert_string_equal(c.what.v[0], "kernel 6.1.0-13 -> 6.1.0-17");
	cp_cause_free(&c);
	/* another binary by another compiler: the binary, and why */
	runs[1].facts = kernel_a;
	b.sha256 = "s2";
	b.compiler_version = "gcc 13";
	cp_cause_of(&d, &a, &b, &c);
	assert_int_equal(c.kind, CAUSE_BINARY);
	assert_string_equal(c.what.v[0], "compiler gcc 12 -> gcc 13");
	assert_non_null(strstr(c.text, "the binary"));
	cp_cause_free(&c);
}

/* A history of one machine: 3 cells, 5 runs a night sd_run apart, nights
 * sd_night apart; cell 0 `step` slower from night `at` on, its binary
 * rebuilt by another compiler (another sha256) from night `rebuilt`; cells
 * 1 and 2 flat. */
#define HIST_CELLS 3
static void history_with_step(struct history_data *d, unsigned long long seed, size_t nights, double sd_night,
			      double sd_run, double step, size_t at, size_t rebuilt)
{
	unsigned long long st = seed;
	d->nruns = nights;
	d->runs = calloc(nights, sizeof(*d->runs));
	for (size_t n = 0; n < nights; n++) {
		d->runs[n].run_id = xasprintf("night-%02zu", n);
		d->runs[n].profile = xstrdup("p");
		d->runs[n].host = xstrdup("h");
		d->runs[n].started = xasprintf("2027-01-%02zuT02:00:00Z", n + 1);
	}
	d->nseries = HIST_CELLS;
	d->series = calloc(HIST_CELLS, sizeof(*d->series));
	for (size_t c = 0; c < HIST_CELLS; c++) {
		struct hist_series *s = &d->series[c];
		s->profile = xstrdup("p");
		s->host = xstrdup("h");
		s->cell = xasprintf("f/v%zu@gcc/-O2", c);
		s->n = nights;
		s->pts = calloc(nights, sizeof(*s->pts));
		for (size_t n = 0; n < nights; n++) {
			struct hist_point *p = &s->pts[n];
			int after = c == 0 && n >= at, rebuild = c == 0 && n >= rebuilt;
			double level = (after ? step : 1) * exp(sd_night * gauss(&st));
			p->run = n;
			p->status = xstrdup("ok");
			p->size = 1;
			p->ntimes = 5;
			p->times = calloc(5, sizeof(double));
			for (size_t k = 0; k < 5; k++)
				p->times[k] = level * exp(sd_run * gauss(&st));
			p->instructions = NAN;
			p->sha256 = xstrdup(rebuild ? "s2" : "s1");
			p->compiler_version = xstrdup(rebuild ? "gcc 13" : "gcc 12");
			p->cflags = xstrdup("[\"-O2\"]");
		}
	}
}

/* 30 nights 1 % apart, runs 0.2 %; cell 0 2.5 % slower from night 20, its
 * binary rebuilt from night `recorded`. */
static void moved_history(struct history_data *d, unsigned long long seed, size_t recorded)
{
	history_with_step(d, seed, 30, 0.01, 0.002, 1.025, 20, recorded);
}

/* On such nights the runs put the step up to 4 nights from night 20; the
 * compiler recorded there is named, and the step moved there where a step
 * there fits the runs nearly as well (cp_fits_at), never to a rebuild 15
 * nights earlier. */
static void test_step_moved_to_the_recorded_change(void **state)
{
	(void)state;
	size_t moved = 0, found = 0;
	for (unsigned long long seed = 1; seed <= 40; seed++) {
		for (int far = 0; far < 2; far++) {
			struct history_data d;
			moved_history(&d, seed, far ? 5 : 20);
			struct history_analysis a;
			history_analyse_data(&d, METRIC_TIME, 0.01, &a);
			const struct hcell *c = &a.cells[0];
			for (size_t k = 0; k < c->ncps; k++) {
				if (far) {
					/* a rebuild long before the step is not its cause */
					assert_true(c->cps[k].point.at >= 15);
					assert_int_equal(c->cps[k].cause.kind, CAUSE_MACHINE);
					continue;
				}
				found++;
				assert_int_equal(c->cps[k].cause.kind, CAUSE_BINARY);
				assert_true(c->cps[k].point.at == 20 || c->cps[k].point.at == 21);
				if (c->cps[k].found.at != c->cps[k].point.at) {
					moved++;
					assert_int_equal(c->cps[k].point.at, 20);
					assert_non_null(strstr(c->cps[k].cause.text, "the runs alone put the step"));
					assert_true(c->cps[k].point.ratio > 1.01 && c->cps[k].point.ratio < 1.04);
				}
			}
			for (size_t i = 1; i < HIST_CELLS; i++)
				assert_int_equal(a.cells[i].ncps, 0);
			history_analysis_free(&a);
			history_data_free(&d);
		}
	}
	assert_true(found >= 38);
	assert_true(moved >= 2); /* seeds 4, 31 and 40: 3, 2 and 4 nights off */
}

/* What night `at` of cell 0 measured beside night `base`'s binary. */
static void measured_beside(struct history_data *d, size_t at, size_t base, const char *base_sha, const char *verdict,
			    double ratio, double low, double high)
{
	struct hist_beside *b = &d->series[0].pts[at].beside;
	b->run = xasprintf("night-%02zu", base);
	b->base_sha256 = xstrdup(base_sha);
	b->verdict = xstrdup(verdict);
	b->rounds = 10;
	b->ratio = ratio;
	b->low = low;
	b->high = high;
	b->level = 0.998;
	b->threshold = 0.03;
}

/* The nights of a noisy machine (6 % apart) hide a 5 % step of a new
 * binary from the scan; measured beside the night before's binary it is a
 * change point on its night, of the measured size, named the binary's, and
 * the scan's steps the same way near it go.  A record of another night or
 * another binary is not that night's measurement. */
static void test_measured_step(void **state)
{
	(void)state;
	size_t scan_at_20 = 0;
	for (unsigned long long seed = 1; seed <= 20; seed++) {
		for (int rec = 0; rec < 4; rec++) {
			struct history_data d;
			/* nights 6 % apart (this VM's), runs 1 %, the new binary from the step */
			history_with_step(&d, seed, 30, 0.06, 0.01, 1.05, 20, 20);
			if (rec == 1)
				measured_beside(&d, 20, 19, "s1", "slower", 1.05, 1.03, 1.07);
			else if (rec == 2) /* another night's run */
				measured_beside(&d, 20, 18, "s1", "slower", 1.05, 1.03, 1.07);
			else if (rec == 3) /* another binary than night 19's */
				measured_beside(&d, 20, 19, "s9", "slower", 1.05, 1.03, 1.07);
			struct history_analysis a;
			history_analyse_data(&d, METRIC_TIME, 0.01, &a);
			const struct hcell *c = &a.cells[0];
			size_t measured = 0;
			for (size_t k = 0; k < c->ncps; k++) {
				if (rec == 0 && c->cps[k].point.at == 20)
					scan_at_20++;
				if (c->cps[k].measured == HISTORY_MEASURED_STEP) {
					measured++;
					assert_int_equal(rec, 1);
					assert_int_equal(c->cps[k].point.at, 20);
					assert_true(c->cps[k].point.ratio == 1.05 && c->cps[k].point.low == 1.03 && c->cps[k].point.high == 1.07);
					assert_int_equal(c->cps[k].cause.kind, CAUSE_BINARY);
					assert_non_null(strstr(c->cps[k].cause.text, "measured beside night night-19's binary in 10 "
										"interleaved rounds: 1.050x [1.030x, 1.070x]"));
					assert_false(c->cps[k].alarm); /* not the newest night */
				} else if (rec == 1) {
					/* no scan step the same way within 3 nights of it */
					size_t at = c->cps[k].point.at;
					assert_false((at > 20 ? at - 20 : 20 - at) <= HISTORY_MEASURED_NEAR && c->cps[k].point.ratio > 1);
				}
			}
			assert_int_equal(measured, rec == 1);
			history_analysis_free(&a);
			history_data_free(&d);
		}
	}
	/* what the scan alone makes of it: rarely that night */
	print_message("a 5 %% step of a new binary on nights 6 %% apart: the scan alone put it on its night in %zu of 20\n",
		      scan_at_20);
	assert_true(scan_at_20 <= 10);
}

/* The same binary on every night, libgmp updated at night 20 and 5 %
 * slower: measured beside the night before's kept libraries (beside's
 * libraries: true) it is a change point on its night, of the measured
 * size, named the system's (the library); a record of the same binary
 * without that mark, or one marked while the binary changed, is not. */
static void test_measured_library_step(void **state)
{
	(void)state;
	for (unsigned long long seed = 1; seed <= 10; seed++) {
		for (int rec = 0; rec < 3; rec++) {
			struct history_data d;
			/* rec 2: the binary rebuilt at the step too */
			history_with_step(&d, seed, 30, 0.06, 0.01, 1.05, 20, rec == 2 ? 20 : 30);
			for (size_t n = 0; n < 30; n++) {
				struct hist_point *p = &d.series[0].pts[n];
				p->libs = xcalloc(1, sizeof(*p->libs));
				p->libs[0] = (struct hist_fact){ xstrdup("/usr/lib/x86_64-linux-gnu/libgmp.so.10"),
								 xstrdup(n >= 20 ? "g2" : "g1") };
				p->nlibs = 1;
				p->libs_listed = 1;
			}
			measured_beside(&d, 20, 19, "s1", "slower", 1.05, 1.03, 1.07);
			d.series[0].pts[20].beside.libraries = rec != 1;
			struct history_analysis a;
			history_analyse_data(&d, METRIC_TIME, 0.01, &a);
			const struct hcell *c = &a.cells[0];
			size_t measured = 0;
			for (size_t k = 0; k < c->ncps; k++) {
				if (c->cps[k].measured != HISTORY_MEASURED_STEP)
					continue;
				measured++;
				assert_int_equal(c->cps[k].point.at, 20);
				assert_true(c->cps[k].point.ratio == 1.05 && c->cps[k].point.low == 1.03 && c->cps[k].point.high == 1.07);
				assert_int_equal(c->cps[k].cause.kind, CAUSE_SYSTEM);
				assert_non_null(strstr(c->cps[k].cause.text, "library /usr/lib/x86_64-linux-gnu/libgmp.so.10"));
				assert_non_null(strstr(c->cps[k].cause.text, "measured beside night night-19's libraries (the same "
									"binary) in 10 interleaved rounds: 1.050x"));
			}
			assert_int_equal(measured, rec == 0);
			history_analysis_free(&a);
			history_data_free(&d);
		}
	}
}

/* A step the scan finds on the newest night alarms; measured beside the
 * night before's binary with no real difference, it stands but never
 * alarms.  A measured step on the newest night alarms, faster or slower,
 * beyond the threshold; a real one within it is a step that does not. */
static void test_measured_no_step(void **state)
{
	(void)state;
	for (int rec = 0; rec < 4; rec++) {
		struct history_data d;
		history_with_step(&d, 7, 30, 0.005, 0.01, 1.10, 29, 29);
		if (rec == 1)
			measured_beside(&d, 29, 28, "s1", "same", 1.004, 0.99, 1.02);
		else if (rec == 2)
			measured_beside(&d, 29, 28, "s1", "faster", 0.95, 0.94, 0.96);
		else if (rec == 3) /* real, within the 3 % threshold */
			measured_beside(&d, 29, 28, "s1", "same", 1.015, 1.01, 1.02);
		struct history_analysis a;
		history_analyse_data(&d, METRIC_TIME, 0.01, &a);
		const struct hcell *c = &a.cells[0];
		int alarms = rec == 0 || rec == 2;
		assert_int_equal(c->ncps, 1);
		assert_int_equal(c->cps[0].point.at, 29);
		assert_int_equal(c->cps[0].alarm, alarms);
		assert_int_equal(c->cps[0].measured, rec == 0 ? 0 : rec == 1 ? HISTORY_MEASURED_NONE : HISTORY_MEASURED_STEP);
		if (rec == 3) {
			assert_true(c->cps[0].point.ratio == 1.015);
			assert_non_null(strstr(c->cps[0].cause.text, "; within the 3 % threshold"));
		}
		if (rec == 1) {
			assert_non_null(strstr(c->cps[0].cause.text, "no real step of the binary"));
			assert_true(c->cps[0].point.ratio > 1.05);
		}
		if (rec == 2)
			assert_true(c->cps[0].point.ratio == 0.95);
		assert_int_equal(a.alarms, alarms);
		history_analysis_free(&a);
		history_data_free(&d);
	}
}

/* Pass 3 at its boundary: cell 0 10 % slower from night 20, its binary
 * rebuilt a night later (named "recorded a night after"), and `moving`
 * of 4 other cells of the machine 10 % slower from night 20 with nothing
 * recorded changed.  One other cell is not a shift of the machine
 * (HISTORY_SHARED_SHIFT_CELLS is 2); two are. */
static void test_machine_shift_boundary(void **state)
{
	(void)state;
	for (size_t moving = 0; moving <= 2; moving++) {
		struct history_data d;
		history_with_step(&d, 11, 30, 0.002, 0.002, 1.10, 20, 21);
		/* two more flat cells: 5 on the machine */
		d.series = realloc(d.series, 5 * sizeof(*d.series));
		for (size_t c = HIST_CELLS; c < 5; c++) {
			struct hist_series *s = &d.series[c], *from = &d.series[1];
			*s = (struct hist_series){ xstrdup("p"), xstrdup("h"), xasprintf("f/v%zu@gcc/-O2", c), NULL, from->n };
			s->pts = calloc(s->n, sizeof(*s->pts));
			for (size_t n = 0; n < s->n; n++) {
				struct hist_point *p = &s->pts[n], *q = &from->pts[n];
				*p = (struct hist_point){ .run = n, .status = xstrdup("ok"), .size = 1, .ntimes = q->ntimes,
							  .instructions = NAN, .sha256 = xstrdup("s1") };
				p->times = calloc(q->ntimes, sizeof(double));
				for (size_t k = 0; k < q->ntimes; k++)
					p->times[k] = q->times[k] * (1 + 0.001 * (double)c);
			}
		}
		d.nseries = 5;
		for (size_t c = 1; c <= moving; c++)
			for (size_t n = 20; n < 30; n++)
				for (size_t k = 0; k < d.series[c].pts[n].ntimes; k++)
					d.series[c].pts[n].times[k] *= 1.10;
		struct history_analysis a;
		history_analyse_data(&d, METRIC_TIME, 0.01, &a);
		const struct hcell *c = &a.cells[0];
		assert_int_equal(c->ncps, 1);
		assert_int_equal(c->cps[0].found.at, 20);
		for (size_t o = 1; o <= moving; o++) {
			assert_int_equal(a.cells[o].ncps, 1);
			assert_int_equal(a.cells[o].cps[0].cause.kind, CAUSE_MACHINE);
		}
		if (moving < HISTORY_SHARED_SHIFT_CELLS) {
			assert_int_equal(c->cps[0].cause.kind, CAUSE_BINARY);
			assert_true(c->cps[0].off);
			assert_non_null(strstr(c->cps[0].cause.text, "(recorded a night after the step's estimate)"));
		} else {
			assert_int_equal(c->cps[0].cause.kind, CAUSE_MACHINE);
			assert_false(c->cps[0].off);
			assert_int_equal(c->cps[0].point.at, 20);
			assert_non_null(strstr(c->cps[0].cause.text, "2 other cells moved the same way within a night of it"));
		}
		history_analysis_free(&a);
		history_data_free(&d);
	}
}

/* A step of the machine (the same binary, nothing recorded changed)
 * alarms once it has held a second night, not on its first: a lone slow
 * night is no segment of its own once a night follows it. */
static void test_machine_step_alarms_on_its_second_night(void **state)
{
	(void)state;
	for (size_t at = 28; at <= 29; at++) {
		struct history_data d;
		history_with_step(&d, 5, 30, 0.002, 0.002, 1.10, at, 99);
		struct history_analysis a;
		history_analyse_data(&d, METRIC_TIME, 0.01, &a);
		const struct hcell *c = &a.cells[0];
		assert_int_equal(c->ncps, 1);
		assert_int_equal(c->cps[0].point.at, at);
		assert_int_equal(c->cps[0].cause.kind, CAUSE_MACHINE);
		assert_int_equal(c->cps[0].alarm, at == 28);
		assert_int_equal(a.alarms, at == 28);
		history_analysis_free(&a);
		history_data_free(&d);
	}
}

/* ---- the file ---- */

static void test_store(void **state)
{
	(void)state;
	char dir[] = "/tmp/flagbench-test-history-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char *db = NULL;
	assert_true(asprintf(&db, "%s/sub/h.db", dir) > 0);
	struct history *h;
	assert_int_equal(history_open(db, 0, &h), -1); /* missing, not made */
	assert_int_equal(history_open(db, 1, &h), 0);
	struct results_run run;
	assert_int_equal(results_open("tests/fixtures/results/quick-5700x.json", &run), 0);
	assert_int_equal(history_import(h, &run), 1);
	assert_int_equal(history_import(h, &run), 0); /* by run id: nothing added */
	results_close(&run);
	struct history_data d;
	assert_int_equal(history_load(h, NULL, NULL, &d), 0);
	assert_int_equal(d.nruns, 1);
	assert_int_equal(d.runs[0].ncells, 67);
	assert_string_equal(hist_fact_get(d.runs[0].facts, d.runs[0].nfacts, "kernel"), "6.1.0-13-amd64");
	assert_string_equal(hist_fact_get(d.runs[0].facts, d.runs[0].nfacts, "turbo"), "on");
	assert_int_equal(d.nseries, 67);
	history_data_free(&d);
	history_close(h);
	/* a schema 1 history (no cells.beside, no cells.states) gains the columns in place, its runs kept */
	sqlite3 *raw;
	assert_int_equal(sqlite3_open(db, &raw), SQLITE_OK);
	assert_int_equal(sqlite3_exec(raw, "ALTER TABLE cells DROP COLUMN beside; ALTER TABLE cells DROP COLUMN states; "
						"PRAGMA user_version = 1", NULL, NULL, NULL),
			 SQLITE_OK);
	sqlite3_close(raw);
	assert_int_equal(history_open(db, 0, &h), 0);
	assert_int_equal(history_load(h, NULL, NULL, &d), 0);
	assert_int_equal(d.nruns, 1);
	assert_int_equal(d.nseries, 67);
	assert_null(d.series[0].pts[0].beside.run);
	history_data_free(&d);
	history_close(h);
	assert_int_equal(sqlite3_open(db, &raw), SQLITE_OK);
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_prepare_v2(raw, "PRAGMA user_version", -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_int_equal(sqlite3_column_int(st, 0), HISTORY_SCHEMA);
	sqlite3_finalize(st);
	sqlite3_close(raw);
	/* truncated: refused */
	char *cmd = NULL;
	assert_true(asprintf(&cmd, "head -c 5000 %s > %s.cut && mv %s.cut %s", db, db, db, db) > 0);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(history_open(db, 0, &h), -1);
	free(cmd);
	assert_true(asprintf(&cmd, "rm -rf %s", dir) > 0);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	free(db);
}

/* A stream whose nights ran near until night 15 and far after (its runs
 * 1.35 times slower, as yes/buf's were): read in one state, the far nights
 * are left out as the machine's and no step is found; with four runs of
 * each far night near, every night is read in near; without states the
 * far nights are a step. */
static void test_nights_in_one_state(void **state)
{
	(void)state;
	for (int mixed = 0; mixed < 3; mixed++) {
		struct history_data d;
		history_with_step(&d, 7, 30, 0.01, 0.002, 1.0, 30, 30);
		struct hist_series *s = &d.series[0];
		for (size_t n = 0; n < s->n; n++) {
			struct hist_point *p = &s->pts[n];
			if (mixed < 2)
				p->level_ns = calloc(p->ntimes, sizeof(double));
			for (size_t k = 0; k < p->ntimes; k++) {
				int far = n >= 15 && !(mixed == 1 && k < 4);
				if (mixed < 2)
					p->level_ns[k] = far ? 480 : 90;
				if (far)
					p->times[k] *= 1.35;
			}
		}
		struct history_analysis a;
		history_analyse_data(&d, METRIC_TIME, 0.01, &a);
		const struct hcell *c = &a.cells[0];
		if (mixed == 0) {
			assert_true(c->level_ns == 90);
			assert_int_equal(c->other_state, 15);
			assert_int_equal(c->n, 15);
			assert_int_equal(c->ncps, 0);
		} else if (mixed == 1) {
			assert_true(c->level_ns == 90);
			assert_int_equal(c->other_state, 0);
			assert_int_equal(c->n, 30);
			assert_int_equal(c->ncps, 0);
		} else {
			assert_true(isnan(c->level_ns));
			assert_int_equal(c->ncps, 1);
		}
		assert_true(isnan(a.cells[1].level_ns));
		history_analysis_free(&a);
		history_data_free(&d);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_night_summary),
		cmocka_unit_test(test_nights_in_one_state),
		cmocka_unit_test(test_step_found_where_it_is),
		cmocka_unit_test(test_flat_and_outlier_give_none),
		cmocka_unit_test(test_step_on_the_newest_night),
		cmocka_unit_test(test_step_seen),
		cmocka_unit_test(test_step_fits_at_the_recorded_night),
		cmocka_unit_test(test_bh_cut),
		cmocka_unit_test(test_pool_finds_the_short_history_step),
		cmocka_unit_test(test_pool_false_alarms),
		cmocka_unit_test(test_cause),
		cmocka_unit_test(test_step_moved_to_the_recorded_change),
		cmocka_unit_test(test_measured_step),
		cmocka_unit_test(test_measured_library_step),
		cmocka_unit_test(test_measured_no_step), cmocka_unit_test(test_machine_shift_boundary),
		cmocka_unit_test(test_machine_step_alarms_on_its_second_night),
		cmocka_unit_test(test_store),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
