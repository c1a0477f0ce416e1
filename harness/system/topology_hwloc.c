/* topology_hwloc.c: the loaders of topology.h, through hwloc.  The only
 * file that includes hwloc.h: the rest of the harness sees struct
 * topology, never an hwloc object. */
#define _GNU_SOURCE
#include "system/topology.h"

#include <errno.h>
#include <hwloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Replaces l with the CPUs of b (finite bitmaps only: hwloc's cpusets). */
static void list_of(hwloc_const_bitmap_t b, struct cpulist *l)
{
	cpulist_free(l);
	int w = hwloc_bitmap_weight(b);
	if (w <= 0)
		return;
	l->cpu = xcalloc((size_t)w, sizeof(int));
	int i = hwloc_bitmap_first(b);
	while (i >= 0 && l->n < (size_t)w) {
		l->cpu[l->n++] = i;
		i = hwloc_bitmap_next(b, i);
	}
}

static int os_index(hwloc_obj_t o)
{
	return !o || o->os_index == HWLOC_UNKNOWN_INDEX || o->os_index > INT32_MAX ? -1 : (int)o->os_index;
}

/* Data, then Instruction, then Unified at each level: the order of the
 * kernel's cache/indexN, which the listing has always followed. */
static int cache_rank(hwloc_obj_t o)
{
	hwloc_obj_cache_type_t type = o->attr->cache.type;
	int t = type == HWLOC_OBJ_CACHE_DATA ? 0 : type == HWLOC_OBJ_CACHE_INSTRUCTION ? 1 : 2;
	return (int)o->attr->cache.depth * 4 + t;
}

static int cmp_cache(const void *a, const void *b)
{
	int x = cache_rank(*(hwloc_obj_t const *)a), y = cache_rank(*(hwloc_obj_t const *)b);
	return (x > y) - (x < y);
}

/* The cache domains of one PU, adding each to t->caches at its first
 * sight (obj->userdata holds its index + 1). */
static void load_caches(struct topology *t, struct topo_cpu *c, hwloc_obj_t pu)
{
	hwloc_obj_t found[32];
	size_t n = 0;
	for (hwloc_obj_t o = pu->parent; o && n < 32; o = o->parent)
		if (hwloc_obj_type_is_cache(o->type))
			found[n++] = o;
	qsort(found, n, sizeof(found[0]), cmp_cache);
	c->caches = n ? xcalloc(n, sizeof(int)) : NULL;
	for (size_t i = 0; i < n; i++) {
		hwloc_obj_t o = found[i];
		if (!o->userdata) {
			t->caches = xrealloc(t->caches, (t->ncaches + 1) * sizeof(*t->caches));
			struct topo_cache *d = &t->caches[t->ncaches];
			memset(d, 0, sizeof(*d));
			d->level = (int)o->attr->cache.depth;
			snprintf(d->type, sizeof(d->type), "%s",
				 o->attr->cache.type == HWLOC_OBJ_CACHE_DATA		? "Data"
				 : o->attr->cache.type == HWLOC_OBJ_CACHE_INSTRUCTION ? "Instruction"
										      : "Unified");
			d->size = o->attr->cache.size;
			list_of(o->cpuset, &d->cpus);
			o->userdata = (void *)(uintptr_t)++t->ncaches;
		}
		int at = (int)(uintptr_t)o->userdata - 1;
		c->caches[c->ncaches++] = at;
		if (o->attr->cache.type != HWLOC_OBJ_CACHE_INSTRUCTION) {
			if (o->attr->cache.depth == 2)
				c->l2 = at;
			else if (o->attr->cache.depth == 3)
				c->l3 = at;
		}
	}
}

