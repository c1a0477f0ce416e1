/* run.c: see run.h */
#define _GNU_SOURCE
#include "driver/run.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/config.h"
#include "core/heartbeat.h"
#include "core/runcmd.h"
#include "pipeline/compilers.h"
#include "driver/eta.h"
#include "driver/host.h"
#include "driver/earlier_runs.h"
#include "driver/run_dir.h"
#include "driver/run_options.h"
#include "driver/timed_host.h"
#include "pipeline/executor.h"
#include "pipeline/libraries.h"
#include "pipeline/plan.h"
#include "pipeline/records.h"
#include "pipeline/schedule.h"
#include "pipeline/session.h"
#include "pipeline/shard.h"
#include "pipeline/store.h"
#include "results/reader.h"
#include "results/replay.h"
#include "results/results.h"
#include "system/doctor.h"
#include "system/steal.h"
#include "system/sysinfo.h"
#include "system/topology.h"

/* Everything one `flagbench run` holds, stage after stage. */
struct run {
	const struct run_view *view;
	const struct executor *x;    /* the real one, or the mock with --dry-run */
	struct session session;      /* build, prepare, verify and count through x (zeroed until opened) */
	struct session_batch batch;  /* the plan's cells through the session, built, then verified and counted */
	unsigned char *ready;        /* per cell: verified, to be timed (batch.measure) */
	struct steal_watch steal;    /* the host's share of the cpu while timed (system/steal.h) */
	struct run_opts o;
	struct run_settings set;
	struct cpu_profile prof;
	struct suite suite;
	struct family *fams;
	int nfam;
	int loaded;                  /* configs loaded (prof, suite, fams to free) */
	struct topology topo;
	int have_topo;
	struct plan plan;
	int planned;
	struct run_state rs;
	char *hyperfine, *work;
	struct measure_opts mo;
	struct schedule_policy policy;
	unsigned pass; /* the measuring pass: 0, one more after each --resume */
	unsigned char *undecided; /* per cell: its answer still open (undecided_hook), as of undecided_runs runs */
	struct between_runs between; /* this host's earlier runs beside the run folder (results/ratio_drift.h) */
	size_t undecided_runs;
	enum counter_source counter_src;
	int count;                   /* count cycles/instructions of compute cells */
	struct run_progress {
		size_t done, total, verified;
		double measure_wall;
		enum eta_state *eta; /* per plan cell; ETA_DONE for those not timed in this run */
	} pr;
};

/* Whether a family's folder is one of dirs or in one of them. */
static int from_family_dirs(const struct strvec *dirs, const char *fdir)
{
	int found = 0;
	for (size_t i = 0; !found && i < dirs->n; i++) {
		char *abs = realpath(dirs->v[i], NULL);
		size_t l = abs ? strlen(abs) : 0;
		found = abs && !strncmp(fdir, abs, l) && (fdir[l] == '\0' || fdir[l] == '/');
		free(abs);
	}
	return found;
}

/* Options, profile, suite and families (not after --help). */
static int run_load(struct run *r, int argc, char **argv)
{
	struct run_opts *o = &r->o;
	int code = run_opts_parse(o, argc, argv, &r->set);
	if (code || o->help)
		return code;
	if (load_cpu_profile(o->cpu, &r->prof) < 0)
		return EXIT_USAGE;
	/* the command line's matrix replaces the suite's dimensions it names */
	if (load_suite(o->suite, &r->suite) < 0 || suite_matrix_parse(&o->matrix, &r->rs.matrix) < 0 ||
	    (r->rs.matrix && suite_set_matrix(&r->suite, r->rs.matrix, "command line") < 0)) {
		free_cpu_profile(&r->prof);
		if (r->suite.name)
			free_suite(&r->suite);
		return EXIT_USAGE;
	}
	/* the suite's family_dirs, then --family-dir */
	struct strvec dirs = STRVEC_INIT;
	sv_pushv(&dirs, r->suite.family_dirs.v);
	sv_pushv(&dirs, o->family_dirs.v);
	r->nfam = load_families(&dirs, &r->fams);
	sv_clear(&dirs);
	/* --family-dir without --suite: those families only, on the default
	 * matrix (the quick suite's compilers, opt and march) */
	if (o->family_dirs.n && !run_opts_given(o, "suite"))
		sv_clear(&r->suite.variants);
	/* a family named by --family-dir runs whole, whatever the suite's globs */
	for (int i = 0; i < r->nfam && o->family_dirs.n; i++)
		if (from_family_dirs(&o->family_dirs, r->fams[i].dir))
			sv_pushf(&r->suite.variants, "%s/*", r->fams[i].name);
	if (r->nfam < 0) {
		free_cpu_profile(&r->prof);
		free_suite(&r->suite);
		return EXIT_USAGE;
	}
	r->loaded = 1;
	if (suite_check_globs(&r->suite, r->fams, (size_t)r->nfam) < 0)
		return EXIT_USAGE;
	return 0;
}

