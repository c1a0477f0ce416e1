/* options.h: every option declared once, in a table.
 *
 * A table of struct option_def drives the parser, the --help text, the
 * range checks and the defaults; an unknown option gets the closest known
 * name suggested.  A default is text in the table, set through the same
 * setter as the command line before argv is parsed: written once, checked
 * once, and shown by --help as "(default X)".
 *
 * Groups: an OPT_GROUP entry (OPTION_GROUP) includes another table whose
 * offsets are into a struct embedded at the entry's offset, so options that
 * several commands share (options_global: --help; options_run_like: what
 * run and try pass to the pipeline) are declared once, with one struct.
 *
 * Commands: a struct command_def (name, positional synopsis, summary,
 * table) generates the `usage: flagbench NAME ...` line, the --help text and
 * the usage errors (command_parse), so no command writes them by hand.
 *
 * Config files reuse the same table (option_set), so a suite key such as
 * "runs" can mean exactly the --runs option, with the same bounds.
 */
#ifndef FLAGBENCH_OPTIONS_H
#define FLAGBENCH_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

#include "core/util.h"

enum option_type {
	OPT_STRING, /* char * */
	OPT_UINT,   /* unsigned, within [min, max] */
	OPT_DOUBLE, /* double, within [min, max] */
	OPT_FLAG,   /* int, set to 1 */
	OPT_SIZE,   /* uint64_t, accepts 0x.. and K/M/G suffixes */
	OPT_LIST,   /* struct strvec: repeatable, each use appends */
	OPT_GROUP,  /* the table `group`, its struct at offset (OPTION_GROUP) */
};

/* Tables name their fields (designated initialisers): what is not named is
 * 0 or NULL, as meant; a table ends with { .name = NULL }. */
struct option_def {
	const char *name; /* long name without the dashes; a group's own name */
	char short_name;  /* or 0 */
	enum option_type type;
	size_t offset;    /* into the destination struct */
	const char *metavar;
	double min, max;
	const char *help;
	const char *def;                /* the default as text, or NULL */
	const struct option_def *group; /* OPT_GROUP: the table included */
};

/* An entry including table `g` for the struct member `member` of `st`
 * (a group of one option, offset 0: a member of that option's type, as
 * options_timeout at a double). */
#define OPTION_GROUP(g, st, member) { .name = #g, .type = OPT_GROUP, .offset = offsetof(st, member), .group = (g) }
/* An entry including table `g` whose offsets are into the same struct
 * (several commands' tables that differ in one row). */
#define OPTION_INCLUDE(g) { .name = #g, .type = OPT_GROUP, .offset = 0, .group = (g) }

/* the most options a table holds, groups included (size of given[]) */
#define OPTIONS_MAX 128

/* Parses argv[0..argc) (argv[0] is not the program name: parsing starts at
 * argv[0]) after setting every default.  Options may be "--name value" or
 * "--name=value".  Positional arguments are collected in order into pos[]
 * (at most max_pos) unless pos is NULL.  A lone "--" ends option parsing:
 * the rest is positional.  given[i] is set for each option i seen (i
 * counts the options of included groups in place; option_given).  Returns
 * the number of positional arguments, or -1 after printing an error (exit
 * code 2). */
int options_parse(const struct option_def *table, void *dst, unsigned char *given, int argc, char **argv,
		  char **pos, int max_pos);

/* Sets one option from text, with the same checks as the command line;
 * dst is the struct def's offset is into.  Errors go into err (no
 * printing), returns -1 on failure. */
int option_set_value(const struct option_def *def, void *dst, const char *value, char *err, size_t errn);
/* The same by name, through the table's groups: a config key such as
 * "runs" set exactly as --runs would be.  -1 with err for an unknown
 * name too. */
int option_set(const struct option_def *table, void *dst, const char *name, const char *value, char *err,
	       size_t errn);
/* Sets every default of the table (and its groups) in dst: 0, or -1 after
 * printing which default is bad. */
int options_defaults(const struct option_def *table, void *dst);
/* The option called name, in the table or its groups, or NULL. */
const struct option_def *option_find(const struct option_def *table, const char *name);
/* def's index in given[], or -1 when the table does not hold it. */
int option_index(const struct option_def *table, const struct option_def *def);
/* Whether option `name` was on the command line (given from the parse). */
int option_given(const struct option_def *table, const unsigned char *given, const char *name);

