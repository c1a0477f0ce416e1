/* test_stats.c: the interval of the median says the confidence it has.
 * Exact binomial levels per run count; then many samples drawn from skewed
 * distributions (lognormal) count how often the interval holds the true
 * median, printed as a table by run count, and must reach the stated level
 * (less a tolerance for the sampling error of the count); the rerun
 * interval is checked against the median of a second sample the same way.
 * The generator (stats_random) is seeded: every run of the test draws the
 * same samples. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>

#include "core/stats.h"
#include "core/util.h"

static unsigned long long rng = 42;

static double uniform(void)
{
	return ((double)(stats_random(&rng) >> 11) + 0.5) / 9007199254740992.0;
}

/* lognormal with median 1: exp(sigma N(0,1)), Box-Muller */
static double lognormal(double sigma)
{
	double u = uniform(), v = uniform();
	return exp(sigma * sqrt(-2 * log(u)) * cos(2 * M_PI * v));
}

static void test_exact_levels(void **state)
{
	(void)state;
	struct { size_t n; double level; } want[] = { { 3, 0.75 }, { 4, 0.875 }, { 5, 0.9375 }, { 6, 0.96875 },
						      { 8, 0.9921875 } };
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		double level;
		stats_median_ci_rank(want[i].n, STATS_CI_TARGET, &level);
		assert_float_equal(level, want[i].level, 1e-12);
	}
	/* 20 runs: X(6)..X(15), 95.86 %; X(7)..X(14) would be 88.5 % */
	double level;
	assert_int_equal(stats_median_ci_rank(20, STATS_CI_TARGET, &level), 6);
	assert_float_equal(level, 0.9586105346679688, 1e-9);
	assert_true(stats_median_coverage(20, 7) < STATS_CI_TARGET);
	/* under 3 runs, no interval */
	stats_median_ci_rank(2, STATS_CI_TARGET, &level);
	assert_true(level == 0);
	/* many runs: the level stays just above 95 % */
	stats_median_ci_rank(1000, STATS_CI_TARGET, &level);
	assert_true(level >= 0.95 && level < 0.96);

	/* stats_compute stores it, and the json says it; ci95 only at 95 % */
	double five[] = { 5, 1, 4, 2, 3 }, six[] = { 6, 1, 5, 2, 4, 3 };
	struct stats s;
	stats_compute(&s, five, 5);
	assert_float_equal(s.ci_level, 0.9375, 1e-12);
	assert_true(s.ci_low == 1 && s.ci_high == 5);
	json_t *j = stats_to_json(&s);
	assert_float_equal(json_real_value(json_object_get(j, "ci_level")), 0.9375, 1e-12);
	assert_true(json_is_null(json_object_get(j, "ci95_percent")));
	assert_true(json_is_null(json_object_get(j, "ci95")));
	assert_true(json_real_value(json_array_get(json_object_get(j, "ci"), 1)) == 5);
	json_decref(j);
	stats_free(&s);
	stats_compute(&s, six, 6);
	j = stats_to_json(&s);
	assert_true(json_is_number(json_object_get(j, "ci95_percent")));
	json_decref(j);
	stats_free(&s);
}

/* The rerun interval's exact levels: n old and n new runs are one random
 * arrangement of 2n values; the new median is below the old minimum when
 * the first ceil(n/2) values are new ones (3 runs: 4 of the 20 arrangements
 * on each side, 0.6; 5 runs: 21 of 252, 0.8333). */
