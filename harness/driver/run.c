/* run.c: see run.h */
#define _GNU_SOURCE
#include "driver/run.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <glob.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include <gnu/libc-version.h>

#include "system/allocators.h"
#include "pipeline/build.h"
#include "pipeline/check_json.h"
#include "pipeline/inputs.h"
#include "config/config.h"
#include "system/cooldown.h"
#include "pipeline/counters.h"
#include "system/doctor.h"
#include "pipeline/measure.h"
#include "core/options.h"
#include "pipeline/plan.h"
#include "pipeline/store.h"
#include "results/reader.h"
#include "results/replay.h"
#include "pipeline/records.h"
#include "results/results.h"
#include "core/runcmd.h"
#include "system/sysinfo.h"
#include "system/thermal.h"
#include "system/topology.h"
#include "pipeline/verify.h"

struct run_opts {
	char *cpu, *suite, *out, *only, *resume, *cache, *consumer, *order, *statistic;
	char *binaries_from; /* rerun.h */
	unsigned jobs, runs, warmup, max_runs;
	double precision, cell_budget;
	double cooldown, timeout, build_timeout, verify_timeout;
	uint64_t pipe_size;
	int dry_run, help, no_counters, no_render;
	struct strvec family_dirs;
};

#define RO(f) offsetof(struct run_opts, f)
static const struct option_def run_options[] = {
	{ "cpu", 0, OPT_STRING, RO(cpu), "PROFILE", 0, 0, "cpu profile: a name under configs/cpus, a path, or host (default)" },
	{ "suite", 0, OPT_STRING, RO(suite), "SUITE", 0, 0, "suite: a name under configs/suites or a path (default quick)" },
	{ "out", 'o', OPT_STRING, RO(out), "DIR", 0, 0, "run folder (default results/<id>)" },
	{ "only", 0, OPT_STRING, RO(only), "GLOB", 0, 0, "run only the cells whose id matches GLOB; the rest are skipped" },
	{ "jobs", 'j', OPT_UINT, RO(jobs), "N", 1, 256, "parallel compilers (default: online cpus)" },
	{ "runs", 'r', OPT_UINT, RO(runs), "N", 1, 10000, "timed runs per cell; alone, exactly that many (default: the suite's, else 5, at least, see --precision)" },
	{ "warmup", 'w', OPT_UINT, RO(warmup), "N", 0, 1000, "untimed runs first (default: the suite's, else 1)" },
	{ "cooldown", 0, OPT_DOUBLE, RO(cooldown), "SECONDS", 0, 3600, "pause before each cell where no sensor decides (default: the profile's)" },
	{ "timeout", 0, OPT_DOUBLE, RO(timeout), "SECONDS", 0.1, 86400, "limit of one run of a program (default 120)" },
	{ "verify-timeout", 0, OPT_DOUBLE, RO(verify_timeout), "SECONDS", 0.1, 86400, "limit of the verification run (default: --timeout x 4)" },
	{ "build-timeout", 0, OPT_DOUBLE, RO(build_timeout), "SECONDS", 1, 86400, "limit of one compile (default 300)" },
	{ "consumer", 0, OPT_STRING, RO(consumer), "splice|read|pv", 0, 0, "what drains a stream (default splice)" },
	{ "pipe-size", 0, OPT_SIZE, RO(pipe_size), "BYTES", 4096, 1e10, "set the pipe size of streams (default: the producer's choice)" },
	{ "statistic", 0, OPT_STRING, RO(statistic), "median|min|pNN", 0, 0, "the figure a cell reports, and its intervals: the median, the minimum or a quantile, e.g. p25, the lower quartile (default), which keeps to the runs no interference slowed" },
	{ "precision", 0, OPT_DOUBLE, RO(precision), "PERCENT", 0, 100, "add runs to a cell until its 95 % rerun interval (where a rerun's figure falls) is within PERCENT of its figure (default 3, 0 with --runs; 0: --runs only)" },
	{ "cell-budget", 0, OPT_DOUBLE, RO(cell_budget), "SECONDS", 0.1, 86400, "the time a cell's runs may take while --precision wants more (default 2.5; up to 4 times that for the runs a 95 % interval needs)" },
	{ "max-runs", 0, OPT_UINT, RO(max_runs), "N", 2, 100000, "the most runs --precision may take (default 10 x --runs, at least 30)" },
	{ "order", 0, OPT_STRING, RO(order), "interleave|sequential", 0, 0, "the cells' runs in rounds, each round shuffled, so every interval sees the run's drift (default); or cell after cell, back to back (thermal studies)" },
	{ "resume", 0, OPT_STRING, RO(resume), "DIR", 0, 0, "finish an interrupted run: only the cells its journal lacks" },
	{ "family-dir", 0, OPT_LIST, RO(family_dirs), "DIR", 0, 0, "families from DIR too: a family folder (family.json) or a folder of them; repeatable" },
	{ "cache", 0, OPT_STRING, RO(cache), "DIR", 0, 0, "build cache (default build/cache)" },
	{ "binaries-from", 0, OPT_STRING, RO(binaries_from), "DIR", 0, 0, "measure the binaries kept in run folder DIR instead of compiling (flagbench rerun)" },
	{ "no-counters", 0, OPT_FLAG, RO(no_counters), NULL, 0, 0, "do not count cycles or instructions of compute cells" },
	{ "no-render", 0, OPT_FLAG, RO(no_render), NULL, 0, 0, "do not render tables, plots and index.html at the end (plots/render.sh)" },
	{ "dry-run", 'n', OPT_FLAG, RO(dry_run), NULL, 0, 0, "plan and write results with a mock executor: no compiler, no hyperfine" },
	{ "help", 'h', OPT_FLAG, RO(help), NULL, 0, 0, "show this help" },
	{ NULL, 0, 0, 0, NULL, 0, 0, NULL },
};