/* The settings (run_options.h), the executor, and the tool it drives. */
static int run_settings(struct run *r)
{
	run_settings_resolve(&r->o, &r->suite, &r->prof, &r->set);
	r->x = r->o.dry_run ? &executor_mock : &executor_hyperfine;
	r->count = r->x->count && !r->o.no_counters;
	struct session_limits lim;
	session_limits_derive(&lim, r->set.timeout, r->set.build_timeout, r->set.verify_timeout);
	session_open(&r->session, r->x, r->o.cache, r->o.jobs, &lim);
	r->session.pretend_build_s = r->o.pretend_build;
	if (session_find_tool(&r->session, &r->hyperfine) < 0) {
		error("%s not found on PATH: install the Debian package %s (./run.sh does)", r->x->tool, r->x->tool);
		return EXIT_USAGE;
	}
	return 0;
}

/* The run folder: a new one, or the one --resume names (its id kept). */
static int run_folder(struct run *r, int argc, char **argv)
{
	struct run_state *rs = &r->rs;
	rs->started_wall = now_wall();
	rs->started_mono = now_monotonic();
	rs->suite = &r->suite;
	rs->cpu_profile = &r->prof;
	rs->quantile = r->set.quantile;
	rs->cool = &r->set.cool;
	rs->argv = json_array();
	json_array_append_new(rs->argv, json_string("flagbench"));
	for (int i = 0; i < argc; i++)
		json_array_append_new(rs->argv, json_string(argv[i]));
	if (r->o.resume) {
		rs->dir = xstrdup(r->o.resume);
		if (run_dir_resume_id(rs->dir, r->suite.name, r->prof.name, r->set.quantile, &rs->id) < 0)
			return EXIT_USAGE;
		rs->name = run_dir_name_of_out(rs->dir);
	} else {
		/* the folder the user chose names the run; the id stays a stamp,
		 * unique among runs (the history holds runs by id, and a nightly
		 * writes the same folder every night) */
		rs->id = run_dir_new_id(r->suite.name, r->prof.name);
		rs->name = r->o.out ? run_dir_name_of_out(r->o.out) : NULL;
		/* made-up times never lie among real runs (make plots, publish) */
		rs->dir = r->o.out ? xstrdup(r->o.out)
				   : xasprintf("%s/results/%s%s", project_root(), r->o.dry_run ? "dry-run/" : "", rs->id);
	}
	if (mkdir_p(rs->dir, 0755) < 0) {
		error("cannot create %s: %s", rs->dir, strerror(errno));
		return EXIT_USAGE;
	}
	if (r->o.earlier_runs_of && strcmp(r->o.earlier_runs_of, "host") && strcmp(r->o.earlier_runs_of, "cpu")) {
		error("--earlier-runs-of %s: host or cpu", r->o.earlier_runs_of);
		return EXIT_USAGE;
	}
	rs->earlier_any_host = r->o.earlier_runs_of && !strcmp(r->o.earlier_runs_of, "cpu");
	if (r->o.earlier_runs) {
		rs->earlier_dir = realpath(r->o.earlier_runs, NULL);
		if (!rs->earlier_dir) {
			error("--earlier-runs %s: %s", r->o.earlier_runs, strerror(errno));
			return EXIT_USAGE;
		}
	}
	if (run_dir_lock(rs->dir, r->o.resume != NULL) < 0)
		return EXIT_USAGE;
	r->work = xasprintf("%s/.work", rs->dir);
	return 0;
}

