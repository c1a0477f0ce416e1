/* topology.c: see topology.h */
#define _GNU_SOURCE
#include "system/topology.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>


/* ---- files under a root ---- */

int rootfs_is_live(const char *root)
{
	return !root || !*root || !strcmp(root, "/");
}

char *rootfs_path(const char *root, const char *rel)
{
	while (*rel == '/')
		rel++;
	if (rootfs_is_live(root))
		return xasprintf("/%s", rel);
	size_t l = strlen(root);
	return xasprintf("%s%s%s", root, root[l - 1] == '/' ? "" : "/", rel);
}

char *rootfs_read(const char *root, const char *rel)
{
	char *path = rootfs_path(root, rel);
	size_t len;
	char *text = read_file(path, &len);
	int e = errno;
	free(path);
	if (!text) {
		errno = e;
		return NULL;
	}
	while (len && isspace((unsigned char)text[len - 1]))
		text[--len] = '\0';
	return text;
}

int rootfs_read_ll(const char *root, const char *rel, long long *out)
{
	char *text = rootfs_read(root, rel);
	if (!text)
		return -1;
	char *end;
	errno = 0;
	long long v = strtoll(text, &end, 10);
	int bad = errno || end == text || *end;
	free(text);
	if (bad)
		return -1;
	*out = v;
	return 0;
}

/* ---- cpu lists ---- */

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

void cpulist_free(struct cpulist *l)
{
	free(l->cpu);
	l->cpu = NULL;
	l->n = 0;
}

/* Upper bound on CPU numbers we accept: the kernel's NR_CPUS maximum. */
#define CPULIST_MAX_CPU 8192

int cpulist_parse(const char *text, struct cpulist *l)
{
	cpulist_free(l);
	size_t alloc = 0;
	const char *p = text;
	while (*p && isspace((unsigned char)*p))
		p++;
	while (*p && !isspace((unsigned char)*p)) {
		char *end;
		if (!isdigit((unsigned char)*p))
			goto bad;
		long lo = strtol(p, &end, 10), hi = lo;
		p = end;
		if (*p == '-') {
			p++;
			if (!isdigit((unsigned char)*p))
				goto bad;
			hi = strtol(p, &end, 10);
			p = end;
		}
		if (lo < 0 || hi < lo || hi > CPULIST_MAX_CPU)
			goto bad;
		for (long c = lo; c <= hi; c++) {
			if (l->n == alloc) {
				alloc = alloc ? 2 * alloc : 16;
				l->cpu = xrealloc(l->cpu, alloc * sizeof(int));
			}
			l->cpu[l->n++] = (int)c;
		}
		if (*p == ',')
			p++;
		else if (*p && !isspace((unsigned char)*p))
			goto bad;
	}
	while (*p && isspace((unsigned char)*p))
		p++;
	if (*p)
		goto bad;
	if (l->n) {
		qsort(l->cpu, l->n, sizeof(int), cmp_int);
		size_t w = 1;
		for (size_t i = 1; i < l->n; i++)
			if (l->cpu[i] != l->cpu[w - 1])
				l->cpu[w++] = l->cpu[i];
		l->n = w;
	}
	return 0;
bad:
	cpulist_free(l);
	return -1;
}

int cpulist_contains(const struct cpulist *l, int cpu)
{
	return l->n && bsearch(&cpu, l->cpu, l->n, sizeof(int), cmp_int) != NULL;
}

int cpulist_equal(const struct cpulist *a, const struct cpulist *b)
{
	return a->n == b->n && (!a->n || !memcmp(a->cpu, b->cpu, a->n * sizeof(int)));
}

void cpulist_format(const struct cpulist *l, struct strbuf *out)
{
	for (size_t i = 0; i < l->n;) {
		size_t j = i;
		while (j + 1 < l->n && l->cpu[j + 1] == l->cpu[j] + 1)
			j++;
		if (i)
			sb_adds(out, ",");
		if (j > i)
			sb_addf(out, "%d-%d", l->cpu[i], l->cpu[j]);
		else
			sb_addf(out, "%d", l->cpu[i]);
		i = j + 1;
	}
	if (!out->buf)
		sb_adds(out, "");
}