static void free_run_opts(struct run_opts *o)
{
	free(o->cpu);
	free(o->suite);
	free(o->out);
	free(o->only);
	free(o->resume);
	free(o->cache);
	free(o->consumer);
	free(o->order);
	free(o->statistic);
	sv_clear(&o->family_dirs);
	free(o->binaries_from);
}

static void run_usage(FILE *out)
{
	fprintf(out, "usage: flagbench run [--cpu PROFILE] [--suite SUITE] [options]\n\n");
	options_help(run_options, out);
}

static json_t *tools_json(const struct plan *p)
{
	json_t *t = json_object();
	const char *tools[] = { "hyperfine", "jq", "gnuplot", "pv", NULL };
	for (int i = 0; tools[i]; i++) {
		char *v = tool_version(tools[i]);
		json_object_set_new(t, tools[i], v ? json_string(v) : json_null());
		free(v);
	}
	for (size_t i = 0; i < p->ncompilers; i++)
		json_object_set_new(t, p->compilers[i].name,
				    p->compilers[i].version ? json_string(p->compilers[i].version) : json_null());
	return t;
}

static json_t *host_json(void)
{
	/* the doctor's facts (governor, turbo, smt, load, sensors, topology...)
	 * plus what only a run knows */
	json_t *facts = doctor_facts_json("/");
	struct utsname u;
	uname(&u);
	int cpus[1024];
	json_t *h = facts ? facts : json_object();
	json_object_set_new(h, "cpu_model", json_string(host_cpu_model()));
	json_object_set_new(h, "cpus_online", json_integer(sysconf(_SC_NPROCESSORS_ONLN)));
	json_object_set_new(h, "cpus_allowed", json_integer(host_cpus(cpus, 1024)));
	json_object_set_new(h, "kernel", json_sprintf("%s %s", u.sysname, u.release));
	json_object_set_new(h, "machine", json_string(u.machine));
	json_object_set_new(h, "hostname", json_string(u.nodename));
	json_object_set_new(h, "libc", json_sprintf("glibc %s", gnu_get_libc_version()));
	return h;
}

static char *make_run_id(const char *suite, const char *profile)
{
	char ts[32];
	time_t t = (time_t)now_wall();
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(ts, sizeof(ts), "%Y%m%dT%H%M%SZ", &tm);
	return xasprintf("%s-%s-%s", ts, suite, profile);
}

/* Everything one `flagbench run` holds, stage after stage. */
struct run {
	const struct run_view *view;
	struct run_opts o;
	unsigned char given[64];
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
	/* settings resolved from options, suite and profile */
	double cooldown, timeout, verify_timeout, precision, cell_budget;
	double quantile;             /* --statistic (stats.h) */
	unsigned runs_for_rerun;     /* the fewest runs whose rerun interval can reach 95 % */
	struct cooldown_policy cool;
	double *spent;               /* per cell: seconds its timed batches took */
	unsigned runs, warmup, max_runs;
	char *hyperfine, *work;
	struct measure_opts mo;
	enum counter_source counter_src;
	int count;                   /* count cycles/instructions of compute cells */
	struct run_progress {
		size_t done, total, to_measure, measured;
		double measure_wall;
	} pr;
};

static int accept_any_march(struct compiler *c, const char *march, char *why, size_t n)
{
	return 1;
}

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
	if (options_parse(run_options, o, r->given, argc - 1, argv + 1, NULL, 0) < 0)
		return EXIT_USAGE;
	if (o->help) {
		run_usage(stdout);
		return 0;
	}
	if (o->order && strcmp(o->order, "sequential") && strcmp(o->order, "interleave")) {
		error("--order must be sequential or interleave, not '%s'", o->order);
		return EXIT_USAGE;
	}
	if (stats_statistic_parse(o->statistic ? o->statistic : STATS_DEFAULT_STATISTIC, &r->quantile) < 0) {
		error("--statistic must be " STATS_STATISTIC_NAMES ", not '%s'", o->statistic);
		return EXIT_USAGE;
	}
	if (o->consumer && strcmp(o->consumer, "splice") && strcmp(o->consumer, "read") && strcmp(o->consumer, "pv")) {
		error("--consumer must be splice, read or pv, not '%s'", o->consumer);
		return EXIT_USAGE;
	}
	if (load_cpu_profile(o->cpu ? o->cpu : "host", &r->prof) < 0)
		return EXIT_USAGE;
	if (load_suite(o->suite ? o->suite : "quick", &r->suite) < 0) {
		free_cpu_profile(&r->prof);
		return EXIT_USAGE;
	}
	/* the suite's family_dirs, then --family-dir */
	struct strvec dirs = STRVEC_INIT;
	sv_pushv(&dirs, r->suite.family_dirs.v);
	sv_pushv(&dirs, o->family_dirs.v);
	r->nfam = load_families(&dirs, &r->fams);
	sv_clear(&dirs);
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