/* Before the build no cell's time a run is known: every cell is taken
 * at the time a run the suites aim at (0.05 to 0.1 s, configs/suites). */
#define SHARD_PLANNED_RUN_S 0.1

/* The eta's view of the schedule's policy (eta.h). */
static struct eta_policy eta_policy_of(const struct run_settings *s)
{
	struct schedule_policy sp = { .runs = s->runs };
	return (struct eta_policy){ .runs = s->runs, .max_runs = s->max_runs, .runs_for_rerun = s->runs_for_rerun,
				    .emulated_runs = schedule_emulated_runs(&sp), .precision = s->precision,
				    .cell_budget = s->cell_budget, .rounds = s->order == RUN_ORDER_INTERLEAVE };
}

/* --shard K/N: the plan's hash, then only shard K's cells (shard.h),
 * each weighed by the eta's expected seconds; a cell that cannot run
 * here weighs nothing. */
static void run_shard(struct run *r)
{
	struct run_state *rs = &r->rs;
	char stat[32];
	char *context = xasprintf("%s\n%s\n%s", r->suite.name, r->prof.name,
				  stats_statistic_name(r->set.quantile, stat, sizeof(stat)));
	plan_hash(&r->plan, context, rs->plan_sha256);
	free(context);
	rs->plan_cells = r->plan.n;
	rs->shard = r->set.shard;
	if (!r->set.shard.of)
		return;
	struct eta_policy p = eta_policy_of(&r->set);
	double *cost = xcalloc(r->plan.n + 1, sizeof(*cost));
	for (size_t i = 0; i < r->plan.n; i++) {
		const struct cell *c = &r->plan.cells[i];
		cost[i] = c->status == CELL_PENDING ? eta_cell_planned(&p, c->spec.cross != NULL, SHARD_PLANNED_RUN_S,
								       r->set.cooldown)
						    : 0;
	}
	rs->shard_cells = shard_apply(&r->plan, cost, r->set.shard);
	free(cost);
}

/* The plan, with where each cell runs resolved (plan.h); an --only that
 * selects no cell stops the run before its folder is made. */
static int run_plan(struct run *r)
{
	double t = now_monotonic();
	r->have_topo = topology_load("/", &r->topo) == 0;
	struct plan_input in = { .suite = &r->suite, .profile = &r->prof, .families = r->fams,
				 .nfamilies = (size_t)r->nfam, .only = r->o.only, .layouts = r->o.layouts,
				 .topology = r->have_topo ? &r->topo : NULL };
	in.probe_march = r->x->probe_march;
	int built = plan_build(&in, &r->plan);
	r->planned = 1;
	if (built < 0) {
		error("%s", r->plan.refused);
		return EXIT_USAGE;
	}
	r->rs.plan = &r->plan;
	run_shard(r);
	const struct pins *q = &r->plan.pins_requested, *u = &r->plan.pins_used;
	r->rs.profile = json_deep_copy(r->prof.json);
	json_object_set_new(r->rs.profile, "pin",
			    json_pack("{s:{s:i, s:i, s:i}, s:{s:i, s:i, s:i}}", "requested", "producer", q->producer,
				      "consumer", q->consumer, "single", q->single, "used", "producer", u->producer,
				      "consumer", u->consumer, "single", u->single));
	r->rs.phases.plan_s = now_monotonic() - t;
	return 0;
}

/* The command line's compilers, -O levels and -march values, each asked
 * of the compilers (a dry run too: they are the user's words) before the
 * run folder is made or anything builds. */
static int run_check_matrix(struct run *r)
{
	json_t *m = r->rs.matrix;
	if (!m)
		return 0;
	const struct suite *s = &r->suite;
	struct matrix_values v = { .compilers = json_object_get(m, "compilers") != NULL,
				   .opt = json_object_get(m, "opt") ? &s->opt : NULL,
				   .march = json_is_array(json_object_get(m, "march")) ? &s->march : NULL };
	char why[1536];
	size_t native = r->plan.ncompilers - s->ncross;
	if (compilers_check_values(r->plan.compilers, native, &v, why, sizeof(why)) < 0) {
		error("%s", why);
		return EXIT_USAGE;
	}
	return 0;
}

