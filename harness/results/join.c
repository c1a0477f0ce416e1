/* join.c: see join.h */
#define _GNU_SOURCE
#include "results/join.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/json_util.h"
#include "core/util.h"

/* One shard as given. */
struct given {
	const json_t *doc;
	const char *name;
	unsigned index, of;
	const char *plan, *cpu;
};

static int read_shard(struct given *g, const json_t *doc, const char *name)
{
	const json_t *sh = json_object_get(json_object_get(doc, "run"), "shard");
	json_int_t k = json_integer_value(json_object_get(sh, "index")), of = json_integer_value(json_object_get(sh, "of"));
	g->doc = doc;
	g->name = name;
	g->plan = jstr_opt(sh, "plan_sha256");
	g->cpu = jstr_opt(json_object_get(doc, "host"), "cpu_model");
	if (!json_is_object(sh) || k < 1 || of < k || !g->plan)
		return error("%s: not a shard of a plan (flagbench run --shard K/N makes one)", name);
	g->index = (unsigned)k;
	g->of = (unsigned)of;
	return 0;
}

static int by_index(const void *a, const void *b)
{
	const struct given *x = a, *y = b;
	return (x->index > y->index) - (x->index < y->index);
}

/* Another plan, a shard twice, a shard missing, another CPU model. */
static int check_shards(struct given *g, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		if (strcmp(g[i].plan, g[0].plan) || g[i].of != g[0].of)
			return error("%s: a shard of another plan (plan %.12s, %u shards) than %s (plan %.12s, %u shards)",
				     g[i].name, g[i].plan, g[i].of, g[0].name, g[0].plan, g[0].of);
	}
	qsort(g, n, sizeof(*g), by_index);
	for (size_t i = 1; i < n; i++)
		if (g[i].index == g[i - 1].index)
			return error("shard %u/%u given twice: %s and %s", g[i].index, g[i].of, g[i - 1].name, g[i].name);
	if (n < g[0].of) {
		struct strbuf miss = STRBUF_INIT;
		size_t k = 0;
		for (unsigned s = 1; s <= g[0].of; s++) {
			if (k < n && g[k].index == s) {
				k++;
				continue;
			}
			sb_addf(&miss, "%s%u/%u", miss.len ? ", " : "", s, g[0].of);
		}
		error("shard%s %s missing: a joined run holds every shard of the plan", n + 1 < g[0].of ? "s" : "", miss.buf);
		sb_release(&miss);
		return -1;
	}
	for (size_t i = 1; i < n; i++)
		if (!str_equal_or_null(g[i].cpu, g[0].cpu))
			return error("%s and %s ran on different cpu models ('%s', '%s'): join the shards of one model; "
				     "`flagbench tables A B` compares machines", g[0].name, g[i].name, g[0].cpu ? g[0].cpu : "?",
				     g[i].cpu ? g[i].cpu : "?");
	return 0;
}

/* Whether a cell record is its family's baseline variant. */
static int is_baseline(const json_t *doc, const json_t *cell)
{
	const char *fam = jstr_opt(cell, "family"), *var = jstr_opt(cell, "variant");
	const char *base = fam ? jstr_opt(json_object_get(json_object_get(doc, "families"), fam), "baseline") : NULL;
	return base && var && !strcmp(base, var) && strcmp(jstr_opt(cell, "compiler") ? jstr_opt(cell, "compiler") : "", "none");
}

/* A shard's cell as joined: its shard, its passes apart from the others'. */
static json_t *joined_cell(const json_t *cell, const struct given *g)
{
	json_t *c = json_deep_copy(cell);
	json_object_set_new(c, "shard", json_integer(g->index));
	json_t *t = json_object_get(c, "time_s");
	if (json_is_object(t))
		json_object_set_new(t, "pass",
				    json_integer(json_integer_value(json_object_get(t, "pass")) * g->of + g->index - 1));
	return c;
}

/* What each shard adds to run: the sums, the widest drift and steal. */
static void fold_run(json_t *run, const json_t *r, const struct given *g, int first)
{
	const char *a = jstr_opt(run, "started"), *b = jstr_opt(r, "started");
	if (!first && a && b && strcmp(b, a) < 0)
		json_object_set_new(run, "started", json_string(b));
	a = jstr_opt(run, "finished");
	b = jstr_opt(r, "finished");
	if (!b || (!first && !a))
		json_object_set_new(run, "finished", json_null());
	else if (!first && strcmp(b, a) > 0)
		json_object_set_new(run, "finished", json_string(b));
	if (json_is_true(json_object_get(r, "interrupted")))
		json_object_set_new(run, "interrupted", json_true());
	json_t *w = json_object_get(run, "warnings");
	size_t i;
	json_t *e;
	json_array_foreach(json_object_get(r, "warnings"), i, e)
		if (json_is_string(e))
		{
			char *t = xasprintf("shard %u/%u: %s", g->index, g->of, json_string_value(e));
			json_array_append_new(w, json_string(t));
			free(t);
		}
	json_t *ph = json_object_get(run, "phases");
	const char *key;
	json_t *v;
	json_object_foreach(json_object_get(r, "phases"), key, v)
		if (json_is_number(v))
			json_object_set_new(ph, key, json_real((first ? 0 : jnum(ph, key)) + json_number_value(v)));
	double d = jnum(json_object_get(r, "drift"), "sd_percent"), dj = jnum(json_object_get(run, "drift"), "sd_percent");
	if (!first && isfinite(d) && !(dj >= d))
		json_object_set(run, "drift", json_object_get(r, "drift"));
	double s = jnum(json_object_get(r, "steal"), "percent"), sj = jnum(json_object_get(run, "steal"), "percent");
	if (!first && isfinite(s) && !(sj >= s))
		json_object_set(run, "steal", json_object_get(r, "steal"));
}

