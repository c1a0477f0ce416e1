/* newfamily.c: `flagbench new family NAME [DIR]` writes a family that runs
 * as it is: family.json, one variant (simple.c) and a check declared in
 * JSON (the SHA-256 of its output at two sizes, computed here the same way
 * the variant computes it).  DIR (default ./NAME) must not exist yet.
 * Stream or compute: --kind, else asked on a terminal (one line on each),
 * else compute, said with the same two lines. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/newfamily.h"
#include "core/options.h"
#include "core/util.h"

#define SMALL_N 1000ULL
#define DEFAULT_N 100000000ULL

/* What every skeleton's main starts with: N from argv[1], a bad argument an error. */
#define VARIANT_MAIN \
	"#include <stdint.h>\n" \
	"#include <stdio.h>\n" \
	"#include <stdlib.h>\n" \
	"\n" \
	"int main(int argc, char **argv)\n" \
	"{\n" \
	"\tchar *end;\n" \
	"\tif (argc < 2 || !*argv[1] || (strtoull(argv[1], &end, 10), *end)) {\n" \
	"\t\tfprintf(stderr, \"usage: %s N\\n\", argv[0]);\n" \
	"\t\treturn 2;\n" \
	"\t}\n"

static const char variant_c[] =
	"/* simple: the work of size N (argv[1]); prints one result line.\n"
	" * Replace the loop with your own code; keep a bad argument an error. */\n"
	VARIANT_MAIN
	"\tuint64_t n = strtoull(argv[1], NULL, 10), s = 0;\n"
	"\tfor (uint64_t i = 0; i < n; i++)\n"
	"\t\ts += (i * i) ^ (i >> 3);\n"
	"\tprintf(\"%llu\\n\", (unsigned long long)s);\n"
	"\treturn 0;\n"
	"}\n";

/* A stream: the output is the work, timed as it flows into a pipe. */
static const char stream_c[] =
	"/* simple: the work of size N (argv[1]): writes the lines 0 to N-1 to stdout,\n"
	" * as seq(1) does.  Replace it with your own code; keep a bad argument an error. */\n"
	VARIANT_MAIN
	"\tuint64_t n = strtoull(argv[1], NULL, 10);\n"
	"\tfor (uint64_t i = 0; i < n; i++)\n"
	"\t\tprintf(\"%llu\\n\", (unsigned long long)i);\n"
	"\treturn fflush(stdout) ? 1 : 0;\n"
	"}\n";
#define STREAM_DEFAULT_N 1000000ULL

/* The one line on each kind: what is timed, what is reported, an example. */
static const char kind_lines[] =
	"  stream:  its output timed as it flows into a pipe; reports bytes of output per second (a compressor writing to stdout)\n"
	"  compute: whole runs timed; reports N, its unit of work, per second (a compressor timed over a whole file, a sort)\n";

/* The variant's output for n, as text (a stream's: every line), malloc'd. */
static char *expected(int stream, uint64_t n, size_t *len)
{
	if (!stream) {
		uint64_t s = 0;
		for (uint64_t i = 0; i < n; i++)
			s += (i * i) ^ (i >> 3);
		char *out = xasprintf("%llu\n", (unsigned long long)s);
		*len = strlen(out);
		return out;
	}
	/* the lines 0 to n-1: at most 21 bytes each */
	char *out = xmalloc(n * 21 + 1), *p = out;
	for (uint64_t i = 0; i < n; i++) {
		char digits[21];
		int k = 0;
		uint64_t v = i;
		do
			digits[k++] = (char)('0' + v % 10);
		while ((v /= 10));
		while (k)
			*p++ = digits[--k];
		*p++ = '\n';
	}
	*len = (size_t)(p - out);
	return out;
}

/* "stream" or "compute": --kind, else asked on a terminal, else compute. */
static const char *choose_kind(const char *given)
{
	if (given)
		return given;
	if (!isatty(STDIN_FILENO)) {
		printf("flagbench: a compute family (--kind stream for the other):\n%s", kind_lines);
		return "compute";
	}
	printf("stream or compute?\n%s", kind_lines);
	for (;;) {
		printf("kind [compute]: ");
		fflush(stdout);
		char line[64];
		if (!fgets(line, sizeof(line), stdin))
			return "compute";
		line[strcspn(line, " \t\r\n")] = '\0';
		if (!*line || !strcmp(line, "compute") || !strcmp(line, "c"))
			return "compute";
		if (!strcmp(line, "stream") || !strcmp(line, "s"))
			return "stream";
		printf("stream or compute, not '%s'\n", line);
	}
}

