/* tune_confirm.c: see tune_confirm.h */
#include "driver/tune_confirm.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/runcmd.h"
#include "core/util.h"
#include "driver/tune_eval.h"
#include "driver/tune_minimise.h"

static void add_confirmed(struct tune *t, const char *label, const char *key, const char *opt, double screen)
{
	for (size_t i = 0; i < t->nconfirmed; i++)
		if (!opt && t->confirmed[i].key && !strcmp(t->confirmed[i].key, key)) {
			/* the same flags found twice: one line, both names */
			char *l = xasprintf("%s, %s", t->confirmed[i].label, label);
			free(t->confirmed[i].label);
			t->confirmed[i].label = l;
			return;
		}
	t->confirmed = xrealloc(t->confirmed, (t->nconfirmed + 1) * sizeof(*t->confirmed));
	struct tune_confirmed *c = &t->confirmed[t->nconfirmed++];
	memset(c, 0, sizeof(*c));
	c->label = xstrdup(label);
	c->key = opt ? xstrdup(opt) : xstrdup(key);
	c->cell = -1;
	c->screen = screen;
	c->vs_start.ratio = c->answer_vs.ratio = NAN;
	if (opt)
		c->cell = -2; /* an -O level: built with opt instead of the start's */
}

/* The cells of confirmed line i: its layouts, consecutive from ->cell. */
static size_t line_cells(const struct tune *t, size_t i, struct cell **out)
{
	const struct tune_confirmed *c = &t->confirmed[i];
	unsigned K = t->o->layouts ? t->o->layouts : 1;
	if (c->cell < 0)
		return 0;
	size_t n = 0;
	for (unsigned k = 0; k < K; k++) {
		struct cell *x = &t->confirm_plan.cells[(size_t)c->cell + k];
		if (x->measure.time.n)
			out[n++] = x;
	}
	return n;
}

static size_t words(const char *key)
{
	size_t n = 0;
	for (const char *p = key; *p; p++)
		n += *p != ' ' && (p == key || p[-1] == ' ');
	return n;
}

/* Lines whose builds are the same binaries as an earlier line's (flags
 * that change nothing) are that line: one measurement, both names. */
static void merge_same_binaries(struct tune *t, unsigned K)
{
	for (size_t i = 1; i < t->nconfirmed; i++) {
		struct tune_confirmed *c = &t->confirmed[i];
		const struct cell *ci = c->cell >= 0 ? &t->confirm_plan.cells[c->cell] : NULL;
		if (!ci || !ci->build.sha256[0])
			continue;
		for (size_t j = 0; j < i; j++) {
			struct tune_confirmed *d = &t->confirmed[j];
			const struct cell *cj = d->cell >= 0 ? &t->confirm_plan.cells[d->cell] : NULL;
			if (!cj || !cells_same_program(cj, ci))
				continue;
			char *l = xasprintf("%s, %s", d->label, c->label);
			free(d->label);
			d->label = l;
			/* the line's flags are the fewest that give it: the minimal
			 * set's, not a best's that carries passengers */
			if (words(c->key) < words(d->key)) {
				char *k = d->key;
				d->key = c->key;
				c->key = k;
			}
			for (unsigned k = 0; k < K; k++)
				cell_set_status(&t->confirm_plan.cells[(size_t)c->cell + k], CELL_SKIPPED, "the same binary as %s",
						d->label);
			free(c->label);
			free(c->key);
			memmove(c, c + 1, (t->nconfirmed - i - 1) * sizeof(*c));
			t->nconfirmed--;
			i--;
			break;
		}
	}
}

