/* steal.c: see steal.h */
#define _GNU_SOURCE
#include "system/steal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

void cpu_ticks_read(const char *root, struct cpu_ticks *t)
{
	memset(t, 0, sizeof(*t));
	char *path = xasprintf("%s/proc/stat", root && *root ? root : "");
	FILE *f = fopen(path, "r");
	free(path);
	if (!f)
		return;
	unsigned long long v[10] = { 0 };
	/* user nice system idle iowait irq softirq steal guest guest_nice:
	 * guest time is in user already */
	int n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
		       &v[6], &v[7]);
	fclose(f);
	if (n < 8)
		return;
	for (int i = 0; i < 8; i++)
		t->total += v[i];
	t->steal = v[7];
	t->ok = 1;
}

double cpu_steal_share(const struct cpu_ticks *a, const struct cpu_ticks *b)
{
	if (!a->ok || !b->ok || b->total <= a->total || b->steal < a->steal)
		return NAN;
	return (double)(b->steal - a->steal) / (double)(b->total - a->total);
}

void steal_watch_begin(struct steal_watch *w, const char *root)
{
	memset(w, 0, sizeof(*w));
	w->worst = w->share = NAN;
	cpu_ticks_read(root, &w->start);
	w->last = w->start;
}

void steal_watch_round(struct steal_watch *w, const char *root)
{
	struct cpu_ticks now;
	cpu_ticks_read(root, &now);
	double s = cpu_steal_share(&w->last, &now);
	if (!isnan(s) && (isnan(w->worst) || s > w->worst))
		w->worst = s;
	w->rounds += !isnan(s);
	w->last = now;
}

void steal_watch_end(struct steal_watch *w, const char *root)
{
	struct cpu_ticks now;
	cpu_ticks_read(root, &now);
	w->share = cpu_steal_share(&w->start, &now);
}
