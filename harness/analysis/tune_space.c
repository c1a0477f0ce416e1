/* tune_space.c: see tune_space.h */
#define _GNU_SOURCE
#include "analysis/tune_space.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/flags.h"
#include "core/runcmd.h"

/* A listing is a few hundred KB; the cap only guards against a runaway. */
#define QUERY_TIMEOUT_S 30
#define QUERY_CAP (4u << 20)

/* ---- what is left out, and why ---- */

#define WHY_RESULTS "changes results"
#define WHY_ABI "changes the ABI"
#define WHY_INSTRUMENTS "instruments the code, not an optimization"
#define WHY_NOT_C "does nothing for a C program's code"
#define WHY_PROFILE "needs profile feedback"
#define WHY_DEBUG "changes only debug info or diagnostics"

struct exclusion {
	char kind;       /* 'f': -f flags (on/off and =choice), 'p': --param */
	const char *name;
	int prefix;      /* name is a prefix: stack-protector covers -all, -strong ... */
	const char *why;
};

static const struct exclusion exclusions[] = {
	/* floating point and overflow semantics: a faster build that prints
	 * other numbers is no win */
	{ 'f', "fast-math", 0, WHY_RESULTS },
	{ 'f', "unsafe-math-optimizations", 0, WHY_RESULTS },
	{ 'f', "finite-math-only", 0, WHY_RESULTS },
	{ 'f', "trapping-math", 0, WHY_RESULTS },
	{ 'f', "associative-math", 0, WHY_RESULTS },
	{ 'f', "reciprocal-math", 0, WHY_RESULTS },
	{ 'f', "signed-zeros", 0, WHY_RESULTS },
	{ 'f', "math-errno", 0, WHY_RESULTS },
	{ 'f', "rounding-math", 0, WHY_RESULTS },
	{ 'f', "signaling-nans", 0, WHY_RESULTS },
	{ 'f', "cx-limited-range", 0, WHY_RESULTS },
	{ 'f', "cx-fortran-rules", 0, WHY_RESULTS },
	{ 'f', "excess-precision", 0, WHY_RESULTS },
	{ 'f', "single-precision-constant", 0, WHY_RESULTS },
	{ 'f', "fp-contract", 0, WHY_RESULTS },
	{ 'f', "float-store", 0, WHY_RESULTS },
	{ 'f', "fp-int-builtin-inexact", 0, WHY_RESULTS },
	{ 'f', "honor-nans", 0, WHY_RESULTS },
	{ 'f', "honor-infinities", 0, WHY_RESULTS },
	{ 'f', "approx-func", 0, WHY_RESULTS },
	{ 'f', "protect-parens", 0, WHY_RESULTS },
	{ 'f', "strict-float-cast-overflow", 0, WHY_RESULTS },
	{ 'f', "wrapv", 0, WHY_RESULTS },
	{ 'f', "wrapv-pointer", 0, WHY_RESULTS },
	{ 'f', "trapv", 0, WHY_RESULTS },
	{ 'f', "strict-overflow", 0, WHY_RESULTS },
	/* assumptions about the program that a correct C program may break
	 * (aliasing through casts, null objects, endless loops, races) */
	{ 'f', "allow-store-data-races", 0, WHY_RESULTS },
	{ 'f', "delete-null-pointer-checks", 0, WHY_RESULTS },
	{ 'f', "strict-aliasing", 0, WHY_RESULTS },
	{ 'f', "ipa-strict-aliasing", 0, WHY_RESULTS },
	{ 'f', "isolate-erroneous-paths-attribute", 0, WHY_RESULTS },
	{ 'f', "finite-loops", 0, WHY_RESULTS },
	{ 'f', "unsafe-loop-optimizations", 0, WHY_RESULTS },
	{ 'f', "sched-spec-load-dangerous", 0, WHY_RESULTS },
	/* C wants distinct objects at distinct addresses */
	{ 'f', "merge-all-constants", 0, WHY_RESULTS },

	{ 'f', "short-enums", 0, WHY_ABI },
	{ 'f', "short-wchar", 0, WHY_ABI },
	{ 'f', "pack-struct", 0, WHY_ABI },
	{ 'f', "pcc-struct-return", 0, WHY_ABI },
	{ 'f', "reg-struct-return", 0, WHY_ABI },
	{ 'f', "leading-underscore", 0, WHY_ABI },
	{ 'f', "common", 0, WHY_ABI },
	{ 'f', "exceptions", 0, WHY_ABI },
	{ 'f', "non-call-exceptions", 0, WHY_ABI },
	{ 'f', "unwind-tables", 0, WHY_ABI },
	{ 'f', "asynchronous-unwind-tables", 0, WHY_ABI },
	{ 'f', "strict-volatile-bitfields", 0, WHY_ABI },

	{ 'f', "stack-protector", 1, WHY_INSTRUMENTS },
	{ 'f', "stack-check", 0, WHY_INSTRUMENTS },
	{ 'f', "stack-clash-protection", 0, WHY_INSTRUMENTS },
	{ 'f', "trivial-auto-var-init", 0, WHY_INSTRUMENTS },
	{ 'f', "cf-protection", 0, WHY_INSTRUMENTS },
	{ 'f', "harden-", 1, WHY_INSTRUMENTS },
	{ 'f', "sanitize", 1, WHY_INSTRUMENTS },
	{ 'f', "instrument", 1, WHY_INSTRUMENTS },
	{ 'f', "live-patching", 0, WHY_INSTRUMENTS },
	{ 'f', "split-stack", 0, WHY_INSTRUMENTS },
	{ 'f', "trampolines", 0, WHY_INSTRUMENTS },
	{ 'f', "patchable-function-entry", 0, WHY_INSTRUMENTS },

	{ 'f', "profile", 1, WHY_PROFILE },
	{ 'f', "auto-profile", 0, WHY_PROFILE },
	{ 'f', "branch-probabilities", 0, WHY_PROFILE },
	{ 'f', "vpt", 0, WHY_PROFILE },

	{ 'f', "var-tracking", 1, WHY_DEBUG },
	{ 'f', "opt-info", 0, WHY_DEBUG },
	{ 'f', "save-optimization-record", 0, WHY_DEBUG },

	/* C++, Objective-C, Fortran and garbage-collected languages only */
	{ 'f', "devirtualize", 1, WHY_NOT_C },
	{ 'f', "nothrow-opt", 0, WHY_NOT_C },
	{ 'f', "threadsafe-statics", 0, WHY_NOT_C },
	{ 'f', "rtti", 0, WHY_NOT_C },
	{ 'f', "fold-simple-inlines", 0, WHY_NOT_C },
	{ 'f', "strict-enums", 0, WHY_NOT_C },
	{ 'f', "delete-dead-exceptions", 0, WHY_NOT_C },
	{ 'f', "handle-exceptions", 0, WHY_NOT_C },
	{ 'f', "unconstrained-commons", 0, WHY_NOT_C },
	{ 'f', "keep-gc-roots-live", 0, WHY_NOT_C },

	{ 'p', "analyzer-", 1, WHY_NOT_C },
	{ 'p', "lto-", 1, WHY_NOT_C },
	{ 'p', "ggc-", 1, WHY_NOT_C },
	{ 'p', "cxx-", 1, WHY_NOT_C },
	{ 'p', "openacc-", 1, WHY_NOT_C },
	{ 'p', "parloops-", 1, WHY_NOT_C },
	{ 'p', "lazy-modules", 0, WHY_NOT_C },
	{ 'p', "use-canonical-types", 0, WHY_NOT_C },
	{ 'p', "constructive-interference-size", 0, WHY_NOT_C },
	{ 'p', "destructive-interference-size", 0, WHY_NOT_C },
	{ 'p', "tm-max-aggregate-size", 0, WHY_NOT_C },
	{ 'p', "hash-table-verification-limit", 0, WHY_NOT_C },
	{ 'p', "gimple-fe-computed-hot-bb-threshold", 0, WHY_NOT_C },
	{ 'p', "graphite-allow-codegen-errors", 0, WHY_NOT_C },
	{ 'p', "integer-share-limit", 0, WHY_NOT_C },
	{ 'p', "asan-", 1, WHY_INSTRUMENTS },
	{ 'p', "hwasan-", 1, WHY_INSTRUMENTS },
	{ 'p', "tsan-", 1, WHY_INSTRUMENTS },
	{ 'p', "ssp-buffer-size", 0, WHY_INSTRUMENTS },
	{ 'p', "stack-clash-protection-", 1, WHY_INSTRUMENTS },
	{ 'p', "use-after-scope-direct-emission-threshold", 0, WHY_INSTRUMENTS },
	{ 'p', "profile-func-internal-id", 0, WHY_PROFILE },
	{ 'p', "tracer-dynamic-coverage-feedback", 0, WHY_PROFILE },
	{ 'p', "tracer-min-branch-probability-feedback", 0, WHY_PROFILE },
	{ 'p', "hot-bb-count-ws-permille", 0, WHY_PROFILE },
	{ 'p', "ipa-cp-profile-count-base", 0, WHY_PROFILE },
	{ 'p', "max-vartrack-", 1, WHY_DEBUG },
	{ 'p', "max-debug-marker-count", 0, WHY_DEBUG },
	{ 'p', "min-nondebug-insn-uid", 0, WHY_DEBUG },
	{ 'p', "uninit-control-dep-attempts", 0, WHY_DEBUG },
	{ 'p', "min-pagesize", 0, WHY_DEBUG },
	{ 'p', "ranger-debug", 0, WHY_DEBUG },
	{ 'p', "threader-debug", 0, WHY_DEBUG },
};

