/* mix.h: the state update of the example (rounds.c) */
#include <stdint.h>

#ifndef UNROLL
#define UNROLL 1
#endif

uint64_t mix_rounds(uint64_t state, uint64_t n);
