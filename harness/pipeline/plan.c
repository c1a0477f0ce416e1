/* plan.c: see plan.h */
#define _GNU_SOURCE
#include "pipeline/plan.h"

#include <fnmatch.h>
#include <math.h>
#include <string.h>
#include <strings.h>

#include "system/allocators.h"
#include "checks/check.h"
#include "pipeline/compilers.h"
#include "pipeline/only.h"
#include "core/runcmd.h"
#include "system/sysinfo.h"

static int sv_equal(const struct strvec *a, const struct strvec *b)
{
	if (a->n != b->n)
		return 0;
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->v[i], b->v[i]))
			return 0;
	return 1;
}

int cell_spec_same_run(const struct cell_spec *a, const struct cell_spec *b)
{
	return sv_equal(&a->run_args, &b->run_args) && str_equal_or_null(a->placement, b->placement) &&
	       str_equal_or_null(a->consumer, b->consumer);
}

int cell_spec_same_build(const struct cell_spec *a, const struct cell_spec *b)
{
	return a->variant == b->variant && a->compiler == b->compiler && a->cross == b->cross &&
	       a->pgo == b->pgo && sv_equal(&a->cflags, &b->cflags);
}

void program_id_from_cell(struct program_id *id, const struct cell *c)
{
	const struct cell_spec *s = &c->spec;
	*id = (struct program_id){
		.sha256 = c->build.sha256[0] ? c->build.sha256 : NULL,
		.argv = (const char *const *)s->run_args.v,
		.argc = s->run_args.n,
		.allocator = s->allocator ? s->allocator : "glibc",
		.placement = s->placement,
		.consumer = s->consumer,
		.env_pad = s->env_pad,
	};
}

void program_id_clear(struct program_id *id)
{
	free(id->owned);
	memset(id, 0, sizeof(*id));
}

int program_id_same(const struct program_id *a, const struct program_id *b)
{
	if (!a->sha256 || !b->sha256 || !a->sha256[0] || strcasecmp(a->sha256, b->sha256) || a->argc != b->argc)
		return 0;
	for (size_t i = 0; i < a->argc; i++)
		if (strcmp(a->argv[i], b->argv[i]))
			return 0;
	return !strcmp(a->allocator ? a->allocator : "glibc", b->allocator ? b->allocator : "glibc") &&
	       str_equal_or_null(a->placement, b->placement) && str_equal_or_null(a->consumer, b->consumer) &&
	       a->env_pad == b->env_pad;
}

int cells_same_program(const struct cell *a, const struct cell *b)
{
	struct program_id x, y;
	program_id_from_cell(&x, a);
	program_id_from_cell(&y, b);
	return program_id_same(&x, &y);
}

/* Whether any of the globs matches s. */
static int glob_any(const struct strvec *globs, const char *s)
{
	for (size_t i = 0; i < globs->n; i++)
		if (fnmatch(globs->v[i], s, 0) == 0)
			return 1;
	return 0;
}

/* A suite glob such as "fizzbuzz/sse" or "yes/[bv]*" against family/variant. */
static int variant_selected(const struct suite *s, const char *family, const char *variant)
{
	char *id = xasprintf("%s/%s", family, variant);
	int sel = glob_any(&s->variants, id);
	free(id);
	return sel;
}

static struct cell *new_cell(struct plan *p, size_t *alloc)
{
	if (p->n == *alloc) {
		*alloc = *alloc ? *alloc * 2 : 32;
		p->cells = xrealloc(p->cells, *alloc * sizeof(*p->cells));
	}
	struct cell *c = &p->cells[p->n++];
	memset(c, 0, sizeof(*c));
	cell_reset(c);
	c->spec.pin.producer = c->spec.pin.consumer = c->spec.pin.single = PIN_NONE;
	c->spec.layouts = 1;
	return c;
}

/* Args with "{N}" or "{input}" are the whole argv: {N} is the size here,
 * {input} the input file once it is made (pipeline/inputs.h). */
static void push_templated(struct cell *c, const struct strvec *args)
{
	for (size_t i = 0; args && i < args->n; i++) {
		char *w = placeholder_replace(args->v[i], "dir", c->spec.family->dir);
		sv_push_replaced(&c->spec.run_args, w, "N", c->spec.size);
		free(w);
	}
}

