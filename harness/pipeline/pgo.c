/* pgo.c: see pgo.h */
#define _GNU_SOURCE
#include "pipeline/pgo.h"

#include <errno.h>
#include <string.h>

#include "core/runcmd.h"
#include "pipeline/build_words.h"

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
		build_first_lines(e ? e : err.buf, 3, first, sizeof(first));
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
int build_pgo(struct cell *c, const char *dir, const char *prog, double timeout_s, char *why, size_t n)
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

void pgo_read_train_time(struct cell *c, const char *dir)
{
	char *tf = xasprintf("%s/train_s", dir);
	char *txt = read_file(tf, NULL);
	if (txt)
		c->build.train_s = strtod(txt, NULL);
	free(txt);
	free(tf);
}