/* run.shards[i]: the shard's own facts. */
static json_t *shard_record(const struct given *g, size_t ncells)
{
	const json_t *r = json_object_get(g->doc, "run");
	json_t *o = json_pack("{s:i, s:s, s:O?, s:O?, s:O?, s:O?, s:O?, s:O?, s:O?, s:O?, s:I, s:[]}", "index", (int)g->index,
			      "dir", g->name, "id", json_object_get(r, "id"), "started", json_object_get(r, "started"),
			      "finished", json_object_get(r, "finished"), "host", json_object_get(g->doc, "host"),
			      "phases", json_object_get(r, "phases"), "drift", json_object_get(r, "drift"), "steal",
			      json_object_get(r, "steal"), "warnings", json_object_get(r, "warnings"), "cells",
			      (json_int_t)ncells, "copies");
	return o;
}

/* Every shard's cells into joined, each at its place in the plan
 * (run.shard.plan_index), once; a baseline's later copies go to its
 * shard's record. */
static int join_cells(json_t *joined, const struct given *g, size_t n)
{
	json_t *shards = json_array();
	json_object_set_new(json_object_get(joined, "run"), "shards", shards);
	json_int_t want = json_integer_value(json_object_get(json_object_get(json_object_get(g[0].doc, "run"), "shard"),
							       "plan_cells"));
	size_t np = want > 0 ? (size_t)want : 0;
	json_t **slot = xcalloc(np + 1, sizeof(*slot));
	unsigned *from = xcalloc(np + 1, sizeof(*from));
	int r = 0;
	for (size_t i = 0; i < n && !r; i++) {
		const json_t *sc = json_object_get(g[i].doc, "cells");
		const json_t *at = json_object_get(json_object_get(json_object_get(g[i].doc, "run"), "shard"), "plan_index");
		json_t *rec = shard_record(&g[i], json_array_size(sc));
		json_array_append_new(shards, rec);
		if (json_array_size(at) != json_array_size(sc)) {
			r = error("%s: run.shard.plan_index does not list its %zu cells", g[i].name, json_array_size(sc));
			break;
		}
		size_t k;
		json_t *c;
		json_array_foreach(sc, k, c) {
			json_int_t x = json_integer_value(json_array_get(at, k));
			const char *id = jstr_opt(c, "id");
			if (!id || x < 0 || (size_t)x >= np) {
				r = error("%s: cells[%zu] is not a cell of the plan's %zu", g[i].name, k, np);
				break;
			}
			json_t *was = slot[x];
			if (was && (strcmp(jstr_opt(was, "id"), id) || !is_baseline(g[i].doc, c))) {
				r = error("cell %s is in shard %u and shard %u: not one plan's split", id, from[x], g[i].index);
				break;
			}
			if (was) {
				json_array_append_new(json_object_get(rec, "copies"), joined_cell(c, &g[i]));
				continue;
			}
			slot[x] = joined_cell(c, &g[i]);
			from[x] = g[i].index;
		}
	}
	json_t *cells = json_array();
	size_t lost = 0;
	for (size_t x = 0; x < np; x++) {
		lost += !slot[x];
		if (slot[x])
			json_array_append_new(cells, slot[x]);
	}
	json_object_set_new(joined, "cells", cells);
	if (!r && lost)
		r = error("the shards lack %zu of the plan's %zu cells: not one plan's split", lost, np);
	free(slot);
	free(from);
	return r;
}

json_t *results_join(const struct results_run *runs, const char *const *names, size_t n)
{
	if (!n) {
		error("join: no shard given");
		return NULL;
	}
	struct given *g = xcalloc(n, sizeof(*g));
	int r = 0;
	for (size_t i = 0; i < n && !r; i++)
		r = read_shard(&g[i], runs[i].root, names[i]);
	if (!r)
		r = check_shards(g, n);
	json_t *joined = NULL;
	if (!r) {
		joined = json_deep_copy(g[0].doc);
		json_t *run = json_object_get(joined, "run");
		json_t *sh = json_object_get(run, "shard");
		json_object_set_new(run, "joined", json_pack("{s:i, s:O, s:O}", "of", (int)g[0].of, "plan_sha256",
							     json_object_get(sh, "plan_sha256"), "plan_cells",
							     json_object_get(sh, "plan_cells")));
		json_object_del(run, "shard");
		char *id = xasprintf("%s-joined", jstr_opt(run, "id") ? jstr_opt(run, "id") : "run");
		json_object_set_new(run, "id", json_string(id));
		free(id);
		json_object_set_new(run, "warnings", json_array());
		for (size_t i = 0; i < n; i++) {
			fold_run(run, json_object_get(g[i].doc, "run"), &g[i], i == 0);
			/* a family only some shards hold */
			json_object_update_missing(json_object_get(joined, "families"), json_object_get(g[i].doc, "families"));
		}
		if (join_cells(joined, g, n) < 0) {
			json_decref(joined);
			joined = NULL;
		}
	}
	free(g);
	return joined;
}
