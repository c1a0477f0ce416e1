/* explain.c: see explain.h */
#define _GNU_SOURCE
#include "analysis/explain.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pipeline/build.h"
#include "checks/check.h"
#include "config/config.h"
#include "pipeline/counters.h"
#include "pipeline/measure.h"
#include "core/options.h"
#include "pipeline/plan.h"
#include "pipeline/records.h"
#include "results/results.h"
#include "core/runcmd.h"
#include "pipeline/verify.h"

struct explain_opts {
	char *out, *cache, *metric;
	unsigned runs, warmup, top, jobs;
	double timeout, build_timeout;
	int help;
};

#define EO(f) offsetof(struct explain_opts, f)
static const struct option_def explain_options[] = {
	{ "metric", 0, OPT_STRING, EO(metric), "instructions|time", 0, 0, "what to compare (default: instructions for compute families where counters exist, else time)" },
	{ "runs", 'r', OPT_UINT, EO(runs), "N", 3, 10000, "timed runs per distinct binary with --metric time (default 5)" },
	{ "warmup", 'w', OPT_UINT, EO(warmup), "N", 0, 1000, "untimed runs first (default 1)" },
	{ "top", 0, OPT_UINT, EO(top), "K", 1, 20, "name at most K flags in the claim (default 3)" },
	{ "out", 'o', OPT_STRING, EO(out), "DIR", 0, 0, "folder of explain.md and results.json (default RUN/explain-<time>)" },
	{ "cache", 0, OPT_STRING, EO(cache), "DIR", 0, 0, "build cache (default build/cache)" },
	{ "jobs", 'j', OPT_UINT, EO(jobs), "N", 1, 256, "parallel compilers (default: online cpus)" },
	{ "timeout", 0, OPT_DOUBLE, EO(timeout), "SECONDS", 0.1, 86400, "limit of one run of a program (default 120)" },
	{ "build-timeout", 0, OPT_DOUBLE, EO(build_timeout), "SECONDS", 1, 86400, "limit of one compile (default 300)" },
	{ "help", 'h', OPT_FLAG, EO(help), NULL, 0, 0, "show this help" },
	{ NULL, 0, 0, 0, NULL, 0, 0, NULL },
};

enum explain_mode { MODE_OPT, MODE_MARCH };
enum explain_metric { METRIC_INSTRUCTIONS, METRIC_TIME };

/* One flag that differs between A and B. */
struct candidate {
	char *name;             /* as B has it: -mavx2, -fvect-cost-model=dynamic, -fno-x */
	char *toward_a;         /* appended to B's flags: B without it */
	char *toward_b;         /* appended to A's flags: A with it */
	int without, with;      /* plan cells, -1 when not built */
	double rem, rem_lo, rem_hi, add, add_lo, add_hi, score;
};

struct metric_value {
	double v, lo, hi; /* lower is better; NAN when unknown */
};

struct explain {
	const struct explain_opts *o;
	enum explain_mode mode;
	enum explain_metric metric;
	enum counter_source counters;
	struct plan plan;
	size_t alloc;
	struct metric_value *val; /* per plan cell */
	struct candidate *cand;
	size_t ncand;
	int a, b, check;          /* plan cells */
	double gap;               /* ln(m(A) / m(B)) */
	double explained, explained_lo, explained_hi;
	size_t distinct, unchanged;
	struct strvec notes;      /* said in every output */
	struct strvec selected;   /* the claim */
};

static void explain_usage(FILE *out)
{
	fprintf(out, "usage: flagbench explain RUN_DIR CELL_A CELL_B [options]\n\n"
		     "Builds B one flag closer to A and A one flag closer to B, for every optimizer flag (gcc -O\n"
		     "levels) or ISA extension (-march) in which they differ, and names the flags that carry B's\n"
		     "speedup, checked by building B without them.\n\n");
	options_help(explain_options, out);
}

void explain_parse_optimizers(const char *text, struct strvec *out)
{
	const char *p = text ? text : "";
	while (*p) {
		size_t len = strcspn(p, "\n");
		char *line = xasprintf("%.*s", (int)len, p);
		p += len + (p[len] == '\n');
		char *s = line;
		while (isspace((unsigned char)*s))
			s++;
		/* "-fname   [enabled]" or "-fname=[a|b|c]   value" */
		if (s[0] == '-' && s[1] == 'f') {
			size_t nl = strcspn(s, " \t=");
			char *last = s + strlen(s);
			while (last > s && isspace((unsigned char)last[-1]))
				*--last = '\0';
			char *val = strrchr(s, ' ');
			char *tab = strrchr(s, '\t');
			if (tab && (!val || tab > val))
				val = tab;
			if (val && val > s + nl)
				sv_pushf(out, "%.*s\t%s", (int)nl, s, val + 1);
		}
		free(line);
	}
}