/* The conditions of the run, recorded as warnings in results.json. */
static void run_conditions(struct run *r)
{
	struct run_state *rs = &r->rs;
	if (r->prof.match && !strstr(host_cpu_model(), r->prof.match))
		sv_pushf(&rs->warnings, "cpu profile %s expects '%s' in the cpu model; this host is '%s'", r->prof.name,
			 r->prof.match, host_cpu_model());
	for (size_t i = 0; i < r->plan.warnings.n; i++)
		sv_push(&rs->warnings, r->plan.warnings.v[i]);
	rs->host = host_json();
	/* the spare runs go by the ratios' moves between runs, as the tables' intervals will */
	earlier_runs_read(rs->dir, rs->earlier_dir, rs->earlier_any_host, rs->host, rs->started_wall, &r->between);
	struct strbuf noisy = STRBUF_INIT;
	/* made-up times are not disturbed by a noisy host */
	if (r->x->times == EXECUTOR_TIMES_MEASURED && doctor_noisy(rs->host, &noisy))
		sv_pushf(&rs->warnings, "the system is noisy: %s", noisy.buf);
	sb_release(&noisy);
	rs->tools = tools_json(&r->plan);
	if (r->x->warning)
		sv_push(&rs->warnings, r->x->warning);
	if (r->set.cooldown > 0 && !r->set.cool.sensor)
		sv_pushf(&rs->warnings, "no thermal sensors: the cooldown is a fixed pause of %gs before each cell, "
			 "none between its runs", r->set.cooldown);
}

/* --resume: the cells the journal has are restored, not run again. */
static int run_restore(struct run *r)
{
	if (!r->o.resume)
		return 0;
	int n = results_resume(&r->plan, r->rs.dir);
	if (n < 0)
		return EXIT_USAGE;
	/* this invocation measures in a pass of its own: its rounds pair with
	 * each other, never with the restored cells' rounds */
	for (size_t i = 0; i < r->plan.n; i++)
		if (r->plan.cells[i].origin == CELL_FROM_JOURNAL && r->plan.cells[i].measure.pass >= r->pass)
			r->pass = r->plan.cells[i].measure.pass + 1;
	fprintf(stderr, "flagbench: resuming %s: %d cells already done\n", r->rs.dir, n);
	return 0;
}

/* Every pending cell compiled (cache), identical programs found: the
 * session's batch as far as built; the binaries kept before any runs. */
static void run_build(struct run *r)
{
	double t = now_monotonic();
	r->batch = (struct session_batch){ .from = 0, .upto = SESSION_BUILT };
	if (r->o.binaries_from) {
		struct results_run from;
		int have = results_open(r->o.binaries_from, &from) == 0;
		run_use_stored_binaries(&r->plan, r->o.binaries_from, have ? &from : NULL);
		if (have)
			results_close(&from);
		r->batch.stored = 1; /* nothing to compile; verified as any build is */
	}
	session_ready(&r->session, &r->plan, &r->batch);
	const struct build_stats *bs = &r->batch.built;
	if (!r->o.binaries_from && r->x->times == EXECUTOR_TIMES_MEASURED)
		fprintf(stderr, "flagbench: built %u, cached %u, failed %u (%.1fs)\n", bs->compiled, bs->cached, bs->failed,
			now_monotonic() - t);
	run_keep_binaries(&r->plan, r->rs.dir);
	libraries_record(&r->plan);
	run_keep_libraries(&r->plan, r->rs.dir);
	json_decref(r->rs.kept_families);
	r->rs.kept_families = run_keep_families(&r->plan, r->rs.dir);
	r->rs.phases.build_s = now_monotonic() - t;
}

/* The time left (eta.h): the cells to time, their runs so far, and what
 * measuring, verifying and pausing took. */
