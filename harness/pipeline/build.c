/* build.c: see build.h */
#define _GNU_SOURCE
#include "pipeline/build.h"

#include <dirent.h>
#include <elf.h>
#include <ftw.h>
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/runcmd.h"

/* Hashes the .c and .h files of one folder into sb (not recursive). */
static void hash_folder_sources(struct strbuf *sb, const char *dir)
{
	struct dirent **ents;
	int n = scandir(dir, &ents, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		size_t l = strlen(ents[i]->d_name);
		/* every source beside the variant: a variant may include another */
		if (l > 2 && (!strcmp(ents[i]->d_name + l - 2, ".h") || !strcmp(ents[i]->d_name + l - 2, ".c"))) {
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
static char *layout_pad_source(const struct cell *c, const char *dir)
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
static void variant_build_words(const struct cell *c, const char *pad_source, struct strvec *argv)
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
	sv_pushv(argv, v->sources.v);
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

/* The build command's argv for a cell whose tree is copied to src. */
static void build_command_argv(const struct cell *c, const char *src, struct strvec *argv)
{
	const struct family *f = c->spec.family;
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
	struct strbuf cf = STRBUF_INIT, lf = STRBUF_INIT;
	join_words(&cf, words.v);
	join_words(&lf, libs.v);
	const char *names[] = { "src", "cc", "cflags", "ldflags", "variant" };
	const char *values[] = { src, c->spec.compiler->path, cf.buf ? cf.buf : "", lf.buf ? lf.buf : "",
				 c->spec.variant->name };
	for (size_t i = 0; i < f->build_command.n; i++) {
		char *w = xstrdup(f->build_command.v[i]);
		for (size_t k = 0; k < 5; k++) {
			char *n = placeholder_replace(w, names[k], values[k]);
			free(w);
			w = n;
		}
		sv_push(argv, w);
		free(w);
	}
	sb_release(&cf);
	sb_release(&lf);
	sv_clear(&words);
	sv_clear(&libs);
}

/* The cache key's part for a build-command family: the whole source tree
 * and the command with everything but the private folder substituted. */
static int build_command_key(const struct cell *c, struct strbuf *sb)
{
	struct strvec argv = STRVEC_INIT;
	build_command_argv(c, "{src}", &argv);
	for (size_t i = 0; i < argv.n; i++)
		sb_addf(sb, "build %s\n", argv.v[i]);
	sb_addf(sb, "binary %s\n", c->spec.family->build_binary);
	sv_clear(&argv);
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

/* One compile job: several cells may wait on it. */
struct job {
	char key[65];
	char *dir, *prog, *tmp;
	size_t first_cell;
	struct child child;
	struct strbuf err;
	int running, done, ok;
	const char *what;  /* "compiler", or "build command" (its own build system) */
	char *src;         /* the private copy of the source tree, or NULL */
	char reason[1024];
};

/* The exact command, for provenance and to reproduce by hand. */
static void write_command(const struct job *j, const struct strvec *argv)
{
	struct strbuf cmd = STRBUF_INIT;
	for (size_t i = 0; i < argv->n; i++)
		sb_addf(&cmd, "%s%s", i ? " " : "", argv->v[i]);
	sb_adds(&cmd, "\n");
	char *cmdfile = xasprintf("%s/command", j->dir);
	write_file_atomic(cmdfile, cmd.buf, cmd.len);
	free(cmdfile);
	sb_release(&cmd);
}

/* Starts the job's command in dir (NULL: here), its stderr on a pipe. */
static void launch_job(struct job *j, const struct strvec *argv, const char *dir)
{
	struct child ch = CHILD_INIT;
	ch.argv = argv->v;
	ch.dir = dir;
	ch.in = CHILD_DEVNULL;
	ch.out = CHILD_DEVNULL;
	ch.err = CHILD_PIPE;
	j->child = ch;
	if (child_start(&j->child) < 0) {
		j->done = 1;
		snprintf(j->reason, sizeof(j->reason), "%s %s cannot run", j->what, argv->v[0]);
	} else {
		j->running = 1;
	}
}

/* A family's own build system: its tree copied into the job's folder, the
 * command run there; the binary it names is then moved into the cache. */
static void start_build_command_job(struct plan *p, struct job *j)
{
	struct cell *c = &p->cells[j->first_cell];
	const struct family *f = c->spec.family;
	j->what = "build command";
	j->src = xasprintf("%s/src.%ld", j->dir, (long)getpid());
	char *cp[] = { "cp", "-a", "--", c->spec.variant->source, j->src, NULL };
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	struct child_exit ex;
	run_capture(cp, CHILD_DEVNULL, 300, 4096, &out, &err, &ex);
	sb_release(&out);
	if (ex.outcome != CHILD_EXITED || ex.exit_code) {
		j->done = 1;
		snprintf(j->reason, sizeof(j->reason), "cannot copy %s: %.*s", c->spec.variant->source,
			 (int)strcspn(err.buf ? err.buf : "", "\n"), err.buf ? err.buf : "");
		sb_release(&err);
		return;
	}
	sb_release(&err);
	struct strvec argv = STRVEC_INIT;
	build_command_argv(c, j->src, &argv);
	write_command(j, &argv);
	char *bin = placeholder_replace(f->build_binary, "src", j->src);
	free(j->tmp);
	j->tmp = placeholder_replace(bin, "variant", c->spec.variant->name);
	free(bin);
	launch_job(j, &argv, j->src);
	sv_clear(&argv);
}

static void start_job(struct plan *p, struct job *j)
{
	struct cell *c = &p->cells[j->first_cell];
	if (c->spec.family->build_command.n) {
		start_build_command_job(p, j);
		return;
	}
	j->what = "compiler";
	struct strvec argv = STRVEC_INIT;
	sv_push(&argv, c->spec.compiler->path);
	sv_pushv(&argv, c->spec.cflags.v);
	sv_push(&argv, "-o");
	sv_push(&argv, j->tmp);
	char *pad = layout_pad_source(c, j->dir);
	variant_build_words(c, pad, &argv);
	free(pad);
	write_command(j, &argv);

	launch_job(j, &argv, NULL);
	/* argv strings are copied by exec in the child; the parent may free */
	sv_clear(&argv);
}

static void first_lines(const char *text, int lines, char *out, size_t n)
{
	size_t o = 0;
	const char *p = text ? text : "";
	while (*p && lines > 0 && o + 1 < n) {
		if (*p == '\n') {
			lines--;
			if (lines && o + 3 < n) {
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

static void finish_job(struct job *j, double timeout_s)
{
	struct child_exit ex;
	child_wait(&j->child, timeout_s, &ex);
	j->running = 0;
	j->done = 1;
	char sum[65], *sum_path = xasprintf("%s.sha256", j->prog);
	/* the checksum first, then the binary: a cache hit is proven whole */
	if (ex.outcome == CHILD_EXITED && ex.exit_code == 0 && sha256_file_hex(j->tmp, sum, NULL) == 0 &&
	    write_file_atomic(sum_path, sum, 64) == 0 && rename(j->tmp, j->prog) == 0) {
		j->ok = 1;
	} else if (ex.outcome == CHILD_EXITED && ex.exit_code == 0) {
		snprintf(j->reason, sizeof(j->reason), "%s exited 0 but wrote no binary %s", j->what, j->tmp);
	} else {
		char how[128], first[700];
		describe_exit(&ex, timeout_s, how, sizeof(how));
		/* prefer the lines with "error" in them */
		const char *e = j->err.buf ? strstr(j->err.buf, "error") : NULL;
		if (e)
			while (e > j->err.buf && e[-1] != '\n')
				e--;
		first_lines(e ? e : j->err.buf, 3, first, sizeof(first));
		snprintf(j->reason, sizeof(j->reason), "%s %s: %s", j->what, how, first[0] ? first : "no message");
		char *log = xasprintf("%s/stderr", j->dir);
		write_file_atomic(log, j->err.buf ? j->err.buf : "", j->err.len);
		free(log);
		unlink(j->tmp);
	}
	free(sum_path);
}

/* A cached binary counts only when it still has the checksum it was built
 * with: a truncated or overwritten entry (a full disk, a crash, a hand) is
 * removed and built again. */
static int cache_entry_ok(const char *prog)
{
	if (access(prog, X_OK) < 0)
		return 0;
	char *sum_path = xasprintf("%s.sha256", prog);
	char *want = read_file(sum_path, NULL);
	char have[65];
	int ok = want && strlen(want) >= 64 && sha256_file_hex(prog, have, NULL) == 0 && !strncmp(want, have, 64);
	if (!ok) {
		warning("build cache entry %s %s: building it again", prog,
			want ? "does not match its checksum" : "has no checksum");
		unlink(prog);
	}
	free(want);
	free(sum_path);
	return ok;
}

/* One job per distinct cache key; cell_job[i] is cell i's job, or -1. */
/* The .text size from an ELF image of one class (Elf64_* or Elf32_*). */
#define ELF_TEXT_BYTES(Ehdr, Shdr)                                                                        \
	do {                                                                                              \
		Ehdr eh;                                                                                  \
		memcpy(&eh, b, sizeof(eh));                                                               \
		if (!eh.e_shoff || eh.e_shentsize != sizeof(Shdr) || eh.e_shstrndx >= eh.e_shnum ||      \
		    (uint64_t)eh.e_shoff + (uint64_t)eh.e_shnum * sizeof(Shdr) > len)                     \
			break;                                                                            \
		Shdr names;                                                                               \
		memcpy(&names, b + eh.e_shoff + (uint64_t)eh.e_shstrndx * sizeof(Shdr), sizeof(names));   \
		for (unsigned i = 0; i < eh.e_shnum && (uint64_t)names.sh_offset + names.sh_size <= len; \
		     i++) {                                                                               \
			Shdr sh;                                                                          \
			memcpy(&sh, b + eh.e_shoff + (uint64_t)i * sizeof(sh), sizeof(sh));               \
			if ((uint64_t)sh.sh_name + 6 <= names.sh_size &&                                  \
			    !memcmp(b + names.sh_offset + sh.sh_name, ".text", 6)) {                      \
				*out = sh.sh_size;                                                        \
				r = 0;                                                                    \
			}                                                                                 \
		}                                                                                         \
	} while (0)

int elf_text_bytes(const char *path, uint64_t *out)
{
	size_t len;
	unsigned char *b = (unsigned char *)read_file(path, &len);
	if (!b)
		return -1;
	int r = -1;
	/* native-endian ELF64 or ELF32: find ".text" through the section names */
	if (len >= sizeof(Elf64_Ehdr) && !memcmp(b, ELFMAG, SELFMAG) && b[EI_CLASS] == ELFCLASS64)
		ELF_TEXT_BYTES(Elf64_Ehdr, Elf64_Shdr);
	else if (len >= sizeof(Elf32_Ehdr) && !memcmp(b, ELFMAG, SELFMAG) && b[EI_CLASS] == ELFCLASS32)
		ELF_TEXT_BYTES(Elf32_Ehdr, Elf32_Shdr);
	free(b);
	return r;
}

/* One synchronous step of a profiled build; on failure fills why. */
static int pgo_step(const char *what, char *const *argv, double timeout_s, double *elapsed, char *why, size_t n)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	struct child_exit ex;
	int rc = run_capture(argv, CHILD_DEVNULL, timeout_s, 65536, &out, &err, &ex);
	int ok = rc == 0 && ex.outcome == CHILD_EXITED && ex.exit_code == 0;
	if (elapsed)
		*elapsed = ex.elapsed_s;
	if (!ok) {
		char how[128], first[700];
		describe_exit(&ex, timeout_s, how, sizeof(how));
		const char *e = err.buf ? strstr(err.buf, "error") : NULL;
		if (e)
			while (e > err.buf && e[-1] != '\n')
				e--;
		first_lines(e ? e : err.buf, 3, first, sizeof(first));
		snprintf(why, n, "pgo %s %s: %s", what, how, first[0] ? first : "no message");
	}
	sb_release(&out);
	sb_release(&err);
	return ok ? 0 : -1;
}

static void compile_argv(const struct cell *c, const char *extra, const char *dir, const char *out,
			 struct strvec *argv)
{
	sv_push(argv, c->spec.compiler->path);
	sv_pushv(argv, c->spec.cflags.v);
	sv_push(argv, extra);
	sv_push(argv, "-o");
	sv_push(argv, out);
	char *pad = layout_pad_source(c, dir);
	variant_build_words(c, pad, argv);
	free(pad);
}

/* The training run's arguments: its size as argv[1], or in the family's
 * args template ({N}; {input} is the cell's own input). */
static void train_args(const struct cell *c, struct strvec *argv)
{
	const struct family *f = c->spec.family;
	if (!f->args_template) {
		sv_pushf(argv, "%llu", (unsigned long long)c->spec.train_size);
		sv_pushv(argv, f->args.v);
		sv_pushv(argv, c->spec.variant->args.v);
		return;
	}
	const struct strvec *lists[] = { &f->args, &c->spec.variant->args };
	for (int l = 0; l < 2; l++)
		for (size_t i = 0; i < lists[l]->n; i++) {
			char *w = placeholder_replace(lists[l]->v[i], "dir", f->dir);
			sv_push_replaced(argv, w, "N", c->spec.train_size);
			free(w);
		}
}

/* The two phases of a profile-guided build, in dir (the cache entry):
 * instrumented build, training run, (clang) merge, build with the profile.
 * Both compiles write the same output path, so gcc finds the .gcda files
 * its instrumented binary wrote beside it. */
static int build_pgo(struct cell *c, const char *dir, const char *prog, double timeout_s, char *why, size_t n)
{
	char *work = xasprintf("%s/pgo", dir);
	char *bin = xasprintf("%s/%s", work, c->spec.variant->name);
	char *raw = xasprintf("%s/train.profraw", work);
	char *merged = xasprintf("%s/train.profdata", work);
	int r = mkdir_p(work, 0755);
	if (r < 0)
		snprintf(why, n, "cannot create %s: %s", work, strerror(errno));
	char *gen = c->spec.compiler->is_clang ? xasprintf("-fprofile-instr-generate=%s", raw)
					  : xstrdup("-fprofile-generate");
	char *use = c->spec.compiler->is_clang ? xasprintf("-fprofile-instr-use=%s", merged) : xstrdup("-fprofile-use");
	struct strvec argv = STRVEC_INIT;
	if (!r) {
		compile_argv(c, gen, dir, bin, &argv);
		r = pgo_step("instrumented build", argv.v, timeout_s, NULL, why, n);
		sv_clear(&argv);
	}
	if (!r && c->spec.family->build_command.n) {
		snprintf(why, n, "pgo is not supported for a family built by its own build command");
		r = -1;
	}
	if (!r) {
		sv_push(&argv, bin);
		train_args(c, &argv);
		r = pgo_step("training run", argv.v, timeout_s, &c->build.train_s, why, n);
		sv_clear(&argv);
	}
	if (!r && c->spec.compiler->is_clang) {
		char *o = xasprintf("--output=%s", merged);
		char *av[] = { c->spec.profdata, "merge", o, raw, NULL };
		r = pgo_step("profile merge", av, timeout_s, NULL, why, n);
		free(o);
	}
	if (!r) {
		compile_argv(c, use, dir, bin, &argv);
		r = pgo_step("build with the profile", argv.v, timeout_s, NULL, why, n);
		sv_clear(&argv);
	}
	/* as every cache entry: the checksum first, then the binary */
	char sum[65], *sum_path = xasprintf("%s.sha256", prog);
	if (!r && (sha256_file_hex(bin, sum, NULL) < 0 || write_file_atomic(sum_path, sum, 64) < 0 ||
		   rename(bin, prog) < 0)) {
		snprintf(why, n, "cannot move %s into the cache: %s", bin, strerror(errno));
		r = -1;
	}
	free(sum_path);
	if (!r) {
		/* the training time survives in the cache for later runs */
		char *tf = xasprintf("%s/train_s", dir);
		char *txt = xasprintf("%.9f %llu\n", c->build.train_s, (unsigned long long)c->spec.train_size);
		write_file_atomic(tf, txt, strlen(txt));
		free(txt);
		free(tf);
	}
	free(gen);
	free(use);
	free(work);
	free(bin);
	free(raw);
	free(merged);
	return r;
}

static void read_train_time(struct cell *c, const char *dir)
{
	char *tf = xasprintf("%s/train_s", dir);
	char *txt = read_file(tf, NULL);
	if (txt)
		c->build.train_s = strtod(txt, NULL);
	free(txt);
	free(tf);
}

static size_t plan_jobs(struct plan *p, const char *cache_dir, double timeout_s, struct job *js, int *cell_job,
			struct build_stats *st)
{
	size_t njobs = 0;
	for (size_t i = 0; i < p->n; i++) {
		struct cell *c = &p->cells[i];
		cell_job[i] = -1;
		if (c->status != CELL_PENDING || !c->spec.variant)
			continue;
		char key[65];
		if (build_cache_key(c, key) < 0) {
			cell_set_status(c, CELL_BUILD_FAILED, "cannot read %s", c->spec.variant->source);
			continue;
		}
		size_t k;
		for (k = 0; k < njobs; k++)
			if (!strcmp(js[k].key, key))
				break;
		if (k == njobs) {
			struct job *j = &js[njobs++];
			memcpy(j->key, key, 65);
			j->first_cell = i;
			j->dir = xasprintf("%s/%.2s/%s", cache_dir, key, key + 2);
			j->prog = xasprintf("%s/%s", j->dir, c->spec.variant->name);
			j->tmp = xasprintf("%s.tmp.%ld", j->prog, (long)getpid());
			if (cache_entry_ok(j->prog)) {
				j->done = j->ok = 1;
				st->cached++;
			} else if (mkdir_p(j->dir, 0755) < 0) {
				j->done = 1;
				snprintf(j->reason, sizeof(j->reason), "cannot create %s: %s", j->dir, strerror(errno));
			} else if (c->spec.pgo && !fb_interrupted) {
				/* two compiles and a run in between: done here, one at a time */
				j->done = 1;
				j->ok = build_pgo(c, j->dir, j->prog, timeout_s, j->reason, sizeof(j->reason)) == 0;
				if (j->ok)
					st->compiled++;
			}
		}
		cell_job[i] = (int)k;
	}
	return njobs;
}

/* Reads the running compilers' stderr for up to 100 ms; finishes those
 * that closed it or ran past the timeout.  Returns how many finished. */
static unsigned drain_jobs(struct job *js, size_t njobs, double timeout_s, struct build_stats *st)
{
	struct pollfd pfd[64];
	size_t map[64], n = 0;
	unsigned finished = 0;
	for (size_t k = 0; k < njobs && n < 64; k++)
		if (js[k].running && js[k].child.err_fd >= 0) {
			pfd[n].fd = js[k].child.err_fd;
			pfd[n].events = POLLIN;
			map[n++] = k;
		}
	int pr = poll(pfd, (nfds_t)n, 100);
	for (size_t k = 0; pr > 0 && k < n; k++) {
		if (!pfd[k].revents)
			continue;
		struct job *j = &js[map[k]];
		char buf[4096];
		ssize_t r = read(j->child.err_fd, buf, sizeof(buf));
		if (r > 0) {
			if (j->err.len < 65536)
				sb_add(&j->err, buf, (size_t)r);
			continue;
		}
		if (r < 0 && errno == EINTR)
			continue;
		close(j->child.err_fd);
		j->child.err_fd = -1;
		finish_job(j, timeout_s);
		finished++;
		if (j->ok)
			st->compiled++;
	}
	/* a job whose compiler hangs with stderr open: enforce the timeout */
	for (size_t k = 0; k < njobs; k++) {
		struct job *j = &js[k];
		if (j->running && (fb_interrupted || now_monotonic() - j->child.started > timeout_s)) {
			close(j->child.err_fd);
			j->child.err_fd = -1;
			finish_job(j, timeout_s);
			finished++;
		}
	}
	return finished;
}

/* Runs up to `jobs` compilers at once until every job is done. */
static void run_jobs(struct plan *p, struct job *js, size_t njobs, unsigned jobs, double timeout_s,
		     struct build_stats *st)
{
	size_t next = 0;
	unsigned running = 0;
	for (;;) {
		while (running < jobs && next < njobs) {
			struct job *j = &js[next++];
			if (j->done)
				continue;
			start_job(p, j);
			if (j->running)
				running++;
		}
		if (!running)
			break;
		running -= drain_jobs(js, njobs, timeout_s, st);
	}
}

/* Each cell gets its job's binary, or the job's failure. */
static void assign_binaries(struct plan *p, const struct job *js, const int *cell_job)
{
	for (size_t i = 0; i < p->n; i++) {
		if (cell_job[i] < 0)
			continue;
		const struct job *j = &js[cell_job[i]];
		struct cell *c = &p->cells[i];
		if (j->ok) {
			c->build.binary = xstrdup(j->prog);
			if (sha256_file_hex(c->build.binary, c->build.sha256, &c->build.bytes) < 0)
				cell_set_status(c, CELL_BUILD_FAILED, "cannot read the built binary %s", c->build.binary);
			if (elf_text_bytes(c->build.binary, &c->build.text_bytes) < 0)
				c->build.text_bytes = 0;
			if (c->spec.pgo)
				read_train_time(c, j->dir);
		} else if (fb_interrupted) {
			/* a compile cut by the signal is no verdict: --resume builds it */
			cell_set_status(c, CELL_SKIPPED, "interrupted before it was built");
		} else {
			cell_set_status(c, CELL_BUILD_FAILED, "%s", j->reason[0] ? j->reason : "not built");
		}
	}
}

int build_plan(struct plan *p, const char *cache_dir, unsigned jobs, double timeout_s, struct build_stats *st)
{
	memset(st, 0, sizeof(*st));
	if (mkdir_p(cache_dir, 0755) < 0)
		return error("cannot create %s: %s", cache_dir, strerror(errno));
	struct job *js = xcalloc(p->n ? p->n : 1, sizeof(*js));
	int *cell_job = xcalloc(p->n ? p->n : 1, sizeof(int));
	size_t njobs = plan_jobs(p, cache_dir, timeout_s, js, cell_job, st);
	run_jobs(p, js, njobs, jobs, timeout_s, st);
	assign_binaries(p, js, cell_job);
	for (size_t k = 0; k < njobs; k++) {
		if (js[k].done && !js[k].ok)
			st->failed++;
		free(js[k].dir);
		free(js[k].prog);
		free(js[k].tmp);
		free(js[k].src);
		sb_release(&js[k].err);
	}
	free(js);
	free(cell_job);
	return 0;
}

void build_dedupe(struct plan *p)
{
	for (size_t i = 0; i < p->n; i++) {
		struct cell *c = &p->cells[i];
		if (!c->build.binary || c->status != CELL_PENDING)
			continue;
		for (size_t k = 0; k < i; k++) {
			struct cell *o = &p->cells[k];
			if (o->build.binary && o->build.same_binary_as < 0 && o->status == CELL_PENDING &&
			    !strcmp(o->build.sha256, c->build.sha256) && !strcmp(o->spec.allocator, c->spec.allocator) &&
			    cell_spec_same_run(&o->spec, &c->spec)) {
				c->build.same_binary_as = (int)k;
				break;
			}
		}
	}
}
