/* tune_minimise.c: see tune_minimise.h */
#include "driver/tune_minimise.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/ddmin.h"
#include "core/runcmd.h"
#include "core/util.h"
#include "driver/tune_eval.h"

/* Any finished figure of a key (the minimisation asks configurations the
 * search may have measured). */
static struct tune_eval *eval_by_key(struct tune *t, const char *key)
{
	for (size_t i = t->nev; i-- > t->screen_from;)
		if (!strcmp(t->ev[i].key, key))
			return &t->ev[i];
	return NULL;
}

/* The choices of a key's point that differ from the start, each one
 * element (a "-mllvm -x=1" choice is one). */
static void key_choices(const struct tune *t, const char *key, struct strvec *out)
{
	size_t *val = xcalloc(t->space.n + 1, sizeof(size_t));
	if (tune_point_parse(&t->space, key, val) == 0) {
		for (size_t i = 0; i < t->space.n; i++)
			if (val[i] != t->space.dims[i].start)
				sv_push(out, t->space.dims[i].choices[val[i]]);
	}
	free(val);
}

char *tune_join_words(char *const *v, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < n; i++)
		sb_addf(&sb, "%s%s", i ? " " : "", v[i]);
	return sb.buf ? sb_detach(&sb) : xstrdup("");
}

/* The screen figures of keys, measuring those without one (one batch). */
static void screen_keys(struct tune *t, char *const *keys, size_t n, double *score)
{
	struct tune_pending *pd = xcalloc(n + 1, sizeof(*pd));
	for (size_t i = 0; i < n; i++) {
		pd[i].track = TUNE_MINIMISE;
		pd[i].key = keys[i];
		pd[i].op = "minimise";
		const struct tune_eval *e = !*keys[i] ? NULL : eval_by_key(t, keys[i]);
		if (e) {
			pd[i].ev = (size_t)(e - t->ev);
			pd[i].recorded = 1;
		}
	}
	/* time: more rounds than the search's screen, the flags' shares rest on them */
	tune_evaluate(t, pd, n, t->o->confirm_runs);
	for (size_t i = 0; i < n; i++)
		score[i] = !*keys[i] ? t->start_score : pd[i].recorded ? t->ev[pd[i].ev].score : NAN;
	free(pd);
}

static double gain_of(const struct tune *t, double score)
{
	return isfinite(score) && score > 0 ? log(t->start_score / score) : -INFINITY;
}

static void keeps_gain(void *ctx, const struct strvec *subsets, size_t n, int *ok)
{
	struct tune *t = ctx;
	char **keys = xcalloc(n + 1, sizeof(char *));
	double *score = xcalloc(n + 1, sizeof(double));
	for (size_t i = 0; i < n; i++)
		keys[i] = tune_join_words(subsets[i].v, subsets[i].n);
	screen_keys(t, keys, n, score);
	double need = TUNE_KEEP * gain_of(t, t->best_score);
	for (size_t i = 0; i < n; i++) {
		ok[i] = gain_of(t, score[i]) >= need;
		free(keys[i]);
	}
	free(keys);
	free(score);
}

/* The best over every technique, minimised by ddmin, and each remaining
 * flag's share of the gain. */
void tune_minimise(struct tune *t)
{
	t->best_score = t->start_score;
	t->best_key = xstrdup("");
	for (size_t i = 0; i < t->ntracks; i++)
		if (t->tracks[i].best < t->best_score) {
			t->best_score = t->tracks[i].best;
			free(t->best_key);
			t->best_key = xstrdup(t->tracks[i].best_key);
		}
	t->minimal_score = t->best_score;
	if (!*t->best_key || fb_interrupted)
		return;
	if (t->metric == METRIC_TIME) {
		/* the best of many noisy screens flatters itself (the winner's
		 * curse): its figure again, with the minimisation's rounds */
		struct tune_pending p = { .track = TUNE_MINIMISE, .key = t->best_key, .op = "minimise", .fresh = 1 };
		tune_evaluate(t, &p, 1, t->o->confirm_runs);
		if (p.recorded && isfinite(t->ev[p.ev].score))
			t->best_score = t->minimal_score = t->ev[p.ev].score;
		if (!p.recorded || t->ev[p.ev].verdict != VERDICT_FASTER) {
			/* a lead within the noise has no flags that carry it */
			t->minimise_note = xasprintf("not minimised: screened again, the best against the start is %s",
						     p.recorded && t->ev[p.ev].reason ? t->ev[p.ev].reason : "not measured");
			return;
		}
	}
	struct strvec flags = STRVEC_INIT;
	key_choices(t, t->best_key, &flags);
	tune_ddmin(&flags, keeps_gain, t, &t->minimal, &t->minimise_steps);
	sv_clear(&flags);
	if (fb_interrupted || !t->minimal.n)
		return;
	char *mkey = tune_join_words(t->minimal.v, t->minimal.n);
	screen_keys(t, &mkey, 1, &t->minimal_score);
	free(mkey);
	/* each flag's share: the gain lost without it */
	size_t n = t->minimal.n;
	char **keys = xcalloc(n + 1, sizeof(char *));
	double *score = xcalloc(n + 1, sizeof(double));
	for (size_t i = 0; i < n; i++) {
		struct strvec rest = STRVEC_INIT;
		for (size_t k = 0; k < n; k++)
			if (k != i)
				sv_push(&rest, t->minimal.v[k]);
		keys[i] = tune_join_words(rest.v, rest.n);
		sv_clear(&rest);
	}
	screen_keys(t, keys, n, score);
	t->shares = xcalloc(n, sizeof(*t->shares));
	t->nshares = n;
	double g = gain_of(t, t->minimal_score);
	for (size_t i = 0; i < n; i++) {
		t->shares[i].flag = xstrdup(t->minimal.v[i]);
		t->shares[i].without = score[i];
		t->shares[i].share = g > 0 && isfinite(score[i]) ? log(score[i] / t->minimal_score) / g : NAN;
		free(keys[i]);
	}
	free(keys);
	free(score);
}