static double run_eta(const struct run *r)
{
	struct eta_policy p = eta_policy_of(&r->set);
	struct eta_history h = { .measure_s = r->pr.measure_wall - r->rs.phases.cooldown_s,
				 .verify_s = r->rs.phases.verify_s, .verified = r->pr.verified,
				 .cooldown_s = r->rs.phases.cooldown_s };
	struct eta_cell *cells = xcalloc(r->plan.n + 1, sizeof(*cells));
	size_t n = 0;
	for (size_t i = 0; i < r->plan.n; i++) {
		const struct cell *c = &r->plan.cells[i];
		/* a finished cell's runs say what a run costs; restored ones are not this run's */
		if (c->origin == CELL_FROM_JOURNAL || (r->pr.eta[i] == ETA_DONE && !c->measure.time.n))
			continue;
		struct eta_cell *e = &cells[n++];
		e->state = r->pr.eta[i];
		e->runs = (unsigned)c->measure.time.n;
		/* made-up times (--dry-run) took no time */
		for (size_t k = 0; r->x->times == EXECUTOR_TIMES_MEASURED && k < c->measure.time.n; k++)
			e->spent_s += c->measure.time.runs[k];
		e->emulated = c->spec.cross != NULL;
		h.paused += e->runs > 0;
	}
	double left = eta_estimate(&p, cells, n, &h);
	free(cells);
	return left;
}

/* Progress on stderr, one line per finished cell. */
static void progress(struct run *r, const struct cell *c)
{
	const struct run_progress *pr = &r->pr;
	double eta = run_eta(r);
	char val[128], e[32] = "?";
	r->view->cell_figure(c, &r->plan, val, sizeof(val));
	if (eta >= 0)
		format_duration(eta, e, sizeof(e));
	heartbeat_spoke();
	if (c->status == CELL_OK)
		fprintf(stderr, "[%zu/%zu] %s  %s  eta %s\n", pr->done, pr->total, c->spec.id, val, e);
	else
		fprintf(stderr, "[%zu/%zu] %s  %s: %s  eta %s\n", pr->done, pr->total, c->spec.id,
			cell_status_name(c->status), c->reason ? c->reason : "", e);
}

/* The batch taken on from built: every distinct pending program
 * verified, then the verified compute builds counted at once (counts are
 * exact under any load: they take every CPU while nothing is timed);
 * ready[i] marks the cells the schedule times. */
static void ready_stage(struct run *r)
{
	r->batch.upto = r->count ? SESSION_COUNTED : SESSION_VERIFIED;
	r->batch.counters = r->counter_src;
	session_ready(&r->session, &r->plan, &r->batch);
	r->rs.phases.verify_s += r->batch.verify_s;
	r->rs.phases.count_s += r->batch.count_s;
	r->pr.verified += r->batch.verified;
	r->ready = xcalloc(r->plan.n + 1, 1);
	for (size_t k = 0; k < r->batch.nmeasure; k++)
		r->ready[r->batch.measure[k]] = 1;
	for (size_t i = 0; i < r->plan.n; i++)
		if (r->pr.eta[i] == ETA_TO_VERIFY)
			r->pr.eta[i] = r->ready[i] ? ETA_MEASURING : ETA_DONE;
}

/* After a cell: results.json rewritten, the journal appended, progress. */
static void finish_cell(struct run *r, struct cell *c)
{
	r->pr.done++;
	if (c->origin == CELL_FROM_JOURNAL)
		return;
	if (fb_interrupted && c->status == CELL_PENDING)
		cell_set_status(c, CELL_SKIPPED, "interrupted");
	compute_speedups(&r->plan);
	results_write(&r->rs);
	results_journal_append(&r->rs, c);
	progress(r, c);
}

/* The schedule's hooks (schedule.h): a cell is timed when the session
 * proved it (ready); a cell's end recorded, journaled and reported. */
static int admit_hook(void *ctx, size_t i)
{
	struct run *r = ctx;
	struct cell *c = &r->plan.cells[i];
	/* a twin of a proven program is measured once, as its source */
	if (c->build.same_binary_as >= 0 && c->status == CELL_PENDING && c->origin != CELL_FROM_JOURNAL &&
	    !fb_interrupted)
		c->status = CELL_OK;
	r->pr.eta[i] = r->ready[i] ? ETA_MEASURING : ETA_DONE;
	return r->ready[i] ? 0 : -1;
}

/* Whether cell i's answer is still open, asked of the view once per new run. */
static int undecided_hook(void *ctx, size_t i)
{
	struct run *r = ctx;
	size_t runs = 0;
	for (size_t k = 0; k < r->plan.n; k++)
		runs += r->plan.cells[k].measure.time.n;
	if (!r->undecided || runs != r->undecided_runs) {
		r->undecided = xrealloc(r->undecided, r->plan.n + 1);
		r->view->undecided(&r->plan, &r->between, r->undecided);
		r->undecided_runs = runs;
	}
	return r->undecided[i];
}

