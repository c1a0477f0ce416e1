/* check_fizzbuzz.c: `flagbench check fizzbuzz N [START]`: exactly the
 * FizzBuzz lines START..N (START defaults to 1; no output when START > N).
 *
 * Line n is "FizzBuzz" when 15 divides n, else "Fizz" when 3 does, else
 * "Buzz" when 5 does, else n in decimal; every line ends with "\n".  Line
 * numbers in messages are these n, so they stay meaningful with a START.
 *
 * The expected text is generated on the fly, 30 lines at a time, and compared
 * with memcmp() against what is read; memory use is constant.  A block of 30
 * starts at a number s = 10 (mod 30): its last digits and its words are the
 * same in every block, and its numbers share three prefixes s/10, s/10 + 1 and
 * s/10 + 2 (the text of n/10), which are kept as text and advanced by 3 per
 * block.  Inside one digit length [10^(L-1), 10^L) the blocks tile the range
 * exactly (10^(L-1) = 10 mod 30, and 9 * 10^(L-1) is a multiple of 30), so
 * only the first and last few lines of a request are generated one by one. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks/check.h"
#include "core/util.h"

#define FB_MAX_N 9999999999999999999ULL /* all 19-digit numbers */
#define FB_BLOCK 30
#define FB_SLOTS 16                     /* numbers in a block of 30 */
#define FB_MAX_BLOCK (16 * 19 + 94)     /* bytes of a block of 19-digit numbers */
#define FB_OVERRUN 64                   /* block writes may spill this far past the end */
#define FB_EBUF (64 * 1024)             /* expected text generated per refill */
#define FB_IBUF (256 * 1024)            /* bytes read per read() */

static const uint64_t fb_pow10[20] = {
	1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL, 100000000ULL,
	1000000000ULL, 10000000000ULL, 100000000000ULL, 1000000000000ULL, 10000000000000ULL,
	100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL, 100000000000000000ULL,
	1000000000000000000ULL, 10000000000000000000ULL,
};

static int fb_digits(uint64_t n)
{
	int d = 1;
	while (d < 19 && n >= fb_pow10[d])
		d++;
	return d;
}

/* ---- arguments ------------------------------------------------------------ */

struct fb_range {
	uint64_t first, last; /* lines first..last; empty when first > last */
};

static int fb_parse(const struct check_args *a, struct fb_range *r, char *msg, size_t msgn)
{
	r->first = 1;
	r->last = a->n;
	if (a->argc > 1) {
		snprintf(msg, msgn, "fizzbuzz takes N and an optional START, got %d extra arguments", a->argc);
		return -1;
	}
	if (a->argc == 1 && parse_u64(a->argv[0], &r->first) < 0) {
		snprintf(msg, msgn, "bad START '%s': expected a positive integer", a->argv[0]);
		return -1;
	}
	if (r->first < 1 || r->first > FB_MAX_N) {
		snprintf(msg, msgn, "START must be in 1..%llu", FB_MAX_N);
		return -1;
	}
	if (a->n > FB_MAX_N) {
		snprintf(msg, msgn, "N must be at most %llu (19 digits)", FB_MAX_N);
		return -1;
	}
	return 0;
}

/* ---- exact output size ------------------------------------------------------ */

/* How many of 1..x are divisible by d. */
static uint64_t fb_mult(uint64_t x, uint64_t d)
{
	return x / d;
}

/* How many of 1..x are printed as numbers (divisible by neither 3 nor 5). */
static uint64_t fb_plain(uint64_t x)
{
	return x - fb_mult(x, 3) - fb_mult(x, 5) + fb_mult(x, 15);
}

static int fb_add(uint64_t *acc, uint64_t count, uint64_t size)
{
	uint64_t t;
	if (__builtin_mul_overflow(count, size, &t) || __builtin_add_overflow(*acc, t, acc))
		return -1;
	return 0;
}

/* Bytes of the lines first..last, or UINT64_MAX if that does not fit. */
static uint64_t fb_bytes(uint64_t first, uint64_t last)
{
	if (first > last)
		return 0;
	uint64_t a = first - 1, total = 0;
	uint64_t fb = fb_mult(last, 15) - fb_mult(a, 15);
	uint64_t fizz = fb_mult(last, 3) - fb_mult(a, 3) - fb;
	uint64_t buzz = fb_mult(last, 5) - fb_mult(a, 5) - fb;
	if (fb_add(&total, fb, 9) < 0 || fb_add(&total, fizz, 5) < 0 || fb_add(&total, buzz, 5) < 0)
		return UINT64_MAX;
	for (int d = 1; d <= 19; d++) {
		uint64_t lo = fb_pow10[d - 1], hi = fb_pow10[d] - 1;
		if (lo < first)
			lo = first;
		if (hi > last)
			hi = last;
		if (lo > hi)
			continue;
		if (fb_add(&total, fb_plain(hi) - fb_plain(lo - 1), (uint64_t)d + 1) < 0)
			return UINT64_MAX;
	}
	return total;
}

