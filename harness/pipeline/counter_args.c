/* counter_args.c: see counter_args.h */
#include "pipeline/counter_args.h"

#include <stdlib.h>
#include <string.h>

const char *counters_unit_singular(const struct cell *c)
{
	const char *u = c->spec.family->unit;
	if (!strcmp(u, "bytes"))
		return "byte";
	if (!strcmp(u, "ops"))
		return "op";
	if (!strcmp(u, "lines"))
		return "line";
	return u;
}

/* The cell's argv with the size replaced by n: argv[1], or "{N}" in a
 * family's args template (pipeline/inputs.h). */
void counters_argv_at(const struct cell *c, uint64_t n, struct strvec *out)
{
	const struct family *f = c->spec.family;
	sv_push(out, c->build.binary);
	if (!f->args_template || n == c->spec.size) {
		if (!f->args_template)
			sv_pushf(out, "%llu", (unsigned long long)n);
		for (size_t i = !f->args_template; i < c->spec.run_args.n; i++)
			sv_push(out, c->spec.run_args.v[i]);
		return;
	}
	for (size_t i = 0; i < f->args.n; i++)
		sv_push_replaced(out, f->args.v[i], "N", n);
	for (size_t i = 0; c->spec.variant && i < c->spec.variant->args.n; i++)
		sv_push_replaced(out, c->spec.variant->args.v[i], "N", n);
}

/* Why the size of this cell's program cannot be varied, or NULL. */
const char *counters_fixed_size(const struct cell *c)
{
	const struct family *f = c->spec.family;
	if (!f->args_template)
		return NULL;
	if (f->input_file || f->input_command.n)
		return "the program reads an input made for its size: no second size to count at";
	for (size_t i = 0; i < f->args.n; i++)
		if (strstr(f->args.v[i], "{N}"))
			return NULL;
	for (size_t i = 0; c->spec.variant && i < c->spec.variant->args.n; i++)
		if (strstr(c->spec.variant->args.v[i], "{N}"))
			return NULL;
	return "the program takes no size (no {N} in its args): no second size to count at";
}
