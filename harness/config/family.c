/* family.c: one family folder's family.json: variants, references, the
 * declared check, inputs and build command (family.h); the language of
 * its sources and its "std" are family_lang.c's.  Every key of the one
 * format is checked in one pass with one cfg (jsoncfg.h) so that each
 * message names its file:line:column. */
#define _GNU_SOURCE
#include "config/family.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/jsoncfg.h"
#include "core/options.h"

/* ---- family folders: paths, variant sources, declared checks ---- */

/* A path in family.json is relative to the family folder and stays in it. */
static int path_inside(struct cfg *c, const char *path)
{
	int bad = path[0] == '/';
	for (const char *p = path; !bad && *p; p = strchr(p, '/') ? strchr(p, '/') + 1 : p + strlen(p))
		bad = !strncmp(p, "..", 2) && (p[2] == '/' || p[2] == '\0');
	if (bad)
		return cfg_error(c, "'%s' leaves the family folder (paths are relative to it, without '..')", path);
	return 0;
}

/* Every "{name}" in word must be one of known (NULL-terminated). */
static int placeholders_known(struct cfg *c, const char *word, const char *const *known)
{
	for (const char *p = strchr(word, '{'); p; p = strchr(p + 1, '{')) {
		const char *e = strchr(p, '}');
		if (!e)
			return cfg_error(c, "'%s': '{' without '}'", word);
		int ok = 0;
		for (const char *const *k = known; *k; k++)
			ok |= strlen(*k) == (size_t)(e - p - 1) && !strncmp(*k, p + 1, (size_t)(e - p - 1));
		if (!ok)
			return cfg_error(c, "unknown placeholder '%.*s' in '%s'", (int)(e - p + 1), p, word);
	}
	return 0;
}

/* A list of relative paths, each checked by path_inside(). */
static int get_path_list(struct cfg *c, json_t *obj, const char *key, struct strvec *out)
{
	size_t first = out->n;
	if (cfg_string_list(c, obj, key, 0, out) < 0)
		return -1;
	cfg_push_key(c, key);
	for (size_t i = first; i < out->n; i++) {
		cfg_push_index(c, i - first);
		int r = path_inside(c, out->v[i]);
		cfg_pop(c);
		if (r < 0) {
			cfg_pop(c);
			return -1;
		}
	}
	cfg_pop(c);
	return 0;
}

/* The variant's sources: "source" (or NAME) as NAME.c, a C or C++ file,
 * or a folder whose C and C++ files are all compiled and linked. */
static int variant_sources(struct cfg *c, json_t *v, struct family *f, struct variant *out)
{
	char *rel = NULL;
	if (cfg_string(c, v, "source", 0, &rel) < 0)
		return -1;
	if (rel) {
		cfg_push_key(c, "source");
		int r = path_inside(c, rel);
		cfg_pop(c);
		if (r < 0) {
			free(rel);
			return -1;
		}
	}
	char *file = rel ? xasprintf("%s/%s", f->dir, rel) : xasprintf("%s/%s.c", f->dir, out->name);
	char *folder = xasprintf("%s/%s", f->dir, rel ? rel : out->name);
	struct stat st;
	int r = 0;
	cfg_push_key(c, rel ? "source" : "name");
	if (f->build_command.n) {
		/* its own build system: the source is a tree, the variant's
		 * folder or else the whole family folder */
		if (stat(folder, &st) == 0 && S_ISDIR(st.st_mode))
			out->source = xstrdup(folder);
		else if (rel)
			r = cfg_error(c, "no folder %s", folder);
		else
			out->source = xstrdup(f->dir);
	} else if (stat(file, &st) == 0 && S_ISREG(st.st_mode)) {
		out->source = xstrdup(file);
		sv_push(&out->sources, file);
	} else if (stat(folder, &st) == 0 && S_ISDIR(st.st_mode)) {
		family_source_files(folder, &out->sources);
		out->source = xstrdup(folder);
		if (out->sources.n == 0)
			r = cfg_error(c, "the variant folder %s holds no C or C++ file (.c .cc .cpp .cxx .C)", folder);
	} else {
		r = cfg_error(c, "no source file %s (nor a folder %s)", file, folder);
	}
	cfg_pop(c);
	variant_lang_set(out);
	free(file);
	free(folder);
	free(rel);
	return r;
}

