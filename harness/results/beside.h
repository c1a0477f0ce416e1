/* beside.h: what a run measured beside an earlier run's binaries, kept
 * in its own results.json (`compare --record`, the nightly).
 *
 * A nightly run whose binary changed since the previous night is measured
 * again beside the previous night's binary, in interleaved rounds
 * (compare --confirm): the only comparison of two nights that the
 * machine's state between the nights cannot move.  The history reads it
 * back (results/history.h) as the measured size of the step at that
 * night, so the record lives in the run's own results.json, which stays
 * the record the history is rebuilt from.
 *
 * results.json gains "beside": {"run": BASE's run id, "threshold_percent",
 * "alarm_rate_percent", "cells": [{cell, base_sha256, sha256, rounds,
 * ratio (NEW / BASE time per unit), ci [low, high], level (two-sided),
 * verdict, and libraries: true where the binary was the same and each
 * side ran on its own run's kept libraries}]}: docs/results-schema.md.  Written again it replaces the
 * whole object: one run is measured beside one earlier run.
 */
#ifndef FLAGBENCH_BESIDE_H
#define FLAGBENCH_BESIDE_H

#include <stddef.h>

/* One cell measured beside the earlier run's binary. */
struct beside_cell {
	const char *cell, *base_sha256, *sha256, *verdict;
	unsigned rounds;
	double ratio, low, high, level;
	/* 1: the same binary, each side on its run's kept libraries (a
	 * library step: "libraries": true) */
	int libraries;
};

/* Sets "beside" in the results.json of run (a run folder or the file
 * itself), atomically; the rest of the document as it was.  0, or -1
 * after a message. */
int results_record_beside(const char *run, const char *base_run, double threshold, double alarm_rate,
			  const struct beside_cell *cells, size_t n);

#endif
