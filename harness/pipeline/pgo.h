/* pgo.h: a profile-guided build, in its two phases (build.h says how). */
#ifndef FLAGBENCH_PGO_H
#define FLAGBENCH_PGO_H

#include "pipeline/plan.h"

/* Compiles, trains and compiles again into dir/prog; -1 with why. */
int build_pgo(struct cell *c, const char *dir, const char *prog, double timeout_s, char *why, size_t n);
/* The training run's seconds, kept in the entry (a cached build reports them too). */
void pgo_read_train_time(struct cell *c, const char *dir);

#endif