static void test_rerun_levels(void **state)
{
	(void)state;
	double level;
	assert_int_equal(stats_rerun_rank(3, STATS_CI_TARGET, &level), 1);
	assert_float_equal(level, 0.6, 1e-9);
	assert_int_equal(stats_rerun_rank(5, STATS_CI_TARGET, &level), 1);
	assert_float_equal(level, 1 - 2 * 21.0 / 252, 1e-9);
	/* 8 runs fall short of 95 %, 9 reach it with [min, max] */
	stats_rerun_rank(8, STATS_CI_TARGET, &level);
	assert_true(level < STATS_CI_TARGET);
	assert_int_equal(stats_rerun_rank(9, STATS_CI_TARGET, &level), 1);
	assert_true(level >= STATS_CI_TARGET);
	/* 20 runs: X(4)..X(17); X(5)..X(16) would be below 95 % */
	assert_int_equal(stats_rerun_rank(20, STATS_CI_TARGET, &level), 4);
	assert_true(level >= STATS_CI_TARGET && stats_rerun_coverage(20, 20, 5) < STATS_CI_TARGET);
	/* wider than the interval of the median, which needs only X(6)..X(15) */
	assert_true(stats_median_ci_rank(20, STATS_CI_TARGET, &level) > 4);
	/* out of range */
	assert_true(stats_rerun_coverage(5, 5, 0) == 0 && stats_rerun_coverage(5, 5, 4) == 0);

	/* stats_compute stores it and the json says it */
	double nine[] = { 9, 1, 8, 2, 7, 3, 6, 4, 5 };
	struct stats s;
	stats_compute(&s, nine, 9);
	assert_true(s.rerun_low == 1 && s.rerun_high == 9);
	assert_true(s.ci_low == 2 && s.ci_high == 8);
	json_t *j = stats_to_json(&s);
	assert_float_equal(json_real_value(json_object_get(j, "rerun_level")), s.rerun_level, 1e-12);
	assert_float_equal(json_real_value(json_object_get(j, "rerun_percent")), 100.0 * 4 / 5, 1e-9);
	assert_true(json_real_value(json_array_get(json_object_get(j, "rerun"), 0)) == 1);
	json_decref(j);
	stats_free(&s);
}

/* How often the rerun interval of n draws holds the median of n more. */
static double rerun_holds(size_t n, double sigma, unsigned trials, double *level, double *median_ci_held)
{
	unsigned ci_held = 0;
	double *v = malloc(n * sizeof(double)), *w = malloc(n * sizeof(double));
	unsigned held = 0;
	for (unsigned t = 0; t < trials; t++) {
		for (size_t i = 0; i < n; i++) {
			v[i] = lognormal(sigma);
			w[i] = lognormal(sigma);
		}
		struct stats s, r;
		stats_compute(&s, v, n);
		stats_compute(&r, w, n);
		held += s.rerun_low <= r.median && r.median <= s.rerun_high;
		ci_held += s.ci_low <= r.median && r.median <= s.ci_high;
		*level = s.rerun_level;
		stats_free(&s);
		stats_free(&r);
	}
	free(v);
	free(w);
	*median_ci_held = (double)ci_held / trials;
	return (double)held / trials;
}

/* How often the interval of n draws holds the true median (1). */
static double coverage(size_t n, double sigma, unsigned trials, double *level)
{
	double *v = malloc(n * sizeof(double));
	unsigned held = 0;
	for (unsigned t = 0; t < trials; t++) {
		for (size_t i = 0; i < n; i++)
			v[i] = lognormal(sigma);
		struct stats s;
		stats_compute(&s, v, n);
		held += s.ci_low <= 1 && 1 <= s.ci_high;
		*level = s.ci_level;
		stats_free(&s);
	}
	free(v);
	return (double)held / trials;
}

/* The table the issue asks for, by run count: how often the interval of
 * the median holds the true median, and how often the rerun interval holds
 * a rerun's median, each against the level it states; and how often the
 * narrower interval of the median holds a rerun's median (about 85 %,
 * which is why the tables print the rerun interval). */
