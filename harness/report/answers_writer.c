/* answers_writer.c: see answers_writer.h */
#define _GNU_SOURCE
#include "report/answers_writer.h"

#include <math.h>
#include <string.h>
#include <unistd.h>

#include "report/model_answer.h"
#include "report/model_evidence.h"

/* The cells not ok a family lists here; the rest are in its tables. */
#define ANSWERS_PROBLEMS_SHOWN 6

/* One logical line, wrapped at width: breaks at spaces, continuation lines
 * indented by indent; control characters (from a family's own names)
 * become '?', as in the tables (sb_add_printable). */
static void emit(struct strbuf *out, const char *text, size_t indent, size_t width)
{
	struct strbuf clean = STRBUF_INIT;
	sb_add_printable(&clean, text, 0);
	const char *s = clean.buf ? clean.buf : "";
	size_t lead = strspn(s, " ");
	sb_add(out, s, lead);
	size_t col = lead, start_col = lead, gap = 0;
	s += lead;
	while (*s) {
		size_t wl = strcspn(s, " "), ww = utf8_columns(s, wl);
		if (col > start_col && col + gap + ww > width) {
			sb_adds(out, "\n");
			for (size_t i = 0; i < indent; i++)
				sb_adds(out, " ");
			col = start_col = indent;
		} else {
			for (size_t i = 0; i < gap; i++)
				sb_adds(out, " ");
			col += gap;
		}
		sb_add(out, s, wl);
		col += ww;
		s += wl;
		gap = strspn(s, " "); /* kept as it is where the line goes on: the columns' padding */
		s += gap;
	}
	sb_adds(out, "\n");
	sb_release(&clean);
}

void answers_emit(struct strbuf *out, const char *text, size_t indent, size_t width)
{
	emit(out, text, indent, width);
}

static const char *ratio(double r, char *buf, size_t n)
{
	model_format_ratio(r, buf, n);
	return buf;
}

/* The leader as shown: "clang/-O2/native ≡ clang/-O3/native" when builds are its very binary. */
static char *leader_text(const struct manswer *a)
{
	const char *leader = a->leader ? a->leader : "";
	return a->twins ? xasprintf("%s \xe2\x89\xa1 %s", leader, a->twins) : xstrdup(leader);
}

static void variant_line(const struct manswer *a, int vw, int lw, size_t width, struct strbuf *out)
{
	struct strbuf sb = STRBUF_INIT;
	char r1[32];
	char *named = leader_text(a);
	/* printf pads by bytes: widen by the bytes beyond the columns */
	int pad = lw + (int)(strlen(named) - utf8_columns(named, strlen(named)));
	if (!a->runner)
		sb_addf(&sb, "  %-*s  %s: %s", vw, a->variant, named, a->note ? a->note : "no other build to compare");
	else if (a->fewest)
		sb_addf(&sb, "  %-*s  %-*s  fewest instructions; the runner-up %s counts %s as many", vw, a->variant, pad,
			named, a->runner, ratio(a->lead, r1, sizeof(r1)));
	else {
		/* the lead and its interval as the tables print a ratio */
		struct mratio_text rt;
		model_format_interval(a->lead, a->low, a->high, 2, &rt);
		sb_addf(&sb, "  %-*s  %-*s  %s%s%s", vw, a->variant, pad, named, rt.ratio, *rt.interval ? " " : "",
			rt.interval);
		/* the slowest is in the gaps, each through the comparison */
		sb_addf(&sb, " over %s: %s", a->runner, a->words ? a->words : "no interval to tell");
		if (a->second)
			sb_addf(&sb, " (it leads the runner-up %s, not %s further back)", a->second, a->runner);
		if (a->by_figure)
			sb_addf(&sb, "; by its figure %s is the fastest (%s), the one comparison puts %s first", a->by_figure,
				ratio(a->figure_ratio, r1, sizeof(r1)), a->leader);
		char repeat[96];
		model_repeat_words(a->verdict, a->repeat, repeat, sizeof(repeat));
		sb_adds(&sb, repeat);
		if (a->evidence)
			sb_addf(&sb, "; %s", a->evidence);
	}
	emit(out, sb.buf, (size_t)vw + 4, width);
	free(named);
	sb_release(&sb);
}