static void set_run_args(struct cell *c, const struct family *f, const struct strvec *extra)
{
	if (f->args_template) {
		push_templated(c, &f->args);
		push_templated(c, extra);
		c->spec.expected_bytes = UINT64_MAX;
		return;
	}
	sv_pushf(&c->spec.run_args, "%llu", (unsigned long long)c->spec.size);
	sv_pushv(&c->spec.run_args, f->args.v);
	if (extra)
		sv_pushv(&c->spec.run_args, extra->v);
	c->spec.expected_bytes = UINT64_MAX;
	const struct checker *ck = checker_find(f->check);
	if (ck && ck->expected_bytes) {
		struct check_args a = { c->spec.size, (int)c->spec.run_args.n - 1, c->spec.run_args.v + 1 };
		c->spec.expected_bytes = ck->expected_bytes(&a);
		/* a size whose output does not fit in 64 bits cannot be checked */
		if (c->spec.expected_bytes == UINT64_MAX && f->kind == KIND_STREAM)
			cell_set_status(c, CELL_UNSUPPORTED, "size %llu: its output would exceed 2^64 bytes",
					(unsigned long long)c->spec.size);
	}
}

/* Placement and consumer are dimensions only when the suite lists them;
 * the empty string means "not crossed". */
static void set_dimensions(struct cell *c, const char *placement, const char *consumer, struct strbuf *cfg)
{
	if (*placement) {
		c->spec.placement = xstrdup(placement);
		sb_addf(cfg, "/%s", placement);
	}
	if (*consumer) {
		c->spec.consumer = xstrdup(consumer);
		sb_addf(cfg, "/%s", consumer);
	}
}


/* What plan_build() carries from one step to the next. */
struct planner {
	const struct plan_input *in;
	struct plan *out;
	size_t alloc;
	const struct strvec *marches, *allocs;
	size_t ncomp;                /* native compilers (globs expanded); cross ones follow */
	size_t cxx_base;             /* their C++ drivers from here, in the same order; 0: none probed */
	const struct flag_set *sets; /* the suite's flag sets, or one unnamed empty set */
	size_t nsets;
	size_t layouts;              /* per configuration, at least 1 */
};

void plan_layout_pads(unsigned k, unsigned *code_pad, unsigned *env_pad)
{
	*code_pad = *env_pad = 0;
	if (k == 0)
		return;
	unsigned long long state = 0x1a70u + k, r = stats_random(&state);
	*code_pad = (unsigned)(r % 4096);
	*env_pad = (unsigned)(16 * ((r >> 32) % 256));
}

/* A dimension the suite does not list has one empty value. */
static char *const none_v[] = { "", NULL };
static const struct strvec none_dim = { (char **)none_v, 1, 0 };

static const struct strvec *places_of(const struct suite *s, const struct family *f)
{
	return f->kind == KIND_STREAM && s->placements.n ? &s->placements : &none_dim;
}

static const struct strvec *consumers_of(const struct suite *s, const struct family *f)
{
	return f->kind == KIND_STREAM && s->consumers.n ? &s->consumers : &none_dim;
}

/* Index k of a crossed matrix: idx[d] for each of the nd dimensions. */
static void unrank(size_t k, const size_t *dims, size_t nd, size_t *idx)
{
	for (size_t d = nd; d-- > 0;) {
		idx[d] = k % dims[d];
		k /= dims[d];
	}
}

/* Native builds of a variant: compilers x opt x march x allocators
 * (x placements x consumers for streams). */