/* include_dirs (made absolute), defines and libs of a family or variant. */
static int build_words(struct cfg *c, json_t *obj, const char *dir, struct strvec *incs, struct strvec *defs,
		       struct strvec *libs)
{
	struct strvec rel = STRVEC_INIT;
	int r = get_path_list(c, obj, "include_dirs", &rel);
	for (size_t i = 0; i < rel.n; i++)
		sv_pushf(incs, "%s/%s", dir, rel.v[i]);
	sv_clear(&rel);
	if (!r)
		r = cfg_string_list(c, obj, "defines", 0, defs);
	if (!r && libs)
		r = cfg_string_list(c, obj, "libs", 0, libs);
	return r;
}

static int load_variant(struct cfg *c, json_t *v, struct family *f, struct variant *out)
{
	static const char *const keys[] = { "name", "title", "requires_flags", "requires_cpu", "requires_march",
					    "args", "notes", "source", "include_dirs", "defines", "libs", NULL };
	memset(out, 0, sizeof(*out));
	if (!json_is_object(v))
		return cfg_error(c, "a variant must be an object with at least \"name\"");
	int r = cfg_check_keys(c, v, keys);
	if (!r)
		r = cfg_string(c, v, "name", 1, &out->name);
	if (!r)
		r = cfg_string(c, v, "title", 0, &out->title);
	if (!r)
		r = cfg_string_list(c, v, "requires_flags", 0, &out->requires_flags);
	if (!r)
		r = cfg_string_list(c, v, "requires_cpu", 0, &out->requires_cpu);
	if (!r)
		r = cfg_string_list(c, v, "requires_march", 0, &out->requires_march);
	if (!r)
		r = cfg_string_list(c, v, "args", 0, &out->args);
	if (!r)
		r = build_words(c, v, f->dir, &out->include_dirs, &out->defines, &out->libs);
	if (!r)
		r = cfg_check_name(c, "name", out->name);
	if (r)
		return r;
	r = variant_sources(c, v, f, out);
	if (!out->title)
		out->title = xstrdup(out->name);
	return r;
}

/* obj's "command": argv words with only the known placeholders; a program
 * named by a path is the family's, made absolute from its folder. */
static int get_command(struct cfg *c, json_t *obj, const struct family *f, const char *const *known,
		       struct strvec *out)
{
	int r = cfg_string_list(c, obj, "command", 1, out);
	cfg_push_key(c, "command");
	for (size_t i = 0; !r && i < out->n; i++) {
		cfg_push_index(c, i);
		r = placeholders_known(c, out->v[i], known);
		cfg_pop(c);
	}
	if (!r && !out->n)
		r = cfg_error(c, "must name a program");
	if (!r && strchr(out->v[0], '/')) {
		cfg_push_index(c, 0);
		r = path_inside(c, out->v[0]);
		cfg_pop(c);
		if (!r) {
			const char *rel = out->v[0];
			char *abs = xasprintf("%s/%s", f->dir, strncmp(rel, "./", 2) ? rel : rel + 2);
			free(out->v[0]);
			out->v[0] = abs;
		}
	}
	cfg_pop(c);
	return r;
}

/* "check": a built-in checker's name, "none", or one of {"same_as":
 * VARIANT}, {"sha256": {"N": HEX}}, {"command": [ARGV...]}. */
