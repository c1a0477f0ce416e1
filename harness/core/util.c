/* util.c: see util.h */
#define _GNU_SOURCE
#include "core/util.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void vreport(const char *prefix, const char *fmt, va_list ap)
{
	char msg[4096];
	vsnprintf(msg, sizeof(msg), fmt, ap);
	fprintf(stderr, "flagbench: %s%s\n", prefix, msg);
}

int error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("", fmt, ap);
	va_end(ap);
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("warning: ", fmt, ap);
	va_end(ap);
}

void die(int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("", fmt, ap);
	va_end(ap);
	exit(code);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		die(EXIT_CELL_FAILED, "out of memory (%zu bytes)", n);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		die(EXIT_CELL_FAILED, "out of memory");
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die(EXIT_CELL_FAILED, "out of memory (%zu bytes)", n);
	return p;
}

char *xstrdup(const char *s)
{
	char *d = strdup(s ? s : "");
	if (!d)
		die(EXIT_CELL_FAILED, "out of memory");
	return d;
}

char *xasprintf(const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	char tmp[1];
	va_list ap2;
	va_copy(ap2, ap);
	int n = vsnprintf(tmp, sizeof(tmp), fmt, ap2);
	va_end(ap2);
	sb.buf = xmalloc((size_t)n + 1);
	vsnprintf(sb.buf, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return sb.buf;
}

int str_equal_or_null(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

static void sb_grow(struct strbuf *sb, size_t extra)
{
	if (sb->len + extra + 1 > sb->alloc) {
		size_t a = sb->alloc ? sb->alloc : 64;
		while (a < sb->len + extra + 1)
			a *= 2;
		sb->buf = xrealloc(sb->buf, a);
		sb->alloc = a;
	}
}

void sb_add(struct strbuf *sb, const char *data, size_t n)
{
	sb_grow(sb, n);
	memcpy(sb->buf + sb->len, data, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void sb_adds(struct strbuf *sb, const char *s)
{
	sb_add(sb, s, strlen(s));
}

void sb_add_printable(struct strbuf *sb, const char *s, int keep_newlines)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p == '\n' && keep_newlines)
			sb_add(sb, "\n", 1);
		else if (*p < 0x20 || *p == 0x7f || (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f))
			sb_adds(sb, *p == 0xc2 ? (p++, "??") : "?");
		else
			sb_add(sb, (const char *)p, 1);
}

size_t utf8_columns(const char *s, size_t len)
{
	size_t w = 0;
	for (size_t i = 0; i < len; i++)
		w += ((unsigned char)s[i] & 0xc0) != 0x80;
	return w;
}

void sb_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list ap2;
	va_copy(ap2, ap);
	char tmp[1];
	int n = vsnprintf(tmp, sizeof(tmp), fmt, ap2);
	va_end(ap2);
	sb_grow(sb, (size_t)n);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	sb->len += (size_t)n;
}

void sb_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	sb_vaddf(sb, fmt, ap);
	va_end(ap);
}

void sb_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

void sb_release(struct strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->alloc = 0;
}

char *sb_detach(struct strbuf *sb)
{
	char *r = sb->buf ? sb->buf : xstrdup("");
	sb->buf = NULL;
	sb->len = sb->alloc = 0;
	return r;
}

void sv_push(struct strvec *sv, const char *s)
{
	if (sv->n + 2 > sv->alloc) {
		sv->alloc = sv->alloc ? sv->alloc * 2 : 8;
		sv->v = xrealloc(sv->v, sv->alloc * sizeof(*sv->v));
	}
	sv->v[sv->n++] = xstrdup(s);
	sv->v[sv->n] = NULL;
}

int sv_contains(const struct strvec *sv, const char *s)
{
	for (size_t i = 0; i < sv->n; i++)
		if (!strcmp(sv->v[i], s))
			return 1;
	return 0;
}

void sv_pushf(struct strvec *sv, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	sb_vaddf(&sb, fmt, ap);
	va_end(ap);
	sv_push(sv, sb.buf ? sb.buf : "");
	sb_release(&sb);
}

