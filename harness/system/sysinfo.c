/* sysinfo.c: see sysinfo.h */
#define _GNU_SOURCE
#include "system/sysinfo.h"

#include <gnu/libc-version.h>
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "core/json_util.h"
#include "core/runcmd.h"
#include "system/topology.h"

/* The value of the first of keys (in that order) that a line of
 * ROOT/proc/cpuinfo names, or NULL: "model name\t: AMD EPYC" -> "AMD EPYC". */
static char *cpuinfo_value(const char *root, const char *const *keys)
{
	char *text = rootfs_read(root, "proc/cpuinfo");
	if (!text)
		return NULL;
	char *res = NULL;
	for (int k = 0; keys[k] && !res; k++) {
		size_t kl = strlen(keys[k]);
		for (char *line = text; line && *line && !res;) {
			char *nl = strchr(line, '\n');
			if (!strncmp(line, keys[k], kl) && (line[kl] == '\t' || line[kl] == ' ' || line[kl] == ':')) {
				char *colon = strchr(line, ':');
				if (colon && (!nl || colon < nl)) {
					colon++;
					while (*colon == ' ' || *colon == '\t')
						colon++;
					res = xasprintf("%.*s", (int)(nl ? (size_t)(nl - colon) : strlen(colon)), colon);
				}
			}
			line = nl ? nl + 1 : NULL;
		}
	}
	free(text);
	return res;
}

/* x86 "model name", arm "Model", older arm "Hardware", mips "cpu model" */
static const char *const model_keys[] = { "model name", "Model", "Hardware", "cpu model", NULL };

const char *host_cpu_model(void)
{
	static char *model;
	if (!model) {
		model = cpuinfo_value("/", model_keys);
		if (!model)
			model = xstrdup("unknown");
	}
	return model;
}

int host_has_cpu_flag(const char *flag)
{
	static char *flags;
	if (!flags) {
		static const char *const keys[] = { "flags", "Features", NULL };
		char *f = cpuinfo_value("/", keys);
		flags = xasprintf(" %s ", f ? f : "");
		free(f);
	}
	char *needle = xasprintf(" %s ", flag);
	int r = strstr(flags, needle) != NULL;
	free(needle);
	return r;
}

/* ROOT/proc/sys/kernel/NAME, else on the live system uname's field. */
static json_t *kernel_fact(const char *root, const char *name, const char *live_value)
{
	char *v = rootfs_read(root, name);
	json_t *j = jstr_or_null(v ? v : rootfs_is_live(root) ? live_value : NULL);
	free(v);
	return j;
}

void host_identity_facts(const char *root, json_t *facts)
{
	struct utsname u;
	int uts = rootfs_is_live(root) && uname(&u) == 0;
	char *model = cpuinfo_value(root, model_keys);
	json_object_set_new(facts, "cpu_model", jstr_or_null(model));
	free(model);
	json_object_set_new(facts, "kernel", kernel_fact(root, "proc/sys/kernel/osrelease", uts ? u.release : NULL));
	json_object_set_new(facts, "arch", jstr_or_null(uts ? u.machine : NULL));
	json_object_set_new(facts, "hostname", kernel_fact(root, "proc/sys/kernel/hostname", uts ? u.nodename : NULL));
	json_object_set_new(facts, "libc", json_sprintf("glibc %s", gnu_get_libc_version()));
	/* the CPU's microcode revision (x86): an update changes the speed of
	 * the same binary, and the history names it (results/history.h) */
	static const char *const microcode_keys[] = { "microcode", NULL };
	char *mc = cpuinfo_value(root, microcode_keys);
	json_object_set_new(facts, "microcode", jstr_or_null(mc));
	free(mc);
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
