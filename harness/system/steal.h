/* steal.h: the CPU time a virtual machine's host took from it.
 *
 * On a VM the host runs other guests on the same cores; the time it takes
 * from this one is counted as steal in /proc/stat.  A run timed while the
 * host took a few percent meets another machine than a run timed while it
 * took none, and no interval of one run can see that: so a run records
 * the steal over its timing and in its worst round, and says so when it is
 * large enough to move a ratio (driver/run.c).  Read under a ROOT prefix so
 * fixture trees can stand in for /proc.
 */
#ifndef FLAGBENCH_STEAL_H
#define FLAGBENCH_STEAL_H

/* the aggregate "cpu" line of ROOT/proc/stat, in clock ticks */
struct cpu_ticks {
	unsigned long long steal, total;
	int ok; /* 0: not readable (not Linux, no steal field) */
};

void cpu_ticks_read(const char *root, struct cpu_ticks *t);
/* The share of the CPU time between a and b the host took (0..1), or NAN
 * when either is unknown or no time passed. */
double cpu_steal_share(const struct cpu_ticks *a, const struct cpu_ticks *b);

/* A run's steal: over its timing, and in the worst of its rounds. */
struct steal_watch {
	struct cpu_ticks start, last;
	double worst;   /* the worst round's share; NAN none yet */
	double share;   /* over the timing, set by steal_watch_end; NAN unknown */
	unsigned rounds;
};
void steal_watch_begin(struct steal_watch *w, const char *root);
void steal_watch_round(struct steal_watch *w, const char *root);
void steal_watch_end(struct steal_watch *w, const char *root);

/* Above this share over a run, its figures may not repeat: it says so. */
#define STEAL_WARN 0.02

#endif