char *explain_isa_of_macro(const char *line)
{
	/* "#define __AVX2__ 1": an upper-case word between double underscores */
	const char *pre = "#define __";
	if (strncmp(line, pre, strlen(pre)))
		return NULL;
	const char *n = line + strlen(pre);
	size_t len = strspn(n, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
	if (len < 3 || strncmp(n + len - 2, "__", 2) || strcmp(n + len, " 1"))
		return NULL;
	len -= 2;
	char *name = xasprintf("%.*s", (int)len, n);
	char *r = NULL;
	/* names that are not the flag's spelled lower-case */
	if (!strcmp(name, "LAHF_SAHF"))
		r = xstrdup("sahf");
	else if (!strcmp(name, "SSE4_1") || !strcmp(name, "SSE4_2"))
		r = xasprintf("sse4.%c", name[5]);
	else if (!strchr(name, '_')) {
		r = xstrdup(name);
		for (char *q = r; *q; q++)
			*q = (char)tolower((unsigned char)*q);
	}
	free(name);
	return r;
}

static int run_text(char *const *argv, struct strbuf *out, char *why, size_t n)
{
	struct strbuf err = STRBUF_INIT;
	struct child_exit ex;
	int rc = run_capture(argv, CHILD_DEVNULL, 60, 1 << 20, out, &err, &ex);
	int ok = rc == 0 && ex.outcome == CHILD_EXITED && ex.exit_code == 0;
	if (!ok) {
		char how[128];
		describe_exit(&ex, 60, how, sizeof(how));
		snprintf(why, n, "%s %s: %.*s", argv[0], how, (int)strcspn(err.buf ? err.buf : "", "\n"),
			 err.buf ? err.buf : "");
	}
	sb_release(&err);
	return ok ? 0 : -1;
}

/* The cflags of a cell, as the run built it. */
static void flags_of(const json_t *cell, struct strvec *out)
{
	size_t i;
	json_t *f;
	json_array_foreach(json_object_get(cell, "cflags"), i, f)
		sv_push(out, json_string_value(f));
}

/* What the compiler prints for a cell's flags plus args (a query, no build). */
static int compiler_query(const struct compiler *comp, const json_t *cell, const char *const *args,
			  struct strbuf *out)
{
	struct strvec argv = STRVEC_INIT;
	sv_push(&argv, comp->path);
	flags_of(cell, &argv);
	sv_pushv(&argv, (char *const *)args);
	char why[512];
	int r = run_text(argv.v, out, why, sizeof(why));
	sv_clear(&argv);
	return r < 0 ? error("%s", why) : 0;
}

static const char *lookup(const struct strvec *kv, const char *name)
{
	size_t l = strlen(name);
	for (size_t i = 0; i < kv->n; i++)
		if (!strncmp(kv->v[i], name, l) && kv->v[i][l] == '\t')
			return kv->v[i] + l + 1;
	return NULL;
}

static void add_candidate(struct explain *e, const char *name, const char *toward_a, const char *toward_b)
{
	e->cand = xrealloc(e->cand, (e->ncand + 1) * sizeof(*e->cand));
	struct candidate *c = &e->cand[e->ncand++];
	memset(c, 0, sizeof(*c));
	c->name = xstrdup(name);
	c->toward_a = xstrdup(toward_a);
	c->toward_b = xstrdup(toward_b);
	c->without = c->with = -1;
	c->rem = c->rem_lo = c->rem_hi = c->add = c->add_lo = c->add_hi = c->score = NAN;
}

/* gcc -Q --help=optimizers with each cell's flags: the entries that differ. */
static int optimizer_candidates(struct explain *e, const struct compiler *comp, const json_t *ca, const json_t *cb)
{
	struct strvec kv[2] = { STRVEC_INIT, STRVEC_INIT };
	const json_t *cells[2] = { ca, cb };
	static const char *const query[] = { "-Q", "--help=optimizers", NULL };
	for (int k = 0; k < 2; k++) {
		struct strbuf out = STRBUF_INIT;
		if (compiler_query(comp, cells[k], query, &out) < 0) {
			sb_release(&out);
			sv_clear(&kv[0]);
			sv_clear(&kv[1]);
			return -1;
		}
		explain_parse_optimizers(out.buf, &kv[k]);
		sb_release(&out);
	}
	for (size_t i = 0; i < kv[1].n; i++) {
		char *name = xasprintf("%.*s", (int)strcspn(kv[1].v[i], "\t"), kv[1].v[i]);
		const char *vb = lookup(&kv[1], name), *va = lookup(&kv[0], name);
		if (va && strcmp(va, vb)) {
			int eb = !strcmp(vb, "[enabled]"), db = !strcmp(vb, "[disabled]");
			int ea = !strcmp(va, "[enabled]"), da = !strcmp(va, "[disabled]");
			if ((eb && da) || (db && ea)) {
				char *on = xstrdup(name), *off = xasprintf("-fno-%s", name + 2);
				add_candidate(e, eb ? on : off, eb ? off : on, eb ? on : off);
				free(on);
				free(off);
			} else if (!eb && !db && !ea && !da && *va && *vb && va[0] != '[' && vb[0] != '[') {
				char *tb = xasprintf("%s=%s", name, vb), *ta = xasprintf("%s=%s", name, va);
				add_candidate(e, tb, ta, tb);
				free(tb);
				free(ta);
			}
		}
		free(name);
	}
	sv_clear(&kv[0]);
	sv_clear(&kv[1]);
	sv_push(&e->notes, "candidates: the optimizer flags whose state differs between the two cells in "
			   "`gcc -Q --help=optimizers` (--param values are not flags and stay in the residual)");
	return 0;
}

static int compiler_accepts(const struct compiler *comp, const char *flag)
{
	char *argv[] = { comp->path, (char *)flag, "-x", "c", "-c", "-o", "/dev/null", "/dev/null", NULL };
	struct child_exit ex;
	struct strbuf err = STRBUF_INIT;
	int ok = run_capture(argv, CHILD_DEVNULL, 30, 4096, NULL, &err, &ex) == 0 && ex.outcome == CHILD_EXITED &&
		 ex.exit_code == 0 && !(err.buf && strstr(err.buf, "warning"));
	sb_release(&err);
	return ok;
}

/* Predefined ISA macros of each cell (-dM -E): the extensions that differ. */
static int isa_candidates(struct explain *e, const struct compiler *comp, const json_t *ca, const json_t *cb)
{
	struct strvec isa[2] = { STRVEC_INIT, STRVEC_INIT };
	const json_t *cells[2] = { ca, cb };
	static const char *const query[] = { "-dM", "-E", "-x", "c", "/dev/null", NULL };
	for (int k = 0; k < 2; k++) {
		struct strbuf out = STRBUF_INIT;
		if (compiler_query(comp, cells[k], query, &out) < 0 || !out.buf) {
			sb_release(&out);
			sv_clear(&isa[0]);
			sv_clear(&isa[1]);
			return -1;
		}
		for (char *save = NULL, *l = strtok_r(out.buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
			char *x = explain_isa_of_macro(l);
			if (x)
				sv_push(&isa[k], x);
			free(x);
		}
		sb_release(&out);
	}
	struct strvec rejected = STRVEC_INIT;
	for (int k = 1; k >= 0; k--)
		for (size_t i = 0; i < isa[k].n; i++) {
			int other = 0;
			for (size_t j = 0; j < isa[1 - k].n; j++)
				other |= !strcmp(isa[k].v[i], isa[1 - k].v[j]);
			if (other)
				continue;
			char *on = xasprintf("-m%s", isa[k].v[i]), *off = xasprintf("-mno-%s", isa[k].v[i]);
			if (compiler_accepts(comp, on) && compiler_accepts(comp, off)) {
				/* k == 1: B has it; k == 0: A has it and B lacks it */
				if (k == 1)
					add_candidate(e, on, off, on);
				else
					add_candidate(e, off, on, off);
			} else {
				sv_push(&rejected, on);
			}
			free(on);
			free(off);
		}
	sv_clear(&isa[0]);
	sv_clear(&isa[1]);
	sv_push(&e->notes, "candidates: the ISA extensions whose predefined macro (__AVX2__, ...) differs between the "
			   "two cells, as -m<ext> / -mno-<ext>; -mno-<ext> also turns off what depends on it");
	if (rejected.n) {
		struct strbuf sb = STRBUF_INIT;
		for (size_t i = 0; i < rejected.n; i++)
			sb_addf(&sb, "%s%s", i ? ", " : "", rejected.v[i]);
		sv_pushf(&e->notes, "not attributable (no flag the compiler accepts): %s", sb.buf);
		sb_release(&sb);
	}
	sv_clear(&rejected);
	return 0;
}

/* A plan cell built like the run's cell `proto`, plus extra flags. */
static int add_cell(struct explain *e, const json_t *proto, struct family *f, struct variant *v,
		    const char *config, const char *extra1, const struct strvec *extra)
{
	struct plan *p = &e->plan;
	if (p->n == e->alloc) {
		e->alloc = e->alloc ? e->alloc * 2 : 16;
		p->cells = xrealloc(p->cells, e->alloc * sizeof(*p->cells));
	}
	struct cell *c = &p->cells[p->n];
	memset(c, 0, sizeof(*c));
	cell_reset(c);
	struct cell_spec *sp = &c->spec;
	sp->pin.producer = sp->pin.consumer = sp->pin.single = PIN_NONE;
	sp->family = f;
	sp->variant = v;
	sp->compiler = &p->compilers[0];
	sp->opt = xstrdup(json_string_value(json_object_get(proto, "opt")));
	sp->march = xstrdup(json_string_value(json_object_get(proto, "march")));
	sp->allocator = xstrdup("glibc");
	sp->config = xstrdup(config);
	sp->id = xasprintf("%s/%s@%s", f->name, v->name, config);
	flags_of(proto, &sp->cflags);
	if (extra1)
		sv_push(&sp->cflags, extra1);
	if (extra)
		sv_pushv(&sp->cflags, extra->v);
	sp->size = (uint64_t)json_integer_value(json_object_get(proto, "size"));
	size_t i;
	json_t *a;
	json_array_foreach(json_object_get(proto, "argv"), i, a)
		sv_push(&sp->run_args, json_string_value(a));
	sp->expected_bytes = UINT64_MAX;
	const struct checker *ck = checker_find(f->check);
	if (ck && ck->expected_bytes && sp->run_args.n) {
		struct check_args ca = { sp->size, (int)sp->run_args.n - 1, sp->run_args.v + 1 };
		sp->expected_bytes = ck->expected_bytes(&ca);
	}
	json_t *pin = json_object_get(proto, "pin");
	json_t *x;
	if ((x = json_object_get(pin, "single")) && json_is_integer(x))
		sp->pin.single = (int)json_integer_value(x);
	if ((x = json_object_get(pin, "producer")) && json_is_integer(x))
		sp->pin.producer = (int)json_integer_value(x);
	if ((x = json_object_get(pin, "consumer")) && json_is_integer(x))
		sp->pin.consumer = (int)json_integer_value(x);
	e->val = xrealloc(e->val, e->alloc * sizeof(*e->val));
	e->val[p->n] = (struct metric_value){ NAN, NAN, NAN };
	return (int)p->n++;
}

/* The cell whose figure stands for cell i (itself, or its identical twin). */
static int rep(const struct explain *e, int i)
{
	if (i < 0)
		return -1;
	const struct cell *c = &e->plan.cells[i];
	return c->build.same_binary_as >= 0 ? c->build.same_binary_as : i;
}

/* Marks identical binaries among cells [from, n) against all earlier ones. */
static void dedupe_from(struct explain *e, size_t from)
{
	struct plan *p = &e->plan;
	for (size_t i = from; i < p->n; i++) {
		struct cell *c = &p->cells[i];
		if (!c->build.binary || c->status != CELL_PENDING)
			continue;
		for (size_t k = 0; k < i; k++) {
			struct cell *o = &p->cells[k];
			if (o->build.binary && o->build.same_binary_as < 0 && !strcmp(o->build.sha256, c->build.sha256)) {
				c->build.same_binary_as = (int)k;
				break;
			}
		}
	}
}

/* Verifies the distinct binaries among [from, n); twins take their verdict. */
static void verify_from(struct explain *e, size_t from, double timeout)
{
	struct plan *p = &e->plan;
	for (size_t i = from; i < p->n && !fb_interrupted; i++) {
		struct cell *c = &p->cells[i];
		if (c->status == CELL_PENDING && c->build.same_binary_as < 0)
			verify_cell(c, timeout * 4);
	}
	for (size_t i = from; i < p->n; i++) {
		struct cell *c = &p->cells[i];
		if (c->build.same_binary_as >= 0 && c->status == CELL_PENDING) {
			const struct cell *s = &p->cells[c->build.same_binary_as];
			if (s->status != CELL_PENDING && s->status != CELL_OK)
				cell_set_status(c, s->status, "same binary as %s: %s", s->spec.id,
						s->reason ? s->reason : "");
		}
	}
}

static int measurable(const struct explain *e, size_t i)
{
	const struct cell *c = &e->plan.cells[i];
	return c->status == CELL_PENDING && c->build.same_binary_as < 0;
}

/* Instructions per unit of every distinct, verified binary in [from, n). */
static void count_from(struct explain *e, size_t from)
{
	struct plan *p = &e->plan;
	for (size_t i = from; i < p->n && !fb_interrupted; i++) {
		if (!measurable(e, i))
			continue;
		struct cell *c = &p->cells[i];
		json_t *k = counters_measure(c, e->counters, e->o->timeout * 20);
		cell_counters_free(&c->measure.counters);
		cell_counters_from_json(&c->measure.counters, k);
		json_decref(k);
		const struct cell_counters *kc = &c->measure.counters;
		if (kc->state == COUNTERS_COUNTED && isfinite(kc->instructions_per_unit)) {
			double v = kc->instructions_per_unit;
			e->val[i] = (struct metric_value){ v, v, v };
			c->status = CELL_OK;
		} else {
			cell_set_status(c, CELL_UNSUPPORTED, "not counted: %s", kc->why ? kc->why : "no instruction count");
		}
	}
}

/* Times every distinct, verified binary in the list, runs round-robin so
 * that drift (heat, other load) spreads over all of them. */
static void time_cells(struct explain *e, const int *list, size_t n, const char *work, const char *hyperfine)
{
	struct measure_opts mo = { hyperfine, work, 1, 0, e->o->timeout, 0, NAN, 0, NULL, 0, 0, 0, 0.5 };
	int *active = xcalloc(n ? n : 1, sizeof(int));
	for (size_t k = 0; k < n; k++)
		active[k] = e->plan.cells[list[k]].status == CELL_PENDING || e->plan.cells[list[k]].status == CELL_OK;
	unsigned runs = e->o->runs ? e->o->runs : 5, warmup = e->o->warmup;
	for (unsigned round = 0; round < runs && !fb_interrupted; round++)
		for (size_t k = 0; k < n && !fb_interrupted; k++) {
			struct cell *c = &e->plan.cells[list[k]];
			if (!active[k])
				continue;
			mo.warmup = round == 0 ? warmup : 0;
			mo.append = c->measure.time.n > 0;
			double cool = 0;
			if (measure_cell(c, &mo, &cool) < 0)
				active[k] = 0;
		}
	for (size_t k = 0; k < n; k++) {
		struct cell *c = &e->plan.cells[list[k]];
		const struct stats *t = &c->measure.time;
		if (active[k] && t->n && !fb_interrupted) {
			c->status = CELL_OK;
			e->val[list[k]] = (struct metric_value){ t->median, t->ci_low, t->ci_high };
		}
	}
	free(active);
}

/* ln(m(x) / m(y)) / gap with its interval from the figures' intervals. */
static void share(const struct explain *e, int x, int y, double *v, double *lo, double *hi)
{
	*v = *lo = *hi = NAN;
	int rx = rep(e, x), ry = rep(e, y);
	if (rx < 0 || ry < 0 || !isfinite(e->val[rx].v) || !isfinite(e->val[ry].v) || e->gap == 0)
		return;
	const struct metric_value *a = &e->val[rx], *b = &e->val[ry];
	*v = log(a->v / b->v) / e->gap;
	double s1 = log(a->lo / b->hi) / e->gap, s2 = log(a->hi / b->lo) / e->gap;
	*lo = s1 < s2 ? s1 : s2;
	*hi = s1 < s2 ? s2 : s1;
}

static int by_score(const void *x, const void *y)
{
	const struct candidate *a = x, *b = y;
	double sa = isfinite(a->score) ? a->score : -1e9, sb = isfinite(b->score) ? b->score : -1e9;
	return sa < sb ? 1 : sa > sb ? -1 : strcmp(a->name, b->name);
}

static void analyse(struct explain *e)
{
	const struct metric_value *ma = &e->val[rep(e, e->a)], *mb = &e->val[rep(e, e->b)];
	e->gap = isfinite(ma->v) && isfinite(mb->v) ? log(ma->v / mb->v) : NAN;
	for (size_t i = 0; i < e->ncand; i++) {
		struct candidate *c = &e->cand[i];
		if (c->without >= 0)
			share(e, c->without, e->b, &c->rem, &c->rem_lo, &c->rem_hi);
		if (c->with >= 0)
			share(e, e->a, c->with, &c->add, &c->add_lo, &c->add_hi);
		if (isfinite(c->rem) && isfinite(c->add))
			c->score = (c->rem + c->add) / 2;
		else
			c->score = isfinite(c->rem) ? c->rem : c->add;
		int same_b = c->without < 0 || rep(e, c->without) == rep(e, e->b);
		int same_a = c->with < 0 || rep(e, c->with) == rep(e, e->a);
		e->unchanged += same_a && same_b;
	}
	qsort(e->cand, e->ncand, sizeof(*e->cand), by_score);
	double covered = 0;
	unsigned top = e->o->top ? e->o->top : 3;
	for (size_t i = 0; i < e->ncand && e->selected.n < top && covered < 0.9; i++) {
		struct candidate *c = &e->cand[i];
		if (!isfinite(c->score) || c->score < 0.05)
			break;
		/* with times, a share whose interval reaches zero is noise */
		if (e->metric == METRIC_TIME && !(c->rem_lo > 0 || c->add_lo > 0))
			continue;
		sv_push(&e->selected, c->name);
		covered += c->score;
	}
}

static const char *metric_unit(const struct explain *e)
{
	return e->metric == METRIC_TIME ? "s" : "instr/unit";
}

static void format_value(const struct explain *e, int cell, char *buf, size_t n)
{
	int r = rep(e, cell);
	if (r < 0) {
		snprintf(buf, n, "-");
		return;
	}
	const struct cell *c = &e->plan.cells[cell];
	if (c->status != CELL_OK && c->status != CELL_PENDING) {
		snprintf(buf, n, "%s", cell_status_name(c->status));
		return;
	}
	if (!isfinite(e->val[r].v))
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, e->val[r].v >= 1000 ? "%.0f %s%s" : "%.4g %s%s", e->val[r].v, metric_unit(e),
			 r == rep(e, e->b) && cell != e->b ? " (=B)" : r == rep(e, e->a) && cell != e->a ? " (=A)" : "");
}

static void format_share(const struct explain *e, double v, double lo, double hi, char *buf, size_t n)
{
	if (!isfinite(v))
		snprintf(buf, n, "-");
	else if (e->metric == METRIC_TIME && isfinite(lo) && isfinite(hi))
		snprintf(buf, n, "%.0f%% [%.0f, %.0f]", v * 100, lo * 100, hi * 100);
	else
		snprintf(buf, n, "%.0f%%", v * 100);
}

static int changes_something(const struct explain *e, const struct candidate *c)
{
	int same_b = c->without < 0 || rep(e, c->without) == rep(e, e->b);
	int same_a = c->with < 0 || rep(e, c->with) == rep(e, e->a);
	return !(same_a && same_b);
}

/* The report as Markdown (also printed on stdout). */
static void report_md(const struct explain *e, struct strbuf *md)
{
	const struct cell *a = &e->plan.cells[e->a], *b = &e->plan.cells[e->b];
	char va[64], vb[64];
	format_value(e, e->a, va, sizeof(va));
	format_value(e, e->b, vb, sizeof(vb));
	sb_addf(md, "# Why %s/%s is faster: %s (A) vs %s (B)\n\n", a->spec.family->name, a->spec.variant->name,
		a->spec.config, b->spec.config);
	sb_addf(md, "Metric: %s. A: %s, B: %s", e->metric == METRIC_TIME ? "median time per run (hyperfine, interleaved)"
								      : e->counters == COUNTERS_CALLGRIND
									? "instructions per unit (callgrind: deterministic)"
									: "instructions per unit (perf)",
		va, vb);
	if (isfinite(e->gap))
		sb_addf(md, ": B is %.3gx %s.\n\n", exp(fabs(e->gap)), e->gap >= 0 ? "better" : "worse");
	else
		sb_adds(md, ".\n\n");
	sb_addf(md, "%zu candidate flags, %zu distinct binaries measured; %zu of the %zu single flags change nothing "
		    "(identical binaries both ways).\n\n",
		e->ncand, e->distinct, e->unchanged, e->ncand);
	sb_adds(md, "| flag | B without it | share of the gap | A with it | share of the gap |\n");
	sb_adds(md, "| --- | --- | ---: | --- | ---: |\n");
	struct strbuf none = STRBUF_INIT;
	for (size_t i = 0; i < e->ncand; i++) {
		const struct candidate *c = &e->cand[i];
		if (!changes_something(e, c)) {
			sb_addf(&none, "%s%s", none.len ? ", " : "", c->name);
			continue;
		}
		char w[64], wo[64], s1[64], s2[64];
		format_value(e, c->without, wo, sizeof(wo));
		format_value(e, c->with, w, sizeof(w));
		format_share(e, c->rem, c->rem_lo, c->rem_hi, s1, sizeof(s1));
		format_share(e, c->add, c->add_lo, c->add_hi, s2, sizeof(s2));
		sb_addf(md, "| `%s` | %s (`%s`) | %s | %s | %s |\n", c->name, wo, c->toward_a, s1, w, s2);
	}
	sb_adds(md, "\n");
	if (none.len)
		sb_addf(md, "Identical binaries both ways (change nothing here): %s.\n\n", none.buf);
	sb_release(&none);
	if (!isfinite(e->gap) || fabs(e->gap) < 1e-9) {
		sb_adds(md, "**Answer**: A and B do not differ in this metric: nothing to explain.\n\n");
	} else if (!e->selected.n) {
		sb_adds(md, "**Answer**: no single flag carries 5 % or more of the gap (the difference comes from several "
			    "flags together, or from what no flag names).\n\n");
	} else {
		struct strbuf names = STRBUF_INIT;
		for (size_t i = 0; i < e->selected.n; i++)
			sb_addf(&names, "%s`%s`", i ? ", " : "", e->selected.v[i]);
		char ex[96] = "not measured";
		if (e->check >= 0) {
			char v[64];
			format_value(e, e->check, v, sizeof(v));
			if (isfinite(e->explained)) {
				if (e->metric == METRIC_TIME)
					snprintf(ex, sizeof(ex), "%s, %.0f%% of the gap [%.0f, %.0f]", v, e->explained * 100,
						 e->explained_lo * 100, e->explained_hi * 100);
				else
					snprintf(ex, sizeof(ex), "%s, %.0f%% of the gap", v, e->explained * 100);
			} else {
				snprintf(ex, sizeof(ex), "%s", v);
			}
		}
		sb_addf(md, "**Answer**: %s carr%s most of the speedup. Check: B without %s: %s.\n\n", names.buf,
			e->selected.n > 1 ? "y" : "ies", e->selected.n > 1 ? "them" : "it", ex);
		sb_release(&names);
	}
	for (size_t i = 0; i < e->notes.n; i++)
		sb_addf(md, "- %s\n", e->notes.v[i]);
}

static json_t *num(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

static json_t *explain_json(const struct explain *e)
{
	const struct plan *p = &e->plan;
	json_t *cands = json_array();
	for (size_t i = 0; i < e->ncand; i++) {
		const struct candidate *c = &e->cand[i];
		json_t *j = json_pack("{s:s, s:s, s:s, s:o, s:o, s:o}", "flag", c->name, "toward_a", c->toward_a, "toward_b",
				      c->toward_b, "changes_something", json_boolean(changes_something(e, c)), "score",
				      num(c->score), "selected", json_false());
		for (size_t k = 0; k < e->selected.n; k++)
			if (!strcmp(e->selected.v[k], c->name))
				json_object_set_new(j, "selected", json_true());
		json_object_set_new(j, "without",
				    c->without < 0 ? json_null()
						   : json_pack("{s:s, s:o, s:o, s:[o, o]}", "cell", p->cells[c->without].spec.id,
							       "value", num(e->val[rep(e, c->without)].v), "share",
							       num(c->rem), "share_ci95", num(c->rem_lo), num(c->rem_hi)));
		json_object_set_new(j, "with",
				    c->with < 0 ? json_null()
						: json_pack("{s:s, s:o, s:o, s:[o, o]}", "cell", p->cells[c->with].spec.id, "value",
							    num(e->val[rep(e, c->with)].v), "share", num(c->add), "share_ci95",
							    num(c->add_lo), num(c->add_hi)));
		json_array_append_new(cands, j);
	}
	json_t *sel = json_array();
	for (size_t i = 0; i < e->selected.n; i++)
		json_array_append_new(sel, json_string(e->selected.v[i]));
	json_t *notes = json_array();
	for (size_t i = 0; i < e->notes.n; i++)
		json_array_append_new(notes, json_string(e->notes.v[i]));
	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:o, s:o, s:o, s:I, s:I, s:o, s:o, s:o, s:o}", "a", p->cells[e->a].spec.id,
			 "b", p->cells[e->b].spec.id, "mode", e->mode == MODE_OPT ? "optimizer flags" : "isa extensions",
			 "metric", e->metric == METRIC_TIME ? "time_s" : "instructions_per_unit", "counter_source",
			 e->metric == METRIC_TIME ? "hyperfine" : e->counters == COUNTERS_CALLGRIND ? "callgrind" : "perf",
			 "value_a", num(e->val[rep(e, e->a)].v), "value_b", num(e->val[rep(e, e->b)].v), "gap_ln",
			 num(e->gap), "distinct_binaries", (json_int_t)e->distinct, "unchanged_flags",
			 (json_int_t)e->unchanged, "candidates", cands, "selected", sel, "check",
			 e->check < 0 ? json_null()
				      : json_pack("{s:s, s:o, s:o, s:[o, o]}", "cell", p->cells[e->check].spec.id, "value",
						  num(e->val[rep(e, e->check)].v), "explained", num(e->explained),
						  "explained_ci95", num(e->explained_lo), num(e->explained_hi)),
			 "notes", notes);
}

