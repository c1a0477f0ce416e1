/* family_lang.c: the language of a family's sources (family.h) */
#define _GNU_SOURCE
#include "config/family.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "config/jsoncfg.h"

const char *source_lang_name(enum source_lang l)
{
	return l == LANG_CXX ? "c++" : "c";
}

int is_cxx_source(const char *name)
{
	static const char *const exts[] = { ".cc", ".cpp", ".cxx", ".C", NULL };
	size_t l = strlen(name);
	for (const char *const *e = exts; *e; e++)
		if (l > strlen(*e) && !strcmp(name + l - strlen(*e), *e))
			return 1;
	return 0;
}

static int is_c_name(const char *name)
{
	size_t l = strlen(name);
	return l > 2 && !strcmp(name + l - 2, ".c");
}

static int is_source_file(const struct dirent *e)
{
	return e->d_name[0] != '.' && (is_c_name(e->d_name) || is_cxx_source(e->d_name));
}

void variant_lang_set(struct variant *v)
{
	int c = 0, cxx = 0;
	for (size_t i = 0; i < v->sources.n; i++) {
		cxx |= is_cxx_source(v->sources.v[i]);
		c |= !is_cxx_source(v->sources.v[i]);
	}
	v->lang = cxx ? LANG_CXX : LANG_C;
	v->mixed = c && cxx;
}

int family_source_files(const char *folder, struct strvec *out)
{
	struct dirent **ents;
	int n = scandir(folder, &ents, is_source_file, alphasort);
	for (int i = 0; i < n; i++) {
		sv_pushf(out, "%s/%s", folder, ents[i]->d_name);
		free(ents[i]);
	}
	if (n >= 0)
		free(ents);
	return n;
}

int family_std_load(struct cfg *c, json_t *root, struct family *f)
{
	if (cfg_string(c, root, "std", 0, &f->std) < 0)
		return -1;
	if (!f->std)
		return 0;
	cfg_push_key(c, "std");
	int r = 0;
	const char *p = f->std;
	if (!strncmp(p, "gnu", 3))
		p += 3;
	else if (*p == 'c')
		p++;
	else
		p = NULL;
	if (!p || !*p || strspn(p, "+0123456789abz") != strlen(p))
		r = cfg_error(c, "'%s' is not a language standard (c17, gnu11, c++20, gnu++17)", f->std);
	else if (f->build_command.n)
		r = cfg_error(c, "a family with its own build system sets its standard there");
	for (size_t i = 0; !r && i < f->nvariants; i++)
		if (f->variants[i].mixed)
			r = cfg_error(c, "variant %s mixes C and C++: its folder takes no \"std\"", f->variants[i].name);
	cfg_pop(c);
	return r;
}

/* The standard's language: "c++20" is C++, "c17" C. */
static enum source_lang std_lang(const char *std)
{
	return strstr(std, "++") ? LANG_CXX : LANG_C;
}

const char *family_std_for(const struct family *f, const struct variant *v)
{
	return f->std && std_lang(f->std) == v->lang && !v->mixed ? f->std : NULL;
}
