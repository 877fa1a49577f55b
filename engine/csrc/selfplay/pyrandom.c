/*
 * Python's random.Random in C (pyrandom.h): MT19937 as CPython's _randommodule.c runs it, and
 * random.py's random(), _randbelow() (by getrandbits, redrawn while too large) and shuffle().
 */

#include "pyrandom.h"

#define MT_SHIFT 397
#define MATRIX_A 0x9908b0dfu
#define UPPER_MASK 0x80000000u
#define LOWER_MASK 0x7fffffffu

static void twist(PyRandom *r) {
    static const uint32_t mag01[2] = {0u, MATRIX_A};
    uint32_t *mt = r->mt;
    int kk;
    uint32_t y;
    for (kk = 0; kk < MT_WORDS - MT_SHIFT; kk++) {
        y = (mt[kk] & UPPER_MASK) | (mt[kk + 1] & LOWER_MASK);
        mt[kk] = mt[kk + MT_SHIFT] ^ (y >> 1) ^ mag01[y & 1u];
    }
    for (; kk < MT_WORDS - 1; kk++) {
        y = (mt[kk] & UPPER_MASK) | (mt[kk + 1] & LOWER_MASK);
        mt[kk] = mt[kk + (MT_SHIFT - MT_WORDS)] ^ (y >> 1) ^ mag01[y & 1u];
    }
    y = (mt[MT_WORDS - 1] & UPPER_MASK) | (mt[0] & LOWER_MASK);
    mt[MT_WORDS - 1] = mt[MT_SHIFT - 1] ^ (y >> 1) ^ mag01[y & 1u];
    r->index = 0;
}

uint32_t pyrandom_word(PyRandom *r) {
    if (r->index >= MT_WORDS) {
        twist(r);
    }
    uint32_t y = r->mt[r->index++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    return y;
}

double pyrandom_random(PyRandom *r) {
    uint32_t a = pyrandom_word(r) >> 5, b = pyrandom_word(r) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

uint32_t pyrandom_below(PyRandom *r, uint32_t n) {
    int k = 0;  /* n.bit_length() */
    for (uint32_t v = n; v; v >>= 1) {
        k++;
    }
    uint32_t x = pyrandom_word(r) >> (32 - k);
    while (x >= n) {
        x = pyrandom_word(r) >> (32 - k);
    }
    return x;
}

void pyrandom_shuffle(PyRandom *r, int32_t *x, int n) {
    for (int i = n - 1; i >= 1; i--) {
        uint32_t j = pyrandom_below(r, (uint32_t)i + 1);
        int32_t t = x[i];
        x[i] = x[j];
        x[j] = t;
    }
}
