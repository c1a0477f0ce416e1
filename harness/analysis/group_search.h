/* group_search.h: which of n flags carry a gap, found by halves.
 *
 * The flags are in a fixed order; a group is a run of them [from, to).
 * The root group (all n) is measured first: B without every flag (or A
 * with every flag: the caller's way).  A
 * measured group that carries the gap (the caller's rule: a share of it
 * the comparison calls real) and holds two flags or more is split in two
 * halves, each measured next; a group that does not carry, or one whose
 * move gives the start's own binary, is not split: its flags are cleared
 * together.  So k carrying flags among n cost about 1 + 2 k log2(n)
 * builds instead of n, and a half that carries although neither of its
 * halves does names flags that carry the gap together.
 *
 * Pure: the caller builds and measures the waiting groups (all of them
 * in one batch, or as many as its budget buys) and records each; records
 * replayed in their order rebuild the same search (explain's --resume).
 */
#ifndef FLAGBENCH_GROUP_SEARCH_H
#define FLAGBENCH_GROUP_SEARCH_H

#include <stddef.h>

enum gs_state {
	GS_WAITING,   /* to be built and measured */
	GS_MEASURED,
	GS_FAILED,    /* could not be built, verified or measured: not split */
};

struct gs_group {
	size_t from, to;       /* the flags [from, to) */
	int parent;            /* its group, -1 for the root */
	enum gs_state state;
	double share, lo, hi;  /* of the gap the group's flags carry (moved one way: explain.h) */
	int unchanged;         /* moving them gave the start's own binary: they change nothing */
	int carries;           /* the caller's rule, recorded */
};

struct group_search {
	size_t nflags;
	struct gs_group *g;
	size_t n, alloc;
};

/* The root group waiting (none when nflags is 0). */
void gs_init(struct group_search *s, size_t nflags);
void gs_free(struct group_search *s);
/* The waiting groups in order, at most max of them, into idx (NULL:
 * only counted); their count. */
size_t gs_waiting(const struct group_search *s, size_t *idx, size_t max);
/* The group [from, to) waiting, or -1. */
int gs_find_waiting(const struct group_search *s, size_t from, size_t to);
/* What group i measured; a carrying group of two flags or more gets its
 * two halves waiting. */
void gs_record(struct group_search *s, size_t i, enum gs_state st, double share, double lo, double hi, int unchanged,
	       int carries);
/* A single flag that carries, or a group that carries while both its
 * halves were measured and neither does (they carry it together). */
int gs_answer(const struct group_search *s, size_t i);
/* The builds a search by halves needs where k of n flags carry, about:
 * 1 + 2 k ceil(log2 n), at most 2 n - 1. */
size_t gs_estimate(size_t n, size_t k);

#endif