/* Runs, warmup, cooldown and timeouts: an option wins over the suite,
 * the suite over the profile; then the tools they need. */
static int run_settings(struct run *r)
{
	const struct run_opts *o = &r->o;
#define GIVEN(name) r->given[option_index(run_options, option_find(run_options, name))]
	r->cooldown = GIVEN("cooldown") ? o->cooldown : r->suite.cooldown_s >= 0 ? r->suite.cooldown_s : r->prof.cooldown_s;
	r->runs = GIVEN("runs") ? o->runs : r->suite.has_runs ? r->suite.runs : 5;
	r->warmup = GIVEN("warmup") ? o->warmup : r->suite.has_warmup ? r->suite.warmup : 1;
	/* a precision target by default; --runs alone asks for exactly that many */
	r->precision = GIVEN("precision") ? o->precision : GIVEN("runs") ? 0 : 3;
	r->cell_budget = GIVEN("cell-budget") ? o->cell_budget : 2.5;
	struct cooldown_spec cs = { r->cooldown, r->prof.cooldown_below_c,
				    r->prof.cooldown_max_wait_s > r->cooldown ? r->prof.cooldown_max_wait_s : r->cooldown };
	cooldown_policy_init(&r->cool, &cs, GIVEN("cooldown"), "/");
#undef GIVEN
	r->timeout = o->timeout > 0 ? o->timeout : 120;
	r->verify_timeout = o->verify_timeout > 0 ? o->verify_timeout : r->timeout * 4;
	r->max_runs = o->max_runs ? o->max_runs : r->runs * 10 > 30 ? r->runs * 10 : 30;
	if (r->max_runs < r->runs)
		r->max_runs = r->runs;
	r->runs_for_rerun = (unsigned)stats_runs_for_rerun(r->quantile, STATS_CI_TARGET, r->max_runs);
	r->count = !o->dry_run && !o->no_counters;
	r->hyperfine = find_on_path("hyperfine");
	if (!r->hyperfine && !o->dry_run) {
		error("hyperfine not found on PATH: install the Debian package hyperfine (./run.sh does)");
		return EXIT_USAGE;
	}
	return 0;
}

/* Takes DIR/.lock for the life of the process (the kernel drops it when the
 * process ends, however it ends).  A folder in use by another run is
 * refused; so is a folder that already holds a run, unless resuming it. */
static int run_dir_lock(const char *dir, int resuming)
{
	char *path = xasprintf("%s/.lock", dir);
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		error("cannot create %s: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		char pid[32] = "";
		ssize_t n = pread(fd, pid, sizeof(pid) - 1, 0);
		pid[n > 0 ? n : 0] = '\0';
		pid[strcspn(pid, "\n")] = '\0';
		error("%s is in use by another flagbench run%s%s%s; wait for it, or choose another --out", dir,
		      pid[0] ? " (pid " : "", pid, pid[0] ? ")" : "");
		close(fd);
		free(path);
		return -1;
	}
	free(path);
	char *journal = xasprintf("%s/journal.jsonl", dir), *results = xasprintf("%s/results.json", dir);
	int used = access(journal, F_OK) == 0 || access(results, F_OK) == 0;
	free(journal);
	free(results);
	if (used && !resuming) {
		error("%s already holds a run: --resume %s finishes it, or choose another --out", dir, dir);
		close(fd);
		return -1;
	}
	/* a run killed during a write (kill -9, power) leaves its temporary
	 * file; under the lock no other run is writing one */
	glob_t g;
	char *pat = xasprintf("%s/results.json.tmp.*", dir);
	if (glob(pat, GLOB_NOSORT, NULL, &g) == 0)
		for (size_t i = 0; i < g.gl_pathc; i++)
			unlink(g.gl_pathv[i]);
	globfree(&g);
	free(pat);
	char pid[32];
	int len = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) == 0 && pwrite(fd, pid, (size_t)len, 0) < 0)
		warning("cannot write the pid into %s/.lock", dir);
	return 0; /* fd stays open: it holds the lock */
}

