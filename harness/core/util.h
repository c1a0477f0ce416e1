/* util.h: messages, allocation and small helpers shared by every stage.
 *
 * Library code reports with error() (prints "flagbench: ..." and returns -1)
 * or warning(); only main-level code calls die().  Messages are lowercase
 * with no full stop.
 */
#ifndef FLAGBENCH_UTIL_H
#define FLAGBENCH_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define FLAGBENCH_VERSION "0.1.0"

/* Exit codes shared by every command (README.md, "What a run does"). */
enum exit_code {
	EXIT_ALL_OK = 0,
	EXIT_CELL_FAILED = 1,
	EXIT_USAGE = 2,
	EXIT_INTERRUPTED = 130,
};

#if defined(__GNUC__)
#define FB_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define FB_NORETURN __attribute__((noreturn))
#else
#define FB_PRINTF(f, a)
#define FB_NORETURN
#endif

int error(const char *fmt, ...) FB_PRINTF(1, 2);
void warning(const char *fmt, ...) FB_PRINTF(1, 2);
void die(int code, const char *fmt, ...) FB_PRINTF(2, 3) FB_NORETURN;

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) FB_PRINTF(1, 2);
/* Equal strings, or both NULL (optional dimensions of a cell). */
int str_equal_or_null(const char *a, const char *b);

/* A growable string; buf is always NUL-terminated. */
struct strbuf {
	char *buf;
	size_t len, alloc;
};
#define STRBUF_INIT { NULL, 0, 0 }
void sb_add(struct strbuf *sb, const char *data, size_t n);
void sb_adds(struct strbuf *sb, const char *s);
/* s for a terminal: control characters (C0, DEL, the two-byte C1 ones)
 * as '?', line breaks kept where keep_newlines. */
void sb_add_printable(struct strbuf *sb, const char *s, int keep_newlines);
/* The columns of s[0..len) in a terminal: UTF-8 characters, not bytes. */
size_t utf8_columns(const char *s, size_t len);
void sb_addf(struct strbuf *sb, const char *fmt, ...) FB_PRINTF(2, 3);
void sb_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
void sb_reset(struct strbuf *sb);
void sb_release(struct strbuf *sb);
char *sb_detach(struct strbuf *sb);

/* A NULL-terminated vector of owned strings (argv). */
struct strvec {
	char **v;
	size_t n, alloc;
};
#define STRVEC_INIT { NULL, 0, 0 }
void sv_push(struct strvec *sv, const char *s);
void sv_pushf(struct strvec *sv, const char *fmt, ...) FB_PRINTF(2, 3);
void sv_pushv(struct strvec *sv, char *const *v);
void sv_clear(struct strvec *sv);
/* Whether s is one of sv's words. */
int sv_contains(const struct strvec *sv, const char *s);

/* Monotonic and wall clocks, in seconds. */
double now_monotonic(void);
double now_wall(void);
/* ISO 8601 UTC, e.g. 2026-11-29T18:44:21Z, into buf (at least 32 bytes). */
void format_utc(double t, char *buf, size_t n);
/* The same without separators, 20261129T184421Z: run ids and the default
 * folders of explain and tune. */
void format_utc_stamp(double t, char *buf, size_t n);

/* Whole-file I/O.  read_file() returns a NUL-terminated buffer or NULL with
 * errno set; write_file_atomic() writes a temporary file beside path, fsyncs
 * it and renames it over path, so readers see the old or the new file. */
char *read_file(const char *path, size_t *len);
/* The next line of *text (allocated, without its '\n'), *text moved past
 * it; NULL at the end (or when *text is NULL).  For a tool's listing read
 * line by line. */
char *next_line(const char **text);
/* The same in place: the next line's first character past its leading
 * blanks, its end (the '\n' or the text's end) in *end; NULL at the end. */
const char *next_line_trimmed(const char **text, const char **end);
int write_file_atomic(const char *path, const char *data, size_t len);
int mkdir_p(const char *path, int mode);
/* Removes path and everything under it, links not followed (a link is
 * removed, never what it points to); 0, or -1 where an entry stayed. */
int remove_tree(const char *path);

/* FNV-1a: folds data[0..len) into h (start from FNV1A_OFFSET).  For hash
 * tables and seeds, where speed and spread matter and integrity does not. */
#define FNV1A_OFFSET 0xcbf29ce484222325ULL
uint64_t fnv1a(uint64_t h, const void *data, size_t len);

/* SHA-256 of a buffer or a file, as 64 lowercase hex digits plus NUL
 * (in sha256.c: util.c itself needs no library). */
void sha256_hex(const void *data, size_t len, char out[65]);
int sha256_file_hex(const char *path, char out[65], uint64_t *bytes);

/* Human units as the seeds print them: "74.5 MiB/s", "7.36 GiB/s". */
void format_rate(double bytes_per_s, char *buf, size_t n);
void format_duration(double seconds, char *buf, size_t n);

/* Parse a non-negative integer (decimal or 0x hex) with an optional binary
 * suffix K, M, G (KiB...); returns -1 on junk or overflow. */
int parse_u64(const char *s, uint64_t *out);

/* Resolve a command name on PATH (or a path with a slash) to an absolute,
 * canonical path; NULL if not found or not executable. */
char *find_on_path(const char *name);
/* The same command as found on PATH, symlinks kept (/usr/bin/clang++):
 * a program that reads its argv[0] (clang, clang++) runs in its mode. */
char *find_on_path_named(const char *name);

/* The running flagbench binary, and the project root: FLAGBENCH_ROOT, else
 * the nearest folder above the binary with configs/ and variants/, else ".". */
const char *self_exe(void);
const char *project_root(void);

/* Placeholders of family.json argv words ("{N}", "{dir}", "{input}"). */
/* word with every "{name}" replaced by value (a new string). */
char *placeholder_replace(const char *word, const char *name, const char *value);
/* sv_push of word with {name} replaced by the number n. */
void sv_push_replaced(struct strvec *sv, const char *word, const char *name, uint64_t n);

#endif