static int load_check(struct cfg *c, json_t *root, struct family *f)
{
	json_t *ck = json_object_get(root, "check");
	if (!ck)
		return cfg_error(c, "missing required key 'check'");
	if (json_is_string(ck)) {
		if (cfg_string(c, root, "check", 1, &f->check) < 0)
			return -1;
		f->check_kind = strcmp(f->check, "none") ? CHECK_KIND_BUILTIN : CHECK_KIND_NONE;
		return 0;
	}
	cfg_push_key(c, "check");
	int r = 0;
	json_t *v;
	if (!json_is_object(ck) || json_object_size(ck) != 1) {
		r = cfg_error(c, "must be a checker's name, \"none\", or one of {\"same_as\": VARIANT}, "
			      "{\"sha256\": {\"N\": HEX}}, {\"command\": [ARGV...]}");
	} else if ((v = json_object_get(ck, "same_as"))) {
		f->check_kind = CHECK_KIND_SAME_AS;
		r = cfg_string(c, ck, "same_as", 1, &f->same_as);
	} else if ((v = json_object_get(ck, "sha256"))) {
		f->check_kind = CHECK_KIND_SHA256;
		cfg_push_key(c, "sha256");
		if (!json_is_object(v) || !json_object_size(v))
			r = cfg_error(c, "must be an object like {\"1000\": \"<64 hex digits>\"}");
		const char *k;
		json_t *h;
		json_object_foreach(v, k, h) {
			uint64_t n;
			cfg_push_key(c, k);
			if (!r && parse_u64(k, &n) < 0)
				r = cfg_error(c, "'%s' is not a size", k);
			if (!r && (!json_is_string(h) || json_string_length(h) != 64 ||
				   strspn(json_string_value(h), "0123456789abcdefABCDEF") != 64))
				r = cfg_error(c, "must be a SHA-256 as 64 hex digits");
			cfg_pop(c);
		}
		cfg_pop(c);
		f->sha256 = json_incref(v);
	} else if ((v = json_object_get(ck, "command"))) {
		static const char *const known[] = { "N", "variant", NULL };
		f->check_kind = CHECK_KIND_COMMAND;
		r = get_command(c, ck, f, known, &f->check_command);
	} else {
		r = cfg_error(c, "unknown check; the keys are same_as, sha256 and command");
	}
	cfg_pop(c);
	static const char *const names[] = { "", "same_as", "sha256", "command", "none" };
	if (!r)
		f->check = xstrdup(names[f->check_kind]);
	return r;
}

/* "input": {"file": "corpus.txt"} shipped with the family, or
 * {"command": ["./gen.sh", "{N}"]} whose stdout is the input (made once per
 * size, pipeline/inputs.h). */
static int load_input(struct cfg *c, json_t *root, struct family *f)
{
	static const char *const keys[] = { "file", "command", NULL }, *const known[] = { "N", NULL };
	json_t *in = json_object_get(root, "input");
	if (!in)
		return 0;
	cfg_push_key(c, "input");
	int r = 0;
	if (!json_is_object(in) || json_object_size(in) != 1)
		r = cfg_error(c, "must be {\"file\": PATH} or {\"command\": [ARGV...]}");
	if (!r)
		r = cfg_check_keys(c, in, keys);
	char *file = NULL;
	if (!r && json_object_get(in, "file")) {
		r = cfg_string(c, in, "file", 1, &file);
		cfg_push_key(c, "file");
		if (!r)
			r = path_inside(c, file);
		if (!r) {
			f->input_file = xasprintf("%s/%s", f->dir, file);
			if (access(f->input_file, R_OK) < 0)
				r = cfg_error(c, "cannot read %s: %s", f->input_file, strerror(errno));
		}
		cfg_pop(c);
	} else if (!r) {
		r = get_command(c, in, f, known, &f->input_command);
	}
	free(file);
	cfg_pop(c);
	return r;
}

/* "{N}" and "{input}" in the family's and the variants' args make them the
 * whole argv of the program; any other "{...}" is an error. */
static int check_arg_templates(struct cfg *c, struct family *f)
{
	static const char *const with_input[] = { "N", "input", "dir", NULL }, *const without[] = { "N", "dir", NULL };
	const char *const *known = f->input_file || f->input_command.n ? with_input : without;
	int r = 0;
	cfg_push_key(c, "args");
	for (size_t i = 0; !r && i < f->args.n; i++) {
		cfg_push_index(c, i);
		r = placeholders_known(c, f->args.v[i], known);
		f->args_template |= strchr(f->args.v[i], '{') != NULL;
		cfg_pop(c);
	}
	cfg_pop(c);
	cfg_push_key(c, "variants");
	for (size_t v = 0; !r && v < f->nvariants; v++) {
		cfg_push_index(c, v);
		cfg_push_key(c, "args");
		for (size_t i = 0; !r && i < f->variants[v].args.n; i++) {
			cfg_push_index(c, i);
			r = placeholders_known(c, f->variants[v].args.v[i], known);
			f->args_template |= strchr(f->variants[v].args.v[i], '{') != NULL;
			cfg_pop(c);
		}
		cfg_pop(c);
		cfg_pop(c);
	}
	cfg_pop(c);
	return r;
}