static uint64_t fb_expected_bytes(const struct check_args *a)
{
	struct fb_range r;
	char msg[128];
	if (fb_parse(a, &r, msg, sizeof(msg)) < 0)
		return UINT64_MAX;
	return fb_bytes(r.first, r.last);
}

/* ---- the expected text -------------------------------------------------------- */

/* The numbers of a block starting at s = 10 (mod 30), as (prefix, last digit
 * plus the words up to the next number); the block opens with "Buzz\n". */
static const struct {
	int prefix; /* 0, 1 or 2: s/10 + prefix */
	const char *tail;
} fb_slots[FB_SLOTS] = {
	{ 0, "1\nFizz\n" }, { 0, "3\n" }, { 0, "4\nFizzBuzz\n" }, { 0, "6\n" },
	{ 0, "7\nFizz\n" }, { 0, "9\nBuzz\nFizz\n" }, { 1, "2\n" }, { 1, "3\nFizz\nBuzz\n" },
	{ 1, "6\nFizz\n" }, { 1, "8\n" }, { 1, "9\nFizzBuzz\n" }, { 2, "1\n" },
	{ 2, "2\nFizz\n" }, { 2, "4\nBuzz\nFizz\n" }, { 2, "7\n" }, { 2, "8\nFizz\n" },
};

struct fb_gen {
	uint64_t next, last; /* the next line to generate, the last one */
	int len;             /* digit length the template is for (0: none yet) */
	size_t blen;         /* bytes of a block */
	uint16_t off[FB_SLOTS];
	char tmpl[FB_MAX_BLOCK + FB_OVERRUN]; /* a block, prefix bytes zero */
	uint64_t pre_for;                     /* the block start pre[] holds prefixes for */
	char pre[3][32];                      /* text of s/10, s/10 + 1, s/10 + 2 */
};

static void fb_gen_init(struct fb_gen *g, uint64_t first, uint64_t last)
{
	memset(g, 0, sizeof(*g));
	g->next = first;
	g->last = last;
}

static void fb_template(struct fb_gen *g, int len)
{
	int d = len - 1; /* prefix digits */
	size_t o = 0;
	memset(g->tmpl, 0, sizeof(g->tmpl));
	memcpy(g->tmpl, "Buzz\n", 5);
	o = 5;
	for (int i = 0; i < FB_SLOTS; i++) {
		g->off[i] = (uint16_t)o;
		o += (size_t)d; /* prefix placeholder stays zero */
		size_t t = strlen(fb_slots[i].tail);
		memcpy(g->tmpl + o, fb_slots[i].tail, t);
		o += t;
	}
	g->blen = o;
	g->len = len;
}

/* Digits of v, exactly d of them, into out (zero-padded to 32 bytes). */
static void fb_prefix_text(char *out, uint64_t v, int d)
{
	memset(out, 0, 32);
	for (int i = d - 1; i >= 0; i--) {
		out[i] = (char)('0' + v % 10);
		v /= 10;
	}
}

/* Add 3 to a d-digit decimal text (a carry out of the first digit is
 * dropped: that only happens after the last block of a digit length, whose
 * prefixes are not used again). */
static void fb_prefix_add3(char *t, int d)
{
	int i = d - 1;
	int c = t[i] - '0' + 3;
	if (c < 10) {
		t[i] = (char)('0' + c);
		return;
	}
	t[i] = (char)('0' + c - 10);
	for (i--; i >= 0 && t[i] == '9'; i--)
		t[i] = '0';
	if (i >= 0)
		t[i]++;
}

static char *fb_line(char *p, uint64_t n)
{
	if (n % 15 == 0) {
		memcpy(p, "FizzBuzz\n", 9);
		return p + 9;
	}
	if (n % 3 == 0) {
		memcpy(p, "Fizz\n", 5);
		return p + 5;
	}
	if (n % 5 == 0) {
		memcpy(p, "Buzz\n", 5);
		return p + 5;
	}
	char t[24];
	int i = 23;
	t[i] = '\n';
	do {
		t[--i] = (char)('0' + n % 10);
		n /= 10;
	} while (n);
	memcpy(p, t + i, (size_t)(24 - i));
	return p + (24 - i);
}

