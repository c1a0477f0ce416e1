/* options.h: every option declared once, in a table.
 *
 * A table of struct option_def drives the parser, the --help text and the
 * range checks; an unknown option gets the closest known name suggested.
 * Config files reuse the same table (option_set_value), so a suite key such
 * as "runs" means exactly the --runs option, with the same bounds.
 */
#ifndef FLAGBENCH_OPTIONS_H
#define FLAGBENCH_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

enum option_type {
	OPT_STRING, /* char * */
	OPT_UINT,   /* unsigned, within [min, max] */
	OPT_DOUBLE, /* double, within [min, max] */
	OPT_FLAG,   /* int, set to 1 */
	OPT_SIZE,   /* uint64_t, accepts 0x.. and K/M/G suffixes */
	OPT_LIST,   /* struct strvec: repeatable, each use appends */
};

struct option_def {
	const char *name; /* long name without the dashes */
	char short_name;  /* or 0 */
	enum option_type type;
	size_t offset;    /* into the destination struct */
	const char *metavar;
	double min, max;
	const char *help;
};

/* Parses argv[0..argc) (argv[0] is not the program name: parsing starts at
 * argv[0]).  Options may be "--name value" or "--name=value".  Positional
 * arguments are collected in order into pos[] (at most max_pos) unless
 * pos is NULL.  A lone "--" ends option parsing: the rest is positional.
 * given[i] is set for each option i seen.  Returns the number of
 * positional arguments, or -1 after printing an error (exit code 2). */
int options_parse(const struct option_def *table, void *dst, unsigned char *given, int argc, char **argv,
		  char **pos, int max_pos);

/* Sets option `name` from text, with the same checks as the command line;
 * errors go into err (no printing), returns -1 on failure. */
int option_set_value(const struct option_def *def, void *dst, const char *value, char *err, size_t errn);
const struct option_def *option_find(const struct option_def *table, const char *name);
int option_index(const struct option_def *table, const struct option_def *def);

void options_help(const struct option_def *table, FILE *out);

/* The closest name in the table to `name`, or NULL when none is close. */
const char *option_closest(const struct option_def *table, const char *name);
/* The same among a NULL-terminated list of words. */
const char *closest_word(const char *const *words, const char *name);

#endif