const char *tune_space_excluded(enum tune_dim_kind kind, const char *name, int *unsafe)
{
	if (unsafe)
		*unsafe = 0;
	/* the -mllvm options are an allowlist already */
	if (kind == TUNE_DIM_MLLVM)
		return NULL;
	char want = kind == TUNE_DIM_PARAM ? 'p' : 'f';
	for (size_t i = 0; i < sizeof(exclusions) / sizeof(exclusions[0]); i++) {
		const struct exclusion *e = &exclusions[i];
		if (e->kind != want)
			continue;
		if (e->prefix ? strncmp(name, e->name, strlen(e->name)) : strcmp(name, e->name))
			continue;
		if (unsafe)
			*unsafe = !strcmp(e->why, WHY_RESULTS);
		return e->why;
	}
	return NULL;
}

/* ---- building a space ---- */

static void space_init(struct tune_space *s)
{
	memset(s, 0, sizeof(*s));
}

/* Adds a dimension; takes the strings of choices (left empty). */
static void add_dim(struct tune_space *s, enum tune_dim_kind kind, const char *name, struct strvec *choices,
		    size_t start)
{
	s->dims = xrealloc(s->dims, (s->n + 1) * sizeof(*s->dims));
	struct tune_dim *d = &s->dims[s->n++];
	d->kind = kind;
	d->name = xstrdup(name);
	d->choices = choices->v;
	d->nchoices = choices->n;
	d->start = start;
	choices->v = NULL;
	choices->n = choices->alloc = 0;
}

static void note_left_out(struct tune_space *s, const char *label, const char *why)
{
	char *line = xasprintf("%s: %s", label, why);
	if (!sv_contains(&s->excluded, line))
		sv_push(&s->excluded, line);
	free(line);
}

/* Whether the table leaves name out (noted under label), allow_unsafe
 * keeping the results-changing ones. */
static int left_out_by_table(struct tune_space *s, enum tune_dim_kind kind, const char *name, const char *label,
			     int allow_unsafe)
{
	int unsafe;
	const char *why = tune_space_excluded(kind, name, &unsafe);
	if (!why || (unsafe && allow_unsafe))
		return 0;
	note_left_out(s, label, why);
	return 1;
}

static int has_dim(const struct tune_space *s, enum tune_dim_kind kind, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->dims[i].kind == kind && !strcmp(s->dims[i].name, name))
			return 1;
	return 0;
}

/* A whole decimal integer, optionally negative. */
static int parse_integer(const char *s, long long *out)
{
	if (!s || !*s)
		return -1;
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno || end == s || *end)
		return -1;
	*out = v;
	return 0;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;
	return x < y ? -1 : x > y;
}

#define MAX_VALUES 16

/* The values searched around default d: within [lo, hi] when the range
 * is given (every value of a small one), 1/4..4x of d otherwise, never
 * below 0 there; sorted, d among them.  Returns how many. */
static size_t int_values(long long d, int ranged, long long lo, long long hi, long long *v)
{
	size_t n = 0;
	if (ranged && hi >= lo && hi - lo <= 8) {
		for (long long x = lo; x <= hi; x++)
			v[n++] = x;
	} else {
		if (d <= 0) {
			/* no scale around 0 (or -1, "off"): a few small settings */
			static const long long around_zero[] = { 0, 1, 2, 8 };
			for (size_t i = 0; i < 4; i++)
				v[n++] = around_zero[i];
		} else {
			/* a default near LLONG_MAX stays as it is (the clamp below) */
			int room = d <= LLONG_MAX / 4 && d >= LLONG_MIN / 4;
			v[n++] = d / 4;
			v[n++] = d / 2;
			v[n++] = room ? d * 2 : d;
			v[n++] = room ? d * 4 : d;
		}
		for (size_t i = 0; i < n; i++) {
			if (ranged) {
				if (v[i] < lo)
					v[i] = lo;
				if (v[i] > hi)
					v[i] = hi;
			} else {
				/* gcc's params are ints; a value past it is rejected */
				if (v[i] < 0 && d >= 0)
					v[i] = 0;
				if (v[i] > INT_MAX)
					v[i] = d > INT_MAX ? d : INT_MAX;
			}
		}
	}
	v[n++] = d;
	qsort(v, n, sizeof(*v), cmp_ll);
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (!k || v[i] != v[k - 1])
			v[k++] = v[i];
	return k;
}

