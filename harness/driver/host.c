/* host.c: see host.h */
#define _GNU_SOURCE
#include "driver/host.h"

#include <stdlib.h>

#include "core/json_util.h"
#include "system/doctor.h"
#include "system/sysinfo.h"
#include "system/topology.h"

json_t *tools_json(const struct plan *p)
{
	json_t *t = json_object();
	const char *tools[] = { "hyperfine", "jq", "gnuplot", "pv", NULL };
	for (int i = 0; tools[i]; i++) {
		char *v = tool_version(tools[i]);
		json_object_set_new(t, tools[i], jstr_or_null(v));
		free(v);
	}
	for (size_t i = 0; i < p->ncompilers; i++)
		json_object_set_new(t, p->compilers[i].name, jstr_or_null(p->compilers[i].version));
	return t;
}

json_t *host_json(void)
{
	/* cpu_model, kernel, arch, hostname and libc are the doctor's facts
	 * (system/sysinfo.h host_identity_facts()), written there once */
	json_t *h = doctor_facts_json("/");
	int cpus[1024];
	json_object_set_new(h, "cpus_allowed", json_integer(host_cpus(cpus, 1024)));
	return h;
}
