/* options.c: see options.h */
#define _GNU_SOURCE
#include "core/options.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

/* One option of a table with its groups opened: where its field is, from
 * the start of the command's struct. */
struct option_ref {
	const struct option_def *def;
	size_t offset;
};

static size_t flatten(const struct option_def *t, size_t base, struct option_ref *out, size_t n)
{
	for (; t->name && n < OPTIONS_MAX; t++) {
		if (t->type == OPT_GROUP) {
			n = flatten(t->group, base + t->offset, out, n);
		} else {
			out[n].def = t;
			out[n].offset = base + t->offset;
			n++;
		}
	}
	return n;
}

/* The index of `name` among refs, or -1. */
static int ref_find(const struct option_ref *refs, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(refs[i].def->name, name))
			return (int)i;
	return -1;
}

const struct option_def *option_find(const struct option_def *table, const char *name)
{
	struct option_ref refs[OPTIONS_MAX];
	size_t n = flatten(table, 0, refs, 0);
	int i = ref_find(refs, n, name);
	return i < 0 ? NULL : refs[i].def;
}

int option_index(const struct option_def *table, const struct option_def *def)
{
	struct option_ref refs[OPTIONS_MAX];
	size_t n = flatten(table, 0, refs, 0);
	for (size_t i = 0; i < n; i++)
		if (refs[i].def == def)
			return (int)i;
	return -1;
}

int option_given(const struct option_def *table, const unsigned char *given, const char *name)
{
	int i = option_index(table, option_find(table, name));
	return i >= 0 && given[i];
}

static void range_text(const struct option_def *d, char *buf, size_t n)
{
	if (d->type == OPT_UINT)
		snprintf(buf, n, "an integer from %.0f to %.0f", d->min, d->max);
	else
		snprintf(buf, n, "a number from %g to %g", d->min, d->max);
}

/* Sets the field of d at `field` from text. */
static int set_field(const struct option_def *d, char *field, const char *value, char *err, size_t errn)
{
	char range[96];
	switch (d->type) {
	case OPT_STRING:
		free(*(char **)field);
		*(char **)field = xstrdup(value);
		return 0;
	case OPT_FLAG:
		*(int *)field = 1;
		return 0;
	case OPT_LIST:
		sv_push((struct strvec *)field, value);
		return 0;
	case OPT_UINT: {
		char *end;
		errno = 0;
		long long v = strtoll(value, &end, 10);
		if (errno || end == value || *end || (double)v < d->min || (double)v > d->max) {
			range_text(d, range, sizeof(range));
			snprintf(err, errn, "'%s' must be %s, not '%s'", d->name, range, value);
			return -1;
		}
		*(unsigned *)field = (unsigned)v;
		return 0;
	}
	case OPT_DOUBLE: {
		char *end;
		errno = 0;
		double v = strtod(value, &end);
		if (errno || end == value || *end || !isfinite(v) || v < d->min || v > d->max) {
			range_text(d, range, sizeof(range));
			snprintf(err, errn, "'%s' must be %s, not '%s'", d->name, range, value);
			return -1;
		}
		*(double *)field = v;
		return 0;
	}
	case OPT_SIZE: {
		uint64_t v;
		if (parse_u64(value, &v) < 0 || (double)v < d->min || (double)v > d->max) {
			snprintf(err, errn, "'%s' must be a size from %.0f to %.0f (0x.. and K/M/G allowed), not '%s'",
				 d->name, d->min, d->max, value);
			return -1;
		}
		*(uint64_t *)field = v;
		return 0;
	}
	case OPT_GROUP:
		break;
	}
	snprintf(err, errn, "'%s' is a group of options, not one", d->name);
	return -1;
}

int option_set_value(const struct option_def *d, void *dst, const char *value, char *err, size_t errn)
{
	return set_field(d, (char *)dst + d->offset, value, err, errn);
}

int option_set(const struct option_def *table, void *dst, const char *name, const char *value, char *err,
	       size_t errn)
{
	struct option_ref refs[OPTIONS_MAX];
	size_t n = flatten(table, 0, refs, 0);
	int i = ref_find(refs, n, name);
	if (i < 0) {
		snprintf(err, errn, "unknown option '%s'", name);
		return -1;
	}
	return set_field(refs[i].def, (char *)dst + refs[i].offset, value, err, errn);
}