/* Choices "<prefix><value>" of values v, start at d's. */
static void value_choices(const char *prefix, const long long *v, size_t n, long long d, struct strvec *choices,
			  size_t *start)
{
	*start = 0;
	for (size_t i = 0; i < n; i++) {
		sv_pushf(choices, "%s%lld", prefix, v[i]);
		if (v[i] == d)
			*start = i;
	}
}

/* ---- gcc ---- */

/* What `gcc --help=optimizers` says a -f option takes: its choices
 * ("-fvect-cost-model=[unlimited|dynamic|cheap|very-cheap]") or a number,
 * with its range where it gives one ("-flifetime-dse=<0,2>"). */
struct gcc_option_help {
	char *name;            /* vect-cost-model */
	struct strvec choices; /* empty: takes a number */
	int ranged;
	long long lo, hi;
};

struct gcc_help {
	struct gcc_option_help *v;
	size_t n;
};

static void parse_gcc_help(const char *text, struct gcc_help *h)
{
	memset(h, 0, sizeof(*h));
	for (const char *p = text ? text : ""; *p;) {
		size_t len = strcspn(p, "\n");
		const char *s = p, *end = p + len;
		p += len + (p[len] == '\n');
		while (s < end && isspace((unsigned char)*s))
			s++;
		if (end - s < 3 || s[0] != '-' || s[1] != 'f')
			continue;
		size_t wl = strcspn(s, " \t\n");
		char *word = xasprintf("%.*s", (int)wl, s);
		char *eq = strchr(word, '=');
		if (eq) {
			*eq = '\0';
			h->v = xrealloc(h->v, (h->n + 1) * sizeof(*h->v));
			struct gcc_option_help *o = &h->v[h->n++];
			memset(o, 0, sizeof(*o));
			o->name = xstrdup(word + 2);
			const char *arg = eq + 1;
			if (arg[0] == '[') {
				char *list = xstrdup(arg + 1);
				char *close = strchr(list, ']');
				if (close)
					*close = '\0';
				for (char *save = NULL, *c = strtok_r(list, "|", &save); c; c = strtok_r(NULL, "|", &save))
					sv_push(&o->choices, c);
				free(list);
			} else if (arg[0] == '<') {
				long long lo, hi;
				char tail;
				if (sscanf(arg, "<%lld,%lld%c", &lo, &hi, &tail) == 3 && tail == '>') {
					o->ranged = 1;
					o->lo = lo;
					o->hi = hi;
				}
			}
		}
		free(word);
	}
}

static const struct gcc_option_help *gcc_help_find(const struct gcc_help *h, const char *name, int with_choices)
{
	for (size_t i = 0; i < h->n; i++)
		if (!strcmp(h->v[i].name, name) && (h->v[i].choices.n > 0) == with_choices)
			return &h->v[i];
	return NULL;
}

static void gcc_help_free(struct gcc_help *h)
{
	for (size_t i = 0; i < h->n; i++) {
		free(h->v[i].name);
		sv_clear(&h->v[i].choices);
	}
	free(h->v);
	memset(h, 0, sizeof(*h));
}

/* One "-fNAME\tVALUE" entry of `gcc -Q --help=optimizers`. */
static void gcc_optimizer(struct tune_space *s, const struct gcc_help *help, const char *listed, const char *value,
			  int allow_unsafe)
{
	const char *name = listed + 2;
	int negated = !strncmp(name, "no-", 3);
	if (negated)
		name += 3;
	int on = !strcmp(value, "[enabled]"), off = !strcmp(value, "[disabled]");
	const struct gcc_option_help *choices = gcc_help_find(help, name, 1);
	/* the tail of "[available in C++, ObjC++]" (the value is the last word) */
	int other_language = value[0] && value[0] != '[' && value[strlen(value) - 1] == ']';
	/* a number's entry shares its name with the on/off one (-falign-functions) */
	int number = !on && !off && !choices && !other_language;
	char *label = xasprintf(number ? "-f%s=" : "-f%s", name);

	if (value[0] == '-') {
		/* an alias ("-fhandle-exceptions  -fexceptions"): the flag it names is listed too */
	} else if (left_out_by_table(s, on || off ? TUNE_DIM_FLAG : TUNE_DIM_ENUM, name, label, allow_unsafe)) {
		/* noted in excluded */
	} else if (on || off) {
		if (!has_dim(s, TUNE_DIM_FLAG, name)) {
			struct strvec c = STRVEC_INIT;
			sv_pushf(&c, "-f%s", name);
			sv_pushf(&c, "-fno-%s", name);
			/* "-fno-X [enabled]": the start has X off */
			add_dim(s, TUNE_DIM_FLAG, name, &c, (on != negated) ? 0 : 1);
		}
	} else if (other_language) {
		note_left_out(s, label, WHY_NOT_C);
	} else if (choices) {
		size_t start = choices->choices.n;
		for (size_t i = 0; i < choices->choices.n; i++)
			if (!strcmp(choices->choices.v[i], value))
				start = i;
		if (start == choices->choices.n || choices->choices.n < 2) {
			/* "[default]": which one the start has is not said */
			note_left_out(s, label, "no state listed: not searched");
		} else if (!has_dim(s, TUNE_DIM_ENUM, name)) {
			struct strvec c = STRVEC_INIT;
			for (size_t i = 0; i < choices->choices.n; i++)
				sv_pushf(&c, "-f%s=%s", name, choices->choices.v[i]);
			add_dim(s, TUNE_DIM_ENUM, name, &c, start);
		}
	} else {
		/* a number (-falign-functions=16, -flifetime-dse=2): searched only
		 * where gcc documents a range small enough to try every value */
		const struct gcc_option_help *num = gcc_help_find(help, name, 0);
		long long v;
		if (num && num->ranged && num->hi > num->lo && num->hi - num->lo <= 8 && !parse_integer(value, &v) &&
		    v >= num->lo && v <= num->hi) {
			if (!has_dim(s, TUNE_DIM_ENUM, name)) {
				struct strvec c = STRVEC_INIT;
				for (long long x = num->lo; x <= num->hi; x++)
					sv_pushf(&c, "-f%s=%lld", name, x);
				add_dim(s, TUNE_DIM_ENUM, name, &c, (size_t)(v - num->lo));
			}
		} else {
			note_left_out(s, label, "takes a number: not searched");
		}
	}
	free(label);
}