static void test_coverage_by_run_count(void **state)
{
	(void)state;
	const size_t counts[] = { 3, 4, 5, 6, 8, 9, 10, 12, 15, 20, 30, 50 };
	const unsigned trials = 4000;
	/* 4000 trials: the standard error of a 95 % share is 0.35 %; 1.5 % is four of them */
	const double tol = 0.015;
	rng = 42;
	printf("coverage by run count, %u lognormal samples each (sigma 0.25 / sigma 1)\n", trials);
	printf("  runs | median: level  held          | rerun: level  held          | median interval holds rerun\n");
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		double level, rlevel, ci_a, ci_b, a = coverage(counts[i], 0.25, trials, &level),
						  b = coverage(counts[i], 1.0, trials, &level),
						  ra = rerun_holds(counts[i], 0.25, trials, &rlevel, &ci_a),
						  rb = rerun_holds(counts[i], 1.0, trials, &rlevel, &ci_b);
		printf("  %4zu | %12.2f%%  %5.2f%% %5.2f%% | %11.2f%%  %5.2f%% %5.2f%% | %5.2f%% %5.2f%%\n", counts[i],
		       100 * level, 100 * a, 100 * b, 100 * rlevel, 100 * ra, 100 * rb, 100 * ci_a, 100 * ci_b);
		assert_true(a >= level - tol);
		assert_true(b >= level - tol);
		assert_true(ra >= rlevel - tol);
		assert_true(rb >= rlevel - tol);
		/* the narrower interval of the median misses more reruns */
		assert_true(ci_b <= rb + tol);
	}
}

/* stats_random_at(seed, i) is the (i + 1)-th number of stats_random from
 * seed, without drawing the ones before it. */
static void test_random_at(void **state)
{
	(void)state;
	const unsigned long long seeds[] = { 0, 1, 0x666c6167ULL, ~0ULL };
	for (size_t k = 0; k < sizeof(seeds) / sizeof(seeds[0]); k++) {
		unsigned long long st = seeds[k];
		for (unsigned long long i = 0; i < 100; i++)
			assert_true(stats_random_at(seeds[k], i) == stats_random(&st));
	}
	/* splitmix64's first number from seed 0, as published */
	assert_true(stats_random_at(0, 0) == 0xe220a8397b1dcdafULL);
}

/* The statistic at quantile q: how often the interval of n draws holds the
 * true quantile, and how often the rerun interval holds the same statistic
 * of n more draws (stats.h). */
static void quantile_holds(size_t n, double q, double sigma, unsigned trials, double *ci_held, double *ci_level,
			   double *rerun_held, double *rerun_level)
{
	/* the true quantile of exp(sigma Z): exp(sigma z_q), z_q of the standard normal */
	double truth = exp(sigma * gsl_cdf_ugaussian_Pinv(q));
	double *v = malloc(n * sizeof(double)), *w = malloc(n * sizeof(double));
	unsigned ci = 0, rr = 0;
	for (unsigned t = 0; t < trials; t++) {
		for (size_t i = 0; i < n; i++) {
			v[i] = lognormal(sigma);
			w[i] = lognormal(sigma);
		}
		struct stats s, r;
		stats_compute_at(&s, v, n, q);
		stats_compute_at(&r, w, n, q);
		ci += s.ci_low <= truth && truth <= s.ci_high;
		rr += s.rerun_low <= r.point && r.point <= s.rerun_high;
		*ci_level = s.ci_level;
		*rerun_level = s.rerun_level;
		stats_free(&s);
		stats_free(&r);
	}
	free(v);
	free(w);
	*ci_held = (double)ci / trials;
	*rerun_held = (double)rr / trials;
}

/* The same table for the lower quartile (the default statistic) and the
 * 10th percentile: the levels are exact, so the held shares must match them
 * from both sides, not only reach them. */
static void test_quantile_coverage_by_run_count(void **state)
{
	(void)state;
	const size_t counts[] = { 3, 5, 9, 13, 17, 20, 30, 50 };
	const double quantiles[] = { 0.25, 0.1 };
	const unsigned trials = 4000;
	rng = 4242;
	for (size_t k = 0; k < 2; k++) {
		printf("p%g: coverage by run count, %u lognormal samples each (sigma 0.25 / sigma 1)\n",
		       quantiles[k] * 100, trials);
		printf("  runs | rank | quantile: level  held          | rerun: level  held\n");
		for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
			double ca, cb, cl, ra, rb, rl;
			quantile_holds(counts[i], quantiles[k], 0.25, trials, &ca, &cl, &ra, &rl);
			quantile_holds(counts[i], quantiles[k], 1.0, trials, &cb, &cl, &rb, &rl);
			printf("  %4zu | %4zu | %14.2f%%  %5.2f%% %5.2f%% | %11.2f%%  %5.2f%% %5.2f%%\n", counts[i],
			       stats_quantile_rank(counts[i], quantiles[k]), 100 * cl, 100 * ca, 100 * cb, 100 * rl,
			       100 * ra, 100 * rb);
			/* four standard errors of a share of `trials` at the stated level */
			double tc = 4 * sqrt(cl * (1 - cl) / trials), tr = 4 * sqrt(rl * (1 - rl) / trials);
			assert_true(fabs(ca - cl) <= tc && fabs(cb - cl) <= tc);
			assert_true(fabs(ra - rl) <= tr && fabs(rb - rl) <= tr);
		}
	}
}