static const json_t *find_cell(const json_t *run, const char *id)
{
	size_t i;
	json_t *c;
	json_array_foreach(json_object_get(run, "cells"), i, c)
		if (!strcmp(json_string_value(json_object_get(c, "id")) ? json_string_value(json_object_get(c, "id")) : "",
			    id))
			return c;
	return NULL;
}

static const char *jstr(const json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));
	return s ? s : "";
}

static void free_explain(struct explain *e)
{
	for (size_t i = 0; i < e->ncand; i++) {
		free(e->cand[i].name);
		free(e->cand[i].toward_a);
		free(e->cand[i].toward_b);
	}
	free(e->cand);
	free(e->val);
	sv_clear(&e->notes);
	sv_clear(&e->selected);
	plan_free(&e->plan);
}

/* The start time as 20261130T092200Z: names the run id and the default
 * output folder alike. */
static void utc_stamp(double wall, char *buf, size_t n)
{
	time_t t = (time_t)wall;
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(buf, n, "%Y%m%dT%H%M%SZ", &tm);
}

/* Writes results.json (cells of the explain run plus "explain") and explain.md. */
static int write_outputs(struct explain *e, const char *dir, const json_t *run, const char *run_dir,
			 json_t *argv_json, double started, const struct strbuf *md)
{
	struct suite suite;
	memset(&suite, 0, sizeof(suite));
	suite.name = (char *)"explain";
	suite.path = xasprintf("%s/results.json", run_dir);
	struct cpu_profile prof;
	memset(&prof, 0, sizeof(prof));
	prof.name = (char *)jstr(json_object_get(run, "run"), "cpu_profile");
	struct run_state rs;
	memset(&rs, 0, sizeof(rs));
	char ts[32];
	utc_stamp(started, ts, sizeof(ts));
	rs.id = xasprintf("%s-explain-%s", ts, prof.name);
	rs.dir = (char *)dir;
	rs.started_wall = started;
	rs.finished_wall = now_wall();
	rs.finished = 1;
	rs.interrupted = fb_interrupted != 0;
	rs.argv = argv_json;
	rs.host = json_object_get(run, "host");
	rs.tools = json_object_get(run, "tools");
	rs.profile = json_object_get(run, "profile");
	if (!rs.host)
		rs.host = json_object();
	else
		json_incref(rs.host);
	rs.tools = rs.tools ? json_incref(rs.tools) : json_object();
	rs.profile = rs.profile ? json_incref(rs.profile) : json_object();
	rs.suite = &suite;
	rs.cpu_profile = &prof;
	rs.plan = &e->plan;
	sv_pushf(&rs.warnings, "explain of %s: the machine's load during this run shapes the times; "
			       "instruction counts do not depend on it", run_dir);
	json_t *doc = results_to_json(&rs);
	json_object_set_new(doc, "explain", explain_json(e));
	char *text = json_dumps(doc, JSON_INDENT(1) | JSON_SORT_KEYS | JSON_REAL_PRECISION(10));
	json_decref(doc);
	char *path = xasprintf("%s/results.json", dir);
	struct strbuf sb = STRBUF_INIT;
	sb_adds(&sb, text ? text : "{}");
	sb_adds(&sb, "\n");
	int r = write_file_atomic(path, sb.buf, sb.len);
	free(path);
	sb_release(&sb);
	free(text);
	path = xasprintf("%s/explain.md", dir);
	if (write_file_atomic(path, md->buf, md->len) < 0)
		r = -1;
	free(path);
	free(rs.id);
	free(suite.path);
	json_decref(rs.host);
	json_decref(rs.tools);
	json_decref(rs.profile);
	sv_clear(&rs.warnings);
	return r;
}