/* The listed -f options without a state ("-ffast-math", "-fpack-struct=<number>"),
 * which explain_parse_optimizers drops: gcc decides them from others
 * (-ffast-math from its parts), so the start is "neither spelling" and
 * both spellings are choices besides it. */
static void gcc_stateless(struct tune_space *s, const struct gcc_help *help, const char *optimizers_q,
			  int allow_unsafe)
{
	for (const char *p = optimizers_q ? optimizers_q : ""; *p;) {
		size_t len = strcspn(p, "\n");
		const char *l = p, *end = p + len;
		p += len + (p[len] == '\n');
		while (l < end && isspace((unsigned char)*l))
			l++;
		if (end - l < 3 || l[0] != '-' || l[1] != 'f')
			continue;
		size_t wl = strcspn(l, " \t\n");
		const char *rest = l + wl;
		while (rest < end && isspace((unsigned char)*rest))
			rest++;
		if (rest < end)
			continue;
		size_t nl = strcspn(l, "= \t\n");
		int takes_value = l[nl] == '=';
		const char *name = l + 2;
		size_t namelen = nl - 2;
		if (namelen > 3 && !strncmp(name, "no-", 3)) {
			name += 3;
			namelen -= 3;
		}
		char *n = xasprintf("%.*s", (int)namelen, name);
		const struct gcc_option_help *choices = takes_value ? gcc_help_find(help, n, 1) : NULL;
		int number = takes_value && !choices;
		enum tune_dim_kind kind = takes_value ? TUNE_DIM_ENUM : TUNE_DIM_FLAG;
		char *label = xasprintf(number ? "-f%s=" : "-f%s", n);
		if (left_out_by_table(s, kind, n, label, allow_unsafe)) {
			/* noted in excluded */
		} else if (number) {
			note_left_out(s, label, "takes a number: not searched");
		} else if (!has_dim(s, kind, n)) {
			struct strvec c = STRVEC_INIT;
			sv_push(&c, ""); /* the start: gcc's own choice */
			if (choices) {
				for (size_t i = 0; i < choices->choices.n; i++)
					sv_pushf(&c, "-f%s=%s", n, choices->choices.v[i]);
			} else {
				sv_pushf(&c, "-f%s", n);
				sv_pushf(&c, "-fno-%s", n);
			}
			add_dim(s, kind, n, &c, 0);
		}
		free(label);
		free(n);
	}
}

/* One line of `gcc -Q --help=params`:
 * "  --param=align-threshold=<1,65536> \t\t100". */
static void gcc_param(struct tune_space *s, const char *line, int allow_unsafe)
{
	char *name, *value;
	int ranged;
	long long lo = 0, hi = 0;
	if (gcc_param_line(line, &name, &ranged, &lo, &hi, &value) < 0)
		return;
	char *label = xasprintf("--param=%s", name);
	long long d;
	if (left_out_by_table(s, TUNE_DIM_PARAM, name, label, allow_unsafe)) {
		/* noted in excluded */
	} else if (parse_integer(value, &d)) {
		/* "ranger", "[available in C++]" or nothing */
		note_left_out(s, label, "not an integer: not searched");
	} else if (!has_dim(s, TUNE_DIM_PARAM, name)) {
		long long v[MAX_VALUES];
		size_t nv = int_values(d, ranged, lo, hi, v);
		if (nv >= 2) {
			struct strvec c = STRVEC_INIT;
			char *prefix = xasprintf("--param=%s=", name);
			size_t start;
			value_choices(prefix, v, nv, d, &c, &start);
			add_dim(s, TUNE_DIM_PARAM, name, &c, start);
			free(prefix);
		}
	}
	free(value);
	free(label);
	free(name);
}

void tune_space_parse_gcc(const char *optimizers_q, const char *optimizers_help, const char *params_q,
			  int allow_unsafe, struct tune_space *out)
{
	space_init(out);
	struct gcc_help help;
	parse_gcc_help(optimizers_help, &help);
	struct strvec kv = STRVEC_INIT;
	explain_parse_optimizers(optimizers_q, &kv);
	for (size_t i = 0; i < kv.n; i++) {
		char *tab = strchr(kv.v[i], '\t');
		if (!tab)
			continue;
		*tab = '\0';
		gcc_optimizer(out, &help, kv.v[i], tab + 1, allow_unsafe);
		*tab = '\t';
	}
	sv_clear(&kv);
	gcc_stateless(out, &help, optimizers_q, allow_unsafe);
	gcc_help_free(&help);
	char *line;
	for (const char *p = params_q; (line = next_line(&p));) {
		gcc_param(out, line, allow_unsafe);
		free(line);
	}
}

/* ---- clang ---- */

/* The -f flags tried on clang: both spellings must be accepted.  The
 * results-changing and ABI ones are here so excluded says why they are
 * not searched (and allow_unsafe can keep the first kind). */
static const char *const clang_flags[] = {
	"unroll-loops", "reroll-loops", "vectorize", "slp-vectorize", "inline-functions", "inline-hint-functions",
	"inline", "optimize-sibling-calls", "omit-frame-pointer", "jump-tables", "zero-initialized-in-bss",
	"function-sections", "data-sections", "plt", "semantic-interposition", "direct-access-external-data",
	"builtin", "split-machine-functions", "global-isel",
	/* left out unless allow_unsafe */
	"fast-math", "unsafe-math-optimizations", "associative-math", "reciprocal-math", "finite-math-only",
	"signed-zeros", "math-errno", "trapping-math", "rounding-math", "honor-nans", "honor-infinities",
	"approx-func", "protect-parens", "strict-float-cast-overflow", "strict-aliasing",
	"delete-null-pointer-checks", "wrapv", "strict-overflow", "finite-loops", "merge-all-constants",
	/* always left out */
	"common", "short-enums", "pack-struct", "short-wchar", "asynchronous-unwind-tables", "unwind-tables",
	"exceptions", "stack-protector", "stack-clash-protection",
	NULL
};

enum mllvm_type { MLLVM_INT, MLLVM_BOOL, MLLVM_SET };

/* -mllvm options whose -print-all-options value is the one in force
 * (options such as -unroll-threshold print 0 for "not set", so their
 * effective defaults, -unroll-threshold-default/-aggressive, are searched
 * instead). */
struct mllvm_option {
	const char *name;
	enum mllvm_type type;
	const long long *set; /* MLLVM_SET: the values */
	size_t nset;
};

static const long long vector_widths[] = { 0, 1, 2, 4, 8, 16 };
static const long long interleave_counts[] = { 0, 1, 2, 4, 8 };
/* vectorize when the cost is below -threshold: negative is bolder */
static const long long slp_thresholds[] = { -4, -2, 0, 2, 4 };
#define SET(a) MLLVM_SET, a, sizeof(a) / sizeof(a[0])