/* "-O3 against -O2 (gcc)" */
static void gap_name(const struct mgap *g, struct strbuf *sb)
{
	sb_addf(sb, "%s against %s", g->b, g->a);
	if (*g->context)
		sb_addf(sb, " (%s)", g->context);
}

/* The variants of g whose verdict is v (or, v VERDICT_NO_DATA, neither
 * real nor the same binary), joined: "ref, simd". */
static size_t join_variants(const struct mgap *g, enum comparison_verdict v, struct strbuf *sb)
{
	size_t n = 0;
	for (size_t k = 0; k < g->n; k++) {
		enum comparison_verdict x = g->v[k].verdict;
		int match = v == VERDICT_NO_DATA
				    ? x != VERDICT_FASTER && x != VERDICT_SLOWER && x != VERDICT_SAME_BINARY
				    : x == v;
		if (match)
			sb_addf(sb, "%s%s", n++ ? ", " : "", g->v[k].variant);
	}
	return n;
}

/* Gaps time could not call real where the exact counts differ: "-O3
 * against -O2 (gcc): 0.72x ref" (A's instructions over B's, read as a
 * throughput ratio: below 1.00x B runs more). */
static void counted_gaps(const struct mfamily *fam, size_t width, struct strbuf *out)
{
	size_t any = 0;
	for (size_t i = 0; i < fam->ngaps; i++)
		any += fam->gaps[i].counted_apart;
	if (!any)
		return;
	emit(out, "  where time found no real gap, the exact counts differ (A's instructions over B's, below 1.00x B "
		  "runs more):",
	     4, width);
	struct strbuf sb = STRBUF_INIT;
	char r[32];
	for (size_t i = 0; i < fam->ngaps; i++) {
		const struct mgap *g = &fam->gaps[i];
		if (!g->counted_apart)
			continue;
		sb_reset(&sb);
		sb_adds(&sb, "    ");
		gap_name(g, &sb);
		sb_adds(&sb, " by instructions:");
		size_t k = 0;
		for (size_t e = 0; e < g->n; e++) {
			const struct mgap_entry *x = &g->v[e];
			if (x->verdict == VERDICT_FASTER || x->verdict == VERDICT_SLOWER || x->verdict == VERDICT_SAME_BINARY ||
			    !(fabs(log(x->count_ratio)) >= EVIDENCE_GAP_COUNT))
				continue;
			sb_addf(&sb, "%s %s %s", k++ ? "," : "", ratio(x->count_ratio, r, sizeof(r)), x->variant);
		}
		emit(out, sb.buf, 8, width);
	}
	sb_release(&sb);
}

