/* tune_space_opt.c: see tune_space_opt.h */
#define _GNU_SOURCE
#include "pipeline/tune_space_opt.h"

#include <stdlib.h>
#include <string.h>

#include "pipeline/tune_space_build.h"

#define NO_CHOICE ((size_t)-1)

/* The order a search for speed tries them: the next level up first, then
 * the start's, then the two that trade speed for size or compile time
 * (-Os wins where code size is what limits, -O1 rarely). */
static const char *const searched_levels[] = { "-O3", "-O2", "-Os", "-O1" };

size_t tune_space_opt_dim(const struct tune_space *s)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->dims[i].kind == TUNE_DIM_OPT)
			return i;
	return NO_CHOICE;
}

const char *tune_cflags_opt(char *const *cflags)
{
	const char *opt = NULL;
	for (size_t i = 0; cflags && cflags[i]; i++)
		if (!strncmp(cflags[i], "-O", 2))
			opt = cflags[i];
	return opt;
}

size_t tune_opt_levels(const char *start_opt, int allow_unsafe, struct tune_space *s, const char **levels,
		       size_t *start)
{
	size_t n = 0;
	*start = NO_CHOICE;
	for (size_t i = 0; i < sizeof(searched_levels) / sizeof(*searched_levels); i++) {
		if (!strcmp(searched_levels[i], start_opt))
			*start = n;
		levels[n++] = searched_levels[i];
	}
	/* -O3 -ffast-math and more: a faster build that prints other numbers is no win */
	if (allow_unsafe) {
		if (!strcmp(start_opt, "-Ofast"))
			*start = n;
		levels[n++] = "-Ofast";
	} else if (s) {
		note_left_out(s, "-Ofast", WHY_RESULTS);
	}
	if (*start == NO_CHOICE) {
		/* -O0, -Og, -Oz: the start's own, last */
		*start = n;
		levels[n++] = start_opt;
	}
	return n;
}

/* The dimension of at that is d (the same kind and name), or NULL. */
static const struct tune_dim *same_dim(const struct tune_space *at, const struct tune_dim *d)
{
	for (size_t i = 0; i < at->n; i++)
		if (at->dims[i].kind == d->kind && !strcmp(at->dims[i].name, d->name))
			return &at->dims[i];
	return NULL;
}

/* What a level sets d to, spelled as a choice ("-fpeel-loops",
 * "--param=max-inline-insns-auto=30"), or NULL where it says nothing. */
static const char *level_setting(const struct tune_space *at, const struct tune_dim *d)
{
	const struct tune_dim *ld = same_dim(at, d);
	if (!ld || ld->start >= ld->nchoices || !ld->choices[ld->start][0])
		return NULL;
	return ld->choices[ld->start];
}

static size_t choice_index(const struct tune_dim *d, const char *choice)
{
	for (size_t c = 0; c < d->nchoices; c++)
		if (!strcmp(d->choices[c], choice))
			return c;
	return NO_CHOICE;
}

/* A --param's value, for keeping its choices in order. */
static long long param_value(const char *choice)
{
	const char *eq = strrchr(choice, '=');
	return eq ? strtoll(eq + 1, NULL, 10) : 0;
}

/* Adds choice to d (a level's value the start's range lacked): a param's
 * in value order after the "" default, any other last. */
static void add_choice(struct tune_dim *d, const char *choice)
{
	d->choices = xrealloc(d->choices, (d->nchoices + 1) * sizeof(*d->choices));
	size_t at = d->nchoices;
	if (d->kind == TUNE_DIM_PARAM)
		while (at > 1 && param_value(d->choices[at - 1]) > param_value(choice))
			at--;
	memmove(d->choices + at + 1, d->choices + at, (d->nchoices - at) * sizeof(*d->choices));
	d->choices[at] = xstrdup(choice);
	d->nchoices++;
}

/* Ties d to the levels where one of them sets it otherwise than the start
 * does: "" (as the level says) becomes its start, the start's own setting
 * an explicit choice. */
static void tie_dim(struct tune_dim *d, size_t n, size_t start, const struct tune_space *at_level)
{
	const char *own = d->choices[d->start];
	int differs = 0;
	for (size_t i = 0; i < n && own[0]; i++) {
		const char *set = i == start ? NULL : level_setting(&at_level[i], d);
		differs |= set && strcmp(set, own);
	}
	if (!differs)
		return;
	char *own_copy = xstrdup(own); /* add_choice moves the choices */
	/* "" first: the start's choice, which adds no word */
	d->choices = xrealloc(d->choices, (d->nchoices + 1) * sizeof(*d->choices));
	memmove(d->choices + 1, d->choices, d->nchoices * sizeof(*d->choices));
	d->choices[0] = xstrdup("");
	d->nchoices++;
	d->start = 0;
	for (size_t i = 0; i < n; i++) {
		const char *set = i == start ? NULL : level_setting(&at_level[i], d);
		if (set && choice_index(d, set) == NO_CHOICE)
			add_choice(d, set);
	}
	d->level_choice = xcalloc(n, sizeof(*d->level_choice));
	for (size_t i = 0; i < n; i++) {
		const char *set = i == start ? own_copy : level_setting(&at_level[i], d);
		/* a level that lists no setting: as it says, which is unknown */
		d->level_choice[i] = set ? choice_index(d, set) : 0;
	}
	free(own_copy);
}

void tune_space_add_levels(struct tune_space *s, const char *const *levels, size_t n, size_t start,
			   const struct tune_space *at_level)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->dims[i].kind != TUNE_DIM_OPT)
			tie_dim(&s->dims[i], n, start, at_level);
	struct strvec c = STRVEC_INIT;
	for (size_t i = 0; i < n; i++)
		sv_push(&c, levels[i]);
	add_dim(s, TUNE_DIM_OPT, "O", &c, start);
	/* first: a point's key then names its level first */
	struct tune_dim opt = s->dims[s->n - 1];
	memmove(s->dims + 1, s->dims, (s->n - 1) * sizeof(*s->dims));
	s->dims[0] = opt;
}

char *tune_key_split_opt(const char *key, char **opt)
{
	*opt = NULL;
	struct strbuf sb = STRBUF_INIT;
	char *words = xstrdup(key ? key : "");
	int mllvm = 0; /* "-mllvm -X": X is an LLVM option, whatever its name */
	for (char *save = NULL, *w = strtok_r(words, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		if (!mllvm && !strncmp(w, "-O", 2) && !*opt)
			*opt = xstrdup(w);
		else
			sb_addf(&sb, "%s%s", sb.len ? " " : "", w);
		mllvm = !mllvm && !strcmp(w, "-mllvm");
	}
	free(words);
	return sb.buf ? sb_detach(&sb) : xstrdup("");
}
