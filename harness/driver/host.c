/* host.c: see host.h */
#define _GNU_SOURCE
#include "driver/host.h"

#include <stdlib.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <gnu/libc-version.h>

#include "system/doctor.h"
#include "system/sysinfo.h"
#include "system/topology.h"

json_t *tools_json(const struct plan *p)
{
	json_t *t = json_object();
	const char *tools[] = { "hyperfine", "jq", "gnuplot", "pv", NULL };
	for (int i = 0; tools[i]; i++) {
		char *v = tool_version(tools[i]);
		json_object_set_new(t, tools[i], v ? json_string(v) : json_null());
		free(v);
	}
	for (size_t i = 0; i < p->ncompilers; i++)
		json_object_set_new(t, p->compilers[i].name,
				    p->compilers[i].version ? json_string(p->compilers[i].version) : json_null());
	return t;
}

json_t *host_json(void)
{
	json_t *facts = doctor_facts_json("/");
	struct utsname u;
	uname(&u);
	int cpus[1024];
	json_t *h = facts ? facts : json_object();
	json_object_set_new(h, "cpu_model", json_string(host_cpu_model()));
	json_object_set_new(h, "cpus_online", json_integer(sysconf(_SC_NPROCESSORS_ONLN)));
	json_object_set_new(h, "cpus_allowed", json_integer(host_cpus(cpus, 1024)));
	json_object_set_new(h, "kernel", json_sprintf("%s %s", u.sysname, u.release));
	json_object_set_new(h, "machine", json_string(u.machine));
	json_object_set_new(h, "hostname", json_string(u.nodename));
	json_object_set_new(h, "libc", json_sprintf("glibc %s", gnu_get_libc_version()));
	return h;
}