void tune_confirm(struct tune *t)
{
	const struct cell_spec *proto = &t->start.plan.cells[t->proto].spec;
	add_confirmed(t, "start", "", NULL, t->start_score);
	for (size_t i = 0; i < t->ntracks; i++)
		if (t->tracks[i].best_key && *t->tracks[i].best_key) {
			char *l = xasprintf("best (%s)", tune_technique_name(t->tracks[i].technique));
			add_confirmed(t, l, t->tracks[i].best_key, NULL, t->tracks[i].best);
			free(l);
		}
	char *mkey = tune_join_words(t->minimal.v, t->minimal.n);
	if (*mkey)
		add_confirmed(t, "minimal", mkey, NULL, t->minimal_score);
	free(mkey);
	static const char *const levels[] = { "-O2", "-O3", "-Os", NULL };
	for (const char *const *l = levels; *l; l++)
		if (strcmp(*l, proto->opt))
			add_confirmed(t, *l, "", *l, NAN);
	unsigned K = t->o->layouts ? t->o->layouts : 1;
	size_t alloc = 0;
	for (size_t i = 0; i < t->nconfirmed; i++) {
		struct tune_confirmed *c = &t->confirmed[i];
		int is_opt = c->cell == -2;
		char *tag = xasprintf("%s %s", proto->config, is_opt ? c->key : c->label);
		for (unsigned k = 0; k < K; k++) {
			int idx = tune_add_clone(&t->confirm_plan, &alloc, proto, is_opt ? "" : c->key, is_opt ? c->key : NULL,
					    tag, k, K);
			if (k == 0)
				c->cell = idx;
		}
		free(tag);
	}
	struct session_batch sb = { .upto = SESSION_VERIFIED };
	session_ready(&t->session, &t->confirm_plan, &sb);
	merge_same_binaries(t, K);
	struct cell **cells = xcalloc(t->confirm_plan.n + 1, sizeof(*cells));
	size_t m = 0;
	for (size_t k = 0; k < sb.nmeasure; k++)
		if (t->confirm_plan.cells[sb.measure[k]].status == CELL_PENDING)
			cells[m++] = &t->confirm_plan.cells[sb.measure[k]];
	session_batch_release(&sb);
	fprintf(stderr, "flagbench: tune: confirming %zu builds x %u layout%s, %u rounds\n", t->nconfirmed, K,
		K > 1 ? "s" : "", t->o->confirm_runs);
	if (m && !fb_interrupted)
		tune_time_rounds(t, cells, m, t->o->confirm_runs);
	free(cells);
	t->confirm_level = comparison_bonferroni_level(0.05, t->nconfirmed > 1 ? t->nconfirmed - 1 : 1);
	struct cell **a = xcalloc(K + 1, sizeof(*a)), **b = xcalloc(K + 1, sizeof(*b));
	size_t na = line_cells(t, 0, a);
	t->better_index = -1;
	for (size_t i = 1; i < t->nconfirmed && na; i++) {
		struct tune_confirmed *c = &t->confirmed[i];
		size_t nb = line_cells(t, i, b);
		if (nb && tune_compare_groups(a, na, b, nb, t->confirm_level, &c->vs_start) == 0)
			comparison_describe(&c->vs_start, c->text, sizeof(c->text));
	}
	/* the answer: the minimal set where it is faster, else a best that is */
	for (size_t i = 1; i < t->nconfirmed; i++) {
		const struct tune_confirmed *c = &t->confirmed[i];
		if (c->vs_start.verdict != VERDICT_FASTER || !strncmp(c->label, "-O", 2))
			continue;
		if (t->better_index < 0 || strstr(c->label, "minimal"))
			t->better_index = (int)i;
	}
	t->better = t->better_index >= 0;
	size_t ans = t->better ? (size_t)t->better_index : 0;
	size_t nans = line_cells(t, ans, a);
	for (size_t i = 0; i < t->nconfirmed && nans; i++) {
		struct tune_confirmed *c = &t->confirmed[i];
		size_t nb = line_cells(t, i, b);
		if (i != ans && nb && tune_compare_groups(b, nb, a, nans, t->confirm_level, &c->answer_vs) == 0)
			comparison_describe(&c->answer_vs, c->answer_text, sizeof(c->answer_text));
	}
	free(a);
	free(b);
}