/* Generate whole lines into buf (room for cap bytes plus FB_OVERRUN) until it
 * is nearly full or the range is done; returns the bytes written. */
static size_t fb_gen_fill(struct fb_gen *g, char *buf, size_t cap)
{
	char *p = buf, *end = buf + cap - FB_MAX_BLOCK;
	while (g->next <= g->last && p < end) {
		uint64_t s = g->next;
		if (s >= 10 && s % FB_BLOCK == 10 && g->last - s >= FB_BLOCK - 1) {
			int len = fb_digits(s);
			uint64_t seg_last = fb_pow10[len] - 1; /* s..seg_last is whole blocks */
			if (seg_last > g->last)
				seg_last = g->last;
			uint64_t blocks = (seg_last - s + 1) / FB_BLOCK;
			uint64_t room = (uint64_t)(end - p) / (16 * (uint64_t)len + 94) + 1;
			if (blocks > room)
				blocks = room;
			if (len != g->len)
				fb_template(g, len);
			int d = len - 1;
			if (g->pre_for != s)
				for (int x = 0; x < 3; x++)
					fb_prefix_text(g->pre[x], s / 10 + (uint64_t)x, d);
			for (uint64_t b = 0; b < blocks; b++) {
				/* each slot: its prefix, then the template from there on
				 * (at most 12 bytes up to the next slot); the next slot
				 * overwrites what spills past its start */
				memcpy(p, g->tmpl, 16);
				if (d <= 16) {
					for (int i = 0; i < FB_SLOTS; i++) {
						char *q = p + g->off[i];
						memcpy(q, g->pre[fb_slots[i].prefix], 16);
						memcpy(q + d, g->tmpl + g->off[i] + d, 16);
					}
				} else {
					for (int i = 0; i < FB_SLOTS; i++) {
						char *q = p + g->off[i];
						memcpy(q, g->pre[fb_slots[i].prefix], 32);
						memcpy(q + d, g->tmpl + g->off[i] + d, 16);
					}
				}
				p += g->blen;
				for (int x = 0; x < 3; x++)
					fb_prefix_add3(g->pre[x], d);
			}
			g->next = s + blocks * FB_BLOCK;
			g->pre_for = g->next <= seg_last ? g->next : 0;
			continue;
		}
		p = fb_line(p, s);
		g->next = s + 1;
	}
	return (size_t)(p - buf);
}

/* ---- the comparison -------------------------------------------------------------- */

struct fb_cmp {
	struct fb_gen gen;
	char *ebuf;
	size_t elen, epos;
	uint64_t eline; /* the line ebuf starts with */
	uint64_t off;   /* bytes of the stream matched so far */
};

/* Make sure there are expected bytes at epos; 0 when the range is done. */
static int fb_want(struct fb_cmp *c)
{
	if (c->epos < c->elen)
		return 1;
	if (c->gen.next > c->gen.last)
		return 0;
	c->eline = c->gen.next;
	c->elen = fb_gen_fill(&c->gen, c->ebuf, FB_EBUF);
	c->epos = 0;
	return c->elen > 0;
}

/* The line that holds expected byte e: its number, start and end (after its
 * newline) in ebuf. */
static uint64_t fb_locate(const struct fb_cmp *c, size_t e, size_t *start, size_t *end)
{
	uint64_t line = c->eline;
	size_t s = 0;
	for (size_t i = 0; i < e; i++)
		if (c->ebuf[i] == '\n') {
			line++;
			s = i + 1;
		}
	const char *nl = memchr(c->ebuf + e, '\n', c->elen - e);
	*start = s;
	*end = nl ? (size_t)(nl - c->ebuf) + 1 : c->elen;
	return line;
}

/* The received line that differs at expected byte e = epos + i: the part that
 * matched (the same as expected) plus what came instead, up to its newline. */
static void fb_received(const struct fb_cmp *c, size_t lstart, size_t e, const char *in, size_t inlen, char *out,
			size_t outn)
{
	char line[96];
	size_t k = e - lstart, n;
	if (k > 48)
		k = 48;
	memcpy(line, c->ebuf + e - k, k);
	for (n = 0; n < inlen && k < sizeof(line); n++) {
		line[k++] = in[n];
		if (in[n] == '\n')
			break;
	}
	check_quote(line, k, out, outn);
}

