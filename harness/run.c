/* run.c: see run.h */
#define _GNU_SOURCE
#include "run.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include <gnu/libc-version.h>

#include "allocators.h"
#include "build.h"
#include "config.h"
#include "counters.h"
#include "doctor.h"
#include "measure.h"
#include "options.h"
#include "plan.h"
#include "results.h"
#include "runcmd.h"
#include "summary.h"
#include "sysinfo.h"
#include "thermal.h"
#include "topology.h"
#include "verify.h"

struct run_opts {
	char *cpu, *suite, *out, *only, *resume, *cache, *consumer, *order;
	unsigned jobs, runs, warmup, max_runs;
	double precision;
	double cooldown, timeout, build_timeout, verify_timeout;
	uint64_t pipe_size;
	int dry_run, help, no_counters;
};

#define RO(f) offsetof(struct run_opts, f)
static const struct option_def run_options[] = {
	{ "cpu", 0, OPT_STRING, RO(cpu), "PROFILE", 0, 0, "cpu profile: a name under configs/cpus, a path, or host (default)" },
	{ "suite", 0, OPT_STRING, RO(suite), "SUITE", 0, 0, "suite: a name under configs/suites or a path (default quick)" },
	{ "out", 'o', OPT_STRING, RO(out), "DIR", 0, 0, "run folder (default results/<id>)" },
	{ "only", 0, OPT_STRING, RO(only), "GLOB", 0, 0, "run only the cells whose id matches GLOB; the rest are skipped" },
	{ "jobs", 'j', OPT_UINT, RO(jobs), "N", 1, 256, "parallel compilers (default: online cpus)" },
	{ "runs", 'r', OPT_UINT, RO(runs), "N", 1, 10000, "timed runs per cell (default: the suite's, else 5)" },
	{ "warmup", 'w', OPT_UINT, RO(warmup), "N", 0, 1000, "untimed runs first (default: the suite's, else 1)" },
	{ "cooldown", 0, OPT_DOUBLE, RO(cooldown), "SECONDS", 0, 3600, "pause before every run (default: the profile's)" },
	{ "timeout", 0, OPT_DOUBLE, RO(timeout), "SECONDS", 0.1, 86400, "limit of one run of a program (default 120)" },
	{ "verify-timeout", 0, OPT_DOUBLE, RO(verify_timeout), "SECONDS", 0.1, 86400, "limit of the verification run (default: --timeout x 4)" },
	{ "build-timeout", 0, OPT_DOUBLE, RO(build_timeout), "SECONDS", 1, 86400, "limit of one compile (default 300)" },
	{ "consumer", 0, OPT_STRING, RO(consumer), "splice|read|pv", 0, 0, "what drains a stream (default splice)" },
	{ "pipe-size", 0, OPT_SIZE, RO(pipe_size), "BYTES", 4096, 1e10, "set the pipe size of streams (default: the producer's choice)" },
	{ "precision", 0, OPT_DOUBLE, RO(precision), "PERCENT", 0.01, 100, "add runs until the 95 % interval of the median is within PERCENT of it" },
	{ "max-runs", 0, OPT_UINT, RO(max_runs), "N", 2, 100000, "the most runs --precision may take (default 10 x --runs)" },
	{ "order", 0, OPT_STRING, RO(order), "sequential|interleave", 0, 0, "cell after cell, or the cells' runs round-robin to spread drift" },
	{ "resume", 0, OPT_STRING, RO(resume), "DIR", 0, 0, "finish an interrupted run: only the cells its journal lacks" },
	{ "cache", 0, OPT_STRING, RO(cache), "DIR", 0, 0, "build cache (default build/cache)" },
	{ "no-counters", 0, OPT_FLAG, RO(no_counters), NULL, 0, 0, "do not count cycles or instructions of compute cells" },
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
}

static void run_usage(FILE *out)
{
	fprintf(out, "usage: flagbench run [--cpu PROFILE] [--suite SUITE] [options]\n\n");
	options_help(run_options, out);
}