static const struct mllvm_option mllvm_options[] = {
	{ "inline-threshold", MLLVM_INT, NULL, 0 },
	{ "inlinehint-threshold", MLLVM_INT, NULL, 0 },
	{ "inlinecold-threshold", MLLVM_INT, NULL, 0 },
	{ "unroll-threshold-default", MLLVM_INT, NULL, 0 },
	{ "unroll-threshold-aggressive", MLLVM_INT, NULL, 0 },
	{ "unroll-max-upperbound", MLLVM_INT, NULL, 0 },
	{ "unroll-peel-max-count", MLLVM_INT, NULL, 0 },
	{ "unroll-max-iteration-count-to-analyze", MLLVM_INT, NULL, 0 },
	{ "unroll-and-jam-threshold", MLLVM_INT, NULL, 0 },
	{ "force-vector-width", SET(vector_widths) },
	{ "force-vector-interleave", SET(interleave_counts) },
	{ "vectorizer-min-trip-count", MLLVM_INT, NULL, 0 },
	{ "small-loop-cost", MLLVM_INT, NULL, 0 },
	{ "runtime-memory-check-threshold", MLLVM_INT, NULL, 0 },
	{ "slp-threshold", SET(slp_thresholds) },
	{ "jump-threading-threshold", MLLVM_INT, NULL, 0 },
	{ "max-speculation-depth", MLLVM_INT, NULL, 0 },
	{ "phi-node-folding-threshold", MLLVM_INT, NULL, 0 },
	{ "two-entry-phi-node-folding-threshold", MLLVM_INT, NULL, 0 },
	{ "rotation-max-header-size", MLLVM_INT, NULL, 0 },
	{ "unswitch-threshold", MLLVM_INT, NULL, 0 },
	{ "tail-dup-size", MLLVM_INT, NULL, 0 },
	{ "tail-dup-placement-threshold", MLLVM_INT, NULL, 0 },
	{ "tail-merge-size", MLLVM_INT, NULL, 0 },
	{ "min-jump-table-entries", MLLVM_INT, NULL, 0 },
	{ "loop-to-cold-block-ratio", MLLVM_INT, NULL, 0 },
	{ "x86-cmov-converter-threshold", MLLVM_INT, NULL, 0 },
	{ "enable-loopinterchange", MLLVM_BOOL, NULL, 0 },
	{ "extra-vectorizer-passes", MLLVM_BOOL, NULL, 0 },
	{ "enable-unroll-and-jam", MLLVM_BOOL, NULL, 0 },
	{ "enable-loop-distribute", MLLVM_BOOL, NULL, 0 },
	{ "enable-loop-flatten", MLLVM_BOOL, NULL, 0 },
	{ "enable-loop-versioning-licm", MLLVM_BOOL, NULL, 0 },
	{ "enable-gvn-hoist", MLLVM_BOOL, NULL, 0 },
	{ "enable-gvn-sink", MLLVM_BOOL, NULL, 0 },
	{ "enable-dfa-jump-thread", MLLVM_BOOL, NULL, 0 },
	{ "enable-chr", MLLVM_BOOL, NULL, 0 },
	{ "enable-function-specialization", MLLVM_BOOL, NULL, 0 },
	{ "enable-constraint-elimination", MLLVM_BOOL, NULL, 0 },
	{ "enable-epilogue-vectorization", MLLVM_BOOL, NULL, 0 },
	{ "enable-ext-tsp-block-placement", MLLVM_BOOL, NULL, 0 },
	{ "enable-ipra", MLLVM_BOOL, NULL, 0 },
	{ "vectorizer-maximize-bandwidth", MLLVM_BOOL, NULL, 0 },
	{ "slp-vectorize-hor-store", MLLVM_BOOL, NULL, 0 },
	{ "licm-control-flow-hoisting", MLLVM_BOOL, NULL, 0 },
	{ "x86-cmov-converter", MLLVM_BOOL, NULL, 0 },
};

/* The value -print-all-options gives option name
 * ("  --inline-threshold   = 225   (default: 225)"), or NULL.  Free it. */
static char *llvm_option_value(const char *listing, const char *name)
{
	size_t nl = strlen(name);
	for (const char *p = listing ? listing : ""; *p;) {
		size_t len = strcspn(p, "\n");
		const char *l = p, *end = p + len;
		p += len + (p[len] == '\n');
		while (l < end && isspace((unsigned char)*l))
			l++;
		if (end - l < (ptrdiff_t)nl + 3 || strncmp(l, "--", 2) || strncmp(l + 2, name, nl))
			continue;
		const char *q = l + 2 + nl;
		if (q < end && *q != ' ' && *q != '\t' && *q != '=')
			continue;
		while (q < end && (*q == ' ' || *q == '\t'))
			q++;
		if (q >= end || *q != '=')
			continue;
		q++;
		while (q < end && (*q == ' ' || *q == '\t'))
			q++;
		size_t vl = strcspn(q, " \t\n");
		return xasprintf("%.*s", (int)vl, q);
	}
	return NULL;
}

static void clang_mllvm(struct tune_space *s, const char *listing, const struct mllvm_option *o)
{
	char *value = llvm_option_value(listing, o->name);
	if (!value)
		return;
	struct strvec c = STRVEC_INIT;
	size_t start = 0;
	long long d;
	if (o->type == MLLVM_BOOL) {
		int on = !strcmp(value, "1") || !strcmp(value, "true");
		if (on || !strcmp(value, "0") || !strcmp(value, "false")) {
			sv_pushf(&c, "-mllvm -%s=false", o->name);
			sv_pushf(&c, "-mllvm -%s=true", o->name);
			start = on;
		}
	} else if (!parse_integer(value, &d)) {
		char *prefix = xasprintf("-mllvm -%s=", o->name);
		long long v[MAX_VALUES];
		size_t nv = 0;
		if (o->type == MLLVM_SET) {
			for (size_t i = 0; i < o->nset; i++)
				v[nv++] = o->set[i];
			int has = 0;
			for (size_t i = 0; i < nv; i++)
				has |= v[i] == d;
			if (!has) {
				v[nv++] = d;
				qsort(v, nv, sizeof(*v), cmp_ll);
			}
		} else {
			nv = int_values(d, 0, 0, 0, v);
		}
		if (nv >= 2)
			value_choices(prefix, v, nv, d, &c, &start);
		free(prefix);
	}
	if (c.n >= 2)
		add_dim(s, TUNE_DIM_MLLVM, o->name, &c, start);
	sv_clear(&c);
	free(value);
}