static void done_hook(void *ctx, size_t i, enum schedule_end end, double spent_s)
{
	struct run *r = ctx;
	struct cell *c = &r->plan.cells[i];
	r->pr.eta[i] = ETA_DONE;
	switch (end) {
	case SCHEDULE_NOT_ADMITTED:
		/* in rounds, a cell that shares a binary is done when its twin
		 * is: after the rounds */
		if (r->set.order == RUN_ORDER_INTERLEAVE && c->build.same_binary_as >= 0 && c->status == CELL_OK)
			return;
		break;
	case SCHEDULE_MEASURED:
		c->status = CELL_OK;
		schedule_precision_record(&r->policy, c, spent_s);
		break;
	case SCHEDULE_FAILED:
	case SCHEDULE_INTERRUPTED:
		break;
	}
	finish_cell(r, c);
}

/* Every ROUND_PROGRESS rounds a line with the eta: in rounds the first
 * cell finishes late, and the run should not be silent till then. */
#define ROUND_PROGRESS 5

static void round_hook(void *ctx, unsigned round)
{
	struct run *r = ctx;
	steal_watch_round(&r->steal, "/");
	results_write(&r->rs);
	size_t wanting = 0;
	for (size_t i = 0; i < r->plan.n; i++)
		wanting += r->pr.eta[i] == ETA_MEASURING;
	if (!wanting || (round + 1) % ROUND_PROGRESS)
		return;
	double eta = run_eta(r);
	char e[32] = "?";
	if (eta >= 0)
		format_duration(eta, e, sizeof(e));
	heartbeat_spoke();
	fprintf(stderr, "flagbench: round %u: %zu cells want more runs (%.0fs so far)  eta %s\n", round + 2, wanting,
		r->pr.measure_wall, e);
}

/* After the rounds: a cell that shares a binary takes its twin's end. */
static void twins_finish(struct run *r)
{
	struct plan *p = &r->plan;
	for (size_t i = 0; i < p->n; i++) {
		struct cell *c = &p->cells[i];
		if (c->build.same_binary_as < 0 || c->status != CELL_OK || c->origin == CELL_FROM_JOURNAL)
			continue;
		const struct cell *src = &p->cells[c->build.same_binary_as];
		if (src->status != CELL_OK)
			cell_set_status(c, src->status == CELL_PENDING ? CELL_SKIPPED : src->status, "same binary as %s: %s",
					src->spec.id, src->reason ? src->reason : "not measured");
		finish_cell(r, c);
	}
}

/* The measure options, the schedule's policy, the counter source and the
 * progress totals. */
static void cells_setup(struct run *r)
{
	const struct run_settings *s = &r->set;
	/* hyperfine waits between runs only where a sensor decides (cooldown.h) */
	double below = NAN, max_wait = 0;
	cooldown_between_runs(&s->cool, &below, &max_wait);
	r->mo = (struct measure_opts){
		.hyperfine = r->hyperfine,
		.workdir = r->work,
		.runs = s->runs,
		.warmup = s->warmup,
		.run_timeout_s = r->session.lim.run_s,
		.cooldown_below_c = below,
		.cooldown_max_wait_s = max_wait,
		.consumer = r->o.consumer,
		.consumer_wait = r->o.consumer_wait,
		.pipe_size = r->o.pipe_size,
		.quantile = s->quantile,
	};
	r->policy = (struct schedule_policy){
		.order = s->order == RUN_ORDER_SEQUENTIAL ? SCHEDULE_SEQUENTIAL : SCHEDULE_SHUFFLED,
		.runs = s->runs,
		.warmup = s->warmup,
		.max_runs = s->max_runs,
		.precision = s->precision,
		.cell_budget = s->cell_budget,
		.runs_for_rerun = s->runs_for_rerun,
		.seed = 0x666c6167ULL, /* "flag": two runs of one plan use the same orders */
		.pass = r->pass,
		.pause = SCHEDULE_PAUSE_EACH_CELL,
		.cool = &s->cool,
		.on_failure = SCHEDULE_DROP_CELL,
		.thermal_root = "/",
		.progress_every = 0, /* round_hook says how the rounds go, with the eta */
	};
	int any_compute = 0;
	r->pr.total = r->plan.n;
	r->rs.steal_share = r->rs.steal_worst = NAN; /* until timed */
	r->pr.eta = xcalloc(r->plan.n + 1, sizeof(*r->pr.eta));
	for (size_t i = 0; i < r->plan.n; i++) {
		const struct cell *c = &r->plan.cells[i];
		any_compute |= c->spec.family->kind == KIND_COMPUTE && c->status == CELL_PENDING;
		/* only the cells this run verifies and times count for the eta */
		int timed = c->status == CELL_PENDING && c->build.same_binary_as < 0 && c->origin != CELL_FROM_JOURNAL;
		r->pr.eta[i] = timed ? ETA_TO_VERIFY : ETA_DONE;
	}
	r->counter_src = COUNTERS_NONE;
	if (any_compute && r->count) {
		char why[256] = "";
		r->counter_src = counters_probe(why, sizeof(why));
		if (r->counter_src != COUNTERS_PERF) {
			sv_push(&r->rs.warnings, why);
			warning("%s", why);
		}
	}
}

