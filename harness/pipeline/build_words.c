/* build_words.c: see build_words.h */
#define _GNU_SOURCE
#include "pipeline/build_words.h"

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <string.h>

/* Whether a file name is a C or C++ source or header. */
static int source_or_header(const char *name)
{
	static const char *const exts[] = { ".c", ".h", ".hh", ".hpp", ".hxx", ".ipp", ".inl", NULL };
	size_t l = strlen(name);
	for (const char *const *e = exts; *e; e++)
		if (l > strlen(*e) && !strcmp(name + l - strlen(*e), *e))
			return 1;
	return is_cxx_source(name);
}

/* Hashes the C and C++ sources and headers of one folder into sb (not
 * recursive). */
static void hash_folder_sources(struct strbuf *sb, const char *dir)
{
	struct dirent **ents;
	int n = scandir(dir, &ents, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		/* every source beside the variant: a variant may include another */
		if (source_or_header(ents[i]->d_name)) {
			char *h = xasprintf("%s/%s", dir, ents[i]->d_name);
			char hh[65];
			if (sha256_file_hex(h, hh, NULL) == 0)
				sb_addf(sb, "header %s %s\n", ents[i]->d_name, hh);
			free(h);
		}
		free(ents[i]);
	}
	if (n > 0)
		free(ents);
}

/* A layout's padding (plan.h): code_pad bytes of code in a file of its
 * own, named first among the sources so the linker puts it before the
 * program's code and every function of the program lands code_pad bytes
 * later.  It is compiled with the cell's flags like the rest: nothing else
 * about the build changes.  Written once into the entry's folder. */
char *layout_pad_source(const struct cell *c, const char *dir)
{
	if (!c->spec.code_pad)
		return NULL;
	char *path = xasprintf("%s/layout_pad_%u.c", dir, c->spec.code_pad);
	char *text = xasprintf("/* flagbench layout %u: %u bytes before the program's code */\n"
			       "__asm__(\".pushsection .text\\n.globl flagbench_layout_pad\\n"
			       "flagbench_layout_pad:\\n.fill %u, 1, 0\\n.popsection\");\n",
			       c->spec.layout, c->spec.code_pad, c->spec.code_pad);
	if (write_file_atomic(path, text, strlen(text)) < 0) {
		free(path);
		path = NULL;
	}
	free(text);
	return path;
}

/* The words a variant adds to its compile after the flags: -I and -D of
 * the family then the variant, the layout's padding (or NULL), its
 * sources, the family's and its -l. */
void variant_build_words(const struct cell *c, const char *pad_source, struct strvec *argv)
{
	const struct family *f = c->spec.family;
	const struct variant *v = c->spec.variant;
	for (size_t i = 0; i < f->include_dirs.n; i++)
		sv_pushf(argv, "-I%s", f->include_dirs.v[i]);
	for (size_t i = 0; i < v->include_dirs.n; i++)
		sv_pushf(argv, "-I%s", v->include_dirs.v[i]);
	for (size_t i = 0; i < f->defines.n; i++)
		sv_pushf(argv, "-D%s", f->defines.v[i]);
	for (size_t i = 0; i < v->defines.n; i++)
		sv_pushf(argv, "-D%s", v->defines.v[i]);
	if (pad_source)
		sv_push(argv, pad_source);
	/* a C++ driver compiles a .c file as C++: a mixed folder names each
	 * file's language (g++ links its C++ library after "-x c++", not
	 * after "-x none") */
	for (size_t i = 0; i < v->sources.n; i++) {
		if (v->mixed)
			sv_pushv(argv, (char *const[]){ "-x", is_cxx_source(v->sources.v[i]) ? "c++" : "c", NULL });
		sv_push(argv, v->sources.v[i]);
	}
	for (size_t i = 0; i < f->libs.n; i++)
		sv_pushf(argv, "-l%s", f->libs.v[i]);
	for (size_t i = 0; i < v->libs.n; i++)
		sv_pushf(argv, "-l%s", v->libs.v[i]);
}

/* ---- families with their own build system ("build" in family.json) ---- */

static struct strvec tree_files; /* nftw has no context pointer */