/* A pin on a CPU this host lacks is remapped to one it has, with a warning. */
static int remap_pin(int want, const char *role, struct strvec *warnings)
{
	if (want < 0)
		return want;
	if (host_cpu_allowed(want))
		return want;
	int cpus[1024];
	int n = host_cpus(cpus, 1024);
	if (n <= 0)
		return PIN_NONE;
	int got = cpus[want % n];
	sv_pushf(warnings, "pin %s: cpu %d does not exist here (or is not allowed); using cpu %d", role, want, got);
	return got;
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

/* Temperatures and clocks before and after the cell; a throttled cell
 * is flagged in its warnings (and so in the tables). */
static void record_thermal(struct cell *c, const struct thermal_snapshot *before, const struct thermal_snapshot *after)
{
	struct strbuf why = STRBUF_INIT;
	enum throttle_verdict v = thermal_throttled(before, after, &why);
	if (!c->extra)
		c->extra = json_object();
	json_object_set_new(c->extra, "thermal",
			    json_pack("{s:s, s:s, s:o, s:o}", "throttled", throttle_verdict_name(v), "why",
				      why.buf ? why.buf : "", "before", thermal_snapshot_to_json(before), "after",
				      thermal_snapshot_to_json(after)));
	if (v == THROTTLE_YES)
		sv_pushf(&c->warnings, "throttled: %s", why.buf ? why.buf : "");
	sb_release(&why);
}

/* Progress on stderr, one line per finished cell. */
static void progress(size_t done, size_t total, const struct cell *c, const struct plan *p, double eta)
{
	char val[128], e[32];
	format_cell_value(c, p, val, sizeof(val));
	format_duration(eta, e, sizeof(e));
	if (c->status == CELL_OK)
		fprintf(stderr, "[%zu/%zu] %s  %s  eta %s\n", done, total, c->id, val, e);
	else
		fprintf(stderr, "[%zu/%zu] %s  %s: %s  eta %s\n", done, total, c->id, cell_status_name(c->status),
			c->reason ? c->reason : "", e);
}

static int accept_any_march(struct compiler *c, const char *march, char *why, size_t n)
{
	return 1;
}

struct run_progress {
	size_t done, total, to_measure, measured;
	double measure_wall;
};

/* Before timing: a cell that shares an identical binary takes the other
 * cell's verdict; any other pending cell is verified.  Returns 0 when the
 * cell is to be timed. */
static int prepare_cell(struct plan *plan, struct cell *c, const struct run_opts *o, double timeout,
			struct phases *ph)
{
	if (c->restored || c->status != CELL_PENDING)
		return -1;
	if (c->same_binary_as >= 0) {
		const struct cell *src = &plan->cells[c->same_binary_as];
		if (src->status != CELL_OK && src->status != CELL_PENDING)
			cell_set_status(c, src->status, "same binary as %s: %s", src->id, src->reason ? src->reason : "");
		else
			c->status = CELL_OK;
		return -1;
	}
	if (o->dry_run)
		return 0;
	double t0 = now_monotonic();
	int r = verify_cell(c, o->verify_timeout > 0 ? o->verify_timeout : timeout * 4);
	ph->verify_s += now_monotonic() - t0;
	return r == 0 && !fb_interrupted ? 0 : -1;
}

/* One hyperfine batch with the thermal snapshots around it. */
static int timed_measure(struct cell *c, const struct measure_opts *mo, struct phases *ph)
{
	double cool = 0;
	struct thermal_snapshot before, after;
	thermal_snapshot_take("/", &before);
	double t0 = now_monotonic();
	int r = measure_cell(c, mo, &cool);
	double dt = now_monotonic() - t0;
	thermal_snapshot_take("/", &after);
	record_thermal(c, &before, &after);
	thermal_snapshot_free(&before);
	thermal_snapshot_free(&after);
	ph->measure_s += dt - cool;
	ph->cooldown_s += cool;
	return r;
}

/* Times a cell; with --precision, adds batches of runs until the 95 %
 * interval of the median is narrow enough or max_runs is reached. */
static void measure_with_precision(struct cell *c, const struct measure_opts *mo, double precision,
				   unsigned max_runs, struct phases *ph, struct run_progress *pr)
{
	double t0 = now_monotonic();
	int r = timed_measure(c, mo, ph);
	struct measure_opts more = *mo;
	more.warmup = 0;
	more.append = 1;
	while (r == 0 && precision > 0 && !fb_interrupted && c->time.n < max_runs &&
	       stats_ci_percent(&c->time) > precision) {
		unsigned add = (unsigned)c->time.n;
		if (add > max_runs - c->time.n)
			add = max_runs - (unsigned)c->time.n;
		more.runs = add;
		r = timed_measure(c, &more, ph);
	}
	if (r == 0 && precision > 0 && stats_ci_percent(&c->time) > precision)
		sv_pushf(&c->warnings, "precision %.2f%% not reached in %zu runs (%.2f%%)", precision, c->time.n,
			 stats_ci_percent(&c->time));
	if (r == 0)
		c->status = CELL_OK;
	pr->measure_wall += now_monotonic() - t0;
}

/* Cycles or instructions per unit for compute cells (counters.h). */
static void count_cell(struct cell *c, enum counter_source src, double timeout, struct phases *ph)
{
	if (c->status != CELL_OK || c->family->kind != KIND_COMPUTE || !c->binary)
		return;
	if (c->cross) {
		if (!c->extra)
			c->extra = json_object();
		json_object_set_new(c->extra, "counters",
				    json_pack("{s:s}", "skipped", "emulated: counting the emulator would not count the target"));
		return;
	}
	double t0 = now_monotonic();
	json_t *k = counters_measure(c, src, timeout * 20);
	if (!c->extra)
		c->extra = json_object();
	json_object_set_new(c->extra, "counters", k);
	ph->measure_s += now_monotonic() - t0;
}

/* After a cell: results.json rewritten, the journal appended, progress. */
static void finish_cell(struct run_state *rs, struct cell *c, struct run_progress *pr)
{
	pr->done++;
	if (c->restored)
		return;
	if (fb_interrupted && c->status == CELL_PENDING)
		cell_set_status(c, CELL_SKIPPED, "interrupted");
	compute_speedups(rs->plan);
	results_write(rs);
	results_journal_append(rs, c);
	size_t left = pr->to_measure > pr->measured ? pr->to_measure - pr->measured : 0;
	double eta = pr->measured ? pr->measure_wall / (double)pr->measured * (double)left : 0;
	progress(pr->done, pr->total, c, rs->plan, eta);
}

int cmd_run(int argc, char **argv)
{
	struct run_opts o;
	memset(&o, 0, sizeof(o));
	unsigned char given[64] = { 0 };
	if (options_parse(run_options, &o, given, argc - 1, argv + 1, NULL, 0) < 0)
		return EXIT_USAGE;
	if (o.help) {
		run_usage(stdout);
		return 0;
	}
	install_interrupt_handler();
	double t_start = now_monotonic();
	struct cpu_profile prof;
	struct suite suite;
	if (load_cpu_profile(o.cpu ? o.cpu : "host", &prof) < 0)
		return EXIT_USAGE;
	if (load_suite(o.suite ? o.suite : "quick", &suite) < 0) {
		free_cpu_profile(&prof);
		return EXIT_USAGE;
	}
	struct family *fams = NULL;
	int nfam = load_all_families(&fams);
	if (nfam < 0) {
		free_cpu_profile(&prof);
		free_suite(&suite);
		return EXIT_USAGE;
	}
	if (o.order && strcmp(o.order, "sequential") && strcmp(o.order, "interleave")) {
		error("--order must be sequential or interleave, not '%s'", o.order);
		return EXIT_USAGE;
	}
	if (o.consumer && strcmp(o.consumer, "splice") && strcmp(o.consumer, "read") && strcmp(o.consumer, "pv")) {
		error("--consumer must be splice, read or pv, not '%s'", o.consumer);
		return EXIT_USAGE;
	}

	struct run_state rs;
	memset(&rs, 0, sizeof(rs));
	rs.started_wall = now_wall();
	rs.started_mono = t_start;
	rs.suite = &suite;
	rs.cpu_profile = &prof;
	rs.argv = json_array();
	json_array_append_new(rs.argv, json_string("flagbench"));
	for (int i = 0; i < argc; i++)
		json_array_append_new(rs.argv, json_string(argv[i]));

	/* the run folder */
	if (o.resume) {
		rs.dir = xstrdup(o.resume);
		char *old_path = xasprintf("%s/results.json", rs.dir);
		json_t *old = json_load_file(old_path, 0, NULL);
		free(old_path);
		const char *oid = json_string_value(json_object_get(json_object_get(old, "run"), "id"));
		rs.id = oid ? xstrdup(oid) : make_run_id(suite.name, prof.name);
		json_decref(old);
	} else {
		rs.id = make_run_id(suite.name, prof.name);
		rs.dir = o.out ? xstrdup(o.out) : xasprintf("%s/results/%s", project_root(), rs.id);
	}
	if (mkdir_p(rs.dir, 0755) < 0) {
		error("cannot create %s: %s", rs.dir, strerror(errno));
		return EXIT_USAGE;
	}

	/* conditions, recorded as warnings */
	if (prof.match && !strstr(host_cpu_model(), prof.match))
		sv_pushf(&rs.warnings, "cpu profile %s expects '%s' in the cpu model; this host is '%s'", prof.name,
			 prof.match, host_cpu_model());
	struct topology topo;
	int have_topo = topology_load("/", &topo) == 0;
	if (prof.pin_class && have_topo) {
		enum placement_class cls;
		placement_class_parse(prof.pin_class, &cls);
		int a, b;
		if (topology_class_pair(&topo, cls, &a, &b) == 0) {
			prof.pin_producer = a;
			prof.pin_consumer = b;
		} else {
			sv_pushf(&rs.warnings, "pin class %s does not exist on this machine; using the profile's cpu numbers",
				 prof.pin_class);
		}
	}
	int pp = remap_pin(prof.pin_producer, "producer", &rs.warnings);
	int pc = remap_pin(prof.pin_consumer, "consumer", &rs.warnings);
	int ps = remap_pin(prof.pin_single, "single", &rs.warnings);
	if (pp >= 0 && pp == pc && prof.pin_producer != prof.pin_consumer)
		sv_pushf(&rs.warnings, "producer and consumer now share cpu %d", pp);
	rs.profile = json_deep_copy(prof.json);
	json_object_set_new(rs.profile, "pin",
			    json_pack("{s:{s:i, s:i, s:i}, s:{s:i, s:i, s:i}}", "requested", "producer",
				      prof.pin_producer, "consumer", prof.pin_consumer, "single", prof.pin_single,
				      "used", "producer", pp, "consumer", pc, "single", ps));
#define GIVEN(name) given[option_index(run_options, option_find(run_options, name))]
	double cooldown = GIVEN("cooldown") ? o.cooldown : suite.cooldown_s >= 0 ? suite.cooldown_s : prof.cooldown_s;
	unsigned runs = GIVEN("runs") ? o.runs : suite.has_runs ? suite.runs : 5;
	unsigned warmup = GIVEN("warmup") ? o.warmup : suite.has_warmup ? suite.warmup : 1;
	double timeout = o.timeout > 0 ? o.timeout : 120;
	char *hyperfine = find_on_path("hyperfine");
	if (!hyperfine && !o.dry_run) {
		error("hyperfine not found on PATH: install the Debian package hyperfine (./run.sh does)");
		return EXIT_USAGE;
	}

	/* plan */
	double t = now_monotonic();
	struct plan plan;
	struct plan_input in = { &suite, &prof, fams, (size_t)nfam, o.only, NULL, NULL };
	if (o.dry_run)
		in.probe_march = accept_any_march; /* no compiler is run in a dry run */
	plan_build(&in, &plan);
	rs.plan = &plan;
	for (size_t i = 0; i < plan.warnings.n; i++)
		sv_push(&rs.warnings, plan.warnings.v[i]);
	for (size_t i = 0; i < plan.n; i++) {
		struct cell *c = &plan.cells[i];
		c->pin_producer = pp;
		c->pin_consumer = pc;
		c->pin_single = ps;
		if (c->placement && c->status == CELL_PENDING) {
			enum placement_class cls;
			int a = PIN_NONE, b = PIN_NONE;
			placement_class_parse(c->placement, &cls);
			if (!have_topo)
				cell_set_status(c, CELL_UNSUPPORTED, "cpu topology unreadable: no placement %s", c->placement);
			else if (topology_class_pair(&topo, cls, &a, &b) < 0)
				cell_set_status(c, CELL_UNSUPPORTED, "no %s pair on this machine (%zu cpus, %d cores, %d packages)",
						c->placement, topo.ncpus, topo.ncores, topo.npackages);
			c->pin_producer = a;
			c->pin_consumer = b;
		}
		if (c->status == CELL_PENDING && strcmp(c->allocator, "glibc")) {
			char why[512] = "";
			const char *lib = allocator_library(c->allocator, why, sizeof(why));
			if (!lib)
				cell_set_status(c, CELL_UNSUPPORTED, "%s", why);
			else if (*lib)
				c->preload = xstrdup(lib);
		}
	}
	rs.phases.plan_s = now_monotonic() - t;
	rs.host = host_json();
	struct strbuf noisy = STRBUF_INIT;
	if (!o.dry_run && doctor_noisy(rs.host, &noisy))
		sv_pushf(&rs.warnings, "the system is noisy: %s", noisy.buf);
	sb_release(&noisy);
	rs.tools = tools_json(&plan);
	if (o.dry_run)
		sv_push(&rs.warnings, "dry run: nothing was compiled or timed; the times are made up by the mock executor");
	double celsius;
	char sensor[64];
	if (cooldown > 0 && thermal_cpu_celsius("/", &celsius, sensor, sizeof(sensor)) < 0)
		sv_pushf(&rs.warnings, "no thermal sensors: the cooldown is a fixed pause of %gs before every run", cooldown);
	if (o.resume) {
		int r = results_resume(&plan, rs.dir);
		if (r < 0)
			return EXIT_USAGE;
		fprintf(stderr, "flagbench: resuming %s: %d cells already done\n", rs.dir, r);
	}
	for (size_t i = 0; i < rs.warnings.n; i++)
		warning("%s", rs.warnings.v[i]);
	results_write(&rs);

	/* build */
	t = now_monotonic();
	if (!o.dry_run) {
		struct build_stats bs;
		char *cache = o.cache ? xstrdup(o.cache) : xasprintf("%s/build/cache", project_root());
		unsigned jobs = o.jobs ? o.jobs : (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
		build_plan(&plan, cache, jobs ? jobs : 1, o.build_timeout > 0 ? o.build_timeout : 300, &bs);
		fprintf(stderr, "flagbench: built %u, cached %u, failed %u (%.1fs)\n", bs.compiled, bs.cached, bs.failed,
			now_monotonic() - t);
		free(cache);
		build_dedupe(&plan);
	}
	rs.phases.build_s = now_monotonic() - t;

	/* verify and measure, cell by cell */
	char *work = xasprintf("%s/.work", rs.dir);
	mkdir_p(work, 0755);
	struct measure_opts mo = { hyperfine, work, runs, warmup, timeout, cooldown, prof.cooldown_below_c,
				   prof.cooldown_max_wait_s > cooldown ? prof.cooldown_max_wait_s : cooldown,
				   o.consumer, o.pipe_size, o.dry_run, 0 };
	int interleave = o.order && !strcmp(o.order, "interleave");
	char counter_why[256] = "";
	enum counter_source counter_src = COUNTERS_NONE;
	int any_compute = 0;
	for (size_t i = 0; i < plan.n; i++)
		any_compute |= plan.cells[i].family->kind == KIND_COMPUTE && plan.cells[i].status == CELL_PENDING;
	if (any_compute && !o.dry_run && !o.no_counters) {
		counter_src = counters_probe(counter_why, sizeof(counter_why));
		if (counter_src != COUNTERS_PERF) {
			sv_push(&rs.warnings, counter_why);
			warning("%s", counter_why);
		}
	}
	unsigned max_runs = o.max_runs ? o.max_runs : runs * 10;
	struct run_progress pr = { 0, plan.n, 0, 0, 0 };
	for (size_t i = 0; i < plan.n; i++)
		pr.to_measure += plan.cells[i].status == CELL_PENDING && plan.cells[i].same_binary_as < 0 &&
				 !plan.cells[i].restored;
	if (!interleave) {
		for (size_t i = 0; i < plan.n && !fb_interrupted; i++) {
			struct cell *c = &plan.cells[i];
			if (prepare_cell(&plan, c, &o, timeout, &rs.phases) == 0) {
				measure_with_precision(c, &mo, o.precision, max_runs, &rs.phases, &pr);
				if (!o.dry_run && !o.no_counters)
					count_cell(c, counter_src, timeout, &rs.phases);
				pr.measured++;
			}
			finish_cell(&rs, c, &pr);
		}
	} else {
		/* verify everything first, then the runs round-robin: slow drift
		 * (heat, other load) spreads over all cells instead of the last */
		int *active = xcalloc(plan.n ? plan.n : 1, sizeof(int));
		for (size_t i = 0; i < plan.n && !fb_interrupted; i++) {
			struct cell *c = &plan.cells[i];
			active[i] = prepare_cell(&plan, c, &o, timeout, &rs.phases) == 0;
			if (!active[i])
				finish_cell(&rs, c, &pr);
		}
		struct measure_opts one = mo;
		one.runs = 1;
		for (unsigned round = 0; !fb_interrupted; round++) {
			int any = 0;
			for (size_t i = 0; i < plan.n && !fb_interrupted; i++) {
				struct cell *c = &plan.cells[i];
				if (!active[i])
					continue;
				int more = round < runs ||
					   (o.precision > 0 && c->time.n < max_runs && stats_ci_percent(&c->time) > o.precision);
				if (!more)
					continue;
				one.warmup = round == 0 ? warmup : 0;
				one.append = round > 0;
				if (timed_measure(c, &one, &rs.phases) < 0) {
					active[i] = 0;
					finish_cell(&rs, c, &pr);
					continue;
				}
				any = 1;
			}
			results_write(&rs);
			if (!any)
				break;
		}
		for (size_t i = 0; i < plan.n; i++)
			if (active[i]) {
				if (!fb_interrupted)
					plan.cells[i].status = CELL_OK;
				if (!o.dry_run && !o.no_counters && !fb_interrupted)
					count_cell(&plan.cells[i], counter_src, timeout, &rs.phases);
				pr.measured++;
				finish_cell(&rs, &plan.cells[i], &pr);
			}
		free(active);
	}
	/* whatever Ctrl-C left undone is skipped, and says so */
	for (size_t i = 0; i < plan.n; i++)
		if (plan.cells[i].status == CELL_PENDING)
			cell_set_status(&plan.cells[i], CELL_SKIPPED, "interrupted before it ran");
	rs.interrupted = fb_interrupted != 0;
	rs.finished = !rs.interrupted;
	rs.finished_wall = now_wall();
	compute_speedups(&plan);
	int wr = results_write(&rs);

	int failed = 0;
	for (size_t i = 0; i < plan.n; i++)
		failed |= cell_status_failed(plan.cells[i].status);
	if (!rs.interrupted)
		print_summary(stdout, &plan);
	fprintf(stderr, "flagbench: results in %s/results.json%s\n", rs.dir, rs.interrupted ? " (interrupted)" : "");

	int code = rs.interrupted ? EXIT_INTERRUPTED : wr < 0 || failed ? EXIT_CELL_FAILED : EXIT_ALL_OK;
	plan_free(&plan);
	if (have_topo)
		topology_free(&topo);
	for (int i = 0; i < nfam; i++)
		free_family(&fams[i]);
	free(fams);
	free_cpu_profile(&prof);
	free_suite(&suite);
	json_decref(rs.argv);
	json_decref(rs.host);
	json_decref(rs.tools);
	json_decref(rs.profile);
	sv_clear(&rs.warnings);
	free(rs.id);
	free(rs.dir);
	free(work);
	free(hyperfine);
	free_run_opts(&o);
	return code;
}

int cmd_list(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "";
	if (!strcmp(what, "cpus") || !strcmp(what, "suites")) {
		struct strvec names = STRVEC_INIT;
		list_config_names(what, &names);
		for (size_t i = 0; i < names.n; i++)
			printf("%s\n", names.v[i]);
		sv_clear(&names);
		return 0;
	}
	if (!strcmp(what, "variants")) {
		struct family *fams;
		int n = load_all_families(&fams);
		if (n < 0)
			return EXIT_USAGE;
		for (int i = 0; i < n; i++) {
			for (size_t k = 0; k < fams[i].nvariants; k++)
				printf("%s/%s\t%s\n", fams[i].name, fams[i].variants[k].name, fams[i].variants[k].title);
			for (size_t k = 0; k < fams[i].nreferences; k++)
				printf("%s/%s\t%s (reference)\n", fams[i].name, fams[i].references[k].name,
				       fams[i].references[k].title);
			free_family(&fams[i]);
		}
		free(fams);
		return 0;
	}
	if (!strcmp(what, "compilers")) {
		/* every installed version, as a suite's "gcc-*" and "clang-*" see them */
		struct strvec globs = STRVEC_INIT, names = STRVEC_INIT, warn = STRVEC_INIT;
		const char *g[] = { "gcc", "clang", "cc", "gcc-*", "clang-*", NULL };
		for (int i = 0; g[i]; i++)
			sv_push(&globs, g[i]);
		expand_compilers(&globs, &names, &warn);
		for (size_t i = 0; i < names.n; i++) {
			struct compiler c;
			compiler_probe(&c, names.v[i]);
			if (c.path)
				printf("%s\t%s\t%s\n", c.name, c.path, c.version);
			free(c.name);
			free(c.path);
			free(c.version);
			free(c.identity);
		}
		sv_clear(&globs);
		sv_clear(&names);
		sv_clear(&warn);
		return 0;
	}
	error("usage: flagbench list cpus|suites|variants|compilers");
	return EXIT_USAGE;
}