/* One step's argv at key (of obj, or the list's index i when key is
 * NULL): words with only the known placeholders, a program first. */
static int build_step(struct cfg *c, json_t *words, struct strvec *out)
{
	static const char *const known[] = { "src", "cc", "cxx", "cflags", "cxxflags", "ldflags", "variant", NULL };
	int r = 0;
	if (!json_is_array(words))
		return cfg_error(c, "must be a list of words [PROGRAM, ARG...]");
	for (size_t i = 0; !r && i < json_array_size(words); i++) {
		cfg_push_index(c, i);
		json_t *w = json_array_get(words, i);
		if (!json_is_string(w))
			r = cfg_error(c, "must be a string");
		else
			r = placeholders_known(c, json_string_value(w), known);
		if (!r)
			sv_push(out, json_string_value(w));
		cfg_pop(c);
	}
	if (!r && !out->n)
		r = cfg_error(c, "must name a program");
	return r;
}

/* "commands": [[ARGV...], ...] run in order, or "command": [ARGV...] alone. */
static int build_steps(struct cfg *c, json_t *b, struct family *f)
{
	json_t *one = json_object_get(b, "command"), *many = json_object_get(b, "commands");
	if (!!one == !!many)
		return cfg_error(c, "needs \"command\": [ARGV...] or \"commands\": [[ARGV...], ...], one of them");
	int r = 0;
	cfg_push_key(c, one ? "command" : "commands");
	if (many && (!json_is_array(many) || !json_array_size(many)))
		r = cfg_error(c, "must be a list of steps, each [PROGRAM, ARG...]");
	size_t n = one ? 1 : json_array_size(many);
	f->build_steps = xcalloc(n, sizeof(*f->build_steps));
	for (size_t i = 0; !r && i < n; i++) {
		if (many)
			cfg_push_index(c, i);
		r = build_step(c, one ? one : json_array_get(many, i), &f->build_steps[i]);
		if (many)
			cfg_pop(c);
		f->nbuild_steps = i + 1;
	}
	cfg_pop(c);
	if (!r)
		sv_pushv(&f->build_command, f->build_steps[0].v);
	return r;
}

/* A build that names {cxx} or {cxxflags} builds C++: its cells use the
 * compiler's C++ driver. */
static enum source_lang build_lang(const struct family *f)
{
	for (size_t s = 0; s < f->nbuild_steps; s++)
		for (size_t i = 0; i < f->build_steps[s].n; i++)
			if (strstr(f->build_steps[s].v[i], "{cxx}") || strstr(f->build_steps[s].v[i], "{cxxflags}"))
				return LANG_CXX;
	return LANG_C;
}

/* "build": {"command": [ARGV...] or "commands": [[ARGV...], ...],
 * "binary": "{src}/PATH"}. */
static int load_build(struct cfg *c, json_t *root, struct family *f)
{
	static const char *const keys[] = { "command", "commands", "binary", NULL },
				 *const bin_known[] = { "src", "variant", NULL };
	json_t *b = json_object_get(root, "build");
	if (!b)
		return 0;
	cfg_push_key(c, "build");
	int r = 0;
	if (!json_is_object(b))
		r = cfg_error(c, "must be {\"command\": [ARGV...], \"binary\": \"{src}/PROGRAM\"}");
	if (!r)
		r = cfg_check_keys(c, b, keys);
	if (!r)
		r = build_steps(c, b, f);
	if (!r)
		r = cfg_string(c, b, "binary", 1, &f->build_binary);
	if (!r) {
		cfg_push_key(c, "binary");
		r = placeholders_known(c, f->build_binary, bin_known);
		if (!r && strncmp(f->build_binary, "{src}/", 6))
			r = cfg_error(c, "must be a path in the built tree: \"{src}/...\", not '%s'", f->build_binary);
		if (!r)
			r = path_inside(c, f->build_binary + 6);
		cfg_pop(c);
	}
	cfg_pop(c);
	return r;
}

/* After the variants: same_as names one of them, or "baseline" the
 * family's baseline variant (so a family that renames its baseline keeps
 * its check); a variant literally named "baseline" would make that word
 * mean two things, and is refused. */