/* The schedule's blocks and groups: a variant's (or a reference's)
 * cells, every configuration and layout of it, are one block, the cells
 * its answer, gaps, against and compilers tables compare; a family's are
 * one group, for its speedup table (a variant against the baseline's).
 * Each is numbered by its first cell's index. */
static void variant_blocks(const struct plan *p, unsigned *block, unsigned *group)
{
	for (size_t i = 0; i < p->n; i++) {
		const struct cell_spec *s = &p->cells[i].spec;
		block[i] = group[i] = (unsigned)i;
		for (size_t j = i; j-- > 0;) {
			const struct cell_spec *t = &p->cells[j].spec;
			if (s->family != t->family)
				continue;
			group[i] = group[j];
			if (s->variant == t->variant && s->reference == t->reference)
				block[i] = block[j];
		}
	}
}

/* Verify and measure every pending cell (schedule.h: in shuffled rounds,
 * each variant's cells back to back, or cell after cell); what Ctrl-C
 * left undone is skipped, and says so. */
static void run_cells(struct run *r)
{
	mkdir_p(r->work, 0755);
	cells_setup(r);
	ready_stage(r);
	struct cell **cells = xcalloc(r->plan.n + 1, sizeof(*cells));
	for (size_t i = 0; i < r->plan.n; i++)
		cells[i] = &r->plan.cells[i];
	unsigned *block = xcalloc(r->plan.n + 1, sizeof(*block)), *group = xcalloc(r->plan.n + 1, sizeof(*group));
	variant_blocks(&r->plan, block, group);
	struct schedule s = {
		.policy = &r->policy,
		.x = r->x,
		.mo = &r->mo,
		.cells = cells,
		.n = r->plan.n,
		.hooks = { .ctx = r, .admit = admit_hook, .done = done_hook, .round_done = round_hook,
			   .undecided = r->view->undecided ? undecided_hook : NULL },
		.tally = { .measure_s = &r->rs.phases.measure_s, .cooldown_s = &r->rs.phases.cooldown_s,
			   .wall_s = &r->pr.measure_wall },
		.block = block,
		.group = group,
		.handoff = session_handoff(&r->session),
	};
	heartbeat_begin("timing %zu cells%s", r->pr.total, r->set.order == RUN_ORDER_INTERLEAVE ? " in rounds" : "");
	steal_watch_begin(&r->steal, "/");
	schedule_run(&s);
	timed_steal(&r->steal, r->x->times, &r->rs);
	heartbeat_end();
	timed_handoff(&r->plan, session_handoff(&r->session), r->x->times, &r->rs);
	free(cells);
	free(block);
	free(group);
	if (r->set.order == RUN_ORDER_INTERLEAVE)
		twins_finish(r);
	for (size_t i = 0; i < r->plan.n; i++)
		if (r->plan.cells[i].status == CELL_PENDING)
			cell_set_status(&r->plan.cells[i], CELL_SKIPPED, "interrupted before it ran");
	timed_drift(&r->plan, r->set.order == RUN_ORDER_SEQUENTIAL, &r->rs.drift);
}

