/* model_answer.c: see model_answer.h */
#define _GNU_SOURCE
#include "report/model_answer.h"
#include "report/model_compare.h"
#include "report/model_evidence.h"
#include "system/handoff.h"

#include <math.h>
#include <string.h>

/* The one comparison of the leader b against a; verdict VERDICT_NO_DATA
 * where it gives none. */
static struct mview lead_of(struct model *m, struct fsrc *f, const struct mcell *a, const struct mcell *b)
{
	struct results_cell *ca = model_cell_of(f, a), *cb = model_cell_of(f, b);
	const struct mview none = { .ratio = NAN, .low = NAN, .high = NAN, .level = NAN, .verdict = VERDICT_NO_DATA,
				    .repeat = NAN };
	struct mview v = none;
	if (!(ca && cb && model_compare(m, f, model_group_of(m, f, ca), model_group_of(m, f, cb), &v) == 0))
		return none;
	return v;
}

/* "a real lead: [1.02x, 1.06x] at 99.3 %, paired over 13 rounds":
 * the one comparison's words for the leader b against the runner-up a. */
static int lead_words(struct model *m, struct fsrc *f, const struct mcell *a, const struct mcell *b, char *buf,
		      size_t n, double *ratio, struct mview *out)
{
	struct mview v = lead_of(m, f, a, b);
	if (out)
		*out = v;
	if (v.verdict == VERDICT_NO_DATA) {
		snprintf(buf, n, "no interval to tell");
		return 0;
	}
	if (v.verdict == VERDICT_SAME_BINARY) {
		snprintf(buf, n, "the same binary");
		*ratio = 1;
		return 0;
	}
	*ratio = v.ratio;
	char how[192] = "";
	if (v.method == COMPARISON_PAIRED)
		snprintf(how, sizeof(how), ", paired over %zu rounds", v.pairs);
	else if (v.method == COMPARISON_INDEPENDENT)
		snprintf(how, sizeof(how), ", a bootstrap of both cells' runs (no rounds in common)");
	else if (v.method == COMPARISON_ACROSS_LAYOUTS)
		snprintf(how, sizeof(how), ", across %zu layouts (spread \xc2\xb1%.1f %%)", v.layouts,
			 100 * (exp(v.layout_spread) - 1));
	if (v.states > 1 && v.state == COMPARISON_ACROSS_STATES)
		snprintf(how + strlen(how), sizeof(how) - strlen(how), ", across the host's states (no state has both "
			 "builds' runs)");
	else if (v.states > 1 && v.state >= 1)
		snprintf(how + strlen(how), sizeof(how) - strlen(how), ", runs with the CPUs %s",
			 handoff_state_name(v.state, v.states));
	/* the ends as the tables print them (model_format_interval) */
	struct mratio_text rt;
	model_format_interval(v.ratio, v.low, v.high, 2, &rt);
	char repeat[96] = "";
	model_repeat_words(v.verdict, v.repeat, repeat, sizeof(repeat));
	snprintf(buf, n, "%s: %s at %.3g %%%s%s%s", model_verdict_words(&v), rt.interval, 100 * v.level,
		 v.verdict == VERDICT_INCONCLUSIVE ? ", which holds 1.00x" : "", how, repeat);
	return v.verdict == VERDICT_FASTER;
}

size_t model_unsure_leads(const struct mfamily *fam)
{
	size_t n = 0;
	for (size_t i = 0; i < fam->nanswers; i++) {
		const struct manswer *a = &fam->answers[i];
		n += model_repeat_unsure(a->verdict, a->repeat);
	}
	return n;
}

/* Whether two table cells are the same binary run alike. */
static int same_binary(struct fsrc *f, const struct mcell *a, const struct mcell *b)
{
	struct results_cell *ca = model_cell_of(f, a), *cb = model_cell_of(f, b);
	return ca && cb && model_same_binary(f, ca, cb);
}

/* The most code layouts the family's cells were measured under (1: not varied). */
static unsigned layouts_of(const struct fsrc *f)
{
	unsigned k = 1;
	for (size_t i = 0; i < f->n; i++)
		if (f->cells[i]->layouts > k)
			k = f->cells[i]->layouts;
	return k;
}

/* Where the run saw more than one state of the host's two CPUs: the mix,
 * over the family's stream batches, as the answers' first sentence. */