/* Longer than most functions here on purpose: it is the one streaming loop
 * (read, generate, compare, locate the first difference) whose state lives
 * in locals, and the hot path of every FizzBuzz verification. */
static enum check_status fb_check(const struct check_args *a, int fd, struct check_report *rep)
{
	struct fb_range r;
	if (fb_parse(a, &r, rep->message, sizeof(rep->message)) < 0)
		return CHECK_BAD_ARGS;
	struct fb_cmp *c = xcalloc(1, sizeof(*c));
	c->ebuf = xmalloc(FB_EBUF + FB_OVERRUN);
	char *ibuf = xmalloc(FB_IBUF);
	fb_gen_init(&c->gen, r.first, r.last);
	enum check_status st = CHECK_OK;
	char want[160], got[160];
	size_t ls, le;
	uint64_t line;

	for (;;) {
		long n = check_read(fd, ibuf, FB_IBUF);
		if (n < 0) {
			snprintf(rep->message, sizeof(rep->message), "read error after %llu bytes",
				 (unsigned long long)c->off);
			st = CHECK_IO_ERROR;
			goto done;
		}
		if (n == 0)
			break;
		size_t ipos = 0, inlen = (size_t)n;
		while (ipos < inlen) {
			if (!fb_want(c)) {
				check_quote(ibuf + ipos, inlen - ipos > 40 ? 40 : inlen - ipos, got, sizeof(got));
				if (r.first > r.last)
					snprintf(rep->message, sizeof(rep->message),
						 "extra output: no lines expected (START %llu > N %llu), received \"%s\"",
						 (unsigned long long)r.first, (unsigned long long)r.last, got);
				else
					snprintf(rep->message, sizeof(rep->message),
						 "extra output after line %llu (byte %llu): received \"%s\"",
						 (unsigned long long)r.last, (unsigned long long)c->off, got);
				st = CHECK_MISMATCH;
				goto done;
			}
			size_t k = inlen - ipos;
			if (k > c->elen - c->epos)
				k = c->elen - c->epos;
			if (memcmp(ibuf + ipos, c->ebuf + c->epos, k) != 0) {
				size_t i = 0;
				while (ibuf[ipos + i] == c->ebuf[c->epos + i])
					i++;
				size_t e = c->epos + i;
				line = fb_locate(c, e, &ls, &le);
				check_quote(c->ebuf + ls, le - ls, want, sizeof(want));
				fb_received(c, ls, e, ibuf + ipos + i, inlen - ipos - i, got, sizeof(got));
				snprintf(rep->message, sizeof(rep->message),
					 "line %llu differs at byte %llu: expected \"%s\", received \"%s\"",
					 (unsigned long long)line, (unsigned long long)(c->off + i), want, got);
				c->off += i;
				st = CHECK_MISMATCH;
				goto done;
			}
			ipos += k;
			c->epos += k;
			c->off += k;
		}
	}
	if (fb_want(c)) {
		size_t e = c->epos;
		line = fb_locate(c, e, &ls, &le);
		check_quote(c->ebuf + ls, le - ls, want, sizeof(want));
		if (e == ls && line == r.last) {
			snprintf(rep->message, sizeof(rep->message),
				 "output ends after %llu bytes: line %llu (\"%s\") is missing", (unsigned long long)c->off,
				 (unsigned long long)line, want);
		} else if (e == ls) {
			snprintf(rep->message, sizeof(rep->message),
				 "output ends after %llu bytes: line %llu (\"%s\") and the %llu lines after it are missing",
				 (unsigned long long)c->off, (unsigned long long)line, want,
				 (unsigned long long)(r.last - line));
		} else {
			check_quote(c->ebuf + ls, e - ls, got, sizeof(got));
			snprintf(rep->message, sizeof(rep->message),
				 "output ends inside line %llu (byte %llu): expected \"%s\", received \"%s\"",
				 (unsigned long long)line, (unsigned long long)c->off, want, got);
		}
		st = CHECK_MISMATCH;
	}
done:
	rep->bytes = c->off;
	free(ibuf);
	free(c->ebuf);
	free(c);
	return st;
}

const struct checker checker_fizzbuzz = {
	.family = "fizzbuzz",
	.usage = "N [START]   (the lines START..N; START defaults to 1)",
	.check = fb_check,
	.expected_bytes = fb_expected_bytes,
};