static int set_defaults(const struct option_ref *refs, size_t n, void *dst)
{
	char err[512];
	for (size_t i = 0; i < n; i++)
		if (refs[i].def->def && set_field(refs[i].def, (char *)dst + refs[i].offset, refs[i].def->def, err,
						  sizeof(err)) < 0)
			return error("the default of --%s: %s", refs[i].def->name, err);
	return 0;
}

int options_defaults(const struct option_def *table, void *dst)
{
	struct option_ref refs[OPTIONS_MAX];
	size_t n = flatten(table, 0, refs, 0);
	return set_defaults(refs, n, dst);
}

static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t *row = xcalloc(lb + 1, sizeof(size_t));
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t prev = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t cur = row[j];
			size_t sub = prev + (a[i - 1] != b[j - 1]);
			size_t del = row[j] + 1, ins = row[j - 1] + 1;
			row[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
			prev = cur;
		}
	}
	size_t r = row[lb];
	free(row);
	return r;
}

const char *closest_word(const char *const *words, const char *name)
{
	const char *best = NULL;
	size_t best_d = (size_t)-1;
	for (; *words; words++) {
		size_t d = edit_distance(*words, name);
		if (d < best_d) {
			best_d = d;
			best = *words;
		}
	}
	/* only a plausible typo: at most a third of the name wrong */
	if (best && best_d <= 1 + strlen(name) / 3)
		return best;
	return NULL;
}

static const char *ref_closest(const struct option_ref *refs, size_t n, const char *name)
{
	const char *words[OPTIONS_MAX + 1];
	for (size_t i = 0; i < n; i++)
		words[i] = refs[i].def->name;
	words[n] = NULL;
	return closest_word(words, name);
}

const char *option_closest(const struct option_def *table, const char *name)
{
	struct option_ref refs[OPTIONS_MAX];
	size_t n = flatten(table, 0, refs, 0);
	return ref_closest(refs, n, name);
}

/* The options_parse of a flattened table; OPTIONS_FIRST ends the options
 * at the first positional. */
static int parse_refs(const struct option_ref *refs, size_t nrefs, void *dst, unsigned char *given, int argc,
		      char **argv, char **pos, int max_pos, enum option_order order)
{
	int npos = 0;
	char err[512];
	if (set_defaults(refs, nrefs, dst) < 0)
		return -1;
	for (int i = 0; i < argc; i++) {
		const char *arg = argv[i];
		int k = -1;
		const char *value = NULL;
		int is_option = arg[0] == '-' && arg[1] && !(arg[1] == '-' && !arg[2]);
		if (!strcmp(arg, "--") || (!is_option && order == OPTIONS_FIRST)) {
			/* the rest is positional */
			for (i += !strcmp(arg, "--"); i < argc; i++) {
				if (!pos || npos >= max_pos)
					return error("unexpected argument '%s'", argv[i]);
				pos[npos++] = argv[i];
			}
			break;
		}
		if (arg[0] == '-' && arg[1] == '-' && arg[2]) {
			char name[128];
			const char *eq = strchr(arg + 2, '=');
			size_t len = eq ? (size_t)(eq - arg - 2) : strlen(arg + 2);
			snprintf(name, sizeof(name), "%.*s", (int)len, arg + 2);
			k = ref_find(refs, nrefs, name);
			if (k < 0) {
				const char *near = ref_closest(refs, nrefs, name);
				if (near)
					return error("unknown option '--%s'; did you mean '--%s'?", name, near);
				return error("unknown option '--%s' (see --help)", name);
			}
			if (eq)
				value = eq + 1;
		} else if (arg[0] == '-' && arg[1] && arg[1] != '-' && !arg[2]) {
			for (size_t j = 0; j < nrefs; j++)
				if (refs[j].def->short_name == arg[1])
					k = (int)j;
			if (k < 0)
				return error("unknown option '%s' (see --help)", arg);
		} else {
			if (!pos || npos >= max_pos)
				return error("unexpected argument '%s'", arg);
			pos[npos++] = argv[i];
			continue;
		}
		const struct option_def *d = refs[k].def;
		if (d->type == OPT_FLAG) {
			if (value)
				return error("option '--%s' takes no value", d->name);
			value = "1";
		} else if (!value) {
			if (i + 1 >= argc)
				return error("option '--%s' needs a value (%s)", d->name, d->metavar ? d->metavar : "VALUE");
			value = argv[++i];
		}
		if (set_field(d, (char *)dst + refs[k].offset, value, err, sizeof(err)) < 0)
			return error("%s", err);
		if (given)
			given[k] = 1;
	}
	return npos;
}

