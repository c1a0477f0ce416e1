/* tune.c: see tune.h.  The whole: its folder, the stages in order on one
 * struct tune, and what it holds freed. */
#include "driver/tune.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/runcmd.h"
#include "core/util.h"
#include "driver/tune_confirm.h"
#include "driver/tune_eval.h"
#include "driver/tune_journal.h"
#include "driver/tune_loop.h"
#include "driver/tune_minimise.h"
#include "driver/tune_probe.h"
#include "driver/tune_start.h"
#include "driver/tune_state.h"
#include "pipeline/executor.h"

int tune_parse_budget(const char *text, double *seconds, unsigned *candidates)
{
	char *end;
	errno = 0;
	double v = strtod(text, &end);
	if (errno || end == text || !(v > 0) || !isfinite(v))
		return -1;
	*seconds = 0;
	*candidates = 0;
	if (!*end) {
		if (v != floor(v) || v > 1e6)
			return -1;
		*candidates = (unsigned)v;
		return 0;
	}
	double unit = !strcmp(end, "s") ? 1 : !strcmp(end, "m") ? 60 : !strcmp(end, "h") ? 3600 : 0;
	if (!unit)
		return -1;
	*seconds = v * unit;
	return 0;
}

/* ---- the whole ---- */

static void free_tune(struct tune *t)
{
	for (size_t i = 0; i < t->nev; i++) {
		free(t->ev[i].key);
		free(t->ev[i].op);
		free(t->ev[i].reason);
		free(t->ev[i].same_as);
	}
	free(t->ev);
	for (size_t i = 0; i < t->ntracks; i++) {
		if (t->tracks[i].search)
			tune_search_free(t->tracks[i].search);
		free(t->tracks[i].best_key);
	}
	for (size_t i = 0; i < t->nshares; i++)
		free(t->shares[i].flag);
	free(t->shares);
	for (size_t i = 0; i < t->nconfirmed; i++) {
		free(t->confirmed[i].label);
		free(t->confirmed[i].key);
	}
	free(t->confirmed);
	plan_free_copies(&t->confirm_plan);
	sv_clear(&t->minimal);
	sv_clear(&t->notes);
	for (size_t i = 0; i < t->nlevels; i++)
		free(t->levels[i].opt);
	sv_clear(&t->check_lines);
	free(t->switch_why);
	if (t->journaled)
		tune_record_free(t->journaled);
	free(t->journaled);
	free(t->best_key);
	free(t->metric_why);
	free(t->minimise_note);
	free(t->space_hash);
	tune_space_free(&t->space);
	replan_free(&t->start);
	if (t->journal)
		fclose(t->journal);
	free(t->journal_path);
	free(t->dir);
	free(t->work);
	session_close(&t->session);
	free(t->hyperfine);
}

static int make_dir(struct tune *t)
{
	const struct cell_spec *proto = &t->start.plan.cells[t->proto].spec;
	if (t->o->resume)
		t->dir = xstrdup(t->o->resume);
	else if (t->o->out)
		t->dir = xstrdup(t->o->out);
	else
		/* made-up figures never lie among real ones */
		t->dir = xasprintf("%s/results/%stune-%s-%s-%s", project_root(), t->o->dry_run ? "dry-run/" : "", t->stamp,
				   proto->family->name, proto->variant->name);
	t->work = xasprintf("%s/.work", t->dir);
	if (mkdir_p(t->work, 0755) < 0)
		return error("cannot create %s: %s", t->work, strerror(errno));
	return 0;
}

int tune_main(const struct tune_opts *o, const struct tune_view *view)
{
	struct tune t;
	memset(&t, 0, sizeof(t));
	t.o = o;
	t.proto = -1;
	t.started = now_wall();
	format_utc_stamp(t.started, t.stamp, sizeof(t.stamp));
	int code = EXIT_USAGE;
	if (tune_plan_start(&t) < 0)
		goto done;
	const struct cell_spec *proto = &t.start.plan.cells[t.proto].spec;
	if (tune_space_read(proto->compiler, proto->cflags.v, o->allow_unsafe, &t.space) < 0)
		goto done;
	if (o->list_space) {
		printf("start: %s (%s)\n", proto->id, proto->compiler->version);
		tune_space_print(&t.space, stdout);
		code = EXIT_ALL_OK;
		goto done;
	}
	if (!t.space.n) {
		error("%s lists no flag to search", proto->compiler->name);
		goto done;
	}
	t.space_hash = tune_journal_space_hash(&t.space);
	struct session_limits lim;
	session_limits_derive(&lim, o->timeout, o->build_timeout, 0);
	session_open(&t.session, o->dry_run ? &executor_mock : &executor_hyperfine, o->cache, o->jobs, &lim);
	if (t.session.x->warning)
		sv_push(&t.notes, t.session.x->warning);
	install_interrupt_handler();
	if (make_dir(&t) < 0)
		goto done;
	code = EXIT_CELL_FAILED;
	if (tune_measure_start(&t) < 0)
		goto done;
	t.ntracks = o->ntechniques;
	for (size_t i = 0; i < t.ntracks; i++)
		t.tracks[i].technique = o->techniques[i];
	code = EXIT_USAGE;
	if (tune_journal_open(&t) < 0)
		goto done;
	/* what a candidate costs and the -O levels, before any is searched */
	if (tune_probe(&t) < 0 && !fb_interrupted)
		goto done;
	if (!fb_interrupted) {
		fprintf(stderr, "flagbench: tune %s: %zu dimensions (%s), screen by %s%s%s\n", proto->id, t.space.n,
			proto->compiler->version, metric_name(t.metric), t.metric_why ? ": " : "",
			t.metric_why ? t.metric_why : "");
		tune_announce(&t);
		tune_run_searches(&t);
	}
	if (!fb_interrupted)
		tune_minimise(&t);
	if (!fb_interrupted)
		tune_confirm(&t);
	if (fb_interrupted) {
		fprintf(stderr, "flagbench: tune interrupted: the journal keeps %zu candidates; flagbench tune --resume %s "
				"continues\n", t.nev, t.dir);
		code = EXIT_INTERRUPTED;
		goto done;
	}
	code = view->report(&t) < 0 ? EXIT_CELL_FAILED : EXIT_ALL_OK;
done:
	free_tune(&t);
	return code;
}
