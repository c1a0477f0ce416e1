/* inputs.c: see inputs.h */
#define _GNU_SOURCE
#include "pipeline/inputs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/runcmd.h"

/* Makes the input of family f at size n (its path, or NULL and why). */
static char *make_input(const struct family *f, uint64_t n, const char *cache_dir, double timeout_s, char *why,
			size_t whyn)
{
	struct strvec argv = STRVEC_INIT;
	struct strbuf key = STRBUF_INIT;
	sb_addf(&key, "flagbench-input/1\n%llu\n", (unsigned long long)n);
	size_t dlen = strlen(f->dir);
	for (size_t i = 0; i < f->input_command.n; i++) {
		sv_push_replaced(&argv, f->input_command.v[i], "N", n);
		/* a path inside the family by the family's name, not its folder: two
		 * copies of one family (a run's and an edited one) make one input,
		 * so their unchanged programs keep one argv (compare's controls) */
		const char *w = argv.v[i];
		if (!strncmp(w, f->dir, dlen) && w[dlen] == '/')
			sb_addf(&key, "word {family %s}%s\n", f->name, w + dlen);
		else
			sb_addf(&key, "word %s\n", w);
	}
	char h[65];
	if (sha256_file_hex(argv.v[0], h, NULL) == 0) /* the family's own generator: its text counts */
		sb_addf(&key, "program %s\n", h);
	sha256_hex(key.buf, key.len, h);
	sb_release(&key);
	char *dir = xasprintf("%s/inputs", cache_dir);
	char *path = xasprintf("%s/%s", dir, h);
	char *tmp = xasprintf("%s.tmp.%ld", path, (long)getpid());
	if (access(path, R_OK) == 0)
		goto done;
	int fd = -1;
	if (mkdir_p(dir, 0755) < 0 || (fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)) < 0) {
		snprintf(why, whyn, "cannot write %s: %s", tmp, strerror(errno));
		goto fail;
	}
	struct child ch = CHILD_INIT;
	struct strbuf err = STRBUF_INIT;
	ch.argv = argv.v;
	ch.in = CHILD_DEVNULL;
	ch.out = fd;
	ch.err = CHILD_PIPE;
	ch.dir = f->dir;
	struct child_exit ex;
	int started = child_start(&ch);
	close(fd);
	if (started == 0) {
		char buf[4096];
		ssize_t r;
		fcntl(ch.err_fd, F_SETFL, O_NONBLOCK);
		while ((r = child_read(&ch, ch.err_fd, buf, sizeof(buf), ch.started + timeout_s)) > 0)
			if (err.len < 4096)
				sb_add(&err, buf, (size_t)r);
		close(ch.err_fd);
		ch.err_fd = -1;
		/* the read ends early on an interrupt too: that is no timeout */
		if (r < 0)
			child_stop(&ch, fb_interrupted ? CHILD_INTERRUPTED : CHILD_TIMED_OUT, &ex);
		else
			child_wait(&ch, timeout_s, &ex);
	}
	if (started < 0 || ex.outcome != CHILD_EXITED || ex.exit_code != 0) {
		char how[128] = "could not be run";
		if (started == 0)
			describe_exit(&ex, timeout_s, how, sizeof(how));
		snprintf(why, whyn, "input command %s %s%s%.*s", argv.v[0], how, err.len ? ": " : "",
			 (int)strcspn(err.buf ? err.buf : "", "\n"), err.buf ? err.buf : "");
		sb_release(&err);
		unlink(tmp);
		goto fail;
	}
	sb_release(&err);
	if (rename(tmp, path) < 0) {
		snprintf(why, whyn, "cannot rename %s: %s", tmp, strerror(errno));
		unlink(tmp);
		goto fail;
	}
done:
	free(dir);
	free(tmp);
	sv_clear(&argv);
	return path;
fail:
	free(dir);
	free(tmp);
	free(path);
	sv_clear(&argv);
	return NULL;
}

void inputs_prepare(struct plan *p, const char *cache_dir, double timeout_s)
{
	for (size_t i = 0; i < p->n; i++) {
		struct cell *c = &p->cells[i];
		const struct family *f = c->spec.family;
		if (!f->input_file && !f->input_command.n)
			continue;
		int uses = 0;
		for (size_t k = 0; k < c->spec.run_args.n; k++)
			uses |= strstr(c->spec.run_args.v[k], "{input}") != NULL;
		if (!uses || c->status != CELL_PENDING)
			continue;
		char why[512] = "";
		char *path = f->input_file ? xstrdup(f->input_file) : NULL;
		/* one generation per family and size: an earlier cell's made it */
		for (size_t k = 0; !path && k < i; k++)
			if (p->cells[k].spec.family == f && p->cells[k].spec.size == c->spec.size &&
			    p->cells[k].status == CELL_UNSUPPORTED && p->cells[k].reason &&
			    !strncmp(p->cells[k].reason, "input command", 13)) {
				snprintf(why, sizeof(why), "%s", p->cells[k].reason);
				break;
			}
		if (!path && !why[0])
			path = make_input(f, c->spec.size, cache_dir, timeout_s, why, sizeof(why));
		if (!path) {
			cell_set_status(c, CELL_UNSUPPORTED, "%s", why);
			continue;
		}
		for (size_t k = 0; k < c->spec.run_args.n; k++) {
			char *w = placeholder_replace(c->spec.run_args.v[k], "input", path);
			free(c->spec.run_args.v[k]);
			c->spec.run_args.v[k] = w;
		}
		free(path);
	}
}