static void add_variant_cells(struct planner *pl, struct family *f, struct variant *v)
{
	const struct suite *s = pl->in->suite;
	const struct strvec *places = places_of(s, f), *cons = consumers_of(s, f);
	/* the flag set varies right after the march (one set: the order of before) */
	/* the layouts vary last: a configuration's layouts sit side by side */
	size_t dims[8] = { pl->ncomp, s->opt.n, pl->marches->n, pl->nsets, pl->allocs->n, places->n, cons->n,
			   pl->layouts };
	size_t total = dims[0] * dims[1] * dims[2] * dims[3] * dims[4] * dims[5] * dims[6] * dims[7];
	for (size_t k = 0; k < total; k++) {
		size_t idx[8];
		unrank(k, dims, 8, idx);
		const struct flag_set *fs = &pl->sets[idx[3]];
		struct compiler *comp = &pl->out->compilers[idx[0]];
		/* C++ sources build and link with the compiler's C++ driver */
		if (v->lang == LANG_CXX && comp->lang != LANG_CXX)
			comp = comp->cxx;
		const char *march = pl->marches->v[idx[2]];
		struct cell *c = new_cell(pl->out, &pl->alloc);
		c->spec.family = f;
		c->spec.variant = v;
		c->spec.compiler = comp;
		c->spec.opt = xstrdup(s->opt.v[idx[1]]);
		c->spec.march = xstrdup(march);
		c->spec.allocator = xstrdup(pl->allocs->v[idx[4]]);
		c->spec.size = suite_size_for(s, f, v->name);
		struct strbuf cfg = STRBUF_INIT;
		sb_addf(&cfg, "%s/%s/%s", comp->name, c->spec.opt, march);
		if (fs->name) {
			c->spec.flagset = xstrdup(fs->name);
			c->spec.pgo = fs->pgo;
			sb_addf(&cfg, "/%s", fs->name);
		}
		if (s->allocators.n)
			sb_addf(&cfg, "/%s", c->spec.allocator);
		set_dimensions(c, places->v[idx[5]], cons->v[idx[6]], &cfg);
		c->spec.config = sb_detach(&cfg);
		c->spec.layouts = (unsigned)pl->layouts;
		c->spec.layout = (unsigned)idx[7];
		plan_layout_pads(c->spec.layout, &c->spec.code_pad, &c->spec.env_pad);
		if (f->build_command.n)
			c->spec.code_pad = 0; /* its own build system links what it links */
		if (pl->layouts > 1)
			c->spec.id = xasprintf("%s/%s@%s~L%u", f->name, v->name, c->spec.config, c->spec.layout);
		else
			c->spec.id = xasprintf("%s/%s@%s", f->name, v->name, c->spec.config);
		sv_push(&c->spec.cflags, c->spec.opt);
		if (strcmp(march, "default"))
			sv_pushf(&c->spec.cflags, "-march=%s", march);
		sv_pushv(&c->spec.cflags, pl->in->profile->cflags.v);
		sv_pushv(&c->spec.cflags, fs->flags.v);
		sv_pushv(&c->spec.cflags, v->requires_flags.v);
		if (family_std_for(f, v))
			sv_pushf(&c->spec.cflags, "-std=%s", family_std_for(f, v));
		set_run_args(c, f, &v->args);
		/* PGO trains on the family's train_size, else its counter_size, else the cell's */
		if (c->spec.pgo)
			c->spec.train_size = f->train_size ? f->train_size
					   : f->counter_size && f->counter_size < c->spec.size ? f->counter_size
												 : c->spec.size;
	}
}

/* Cross targets: their own compiler and marches, no profile flags. */
static void add_cross_cells(struct planner *pl, struct family *f, struct variant *v)
{
	const struct suite *s = pl->in->suite;
	char *fv = xasprintf("%s/%s", f->name, v->name);
	for (size_t xi = 0; xi < s->ncross; xi++)
		for (size_t oi = 0; oi < s->opt.n; oi++)
			for (size_t mi = 0; mi < s->cross[xi].march.n; mi++) {
				/* a target may build only some variants (gcc 12 has no RVV intrinsics) */
				if (s->cross[xi].variants.n && !glob_any(&s->cross[xi].variants, fv))
					continue;
				struct cell *c = new_cell(pl->out, &pl->alloc);
				struct compiler *comp = &pl->out->compilers[pl->ncomp + xi];
				c->spec.family = f;
				c->spec.variant = v;
				c->spec.compiler = comp;
				c->spec.cross = &s->cross[xi];
				c->spec.opt = xstrdup(s->opt.v[oi]);
				c->spec.march = xstrdup(s->cross[xi].march.v[mi]);
				c->spec.allocator = xstrdup("glibc");
				c->spec.size = sizes_lookup(s->cross[xi].sizes, f, v->name, suite_size_for(s, f, v->name));
				c->spec.config = xasprintf("%s/%s/%s", comp->name, c->spec.opt, c->spec.march);
				c->spec.id = xasprintf("%s/%s@%s", f->name, v->name, c->spec.config);
				sv_pushv(&c->spec.cflags, s->cross[xi].cflags.v);
				sv_push(&c->spec.cflags, c->spec.opt);
				sv_pushf(&c->spec.cflags, "-march=%s", c->spec.march);
				set_run_args(c, f, &v->args);
			}
	free(fv);
}