static void states_words(struct mfamily *fam, struct fsrc *f)
{
	struct handoff_mix mix;
	memset(&mix, 0, sizeof(mix));
	for (size_t i = 0; i < f->n; i++) {
		const struct results_cell *c = f->cells[i];
		if (c->handoff_states > mix.states) {
			mix.states = c->handoff_states;
			memcpy(mix.level_ns, c->level_ns, sizeof(mix.level_ns));
		}
		for (unsigned g = 0; g < LEVELS_MAX; g++) {
			mix.batches[g] += c->state_batches[g];
			mix.total += c->state_batches[g];
		}
	}
	if (mix.states < 2)
		return;
	struct strbuf sb = STRBUF_INIT;
	handoff_mix_say(&mix, &sb);
	sv_pushf(&fam->answer, "%s: %s: each lead compares its two builds within one state, the nearest in which "
			       "both have the runs (marked in the tables)", fam->name, sb.buf);
	sb_release(&sb);
}

/* The answer in words, from the throughput table; for emulated cells, whose
 * times say little about the target, from the instructions table (fewest). */
void model_answer(struct model *m, struct mfamily *fam, struct fsrc *f, const struct mtable *t, int fewest)
{
	const char **won = model_alloc(m, 2 * t->nrows * sizeof(*won));
	size_t n = 0, real = 0;
	char r1[32], r2[32], words[512];
	fam->answers = model_alloc(m, (t->nrows + 1) * sizeof(*fam->answers));
	fam->nanswers = 0;
	fam->summary = NULL;
	fam->layouts = layouts_of(f);
	states_words(fam, f);
	for (size_t r = 0; r < t->nrows; r++) {
		struct manswer *ans = &fam->answers[fam->nanswers];
		*ans = (struct manswer){ .variant = t->rows[r].label, .lead = NAN, .low = NAN, .high = NAN, .repeat = NAN,
					 .figure_ratio = NAN,
					 .verdict = VERDICT_NO_DATA, .fewest = fewest, .count_ratio = NAN,
					 .need_s = NAN };
		const struct mcell *c = t->rows[r].cells;
		int order[t->ncols + 1], k = 0;
		for (size_t i = 0; i < t->ncols; i++)
			if (c[i].state == MS_OK && !t->rows[r].ref) {
				int j = k++;
				for (; j > 0 && (fewest ? c[order[j - 1]].value > c[i].value : c[order[j - 1]].value < c[i].value); j--)
					order[j] = order[j - 1];
				order[j] = (int)i;
			}
		if (k == 1) {
			sv_pushf(&fam->answer, "%s/%s: only %s measured", fam->name, t->rows[r].label, t->cols[order[0]]);
			ans->leader = t->cols[order[0]];
			ans->note = "the only build measured";
			fam->nanswers++;
		}
		if (k < 2)
			continue;
		const int fig = order[0]; /* the fastest (fewest) by figure */
		/* the builds in the order the one comparison puts them, each
		 * against the fastest by figure (paired by round where they share
		 * rounds), not by their figures: each cell's statistic alone
		 * scatters more than a paired ratio.  On the VM here a run's
		 * figures put chacha20/simd's clang/-O3 0.9 % behind clang/-O2
		 * where its rounds put it 1.6 % ahead, as eleven other runs did
		 * (docs/comparison.md) */
		if (!fewest) {
			double score[t->ncols + 1];
			const struct mcell *ref = &c[order[0]];
			for (int j = 0; j < k; j++) {
				struct mview v = j ? lead_of(m, f, ref, &c[order[j]]) : (struct mview){ .verdict = VERDICT_NO_DATA };
				score[order[j]] = v.verdict == VERDICT_NO_DATA	  ? c[order[j]].value / ref->value
						  : v.verdict == VERDICT_SAME_BINARY ? 1
										     : v.ratio;
			}
			for (int j = 1; j < k; j++) {
				int x = order[j], i = j;
				for (; i > 0 && score[order[i - 1]] < score[x]; i--)
					order[i] = order[i - 1];
				order[i] = x;
			}
		}
		/* builds that are the leader's very binary are named with it, not
		 * ranked against it ("-O2 = -O3: the same binary") */
		const char *twins = NULL;
		for (int j = 1; !fewest && j < k;) {
			if (!same_binary(f, &c[order[0]], &c[order[j]])) {
				j++;
				continue;
			}
			twins = model_own(m, "%s%s%s", twins ? twins : "", twins ? ", " : "", t->cols[order[j]]);
			memmove(&order[j], &order[j + 1], (size_t)(k - j - 1) * sizeof(order[0]));
			k--;
		}
		const char *leader = twins ? model_own(m, "%s (the same binary as %s)", t->cols[order[0]], twins)
					   : t->cols[order[0]];
		ans->leader = t->cols[order[0]];
		ans->twins = twins;
		fam->nanswers++;
		if (k < 2) {
			sv_pushf(&fam->answer, "%s/%s: %s: no other build to compare", fam->name, t->rows[r].label, leader);
			ans->note = "no other build to compare";
			continue;
		}
		/* "fastest" is a claim against every other build, not only the
		 * one second by figure: a build further back whose runs scatter
		 * more, or that shared fewer rounds, may not be clearly led.
		 * The lead is tested against each; the nearest in that order
		 * that the leader does not clearly lead is the one the answer
		 * compares.  On six pairs of quick runs here, 104 of 120
		 * answers had the same verdict in both runs of a pair; with
		 * this, 111 (docs/comparison.md). */
		int second = 1, slowest = order[k - 1];
		if (!fewest)
			for (int j = 1; j < k; j++) {
				if (lead_of(m, f, &c[order[j]], &c[order[0]]).verdict != VERDICT_FASTER) {
					if (j > 1) {
						int x = order[j];
						memmove(&order[2], &order[1], (size_t)(j - 1) * sizeof(order[0]));
						order[1] = x, second = 2;
					}
					break;
				}
			}
		/* paired leads need not go one way round (C beats A, A beats B, B
		 * beats C): where the one comparison puts the runner-up ahead of
		 * the leader, the runner-up leads, so no leader reads below 1.00x */
		if (!fewest) {
			struct mview v = lead_of(m, f, &c[order[1]], &c[order[0]]);
			if (v.verdict != VERDICT_NO_DATA && v.verdict != VERDICT_SAME_BINARY && v.ratio < 1) {
				int x = order[0];
				order[0] = order[1], order[1] = x, second = 1;
				leader = t->cols[order[0]];
				ans->leader = leader;
				ans->twins = twins = NULL;
				/* the slowest by figure among the rest */
				slowest = order[1];
				for (int j = 2; j < k; j++)
					if (c[order[j]].value < c[slowest].value)
						slowest = order[j];
			}
		}
		ans->runner = t->cols[order[1]];
		ans->second = second > 1 ? t->cols[order[2]] : NULL;
		/* where the figure puts another build first, the words say both */
		if (!fewest && fig != order[0] && !same_binary(f, &c[fig], &c[order[0]])) {
			ans->by_figure = t->cols[fig];
			ans->figure_ratio = c[fig].value / c[order[0]].value;
		}
		const struct mcell *a = &c[order[0]], *b = &c[order[1]], *z = &c[slowest];
		model_format_ratio(fewest ? b->value / a->value : a->value / b->value, r1, sizeof(r1));
		model_format_ratio(fewest ? z->value / a->value : a->value / z->value, r2, sizeof(r2));
		if (fewest) {
			sv_pushf(&fam->answer, "%s/%s: %s fewest instructions, the runner-up %s counts %s as many%s%s%s%s",
				 fam->name, t->rows[r].label, t->cols[order[0]], t->cols[order[1]], r1,
				 k > 2 ? ", the most " : "", k > 2 ? t->cols[order[k - 1]] : "", k > 2 ? " " : "", k > 2 ? r2 : "");
			real++; /* counts are exact */
			ans->lead = b->value / a->value;
		} else {
			/* the lead as the one comparison measures it, the ratio the tables print */
			double lead = a->value / b->value;
			struct mview v;
			real += lead_words(m, f, b, a, words, sizeof(words), &lead, &v);
			ans->lead = lead;
			ans->verdict = v.verdict;
			ans->words = v.verdict == VERDICT_NO_DATA ? "no interval to tell" : model_verdict_words(&v);
			ans->low = v.low, ans->high = v.high;
			ans->repeat = v.repeat;
			/* with the decimals of its interval, where it has one */
			struct mratio_text rt;
			model_format_interval(lead, v.verdict == VERDICT_SAME_BINARY ? NAN : v.low,
					      v.verdict == VERDICT_SAME_BINARY ? NAN : v.high, 2, &rt);
			snprintf(r1, sizeof(r1), "%s", rt.ratio);
			/* the counts and the time a decision needs, where they add to it */
			struct mevidence e;
			model_evidence(m, f, a, b, t->cols[order[0]], t->cols[order[1]], &v, &e);
			ans->evidence = e.words;
			ans->count_ratio = e.count_ratio;
			ans->counts_disagree = e.disagree;
			ans->need_s = e.need_s;
			const char *against =
				ans->second ? model_own(m, "%s %s (%s), which it does not clearly lead although it leads the runner-up %s",
							r1, t->cols[order[1]], words, ans->second)
					    : model_own(m, "%s the runner-up %s (%s)", r1, t->cols[order[1]], words);
			char fr[32] = "";
			if (ans->by_figure)
				model_format_ratio(ans->figure_ratio, fr, sizeof(fr));
			const char *figure =
				ans->by_figure ? model_own(m, "; by its figure %s is the fastest (%s %s's figure): a figure is one "
							   "build's runs alone, the one comparison pairs two builds' runs by round",
							   ans->by_figure, fr, ans->leader)
					       : "";
			sv_pushf(&fam->answer, "%s/%s: %s fastest, %s%s%s%s%s%s%s%s", fam->name, t->rows[r].label, leader,
				 against, k > 2 ? ", " : "", k > 2 ? r2 : "", k > 2 ? " the slowest " : "",
				 k > 2 ? t->cols[slowest] : "", figure, e.words ? "; " : "", e.words ? e.words : "");
		}
		won[2 * n] = model_config_part(m, t->cols[order[0]], 0, 1);
		won[2 * n++ + 1] = model_config_part(m, t->cols[order[0]], 1, -1);
	}
	if (n < 2)
		return;
	size_t best[2] = { 0, 0 }, count[2] = { 0, 0 };
	for (int part = 0; part < 2; part++)
		for (size_t i = 0; i < n; i++) {
			size_t c = 0;
			for (size_t j = 0; j < n; j++)
				c += !strcmp(won[2 * i + part], won[2 * j + part]);
			if (c > count[part])
				best[part] = i, count[part] = c;
		}
	if (fewest)
		sv_pushf(&fam->answer, "%s: most often fewest instructions: compiler %s for %zu of %zu variants, flags %s for "
				       "%zu of %zu; %zu of these %zu leads are exact counts",
			 fam->name, won[2 * best[0]], count[0], n, won[2 * best[1] + 1], count[1], n, real, n);
	else if (!m->cmp_asked)
		sv_pushf(&fam->answer, "%s: most often fastest: compiler %s for %zu of %zu variants, flags %s for %zu of %zu; "
				       "no lead has an interval to tell (too few runs)",
			 fam->name, won[2 * best[0]], count[0], n, won[2 * best[1] + 1], count[1], n);
	else {
		size_t unsure = model_unsure_leads(fam);
		char also[128] = "";
		if (unsure)
			snprintf(also, sizeof(also), ", %zu of them may not repeat (a second run calls %s real less than %.0f %% "
				 "of the time)", unsure, unsure == 1 ? "it" : "them", 100 * MODEL_REPEAT_SURE);
		sv_pushf(&fam->answer, "%s: most often fastest: compiler %s for %zu of %zu variants, flags %s for %zu of %zu; "
				       "%zu of these %zu leads are real (the run's %zu comparisons at a 5 %% false-lead rate)%s%s",
			 fam->name, won[2 * best[0]], count[0], n, won[2 * best[1] + 1], count[1], n, real, n,
			 m->cmp_asked, also, fam->layouts > 1 ? "" : "; code layout not varied (--layouts K tests it)");
	}
	fam->summary = model_own(m, "%s", fam->answer.v[fam->answer.n - 1]);
	fam->most_compiler = won[2 * best[0]], fam->most_compiler_n = count[0];
	fam->most_flags = won[2 * best[1] + 1], fam->most_flags_n = count[1];
	fam->nleads = n, fam->nreal = real;
}
