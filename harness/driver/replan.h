/* replan.h: builds of one variant planned as `flagbench run` plans them,
 * for the commands that rebuild (tune, explain).
 *
 * From a finished run: the cells named are read through the one reader
 * (results/reader.h) and planned again with the run's suite file (where it
 * still exists, else its name; the command-line matrix it kept, run.matrix,
 * replaces the suite's as it did in the run), cpu profile and family
 * folders (the copy the run kept, with its files' modes), so the rebuilt
 * cells get every part of run's plan: the suite's size for the variant, the
 * profile's pins, the record's placement, consumer and allocator, {input}
 * arguments (made by the session, session.h), expected bytes.  Without a run: a variant
 * and one compiler, -O and -march, on a suite and profile by name.
 *
 * The plan holds one cell per (-O, -march) asked, of one variant and one
 * compiler, without flag sets or layouts (a rebuild adds its own flags);
 * replan_find() gives the cell of a pair.
 */
#ifndef FLAGBENCH_REPLAN_H
#define FLAGBENCH_REPLAN_H

#include "config/config.h"
#include "config/cpu_profile.h"
#include "config/family.h"
#include "config/suite.h"
#include "core/util.h"
#include "pipeline/plan.h"

struct replan_request {
	const char *run;          /* a run folder, or NULL */
	const char *cells[2];     /* with run: the cells to plan again (cells[1] may be NULL) */
	/* without run: FAMILY/VARIANT and the start's compiler, -O, -march (NULL: the profile's first) */
	const char *variant, *compiler, *opt, *march;
	const char *cpu, *suite;  /* without run, or where the run names none */
	const struct strvec *family_dirs; /* --family-dir, or NULL */
};

struct replan {
	struct plan plan;
	struct family *fams;
	int nfam;
	struct suite suite;
	struct cpu_profile prof;
	char *run_dir;            /* the run's folder, or NULL */
};

/* 0, or -1 after a message (the caller exits 2); replan_free() either way. */
int replan_plan(const struct replan_request *rq, struct replan *out);
/* The planned cell with this -O and -march, or -1. */
int replan_find(const struct replan *r, const char *opt, const char *march);
void replan_free(struct replan *r);

#endif
