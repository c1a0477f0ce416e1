/* rounds.c: n rounds of a 64-bit mixer, UNROLL at a time */
#include "mix.h"

static inline uint64_t round1(uint64_t x)
{
	x ^= x >> 31;
	x *= 0x9e3779b97f4a7c15ULL;
	return x ^ (x >> 29);
}

uint64_t mix_rounds(uint64_t s, uint64_t n)
{
	uint64_t i = 0;
	for (; i + UNROLL <= n; i += UNROLL)
		for (int k = 0; k < UNROLL; k++)
			s = round1(s + (i + (uint64_t)k));
	for (; i < n; i++)
		s = round1(s + i);
	return s;
}
