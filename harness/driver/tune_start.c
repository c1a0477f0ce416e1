/* tune_start.c: see tune_start.h */
#include "driver/tune_start.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/util.h"
#include "driver/tune_eval.h"
#include "pipeline/compilers.h"

/* The start planned as `flagbench run` plans it (driver/replan.h): the
 * run's cell, or one variant x one compiler x one -O x one -march. */
int tune_plan_start(struct tune *t)
{
	const struct tune_opts *o = t->o;
	struct replan_request rq = { .run = o->run, .cells = { o->cell, NULL }, .variant = o->variant,
				     .compiler = o->compiler, .opt = o->opt, .march = o->march, .cpu = o->cpu,
				     .suite = o->suite, .family_dirs = &o->family_dirs };
	if (replan_plan(&rq, &t->start) < 0)
		return -1;
	/* the start's compiler, -O and -march checked as run checks its matrix */
	struct strvec opt = STRVEC_INIT, march = STRVEC_INIT;
	if (!o->run) {
		sv_push(&opt, o->opt);
		if (o->march)
			sv_push(&march, o->march);
	}
	struct matrix_values mv = { .compilers = !o->run, .opt = &opt, .march = &march };
	char why[1536];
	int bad = compilers_check_values(t->start.plan.compilers, o->run ? 0 : 1, &mv, why, sizeof(why));
	sv_clear(&opt);
	sv_clear(&march);
	if (bad < 0)
		return error("the start: %s", why);
	t->proto = replan_find(&t->start, NULL, NULL);
	if (t->proto < 0)
		return error("no build of %s here", o->run ? o->cell : o->variant);
	const struct cell *pc = &t->start.plan.cells[t->proto];
	if (pc->status == CELL_UNSUPPORTED)
		return error("%s cannot be built here: %s", pc->spec.id, pc->reason ? pc->reason : "unsupported");
	if (pc->spec.compiler->cross || pc->spec.cross)
		return error("tune builds for this machine; %s is a cross build", pc->spec.id);
	return 0;
}

double tune_build_start(struct tune *t, struct session *s, struct plan *bp, struct session_batch *b)
{
	const struct cell_spec *proto = &t->start.plan.cells[t->proto].spec;
	memset(bp, 0, sizeof(*bp));
	size_t alloc = 0;
	tune_add_clone(bp, &alloc, proto, "", NULL, proto->config, 0, 1);
	*b = (struct session_batch){ .from = 0, .upto = SESSION_BUILT };
	session_ready(s, bp, b);
	return b->build_s;
}

/* The start built, checked and measured: its sha256 names the binary every
 * candidate is compared with; the metric is chosen on it. */
int tune_measure_start(struct tune *t)
{
	const struct cell_spec *proto = &t->start.plan.cells[t->proto].spec;
	struct plan bp;
	/* what it costs is the first figure of what a candidate costs (tune_probe.h) */
	struct session_batch b;
	t->start_cost.build_s = tune_build_start(t, &t->session, &bp, &b);
	t->start_cost.compiled = b.built.compiled;
	struct cell *c = &bp.cells[0];
	int rc = -1;
	if (c->status != CELL_PENDING) {
		error("the start %s did not build: %s", c->spec.id, c->reason ? c->reason : cell_status_name(c->status));
		goto done;
	}
	snprintf(t->start_sha, sizeof(t->start_sha), "%s", c->build.sha256);
	/* instructions where a counter source counts the start's family, so
	 * the session counts it once verified; time otherwise */
	char why[512] = "";
	int counts = !t->o->metric_asked || t->o->metric != METRIC_TIME;
	if (counts)
		t->counters = session_counter_source(&t->session, proto->family, why, sizeof(why));
	b.upto = counts && t->counters != COUNTERS_NONE ? SESSION_COUNTED : SESSION_VERIFIED;
	b.counters = t->counters;
	b.quiet = 1;
	session_ready(&t->session, &bp, &b);
	t->start_cost.check_s = b.verify_s;
	t->start_cost.checked = 1;
	if (b.nmeasure != 1) {
		error("the start %s fails its check: %s: %s", c->spec.id, cell_status_name(c->status),
		      c->reason ? c->reason : "");
		goto done;
	}
	if (b.reached == SESSION_COUNTED) {
		t->start_score = tune_counts_of(c, why, sizeof(why));
		t->start_cost.screen_s = b.count_s;
		t->start_cost.screened = 1;
		if (isfinite(t->start_score))
			t->metric = METRIC_INSTRUCTIONS;
	}
	if (counts && t->metric != METRIC_INSTRUCTIONS && t->o->metric_asked) {
		error("--metric instructions: %s", why);
		goto done;
	}
	t->count_start = t->metric == METRIC_INSTRUCTIONS ? t->start_score : NAN;
	if (t->metric != METRIC_INSTRUCTIONS) {
		t->metric = METRIC_TIME;
		t->start_score = 1;
		if (*why)
			t->metric_why = xstrdup(why);
	}
	if (session_find_tool(&t->session, &t->hyperfine) < 0) {
		error("%s not found on PATH: install the Debian package %s", t->session.x->tool, t->session.x->tool);
		goto done;
	}
	rc = 0;
done:
	session_batch_release(&b);
	plan_free_copies(&bp);
	return rc;
}
