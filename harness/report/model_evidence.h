/* model_evidence.h: what a lead by time adds from the rest of the run.
 *
 * A run of a compute family pays for exact instruction counts (counters.h)
 * beside its times; on a busy machine the times may not tell two builds
 * apart while the counts do.  So each answer by time says, where both
 * builds were counted, how their counts compare ("by instructions
 * (exact): gcc/-O2/native runs 5.4 % fewer than clang/-O3/native"), and
 * whether that goes against the time verdict; and where time could not
 * decide, how long a cell would have to run to reach the precision target,
 * from the spread its interval shows: the interval narrows as one over the
 * square root of the runs, so reaching a half-width P from H takes
 * (H / P)^2 times the runs it had.
 */
#ifndef FLAGBENCH_MODEL_EVIDENCE_H
#define FLAGBENCH_MODEL_EVIDENCE_H

#include "report/model_compare.h"

/* counts within this share of each other are "the same count" */
#define EVIDENCE_SAME_COUNT 0.001
/* a gap time could not call is listed by its counts from this share on
 * (what the tables print as 0.99x or 1.01x at the least) */
#define EVIDENCE_GAP_COUNT 0.005

struct mevidence {
	/* the runner-up's instructions per unit over the leader's (above 1:
	 * the leader runs fewer); NAN where either was not counted */
	double count_ratio;
	int disagree;      /* a real lead by time for the build that runs more instructions */
	double half;       /* the time interval's half-width, percent of the lead; NAN without */
	double target;     /* the precision target, percent */
	double need_runs;  /* runs a cell would need to reach it; NAN where time decided */
	double need_s;     /* the seconds of those runs, for the slower cell */
	const char *words; /* the sentence, or NULL when there is nothing to add */
};

/* For the leader a over the runner-up b (labels la, lb), whose one
 * comparison is v. */
void model_evidence(struct model *m, struct fsrc *f, const struct mcell *a, const struct mcell *b, const char *la,
		    const char *lb, const struct mview *v, struct mevidence *e);

#endif
