/* libraries.c: see libraries.h */
#define _GNU_SOURCE
#include "pipeline/libraries.h"

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/runcmd.h"
#include "core/util.h"

/* the loader's listing: small, quick */
#define LIST_TIMEOUT_S 10.0
#define LIST_CAP (256u << 10)

/* The ELF header's machine and the interpreter of path (allocated, NULL
 * for a static binary); -1 when it is not a 64-bit ELF file. */
static int elf_interp(const char *path, unsigned *machine, char **interp)
{
	*interp = NULL;
	FILE *f = fopen(path, "rb");
	if (!f)
		return -1;
	Elf64_Ehdr eh;
	int r = -1;
	if (fread(&eh, sizeof(eh), 1, f) == 1 && !memcmp(eh.e_ident, ELFMAG, SELFMAG) &&
	    eh.e_ident[EI_CLASS] == ELFCLASS64 && eh.e_phentsize == sizeof(Elf64_Phdr)) {
		*machine = eh.e_machine;
		r = 0;
		for (unsigned i = 0; i < eh.e_phnum && r == 0; i++) {
			Elf64_Phdr ph;
			if (fseek(f, (long)(eh.e_phoff + i * sizeof(ph)), SEEK_SET) < 0 || fread(&ph, sizeof(ph), 1, f) != 1) {
				r = -1;
				break;
			}
			if (ph.p_type != PT_INTERP || ph.p_filesz < 2 || ph.p_filesz > 4096)
				continue;
			char *s = xcalloc(ph.p_filesz + 1, 1);
			if (fseek(f, (long)ph.p_offset, SEEK_SET) < 0 || fread(s, ph.p_filesz, 1, f) != 1) {
				free(s);
				r = -1;
				break;
			}
			*interp = s;
			break;
		}
	}
	fclose(f);
	return r;
}

char *libraries_interp(const char *binary)
{
	unsigned machine;
	char *interp = NULL;
	return binary && elf_interp(binary, &machine, &interp) == 0 ? interp : NULL;
}

static void add_lib(json_t *libs, const char *path)
{
	size_t i;
	json_t *l;
	json_array_foreach(libs, i, l) if (!strcmp(json_string_value(json_object_get(l, "path")), path)) return;
	char hex[65];
	json_array_append_new(libs, json_pack("{s:s, s:o}", "path", path, "sha256",
					      sha256_file_hex(path, hex, NULL) == 0 ? json_string(hex) : json_null()));
}

static int by_path(const void *a, const void *b)
{
	return strcmp(json_string_value(json_object_get(*(json_t *const *)a, "path")),
		      json_string_value(json_object_get(*(json_t *const *)b, "path")));
}

/* The paths of a listing: "\tlibc.so.6 => /lib/.../libc.so.6 (0x...)" and
 * "\t/lib64/ld-linux-x86-64.so.2 (0x...)"; linux-vdso has no file. */
static void parse_listing(const char *text, json_t *libs)
{
	const char *p = text;
	char *line;
	while ((line = next_line(&p))) {
		char *s = line, *arrow = strstr(line, "=> ");
		if (arrow)
			s = arrow + 3;
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '/') {
			char *end = strstr(s, " (");
			if (end)
				*end = 0;
			add_lib(libs, s);
		}
		free(line);
	}
}

json_t *libraries_of(const char *binary, const char *preload)
{
	unsigned machine = 0, self = 0;
	char *interp = NULL, *own = NULL;
	if (!binary || elf_interp(binary, &machine, &interp) < 0)
		return NULL;
	/* a binary of another machine: its loader, if here at all, is not ours to run */
	if (elf_interp(self_exe(), &self, &own) < 0 || machine != self) {
		free(interp);
		free(own);
		return NULL;
	}
	free(own);
	json_t *libs = json_array();
	if (interp) {
		char *argv[] = { interp, "--list", (char *)binary, NULL };
		struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
		struct child_exit ex;
		if (access(interp, X_OK) < 0 || run_capture(argv, CHILD_DEVNULL, LIST_TIMEOUT_S, LIST_CAP, &out, &err, &ex) < 0 ||
		    ex.outcome != CHILD_EXITED || ex.exit_code != 0) {
			json_decref(libs);
			libs = NULL;
		} else {
			parse_listing(out.buf ? out.buf : "", libs);
		}
		sb_release(&out);
		sb_release(&err);
		free(interp);
	}
	if (libs && preload)
		add_lib(libs, preload);
	if (libs) {
		size_t n = json_array_size(libs);
		json_t **v = xcalloc(n + 1, sizeof(json_t *));
		for (size_t i = 0; i < n; i++)
			v[i] = json_incref(json_array_get(libs, i));
		qsort(v, n, sizeof(json_t *), by_path);
		json_array_clear(libs);
		for (size_t i = 0; i < n; i++)
			json_array_append_new(libs, v[i]);
		free(v);
	}
	return libs;
}

void libraries_record(struct plan *p)
{
	for (size_t i = 0; i < p->n; i++) {
		struct cell *c = &p->cells[i];
		if (!c->build.binary || !c->build.sha256[0] || !c->build.bytes || c->build.libraries)
			continue;
		/* a cell with the same binary and preload shares the listing */
		json_t *found = NULL;
		for (size_t k = 0; k < i && !found; k++) {
			const struct cell *o = &p->cells[k];
			if (o->build.libraries && !strcmp(o->build.sha256, c->build.sha256) &&
			    str_equal_or_null(o->spec.preload, c->spec.preload))
				found = o->build.libraries;
		}
		c->build.libraries = found ? json_incref(found) : libraries_of(c->build.binary, c->spec.preload);
	}
}