/* The kinds of core, where there are two or more (topology.h names them). */
static void load_kinds(hwloc_topology_t h, struct topology *t)
{
	int n = hwloc_cpukinds_get_nr(h, 0);
	if (n < 2)
		return;
	t->kinds = xcalloc((size_t)n, sizeof(*t->kinds));
	hwloc_bitmap_t set = hwloc_bitmap_alloc();
	int ranked = 1, top = -1;
	for (int i = 0; i < n; i++) {
		struct topo_kind *k = &t->kinds[t->nkinds];
		unsigned ninfos = 0;
		struct hwloc_info_s *infos = NULL;
		if (hwloc_cpukinds_get_info(h, (unsigned)i, set, &k->efficiency, &ninfos, &infos, 0) < 0)
			continue;
		for (unsigned j = 0; j < ninfos; j++)
			if (!strcmp(infos[j].name, "CoreType"))
				snprintf(k->core_type, sizeof(k->core_type), "%s", infos[j].value);
		list_of(set, &k->cpus);
		ranked &= k->efficiency >= 0;
		if (k->efficiency > top)
			top = k->efficiency;
		t->nkinds++;
	}
	hwloc_bitmap_free(set);
	for (size_t i = 0; i < t->nkinds; i++) {
		struct topo_kind *k = &t->kinds[i];
		if (!ranked)
			snprintf(k->name, sizeof(k->name), "K%zu", i);
		else if (k->efficiency == top)
			snprintf(k->name, sizeof(k->name), "P");
		else if (t->nkinds == 2)
			snprintf(k->name, sizeof(k->name), "E");
		else
			snprintf(k->name, sizeof(k->name), "E%d", k->efficiency);
		/* an unranked kind says nothing of which way is faster */
		if (!ranked)
			k->efficiency = -1;
	}
}

static int cmp_pu(const void *a, const void *b)
{
	unsigned x = (*(hwloc_obj_t const *)a)->os_index, y = (*(hwloc_obj_t const *)b)->os_index;
	return (x > y) - (x < y);
}

static void load_cpu(hwloc_topology_t h, struct topology *t, struct topo_cpu *c, hwloc_obj_t pu)
{
	c->cpu = (int)pu->os_index;
	c->l2 = c->l3 = c->kind = c->numa = -1;
	hwloc_obj_t core = hwloc_get_ancestor_obj_by_type(h, HWLOC_OBJ_CORE, pu);
	hwloc_obj_t pkg = hwloc_get_ancestor_obj_by_type(h, HWLOC_OBJ_PACKAGE, pu);
	hwloc_obj_t die = hwloc_get_ancestor_obj_by_type(h, HWLOC_OBJ_DIE, pu);
	c->core_id = os_index(core);
	c->package_id = os_index(pkg);
	/* hwloc makes a Die only where a package has several; the kernel's
	 * die_id is 0 in a package of one die */
	c->die_id = die ? os_index(die) : pkg ? 0 : -1;
	if (core)
		list_of(core->cpuset, &c->siblings);
	for (hwloc_obj_t n = hwloc_get_next_obj_by_type(h, HWLOC_OBJ_NUMANODE, NULL); n;
	     n = hwloc_get_next_obj_by_type(h, HWLOC_OBJ_NUMANODE, n))
		if (hwloc_bitmap_isset(n->cpuset, pu->os_index)) {
			c->numa = os_index(n);
			break;
		}
	for (size_t k = 0; k < t->nkinds; k++)
		if (cpulist_contains(&t->kinds[k].cpus, c->cpu))
			c->kind = (int)k;
	load_caches(t, c, pu);
}