void options_help(const struct option_def *table, FILE *out);

/* The closest name in the table to `name`, or NULL when none is close. */
const char *option_closest(const struct option_def *table, const char *name);
/* The same among a NULL-terminated list of words. */
const char *closest_word(const char *const *words, const char *name);

/* ---- shared groups ---- */

/* every command: --help */
struct global_opts {
	int help;
};
extern const struct option_def options_global[];

/* one option each, at a double: the limit of one run of a program
 * (run, try, explain, compare's confirmations), of one compile (run, try,
 * explain) */
extern const struct option_def options_timeout[];
extern const struct option_def options_build_timeout[];
/* one option at an int: --dry-run (run, try, tune, explain), the mock
 * executor in place of the compilers and hyperfine (pipeline/executor.h) */
extern const struct option_def options_dry_run[];

/* what a suite may set as well as the command line: config/suite.c sets
 * its "runs", "warmup" and "cell_budget" keys through this table
 * (option_set, the key's '_' an option's '-'), so a key and its option
 * have one range.  Their defaults are the suite's, else
 * run_settings_resolve's (driver/run_options.c). */
struct suite_key_opts {
	unsigned runs, warmup;
	double cell_budget;
};
extern const struct option_def options_suite_keys[];

/* the matrix from the command line (run, try; config/suite.h
 * suite_matrix_parse): each one given replaces that dimension of the
 * suite's or the profile's matrix.  Lists are comma-separated; --flags
 * is 'NAME=FLAGS;NAME=FLAGS', the suite's named flag sets. */
struct matrix_opts {
	char *compilers, *opt, *march, *flags;
};
extern const struct option_def options_matrix[];
void matrix_opts_free(struct matrix_opts *o);

/* what run and try hand the pipeline (cpu profile, suite, runs, limits,
 * the run folder and build cache, what to leave out).  The fields as a
 * macro too: struct run_opts (driver/run_options.h) overlays them with the
 * struct, so that run's code names them directly. */
#define RUN_LIKE_FIELDS                      \
	char *cpu, *suite, *out, *cache;     \
	struct suite_key_opts keys;          \
	struct matrix_opts matrix;           \
	double timeout, build_timeout;       \
	int no_counters, no_render;
struct run_like_opts {
	RUN_LIKE_FIELDS
};
extern const struct option_def options_run_like[];
void run_like_opts_free(struct run_like_opts *o);

/* ---- commands ---- */

enum option_order {
	OPTIONS_ANYWHERE, /* options and positionals mixed */
	OPTIONS_FIRST,    /* options end at the first positional: the rest is the
			   * command's own (meter's program, check's ARGS) */
};

struct command_def {
	const char *name;     /* "rerun" */
	const char *synopsis; /* its positionals, "RUN_DIR"; NULL for none */
	const char *synopsis_alt; /* a second form ("--baseline NAME NEW"), or NULL */
	const char *summary;  /* one line: what it does */
	const struct option_def *options; /* with options_global, or it alone */
	int min_pos, max_pos; /* positionals; max_pos -1: any number (pos[] holds argc) */
	enum option_order order;
	void (*help_more)(FILE *out); /* more --help text after the options, or NULL */
};

enum parse_status {
	PARSE_OK,    /* options set, positionals in pos[] */
	PARSE_HELP,  /* --help printed on stdout: exit 0 */
	PARSE_USAGE, /* bad usage said on stderr: exit 2 */
};

/* Parses a command's argv (argv[0] is the command's name) into dst (the
 * defaults first) and pos[] (*npos of them), prints --help, and says a
 * wrong number of positionals with the usage line. */
enum parse_status command_parse(const struct command_def *c, void *dst, unsigned char *given, int argc,
				char **argv, char **pos, int *npos);
/* The exit code of a parse that is not PARSE_OK: 0 for help, 2. */
int parse_exit(enum parse_status s);
/* "flagbench rerun RUN_DIR [options]" (no "usage: ", no newline); a
 * second form follows after `sep`. */
void command_synopsis(const struct command_def *c, const char *sep, FILE *out);
/* --help: the usage line, the summary, the options, help_more. */
void command_help(const struct command_def *c, FILE *out);
/* "flagbench: WHY (usage: flagbench NAME ...; see --help)" on stderr;
 * returns EXIT_USAGE. */
int command_usage_error(const struct command_def *c, const char *fmt, ...) FB_PRINTF(2, 3);

#endif