int options_parse(const struct option_def *table, void *dst, unsigned char *given, int argc, char **argv,
		  char **pos, int max_pos)
{
	struct option_ref refs[OPTIONS_MAX];
	size_t n = flatten(table, 0, refs, 0);
	return parse_refs(refs, n, dst, given, argc, argv, pos, max_pos, OPTIONS_ANYWHERE);
}

void options_help(const struct option_def *table, FILE *out)
{
	struct option_ref refs[OPTIONS_MAX];
	size_t n = flatten(table, 0, refs, 0);
	for (size_t i = 0; i < n; i++) {
		const struct option_def *d = refs[i].def;
		char left[96];
		if (d->short_name)
			snprintf(left, sizeof(left), "-%c, --%s%s%s", d->short_name, d->name, d->metavar ? " " : "",
				 d->metavar ? d->metavar : "");
		else
			snprintf(left, sizeof(left), "    --%s%s%s", d->name, d->metavar ? " " : "",
				 d->metavar ? d->metavar : "");
		fprintf(out, "  %-30s %s", left, d->help);
		if (d->type == OPT_UINT || d->type == OPT_DOUBLE)
			fprintf(out, " [%g..%g]", d->min, d->max);
		if (d->def)
			fprintf(out, " (default %s)", d->def);
		fprintf(out, "\n");
	}
}

/* ---- shared groups ---- */

#define GO(f) offsetof(struct global_opts, f)
const struct option_def options_global[] = {
	{ .name = "help", .short_name = 'h', .type = OPT_FLAG, .offset = GO(help), .help = "show this help" },
	{ .name = NULL },
};

const struct option_def options_timeout[] = {
	{ .name = "timeout", .type = OPT_DOUBLE, .metavar = "SECONDS", .min = 0.1, .max = 86400, .help = "limit of one run of a program", .def = "120" },
	{ .name = NULL },
};

const struct option_def options_dry_run[] = {
	{ .name = "dry-run", .short_name = 'n', .type = OPT_FLAG, .help = "plan, build and time through the mock executor: nothing compiled or run, made-up figures (the output says so)" },
	{ .name = NULL },
};

const struct option_def options_build_timeout[] = {
	{ .name = "build-timeout", .type = OPT_DOUBLE, .metavar = "SECONDS", .min = 1, .max = 86400, .help = "limit of one compile", .def = "300" },
	{ .name = NULL },
};

#define SK(f) offsetof(struct suite_key_opts, f)
const struct option_def options_suite_keys[] = {
	{ .name = "runs", .short_name = 'r', .type = OPT_UINT, .offset = SK(runs), .metavar = "N", .min = 1, .max = 10000, .help = "timed runs per cell; alone, exactly that many (default: the suite's, else 5, at least, see --precision)" },
	{ .name = "warmup", .short_name = 'w', .type = OPT_UINT, .offset = SK(warmup), .metavar = "N", .max = 1000, .help = "untimed runs first (default: the suite's, else 1)" },
	{ .name = "cell-budget", .type = OPT_DOUBLE, .offset = SK(cell_budget), .metavar = "SECONDS", .min = 0.1, .max = 86400, .help = "the time a cell's runs may take while --precision wants more (up to 4 times that for the runs a 95 % interval needs, 3 times where its answer may flip, or 7 for those runs; default: the suite's, else 2.5)" },
	{ .name = NULL },
};

#define MX(f) offsetof(struct matrix_opts, f)
const struct option_def options_matrix[] = {
	{ .name = "compilers", .type = OPT_STRING, .offset = MX(compilers), .metavar = "LIST", .help = "the compilers, e.g. gcc,clang-19 (default: the suite's)" },
	{ .name = "opt", .type = OPT_STRING, .offset = MX(opt), .metavar = "LIST", .help = "the -O levels, e.g. -O2,-O3 (default: the suite's)" },
	{ .name = "march", .type = OPT_STRING, .offset = MX(march), .metavar = "LIST", .help = "the -march values, e.g. native,x86-64-v3; default: no -march; profile: the cpu profile's (default: the suite's)" },
	{ .name = "flags", .type = OPT_STRING, .offset = MX(flags), .metavar = "'NAME=FLAGS;...'", .help = "named flag sets crossed with the rest, e.g. 'base=;lto=-flto'; NAME=pgo: a profile-guided build (default: the suite's)" },
	{ .name = NULL },
};

void matrix_opts_free(struct matrix_opts *o)
{
	free(o->compilers);
	free(o->opt);
	free(o->march);
	free(o->flags);
}

/* the build cache's default is under the project (project_root()), not the
 * working directory: its users compute it */
