/* tune_space_clang.c: see tune_space_clang.h */
#define _GNU_SOURCE
#include "pipeline/tune_space_clang.h"

#include <ctype.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline/tune_space_build.h"

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
	const char *p = listing, *l, *end;
	while ((l = next_line_trimmed(&p, &end))) {
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

/* ---- asking clang ---- */

/* clang's cc1 command line (its -### output) for the start plus flag
 * (NULL: the start alone), into cc1; -1 when the driver refuses. */
static int clang_cc1(const struct compiler *comp, char *const *start_cflags, const char *flag,
		     struct strbuf *cc1)
{
	const char *const unit[] = { "-###", "-x", compiler_x(comp), "-c", "-o", "/dev/null", "-", NULL };
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

int tune_space_read_clang(const struct compiler *comp, char *const *start_cflags, int allow_unsafe,
			  struct tune_space *out)
{
	const char *const print_all[] = { "-mllvm", "-print-all-options", "-x", compiler_x(comp), "-c",
						 "-o",     "/dev/null",          "-",  NULL };
	const char *const unit[] = { "-x", compiler_x(comp), "-c", "-o", "/dev/null", "-", NULL };
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