/* Names, ranks, exact levels and the runs each statistic needs. */
static void test_statistic(void **state)
{
	(void)state;
	double q;
	char buf[32];
	struct { const char *name; double q; } ok[] = { { "median", 0.5 }, { "min", 0 }, { "p25", 0.25 },
						       { "p10", 0.1 }, { "p12.5", 0.125 }, { "p99", 0.99 } };
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		assert_int_equal(stats_statistic_parse(ok[i].name, &q), 0);
		assert_float_equal(q, ok[i].q, 1e-12);
		assert_string_equal(stats_statistic_name(q, buf, sizeof(buf)), ok[i].name);
	}
	assert_int_equal(stats_statistic_parse("p50", &q), 0);
	assert_string_equal(stats_statistic_name(q, buf, sizeof(buf)), "median");
	const char *bad[] = { "p0", "p100", "p-5", "p", "pp25", "p25x", "mean", "", "p nan", "pinf", "p1e1", "p0x10", "p2.5.1", "p+5", "p 5" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(stats_statistic_parse(bad[i], &q), -1);
	assert_int_equal(stats_statistic_parse(NULL, &q), -1);
	/* ranks: ceil(q n), at least 1; none for the median */
	assert_int_equal(stats_quantile_rank(20, 0.25), 5);
	assert_int_equal(stats_quantile_rank(17, 0.25), 5);
	assert_int_equal(stats_quantile_rank(3, 0.25), 1);
	assert_int_equal(stats_quantile_rank(9, 0), 1);
	assert_int_equal(stats_quantile_rank(9, 0.5), 0);
	/* p25 of 3 runs: misses when all 3 lie above the quartile or all below */
	size_t a, b;
	assert_float_equal(stats_quantile_ci(3, 0.25, STATS_CI_TARGET, &a, &b), 1 - pow(0.75, 3) - pow(0.25, 3), 1e-12);
	assert_true(a == 1 && b == 3);
	/* a rerun's minimum lies below this one's with chance n / 2n = 1/2 */
	assert_float_equal(stats_quantile_rerun_coverage(9, 9, 0, 1, 9), 0.5 - 9.0 * 8 * 7 * 6 * 5 * 4 * 3 * 2 / (18.0 * 17 * 16 * 15 * 14 * 13 * 12 * 11 * 10), 1e-12);
	/* the runs a 95 % rerun interval needs: the median 9, p25 13, the minimum never */
	assert_int_equal(stats_runs_for_rerun(0.5, STATS_CI_TARGET, 1000), 9);
	assert_int_equal(stats_runs_for_rerun(0.25, STATS_CI_TARGET, 1000), 13);
	assert_int_equal(stats_runs_for_rerun(0, STATS_CI_TARGET, 200), 200);
	/* the rerun interval holds the point and reaches its level at 13 runs */
	double v[13];
	for (size_t i = 0; i < 13; i++)
		v[i] = 1 + 0.01 * (double)((i * 7) % 13);
	struct stats s;
	stats_compute_at(&s, v, 13, 0.25);
	assert_float_equal(s.point, 1.03, 1e-12); /* X(4) of 1.00 .. 1.12 */
	assert_true(s.rerun_level >= STATS_CI_TARGET && s.rerun_low <= s.point && s.point <= s.rerun_high);
	assert_float_equal(s.median, 1.06, 1e-12);
	json_t *j = stats_to_json(&s);
	assert_string_equal(json_string_value(json_object_get(j, "statistic")), "p25");
	assert_float_equal(json_number_value(json_object_get(j, "value")), 1.03, 1e-12);
	struct stats back;
	assert_int_equal(stats_from_json(&back, j), 0);
	assert_float_equal(back.quantile, 0.25, 0);
	assert_float_equal(back.point, s.point, 0);
	assert_float_equal(back.rerun_low, s.rerun_low, 0);
	json_decref(j);
	stats_free(&back);
	stats_free(&s);
}