/* Restricts h to the CPUs this process may use (topology.h) and fills t. */
static int fill(hwloc_topology_t h, struct topology *t, const char *what)
{
	hwloc_bitmap_t allowed = hwloc_bitmap_dup(hwloc_topology_get_allowed_cpuset(h));
	hwloc_bitmap_and(allowed, allowed, hwloc_topology_get_topology_cpuset(h));
	list_of(hwloc_topology_get_topology_cpuset(h), &t->machine);
	/* the affinity mask only binds this process on the system it runs on */
	if (hwloc_topology_is_thissystem(h)) {
		hwloc_bitmap_t bound = hwloc_bitmap_alloc();
		if (hwloc_get_cpubind(h, bound, HWLOC_CPUBIND_THREAD) == 0)
			hwloc_bitmap_and(allowed, allowed, bound);
		hwloc_bitmap_free(bound);
	}
	int r = 0;
	if (hwloc_bitmap_iszero(allowed))
		r = error("%s: no cpu of this machine is allowed to this process", what);
	else if (!hwloc_bitmap_isequal(allowed, hwloc_topology_get_topology_cpuset(h)) &&
		 hwloc_topology_restrict(h, allowed, 0) < 0)
		r = error("%s: cannot restrict the topology to cpus allowed here: %s", what, strerror(errno));
	hwloc_bitmap_free(allowed);
	if (r < 0)
		return r;

	list_of(hwloc_topology_get_topology_cpuset(h), &t->online);
	load_kinds(h, t);
	int npu = hwloc_get_nbobjs_by_type(h, HWLOC_OBJ_PU);
	hwloc_obj_t *pus = xcalloc(npu > 0 ? (size_t)npu : 1, sizeof(*pus));
	for (int i = 0; i < npu; i++)
		pus[i] = hwloc_get_obj_by_type(h, HWLOC_OBJ_PU, (unsigned)i);
	qsort(pus, (size_t)npu, sizeof(*pus), cmp_pu);
	t->cpus = xcalloc(npu > 0 ? (size_t)npu : 1, sizeof(*t->cpus));
	for (int i = 0; i < npu; i++)
		if (os_index(pus[i]) >= 0 && cpulist_contains(&t->online, os_index(pus[i])))
			load_cpu(h, t, &t->cpus[t->ncpus++], pus[i]);
	free(pus);
	if (!t->ncpus)
		return error("%s: no cpus", what);
	topology_finish(t);
	return 0;
}

/* A topology object as topology_load() wants every one: all PUs, allowed
 * or not (the machine's size is known, and fill() restricts), and the L1
 * instruction caches hwloc leaves out by default (the listing has them). */
static hwloc_topology_t open_hwloc(void)
{
	hwloc_topology_t h;
	if (hwloc_topology_init(&h) < 0) {
		error("cannot start hwloc: %s", strerror(errno));
		return NULL;
	}
	hwloc_topology_set_flags(h, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED);
	hwloc_topology_set_icache_types_filter(h, HWLOC_TYPE_FILTER_KEEP_ALL);
	hwloc_topology_set_io_types_filter(h, HWLOC_TYPE_FILTER_KEEP_NONE);
	return h;
}

static int load_and_fill(hwloc_topology_t h, struct topology *t, const char *what)
{
	int r = hwloc_topology_load(h) < 0 ? error("%s: hwloc cannot load it: %s", what, strerror(errno))
					   : fill(h, t, what);
	hwloc_topology_destroy(h);
	if (r < 0)
		topology_free(t);
	return r;
}

int topology_load(const char *root, struct topology *t)
{
	memset(t, 0, sizeof(*t));
	hwloc_topology_t h = open_hwloc();
	if (!h)
		return -1;
	if (rootfs_is_live(root))
		return load_and_fill(h, t, "cpu topology");
	/* a fixture: ROOT/topology.xml, or ROOT naming the XML file itself */
	struct stat st;
	char *path = stat(root, &st) == 0 && S_ISREG(st.st_mode) ? xstrdup(root) : rootfs_path(root, "topology.xml");
	int r;
	if (access(path, R_OK) < 0 || hwloc_topology_set_xml(h, path) < 0) {
		r = error("cannot read %s: %s", path, strerror(errno));
		hwloc_topology_destroy(h);
	} else {
		r = load_and_fill(h, t, path);
	}
	free(path);
	return r;
}

int topology_load_synthetic(const char *desc, struct topology *t)
{
	memset(t, 0, sizeof(*t));
	hwloc_topology_t h = open_hwloc();
	if (!h)
		return -1;
	if (hwloc_topology_set_synthetic(h, desc) < 0) {
		hwloc_topology_destroy(h);
		return error("'%s' is not an hwloc synthetic topology (such as \"package:1 l3:1 core:4 pu:2\")", desc);
	}
	char *what = xasprintf("synthetic topology '%s'", desc);
	int r = load_and_fill(h, t, what);
	free(what);
	return r;
}