/* References once per family (and placement/consumer). */
static void add_reference_cells(struct planner *pl, struct family *f)
{
	const struct suite *s = pl->in->suite;
	const struct strvec *places = places_of(s, f), *cons = consumers_of(s, f);
	for (size_t ri = 0; ri < f->nreferences; ri++)
		for (size_t pi = 0; pi < places->n; pi++)
			for (size_t ki = 0; ki < cons->n; ki++) {
				struct cell *c = new_cell(pl->out, &pl->alloc);
				c->spec.family = f;
				c->spec.reference = &f->references[ri];
				c->spec.allocator = xstrdup("glibc");
				c->spec.size = suite_size_for(s, f, c->spec.reference->name);
				struct strbuf cfg = STRBUF_INIT;
				sb_adds(&cfg, "reference");
				set_dimensions(c, places->v[pi], cons->v[ki], &cfg);
				c->spec.config = sb_detach(&cfg);
				c->spec.id = xasprintf("%s/%s@%s", f->name, c->spec.reference->name, c->spec.config);
				set_run_args(c, f, NULL);
			}
}

/* Every cell of one family, in plan order; returns whether any variant
 * was selected (references come only with a selected variant). */
static int add_family_cells(struct planner *pl, struct family *f)
{
	const struct suite *s = pl->in->suite;
	int used = 0;
	if (f->check_kind == CHECK_KIND_BUILTIN && !checker_find(f->check))
		sv_pushf(&pl->out->warnings, "family %s names checker '%s', which flagbench does not have", f->name,
			 f->check);
	for (size_t vi = 0; vi < f->nvariants; vi++)
		if (variant_selected(s, f->name, f->variants[vi].name)) {
			add_variant_cells(pl, f, &f->variants[vi]);
			used = 1;
		}
	for (size_t vi = 0; vi < f->nvariants; vi++)
		if (variant_selected(s, f->name, f->variants[vi].name))
			add_cross_cells(pl, f, &f->variants[vi]);
	if (used)
		add_reference_cells(pl, f);
	return used;
}

struct march_probe {
	struct compiler *comp;
	char *march;
	int ok;
	char why[512];
};

/* A reference's program, or a cross cell's tools and instruction set;
 * returns 1 when a cross cell's tools are missing. */
static int check_reference_or_cross(struct cell *c)
{
	const struct cell_spec *sp = &c->spec;
	if (sp->reference) {
		char *prog = find_on_path(sp->reference->argv.v[0]);
		if (!prog)
			cell_set_status(c, CELL_UNSUPPORTED, "reference program '%s' not found on PATH",
					sp->reference->argv.v[0]);
		free(prog);
		return 0;
	}
	char *emu = find_on_path(sp->cross->run_prefix.v[0]);
	int missing = !sp->compiler->path || !emu;
	if (sp->variant->lang == LANG_CXX)
		cell_set_status(c, CELL_UNSUPPORTED, "%s is C++: cross targets build C only", sp->variant->name);
	else if (missing)
		cell_set_status(c, CELL_UNSUPPORTED, "cross tools missing (%s%s%s): install %s",
				sp->compiler->path ? "" : sp->compiler->name, !sp->compiler->path && !emu ? ", " : "",
				emu ? "" : sp->cross->run_prefix.v[0], sp->cross->packages ? sp->cross->packages : "them");
	else if (sp->variant->requires_cpu.n || sp->variant->requires_flags.n)
		cell_set_status(c, CELL_UNSUPPORTED, "%s is written for the host's instruction set, not %s",
				sp->variant->name, sp->march);
	free(emu);
	return missing;
}

/* Whether the compiler takes the cell's -march; at most one probe per
 * (compiler, march), remembered in probes[0..*n). */