static int collect_file(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (type == FTW_F || type == FTW_SL)
		sv_push(&tree_files, path);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every file of the tree, by its path in the tree and its content. */
static int hash_tree(struct strbuf *sb, const char *dir)
{
	sv_clear(&tree_files);
	if (nftw(dir, collect_file, 16, FTW_PHYS) < 0)
		return error("cannot read %s: %s", dir, strerror(errno));
	if (tree_files.n)
		qsort(tree_files.v, tree_files.n, sizeof(char *), cmp_str);
	size_t skip = strlen(dir);
	for (size_t i = 0; i < tree_files.n; i++) {
		char h[65] = "link";
		sha256_file_hex(tree_files.v[i], h, NULL);
		sb_addf(sb, "file %s %s\n", tree_files.v[i] + skip, h);
	}
	sv_clear(&tree_files);
	return 0;
}

static void join_words(struct strbuf *sb, char *const *v)
{
	for (size_t i = 0; v && v[i]; i++)
		sb_addf(sb, "%s%s", sb->len ? " " : "", v[i]);
}

/* The placeholders of a build step, for a cell whose tree is copied to
 * src: the C and C++ drivers (a C++ cell's compiler is the C++ driver,
 * its C driver beside it), the matrix's flags with the family's -I and
 * the family's and variant's -D in both flag sets, the -l words. */
struct build_values {
	const char *names[7];
	const char *values[7];
	struct strbuf cf, lf;
};

static void build_values_fill(const struct cell *c, const char *src, struct build_values *bv)
{
	const struct family *f = c->spec.family;
	const struct compiler *comp = c->spec.compiler;
	const struct compiler *cc = comp->c_driver ? comp->c_driver : comp;
	struct strvec words = STRVEC_INIT, libs = STRVEC_INIT;
	sv_pushv(&words, c->spec.cflags.v);
	for (size_t i = 0; i < f->include_dirs.n; i++)
		sv_pushf(&words, "-I%s", f->include_dirs.v[i]);
	for (size_t i = 0; i < f->defines.n; i++)
		sv_pushf(&words, "-D%s", f->defines.v[i]);
	for (size_t i = 0; i < c->spec.variant->defines.n; i++)
		sv_pushf(&words, "-D%s", c->spec.variant->defines.v[i]);
	for (size_t i = 0; i < f->libs.n; i++)
		sv_pushf(&libs, "-l%s", f->libs.v[i]);
	memset(bv, 0, sizeof(*bv));
	join_words(&bv->cf, words.v);
	join_words(&bv->lf, libs.v);
	const char *names[] = { "src", "cc", "cxx", "cflags", "cxxflags", "ldflags", "variant" };
	/* a C build names no C++ driver: {cxx} is then the C compiler's */
	const char *values[] = { src, cc->path ? cc->path : cc->name, comp->path ? comp->path : comp->name,
				 bv->cf.buf ? bv->cf.buf : "", bv->cf.buf ? bv->cf.buf : "",
				 bv->lf.buf ? bv->lf.buf : "", c->spec.variant->name };
	memcpy(bv->names, names, sizeof(names));
	memcpy(bv->values, values, sizeof(values));
	sv_clear(&words);
	sv_clear(&libs);
}

void build_step_argv(const struct cell *c, size_t step, const char *src, struct strvec *argv)
{
	const struct family *f = c->spec.family;
	struct build_values bv;
	build_values_fill(c, src, &bv);
	for (size_t i = 0; i < f->build_steps[step].n; i++) {
		char *w = xstrdup(f->build_steps[step].v[i]);
		for (size_t k = 0; k < 7; k++) {
			char *n = placeholder_replace(w, bv.names[k], bv.values[k]);
			free(w);
			w = n;
		}
		sv_push(argv, w);
		free(w);
	}
	sb_release(&bv.cf);
	sb_release(&bv.lf);
}

/* The cache key's part for a build-command family: the whole source tree
 * and the command with everything but the private folder substituted. */
static int build_command_key(const struct cell *c, struct strbuf *sb)
{
	const struct family *f = c->spec.family;
	for (size_t s = 0; s < f->nbuild_steps; s++) {
		struct strvec argv = STRVEC_INIT;
		build_step_argv(c, s, "{src}", &argv);
		if (f->nbuild_steps > 1)
			sb_addf(sb, "step %zu\n", s);
		for (size_t i = 0; i < argv.n; i++)
			sb_addf(sb, "build %s\n", argv.v[i]);
		sv_clear(&argv);
	}
	/* a C++ build's C driver is one of its tools too */
	if (c->spec.compiler->c_driver && c->spec.compiler->c_driver->identity)
		sb_addf(sb, "cc %s\n", c->spec.compiler->c_driver->identity);
	sb_addf(sb, "binary %s\n", c->spec.family->build_binary);
	return hash_tree(sb, c->spec.variant->source);
}

/* a profiled build depends on its training run (and the merging tool) */
static void build_key_pgo(const struct cell *c, struct strbuf *sb)
{
	if (c->spec.pgo)
		sb_addf(sb, "pgo train %llu %s\n", (unsigned long long)c->spec.train_size,
			c->spec.profdata ? c->spec.profdata : "");
}

int build_cache_key(const struct cell *c, char key[65])
{
	const struct variant *v = c->spec.variant;
	if (c->spec.family->build_command.n) {
		struct strbuf sb = STRBUF_INIT;
		sb_addf(&sb, "flagbench-cache/2 build\n%s\n", c->spec.compiler->identity);
		build_key_pgo(c, &sb);
		int r = build_command_key(c, &sb);
		sha256_hex(sb.buf ? sb.buf : "", sb.len, key);
		sb_release(&sb);
		return r;
	}
	struct strbuf sb = STRBUF_INIT;
	sb_addf(&sb, "flagbench-cache/2\n%s\n", c->spec.compiler->identity);
	for (size_t i = 0; i < c->spec.cflags.n; i++)
		sb_addf(&sb, "flag %s\n", c->spec.cflags.v[i]);
	build_key_pgo(c, &sb);
	if (c->spec.code_pad)
		sb_addf(&sb, "layout code %u\n", c->spec.code_pad);
	struct strvec words = STRVEC_INIT;
	variant_build_words(c, NULL, &words);
	/* paths in the family's folder as relative ones: the key stays where
	 * the folder moves (flagbench try writes a new one each time) */
	size_t dl = strlen(c->spec.family->dir);
	for (size_t i = 0; i < words.n; i++) {
		const char *w = words.v[i], *in = strstr(w, c->spec.family->dir);
		if (in)
			sb_addf(&sb, "word %.*s{family}%s\n", (int)(in - w), w, in + dl);
		else
			sb_addf(&sb, "word %s\n", w);
	}
	sv_clear(&words);
	for (size_t i = 0; i < v->sources.n; i++) {
		char src[65];
		if (sha256_file_hex(v->sources.v[i], src, NULL) < 0) {
			sb_release(&sb);
			return error("cannot read %s: %s", v->sources.v[i], strerror(errno));
		}
		sb_addf(&sb, "source %s\n", src);
	}
	/* the family's other files (shared headers, included sources) count
	 * too, and so do a variant folder's and the include folders' */
	hash_folder_sources(&sb, c->spec.family->dir);
	if (strcmp(v->source, v->sources.v[0]))
		hash_folder_sources(&sb, v->source);
	for (size_t i = 0; i < c->spec.family->include_dirs.n; i++)
		hash_folder_sources(&sb, c->spec.family->include_dirs.v[i]);
	for (size_t i = 0; i < v->include_dirs.n; i++)
		hash_folder_sources(&sb, v->include_dirs.v[i]);
	sha256_hex(sb.buf, sb.len, key);
	sb_release(&sb);
	return 0;
}

void build_first_lines(const char *text, int lines, char *out, size_t n)
{
	size_t o = 0;
	const char *p = text ? text : "";
	while (*p && lines > 0 && o + 1 < n) {
		if (*p == '\n') {
			lines--;
			/* a separator only between lines, never after the last */
			if (lines && p[1] && o + 3 < n) {
				out[o++] = ' ';
				out[o++] = '|';
				out[o++] = ' ';
			}
		} else {
			out[o++] = *p;
		}
		p++;
	}
	out[o] = '\0';
}
