/*
 * The endgame's cross-check cache: the letters allowed on an empty square, and the points of the cross
 * word's tiles, depend only on the runs of tiles either side of it across the line. The search puts the
 * same few moves on the board again and again, so the same runs come back at the same squares: each
 * square keeps the last CROSS_WAYS runs it saw with their cross-checks, compared tile by tile (exact).
 */

#include "solver.h"

/* The cross-check of empty square (row, col) in `view` on the solver's board (search.c's cross_check),
 * from the cache when the runs either side were seen there before. */
uint32_t cached_cross_check(Solver *sv, int view, int row, int col, int *sum) {
    const int8_t *grid = sv->gen.grid;
    int step = view == 0 ? SIZE : 1;  /* across the line: down a column (view 0) or along a row (view 1) */
    int at = row * SIZE + col, line = view == 0 ? row : col;
    /* the runs either side: from the squares holding tiles across the line (bit `line` is the square's) */
    int first, last;
    bit_run(view == 0 ? sv->occupied[1][col] : sv->occupied[0][row], line, &first, &last);
    int before = line - first, after = last - line;
    uint8_t tiles[16] = {0};  /* (SIZE - 1 tiles at most: the words of CrossEntry.run, compared whole) */
    for (int k = 0, q = at - before * step; k < before; k++, q += step) {
        tiles[k] = (uint8_t)grid[q];
    }
    for (int k = 0, q = at + step; k < after; k++, q += step) {
        tiles[before + k] = (uint8_t)grid[q];
    }
    uint64_t run[2];
    memcpy(run, tiles, sizeof(run));
    CrossEntry *ways = sv->crosses[view * SQUARES + at];
    uint8_t shape = (uint8_t)(1 + before * SIZE + after);
    for (int w = 0; w < CROSS_WAYS; w++) {
        CrossEntry *e = &ways[w];
        /* (the runs' lengths apart, the same words are the same tiles) */
        if (e->shape == shape && e->run[0] == run[0] && e->run[1] == run[1]) {
            *sum = e->sum;
            return e->allowed;
        }
    }
    int p = view == 0 ? col : row;
    uint32_t allowed = cross_check(&sv->gen, view, line, p, sum);
    CrossEntry *e = &ways[sv->cross_next[view * SQUARES + at]];
    sv->cross_next[view * SQUARES + at] = (uint8_t)((sv->cross_next[view * SQUARES + at] + 1) % CROSS_WAYS);
    e->shape = shape;
    e->run[0] = run[0];
    e->run[1] = run[1];
    e->allowed = allowed;
    e->sum = *sum;
    return allowed;
}