void tune_space_parse_clang(const char *print_all_options, char *const *accepted_flags, int allow_unsafe,
			    struct tune_space *out)
{
	space_init(out);
	for (char *const *f = accepted_flags; f && *f; f++) {
		const char *w = *f;
		/* "-fX" (the start has it), "-fno-X" (the start has it off), or
		 * "-fX|-fno-X" (the start leaves it to clang's default) */
		if (strncmp(w, "-f", 2))
			continue;
		int either = strchr(w, '|') != NULL;
		const char *name = w + 2;
		int negated = !either && !strncmp(name, "no-", 3);
		if (negated)
			name += 3;
		char *n = xasprintf("%.*s", (int)strcspn(name, "|"), name);
		char *label = xasprintf("-f%s", n);
		if (!left_out_by_table(out, TUNE_DIM_FLAG, n, label, allow_unsafe) && !has_dim(out, TUNE_DIM_FLAG, n)) {
			struct strvec c = STRVEC_INIT;
			if (either)
				sv_push(&c, ""); /* the start: neither spelling */
			sv_pushf(&c, "-f%s", n);
			sv_pushf(&c, "-fno-%s", n);
			add_dim(out, TUNE_DIM_FLAG, n, &c, either ? 0 : negated ? 1 : 0);
		}
		free(label);
		free(n);
	}
	for (size_t i = 0; i < sizeof(mllvm_options) / sizeof(mllvm_options[0]); i++)
		clang_mllvm(out, print_all_options, &mllvm_options[i]);
}

/* ---- asking the compiler ---- */

/* comp's argv: its path, its target's flags and the start's, then extra
 * (NULL-terminated). */
static void compiler_argv(const struct compiler *comp, char *const *start_cflags, struct strvec *argv,
			  const char *const *extra)
{
	sv_push(argv, comp->path);
	sv_pushv(argv, comp->target_flags);
	sv_pushv(argv, start_cflags);
	sv_pushv(argv, (char *const *)extra);
}

/* Runs argv (stdin /dev/null) into out and err; 0 when it exited 0.
 * why: what went wrong otherwise. */
static int run_query(char *const *argv, struct strbuf *out, struct strbuf *err, char *why, size_t n)
{
	struct child_exit ex;
	int rc = run_capture(argv, CHILD_DEVNULL, QUERY_TIMEOUT_S, QUERY_CAP, out, err, &ex);
	int ok = rc == 0 && ex.outcome == CHILD_EXITED && ex.exit_code == 0;
	if (!ok && why) {
		char how[128];
		describe_exit(&ex, QUERY_TIMEOUT_S, how, sizeof(how));
		const char *e = err->buf ? err->buf : "";
		snprintf(why, n, "%s: %.*s", how, (int)strcspn(e, "\n"), e);
	}
	return ok ? 0 : -1;
}

static const char *buf_text(const struct strbuf *sb)
{
	return sb->buf ? sb->buf : "";
}

static void append_cflags(struct strbuf *sb, char *const *cflags)
{
	for (char *const *w = cflags; w && *w; w++)
		sb_addf(sb, " %s", *w);
}

/* Compiling an empty unit (stdin /dev/null) with the start's flags plus
 * flags: 0 when it exits 0 and says what baseline says, no more. */
static int empty_unit_as_start(const struct compiler *comp, char *const *start_cflags, char *const *flags,
			       const char *baseline)
{
	static const char *const unit[] = { "-x", "c", "-c", "-o", "/dev/null", "-", NULL };
	struct strvec argv = STRVEC_INIT;
	compiler_argv(comp, start_cflags, &argv, NULL);
	sv_pushv(&argv, flags);
	sv_pushv(&argv, (char *const *)unit);
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	int ok = run_query(argv.v, &out, &err, NULL, 0) == 0 && !strcmp(buf_text(&err), baseline);
	sb_release(&out);
	sb_release(&err);
	sv_clear(&argv);
	return ok ? 0 : -1;
}

/* One spelling of a gcc flag dimension tried for warnings. */
struct flag_word {
	size_t dim;
	const char *word;
};

/* The words in [lo, hi) that make gcc warn for this target
 * (-fdelayed-branch, -fsection-anchors on x86): marked in bad.  All of
 * them are tried in one compile first, halves of a range that warns
 * after, so a clean listing costs one run. */
static void gcc_find_warning_flags(const struct compiler *comp, char *const *start_cflags,
				   const struct flag_word *words, size_t lo, size_t hi, const char *baseline,
				   unsigned char *bad)
{
	if (lo >= hi)
		return;
	struct strvec flags = STRVEC_INIT;
	for (size_t i = lo; i < hi; i++)
		sv_push(&flags, words[i].word);
	int ok = empty_unit_as_start(comp, start_cflags, flags.v, baseline) == 0;
	sv_clear(&flags);
	if (ok)
		return;
	if (hi - lo == 1) {
		bad[lo] = 1;
		return;
	}
	size_t mid = lo + (hi - lo) / 2;
	gcc_find_warning_flags(comp, start_cflags, words, lo, mid, baseline, bad);
	gcc_find_warning_flags(comp, start_cflags, words, mid, hi, baseline, bad);
}

static void free_dim(struct tune_dim *d)
{
	for (size_t i = 0; i < d->nchoices; i++)
		free(d->choices[i]);
	free(d->choices);
	free(d->name);
}

static void gcc_drop_warning_flags(const struct compiler *comp, char *const *start_cflags, struct tune_space *s,
				   const char *baseline)
{
	struct flag_word *words = xcalloc(2 * s->n + 1, sizeof(*words));
	unsigned char *bad = xcalloc(2 * s->n + 1, 1);
	unsigned char *drop = xcalloc(s->n + 1, 1);
	/* a flag's two spellings in one compile would hide each other's
	 * warning (the last one wins): the first non-start spelling of every
	 * flag in one pass, the second (where the start is neither) in another */
	for (size_t pass = 0; pass < 2; pass++) {
		size_t nw = 0;
		for (size_t i = 0; i < s->n; i++) {
			const struct tune_dim *d = &s->dims[i];
			if (d->kind != TUNE_DIM_FLAG)
				continue;
			size_t seen = 0;
			for (size_t c = 0; c < d->nchoices; c++)
				if (c != d->start && d->choices[c][0] && seen++ == pass)
					words[nw++] = (struct flag_word){ i, d->choices[c] };
		}
		memset(bad, 0, nw);
		gcc_find_warning_flags(comp, start_cflags, words, 0, nw, baseline, bad);
		for (size_t w = 0; w < nw; w++)
			if (bad[w] && !drop[words[w].dim]) {
				drop[words[w].dim] = 1;
				note_left_out(s, words[w].word, "gives a warning with the start's flags");
			}
	}
	size_t k = 0;
	for (size_t i = 0; i < s->n; i++) {
		if (drop[i])
			free_dim(&s->dims[i]);
		else
			s->dims[k++] = s->dims[i];
	}
	s->n = k;
	free(drop);
	free(bad);
	free(words);
}

