/* tune_space_gcc.c: see tune_space_gcc.h */
#define _GNU_SOURCE
#include "pipeline/tune_space_gcc.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline/flags.h"
#include "pipeline/tune_space_build.h"

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
	const char *p = text, *s, *end;
	while ((s = next_line_trimmed(&p, &end))) {
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
	const char *p = optimizers_q, *l, *end;
	while ((l = next_line_trimmed(&p, &end))) {
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

/* ---- asking gcc ---- */

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

int tune_space_read_gcc_listed(const struct compiler *comp, char *const *cflags, int allow_unsafe,
			       struct tune_space *out)
{
	static const char *const queries[3][3] = {
		{ "-Q", "--help=optimizers", NULL },
		{ "--help=optimizers", NULL, NULL },
		{ "-Q", "--help=params", NULL },
	};
	struct strbuf text[3] = { STRBUF_INIT, STRBUF_INIT, STRBUF_INIT };
	int rc = 0;
	space_init(out);
	for (int q = 0; q < 3 && !rc; q++) {
		struct strvec argv = STRVEC_INIT;
		compiler_argv(comp, cflags, &argv, queries[q]);
		struct strbuf err = STRBUF_INIT;
		char why[512];
		if (run_query(argv.v, &text[q], &err, why, sizeof(why)) < 0)
			rc = error("cannot list the optimizers of %s (%s %s): %s", comp->path, queries[q][0],
				   queries[q][1] ? queries[q][1] : "", why);
		sb_release(&err);
		sv_clear(&argv);
	}
	if (!rc)
		tune_space_parse_gcc(buf_text(&text[0]), buf_text(&text[1]), buf_text(&text[2]), allow_unsafe, out);
	for (int q = 0; q < 3; q++)
		sb_release(&text[q]);
	return rc;
}

int tune_space_read_gcc(const struct compiler *comp, char *const *start_cflags, int allow_unsafe,
			struct tune_space *out)
{
	int rc = tune_space_read_gcc_listed(comp, start_cflags, allow_unsafe, out);
	if (!rc) {
		/* what the start alone says compiling nothing: the bar for each flag */
		const char *const unit[] = { "-x", compiler_x(comp), "-c", "-o", "/dev/null", "-", NULL };
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
	return rc;
}