static void gaps_lines(const struct mfamily *fam, size_t width, struct strbuf *out)
{
	struct strbuf sb = STRBUF_INIT;
	char r[32];
	size_t with_real = 0;
	for (size_t i = 0; i < fam->ngaps; i++)
		with_real += fam->gaps[i].real > 0;
	if (!fam->ngaps)
		return;
	emit(out, with_real ? "  real gaps, largest first (B against A: B's throughput over A's, below 1.00x slower):"
			    : "  real gaps: none",
	     4, width);
	size_t unsure = 0;
	for (size_t i = 0; i < fam->ngaps; i++) {
		const struct mgap *g = &fam->gaps[i];
		if (!g->real)
			continue;
		sb_reset(&sb);
		sb_adds(&sb, "    ");
		gap_name(g, &sb);
		sb_adds(&sb, ":");
		for (size_t k = 0; k < g->real; k++) {
			sb_addf(&sb, "%s %s %s", k ? "," : "", ratio(g->v[k].ratio, r, sizeof(r)), g->v[k].variant);
			/* a lead at its interval's edge may not repeat: say how likely it does */
			if (model_repeat_unsure(g->v[k].verdict, g->v[k].repeat)) {
				/* a no-break space: the figure and its sign stay on one line */
				sb_addf(&sb, " (repeats %.0f\xc2\xa0%%)", model_repeat_percent(g->v[k].repeat));
				unsure++;
			}
		}
		struct strbuf rest = STRBUF_INIT;
		if (join_variants(g, VERDICT_SAME_BINARY, &rest))
			sb_addf(&sb, "; the same binary: %s", rest.buf);
		sb_reset(&rest);
		if (join_variants(g, VERDICT_NO_DATA, &rest))
			sb_addf(&sb, "; no real difference: %s", rest.buf);
		sb_release(&rest);
		emit(out, sb.buf, 8, width);
	}
	if (unsure)
		emit(out, "    (repeats N %: a second run calls that gap real too N % of the time; said below 90 %)", 8,
		     width);
	if (with_real == fam->ngaps)
		goto done;
	sb_reset(&sb);
	sb_adds(&sb, "  no real difference:");
	size_t k = 0;
	for (size_t i = 0; i < fam->ngaps; i++) {
		const struct mgap *g = &fam->gaps[i];
		if (g->real)
			continue;
		sb_adds(&sb, k++ ? "; " : " ");
		gap_name(g, &sb);
		size_t same = 0;
		for (size_t e = 0; e < g->n; e++)
			same += g->v[e].verdict == VERDICT_SAME_BINARY;
		if (same == g->n)
			sb_addf(&sb, ", the same binary on %s", g->n == 1 ? "its variant" : "every variant");
		else if (same)
			sb_addf(&sb, ", the same binary on %zu of %zu variants", same, g->n);
	}
	emit(out, sb.buf, 4, width);
done:
	counted_gaps(fam, width, out);
	sb_release(&sb);
}

static const struct mtable *throughput_of(const struct mfamily *fam)
{
	for (size_t k = 0; k < fam->ntables; k++)
		if (!strcmp(fam->tables[k].name, "throughput"))
			return &fam->tables[k];
	return NULL;
}