void sv_pushv(struct strvec *sv, char *const *v)
{
	for (; v && *v; v++)
		sv_push(sv, *v);
}

void sv_clear(struct strvec *sv)
{
	for (size_t i = 0; i < sv->n; i++)
		free(sv->v[i]);
	free(sv->v);
	sv->v = NULL;
	sv->n = sv->alloc = 0;
}

double now_monotonic(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double now_wall(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void utc_as(double t, const char *format, char *buf, size_t n)
{
	time_t s = (time_t)t;
	struct tm tm;
	gmtime_r(&s, &tm);
	strftime(buf, n, format, &tm);
}

void format_utc(double t, char *buf, size_t n)
{
	utc_as(t, "%Y-%m-%dT%H:%M:%SZ", buf, n);
}

void format_utc_stamp(double t, char *buf, size_t n)
{
	utc_as(t, "%Y%m%dT%H%M%SZ", buf, n);
}

char *next_line(const char **text)
{
	const char *p = *text;
	if (!p || !*p)
		return NULL;
	size_t len = strcspn(p, "\n");
	*text = p + len + (p[len] == '\n');
	return xasprintf("%.*s", (int)len, p);
}

const char *next_line_trimmed(const char **text, const char **end)
{
	const char *p = *text;
	if (!p || !*p)
		return NULL;
	size_t len = strcspn(p, "\n");
	*end = p + len;
	*text = p + len + (p[len] == '\n');
	while (p < *end && isspace((unsigned char)*p))
		p++;
	return p;
}

char *read_file(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	struct strbuf sb = STRBUF_INIT;
	char chunk[65536];
	for (;;) {
		ssize_t r = read(fd, chunk, sizeof(chunk));
		if (r < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;
			close(fd);
			sb_release(&sb);
			errno = e;
			return NULL;
		}
		if (r == 0)
			break;
		sb_add(&sb, chunk, (size_t)r);
	}
	close(fd);
	if (len)
		*len = sb.len;
	return sb_detach(&sb);
}

int write_file_atomic(const char *path, const char *data, size_t len)
{
	char *tmp = xasprintf("%s.tmp.%ld", path, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		int r = error("cannot create %s: %s", tmp, strerror(errno));
		free(tmp);
		return r;
	}
	size_t off = 0;
	while (off < len) {
		ssize_t w = write(fd, data + off, len - off);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			int r = error("cannot write %s: %s", tmp, strerror(errno));
			close(fd);
			unlink(tmp);
			free(tmp);
			return r;
		}
		off += (size_t)w;
	}
	/* fsync before rename: after a crash the name points at whole data. */
	if (fsync(fd) < 0 || close(fd) < 0 || rename(tmp, path) < 0) {
		int r = error("cannot replace %s: %s", path, strerror(errno));
		unlink(tmp);
		free(tmp);
		return r;
	}
	free(tmp);
	return 0;
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	return remove(path);
}

int remove_tree(const char *path)
{
	return nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

int mkdir_p(const char *path, int mode)
{
	char *p = xstrdup(path);
	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, (mode_t)mode) < 0 && errno != EEXIST) {
			free(p);
			return -1;
		}
		*s = '/';
	}
	int r = mkdir(p, (mode_t)mode);
	free(p);
	return (r < 0 && errno != EEXIST) ? -1 : 0;
}

void format_rate(double bps, char *buf, size_t n)
{
	const double Ki = 1024.0, Mi = Ki * Ki, Gi = Mi * Ki;
	if (bps >= Gi)
		snprintf(buf, n, "%.2f GiB/s", bps / Gi);
	else if (bps >= Mi)
		snprintf(buf, n, "%.1f MiB/s", bps / Mi);
	else if (bps >= Ki)
		snprintf(buf, n, "%.1f KiB/s", bps / Ki);
	else
		snprintf(buf, n, "%.0f B/s", bps);
}