/* The inputs and the places of one `flagbench explain`, owned here so the
 * steps below share them and one function frees them. */
struct explain_run {
	const char *run_dir, *id_a, *id_b;
	json_t *run;
	const json_t *ca, *cb;  /* the two cells, inside run */
	struct family *fams;
	int nfam;
	struct family *fam;     /* of both cells, inside fams */
	struct variant *var;
	char *out, *work, *cache, *hyperfine;
	double build_timeout, started;
};

static void free_run(struct explain_run *r)
{
	for (int i = 0; i < r->nfam; i++)
		free_family(&r->fams[i]);
	free(r->fams);
	json_decref(r->run);
	free(r->out);
	free(r->work);
	free(r->cache);
	free(r->hyperfine);
}

/* A and B from the run: one variant, one compiler, native and without pgo,
 * differing in exactly one of -O and -march, which sets the mode. */
static int read_pair(struct explain *e, struct explain_run *r)
{
	char *rpath = xasprintf("%s/results.json", r->run_dir);
	json_error_t je;
	r->run = json_load_file(rpath, 0, &je);
	if (!r->run)
		error("cannot read %s: %s", rpath, je.text);
	free(rpath);
	if (!r->run)
		return -1;
	const json_t *ca = r->ca = find_cell(r->run, r->id_a), *cb = r->cb = find_cell(r->run, r->id_b);
	if (!ca || !cb)
		return error("no cell '%s' in %s/results.json (flagbench report %s lists the cells)",
			     !ca ? r->id_a : r->id_b, r->run_dir, r->run_dir);
	if (strcmp(jstr(ca, "family"), jstr(cb, "family")) || strcmp(jstr(ca, "variant"), jstr(cb, "variant")) ||
	    strcmp(jstr(ca, "compiler"), jstr(cb, "compiler")) || !strcmp(jstr(ca, "compiler"), "none"))
		return error("explain compares two builds of one variant with one compiler; %s and %s differ in %s",
			     r->id_a, r->id_b, strcmp(jstr(ca, "variant"), jstr(cb, "variant")) ? "variant" : "compiler");
	if (json_is_true(json_object_get(ca, "emulated")) || json_is_object(json_object_get(ca, "pgo")) ||
	    json_is_object(json_object_get(cb, "pgo")))
		return error("explain works on native, non-pgo builds");
	int opt_differs = strcmp(jstr(ca, "opt"), jstr(cb, "opt")) != 0;
	int march_differs = strcmp(jstr(ca, "march"), jstr(cb, "march")) != 0;
	if (opt_differs == march_differs)
		return error(opt_differs ? "%s and %s differ in both -O level and -march: explain one difference at a time"
					 : "%s and %s differ in neither -O level nor -march: nothing for explain to attribute",
			     r->id_a, r->id_b);
	e->mode = opt_differs ? MODE_OPT : MODE_MARCH;
	return 0;
}