static int check_same_as(struct cfg *c, struct family *f)
{
	if (f->check_kind != CHECK_KIND_SAME_AS)
		return 0;
	int named_baseline = 0;
	for (size_t i = 0; i < f->nvariants; i++)
		named_baseline |= !strcmp(f->variants[i].name, "baseline");
	cfg_push_key(c, "check");
	cfg_push_key(c, "same_as");
	int r = 0;
	if (!strcmp(f->same_as, "baseline")) {
		if (named_baseline)
			r = cfg_error(c, "\"baseline\" means the family's baseline variant, and a variant is named "
					 "baseline too: rename that variant or name the variant to compare with");
		else if (!f->baseline)
			r = cfg_error(c, "\"baseline\" means the family's baseline variant, and the family has none");
		else {
			free(f->same_as);
			f->same_as = xstrdup(f->baseline);
		}
	} else {
		r = -1;
		for (size_t i = 0; i < f->nvariants && r; i++)
			if (!strcmp(f->variants[i].name, f->same_as))
				r = 0;
		if (r)
			r = cfg_error(c, "'%s' is not one of the family's variants (or \"baseline\", the family's baseline)",
				      f->same_as);
	}
	cfg_pop(c);
	cfg_pop(c);
	return r;
}

static int load_reference(struct cfg *c, json_t *v, struct reference *out)
{
	static const char *const keys[] = { "name", "title", "argv", "bounded_by", NULL };
	memset(out, 0, sizeof(*out));
	if (!json_is_object(v))
		return cfg_error(c, "a reference must be an object with \"name\" and \"argv\"");
	int r = cfg_check_keys(c, v, keys);
	if (!r)
		r = cfg_string(c, v, "name", 1, &out->name);
	if (!r)
		r = cfg_check_name(c, "name", out->name);
	if (!r)
		r = cfg_string(c, v, "title", 0, &out->title);
	if (!r)
		r = cfg_string_list(c, v, "argv", 1, &out->argv);
	char *bound = NULL;
	if (!r)
		r = cfg_string(c, v, "bounded_by", 0, &bound);
	if (!r && bound) {
		if (!strcmp(bound, "max_bytes"))
			out->unbounded = 1;
		else if (strcmp(bound, "size")) {
			cfg_push_key(c, "bounded_by");
			r = cfg_error(c, "must be \"max_bytes\" (the meter cuts the stream) or \"size\" (argv bounds it)");
			cfg_pop(c);
		}
	}
	free(bound);
	if (!r && !out->title)
		out->title = xstrdup(out->name);
	return r;
}

/* "kind": a stream is measured in bytes through a pipe, a compute family by
 * the work it reports. */
static int family_kind(struct cfg *c, json_t *root, struct family *f)
{
	char *kind = NULL;
	int r = cfg_string(c, root, "kind", 1, &kind);
	if (!r) {
		if (!strcmp(kind, "stream"))
			f->kind = KIND_STREAM;
		else if (!strcmp(kind, "compute"))
			f->kind = KIND_COMPUTE;
		else {
			cfg_push_key(c, "kind");
			r = cfg_error(c, "must be \"stream\" or \"compute\", not \"%s\"", kind);
			cfg_pop(c);
		}
	}
	free(kind);
	return r;
}

/* The optional size key under root into *out, at least min. */
static int family_size(struct cfg *c, json_t *root, const char *key, uint64_t min, uint64_t *out)
{
	json_t *v = json_object_get(root, key);
	if (!v)
		return 0;
	cfg_push_key(c, key);
	int r = cfg_size(c, v, min, out);
	cfg_pop(c);
	return r;
}

/* "default_size" (required), "counter_size" and "train_size". */
static int family_sizes(struct cfg *c, json_t *root, struct family *f)
{
	if (!json_object_get(root, "default_size"))
		return cfg_error(c, "missing required key 'default_size'");
	int r = family_size(c, root, "default_size", 1, &f->default_size);
	if (!r)
		r = family_size(c, root, "counter_size", 0, &f->counter_size);
	if (!r)
		r = family_size(c, root, "train_size", 1, &f->train_size);
	return r;
}