/* ---- pairs and counts (the loaders are in topology_hwloc.c) ---- */

static void choose_pairs(struct topology *t)
{
	int with0[PLACE_NCLASSES][2];
	int has0[PLACE_NCLASSES] = { 0 };
	for (int k = 0; k < PLACE_NCLASSES; k++) {
		t->pair[k][0] = t->pair[k][1] = -1;
		t->has_class[k] = 0;
	}
	/* ordered pairs in lexicographic order: the first one found is the
	 * lowest; both orders are tried, for e_to_p puts the higher CPU first */
	for (size_t i = 0; i < t->ncpus; i++)
		for (size_t j = 0; j < t->ncpus; j++) {
			int a = t->cpus[i].cpu, b = t->cpus[j].cpu;
			enum placement_class k = topology_classify(t, a, b);
			if (k >= PLACE_NCLASSES)
				continue;
			if (a != 0 && b != 0) {
				if (!t->has_class[k]) {
					t->has_class[k] = 1;
					t->pair[k][0] = a;
					t->pair[k][1] = b;
				}
			} else if (!has0[k]) {
				has0[k] = 1;
				with0[k][0] = a;
				with0[k][1] = b;
			}
		}
	for (int k = 0; k < PLACE_NCLASSES; k++)
		if (!t->has_class[k] && has0[k]) {
			t->has_class[k] = 1;
			t->pair[k][0] = with0[k][0];
			t->pair[k][1] = with0[k][1];
		}
	t->has_class[PLACE_UNPINNED] = 1;
	t->pair[PLACE_UNPINNED][0] = t->pair[PLACE_UNPINNED][1] = -1;
}

void topology_finish(struct topology *t)
{
	t->ncores = t->npackages = t->nnuma = 0;
	/* a core is counted at its lowest allowed sibling */
	for (size_t i = 0; i < t->ncpus; i++) {
		const struct topo_cpu *c = &t->cpus[i];
		if (!c->siblings.n || c->siblings.cpu[0] == c->cpu)
			t->ncores++;
		int seen_pkg = c->package_id < 0, seen_numa = c->numa < 0;
		for (size_t j = 0; j < i; j++) {
			seen_pkg |= t->cpus[j].package_id == c->package_id;
			seen_numa |= t->cpus[j].numa == c->numa;
		}
		t->npackages += !seen_pkg;
		t->nnuma += !seen_numa;
	}
	choose_pairs(t);
}

void topology_free(struct topology *t)
{
	for (size_t i = 0; i < t->ncpus; i++) {
		cpulist_free(&t->cpus[i].siblings);
		free(t->cpus[i].caches);
	}
	for (size_t i = 0; i < t->ncaches; i++)
		cpulist_free(&t->caches[i].cpus);
	for (size_t i = 0; i < t->nkinds; i++)
		cpulist_free(&t->kinds[i].cpus);
	free(t->cpus);
	free(t->caches);
	free(t->kinds);
	cpulist_free(&t->online);
	cpulist_free(&t->machine);
	memset(t, 0, sizeof(*t));
}

