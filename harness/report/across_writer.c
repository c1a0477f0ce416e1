/* across_writer.c: see across_writer.h */
#define _GNU_SOURCE
#include "report/across_writer.h"
#include "report/answers_writer.h"
#include "report/model_across.h"
#include "core/json_util.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* no wrapping: wider than any line */
#define NO_WRAP SIZE_MAX

int across_any(const struct model *m)
{
	for (size_t i = 0; i < m->nfams; i++)
		if (m->fams[i].across)
			return 1;
	return 0;
}

/* One line: wrapped for the terminal, a list item (its continuation one
 * line) in Markdown, where level 0 is a paragraph. */
static void line(struct strbuf *out, char how, int level, const char *text, size_t width)
{
	if (how == 'm') {
		struct strbuf sb = STRBUF_INIT;
		sb_addf(&sb, "%*s%s", level ? 2 * (level - 1) : 0, "", level ? "- " : "");
		for (const char *p = text; *p; p++) /* Markdown's own characters, as the tables escape them */
			sb_adds(&sb, *p == '|' ? "\\|" : *p == '<' ? "&lt;" : *p == '>' ? "&gt;" : *p == '&' ? "&amp;" : (char[]){ *p, 0 });
		sb_adds(&sb, "\n");
		sb_add_printable(out, sb.buf, 1);
		sb_release(&sb);
		return;
	}
	char *s = xasprintf("%*s%s", 2 * level, "", text);
	answers_emit(out, s, (size_t)(2 * level + 4), width ? width : NO_WRAP);
	free(s);
}

void across_write_head(struct model *m, char how, size_t width, struct strbuf *out)
{
	if (!across_any(m))
		return;
	sb_adds(out, how == 'm' ? "\n## Answers across machines\n\n" : "\nthe answers across machines: each machine's fastest "
									"build, where the machines disagree, and the one build "
									"that is good on every one\n");
	line(out, how, 0, model_across_level(m), width);
}

void across_write_family(const struct mfamily *f, char how, size_t width, struct strbuf *out)
{
	const struct macross *x = f->across;
	if (!x)
		return;
	sb_adds(out, how == 'm' ? "\n### Across machines\n\n" : "\n");
	line(out, how, 0, x->summary, width);
	if (x->note) {
		char *s = xasprintf("note: %s", x->note);
		line(out, how, how == 'm' ? 1 : 1, s, width);
		free(s);
	}
	if (how == 'm')
		sb_adds(out, "\n");
	size_t mw = 0;
	for (size_t i = 0; i < x->nmachines; i++)
		mw = strlen(x->machines[i]) > mw ? strlen(x->machines[i]) : mw;
	for (size_t i = 0; i < x->nv; i++) {
		const struct macross_variant *v = &x->v[i];
		char *s;
		if (v->skipped) {
			s = xasprintf("%s: %s", v->variant, v->skipped);
			line(out, how, 1, s, width);
			free(s);
			continue;
		}
		line(out, how, 1, v->variant, width);
		for (size_t k = 0; k < v->nmachines; k++) {
			const struct macross_machine *a = &v->machines[k];
			s = a->leader ? xasprintf("%-*s  fastest %s  %s", how == 'm' ? 0 : (int)mw, a->machine, a->leader, a->words)
				      : xasprintf("%-*s  %s", how == 'm' ? 0 : (int)mw, a->machine, a->words);
			line(out, how, 2, s, width);
			free(s);
		}
		line(out, how, 2, v->words, width);
		s = xasprintf("portable: %s", v->portable.words);
		line(out, how, 2, s, width);
		free(s);
		if (v->portable.contrast) {
			s = xasprintf("against: %s", v->portable.contrast);
			line(out, how, 3, s, width);
			free(s);
		}
		if (v->portable.left_words) {
			s = xasprintf("left out, not measured ok on every machine: %s", v->portable.left_words);
			line(out, how, 3, s, width);
			free(s);
		}
	}
	if (!x->ngroups)
		return;
	if (how == 'm')
		sb_adds(out, "\n");
	line(out, how, 1, "gaps across the machines, those that flip first (B against A: B's throughput over A's, on each "
			  "machine by its own run):", width);
	struct strbuf same = STRBUF_INIT;
	size_t nsame = 0;
	for (size_t i = 0; i < x->ngroups; i++) {
		const struct macross_group *g = &x->groups[i];
		if (g->kind == ACROSS_AGREES) {
			sb_addf(&same, "%s%s", nsame++ ? "; " : "", g->name);
			continue;
		}
		char *s = xasprintf("%s: %s", g->name, g->words);
		line(out, how, 2, s, width);
		free(s);
	}
	if (nsame) {
		char *s = xasprintf("the same on every machine that measured both builds (%zu): %s", nsame, same.buf);
		line(out, how, 2, s, width);
		free(s);
	}
	sb_release(&same);
}