static int read_gcc(const struct compiler *comp, char *const *start_cflags, int allow_unsafe,
		    struct tune_space *out)
{
	static const char *const queries[3][3] = {
		{ "-Q", "--help=optimizers", NULL },
		{ "--help=optimizers", NULL, NULL },
		{ "-Q", "--help=params", NULL },
	};
	struct strbuf text[3] = { STRBUF_INIT, STRBUF_INIT, STRBUF_INIT };
	int rc = 0;
	for (int q = 0; q < 3 && !rc; q++) {
		struct strvec argv = STRVEC_INIT;
		compiler_argv(comp, start_cflags, &argv, queries[q]);
		struct strbuf err = STRBUF_INIT;
		char why[512];
		if (run_query(argv.v, &text[q], &err, why, sizeof(why)) < 0)
			rc = error("cannot list the optimizers of %s (%s %s): %s", comp->path, queries[q][0],
				   queries[q][1] ? queries[q][1] : "", why);
		sb_release(&err);
		sv_clear(&argv);
	}
	if (!rc) {
		tune_space_parse_gcc(buf_text(&text[0]), buf_text(&text[1]), buf_text(&text[2]), allow_unsafe, out);
		/* what the start alone says compiling nothing: the bar for each flag */
		static const char *const unit[] = { "-x", "c", "-c", "-o", "/dev/null", "-", NULL };
		struct strvec argv = STRVEC_INIT;
		compiler_argv(comp, start_cflags, &argv, unit);
		struct strbuf o = STRBUF_INIT, err = STRBUF_INIT;
		char why[512];
		if (run_query(argv.v, &o, &err, why, sizeof(why)) < 0) {
			rc = error("%s cannot compile an empty unit with the start's flags: %s", comp->path, why);
			tune_space_free(out);
		} else {
			gcc_drop_warning_flags(comp, start_cflags, out, buf_text(&err));
		}
		sb_release(&o);
		sb_release(&err);
		sv_clear(&argv);
	}
	if (!rc) {
		struct strbuf src = STRBUF_INIT;
		sb_addf(&src, "%s -Q --help=optimizers --help=params", comp->path);
		append_cflags(&src, start_cflags);
		out->source = sb_detach(&src);
	}
	for (int q = 0; q < 3; q++)
		sb_release(&text[q]);
	return rc;
}

/* clang's cc1 command line (its -### output) for the start plus flag
 * (NULL: the start alone), into cc1; -1 when the driver refuses. */
static int clang_cc1(const struct compiler *comp, char *const *start_cflags, const char *flag,
		     struct strbuf *cc1)
{
	static const char *const unit[] = { "-###", "-x", "c", "-c", "-o", "/dev/null", "-", NULL };
	struct strvec argv = STRVEC_INIT;
	compiler_argv(comp, start_cflags, &argv, NULL);
	if (flag)
		sv_push(&argv, flag);
	sv_pushv(&argv, (char *const *)unit);
	struct strbuf out = STRBUF_INIT;
	int r = run_query(argv.v, &out, cc1, NULL, 0);
	sb_release(&out);
	sv_clear(&argv);
	return r;
}

/* Whether clang takes flag with the start's flags: the same cc1 line as
 * the start (it changes nothing: *same), or a compile of an empty unit
 * with no diagnostic the start does not give. */
static int clang_accepts(const struct compiler *comp, char *const *start_cflags, const char *flag,
			 const char *start_cc1, const char *start_diag, int *same)
{
	struct strbuf cc1 = STRBUF_INIT;
	int ok = clang_cc1(comp, start_cflags, flag, &cc1) == 0;
	*same = ok && !strcmp(buf_text(&cc1), start_cc1);
	sb_release(&cc1);
	if (ok && !*same) {
		char *one[] = { (char *)flag, NULL };
		ok = empty_unit_as_start(comp, start_cflags, one, start_diag) == 0;
	}
	return ok;
}

static int read_clang(const struct compiler *comp, char *const *start_cflags, int allow_unsafe,
		      struct tune_space *out)
{
	static const char *const print_all[] = { "-mllvm", "-print-all-options", "-x", "c", "-c",
						 "-o",     "/dev/null",          "-",  NULL };
	static const char *const unit[] = { "-x", "c", "-c", "-o", "/dev/null", "-", NULL };
	struct strvec argv = STRVEC_INIT;
	struct strbuf listing = STRBUF_INIT, err = STRBUF_INIT, start_cc1 = STRBUF_INIT, diag = STRBUF_INIT,
		      o = STRBUF_INIT;
	char why[512];
	int rc = 0;
	compiler_argv(comp, start_cflags, &argv, print_all);
	if (run_query(argv.v, &listing, &err, why, sizeof(why)) < 0)
		rc = error("cannot list the -mllvm options of %s: %s", comp->path, why);
	/* clang 14 prints it on stdout; elsewhere it may be stderr */
	sb_adds(&listing, buf_text(&err));
	sv_clear(&argv);
	compiler_argv(comp, start_cflags, &argv, unit);
	if (!rc && run_query(argv.v, &o, &diag, why, sizeof(why)) < 0)
		rc = error("%s cannot compile an empty unit with the start's flags: %s", comp->path, why);
	sv_clear(&argv);
	if (!rc && clang_cc1(comp, start_cflags, NULL, &start_cc1) < 0)
		rc = error("%s -### fails with the start's flags", comp->path);

	struct strvec accepted = STRVEC_INIT, notes = STRVEC_INIT;
	size_t tried = 0;
	for (size_t i = 0; !rc && clang_flags[i]; i++) {
		const char *name = clang_flags[i];
		int unsafe;
		if (tune_space_excluded(TUNE_DIM_FLAG, name, &unsafe) && !(unsafe && allow_unsafe)) {
			/* left out whatever clang says: parse notes why */
			sv_pushf(&accepted, "-f%s", name);
			continue;
		}
		tried++;
		char *on = xasprintf("-f%s", name), *off = xasprintf("-fno-%s", name);
		int on_same, off_same;
		int ok = clang_accepts(comp, start_cflags, on, buf_text(&start_cc1), buf_text(&diag), &on_same) &&
			 clang_accepts(comp, start_cflags, off, buf_text(&start_cc1), buf_text(&diag), &off_same);
		if (!ok)
			sv_pushf(&notes, "%s: not accepted by this clang with the start's flags", on);
		else if (on_same && off_same)
			sv_pushf(&notes, "%s: changes nothing with the start's flags", on);
		else if (on_same)
			sv_push(&accepted, on);
		else if (off_same)
			sv_push(&accepted, off);
		else
			sv_pushf(&accepted, "%s|%s", on, off);
		free(on);
		free(off);
	}
	if (!rc) {
		tune_space_parse_clang(buf_text(&listing), accepted.v, allow_unsafe, out);
		for (size_t i = 0; i < notes.n; i++)
			if (!sv_contains(&out->excluded, notes.v[i]))
				sv_push(&out->excluded, notes.v[i]);
		struct strbuf src = STRBUF_INIT;
		sb_adds(&src, comp->path);
		append_cflags(&src, start_cflags);
		sb_addf(&src, ": %zu -f flags tried (each spelling compiled), -mllvm -print-all-options", tried);
		out->source = sb_detach(&src);
	}
	sv_clear(&accepted);
	sv_clear(&notes);
	sb_release(&listing);
	sb_release(&err);
	sb_release(&start_cc1);
	sb_release(&diag);
	sb_release(&o);
	return rc;
}