static void check_march(const struct plan_input *in, struct cell *c, struct march_probe *probes, size_t *n)
{
	struct march_probe *pr = NULL;
	for (size_t k = 0; k < *n; k++)
		if (probes[k].comp == c->spec.compiler && !strcmp(probes[k].march, c->spec.march))
			pr = &probes[k];
	if (!pr) {
		pr = &probes[(*n)++];
		pr->comp = c->spec.compiler;
		pr->march = c->spec.march;
		pr->ok = in->probe_march ? in->probe_march(c->spec.compiler, c->spec.march, pr->why, sizeof(pr->why))
					 : compiler_accepts_march(c->spec.compiler, c->spec.march, pr->why, sizeof(pr->why));
	}
	const char *pkgs = c->spec.cross ? c->spec.cross->packages : NULL;
	if (!pr->ok)
		cell_set_status(c, CELL_UNSUPPORTED, "%s%s%s%s", pr->why, pkgs ? " (install " : "", pkgs ? pkgs : "",
				pkgs ? ")" : "");
}

/* Decides what cannot run here, with reasons, in plan order. */
static void check_cells(const struct plan_input *in, struct plan *out)
{
	int (*has_flag)(const char *) = in->has_cpu_flag ? in->has_cpu_flag : host_has_cpu_flag;
	struct march_probe *probes = xcalloc(out->n + 1, sizeof(*probes));
	size_t nprobes = 0;
	const struct suite *s = in->suite;
	unsigned char *cross_warned = xcalloc(s->ncross + 1, 1);
	for (size_t i = 0; i < out->n; i++) {
		struct cell *c = &out->cells[i];
		const struct cell_spec *sp = &c->spec;
		/* missing cross tools are said once per target too, so the rows are not missed in a long table */
		if ((sp->reference || sp->cross) && check_reference_or_cross(c) && !cross_warned[sp->cross - s->cross]++)
			sv_pushf(&out->warnings, "cross target %s: %s; its cells are unsupported", sp->compiler->name,
				 c->reason);
		if (sp->reference || c->status != CELL_PENDING)
			continue;
		if (sp->variant->requires_march.n && !glob_any(&sp->variant->requires_march, sp->march)) {
			cell_set_status(c, CELL_UNSUPPORTED, "%s needs a -march matching %s, not %s", sp->variant->name,
					sp->variant->requires_march.v[0], sp->march);
			continue;
		}
		if (!sp->compiler->path && sp->compiler->missing) {
			cell_set_status(c, CELL_UNSUPPORTED, "%s", sp->compiler->missing);
			continue;
		}
		if (!sp->compiler->path) {
			char *pkg = compiler_package(sp->compiler->name);
			if (pkg)
				cell_set_status(c, CELL_UNSUPPORTED,
						"compiler '%s' not found on PATH: install the Debian package %s "
						"(scripts/deps.sh compilers)", sp->compiler->name, pkg);
			else
				cell_set_status(c, CELL_UNSUPPORTED, "compiler '%s' not found on PATH", sp->compiler->name);
			free(pkg);
			continue;
		}
		if (sp->pgo && sp->compiler->is_clang) {
			c->spec.profdata = compiler_profdata(sp->compiler);
			if (!sp->profdata) {
				cell_set_status(c, CELL_UNSUPPORTED,
						"pgo with %s needs llvm-profdata-%d: install the Debian package llvm-%d",
						sp->compiler->name, sp->compiler->major, sp->compiler->major);
				continue;
			}
		}
		for (size_t k = 0; !sp->cross && k < sp->variant->requires_cpu.n; k++)
			if (!has_flag(sp->variant->requires_cpu.v[k])) {
				cell_set_status(c, CELL_UNSUPPORTED, "host cpu lacks %s (%s)", sp->variant->requires_cpu.v[k],
						host_cpu_model());
				break;
			}
		if (c->status == CELL_PENDING)
			check_march(in, c, probes, &nprobes);
	}
	free(probes);
	free(cross_warned);
}

/* A pin on a CPU this host lacks is remapped to one it has, with a warning. */
static int remap_pin(int want, const char *role, struct strvec *warnings)
{
	if (want < 0 || host_cpu_allowed(want))
		return want;
	int cpus[1024];
	int n = host_cpus(cpus, 1024);
	if (n <= 0)
		return PIN_NONE;
	int got = cpus[want % n];
	sv_pushf(warnings, "pin %s: cpu %d does not exist here (or is not allowed); using cpu %d", role, want, got);
	return got;
}

/* The profile's pins: a pin class becomes a pair of this machine's CPUs,
 * and every CPU the host lacks is remapped. */