/* The run folder: a new one, or the one --resume names (its id kept). */
static int run_folder(struct run *r, int argc, char **argv)
{
	struct run_state *rs = &r->rs;
	rs->started_wall = now_wall();
	rs->started_mono = now_monotonic();
	rs->suite = &r->suite;
	rs->cpu_profile = &r->prof;
	rs->quantile = r->quantile;
	rs->cool = &r->cool;
	rs->argv = json_array();
	json_array_append_new(rs->argv, json_string("flagbench"));
	for (int i = 0; i < argc; i++)
		json_array_append_new(rs->argv, json_string(argv[i]));
	if (r->o.resume) {
		rs->dir = xstrdup(r->o.resume);
		char *old_path = xasprintf("%s/results.json", rs->dir);
		json_t *old = json_load_file(old_path, 0, NULL);
		free(old_path);
		json_t *orun = json_object_get(old, "run");
		const char *oid = json_string_value(json_object_get(orun, "id"));
		const char *osuite = json_string_value(json_object_get(orun, "suite"));
		const char *oprof = json_string_value(json_object_get(orun, "cpu_profile"));
		/* the journal's cells belong to that suite and profile only */
		if (!old || (osuite && strcmp(osuite, r->suite.name)) || (oprof && strcmp(oprof, r->prof.name))) {
			if (!old)
				error("cannot resume %s: no readable results.json there", rs->dir);
			else
				error("cannot resume %s with suite %s on cpu %s: it is a run of suite %s on cpu %s "
				      "(--resume %s --suite %s --cpu %s)", rs->dir, r->suite.name, r->prof.name,
				      osuite ? osuite : "?", oprof ? oprof : "?", rs->dir, osuite ? osuite : "?",
				      oprof ? oprof : "?");
			json_decref(old);
			return EXIT_USAGE;
		}
		/* the journal's cells keep the statistic they were measured with
		 * (runs older than run.statistic reported the median) */
		double oq = 0.5;
		const char *ostat = json_string_value(json_object_get(orun, "statistic"));
		if (!ostat)
			ostat = "median";
		if (stats_statistic_parse(ostat, &oq) == 0 && oq != r->quantile) {
			char name[32];
			error("cannot resume %s with --statistic %s: it reports the %s (--resume %s --statistic %s)", rs->dir,
			      stats_statistic_name(r->quantile, name, sizeof(name)), ostat, rs->dir, ostat);
			json_decref(old);
			return EXIT_USAGE;
		}
		rs->id = oid ? xstrdup(oid) : make_run_id(r->suite.name, r->prof.name);
		json_decref(old);
	} else {
		rs->id = make_run_id(r->suite.name, r->prof.name);
		rs->dir = r->o.out ? xstrdup(r->o.out) : xasprintf("%s/results/%s", project_root(), rs->id);
	}
	if (mkdir_p(rs->dir, 0755) < 0) {
		error("cannot create %s: %s", rs->dir, strerror(errno));
		return EXIT_USAGE;
	}
	/* one run per folder: a second one, at once or later, would mix its
	 * cells into the first one's journal */
	if (run_dir_lock(rs->dir, r->o.resume != NULL) < 0)
		return EXIT_USAGE;
	r->work = xasprintf("%s/.work", rs->dir);
	return 0;
}

/* The plan, with where each cell runs resolved (plan.h). */
static void run_plan(struct run *r)
{
	double t = now_monotonic();
	r->have_topo = topology_load("/", &r->topo) == 0;
	struct plan_input in = { .suite = &r->suite, .profile = &r->prof, .families = r->fams,
				 .nfamilies = (size_t)r->nfam, .only = r->o.only,
				 .topology = r->have_topo ? &r->topo : NULL };
	if (r->o.dry_run)
		in.probe_march = accept_any_march; /* no compiler is run in a dry run */
	plan_build(&in, &r->plan);
	r->planned = 1;
	r->rs.plan = &r->plan;
	const struct pins *q = &r->plan.pins_requested, *u = &r->plan.pins_used;
	r->rs.profile = json_deep_copy(r->prof.json);
	json_object_set_new(r->rs.profile, "pin",
			    json_pack("{s:{s:i, s:i, s:i}, s:{s:i, s:i, s:i}}", "requested", "producer", q->producer,
				      "consumer", q->consumer, "single", q->single, "used", "producer", u->producer,
				      "consumer", u->consumer, "single", u->single));
	r->rs.phases.plan_s = now_monotonic() - t;
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
	struct strbuf noisy = STRBUF_INIT;
	if (!r->o.dry_run && doctor_noisy(rs->host, &noisy))
		sv_pushf(&rs->warnings, "the system is noisy: %s", noisy.buf);
	sb_release(&noisy);
	rs->tools = tools_json(&r->plan);
	if (r->o.dry_run)
		sv_push(&rs->warnings, "dry run: nothing was compiled or timed; the times are made up by the mock executor");
	if (r->cooldown > 0 && !r->cool.sensor)
		sv_pushf(&rs->warnings, "no thermal sensors: the cooldown is a fixed pause of %gs before each cell, "
			 "none between its runs", r->cooldown);
}

/* --resume: the cells the journal has are restored, not run again. */
static int run_restore(struct run *r)
{
	if (!r->o.resume)
		return 0;
	int n = results_resume(&r->plan, r->rs.dir);
	if (n < 0)
		return EXIT_USAGE;
	fprintf(stderr, "flagbench: resuming %s: %d cells already done\n", r->rs.dir, n);
	return 0;
}