/* The final results.json; the scratch folder goes unless the run is to
 * be resumed.  Returns the exit code. */
static int run_record(struct run *r)
{
	struct run_state *rs = &r->rs;
	rs->interrupted = fb_interrupted != 0;
	rs->finished = !rs->interrupted;
	rs->finished_wall = now_wall();
	compute_speedups(&r->plan);
	int wr = results_write(rs);
	if (rs->finished)
		remove_tree(r->work);
	int failed = 0, any_ok = 0;
	for (size_t i = 0; i < r->plan.n; i++) {
		failed |= cell_status_failed(r->plan.cells[i].status);
		any_ok |= r->plan.cells[i].status == CELL_OK;
	}
	/* a run that measured nothing is no success; a shard with no cell
	 * (more shards than blocks) has nothing to measure */
	if (!any_ok && !rs->interrupted && !(rs->shard.of && !r->plan.n)) {
		warning("no cell is ok: nothing was measured");
		failed = 1;
	}
	return rs->interrupted ? EXIT_INTERRUPTED : wr < 0 || failed ? EXIT_CELL_FAILED : EXIT_ALL_OK;
}

/* Tables, plots and index.html from results.json (run_dir.h). */
static void run_render(struct run *r)
{
	if (!r->o.no_render && !r->rs.interrupted)
		run_dir_render(r->rs.dir);
}

static void run_free(struct run *r)
{
	session_batch_release(&r->batch);
	session_close(&r->session);
	free(r->ready);
	if (r->planned)
		plan_free(&r->plan);
	free(r->undecided);
	results_between_release(&r->between);
	if (r->have_topo)
		topology_free(&r->topo);
	if (r->loaded) {
		for (int i = 0; i < r->nfam; i++)
			free_family(&r->fams[i]);
		free(r->fams);
		free_cpu_profile(&r->prof);
		free_suite(&r->suite);
	}
	json_decref(r->rs.argv);
	json_decref(r->rs.host);
	json_decref(r->rs.tools);
	json_decref(r->rs.profile);
	json_decref(r->rs.kept_families);
	json_decref(r->rs.matrix);
	sv_clear(&r->rs.warnings);
	free(r->rs.id);
	free(r->rs.dir);
	free(r->rs.name);
	free(r->rs.earlier_dir);
	free(r->rs.shard_cells);
	free(r->work);
	free(r->hyperfine);
	free(r->pr.eta);
	run_opts_free(&r->o);
}

/* The warnings on stderr, and a first results.json before anything runs:
 * a folder that cannot keep it stops the run before the build. */
static int run_announce(struct run *r)
{
	for (size_t i = 0; i < r->rs.warnings.n; i++)
		warning("%s", r->rs.warnings.v[i]);
	if (results_write(&r->rs) < 0) {
		error("nothing could be kept in %s: stopping before the build", r->rs.dir);
		return EXIT_USAGE;
	}
	return 0;
}

/* The end of a run: its table on stdout, where the results are on stderr. */
static void run_summary(struct run *r)
{
	if (!r->rs.interrupted)
		r->view->summary(r->rs.dir, r->o.verbose);
	fprintf(stderr, "flagbench: results in %s/results.json%s\n", r->rs.dir, r->rs.interrupted ? " (interrupted)" : "");
}

/* The stages in order (docs/architecture.md); returns the exit code. */
static int run_pipeline(struct run *r, int argc, char **argv)
{
	install_interrupt_handler();
	int code = run_settings(r);
	if (code == 0)
		code = run_plan(r);
	if (code == 0)
		code = run_check_matrix(r);
	if (code == 0)
		code = run_folder(r, argc, argv);
	if (code)
		return code;
	run_conditions(r);
	code = run_restore(r);
	if (code)
		return code;
	code = run_announce(r);
	if (code)
		return code;
	run_build(r);
	run_cells(r);
	code = run_record(r);
	run_render(r);
	run_summary(r);
	return code;
}

int run_main(int argc, char **argv, const struct run_view *view)
{
	struct run r;
	memset(&r, 0, sizeof(r));
	r.view = view;
	int code = run_load(&r, argc, argv);
	if (code == 0 && !r.o.help)
		code = run_pipeline(&r, argc, argv);
	run_free(&r);
	return code;
}