/* The run's variant among the families here: the rebuilds need its sources. */
static int find_variant(struct explain_run *r)
{
	r->nfam = load_all_families(&r->fams);
	if (r->nfam < 0)
		return -1;
	for (int i = 0; i < r->nfam; i++)
		if (!strcmp(r->fams[i].name, jstr(r->ca, "family")))
			r->fam = &r->fams[i];
	for (size_t i = 0; r->fam && i < r->fam->nvariants; i++)
		if (!strcmp(r->fam->variants[i].name, jstr(r->ca, "variant")))
			r->var = &r->fam->variants[i];
	if (!r->var)
		return error("variant %s/%s of the run is not among the variants here", jstr(r->ca, "family"),
			     jstr(r->ca, "variant"));
	return 0;
}

/* The run's compiler, found here; a different version is noted, not refused. */
static int probe_compiler(struct explain *e, const json_t *ca)
{
	e->plan.ncompilers = 1;
	e->plan.compilers = xcalloc(1, sizeof(*e->plan.compilers));
	struct compiler *comp = &e->plan.compilers[0];
	compiler_probe(comp, jstr(ca, "compiler"));
	if (!comp->path) {
		char *pkg = compiler_package(comp->name);
		error("compiler '%s' not found on PATH%s%s", comp->name, pkg ? ": install the Debian package " : "",
		      pkg ? pkg : "");
		free(pkg);
		return -1;
	}
	if (e->mode == MODE_OPT && comp->is_clang)
		return error("clang has no per-pass -O flags (its -O levels select pass pipelines that no flag names): "
			     "explain attributes only -march differences for clang");
	if (strcmp(jstr(ca, "compiler_version"), comp->version))
		sv_pushf(&e->notes, "the run was built with '%s', this explain with '%s'", jstr(ca, "compiler_version"),
			 comp->version);
	if (e->mode == MODE_MARCH && comp->is_clang)
		sv_push(&e->notes, "clang: -march attribution only (its -O levels have no per-pass flags)");
	return 0;
}