#define RL(f) offsetof(struct run_like_opts, f)
const struct option_def options_run_like[] = {
	{ .name = "cpu", .type = OPT_STRING, .offset = RL(cpu), .metavar = "PROFILE", .help = "cpu profile: a name under configs/cpus, a path, or host", .def = "host" },
	{ .name = "suite", .type = OPT_STRING, .offset = RL(suite), .metavar = "SUITE", .help = "suite: a name under configs/suites or a path", .def = "quick" },
	{ .name = "out", .short_name = 'o', .type = OPT_STRING, .offset = RL(out), .metavar = "DIR", .help = "run folder (default results/<id>)" },
	OPTION_GROUP(options_suite_keys, struct run_like_opts, keys),
	OPTION_GROUP(options_matrix, struct run_like_opts, matrix),
	OPTION_GROUP(options_timeout, struct run_like_opts, timeout),
	OPTION_GROUP(options_build_timeout, struct run_like_opts, build_timeout),
	{ .name = "cache", .type = OPT_STRING, .offset = RL(cache), .metavar = "DIR", .help = "build cache (default: build/cache of the project)" },
	{ .name = "no-counters", .type = OPT_FLAG, .offset = RL(no_counters), .help = "do not count cycles or instructions of compute cells" },
	{ .name = "no-render", .type = OPT_FLAG, .offset = RL(no_render), .help = "do not render tables, plots and index.html at the end (plots/render.sh)" },
	{ .name = NULL },
};

void run_like_opts_free(struct run_like_opts *o)
{
	free(o->cpu);
	free(o->suite);
	free(o->out);
	free(o->cache);
	matrix_opts_free(&o->matrix);
}

/* ---- commands ---- */

/* Whether the command has options besides --help (its usage says
 * "[options]"). */
static int has_options(const struct command_def *c)
{
	struct option_ref refs[OPTIONS_MAX];
	size_t n = flatten(c->options, 0, refs, 0);
	return n > (size_t)(ref_find(refs, n, "help") >= 0);
}

/* One form: its positionals, and where the options go. */
static void synopsis_form(const struct command_def *c, const char *form, FILE *out)
{
	/* options first where they must come first */
	int opts = has_options(c);
	fprintf(out, "flagbench %s", c->name);
	if (opts && c->order == OPTIONS_FIRST)
		fprintf(out, " [options]");
	if (form)
		fprintf(out, " %s", form);
	if (opts && c->order == OPTIONS_ANYWHERE)
		fprintf(out, " [options]");
}

void command_synopsis(const struct command_def *c, const char *sep, FILE *out)
{
	synopsis_form(c, c->synopsis, out);
	if (c->synopsis_alt) {
		fprintf(out, "%s", sep);
		synopsis_form(c, c->synopsis_alt, out);
	}
}

void command_help(const struct command_def *c, FILE *out)
{
	fprintf(out, "usage: ");
	command_synopsis(c, "\n       ", out);
	fprintf(out, "\n\n%s\n\n", c->summary);
	options_help(c->options, out);
	if (c->help_more)
		c->help_more(out);
}

int command_usage_error(const struct command_def *c, const char *fmt, ...)
{
	char why[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	fflush(stdout);
	fprintf(stderr, "flagbench: %s (usage: ", why);
	command_synopsis(c, " or ", stderr);
	fprintf(stderr, "; see --help)\n");
	return EXIT_USAGE;
}

enum parse_status command_parse(const struct command_def *c, void *dst, unsigned char *given, int argc,
				char **argv, char **pos, int *npos)
{
	struct option_ref refs[OPTIONS_MAX];
	size_t n = flatten(c->options, 0, refs, 0);
	int cap = c->max_pos < 0 ? argc : c->max_pos;
	int np = parse_refs(refs, n, dst, given, argc - 1, argv + 1, pos, cap, c->order);
	if (np < 0)
		return PARSE_USAGE;
	/* --help answers before the positionals are counted */
	int h = ref_find(refs, n, "help");
	if (h >= 0 && *(int *)((char *)dst + refs[h].offset)) {
		command_help(c, stdout);
		return PARSE_HELP;
	}
	if (np < c->min_pos) {
		command_usage_error(c, "%s: %s", c->name, np ? "too few arguments" : "missing arguments");
		return PARSE_USAGE;
	}
	if (npos)
		*npos = np;
	return PARSE_OK;
}

int parse_exit(enum parse_status s)
{
	return s == PARSE_HELP ? EXIT_ALL_OK : EXIT_USAGE;
}