static void resolve_pins(const struct plan_input *in, struct plan *out)
{
	const struct cpu_profile *prof = in->profile;
	struct pins req = { prof->pin_producer, prof->pin_consumer, prof->pin_single };
	enum placement_class cls;
	int a, b;
	if (prof->pin_class && placement_class_parse(prof->pin_class, &cls) == 0) {
		if (in->topology && topology_class_pair(in->topology, cls, &a, &b) == 0) {
			req.producer = a;
			req.consumer = b;
		} else {
			sv_pushf(&out->warnings, "pin class %s does not exist on this machine; using the profile's cpu numbers",
				 prof->pin_class);
		}
	}
	struct pins used = { remap_pin(req.producer, "producer", &out->warnings),
			     remap_pin(req.consumer, "consumer", &out->warnings),
			     remap_pin(req.single, "single", &out->warnings) };
	if (used.producer >= 0 && used.producer == used.consumer && req.producer != req.consumer)
		sv_pushf(&out->warnings, "producer and consumer now share cpu %d", used.producer);
	out->pins_requested = req;
	out->pins_used = used;
}

/* A suite's placement class: the machine's pair of that class, or none. */
static void resolve_placement(const struct plan_input *in, struct cell *c)
{
	const struct topology *t = in->topology;
	enum placement_class cls;
	int a = PIN_NONE, b = PIN_NONE;
	placement_class_parse(c->spec.placement, &cls);
	if (!t)
		cell_set_status(c, CELL_UNSUPPORTED, "cpu topology unreadable: no placement %s", c->spec.placement);
	else if (topology_class_pair(t, cls, &a, &b) < 0)
		cell_set_status(c, CELL_UNSUPPORTED, "no %s pair on this machine (%zu cpus, %d cores, %d packages)",
				c->spec.placement, t->ncpus, t->ncores, t->npackages);
	c->spec.pin.producer = a;
	c->spec.pin.consumer = b;
}

/* An allocator other than glibc's: the library to preload, or none. */
static void resolve_allocator(const struct plan_input *in, struct cell *c)
{
	char why[512] = "";
	const char *lib = in->allocator_library ? in->allocator_library(c->spec.allocator, why, sizeof(why))
						: allocator_library(c->spec.allocator, why, sizeof(why));
	if (!lib)
		cell_set_status(c, CELL_UNSUPPORTED, "%s", why);
	else if (*lib)
		c->spec.preload = xstrdup(lib);
}

/* Where and how each cell runs: pins, placement pairs, preloads. */
static void resolve_runtime(const struct plan_input *in, struct plan *out)
{
	resolve_pins(in, out);
	for (size_t i = 0; i < out->n; i++) {
		struct cell *c = &out->cells[i];
		c->spec.pin = out->pins_used;
		if (c->spec.placement && c->status == CELL_PENDING)
			resolve_placement(in, c);
		if (c->status == CELL_PENDING && strcmp(c->spec.allocator, "glibc"))
			resolve_allocator(in, c);
	}
}

/* --only: the cells it selects stay, in plan order, and the rest go
 * before anything is decided about them; one that selects none is
 * refused with the nearest glob that selects some (only.h). */
static int select_only(const struct plan_input *in, struct plan *out)
{
	struct strvec ids = STRVEC_INIT;
	for (size_t i = 0; i < out->n; i++)
		sv_push(&ids, out->cells[i].spec.id);
	int r = 0;
	if (!only_count(in->only, &ids)) {
		char *near = only_closest(in->only, &ids);
		out->refused = near ? xasprintf("--only '%s' matches no cell of suite %s; did you mean '%s'?", in->only,
						in->suite->name, near)
				    : xasprintf("--only '%s' matches no cell of suite %s (cell ids are "
						"FAMILY/VARIANT@CONFIG: flagbench list variants)", in->only, in->suite->name);
		free(near);
		r = -1;
	} else {
		unsigned char *keep = xcalloc(out->n + 1, 1);
		for (size_t i = 0; i < out->n; i++)
			keep[i] = fnmatch(in->only, out->cells[i].spec.id, 0) == 0;
		plan_keep(out, keep);
		free(keep);
	}
	sv_clear(&ids);
	return r;
}