/* The machine's drift: every cell 2 % slower in the odd rounds. */
static void test_machine_drift(void **state)
{
	(void)state;
	enum { CELLS = 20, ROUNDS = 10 };
	static double runs[CELLS][ROUNDS];
	const double *rows[CELLS];
	size_t n[CELLS], rounds;
	for (size_t c = 0; c < CELLS; c++) {
		for (size_t t = 0; t < ROUNDS; t++)
			runs[c][t] = (1 + 0.1 * (double)c) * (t % 2 ? 1.02 : 1);
		rows[c] = runs[c];
		n[c] = ROUNDS;
	}
	/* each cell's median log lies halfway: every round is log(1.02) / 2 off
	 * it, one way or the other; the sample sd of ten such rounds */
	double half = log(1.02) / 2, want = half * sqrt(10.0 / 9);
	assert_float_equal(stats_machine_drift(rows, n, CELLS, &rounds), want, 1e-12);
	assert_int_equal(rounds, ROUNDS);
	/* a cell's own level and spread are not the machine's: cells 10 times
	 * slower, or steady, change nothing while most cells share the drift */
	for (size_t t = 0; t < ROUNDS; t++)
		runs[0][t] = 10 * (1 + 0.3 * (double)((t * 7) % 10));
	assert_float_equal(stats_machine_drift(rows, n, CELLS, &rounds), want, 1e-12);
	/* a passing burst: round 3 twice as slow in every cell is left out;
	 * the nine others (five at -half, four at +half) have the same sd */
	for (size_t c = 0; c < CELLS; c++)
		runs[c][3] *= 2;
	assert_float_equal(stats_machine_drift(rows, n, CELLS, &rounds), want, 1e-12);
	assert_int_equal(rounds, ROUNDS);
	for (size_t c = 0; c < CELLS; c++)
		runs[c][3] /= 2;
	/* rounds with fewer than 10 cells do not count; under 5 rounds: none */
	for (size_t c = 0; c < CELLS; c++)
		n[c] = c < 9 ? ROUNDS : 4;
	assert_true(isnan(stats_machine_drift(rows, n, CELLS, &rounds)));
	assert_int_equal(rounds, 4);
	/* no drift, no widening */
	for (size_t c = 0; c < CELLS; c++) {
		n[c] = ROUNDS;
		for (size_t t = 0; t < ROUNDS; t++)
			runs[c][t] = 1 + 0.1 * (double)c;
	}
	assert_float_equal(stats_machine_drift(rows, n, CELLS, &rounds), 0, 1e-15);
}

/* Ratios that shift between the halves of a run drift; ratios whose
 * halves agree within their own noise do not. */