/* Every pending cell compiled (cache), identical binaries found. */
static void run_build(struct run *r)
{
	double t = now_monotonic();
	if (r->o.binaries_from) {
		char *from_dir = NULL;
		json_t *from = results_load(r->o.binaries_from, &from_dir);
		run_use_stored_binaries(&r->plan, r->o.binaries_from, from);
		json_decref(from);
		free(from_dir);
		build_dedupe(&r->plan);
	} else if (!r->o.dry_run) {
		struct build_stats bs;
		char *cache = r->o.cache ? xstrdup(r->o.cache) : xasprintf("%s/build/cache", project_root());
		unsigned jobs = r->o.jobs ? r->o.jobs : (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
		build_plan(&r->plan, cache, jobs ? jobs : 1, r->o.build_timeout > 0 ? r->o.build_timeout : 300, &bs);
		fprintf(stderr, "flagbench: built %u, cached %u, failed %u (%.1fs)\n", bs.compiled, bs.cached, bs.failed,
			now_monotonic() - t);
		free(cache);
		build_dedupe(&r->plan);
	}
	if (!r->o.dry_run) {
		/* the families' inputs ({input}) and same_as binaries (check_json.h) */
		char *cache = r->o.cache ? xstrdup(r->o.cache) : xasprintf("%s/build/cache", project_root());
		inputs_prepare(&r->plan, cache, r->o.build_timeout > 0 ? r->o.build_timeout : 300);
		free(cache);
		check_json_prepare(&r->plan);
	}
	run_keep_binaries(&r->plan, r->rs.dir);
	r->rs.phases.build_s = now_monotonic() - t;
}

/* Temperatures and clocks before and after a batch of runs; a throttled
 * cell is flagged in its warnings (and so in the tables). */
static void record_thermal(struct cell *c, const struct thermal_snapshot *before, const struct thermal_snapshot *after)
{
	struct strbuf why = STRBUF_INIT;
	struct cell_thermal *t = &c->measure.thermal;
	cell_thermal_free(t);
	t->taken = 1;
	t->throttled = thermal_throttled(before, after, &why);
	t->why = xstrdup(why.buf ? why.buf : "");
	t->celsius_before = before->celsius;
	t->celsius_after = after->celsius;
	t->before = thermal_snapshot_to_json(before);
	t->after = thermal_snapshot_to_json(after);
	if (t->throttled == THROTTLE_YES)
		sv_pushf(&c->warnings, "throttled: %s", t->why);
	sb_release(&why);
}

/* Progress on stderr, one line per finished cell. */
static void progress(struct run *r, const struct cell *c)
{
	const struct run_progress *pr = &r->pr;
	size_t left = pr->to_measure > pr->measured ? pr->to_measure - pr->measured : 0;
	double eta = pr->measured ? pr->measure_wall / (double)pr->measured * (double)left : 0;
	char val[128], e[32];
	r->view->cell_figure(c, &r->plan, val, sizeof(val));
	format_duration(eta, e, sizeof(e));
	if (c->status == CELL_OK)
		fprintf(stderr, "[%zu/%zu] %s  %s  eta %s\n", pr->done, pr->total, c->spec.id, val, e);
	else
		fprintf(stderr, "[%zu/%zu] %s  %s: %s  eta %s\n", pr->done, pr->total, c->spec.id,
			cell_status_name(c->status), c->reason ? c->reason : "", e);
}

/* Before timing: a cell that shares an identical binary takes the other
 * cell's verdict; any other pending cell is verified.  Returns 0 when the
 * cell is to be timed. */
static int verify_stage(struct run *r, struct cell *c)
{
	if (c->origin == CELL_FROM_JOURNAL || c->status != CELL_PENDING)
		return -1;
	if (c->build.same_binary_as >= 0) {
		const struct cell *src = &r->plan.cells[c->build.same_binary_as];
		if (src->status != CELL_OK && src->status != CELL_PENDING)
			cell_set_status(c, src->status, "same binary as %s: %s", src->spec.id, src->reason ? src->reason : "");
		else
			c->status = CELL_OK;
		return -1;
	}
	if (r->o.dry_run)
		return 0;
	double t0 = now_monotonic();
	int v = verify_cell(c, r->verify_timeout);
	c->verify.seconds = now_monotonic() - t0;
	c->verify.status = v == 0 ? VERIFY_PASSED : VERIFY_FAILED;
	r->rs.phases.verify_s += c->verify.seconds;
	return v == 0 && !fb_interrupted ? 0 : -1;
}

/* One hyperfine batch with the thermal snapshots around it. */
static int timed_batch(struct run *r, struct cell *c, const struct measure_opts *mo)
{
	double cool = 0;
	struct thermal_snapshot before, after;
	thermal_snapshot_take("/", &before);
	double t0 = now_monotonic();
	int v = measure_cell(c, mo, &cool);
	double dt = now_monotonic() - t0;
	thermal_snapshot_take("/", &after);
	record_thermal(c, &before, &after);
	thermal_snapshot_free(&before);
	thermal_snapshot_free(&after);
	r->rs.phases.measure_s += dt - cool;
	r->rs.phases.cooldown_s += cool;
	/* a dry run spends the mock's made-up times: the budgets behave as
	 * they would, and tests can watch them */
	if (r->o.dry_run && v == 0) {
		const struct stats *t = &c->measure.time;
		size_t first = mo->append ? t->n - mo->runs : 0;
		dt = cool = 0;
		for (size_t i = first; i < t->n; i++)
			dt += t->runs[i];
	}
	r->spent[c - r->plan.cells] += dt - cool;
	return v;
}

/* The mock executor's sleep: the pause is recorded, not taken. */
static double dry_sleep(double seconds)
{
	return seconds;
}

/* The wait before a cell as a `flagbench cooldown` child (runcmd: its own
 * group, a limit, reaped); 0 with its record. */
static int cooldown_child(struct run *r, const struct cooldown_spec *s, struct cooldown_record *rec)
{
	char *log = xasprintf("%s/before.jsonl", r->work);
	unlink(log);
	struct strvec argv = STRVEC_INIT;
	cooldown_argv(s, log, 0, &argv);
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	struct child_exit ex;
	double limit = (s->max_wait_seconds > s->seconds ? s->max_wait_seconds : s->seconds) + 30;
	run_capture(argv.v, CHILD_DEVNULL, limit, 4096, &out, &err, &ex);
	char *text = read_file(log, NULL);
	json_t *j = text ? json_loads(text, 0, NULL) : NULL;
	int rc = j && cooldown_record_from_json(rec, j) == 0 ? 0 : -1;
	json_decref(j);
	free(text);
	unlink(log);
	free(log);
	sb_release(&out);
	sb_release(&err);
	sv_clear(&argv);
	return rc;
}

/* The pause before a cell (cooldown.h), the first of its cooldown records. */
static void cooldown_stage(struct run *r, struct cell *c)
{
	struct cell_measurement *m = &c->measure;
	struct cooldown_record rec;
	struct cooldown_spec spec;
	m->ncooldown = 0;
	if (!cooldown_before_cell_spec(&r->cool, &spec))
		return;
	if (r->o.dry_run ? !cooldown_before_cell(&r->cool, "/", dry_sleep, &rec) : cooldown_child(r, &spec, &rec) < 0)
		return;
	m->cooldown = xrealloc(m->cooldown, (m->ncooldown + 1) * sizeof(*m->cooldown));
	m->cooldown[m->ncooldown++] = rec;
	r->rs.phases.cooldown_s += rec.waited_s;
}

/* Whether the cell's rerun interval (stats.h) reaches the target: 95 % and
 * narrow enough, so that a rerun's figure lands within the target. */
static int precise(const struct run *r, const struct stats *t)
{
	return t->rerun_level >= STATS_CI_TARGET && stats_rerun_percent(t) <= r->precision;
}

/* A slow cell may overrun its budget this many times to get the runs a
 * 95 % rerun interval needs (13 runs of 0.65 s against a 2.5 s budget). */
#define LEVEL_BUDGETS 4

/* Whether a measured cell gets another run: --runs first; then, with a
 * precision target, until it is reached, the cell's budget is spent or
 * --max-runs is reached; but first the runs its rerun interval needs to
 * reach 95 % at all, while they take at most LEVEL_BUDGETS budgets: an
 * interval stated at 45 % tells a reader little, and misses a rerun's
 * figure half the time. */
static int wants_more_runs(const struct run *r, const struct cell *c)
{
	const struct stats *t = &c->measure.time;
	double spent = r->spent[c - r->plan.cells];
	if (fb_interrupted || t->n >= r->max_runs)
		return 0;
	if (t->n < r->runs)
		return 1;
	if (r->precision > 0 && t->n < r->runs_for_rerun && spent < LEVEL_BUDGETS * r->cell_budget)
		return 1;
	return r->precision > 0 && spent < r->cell_budget && !precise(r, t);
}

/* What the precision target came to, for the tables' § (results.json precision). */
static void precision_record(struct run *r, struct cell *c)
{
	struct cell_precision *p = &c->measure.precision;
	p->status = r->precision > 0 ? precise(r, &c->measure.time) ? PRECISION_REACHED : PRECISION_NOT_REACHED
				     : PRECISION_OFF;
	p->target_percent = r->precision;
	p->budget_s = r->cell_budget;
	p->spent_s = r->spent[c - r->plan.cells];
}

/* Times a cell back to back: the pause, then batches of runs until
 * wants_more_runs() is content. */
static void measure_stage(struct run *r, struct cell *c)
{
	double t0 = now_monotonic();
	cooldown_stage(r, c);
	int v = fb_interrupted ? -1 : timed_batch(r, c, &r->mo);
	struct measure_opts more = r->mo;
	more.warmup = 0;
	more.append = 1;
	const struct stats *t = &c->measure.time;
	while (v == 0 && wants_more_runs(r, c)) {
		/* up to the runs a 95 % rerun interval needs (9 for the median,
		 * 13 for p25), then half as many again */
		unsigned need = r->runs_for_rerun;
		unsigned add = t->n < need ? need - (unsigned)t->n : (unsigned)t->n / 2;
		more.runs = add < r->max_runs - t->n ? add : r->max_runs - (unsigned)t->n;
		v = timed_batch(r, c, &more);
	}
	if (v == 0) {
		c->status = CELL_OK;
		precision_record(r, c);
	}
	r->pr.measure_wall += now_monotonic() - t0;
}

/* Cycles or instructions per unit for compute cells (counters.h). */
static void count_stage(struct run *r, struct cell *c)
{
	const struct cell_spec *sp = &c->spec;
	if (!r->count || fb_interrupted || c->status != CELL_OK || sp->family->kind != KIND_COMPUTE ||
	    !c->build.binary)
		return;
	struct cell_counters *k = &c->measure.counters;
	double t0 = now_monotonic();
	json_t *j = counters_measure(c, r->counter_src, r->timeout * 20);
	cell_counters_from_json(k, j);
	json_decref(j);
	r->rs.phases.measure_s += now_monotonic() - t0;
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

/* Cell after cell: verify, time, count, record. */
static void run_sequential(struct run *r)
{
	for (size_t i = 0; i < r->plan.n && !fb_interrupted; i++) {
		struct cell *c = &r->plan.cells[i];
		if (verify_stage(r, c) == 0) {
			measure_stage(r, c);
			count_stage(r, c);
			r->pr.measured++;
		}
		finish_cell(r, c);
	}
}

/* Verify everything first, then the runs in rounds: every cell that wants
 * a run gets one per round, in a new shuffled order each round, so slow
 * drift (heat, other load) reaches every cell's runs and so its interval,
 * and no cell always follows the same neighbour.  A cell's pause comes
 * before its first run. */
static void run_interleaved(struct run *r)
{
	struct plan *p = &r->plan;
	int *active = xcalloc(p->n + 1, sizeof(int));
	size_t *order = xcalloc(p->n + 1, sizeof(size_t));
	unsigned long long seed = 0x666c6167ULL; /* "flag" */
	for (size_t i = 0; i < p->n && !fb_interrupted; i++) {
		active[i] = verify_stage(r, &p->cells[i]) == 0;
		/* a cell that shares a binary is done when its twin is: after the rounds */
		if (!active[i] && !(p->cells[i].build.same_binary_as >= 0 && p->cells[i].status == CELL_OK))
			finish_cell(r, &p->cells[i]);
	}
	struct measure_opts one = r->mo;
	one.runs = 1;
	for (unsigned round = 0; !fb_interrupted; round++) {
		size_t k = 0;
		for (size_t i = 0; i < p->n; i++)
			if (active[i] && (round == 0 || wants_more_runs(r, &p->cells[i])))
				order[k++] = i;
		if (!k)
			break;
		/* the cells report when all rounds are done: say how the rounds go */
		if (round > 0 && round % 5 == 0)
			fprintf(stderr, "flagbench: round %u: %zu cells want more runs (%.0fs so far)\n", round + 1, k,
				r->pr.measure_wall);
		/* seeded once per run: two runs of one plan use the same orders */
		stats_shuffle(order, k, &seed);
		for (size_t j = 0; j < k && !fb_interrupted; j++) {
			struct cell *c = &p->cells[order[j]];
			double t0 = now_monotonic();
			if (round == 0)
				cooldown_stage(r, c);
			if (fb_interrupted)
				break;
			one.warmup = round == 0 ? r->warmup : 0;
			one.append = round > 0;
			int v = timed_batch(r, c, &one);
			r->pr.measure_wall += now_monotonic() - t0;
			if (v < 0) {
				active[order[j]] = 0;
				finish_cell(r, c);
			}
		}
		/* a cell content with its runs is done now: journaled, counted, reported */
		for (size_t j = 0; j < k && !fb_interrupted; j++) {
			struct cell *c = &p->cells[order[j]];
			if (!active[order[j]] || wants_more_runs(r, c))
				continue;
			active[order[j]] = 0;
			c->status = CELL_OK;
			precision_record(r, c);
			count_stage(r, c);
			r->pr.measured++;
			finish_cell(r, c);
		}
		results_write(&r->rs);
	}
	/* interrupted: a cell that has its --runs keeps them */
	for (size_t i = 0; i < p->n; i++)
		if (active[i]) {
			if (!fb_interrupted || p->cells[i].measure.time.n >= r->runs) {
				p->cells[i].status = CELL_OK;
				precision_record(r, &p->cells[i]);
			}
			count_stage(r, &p->cells[i]);
			r->pr.measured++;
			finish_cell(r, &p->cells[i]);
		}
	for (size_t i = 0; i < p->n; i++) {
		struct cell *c = &p->cells[i];
		if (active[i] || c->build.same_binary_as < 0 || c->status != CELL_OK || c->origin == CELL_FROM_JOURNAL)
			continue;
		const struct cell *src = &p->cells[c->build.same_binary_as];
		if (src->status != CELL_OK)
			cell_set_status(c, src->status == CELL_PENDING ? CELL_SKIPPED : src->status, "same binary as %s: %s",
					src->spec.id, src->reason ? src->reason : "not measured");
		finish_cell(r, c);
	}
	free(order);
	free(active);
}

/* The measure options, the counter source and the progress totals. */
static void cells_setup(struct run *r)
{
	/* hyperfine waits between runs only where a sensor decides (cooldown.h) */
	double below = NAN, max_wait = 0;
	cooldown_between_runs(&r->cool, &below, &max_wait);
	struct measure_opts mo = { r->hyperfine, r->work, r->runs, r->warmup, r->timeout, 0, below, max_wait,
				   r->o.consumer, r->o.pipe_size, r->o.dry_run, 0, r->quantile };
	r->mo = mo;
	r->spent = xcalloc(r->plan.n + 1, sizeof(double));
	int any_compute = 0;
	r->pr.total = r->plan.n;
	for (size_t i = 0; i < r->plan.n; i++) {
		const struct cell *c = &r->plan.cells[i];
		any_compute |= c->spec.family->kind == KIND_COMPUTE && c->status == CELL_PENDING;
		r->pr.to_measure += c->status == CELL_PENDING && c->build.same_binary_as < 0;
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

/* The machine's drift over the rounds (stats.h), for run.drift: from the
 * cells measured in this run, in rounds; none for back-to-back runs. */
static void drift_stage(struct run *r, int sequential)
{
	struct run_drift *d = &r->rs.drift;
	const double **runs = xcalloc(r->plan.n + 1, sizeof(*runs));
	size_t *n = xcalloc(r->plan.n + 1, sizeof(*n));
	d->cells = 0;
	for (size_t i = 0; i < r->plan.n; i++) {
		const struct cell *c = &r->plan.cells[i];
		if (c->status != CELL_OK || c->build.same_binary_as >= 0 || c->origin == CELL_FROM_JOURNAL ||
		    c->measure.time.n < 3)
			continue;
		runs[d->cells] = c->measure.time.runs;
		n[d->cells++] = c->measure.time.n;
	}
	/* back to back, a cell's runs share no round with another's */
	d->sd = sequential ? NAN : stats_machine_drift(runs, n, d->cells, &d->rounds);
	d->why = sequential ? "--order sequential: no rounds to compare"
		 : isnan(d->sd) ? "fewer than 5 rounds with 10 cells or half of them" : NULL;
	free(runs);
	free(n);
}

/* Verify and measure every pending cell; what Ctrl-C left undone is
 * skipped, and says so. */
static void run_cells(struct run *r)
{
	mkdir_p(r->work, 0755);
	cells_setup(r);
	int sequential = r->o.order && !strcmp(r->o.order, "sequential");
	if (sequential)
		run_sequential(r);
	else
		run_interleaved(r);
	for (size_t i = 0; i < r->plan.n; i++)
		if (r->plan.cells[i].status == CELL_PENDING)
			cell_set_status(&r->plan.cells[i], CELL_SKIPPED, "interrupted before it ran");
	drift_stage(r, sequential);
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
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
		nftw(r->work, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
	int failed = 0, any_ok = 0;
	for (size_t i = 0; i < r->plan.n; i++) {
		failed |= cell_status_failed(r->plan.cells[i].status);
		any_ok |= r->plan.cells[i].status == CELL_OK;
	}
	/* a run that measured nothing is no success */
	if (!any_ok && !rs->interrupted) {
		warning("no cell is ok: nothing was measured");
		failed = 1;
	}
	return rs->interrupted ? EXIT_INTERRUPTED : wr < 0 || failed ? EXIT_CELL_FAILED : EXIT_ALL_OK;
}

/* Tables, plots and index.html from results.json (plots/render.sh), as
 * ./run.sh did; a failed render keeps results.json and the exit code. */
static void run_render(struct run *r)
{
	if (r->o.no_render || r->rs.interrupted)
		return;
	char *script = xasprintf("%s/plots/render.sh", project_root());
	if (access(script, X_OK) < 0) {
		warning("%s not found: tables and plots not rendered", script);
		free(script);
		return;
	}
	char *argv[] = { script, r->rs.dir, NULL };
	struct child ch = CHILD_INIT;
	ch.argv = argv;
	ch.in = CHILD_DEVNULL;
	ch.out = STDERR_FILENO; /* stdout is the summary's */
	struct child_exit ex;
	if (child_start(&ch) < 0 || child_wait(&ch, 600, &ex) < 0 || ex.outcome != CHILD_EXITED || ex.exit_code) {
		char how[128] = "did not start";
		if (ch.pid > 0)
			describe_exit(&ex, 600, how, sizeof(how));
		warning("rendering %s %s; results.json is kept", r->rs.dir, how);
	}
	free(script);
}

static void run_free(struct run *r)
{
	if (r->planned)
		plan_free(&r->plan);
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
	sv_clear(&r->rs.warnings);
	free(r->rs.id);
	free(r->rs.dir);
	free(r->work);
	free(r->spent);
	free(r->hyperfine);
	free_run_opts(&r->o);
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
		r->view->summary(r->rs.dir);
	fprintf(stderr, "flagbench: results in %s/results.json%s\n", r->rs.dir, r->rs.interrupted ? " (interrupted)" : "");
}

/* The stages in order (docs/architecture.md); returns the exit code. */
static int run_pipeline(struct run *r, int argc, char **argv)
{
	install_interrupt_handler();
	int code = run_settings(r);
	if (code == 0)
		code = run_folder(r, argc, argv);
	if (code)
		return code;
	run_plan(r);
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
