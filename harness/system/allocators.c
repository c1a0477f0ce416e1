/* allocators.c: see allocators.h */
#define _GNU_SOURCE
#include "system/allocators.h"

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const struct allocator allocators[] = {
	{ "glibc", "glibc malloc (no preload)", "libc6", { NULL } },
	{ "mimalloc", "mimalloc", "libmimalloc2.0", { "libmimalloc.so.2", NULL } },
	{ "jemalloc", "jemalloc", "libjemalloc2", { "libjemalloc.so.2", NULL } },
	/* the minimal library has no heap profiler hooks: the usual preload */
	{ "tcmalloc", "tcmalloc (gperftools)", "libtcmalloc-minimal4",
	  { "libtcmalloc_minimal.so.4", "libtcmalloc.so.4", NULL } },
};
const size_t nallocators = sizeof(allocators) / sizeof(allocators[0]);

/* Debian's multiarch directory for the architecture flagbench was built for */
#if defined(__x86_64__) && defined(__ILP32__)
#define MULTIARCH "x86_64-linux-gnux32"
#elif defined(__x86_64__)
#define MULTIARCH "x86_64-linux-gnu"
#elif defined(__i386__)
#define MULTIARCH "i386-linux-gnu"
#elif defined(__aarch64__)
#define MULTIARCH "aarch64-linux-gnu"
#elif defined(__arm__) && defined(__ARM_PCS_VFP)
#define MULTIARCH "arm-linux-gnueabihf"
#elif defined(__riscv) && __riscv_xlen == 64
#define MULTIARCH "riscv64-linux-gnu"
#elif defined(__powerpc64__) && defined(__LITTLE_ENDIAN__)
#define MULTIARCH "powerpc64le-linux-gnu"
#elif defined(__s390x__)
#define MULTIARCH "s390x-linux-gnu"
#endif

#ifdef MULTIARCH
static const char default_dirs[] =
	"/usr/lib/" MULTIARCH ":/lib/" MULTIARCH ":/usr/local/lib:/usr/lib64:/usr/lib";
#else
static const char default_dirs[] = "/usr/local/lib:/usr/lib64:/usr/lib";
#endif

static pthread_mutex_t found_lock = PTHREAD_MUTEX_INITIALIZER;
static char found[sizeof(allocators) / sizeof(allocators[0])][PATH_MAX];

const struct allocator *allocator_find(const char *name)
{
	for (size_t i = 0; i < nallocators; i++)
		if (!strcmp(allocators[i].name, name))
			return &allocators[i];
	return NULL;
}

/* Looks for file in the colon-separated dirs; the path into out. */
static int search(const char *dirs, const char *file, char *out, size_t n)
{
	for (const char *d = dirs; *d;) {
		size_t len = strcspn(d, ":");
		if (len && (size_t)snprintf(out, n, "%.*s/%s", (int)len, d, file) < n && access(out, R_OK) == 0)
			return 0;
		d += len;
		if (*d == ':')
			d++;
	}
	return -1;
}

const char *allocator_library(const char *name, char *reason, size_t n)
{
	if (n)
		reason[0] = '\0';
	if (strchr(name, '/')) {
		if (name[0] == '/' && access(name, R_OK) == 0)
			return name;
		snprintf(reason, n, "allocator library %s %s", name,
			 name[0] == '/' ? "is not readable" : "must be an absolute path");
		return NULL;
	}
	const struct allocator *a = allocator_find(name);
	if (!a) {
		char known[256] = "";
		for (size_t i = 0; i < nallocators; i++)
			snprintf(known + strlen(known), sizeof(known) - strlen(known), "%s%s", i ? ", " : "",
				 allocators[i].name);
		snprintf(reason, n, "unknown allocator '%s': known are %s, or an absolute path to a malloc library",
			 name, known);
		return NULL;
	}
	if (!a->libs[0])
		return "";
	const char *dirs = getenv("FLAGBENCH_ALLOCATOR_DIRS");
	if (!dirs)
		dirs = default_dirs;
	size_t slot = (size_t)(a - allocators);
	const char *res = NULL;
	pthread_mutex_lock(&found_lock);
	for (size_t i = 0; !res && a->libs[i]; i++)
		if (search(dirs, a->libs[i], found[slot], sizeof(found[slot])) == 0)
			res = found[slot];
	pthread_mutex_unlock(&found_lock);
	if (res)
		return res;
	char names[256] = "";
	for (size_t i = 0; a->libs[i]; i++)
		snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s", i ? " or " : "", a->libs[i]);
	char shown[512] = "";
	for (const char *d = dirs; *d;) {
		size_t len = strcspn(d, ":");
		if (len)
			snprintf(shown + strlen(shown), sizeof(shown) - strlen(shown), "%s%.*s", shown[0] ? ", " : "",
				 (int)len, d);
		d += len + (d[len] == ':');
	}
	if (!shown[0])
		snprintf(shown, sizeof(shown), "(no directories)");
	snprintf(reason, n, "%s: %s not found in %s: install %s", name, names, shown, a->package);
	return NULL;
}
