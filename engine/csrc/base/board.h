/*
 * The board's and the tiles' numbers and the bit tricks that every part of the kernel uses.
 */

#ifndef ENGINE_BOARD_H
#define ENGINE_BOARD_H

#include <stdint.h>

#define SIZE 15
#define SQUARES (SIZE * SIZE)
#define BLANK_FLAG 64
#define LETTER_MASK 63
#define MAX_LETTERS 32
#define MAX_RACK 15   /* longer racks are refused: no ruleset has more than 7 tiles */
#define MAX_BLANKS 7
#define EMPTY (-1)
#define TILE_CODES (2 * BLANK_FLAG)

#if defined(__POPCNT__)
#define POPCOUNT(x) __builtin_popcount(x)
#else
/* without the instruction __builtin_popcount is a library call; this is a few inline operations */
static inline int popcount32(uint32_t x) {
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (int)((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
}
#define POPCOUNT(x) popcount32(x)
#endif
#define LOWEST(x) __builtin_ctz(x)
/* The square of position p of line `line` in `view` (0: the rows, 1: the columns). */
static inline int line_square(int view, int line, int p) {
    return view == 0 ? line * SIZE + p : p * SIZE + line;
}

#endif
