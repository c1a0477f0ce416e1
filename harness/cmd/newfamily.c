/* newfamily.c: `flagbench new family NAME [DIR]` writes a family that runs
 * as it is: family.json, one variant (simple.c) and a check declared in
 * JSON (the SHA-256 of its output at two sizes, computed here the same way
 * the variant computes it).  DIR (default ./NAME) must not exist yet. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/newfamily.h"
#include "core/options.h"
#include "core/util.h"

#define SMALL_N 1000ULL
#define DEFAULT_N 100000000ULL

static const char variant_c[] =
	"/* simple: the work of size N (argv[1]); prints one result line.\n"
	" * Replace the loop with your own code; keep a bad argument an error. */\n"
	"#include <stdint.h>\n"
	"#include <stdio.h>\n"
	"#include <stdlib.h>\n"
	"\n"
	"int main(int argc, char **argv)\n"
	"{\n"
	"\tchar *end;\n"
	"\tif (argc < 2 || !*argv[1] || (strtoull(argv[1], &end, 10), *end)) {\n"
	"\t\tfprintf(stderr, \"usage: %s N\\n\", argv[0]);\n"
	"\t\treturn 2;\n"
	"\t}\n"
	"\tuint64_t n = strtoull(argv[1], NULL, 10), s = 0;\n"
	"\tfor (uint64_t i = 0; i < n; i++)\n"
	"\t\ts += (i * i) ^ (i >> 3);\n"
	"\tprintf(\"%llu\\n\", (unsigned long long)s);\n"
	"\treturn 0;\n"
	"}\n";

/* The variant's output for n, as text. */
static void expected(uint64_t n, char *out, size_t len)
{
	uint64_t s = 0;
	for (uint64_t i = 0; i < n; i++)
		s += (i * i) ^ (i >> 3);
	snprintf(out, len, "%llu\n", (unsigned long long)s);
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

const struct command_def cmd_new_def = {
	.name = "new",
	.synopsis = "family NAME [DIR]",
	.summary = "write a family skeleton that runs as it is (DIR, default ./NAME: family.json, simple.c, a sha256 check)",
	.options = options_global,
	.min_pos = 2,
	.max_pos = 3,
	.order = OPTIONS_ANYWHERE,
};

int cmd_new(int argc, char **argv)
{
	struct global_opts g = { 0 };
	char *pos[3];
	int np = 0;
	enum parse_status ps = command_parse(&cmd_new_def, &g, NULL, argc, argv, pos, &np);
	if (ps != PARSE_OK)
		return parse_exit(ps);
	if (strcmp(pos[0], "family"))
		return command_usage_error(&cmd_new_def, "new writes a family, not '%s'", pos[0]);
	const char *name = pos[1];
	if (!valid_name(name)) {
		error("'%s' is not a family name (lowercase letters, digits, _ and -)", name);
		return EXIT_USAGE;
	}
	const char *dir = np == 3 ? pos[2] : name;
	struct stat st;
	if (stat(dir, &st) == 0) {
		error("%s already exists: give a new folder", dir);
		return EXIT_USAGE;
	}
	if (mkdir_p(dir, 0755) < 0) {
		error("cannot create %s: %s", dir, strerror(errno));
		return EXIT_USAGE;
	}
	char out_small[32], out_default[32], h_small[65], h_default[65];
	expected(SMALL_N, out_small, sizeof(out_small));
	expected(DEFAULT_N, out_default, sizeof(out_default));
	sha256_hex(out_small, strlen(out_small), h_small);
	sha256_hex(out_default, strlen(out_default), h_default);
	char *json = xasprintf(
		"{\n"
		"  \"family\": \"%s\",\n"
		"  \"title\": \"%s: replace with what it measures\",\n"
		"  \"kind\": \"compute\",\n"
		"  \"unit\": \"ops\",\n"
		"  \"default_size\": %llu,\n"
		"  \"check\": {\"sha256\": {\"%llu\": \"%s\", \"%llu\": \"%s\"}},\n"
		"  \"baseline\": \"simple\",\n"
		"  \"variants\": [\n"
		"    {\"name\": \"simple\", \"title\": \"one loop\"}\n"
		"  ]\n"
		"}\n",
		name, name, DEFAULT_N, SMALL_N, h_small, DEFAULT_N, h_default);
	char *fj = xasprintf("%s/family.json", dir), *vc = xasprintf("%s/simple.c", dir);
	int rc = 0;
	if (write_file_atomic(fj, json, strlen(json)) < 0 || write_file_atomic(vc, variant_c, strlen(variant_c)) < 0) {
		error("cannot write into %s: %s", dir, strerror(errno));
		rc = EXIT_USAGE;
	} else {
		printf("flagbench: wrote %s and %s\n"
		       "  run it: flagbench run --family-dir %s (its variants alone, on the quick suite's compilers,\n"
		       "  -O2, -O3 and -Os, and every -march of the profile)\n"
		       "  other checks: \"check\": {\"same_as\": \"simple\"} (every variant against simple),\n"
		       "  {\"command\": [\"./check.sh\", \"{N}\"]} (output on its stdin), or \"none\"\n",
		       fj, vc, dir);
	}
	free(fj);
	free(vc);
	free(json);
	return rc;
}
