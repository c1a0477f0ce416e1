/* gap_pairs.c: see gap_pairs.h */
#include "analysis/gap_pairs.h"

#include <stdlib.h>
#include <string.h>

#include "core/util.h"

const char *gap_part(const char *cfg, size_t d, size_t *len)
{
	const char *s = cfg;
	for (size_t q = 0; q < d; q++) {
		const char *e = strchr(s, '/');
		if (!e)
			return NULL;
		s = e + 1;
	}
	/* the last part keeps what follows it */
	const char *e = d + 1 < GAP_PARTS_MAX ? strchr(s, '/') : NULL;
	*len = e ? (size_t)(e - s) : strlen(s);
	return s;
}

struct value {
	const char *s;
	size_t len;
};

static size_t parts_of(const char *cfg)
{
	size_t n = 1;
	for (const char *s = cfg; n < GAP_PARTS_MAX && (s = strchr(s, '/')); s++)
		n++;
	return n;
}

/* The index of v among vals[0..n), or n. */
static size_t index_of(const struct value *vals, size_t n, struct value v)
{
	for (size_t i = 0; i < n; i++)
		if (vals[i].len == v.len && !memcmp(vals[i].s, v.s, v.len))
			return i;
	return n;
}

size_t gap_pairs(const char *const *cfgs, size_t n, struct gap_pair **out, size_t values[GAP_PARTS_MAX])
{
	*out = xmalloc((n * n + 1) * sizeof(**out));
	/* each configuration's value index per part, the values in the order
	 * they first appear */
	struct value *vals = xmalloc((n + 1) * sizeof(*vals));
	size_t *idx = xmalloc((n * GAP_PARTS_MAX + 1) * sizeof(*idx)), *np = xmalloc((n + 1) * sizeof(*np));
	size_t nvals[GAP_PARTS_MAX] = { 0 };
	for (size_t k = 0; k < n; k++)
		np[k] = parts_of(cfgs[k]);
	for (size_t d = 0; d < GAP_PARTS_MAX; d++)
		for (size_t k = 0; k < n; k++) {
			struct value v;
			if (d >= np[k] || !(v.s = gap_part(cfgs[k], d, &v.len)))
				continue;
			size_t i = index_of(vals, nvals[d], v);
			if (i == nvals[d])
				vals[nvals[d]++] = v;
			idx[k * GAP_PARTS_MAX + d] = i;
		}
	size_t count = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++) {
			if (np[i] != np[j])
				continue;
			size_t d = GAP_PARTS_MAX, differ = 0;
			for (size_t q = 0; q < np[i]; q++)
				if (idx[i * GAP_PARTS_MAX + q] != idx[j * GAP_PARTS_MAX + q])
					differ++, d = q;
			if (differ != 1)
				continue;
			size_t ia = idx[i * GAP_PARTS_MAX + d], ib = idx[j * GAP_PARTS_MAX + d];
			/* many values: each against the first only */
			if (nvals[d] > GAP_ALL_PAIRS && ia && ib)
				continue;
			(*out)[count++] = ia < ib ? (struct gap_pair){ i, j, d } : (struct gap_pair){ j, i, d };
		}
	if (values)
		memcpy(values, nvals, sizeof(nvals));
	free(vals);
	free(idx);
	free(np);
	return count;
}