int tune_space_read(const struct compiler *comp, char *const *start_cflags, int allow_unsafe, struct tune_space *out)
{
	space_init(out);
	if (!comp || !comp->path)
		return error("no compiler to read the tune space of");
	return comp->is_clang ? read_clang(comp, start_cflags, allow_unsafe, out)
			      : read_gcc(comp, start_cflags, allow_unsafe, out);
}

/* ---- points ---- */

void tune_point_flags(const struct tune_space *s, const size_t *val, struct strvec *out)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct tune_dim *d = &s->dims[i];
		if (val[i] == d->start || val[i] >= d->nchoices)
			continue;
		/* "-mllvm -unroll-threshold=600" is two argv words */
		char *words = xstrdup(d->choices[val[i]]);
		for (char *save = NULL, *w = strtok_r(words, " ", &save); w; w = strtok_r(NULL, " ", &save))
			sv_push(out, w);
		free(words);
	}
}

char *tune_point_key(const struct tune_space *s, const size_t *val)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < s->n; i++) {
		const struct tune_dim *d = &s->dims[i];
		if (val[i] != d->start && val[i] < d->nchoices)
			sb_addf(&sb, "%s%s", sb.len ? " " : "", d->choices[val[i]]);
	}
	return sb.buf ? sb_detach(&sb) : xstrdup("");
}

int tune_point_parse(const struct tune_space *s, const char *key, size_t *val)
{
	for (size_t i = 0; i < s->n; i++)
		val[i] = s->dims[i].start;
	unsigned char *seen = xcalloc(s->n + 1, 1);
	char *words = xstrdup(key ? key : "");
	int rc = 0;
	for (char *save = NULL, *w = strtok_r(words, " ", &save); w && !rc; w = strtok_r(NULL, " ", &save)) {
		char *choice = NULL;
		if (!strcmp(w, "-mllvm")) {
			/* "-mllvm -NAME=V": one choice of two words */
			char *arg = strtok_r(NULL, " ", &save);
			if (!arg) {
				rc = -1;
				break;
			}
			choice = xasprintf("-mllvm %s", arg);
		} else {
			choice = xstrdup(w);
		}
		int found = 0;
		for (size_t i = 0; i < s->n && !found; i++)
			for (size_t c = 0; c < s->dims[i].nchoices && !found; c++)
				if (s->dims[i].choices[c][0] && !strcmp(s->dims[i].choices[c], choice)) {
					found = 1;
					/* two words for one dimension: no point's key */
					if (seen[i])
						rc = -1;
					seen[i] = 1;
					val[i] = c;
				}
		if (!found)
			rc = -1;
		free(choice);
	}
	free(words);
	free(seen);
	return rc;
}

size_t tune_point_changes(const struct tune_space *s, const size_t *val)
{
	size_t n = 0;
	for (size_t i = 0; i < s->n; i++)
		n += val[i] != s->dims[i].start;
	return n;
}

/* ---- printing ---- */

static char *dim_label(const struct tune_dim *d)
{
	switch (d->kind) {
	case TUNE_DIM_FLAG:
		return xasprintf("-f%s", d->name);
	case TUNE_DIM_ENUM:
		return xasprintf("-f%s=", d->name);
	case TUNE_DIM_PARAM:
		return xasprintf("--param=%s=", d->name);
	case TUNE_DIM_MLLVM:
		return xasprintf("-mllvm -%s=", d->name);
	}
	return xstrdup(d->name);
}

/* A choice as the list shows it: on, off, default, or its value. */
static const char *choice_word(const struct tune_dim *d, size_t c)
{
	const char *ch = d->choices[c];
	if (d->kind == TUNE_DIM_FLAG)
		return !ch[0] ? "default" : !strncmp(ch, "-fno-", 5) ? "off" : "on";
	const char *eq = strrchr(ch, '=');
	return eq ? eq + 1 : ch;
}

void tune_space_print(const struct tune_space *s, FILE *out)
{
	fprintf(out, "%zu dimensions, from %s\n", s->n, s->source ? s->source : "(unknown)");
	size_t lw = 0, vw = 0;
	char **labels = xcalloc(s->n + 1, sizeof(*labels));
	char **values = xcalloc(s->n + 1, sizeof(*values));
	for (size_t i = 0; i < s->n; i++) {
		const struct tune_dim *d = &s->dims[i];
		labels[i] = dim_label(d);
		struct strbuf sb = STRBUF_INIT;
		for (size_t c = 0; c < d->nchoices; c++)
			sb_addf(&sb, "%s%s", c ? "|" : "", choice_word(d, c));
		values[i] = sb.buf ? sb_detach(&sb) : xstrdup("");
		/* a few very long names or lists do not push every line right */
		if (strlen(labels[i]) > lw && strlen(labels[i]) <= 48)
			lw = strlen(labels[i]);
		if (strlen(values[i]) > vw && strlen(values[i]) <= 40)
			vw = strlen(values[i]);
	}
	for (size_t i = 0; i < s->n; i++) {
		const struct tune_dim *d = &s->dims[i];
		fprintf(out, "  %-*s  %-*s  start: %s\n", (int)lw, labels[i], (int)vw, values[i],
			d->start < d->nchoices ? choice_word(d, d->start) : "?");
		free(labels[i]);
		free(values[i]);
	}
	free(labels);
	free(values);
	if (s->excluded.n) {
		fprintf(out, "left out:\n");
		for (size_t i = 0; i < s->excluded.n; i++)
			fprintf(out, "  %s\n", s->excluded.v[i]);
	}
}

void tune_space_free(struct tune_space *s)
{
	for (size_t i = 0; i < s->n; i++)
		free_dim(&s->dims[i]);
	free(s->dims);
	sv_clear(&s->excluded);
	free(s->source);
	memset(s, 0, sizeof(*s));
}