/* The metric: deterministic instruction counts where the family allows,
 * else time (which needs hyperfine); --metric instructions insists. */
static int choose_metric(struct explain *e, const struct explain_opts *o, struct explain_run *r)
{
	char why[256] = "";
	if (!o->metric || !strcmp(o->metric, "instructions")) {
		e->counters = r->fam->kind == KIND_COMPUTE ? counters_probe(why, sizeof(why)) : COUNTERS_NONE;
		if (r->fam->kind != KIND_COMPUTE)
			snprintf(why, sizeof(why), "%s is a stream family: instructions are counted for compute families only",
				 r->fam->name);
		if (e->counters == COUNTERS_NONE && o->metric)
			return error("--metric instructions: %s", why);
		e->metric = e->counters == COUNTERS_NONE ? METRIC_TIME : METRIC_INSTRUCTIONS;
		if (e->counters == COUNTERS_NONE)
			sv_pushf(&e->notes, "metric: time (%s)", why);
	} else {
		e->metric = METRIC_TIME;
	}
	r->hyperfine = find_on_path("hyperfine");
	if (e->metric == METRIC_TIME && !r->hyperfine)
		return error("hyperfine not found on PATH: install the Debian package hyperfine");
	return 0;
}

/* Twins (the same binary as an earlier cell) among [from, n) share its verdict. */
static void twins_take_status(struct explain *e, size_t from)
{
	for (size_t i = from; i < e->plan.n; i++) {
		struct cell *c = &e->plan.cells[i];
		if (c->build.same_binary_as >= 0 && c->status == CELL_PENDING)
			c->status = e->plan.cells[c->build.same_binary_as].status;
	}
}