void plan_keep(struct plan *p, const unsigned char *keep)
{
	size_t k = 0;
	for (size_t i = 0; i < p->n; i++) {
		if (keep[i]) {
			p->cells[k++] = p->cells[i];
			continue;
		}
		cell_reset(&p->cells[i]);
		cell_spec_clear(&p->cells[i].spec);
	}
	p->n = k;
}

int plan_build(const struct plan_input *in, struct plan *out)
{
	const struct suite *s = in->suite;
	memset(out, 0, sizeof(*out));
	/* compiler globs ("gcc-*") become every installed version */
	struct strvec comps = STRVEC_INIT;
	expand_compilers(&s->compilers, &comps, &out->warnings);
	out->ncompilers = comps.n + s->ncross;
	/* the C++ drivers follow, probed only when a selected variant is C++ */
	int any_cxx = 0;
	for (size_t fi = 0; fi < in->nfamilies; fi++)
		for (size_t vi = 0; vi < in->families[fi].nvariants; vi++)
			any_cxx |= in->families[fi].variants[vi].lang == LANG_CXX &&
				   variant_selected(s, in->families[fi].name, in->families[fi].variants[vi].name);
	out->compilers = xcalloc(out->ncompilers + (any_cxx ? comps.n : 0) + 1, sizeof(*out->compilers));
	for (size_t i = 0; i < comps.n; i++)
		compiler_probe(&out->compilers[i], comps.v[i]);
	for (size_t i = 0; i < s->ncross; i++) {
		compiler_probe(&out->compilers[comps.n + i], s->cross[i].compiler);
		out->compilers[comps.n + i].target_flags = s->cross[i].cflags.n ? s->cross[i].cflags.v : NULL;
		out->compilers[comps.n + i].cross = 1;
	}
	size_t cxx_base = any_cxx ? out->ncompilers : 0;
	for (size_t i = 0; any_cxx && i < comps.n; i++)
		compiler_probe_cxx(&out->compilers[cxx_base + i], &out->compilers[i]);
	out->ncompilers += any_cxx ? comps.n : 0;
	struct strvec default_alloc = STRVEC_INIT;
	sv_push(&default_alloc, "glibc");
	/* a suite without "flags" has one unnamed empty set: ids as before */
	static const struct flag_set no_set = { NULL, STRVEC_INIT, 0 };
	struct planner pl = { in, out, 0, s->march_from_profile ? &in->profile->march : &s->march,
			      s->allocators.n ? &s->allocators : &default_alloc, comps.n, cxx_base,
			      s->nflagsets ? s->flagsets : &no_set, s->nflagsets ? s->nflagsets : 1,
			      in->layouts ? in->layouts : s->layouts ? s->layouts : 1 };
	int any_selected = 0;
	for (size_t fi = 0; fi < in->nfamilies; fi++)
		any_selected |= add_family_cells(&pl, &in->families[fi]);
	if (!any_selected)
		sv_pushf(&out->warnings, "the suite's variant globs match no variant");
	int r = in->only ? select_only(in, out) : 0;
	if (r == 0) {
		check_cells(in, out);
		resolve_runtime(in, out);
	}
	sv_clear(&default_alloc);
	sv_clear(&comps);
	return r;
}

int plan_add_copy(struct plan *p, size_t *alloc, const struct cell_spec *proto)
{
	if (p->n == *alloc) {
		*alloc = *alloc ? *alloc * 2 : 16;
		p->cells = xrealloc(p->cells, *alloc * sizeof(*p->cells));
	}
	struct cell *c = &p->cells[p->n];
	memset(c, 0, sizeof(*c));
	cell_reset(c);
	cell_spec_copy(&c->spec, proto);
	return (int)p->n++;
}

void plan_free_copies(struct plan *p)
{
	for (size_t i = 0; i < p->n; i++) {
		cell_reset(&p->cells[i]);
		cell_spec_clear(&p->cells[i].spec);
	}
	free(p->cells);
	memset(p, 0, sizeof(*p));
}

void plan_free(struct plan *p)
{
	for (size_t i = 0; i < p->n; i++) {
		cell_reset(&p->cells[i]);
		cell_spec_clear(&p->cells[i].spec);
	}
	free(p->cells);
	for (size_t i = 0; i < p->ncompilers; i++)
		compiler_free(&p->compilers[i]);
	free(p->compilers);
	sv_clear(&p->warnings);
	free(p->refused);
	memset(p, 0, sizeof(*p));
}
