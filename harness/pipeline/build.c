/* build.c: see build.h */
#define _GNU_SOURCE
#include "pipeline/build.h"

#include <elf.h>
#include <errno.h>
#include <string.h>

#include "core/runcmd.h"
#include <sys/stat.h>

#include "pipeline/build_progress.h"
#include "pipeline/build_words.h"
#include "pipeline/pgo.h"

/* One compile job: several cells may wait on it. */
struct job {
	char key[65];
	char *dir, *prog, *tmp;
	size_t first_cell;
	struct child child;
	struct strbuf err;
	int running, done, ok;
	const char *what;  /* "compiler", or "build command" (its own build system) */
	char *hint;        /* said after a failure's reason, or NULL */
	char *src;         /* the private copy of the source tree, or NULL */
	const struct cell *cell; /* its own build system: the cell whose steps run */
	size_t step;       /* its own build system: the step running (family.h build_steps) */
	char what_buf[64];
	const char *id;    /* its first cell's, for the progress lines */
	double weight;     /* the expected cost: the largest compile starts first */
	double first_started; /* when its first step started (0: not yet) */
	char reason[1024];
};

/* The exact command, for provenance and to reproduce by hand: one line
 * per step. */
static void write_command(const struct job *j, const struct strvec *argv, int append)
{
	struct strbuf cmd = STRBUF_INIT;
	char *cmdfile = xasprintf("%s/command", j->dir);
	if (append) {
		char *was = read_file(cmdfile, NULL);
		sb_adds(&cmd, was ? was : "");
		free(was);
	}
	for (size_t i = 0; i < argv->n; i++)
		sb_addf(&cmd, "%s%s", i ? " " : "", argv->v[i]);
	sb_adds(&cmd, "\n");
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

/* Step j->step of a family's own build, run in the private copy; a build
 * of several steps names the step in its reason. */
static void start_build_step(struct job *j)
{
	const struct family *f = j->cell->spec.family;
	if (f->nbuild_steps > 1)
		snprintf(j->what_buf, sizeof(j->what_buf), "build step %zu of %zu", j->step + 1, f->nbuild_steps);
	else
		snprintf(j->what_buf, sizeof(j->what_buf), "build command");
	j->what = j->what_buf;
	sb_release(&j->err);
	struct strvec argv = STRVEC_INIT;
	build_step_argv(j->cell, j->step, j->src, &argv);
	write_command(j, &argv, j->step > 0);
	launch_job(j, &argv, j->src);
	sv_clear(&argv);
}

/* A family's own build system: its tree copied into the job's folder, the
 * steps run there in order; the binary it names is then moved into the
 * cache. */
static void start_build_command_job(struct plan *p, struct job *j)
{
	struct cell *c = &p->cells[j->first_cell];
	const struct family *f = c->spec.family;
	j->what = "build command";
	/* a source package's family whose version file is not there yet: its
	 * sources were most likely never fetched, and the build's own error
	 * ("ld returned 1") does not say so */
	if (f->version_file && !f->version)
		j->hint = xasprintf(" (%s/%s is missing: are the family's sources fetched? "
				    "scripts/project-sources.sh fetches the projects families')",
				    f->dir, f->version_file);
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
	char *bin = placeholder_replace(f->build_binary, "src", j->src);
	free(j->tmp);
	j->tmp = placeholder_replace(bin, "variant", c->spec.variant->name);
	free(bin);
	j->cell = c;
	j->step = 0;
	start_build_step(j);
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
	write_command(j, &argv, 0);

	launch_job(j, &argv, NULL);
	/* argv strings are copied by exec in the child; the parent may free */
	sv_clear(&argv);
}

/* Waits for the job's command; 0 when it was a build step that went well
 * and the next one started, else 1 (the job is done). */
static int finish_job(struct job *j, double timeout_s)
{
	struct child_exit ex;
	child_wait(&j->child, timeout_s, &ex);
	j->running = 0;
	if (j->cell && ex.outcome == CHILD_EXITED && ex.exit_code == 0 && !fb_interrupted &&
	    j->step + 1 < j->cell->spec.family->nbuild_steps) {
		j->step++;
		start_build_step(j);
		if (j->running)
			return 0;
		return 1;
	}
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
		build_first_lines(e ? e : j->err.buf, 3, first, sizeof(first));
		snprintf(j->reason, sizeof(j->reason), "%s %s: %s%s", j->what, how, first[0] ? first : "no message",
			 j->hint ? j->hint : "");
		char *log = xasprintf("%s/stderr", j->dir);
		write_file_atomic(log, j->err.buf ? j->err.buf : "", j->err.len);
		free(log);
		unlink(j->tmp);
	}
	free(sum_path);
	return 1;
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

/* A compile's expected cost, for the order of the compiles: the source's
 * bytes, so that a large translation unit never waits behind small ones
 * and ends the build alone; a family's own build system compiles a tree,
 * first of all. */
static double job_weight(const struct cell *c)
{
	struct stat sb;
	if (c->spec.family->build_command.n)
		return 1e18;
	return c->spec.variant->source && stat(c->spec.variant->source, &sb) == 0 ? (double)sb.st_size : 0;
}

static size_t plan_jobs(struct plan *p, const char *cache_dir, double timeout_s, struct job *js, int *cell_job,
			struct build_stats *st)
{
	size_t njobs = 0;
	for (size_t i = 0; i < p->n; i++) {
		struct cell *c = &p->cells[i];
		cell_job[i] = -1;
		/* a cell with a binary was built by an earlier call (session.h) */
		if (c->status != CELL_PENDING || !c->spec.variant || c->build.binary)
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
			j->id = c->spec.id;
			j->weight = job_weight(c);
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
static unsigned job_finished(struct job *j, double timeout_s, struct build_stats *st, struct build_progress *bp)
{
	if (!j->first_started)
		j->first_started = j->child.started;
	if (!finish_job(j, timeout_s))
		return 0;
	build_progress_finished(bp, now_monotonic() - j->first_started, j->ok);
	if (j->ok)
		st->compiled++;
	return 1;
}

static unsigned drain_jobs(struct job *js, size_t njobs, double timeout_s, struct build_stats *st,
			   struct build_progress *bp)
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
		finished += job_finished(j, timeout_s, st, bp);
	}
	/* a job whose compiler hangs with stderr open: enforce the timeout */
	for (size_t k = 0; k < njobs; k++) {
		struct job *j = &js[k];
		if (j->running && (fb_interrupted || now_monotonic() - j->child.started > timeout_s)) {
			close(j->child.err_fd);
			j->child.err_fd = -1;
			finished += job_finished(j, timeout_s, st, bp);
		}
	}
	return finished;
}

static int heavier_first(const void *a, const void *b)
{
	const struct job *x = *(const struct job *const *)a, *y = *(const struct job *const *)b;
	if (x->weight != y->weight)
		return x->weight < y->weight ? 1 : -1;
	return x < y ? -1 : x > y;
}

static void tick(struct build_progress *bp, struct job *js, size_t njobs)
{
	struct build_running run[64];
	size_t n = 0;
	for (size_t k = 0; k < njobs && n < 64; k++)
		if (js[k].running)
			run[n++] = (struct build_running){ js[k].id, js[k].child.started };
	build_progress_tick(bp, now_monotonic(), run, n);
}

/* Runs up to `jobs` compilers at once, the heaviest first, until every
 * job is done. */
static void run_jobs(struct plan *p, struct job *js, size_t njobs, const struct build_request *rq,
		     struct build_stats *st)
{
	struct job **order = xcalloc(njobs + 1, sizeof(*order));
	size_t todo = 0;
	for (size_t k = 0; k < njobs; k++)
		if (!js[k].done)
			order[todo++] = &js[k];
	qsort(order, todo, sizeof(*order), heavier_first);
	unsigned jobs = rq->jobs ? rq->jobs : 1;
	struct build_progress bp;
	build_progress_begin(&bp, rq->progress, todo, st->cached, jobs, now_monotonic());
	size_t next = 0;
	unsigned running = 0;
	for (;;) {
		while (running < jobs && next < todo) {
			struct job *j = order[next++];
			start_job(p, j);
			if (j->running)
				running++;
			else
				build_progress_finished(&bp, 0, 0);
		}
		if (!running)
			break;
		running -= drain_jobs(js, njobs, rq->timeout_s, st, &bp);
		tick(&bp, js, njobs);
	}
	build_progress_end(&bp, now_monotonic());
	free(order);
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
				pgo_read_train_time(c, j->dir);
		} else if (fb_interrupted) {
			/* a compile cut by the signal is no verdict: --resume builds it */
			cell_set_status(c, CELL_SKIPPED, "interrupted before it was built");
		} else {
			cell_set_status(c, CELL_BUILD_FAILED, "%s", j->reason[0] ? j->reason : "not built");
		}
	}
}

int build_plan(struct plan *p, const struct build_request *rq, struct build_stats *st)
{
	const char *cache_dir = rq->cache_dir;
	double timeout_s = rq->timeout_s;
	memset(st, 0, sizeof(*st));
	if (mkdir_p(cache_dir, 0755) < 0)
		return error("cannot create %s: %s", cache_dir, strerror(errno));
	struct job *js = xcalloc(p->n ? p->n : 1, sizeof(*js));
	int *cell_job = xcalloc(p->n ? p->n : 1, sizeof(int));
	size_t njobs = plan_jobs(p, cache_dir, timeout_s, js, cell_job, st);
	run_jobs(p, js, njobs, rq, st);
	assign_binaries(p, js, cell_job);
	for (size_t k = 0; k < njobs; k++) {
		if (js[k].done && !js[k].ok)
			st->failed++;
		free(js[k].dir);
		free(js[k].prog);
		free(js[k].tmp);
		free(js[k].src);
		free(js[k].hint);
		sb_release(&js[k].err);
	}
	free(js);
	free(cell_job);
	return 0;
}