/* "variants": a non-empty list, names unique. */
static int family_variants(struct cfg *c, json_t *root, struct family *f)
{
	json_t *vs = json_object_get(root, "variants");
	if (!vs || !json_is_array(vs) || !json_array_size(vs)) {
		if (vs)
			cfg_push_key(c, "variants");
		int r = cfg_error(c, "'variants' must be a non-empty list");
		if (vs)
			cfg_pop(c);
		return r;
	}
	int r = 0;
	f->variants = xcalloc(json_array_size(vs), sizeof(*f->variants));
	cfg_push_key(c, "variants");
	for (size_t i = 0; !r && i < json_array_size(vs); i++) {
		cfg_push_index(c, i);
		r = load_variant(c, json_array_get(vs, i), f, &f->variants[i]);
		f->nvariants++; /* counted even when it failed: free_family frees what it holds */
		for (size_t j = 0; !r && j < i; j++)
			if (!strcmp(f->variants[j].name, f->variants[i].name))
				r = cfg_error(c, "variant '%s' is listed twice", f->variants[i].name);
		cfg_pop(c);
	}
	cfg_pop(c);
	return r;
}

/* "references": other programs that make the same stream. */
static int family_references(struct cfg *c, json_t *root, struct family *f)
{
	json_t *refs = json_object_get(root, "references");
	if (!refs)
		return 0;
	int r = 0;
	cfg_push_key(c, "references");
	if (!json_is_array(refs))
		r = cfg_error(c, "must be a list of objects");
	else
		f->references = xcalloc(json_array_size(refs), sizeof(*f->references));
	for (size_t i = 0; !r && i < json_array_size(refs); i++) {
		cfg_push_index(c, i);
		r = load_reference(c, json_array_get(refs, i), &f->references[i]);
		f->nreferences++; /* as for variants: freed whole by free_family */
		cfg_pop(c);
	}
	cfg_pop(c);
	return r;
}

/* The baseline, when there is one, must be one of the variants. */
static int check_baseline(struct cfg *c, struct family *f)
{
	if (!f->baseline)
		return 0;
	for (size_t i = 0; i < f->nvariants; i++)
		if (!strcmp(f->variants[i].name, f->baseline))
			return 0;
	cfg_push_key(c, "baseline");
	int r = cfg_error(c, "'%s' is not one of the family's variants", f->baseline);
	cfg_pop(c);
	return r;
}

/* "version_file": the version of what the family builds, for results.json */
static int family_version(struct cfg *c, json_t *root, struct family *f)
{
	char *vf = NULL;
	int r = cfg_string(c, root, "version_file", 0, &vf);
	if (!r && vf) {
		cfg_push_key(c, "version_file");
		r = path_inside(c, vf);
		char *vpath = xasprintf("%s/%s", f->dir, vf);
		size_t vlen;
		/* missing until the sources are fetched: the version is then unknown */
		char *vtext = r ? NULL : read_file(vpath, &vlen);
		if (vtext) {
			vtext[strcspn(vtext, "\n")] = '\0';
			f->version = vtext;
		}
		if (!r)
			f->version_file = xstrdup(vf);
		free(vpath);
		cfg_pop(c);
	}
	free(vf);
	return r;
}

/* "pass_size": false: the program takes no N (argv is args alone) */
static int family_pass_size(struct cfg *c, json_t *root, struct family *f)
{
	json_t *ps = json_object_get(root, "pass_size");
	if (ps && !json_is_boolean(ps)) {
		cfg_push_key(c, "pass_size");
		int r = cfg_error(c, "must be true or false");
		cfg_pop(c);
		return r;
	}
	if (ps && json_is_false(ps))
		f->args_template = 1;
	return 0;
}

