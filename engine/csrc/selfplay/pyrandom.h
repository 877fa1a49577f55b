/*
 * Python's random.Random in C (selfplay/'s private header): the Mersenne Twister from a state that
 * random.Random.getstate() gave, and the calls a self-play game makes (random, _randbelow, shuffle),
 * each giving what Python's would give from the same state.
 */

#ifndef ENGINE_PYRANDOM_H
#define ENGINE_PYRANDOM_H

#include <stdint.h>

#define MT_WORDS 624

typedef struct {
    uint32_t mt[MT_WORDS];
    int index;  /* the next word of mt to temper; MT_WORDS: twist first */
} PyRandom;

uint32_t pyrandom_word(PyRandom *r);
/* random.random(): a double in [0, 1) of 53 bits */
double pyrandom_random(PyRandom *r);
/* random._randbelow(n) for n >= 1: an int in [0, n) */
uint32_t pyrandom_below(PyRandom *r, uint32_t n);
/* random.shuffle(x) of the n ints of x, in place */
void pyrandom_shuffle(PyRandom *r, int32_t *x, int n);

#endif
