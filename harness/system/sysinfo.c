/* sysinfo.c: see sysinfo.h */
#define _GNU_SOURCE
#include "system/sysinfo.h"

#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "core/runcmd.h"

static char *cpuinfo_field(const char *field)
{
	char *text = read_file("/proc/cpuinfo", NULL);
	if (!text)
		return NULL;
	char *res = NULL;
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		size_t fl = strlen(field);
		if (!strncmp(line, field, fl) && (line[fl] == '\t' || line[fl] == ' ' || line[fl] == ':')) {
			char *colon = strchr(line, ':');
			if (colon) {
				colon++;
				while (*colon == ' ')
					colon++;
				res = xstrdup(colon);
			}
			break;
		}
	}
	free(text);
	return res;
}

const char *host_cpu_model(void)
{
	static char *model;
	if (!model) {
		model = cpuinfo_field("model name");
		if (!model)
			model = cpuinfo_field("Model"); /* arm */
		if (!model)
			model = xstrdup("unknown");
	}
	return model;
}

int host_has_cpu_flag(const char *flag)
{
	static char *flags;
	if (!flags) {
		char *f = cpuinfo_field("flags");
		if (!f)
			f = cpuinfo_field("Features");
		flags = xasprintf(" %s ", f ? f : "");
		free(f);
	}
	char *needle = xasprintf(" %s ", flag);
	int r = strstr(flags, needle) != NULL;
	free(needle);
	return r;
}

int host_cpus(int *cpus, int max)
{
	cpu_set_t set;
	int n = 0;
	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return 0;
	for (int i = 0; i < CPU_SETSIZE && n < max; i++)
		if (CPU_ISSET(i, &set))
			cpus[n++] = i;
	return n;
}

int host_cpu_allowed(int cpu)
{
	cpu_set_t set;
	if (cpu < 0 || cpu >= CPU_SETSIZE || sched_getaffinity(0, sizeof(set), &set) < 0)
		return 0;
	return CPU_ISSET(cpu, &set);
}

char *tool_version(const char *tool)
{
	char *path = find_on_path(tool);
	if (!path)
		return NULL;
	const char *flags[] = { "--version", "-V", NULL };
	char *res = NULL;
	for (int i = 0; flags[i] && !res; i++) {
		char *argv[] = { path, (char *)flags[i], NULL };
		struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
		struct child_exit ex;
		if (run_capture(argv, CHILD_DEVNULL, 10, 4096, &out, &err, &ex) == 0 && ex.outcome == CHILD_EXITED &&
		    ex.exit_code == 0) {
			const char *text = out.len ? out.buf : (err.len ? err.buf : "");
			size_t l = strcspn(text, "\n");
			if (l)
				res = xasprintf("%.*s", (int)l, text);
		}
		sb_release(&out);
		sb_release(&err);
	}
	free(path);
	return res;
}
