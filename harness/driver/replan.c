/* replan.c: see replan.h */
#define _GNU_SOURCE
#include "driver/replan.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "results/reader.h"
#include "system/topology.h"

/* What the request names: one variant, one compiler, the -O levels and
 * -march values of its cells, and where they ran. */
struct names {
	char *variant, *compiler, *suite, *cpu;
	struct strvec opt, march;
	char *allocator, *placement, *consumer;
	uint64_t size;
	int from_run;
	struct results_run *run; /* the run, for its family folders and matrix; NULL none */
};

static void names_free(struct names *n)
{
	free(n->variant);
	free(n->compiler);
	free(n->suite);
	free(n->cpu);
	sv_clear(&n->opt);
	sv_clear(&n->march);
	free(n->allocator);
	free(n->placement);
	free(n->consumer);
	if (n->run)
		results_close(n->run);
	free(n->run);
}

static void push_unique(struct strvec *sv, const char *v)
{
	for (size_t i = 0; i < sv->n; i++)
		if (!strcmp(sv->v[i], v))
			return;
	sv_push(sv, v);
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* The names of the run's cells, read through the one reader. */
static int names_from_run(const struct replan_request *rq, struct names *n, char **run_dir)
{
	n->run = xcalloc(1, sizeof(*n->run));
	if (results_open(rq->run, n->run) < 0) {
		free(n->run);
		n->run = NULL;
		return -1;
	}
	const struct results_run run = *n->run;
	int rc = -1;
	for (int k = 0; k < 2 && rq->cells[k]; k++) {
		const struct results_cell *c = results_cell_by_id(&run, rq->cells[k]);
		if (!c) {
			error("no cell '%s' in %s (flagbench tables %s lists the cells)", rq->cells[k], run.file, run.dir);
			goto done;
		}
		if (c->reference || !c->compiler || !strcmp(c->compiler, "none")) {
			error("%s is a reference program: only a variant's builds are rebuilt", c->id);
			goto done;
		}
		if (c->emulated || c->pgo) {
			error("%s is not a native build without pgo: only those are rebuilt", c->id);
			goto done;
		}
		char *variant = xasprintf("%s/%s", c->family, c->variant);
		if (n->variant && (strcmp(n->variant, variant) || strcmp(n->compiler, c->compiler))) {
			error("%s and %s are builds of different variants or compilers", rq->cells[0], rq->cells[1]);
			free(variant);
			goto done;
		}
		if (!n->variant) {
			n->variant = variant;
			n->compiler = xstrdup(c->compiler);
			n->size = c->size;
			if (c->allocator && strcmp(c->allocator, "glibc"))
				n->allocator = xstrdup(c->allocator);
			n->placement = dup_or_null(c->placement);
			n->consumer = dup_or_null(c->consumer);
		} else {
			free(variant);
		}
		push_unique(&n->opt, c->opt ? c->opt : "");
		push_unique(&n->march, c->march ? c->march : "");
	}
	/* the suite file the run read where it is still there, else its name */
	if (run.suite_path && access(run.suite_path, R_OK) == 0)
		n->suite = xstrdup(run.suite_path);
	else
		n->suite = dup_or_null(run.suite);
	n->cpu = dup_or_null(run.cpu_profile);
	*run_dir = xstrdup(run.dir);
	n->from_run = 1;
	rc = 0;
done:
	return rc;
}

static void sv_only(struct strvec *sv, const char *v)
{
	char *keep = v ? xstrdup(v) : NULL;
	sv_clear(sv);
	if (keep)
		sv_push(sv, keep);
	free(keep);
}

/* The families of variants/, --family-dir, the suite's, and the run's own
 * folders (its kept copy first), each name once. */
static int load_all(const struct replan_request *rq, const struct names *n, struct replan *out)
{
	struct strvec dirs = STRVEC_INIT;
	sv_pushv(&dirs, out->suite.family_dirs.v);
	if (rq->family_dirs)
		sv_pushv(&dirs, rq->family_dirs->v);
	out->nfam = load_families(&dirs, &out->fams);
	if (n->run && out->nfam >= 0) {
		struct strvec rd = STRVEC_INIT, names = STRVEC_INIT;
		results_family_dirs(n->run, out->fams, (size_t)out->nfam, &rd, &names);
		if (rd.n) {
			for (int i = 0; i < out->nfam; i++)
				free_family(&out->fams[i]);
			free(out->fams);
			out->fams = NULL;
			sv_pushv(&dirs, rd.v);
			out->nfam = load_families(&dirs, &out->fams);
		}
		sv_clear(&rd);
		sv_clear(&names);
	}
	sv_clear(&dirs);
	if (out->nfam < 0)
		return -1;
	for (int i = 0; i < out->nfam; i++)
		for (size_t k = 0; k < out->fams[i].nvariants; k++) {
			char *id = xasprintf("%s/%s", out->fams[i].name, out->fams[i].variants[k].name);
			int known = !strcmp(id, n->variant);
			free(id);
			if (known)
				return 0;
		}
	return error("no variant '%s' here (flagbench list variants; --family-dir DIR for a family elsewhere)", n->variant);
}

/* The suite cut down to the variant's builds asked for. */
static void narrow_suite(struct suite *s, const struct cpu_profile *prof, const struct names *n)
{
	sv_only(&s->variants, n->variant);
	sv_only(&s->compilers, n->compiler);
	sv_clear(&s->opt);
	sv_pushv(&s->opt, n->opt.v);
	if (n->march.n) {
		sv_clear(&s->march);
		sv_pushv(&s->march, n->march.v);
	} else if (s->march_from_profile && prof->march.n) {
		sv_only(&s->march, prof->march.v[0]);
	} else if (s->march.n > 1) {
		sv_only(&s->march, s->march.v[0]);
	}
	s->march_from_profile = 0;
	/* where the run's cell ran, else the suite's first choice */
	sv_only(&s->allocators, n->allocator);
	if (n->from_run)
		sv_only(&s->placements, n->placement);
	else if (s->placements.n > 1)
		sv_only(&s->placements, s->placements.v[0]);
	if (n->from_run)
		sv_only(&s->consumers, n->consumer);
	else if (s->consumers.n > 1)
		sv_only(&s->consumers, s->consumers.v[0]);
	s->nflagsets = 0; /* a rebuild adds its own flags */
	s->ncross = 0;
	s->layouts = 1;
	if (n->size) {
		if (!s->sizes)
			s->sizes = json_object();
		json_object_set_new(s->sizes, n->variant, json_integer((json_int_t)n->size));
	}
}

int replan_plan(const struct replan_request *rq, struct replan *out)
{
	memset(out, 0, sizeof(*out));
	out->nfam = -1;
	struct names n;
	memset(&n, 0, sizeof(n));
	int rc = -1;
	if (rq->run) {
		if (names_from_run(rq, &n, &out->run_dir) < 0)
			goto done;
	} else {
		n.variant = xstrdup(rq->variant);
		n.compiler = xstrdup(rq->compiler);
		sv_push(&n.opt, rq->opt);
		if (rq->march)
			sv_push(&n.march, rq->march);
	}
	if (!strchr(n.variant, '/')) {
		error("'%s': name the variant as FAMILY/VARIANT (flagbench list shows them)", n.variant);
		goto done;
	}
	if (load_cpu_profile(n.cpu ? n.cpu : rq->cpu, &out->prof) < 0)
		goto done;
	if (load_suite(n.suite ? n.suite : rq->suite, &out->suite) < 0)
		goto done;
	/* a run's command-line matrix is read as its suite's (results.json run.matrix) */
	if (n.run && results_run_matrix(n.run, &out->suite) < 0)
		goto done;
	if (load_all(rq, &n, out) < 0)
		goto done;
	narrow_suite(&out->suite, &out->prof, &n);
	if (suite_check_globs(&out->suite, out->fams, (size_t)out->nfam) < 0)
		goto done;
	struct topology topo;
	int have_topo = topology_load("/", &topo) == 0;
	struct plan_input in = { .suite = &out->suite, .profile = &out->prof, .families = out->fams,
				 .nfamilies = (size_t)out->nfam, .topology = have_topo ? &topo : NULL };
	int built = plan_build(&in, &out->plan);
	if (have_topo)
		topology_free(&topo);
	if (built < 0) {
		error("%s", out->plan.refused);
		goto done;
	}
	rc = 0;
done:
	names_free(&n);
	return rc;
}

int replan_find(const struct replan *r, const char *opt, const char *march)
{
	for (size_t i = 0; i < r->plan.n; i++) {
		const struct cell_spec *s = &r->plan.cells[i].spec;
		if (s->variant && (!opt || (s->opt && !strcmp(s->opt, opt))) &&
		    (!march || (s->march && !strcmp(s->march, march))))
			return (int)i;
	}
	return -1;
}

void replan_free(struct replan *r)
{
	plan_free(&r->plan);
	for (int i = 0; i < r->nfam; i++)
		free_family(&r->fams[i]);
	free(r->fams);
	if (r->suite.name)
		free_suite(&r->suite);
	if (r->prof.name)
		free_cpu_profile(&r->prof);
	free(r->run_dir);
	memset(r, 0, sizeof(*r));
	r->nfam = -1;
}