const struct topo_cpu *topology_cpu(const struct topology *t, int cpu)
{
	size_t lo = 0, hi = t->ncpus;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (t->cpus[mid].cpu == cpu)
			return &t->cpus[mid];
		if (t->cpus[mid].cpu < cpu)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* ---- classes ---- */

static const char *const class_names[PLACE_NCLASSES] = {
	"same_cpu", "smt_sibling", "same_l2", "same_l3", "other_l3", "other_package", "p_to_e", "e_to_p", "unpinned",
};

const char *placement_class_name(enum placement_class c)
{
	return (unsigned)c < PLACE_NCLASSES ? class_names[c] : "unknown";
}

int placement_class_parse(const char *name, enum placement_class *out)
{
	for (int k = 0; k < PLACE_NCLASSES; k++)
		if (name && !strcmp(name, class_names[k])) {
			*out = (enum placement_class)k;
			return 0;
		}
	return -1;
}

enum placement_class topology_classify(const struct topology *t, int a, int b)
{
	const struct topo_cpu *ca = topology_cpu(t, a), *cb = topology_cpu(t, b);
	if (!ca || !cb)
		return PLACE_UNKNOWN;
	if (a == b)
		return PLACE_SAME_CPU;
	if (ca->package_id >= 0 && cb->package_id >= 0 && ca->package_id != cb->package_id)
		return PLACE_OTHER_PACKAGE;
	if (ca->siblings.n ? cpulist_contains(&ca->siblings, b)
			   : (ca->core_id >= 0 && ca->core_id == cb->core_id && ca->die_id == cb->die_id &&
			      ca->package_id == cb->package_id))
		return PLACE_SMT_SIBLING;
	/* cores of two ranked kinds: which way the stream flows is the experiment */
	if (ca->kind >= 0 && cb->kind >= 0 && ca->kind != cb->kind) {
		int ea = t->kinds[ca->kind].efficiency, eb = t->kinds[cb->kind].efficiency;
		if (ea >= 0 && eb >= 0 && ea != eb)
			return ea > eb ? PLACE_P_TO_E : PLACE_E_TO_P;
	}
	/* the lowest level of a data (or unified) cache both are in */
	int shared = INT_MAX;
	for (size_t i = 0; i < ca->ncaches; i++) {
		const struct topo_cache *d = &t->caches[ca->caches[i]];
		if (strcmp(d->type, "Instruction") && cpulist_contains(&d->cpus, b) && d->level > 0 &&
		    d->level < shared)
			shared = d->level;
	}
	if (shared <= 2)
		return PLACE_SAME_L2;
	if (shared != INT_MAX)
		return PLACE_SAME_L3;
	/* no shared cache: only meaningful when caches and packages are known */
	if (ca->ncaches && cb->ncaches && ca->package_id >= 0 && cb->package_id >= 0)
		return PLACE_OTHER_L3;
	return PLACE_UNKNOWN;
}

int topology_class_pair(const struct topology *t, enum placement_class c, int *producer, int *consumer)
{
	if ((unsigned)c >= PLACE_NCLASSES || !t->has_class[c])
		return -1;
	*producer = t->pair[c][0];
	*consumer = t->pair[c][1];
	return 0;
}

/* ---- output ---- */

static json_t *list_json(const struct cpulist *l)
{
	struct strbuf sb = STRBUF_INIT;
	cpulist_format(l, &sb);
	json_t *j = json_string(sb.buf);
	sb_release(&sb);
	return j;
}

json_t *topology_to_json(const struct topology *t)
{
	json_t *cpus = json_array(), *caches = json_array(), *classes = json_object();
	for (size_t i = 0; i < t->ncpus; i++) {
		const struct topo_cpu *c = &t->cpus[i];
		json_t *o = json_object();
		json_object_set_new(o, "cpu", json_integer(c->cpu));
		json_object_set_new(o, "core", c->core_id < 0 ? json_null() : json_integer(c->core_id));
		json_object_set_new(o, "die", c->die_id < 0 ? json_null() : json_integer(c->die_id));
		json_object_set_new(o, "package", c->package_id < 0 ? json_null() : json_integer(c->package_id));
		json_object_set_new(o, "numa", c->numa < 0 ? json_null() : json_integer(c->numa));
		json_object_set_new(o, "kind", c->kind < 0 ? json_null() : json_string(t->kinds[c->kind].name));
		json_object_set_new(o, "siblings", c->siblings.n ? list_json(&c->siblings) : json_null());
		json_object_set_new(o, "l2", c->l2 < 0 ? json_null() : list_json(&t->caches[c->l2].cpus));
		json_object_set_new(o, "l3", c->l3 < 0 ? json_null() : list_json(&t->caches[c->l3].cpus));
		json_array_append_new(cpus, o);
	}
	for (size_t i = 0; i < t->ncaches; i++) {
		const struct topo_cache *d = &t->caches[i];
		json_array_append_new(caches, json_pack("{s:o, s:s, s:o, s:o}", "level",
							d->level < 0 ? json_null() : json_integer(d->level), "type",
							d->type, "size", d->size ? json_integer((json_int_t)d->size) : json_null(),
							"cpus", list_json(&d->cpus)));
	}
	json_t *kinds = json_array();
	for (size_t i = 0; i < t->nkinds; i++) {
		const struct topo_kind *k = &t->kinds[i];
		json_array_append_new(kinds, json_pack("{s:s, s:o, s:o, s:o}", "name", k->name, "core_type",
						       k->core_type[0] ? json_string(k->core_type) : json_null(),
						       "efficiency",
						       k->efficiency < 0 ? json_null() : json_integer(k->efficiency),
						       "cpus", list_json(&k->cpus)));
	}
	for (int k = 0; k < PLACE_NCLASSES; k++)
		if (t->has_class[k])
			json_object_set_new(classes, class_names[k],
					    json_pack("{s:o, s:o}", "producer",
						      t->pair[k][0] < 0 ? json_null() : json_integer(t->pair[k][0]),
						      "consumer",
						      t->pair[k][1] < 0 ? json_null() : json_integer(t->pair[k][1])));
	return json_pack("{s:o, s:o, s:i, s:i, s:i, s:i, s:o, s:o, s:o, s:o}", "online", list_json(&t->online),
			 "machine", list_json(&t->machine), "threads", (int)t->ncpus, "cores", t->ncores, "packages",
			 t->npackages, "numa_nodes", t->nnuma, "cpus", cpus, "caches", caches, "kinds", kinds,
			 "classes", classes);
}

static void format_size(uint64_t b, char *buf, size_t n)
{
	if (!b)
		snprintf(buf, n, "?");
	else if (b >= (1u << 20) && !(b & ((1u << 20) - 1)))
		snprintf(buf, n, "%llu MiB", (unsigned long long)(b >> 20));
	else if (b >= 1024 && !(b & 1023))
		snprintf(buf, n, "%llu KiB", (unsigned long long)(b >> 10));
	else
		snprintf(buf, n, "%llu B", (unsigned long long)b);
}

static const char *list_text(const struct cpulist *l, struct strbuf *sb)
{
	sb_reset(sb);
	cpulist_format(l, sb);
	return l->n ? sb->buf : "-";
}

/* "numa nodes: 0: 0-7,16-23; 1: ..." (machines of two nodes or more) */
static void print_numa(const struct topology *t, FILE *f, struct strbuf *sb)
{
	fprintf(f, "numa nodes:");
	for (size_t i = 0; i < t->ncpus; i++) {
		int node = t->cpus[i].numa, first = 1;
		for (size_t j = 0; j < i && first; j++)
			first = t->cpus[j].numa != node;
		if (!first)
			continue;
		struct cpulist l = CPULIST_INIT;
		l.cpu = xcalloc(t->ncpus, sizeof(int));
		for (size_t j = i; j < t->ncpus; j++)
			if (t->cpus[j].numa == node)
				l.cpu[l.n++] = t->cpus[j].cpu;
		fprintf(f, "%s ", i ? ";" : "");
		if (node < 0)
			fprintf(f, "?: %s", list_text(&l, sb));
		else
			fprintf(f, "%d: %s", node, list_text(&l, sb));
		cpulist_free(&l);
	}
	fprintf(f, "\n");
}

void topology_print(const struct topology *t, FILE *f)
{
	struct strbuf sb = STRBUF_INIT;
	/* the allowed set only where it is not the whole machine */
	if (cpulist_equal(&t->online, &t->machine) || !t->machine.n) {
		fprintf(f, "cpus online: %s", list_text(&t->online, &sb));
	} else {
		fprintf(f, "cpus allowed: %s", list_text(&t->online, &sb));
		fprintf(f, " of %s", list_text(&t->machine, &sb));
	}
	fprintf(f, " (%zu threads, %d cores, %d package%s)\n", t->ncpus, t->ncores, t->npackages,
		t->npackages == 1 ? "" : "s");
	if (t->nkinds) {
		fprintf(f, "core kinds (least performant first):");
		for (size_t i = 0; i < t->nkinds; i++) {
			const struct topo_kind *k = &t->kinds[i];
			fprintf(f, "%s %s", i ? "," : "", k->name);
			if (k->core_type[0])
				fprintf(f, " (%s)", k->core_type);
			fprintf(f, " %s", list_text(&k->cpus, &sb));
		}
		fprintf(f, "\n");
	}
	if (t->nnuma > 1)
		print_numa(t, f, &sb);
	fprintf(f, "%5s %5s %4s %4s  %s%-10s %-14s %s\n", "cpu", "core", "die", "pkg", t->nkinds ? "kind  " : "",
		"siblings", "l2 shared by", "l3 shared by");
	for (size_t i = 0; i < t->ncpus; i++) {
		const struct topo_cpu *c = &t->cpus[i];
		fprintf(f, "%5d %5d %4d %4d  ", c->cpu, c->core_id, c->die_id, c->package_id);
		if (t->nkinds)
			fprintf(f, "%-4s  ", c->kind < 0 ? "-" : t->kinds[c->kind].name);
		fprintf(f, "%-10s ", list_text(&c->siblings, &sb));
		fprintf(f, "%-14s ", c->l2 < 0 ? "-" : list_text(&t->caches[c->l2].cpus, &sb));
		fprintf(f, "%s\n", c->l3 < 0 ? "-" : list_text(&t->caches[c->l3].cpus, &sb));
	}
	fprintf(f, "caches:\n");
	/* one line per (level, type, size), listing each domain's CPUs */
	char *done = xcalloc(t->ncaches ? t->ncaches : 1, 1);
	for (size_t i = 0; i < t->ncaches; i++) {
		if (done[i])
			continue;
		const struct topo_cache *d = &t->caches[i];
		char size[32];
		format_size(d->size, size, sizeof(size));
		size_t count = 0;
		struct strbuf lists = STRBUF_INIT;
		for (size_t j = i; j < t->ncaches; j++) {
			const struct topo_cache *e = &t->caches[j];
			if (done[j] || e->level != d->level || strcmp(e->type, d->type) || e->size != d->size)
				continue;
			done[j] = 1;
			count++;
			sb_addf(&lists, " %s", list_text(&e->cpus, &sb));
		}
		fprintf(f, "  L%d %-11s %9s x%-3zu shared by:%s\n", d->level, d->type, size, count, lists.buf);
		sb_release(&lists);
	}
	free(done);
	if (!t->ncaches)
		fprintf(f, "  none reported\n");
	fprintf(f, "placement classes (producer -> consumer):\n");
	for (int k = 0; k < PLACE_NCLASSES; k++) {
		/* the kind classes mean nothing on a machine of one kind */
		if ((k == PLACE_P_TO_E || k == PLACE_E_TO_P) && !t->nkinds)
			continue;
		if (k == PLACE_UNPINNED)
			fprintf(f, "  %-14s the scheduler chooses\n", class_names[k]);
		else if (t->has_class[k])
			fprintf(f, "  %-14s %d -> %d\n", class_names[k], t->pair[k][0], t->pair[k][1]);
		else
			fprintf(f, "  %-14s none on this machine\n", class_names[k]);
	}
	sb_release(&sb);
}