static void test_ratio_drift(void **state)
{
	(void)state;
	enum { SEQS = 30, N = 16 };
	static double logr[SEQS][N];
	const double *rows[SEQS];
	size_t n[SEQS], used;
	/* no noise, a shift of d between the halves in every sequence: the
	 * median of d^2 / (2 tau^2) is a chi-square's median */
	double d = log(1.03);
	for (size_t j = 0; j < SEQS; j++) {
		for (size_t t = 0; t < N; t++)
			logr[j][t] = (t < N / 2 ? d : 0) * (j % 2 ? 1 : -1);
		rows[j] = logr[j];
		n[j] = N;
	}
	assert_float_equal(stats_ratio_drift(rows, n, SEQS, &used), d / sqrt(2 * 0.45493642311957283), 1e-9);
	assert_int_equal(used, SEQS);
	/* the same halves, each with noise of sd 2 % about its level: the noise
	 * is taken out, the shift stays (within a third of its value without noise) */
	unsigned long long seed = 7;
	for (size_t j = 0; j < SEQS; j++)
		for (size_t t = 0; t < N; t++) {
			double u1 = (double)(stats_random(&seed) >> 11) / 9007199254740992.0 + 1e-12;
			double u2 = (double)(stats_random(&seed) >> 11) / 9007199254740992.0;
			logr[j][t] += 0.02 * sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
		}
	double tau = stats_ratio_drift(rows, n, SEQS, &used);
	double clean = d / sqrt(2 * 0.45493642311957283);
	assert_true(tau > clean * 0.67 && tau < clean * 1.33);
	/* noise alone, the same in both halves: next to nothing */
	for (size_t j = 0; j < SEQS; j++)
		for (size_t t = 0; t < N; t++)
			logr[j][t] -= (t < N / 2 ? d : 0) * (j % 2 ? 1 : -1);
	assert_true(stats_ratio_drift(rows, n, SEQS, &used) < 0.006);
	/* a few sequences (a sixth) that jump by 30 %, the rest noise alone:
	 * what a multimodal pipe cell does to its halves.  They are not the
	 * run's drift: under the mean of the squares they made it 7 % */
	for (size_t j = 0; j < SEQS / 6; j++)
		for (size_t t = N / 2; t < N; t++)
			logr[j][t] += log(1.3);
	assert_true(stats_ratio_drift(rows, n, SEQS, &used) < 0.01);
	/* sequences under 8 do not count; under 5 such: unknown */
	for (size_t j = 0; j < SEQS; j++)
		n[j] = j < 4 ? N : 7;
	assert_true(isnan(stats_ratio_drift(rows, n, SEQS, &used)));
	assert_int_equal(used, 4);
}

/* The one median (stats_median_sorted) and its sorting form, and the
 * statistic of sorted runs at a quantile, as every module takes them. */
static void test_median_and_point(void **state)
{
	const double odd[] = { 1, 2, 7 }, even[] = { 1, 2, 4, 9 };
	assert_true(stats_median_sorted(odd, 3) == 2);
	assert_true(stats_median_sorted(even, 4) == 3);
	assert_true(stats_median_sorted(odd, 1) == 1);
	assert_true(isnan(stats_median_sorted(odd, 0)));
	double v[] = { 9, 1, 4, 2 };
	assert_true(stats_median_sort(v, 4) == 3);
	assert_true(v[0] == 1 && v[1] == 2 && v[2] == 4 && v[3] == 9); /* sorted in place */
	assert_true(isnan(stats_median_sort(v, 0)));
	assert_true(stats_point_sorted(even, 4, 0.5) == 3);
	assert_true(stats_point_sorted(even, 4, 0) == 1);    /* the minimum */
	assert_true(stats_point_sorted(even, 4, 0.25) == 1); /* X(ceil(1)) */
	assert_true(stats_point_sorted(even, 4, 0.75) == 4); /* X(3) */
}

/* FNV-1a's published 64-bit values, and folding in parts is one pass. */
static void test_fnv1a(void **state)
{
	assert_true(fnv1a(FNV1A_OFFSET, "", 0) == 0xcbf29ce484222325ULL);
	assert_true(fnv1a(FNV1A_OFFSET, "a", 1) == 0xaf63dc4c8601ec8cULL);
	assert_true(fnv1a(FNV1A_OFFSET, "foobar", 6) == 0x85944171f73967e8ULL);
	assert_true(fnv1a(fnv1a(FNV1A_OFFSET, "foo", 3), "bar", 3) == 0x85944171f73967e8ULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_median_and_point),
		cmocka_unit_test(test_fnv1a),
		cmocka_unit_test(test_exact_levels),
		cmocka_unit_test(test_coverage_by_run_count),
		cmocka_unit_test(test_rerun_levels),
		cmocka_unit_test(test_random_at),
		cmocka_unit_test(test_quantile_coverage_by_run_count),
		cmocka_unit_test(test_statistic),
		cmocka_unit_test(test_machine_drift),
		cmocka_unit_test(test_ratio_drift),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