static int valid_name(const char *s)
{
	if (!*s || strlen(s) > 64)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_' || *s == '-'))
			return 0;
	return 1;
}

struct new_opts {
	char *kind;
	struct global_opts g;
};

static const struct option_def new_options[] = {
	{ .name = "kind", .type = OPT_STRING, .offset = offsetof(struct new_opts, kind), .metavar = "stream|compute", .help = "stream: the output timed through a pipe, bytes per second; compute: whole runs, N per second (default: asked on a terminal, else compute)" },
	OPTION_GROUP(options_global, struct new_opts, g),
	{ .name = NULL },
};

const struct command_def cmd_new_def = {
	.name = "new",
	.synopsis = "family NAME [DIR]",
	.summary = "write a family skeleton that runs as it is (DIR, default ./NAME: family.json, simple.c, a sha256 check)",
	.options = new_options,
	.min_pos = 2,
	.max_pos = 3,
	.order = OPTIONS_ANYWHERE,
};


/* Writes the family NAME into DIR (pos[1], pos[2]). */
static int new_family(const struct new_opts *o, char **pos, int np)
{
	if (strcmp(pos[0], "family"))
		return command_usage_error(&cmd_new_def, "new writes a family, not '%s'", pos[0]);
	const char *name = pos[1];
	if (!valid_name(name)) {
		error("'%s' is not a family name (lowercase letters, digits, _ and -)", name);
		return EXIT_USAGE;
	}
	if (o->kind && strcmp(o->kind, "stream") && strcmp(o->kind, "compute")) {
		error("--kind must be stream or compute, not '%s'", o->kind);
		return EXIT_USAGE;
	}
	const char *dir = np == 3 ? pos[2] : name;
	struct stat st;
	if (stat(dir, &st) == 0) {
		error("%s already exists: give a new folder", dir);
		return EXIT_USAGE;
	}
	const char *kind = choose_kind(o->kind);
	int stream = !strcmp(kind, "stream");
	if (mkdir_p(dir, 0755) < 0) {
		error("cannot create %s: %s", dir, strerror(errno));
		return EXIT_USAGE;
	}
	unsigned long long big = stream ? STREAM_DEFAULT_N : DEFAULT_N;
	char h_small[65], h_default[65];
	size_t len;
	char *text = expected(stream, SMALL_N, &len);
	sha256_hex(text, len, h_small);
	free(text);
	text = expected(stream, big, &len);
	sha256_hex(text, len, h_default);
	free(text);
	char *json = xasprintf(
		"{\n"
		"  \"family\": \"%s\",\n"
		"  \"title\": \"%s: replace with what it measures\",\n"
		"  \"kind\": \"%s\",\n"
		"  \"unit\": \"%s\",\n"
		"  \"default_size\": %llu,\n"
		"  \"check\": {\"sha256\": {\"%llu\": \"%s\", \"%llu\": \"%s\"}},\n"
		"  \"baseline\": \"simple\",\n"
		"  \"variants\": [\n"
		"    {\"name\": \"simple\", \"title\": \"%s\"}\n"
		"  ]\n"
		"}\n",
		name, name, kind, stream ? "lines" : "ops", big, SMALL_N, h_small, big, h_default,
		stream ? "printf() per line" : "one loop");
	const char *variant_src = stream ? stream_c : variant_c;
	char *fj = xasprintf("%s/family.json", dir), *vc = xasprintf("%s/simple.c", dir);
	int rc = 0;
	if (write_file_atomic(fj, json, strlen(json)) < 0 || write_file_atomic(vc, variant_src, strlen(variant_src)) < 0) {
		error("cannot write into %s: %s", dir, strerror(errno));
		rc = EXIT_USAGE;
	} else {
		printf("flagbench: wrote %s and %s (a %s family)\n"
		       "  run it: flagbench run --family-dir %s (its variants alone, on the quick suite's compilers,\n"
		       "  -O2, -O3 and -Os, and every -march of the profile)\n"
		       "  other checks: \"check\": {\"same_as\": \"simple\"} (every variant against simple),\n"
		       "  {\"command\": [\"./check.sh\", \"{N}\"]} (output on its stdin), or \"none\"\n",
		       fj, vc, kind, dir);
	}
	free(fj);
	free(vc);
	free(json);
	return rc;
}

int cmd_new(int argc, char **argv)
{
	struct new_opts o = { 0 };
	char *pos[3];
	int np = 0;
	enum parse_status ps = command_parse(&cmd_new_def, &o, NULL, argc, argv, pos, &np);
	if (ps != PARSE_OK) {
		free(o.kind);
		return parse_exit(ps);
	}
	int rc = new_family(&o, pos, np);
	free(o.kind);
	return rc;
}