int load_family(const char *dir, struct family *f)
{
	memset(f, 0, sizeof(*f));
	char *path = xasprintf("%s/family.json", dir);
	char *text = NULL;
	json_t *root = cfg_load_json(path, &text);
	if (!root) {
		free(path);
		return -1;
	}
	f->dir = xstrdup(dir);
	f->json = root;
	struct cfg c = { path, text, { { 0 } }, 0 };
	static const char *const keys[] = { "family", "title", "kind", "unit", "default_size", "check", "baseline",
					    "libs", "args", "variants", "references", "notes", "counter_size",
					    "include_dirs", "defines", "input", "build", "pass_size", "version_file",
					    "train_size", "std", NULL };
	int r = cfg_check_keys(&c, root, keys);
	if (!r)
		r = cfg_string(&c, root, "family", 1, &f->name);
	if (!r)
		r = cfg_check_name(&c, "family", f->name);
	if (!r)
		r = cfg_string(&c, root, "title", 0, &f->title);
	if (!r)
		r = family_kind(&c, root, f);
	if (!r)
		r = cfg_string(&c, root, "unit", 1, &f->unit);
	if (!r)
		r = family_sizes(&c, root, f);
	if (!r)
		r = load_check(&c, root, f);
	if (!r)
		r = load_build(&c, root, f);
	if (!r)
		r = build_words(&c, root, f->dir, &f->include_dirs, &f->defines, NULL);
	/* "baseline": null says the variants do different work (bignum's field
	 * and curve operations), so no speedup between them is computed */
	json_t *bl = json_object_get(root, "baseline");
	if (!r && !(bl && json_is_null(bl)))
		r = cfg_string(&c, root, "baseline", 1, &f->baseline);
	if (!r)
		r = cfg_string_list(&c, root, "libs", 0, &f->libs);
	if (!r)
		r = cfg_string_list(&c, root, "args", 0, &f->args);
	if (!r)
		r = family_variants(&c, root, f);
	if (!r)
		r = family_references(&c, root, f);
	if (!r)
		r = check_baseline(&c, f);
	if (!r)
		r = check_same_as(&c, f);
	if (!r)
		r = load_input(&c, root, f);
	if (!r)
		r = check_arg_templates(&c, f);
	if (!r)
		r = family_std_load(&c, root, f);
	for (size_t i = 0; !r && f->build_command.n && i < f->nvariants; i++)
		f->variants[i].lang = build_lang(f);
	if (!r)
		r = family_version(&c, root, f);
	if (!r)
		r = family_pass_size(&c, root, f);
	if (!r && f->kind == KIND_COMPUTE)
		f->rate_unit = xasprintf("%s/s", f->unit);
	if (!r && !f->title)
		f->title = xstrdup(f->name);
	free(text);
	free(path);
	if (r < 0) {
		free_family(f);
		return -1;
	}
	return 0;
}

void free_family(struct family *f)
{
	for (size_t i = 0; i < f->nvariants; i++) {
		struct variant *v = &f->variants[i];
		free(v->name);
		free(v->title);
		free(v->source);
		sv_clear(&v->sources);
		sv_clear(&v->include_dirs);
		sv_clear(&v->defines);
		sv_clear(&v->libs);
		sv_clear(&v->requires_flags);
		sv_clear(&v->requires_cpu);
		sv_clear(&v->requires_march);
		sv_clear(&v->args);
	}
	for (size_t i = 0; i < f->nreferences; i++) {
		free(f->references[i].name);
		free(f->references[i].title);
		sv_clear(&f->references[i].argv);
	}
	free(f->variants);
	free(f->references);
	free(f->name);
	free(f->dir);
	free(f->title);
	free(f->unit);
	free(f->rate_unit);
	free(f->check);
	free(f->baseline);
	free(f->same_as);
	free(f->same_as_binary);
	json_decref(f->sha256);
	sv_clear(&f->check_command);
	sv_clear(&f->input_command);
	sv_clear(&f->build_command);
	for (size_t i = 0; i < f->nbuild_steps; i++)
		sv_clear(&f->build_steps[i]);
	free(f->build_steps);
	free(f->build_binary);
	free(f->std);
	free(f->version);
	free(f->version_file);
	free(f->input_file);
	sv_clear(&f->include_dirs);
	sv_clear(&f->defines);
	sv_clear(&f->libs);
	sv_clear(&f->args);
	json_decref(f->json);
	memset(f, 0, sizeof(*f));
}

/* Loads the families of dir: dir itself when it holds family.json, else
 * each of its subfolders that does (sorted).  must_have: a folder with
 * none at all is an error (a --family-dir, not variants/). */

const char *family_kind_name(enum family_kind k)
{
	return k == KIND_STREAM ? "stream" : "compute";
}