/* Cells A, B, then B without / A with each candidate flag, built (the cache
 * spares what the run already compiled) and verified. */
static int build_candidates(struct explain *e, struct explain_run *r)
{
	const struct compiler *comp = &e->plan.compilers[0];
	const json_t *ca = r->ca, *cb = r->cb;
	if ((e->mode == MODE_OPT ? optimizer_candidates(e, comp, ca, cb) : isa_candidates(e, comp, ca, cb)) < 0)
		return -1;
	fprintf(stderr, "flagbench: %zu candidate flags between %s and %s\n", e->ncand, r->id_a, r->id_b);
	e->a = add_cell(e, ca, r->fam, r->var, jstr(ca, "config"), NULL, NULL);
	e->b = add_cell(e, cb, r->fam, r->var, jstr(cb, "config"), NULL, NULL);
	for (size_t i = 0; i < e->ncand; i++) {
		struct candidate *c = &e->cand[i];
		char *cfg = xasprintf("%s %s", jstr(cb, "config"), c->toward_a);
		c->without = add_cell(e, cb, r->fam, r->var, cfg, c->toward_a, NULL);
		free(cfg);
		cfg = xasprintf("%s %s", jstr(ca, "config"), c->toward_b);
		c->with = add_cell(e, ca, r->fam, r->var, cfg, c->toward_b, NULL);
		free(cfg);
	}
	r->cache = e->o->cache ? xstrdup(e->o->cache) : xasprintf("%s/build/cache", project_root());
	unsigned jobs = e->o->jobs ? e->o->jobs : (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
	r->build_timeout = e->o->build_timeout > 0 ? e->o->build_timeout : 300;
	struct build_stats bs;
	if (build_plan(&e->plan, r->cache, jobs ? jobs : 1, r->build_timeout, &bs) < 0)
		return -1;
	dedupe_from(e, 0);
	for (size_t i = 0; i < e->plan.n; i++)
		e->distinct += e->plan.cells[i].build.binary && e->plan.cells[i].build.same_binary_as < 0;
	fprintf(stderr, "flagbench: %zu builds (compiled %u, cached %u, failed %u), %zu distinct binaries\n", e->plan.n,
		bs.compiled, bs.cached, bs.failed, e->distinct);
	verify_from(e, 0, e->o->timeout);
	return 0;
}

/* --out, or RUN/explain-<start time>, with .work inside for hyperfine's files. */
static int make_out_dir(struct explain_run *r, const struct explain_opts *o)
{
	if (o->out) {
		r->out = xstrdup(o->out);
	} else {
		char ts[32];
		utc_stamp(r->started, ts, sizeof(ts));
		r->out = xasprintf("%s/explain-%s", r->run_dir, ts);
	}
	r->work = xasprintf("%s/.work", r->out);
	if (mkdir_p(r->work, 0755) < 0)
		return error("cannot create %s: %s", r->work, strerror(errno));
	return 0;
}

/* Every distinct, verified binary: counted, or timed side by side. */
static void measure_all(struct explain *e, const struct explain_run *r)
{
	if (e->metric == METRIC_INSTRUCTIONS) {
		count_from(e, 0);
	} else {
		int *list = xcalloc(e->plan.n, sizeof(int));
		size_t n = 0;
		for (size_t i = 0; i < e->plan.n; i++)
			if (measurable(e, i))
				list[n++] = (int)i;
		time_cells(e, list, n, r->work, r->hyperfine);
		free(list);
	}
	twins_take_status(e, 0);
}

/* The check: B without every selected flag, built and measured. */
static void run_check(struct explain *e, struct explain_run *r)
{
	struct strvec extra = STRVEC_INIT;
	struct strbuf cfg = STRBUF_INIT;
	sb_adds(&cfg, jstr(r->cb, "config"));
	for (size_t i = 0; i < e->selected.n; i++)
		for (size_t k = 0; k < e->ncand; k++)
			if (!strcmp(e->cand[k].name, e->selected.v[i])) {
				sv_push(&extra, e->cand[k].toward_a);
				sb_addf(&cfg, " %s", e->cand[k].toward_a);
			}
	size_t from = e->plan.n;
	e->check = add_cell(e, r->cb, r->fam, r->var, cfg.buf, NULL, &extra);
	sb_release(&cfg);
	sv_clear(&extra);
	/* earlier cells are final: only the check is built */
	for (size_t i = 0; i < from; i++)
		if (e->plan.cells[i].status == CELL_PENDING)
			e->plan.cells[i].status = CELL_OK;
	struct build_stats bs;
	build_plan(&e->plan, r->cache, 1, r->build_timeout, &bs);
	dedupe_from(e, from);
	verify_from(e, from, e->o->timeout);
	if (e->metric == METRIC_INSTRUCTIONS) {
		count_from(e, from);
	} else if (measurable(e, (size_t)e->check)) {
		/* side by side with A and B again, whose new runs join theirs */
		int list[3] = { rep(e, e->a), rep(e, e->b), e->check };
		e->plan.cells[list[0]].status = e->plan.cells[list[1]].status = CELL_PENDING;
		time_cells(e, list, 3, r->work, r->hyperfine);
		e->plan.cells[list[0]].status = e->plan.cells[list[1]].status = CELL_OK;
		const struct metric_value *ma = &e->val[rep(e, e->a)], *mb = &e->val[rep(e, e->b)];
		e->gap = log(ma->v / mb->v);
	}
	twins_take_status(e, from);
	share(e, e->check, e->b, &e->explained, &e->explained_lo, &e->explained_hi);
}

/* explain.md on stdout and in the folder, results.json beside it. */
static int report(struct explain *e, const struct explain_run *r, int argc, char **argv)
{
	struct strbuf md = STRBUF_INIT;
	report_md(e, &md);
	fputs(md.buf, stdout);
	json_t *argv_json = json_array();
	json_array_append_new(argv_json, json_string("flagbench"));
	for (int i = 0; i < argc; i++)
		json_array_append_new(argv_json, json_string(argv[i]));
	int wr = write_outputs(e, r->out, r->run, r->run_dir, argv_json, r->started, &md);
	sb_release(&md);
	json_decref(argv_json);
	fprintf(stderr, "flagbench: explain in %s/explain.md and %s/results.json\n", r->out, r->out);
	return wr;
}

int cmd_explain(int argc, char **argv)
{
	struct explain_opts o;
	memset(&o, 0, sizeof(o));
	unsigned char given[32] = { 0 };
	char *pos[4] = { 0 };
	int npos = options_parse(explain_options, &o, given, argc - 1, argv + 1, pos, 4);
	int code = EXIT_USAGE;
	if (npos < 0)
		return EXIT_USAGE;
	if (o.help) {
		explain_usage(stdout);
		return 0;
	}
	if (!given[option_index(explain_options, option_find(explain_options, "warmup"))])
		o.warmup = 1;
	struct explain e;
	memset(&e, 0, sizeof(e));
	e.o = &o;
	e.a = e.b = e.check = -1;
	e.explained = e.explained_lo = e.explained_hi = NAN;
	struct explain_run r;
	memset(&r, 0, sizeof(r));
	r.nfam = -1;
	r.started = now_wall();
	if (npos != 3) {
		error("usage: flagbench explain RUN_DIR CELL_A CELL_B [options] (see --help)");
		goto done;
	}
	if (o.metric && strcmp(o.metric, "instructions") && strcmp(o.metric, "time")) {
		error("--metric must be instructions or time, not '%s'", o.metric);
		goto done;
	}
	r.run_dir = pos[0];
	r.id_a = pos[1];
	r.id_b = pos[2];
	if (read_pair(&e, &r) < 0 || find_variant(&r) < 0 || probe_compiler(&e, r.ca) < 0)
		goto done;
	install_interrupt_handler();
	if (choose_metric(&e, &o, &r) < 0)
		goto done;
	if (o.timeout <= 0)
		o.timeout = 120;
	if (build_candidates(&e, &r) < 0 || make_out_dir(&r, &o) < 0)
		goto done;
	measure_all(&e, &r);
	if (e.plan.cells[e.a].status != CELL_OK || e.plan.cells[e.b].status != CELL_OK) {
		const struct cell *bad = e.plan.cells[e.a].status != CELL_OK ? &e.plan.cells[e.a] : &e.plan.cells[e.b];
		error("%s: %s: %s", bad->spec.id, cell_status_name(bad->status), bad->reason ? bad->reason : "");
		code = fb_interrupted ? EXIT_INTERRUPTED : EXIT_CELL_FAILED;
		goto done;
	}
	analyse(&e);
	if (e.selected.n && isfinite(e.gap) && !fb_interrupted)
		run_check(&e, &r);
	int wr = report(&e, &r, argc, argv);
	code = fb_interrupted ? EXIT_INTERRUPTED : wr < 0 ? EXIT_CELL_FAILED : EXIT_ALL_OK;
done:
	free_explain(&e);
	free_run(&r);
	free(o.out);
	free(o.cache);
	free(o.metric);
	return code;
}
