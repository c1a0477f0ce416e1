/* config.c: see config.h; this file finds the family folders (the project's
 * variants/, --family-dir, a suite's family_dirs) and checks a suite's globs
 * against them.  The loaders are cpu_profile.c, suite.c and family.c, over
 * jsoncfg.h (which also finds configs/KIND/NAME.json). */
#define _GNU_SOURCE
#include "config/config.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/jsoncfg.h"
#include "core/options.h"

static int load_family_folder(const char *dir, int must_have, struct family **fams, size_t *count, size_t *cap)
{
	char *fj = xasprintf("%s/family.json", dir);
	int single = access(fj, F_OK) == 0;
	free(fj);
	struct strvec dirs = STRVEC_INIT;
	if (single) {
		sv_push(&dirs, dir);
	} else {
		struct dirent **ents;
		int n = scandir(dir, &ents, NULL, alphasort);
		if (n < 0)
			return error("cannot list %s: %s", dir, strerror(errno));
		for (int i = 0; i < n; i++) {
			char *sub = xasprintf("%s/%s/family.json", dir, ents[i]->d_name);
			if (ents[i]->d_name[0] != '.' && access(sub, F_OK) == 0)
				sv_pushf(&dirs, "%s/%s", dir, ents[i]->d_name);
			free(sub);
			free(ents[i]);
		}
		free(ents);
		if (must_have && dirs.n == 0) {
			sv_clear(&dirs);
			return error("%s: no family.json there nor in its subfolders (a family folder holds family.json)",
				     dir);
		}
	}
	int rc = 0;
	for (size_t i = 0; i < dirs.n; i++) {
		if (*count == *cap) {
			*cap = *cap ? 2 * *cap : 8;
			*fams = xrealloc(*fams, *cap * sizeof(**fams));
		}
		if (load_family(dirs.v[i], &(*fams)[*count]) < 0) {
			rc = -1;
			continue;
		}
		for (size_t k = 0; k < *count; k++)
			if (!strcmp((*fams)[k].name, (*fams)[*count].name)) {
				/* two folders naming one family would mix their cells */
				rc = error("%s/family.json:1:1: family '%s' is also defined in %s/family.json", dirs.v[i],
					   (*fams)[k].name, (*fams)[k].dir);
				break;
			}
		(*count)++;
	}
	sv_clear(&dirs);
	return rc;
}

int load_families(const struct strvec *extra, struct family **out)
{
	struct family *fams = NULL;
	size_t count = 0, cap = 0;
	char *dir = xasprintf("%s/variants", project_root());
	int rc = load_family_folder(dir, 0, &fams, &count, &cap);
	free(dir);
	for (size_t i = 0; extra && i < extra->n; i++) {
		struct stat st;
		char *abs = realpath(extra->v[i], NULL);
		if (!abs || stat(abs, &st) < 0 || !S_ISDIR(st.st_mode))
			rc = error("family folder %s: %s", extra->v[i], abs ? "not a folder" : strerror(errno));
		else if (load_family_folder(abs, 1, &fams, &count, &cap) < 0)
			rc = -1;
		free(abs);
	}
	if (rc < 0) {
		for (size_t i = 0; i < count; i++)
			free_family(&fams[i]);
		free(fams);
		return -1;
	}
	*out = fams ? fams : xcalloc(1, sizeof(*fams));
	return (int)count;
}

int load_all_families(struct family **out)
{
	return load_families(NULL, out);
}

/* Every glob of a suite must select a variant: a typo ("sortsum/quik") would
 * otherwise measure nothing and succeed.  The error points at the glob and
 * names the nearest variant. */
int suite_check_globs(const struct suite *s, const struct family *fams, size_t nfams)
{
	struct strvec ids = STRVEC_INIT;
	for (size_t f = 0; f < nfams; f++)
		for (size_t v = 0; v < fams[f].nvariants; v++)
			sv_pushf(&ids, "%s/%s", fams[f].name, fams[f].variants[v].name);
	char *text = s->path ? read_file(s->path, NULL) : NULL;
	struct cfg c = { s->path ? s->path : "suite", text ? text : "", { { 0 } }, 0 };
	int lone = json_is_string(json_object_get(s->json, "variants"));
	int r = 0;
	for (size_t i = 0; !r && i < s->variants.n; i++) {
		int hit = 0;
		for (size_t k = 0; k < ids.n && !hit; k++)
			hit = fnmatch(s->variants.v[i], ids.v[k], 0) == 0;
		if (hit)
			continue;
		cfg_push_key(&c, "variants");
		if (!lone)
			cfg_push_index(&c, i);
		const char *near = ids.n ? closest_word((const char *const *)ids.v, s->variants.v[i]) : NULL;
		if (near)
			r = cfg_error(&c, "'%s' matches no variant; did you mean '%s'? (flagbench list variants)",
				      s->variants.v[i], near);
		else
			r = cfg_error(&c, "'%s' matches no variant (flagbench list variants)", s->variants.v[i]);
		c.depth = 0;
	}
	free(text);
	sv_clear(&ids);
	return r;
}