void format_duration(double s, char *buf, size_t n)
{
	if (s < 0)
		s = 0;
	if (s >= 3600)
		snprintf(buf, n, "%dh%02dm", (int)(s / 3600), (int)(s / 60) % 60);
	else if (s >= 60)
		snprintf(buf, n, "%dm%02ds", (int)(s / 60), (int)s % 60);
	else
		snprintf(buf, n, "%ds", (int)(s + 0.5));
}

int parse_u64(const char *s, uint64_t *out)
{
	if (!s || !*s || *s == '-' || *s == '+')
		return -1;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno || end == s)
		return -1;
	unsigned shift = 0;
	if (*end == 'K' || *end == 'k')
		shift = 10, end++;
	else if (*end == 'M' || *end == 'm')
		shift = 20, end++;
	else if (*end == 'G' || *end == 'g')
		shift = 30, end++;
	if (*end)
		return -1;
	if (shift && v > (UINT64_MAX >> shift))
		return -1;
	*out = (uint64_t)v << shift;
	return 0;
}

char *find_on_path_named(const char *name)
{
	if (!name || !*name)
		return NULL;
	if (strchr(name, '/'))
		return access(name, X_OK) == 0 ? xstrdup(name) : NULL;
	const char *path = getenv("PATH");
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	const char *p = path;
	while (*p) {
		const char *colon = strchr(p, ':');
		size_t dl = colon ? (size_t)(colon - p) : strlen(p);
		char *cand = xasprintf("%.*s/%s", (int)dl, dl ? p : ".", name);
		struct stat st;
		if (stat(cand, &st) == 0 && S_ISREG(st.st_mode) && access(cand, X_OK) == 0)
			return cand;
		free(cand);
		if (!colon)
			break;
		p = colon + 1;
	}
	return NULL;
}

char *find_on_path(const char *name)
{
	char resolved[PATH_MAX];
	char *named = find_on_path_named(name);
	char *r = named && realpath(named, resolved) ? xstrdup(resolved) : NULL;
	free(named);
	return r;
}

const char *self_exe(void)
{
	static char path[PATH_MAX];
	if (!path[0]) {
		ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);
		if (n <= 0)
			strcpy(path, "flagbench");
		else
			path[n] = '\0';
	}
	return path;
}

/* Whether dir looks like a flagbench checkout (configs/ and variants/). */
static int is_project_root(const char *dir)
{
	char *a = xasprintf("%s/configs", dir), *b = xasprintf("%s/variants", dir);
	int r = access(a, F_OK) == 0 && access(b, F_OK) == 0;
	free(a);
	free(b);
	return r;
}

const char *project_root(void)
{
	static char root[PATH_MAX];
	if (root[0])
		return root;
	const char *env = getenv("FLAGBENCH_ROOT");
	if (env && *env) {
		snprintf(root, sizeof(root), "%s", env);
		return root;
	}
	/* the nearest folder above the binary that holds configs/ and
	 * variants/ (build/flagbench, build/san/flagbench, ...), else "." */
	snprintf(root, sizeof(root), "%s", self_exe());
	for (int i = 0; i < 4; i++) {
		char *slash = strrchr(root, '/');
		if (!slash || slash == root)
			break;
		*slash = '\0';
		if (is_project_root(root))
			return root;
	}
	strcpy(root, ".");
	return root;
}

char *placeholder_replace(const char *word, const char *name, const char *value)
{
	struct strbuf sb = STRBUF_INIT;
	size_t nl = strlen(name);
	for (const char *p = word; *p;) {
		if (p[0] == '{' && !strncmp(p + 1, name, nl) && p[1 + nl] == '}') {
			sb_adds(&sb, value);
			p += nl + 2;
		} else {
			sb_add(&sb, p++, 1);
		}
	}
	char *out = xstrdup(sb.buf ? sb.buf : "");
	sb_release(&sb);
	return out;
}

void sv_push_replaced(struct strvec *sv, const char *word, const char *name, uint64_t n)
{
	char num[32];
	snprintf(num, sizeof(num), "%llu", (unsigned long long)n);
	char *w = placeholder_replace(word, name, num);
	sv_push(sv, w);
	free(w);
}

uint64_t fnv1a(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;
	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	return h;
}