static json_t *on_json(const struct macross_on *o, size_t n)
{
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_pack("{s:s, s:o, s:o, s:o, s:s}", "machine", o[i].machine, "ratio",
						   jnum_or_null(o[i].ratio), "low", jnum_or_null(o[i].low), "high",
						   jnum_or_null(o[i].high), "verdict", comparison_verdict_word(o[i].verdict)));
	return a;
}

static const char *kind_word(enum across_kind k)
{
	return k == ACROSS_FLIPS ? "flips" : k == ACROSS_SOME ? "some" : "agrees";
}

static json_t *portable_json(const struct macross_portable *p, size_t n)
{
	json_t *loss = json_array(), *left = json_array();
	for (size_t i = 0; p->loss && i < n; i++) {
		const struct macross_loss *l = &p->loss[i];
		json_array_append_new(loss, json_pack("{s:s, s:o, s:o, s:o, s:s, s:b}", "machine", l->machine, "ratio",
						      jnum_or_null(l->ratio), "low", jnum_or_null(l->low), "high",
						      jnum_or_null(l->high), "verdict", comparison_verdict_word(l->verdict), "best",
						      l->best));
	}
	for (size_t i = 0; i < p->nleft; i++)
		json_array_append_new(left, json_pack("{s:s, s:s, s:s}", "config", p->left[i].config, "machine",
						      p->left[i].machine, "status", p->left[i].status));
	return json_pack("{s:o, s:o, s:o, s:o, s:s, s:o, s:o, s:o}", "config", jstr_or_null(p->config), "worst",
			 jnum_or_null(p->worst), "worst_machine", jstr_or_null(p->worst_machine), "losses", loss, "words",
			 p->words ? p->words : "", "contrast", jstr_or_null(p->contrast), "left_out", left, "left_words",
			 jstr_or_null(p->left_words));
}

json_t *across_json(struct model *m, const struct mfamily *f)
{
	const struct macross *x = f->across;
	if (!x)
		return json_null();
	json_t *machines = json_array(), *variants = json_array(), *groups = json_array();
	for (size_t i = 0; i < x->nmachines; i++)
		json_array_append_new(machines, json_string(x->machines[i]));
	for (size_t i = 0; i < x->nv; i++) {
		const struct macross_variant *v = &x->v[i];
		json_t *ms = json_array(), *flips = json_array();
		for (size_t k = 0; k < v->nmachines; k++) {
			const struct macross_machine *a = &v->machines[k];
			json_array_append_new(ms, json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:s, s:s}", "machine", a->machine,
							    "leader", jstr_or_null(a->leader), "runner_up", jstr_or_null(a->runner),
							    "lead", jnum_or_null(a->lead), "low", jnum_or_null(a->low), "high",
							    jnum_or_null(a->high), "verdict", comparison_verdict_word(a->verdict),
							    "words", a->words ? a->words : ""));
		}
		for (size_t k = 0; k < v->nflips; k++)
			json_array_append_new(flips, json_pack("{s:s, s:s, s:o}", "gap", v->flip_names[k], "words",
							       v->flips[k]->words, "on", on_json(v->flips[k]->on, v->flips[k]->n)));
		json_t *j = json_pack("{s:s, s:o, s:b, s:b, s:s, s:o, s:o}", "variant", v->variant, "skipped",
				      jstr_or_null(v->skipped), "agree", !v->skipped && v->agree, "same_leader", v->same_leader,
				      "words", v->words ? v->words : "", "machines", ms, "flips", flips);
		json_object_set_new(j, "portable", v->skipped ? json_null() : portable_json(&v->portable, v->nmachines));
		json_array_append_new(variants, j);
	}
	for (size_t i = 0; i < x->ngroups; i++) {
		const struct macross_group *g = &x->groups[i];
		json_t *vs = json_array();
		for (size_t k = 0; k < g->n; k++)
			json_array_append_new(vs, json_pack("{s:s, s:s, s:s, s:o}", "variant", g->v[k].variant, "kind",
							    kind_word(g->v[k].kind), "words", g->v[k].words, "on",
							    on_json(g->v[k].on, g->v[k].n)));
		json_array_append_new(groups, json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:o}", "b", g->b, "a", g->a, "context",
							g->context, "name", g->name, "kind", kind_word(g->kind), "words",
							g->words, "variants", vs));
	}
	json_t *j = json_pack("{s:o, s:s, s:s, s:o, s:o, s:o}", "machines", machines, "level_words", model_across_level(m),
			      "summary", x->summary, "note", jstr_or_null(x->note), "variants", variants, "gaps", groups);
	jset_num(j, "level", m->cmp_asked ? m->cmp_level : NAN);
	json_object_set_new(j, "comparisons", json_integer((json_int_t)m->cmp_asked));
	return j;
}