void answers_write_term(const struct model *m, const char *run_dir, size_t width, struct strbuf *out)
{
	struct strbuf sb = STRBUF_INIT;
	sb_adds(out, "\nthe answers: each variant's fastest build, and the differences that are real\n");
	if (m->cmp_asked)
		sb_addf(&sb, "a lead or gap is real when its interval excludes 1.00x; every interval is at %.3g %%, the level at "
			     "which the run's %zu comparisons keep the share of false leads among the real ones at 5 %% at most; "
			     "\xe2\x89\xa1 the same binary",
			100 * m->cmp_level, m->cmp_asked);
	/* a run alone: what moves between runs is not in its intervals
	 * (results/ratio_drift.h), and a verdict at the line may not repeat */
	if (m->cmp_asked && m->nruns == 1 && !m->runs[0].between.nruns)
		sb_addf(&sb, "; no earlier run of this %s lies beside this one, so how far a ratio moves from one run to "
			     "the next is not in these intervals yet (the next run in the same folder reads this one)",
			m->runs[0].between.any_host ? "CPU model" : "host");
	if (!m->cmp_asked) {
		/* one build a variant has nothing to compare with; more builds
		 * and still no comparison: too few runs */
		size_t answers = 0, alone = 0;
		for (size_t i = 0; i < m->nfams; i++)
			for (size_t k = 0; k < m->fams[i].nanswers; k++) {
				answers++;
				alone += m->fams[i].answers[k].runner == NULL;
			}
		int single = answers && alone == answers;
		sb_adds(&sb, single ? "one build a variant: nothing to compare it with (a suite with more compilers, -O "
				      "levels or -march values asks which is fastest)"
				    : "no lead has an interval to tell (too few runs)");
	}
	unsigned fixed = 0, varied = 0;
	for (size_t i = 0; i < m->nfams; i++)
		if (m->fams[i].nanswers)
			m->fams[i].layouts > 1 ? varied++ : fixed++;
	/* a lead from one lucky code placement is not the flags' (docs/comparison.md) */
	if (fixed && !varied)
		sb_adds(&sb, "; code layout not varied: --layouts K asks whether each lead holds across K layouts");
	else if (fixed)
		sb_adds(&sb, "; code layout varied only where a family says so below");
	emit(out, sb.buf, 2, width);
	for (size_t i = 0; i < m->nfams; i++) {
		const struct mfamily *fam = &m->fams[i];
		if (!fam->nanswers)
			continue;
		sb_reset(&sb);
		sb_addf(&sb, "%s", fam->name);
		if (fam->summary && fam->nanswers && !fam->answers[0].fewest) {
			sb_addf(&sb, ": %s fastest for %zu of %zu variants, %s for %zu of %zu; %zu of these %zu leads are real",
				fam->most_compiler, fam->most_compiler_n, fam->nleads, fam->most_flags, fam->most_flags_n,
				fam->nleads, fam->nreal, fam->nleads);
			size_t unsure = model_unsure_leads(fam);
			if (unsure)
				sb_addf(&sb, ", %zu of them may not repeat", unsure);
		} else if (fam->summary)
			sb_addf(&sb, ": fewest instructions: %s for %zu of %zu variants, %s for %zu of %zu (exact counts)",
				fam->most_compiler, fam->most_compiler_n, fam->nleads, fam->most_flags, fam->most_flags_n,
				fam->nleads);
		const struct mtable *t = throughput_of(fam);
		if (t && t->folded)
			sb_addf(&sb, "; not for this machine: %s", t->folded);
		if (fam->unchecked)
			sb_adds(&sb, "; \xc2\xb6 unchecked: its outputs were not proven right");
		if (fam->layouts > 1)
			sb_addf(&sb, "; across %u code layouts: a lead must hold across them", fam->layouts);
		/* an answer time decided says too where counts could not be had */
		for (size_t k = 0; k < fam->warnings.n; k++)
			if (!strncmp(fam->warnings.v[k], MODEL_NOT_COUNTED, strlen(MODEL_NOT_COUNTED)))
				sb_addf(&sb, "; %s", fam->warnings.v[k]);
		sb_adds(out, "\n");
		emit(out, sb.buf, 2, width);
		int vw = 0, lw = 0;
		for (size_t k = 0; k < fam->nanswers; k++) {
			const struct manswer *a = &fam->answers[k];
			int l = (int)utf8_columns(a->variant, strlen(a->variant));
			vw = l > vw ? l : vw;
			char *named = leader_text(a);
			l = (int)utf8_columns(named, strlen(named));
			lw = a->runner && l > lw ? l : lw;
			free(named);
		}
		for (size_t k = 0; k < fam->nanswers; k++)
			variant_line(&fam->answers[k], vw, lw, width, out);
		gaps_lines(fam, width, out);
		size_t shown = 0, more = 0;
		for (size_t k = 0; k < fam->problems.n; k++) {
			if (strstr(fam->problems.v[k], ": " MODEL_NOT_FOR_THIS_MACHINE ":")) /* in the family's line */
				continue;
			if (shown == ANSWERS_PROBLEMS_SHOWN) {
				more++;
				continue;
			}
			sb_reset(&sb);
			sb_addf(&sb, "  %s %s", shown++ ? "      " : "not ok:", fam->problems.v[k]);
			emit(out, sb.buf, 10, width);
		}
		if (more) {
			sb_reset(&sb);
			sb_addf(&sb, "          and %zu more (flagbench tables)", more);
			emit(out, sb.buf, 10, width);
		}
	}
	if (!run_dir) { /* flagbench report: the tables are above */
		sb_release(&sb);
		return;
	}
	char *page = xasprintf("%s/index.html", run_dir);
	sb_reset(&sb);
	sb_addf(&sb, "\ntables: %s/tables/\n", run_dir);
	if (access(page, R_OK) == 0)
		sb_addf(&sb, "plots:  %s/plots/\npage:   %s\n", run_dir, page);
	sb_add_printable(out, sb.buf, 1);
	sb_reset(&sb);
	sb_addf(&sb, "every table in the terminal: flagbench tables %s (or run with -v)", run_dir);
	emit(out, sb.buf, 2, width);
	free(page);
	sb_release(&sb);
}
