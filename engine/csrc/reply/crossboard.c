/*
 * The cross-checks of every square of a playout's board, kept up to date as tiles go down (playout.c).
 *
 * A reply's search reads each line's cross-checks from these arrays (Search.cross_allowed and
 * cross_sum, as the endgame does) instead of working them out square by square for every reply: the
 * arrays are filled once per kernel call for the board, brought up to date once per candidate for
 * its tiles, and once per playout for the opponent's reply before our reply is searched.
 */

#include "reply.h"

/* Load `grid` into the kernel's scratch search (no rack: only cross_check reads it). */
static Search *board_search(Kernel *k, const int8_t *grid) {
    Search *s = k->search;
    memcpy(s, &k->base, sizeof(Search));
    memcpy(s->grid, grid, SQUARES);
    s->cross_allowed = NULL;
    s->cross_sum = NULL;
    return s;
}

static void check_square(const Search *s, Cross *cross, int view, int row, int col) {
    int index = view * SQUARES + row * SIZE + col;
    int line = view == 0 ? row : col, p = view == 0 ? col : row;
    cross->allowed[index] = cross_check(s, view, line, p, &cross->sum[index]);
}

/* check_square once per square of a placement: the tiles of one run share the squares at its ends
 * (`done`: a bit per view and square already checked). */
static void check_square_once(const Search *s, Cross *cross, uint64_t *done, int view, int row, int col) {
    int index = view * SQUARES + row * SIZE + col;
    if (done[index >> 6] >> (index & 63) & 1) {
        return;
    }
    done[index >> 6] |= 1ull << (index & 63);
    check_square(s, cross, view, row, col);
}

static void set_anchor(Cross *cross, int row, int col, int on) {
    if (on) {
        cross->anchors[0][row] |= (uint16_t)(1u << col);
        cross->anchors[1][col] |= (uint16_t)(1u << row);
    } else {
        cross->anchors[0][row] &= (uint16_t)~(1u << col);
        cross->anchors[1][col] &= (uint16_t)~(1u << row);
    }
}

static int occupied(const int8_t *grid, int row, int col) {
    return row >= 0 && row < SIZE && col >= 0 && col < SIZE && grid[row * SIZE + col] != EMPTY;
}

/* Every square's cross-checks on `grid` (an occupied square: nothing allowed, no cross word) and the
 * anchors. */
void cross_fill(Kernel *k, const int8_t *grid, Cross *cross) {
    const Search *s = board_search(k, grid);
    memset(cross->anchors, 0, sizeof cross->anchors);
    for (int sq = 0; sq < SQUARES; sq++) {
        int row = sq / SIZE, col = sq % SIZE;
        if (grid[sq] == EMPTY && (occupied(grid, row - 1, col) || occupied(grid, row + 1, col) ||
                                  occupied(grid, row, col - 1) || occupied(grid, row, col + 1))) {
            set_anchor(cross, row, col, 1);
        }
    }
    for (int view = 0; view < 2; view++) {
        for (int sq = 0; sq < SQUARES; sq++) {
            if (grid[sq] == EMPTY) {
                check_square(s, cross, view, sq / SIZE, sq % SIZE);
            } else {
                cross->allowed[view * SQUARES + sq] = 0;
                cross->sum[view * SQUARES + sq] = -1;
            }
        }
    }
}

/* The bit of line `line` of `view` in a set of lines (view * SIZE + line), none off the board. */
static inline uint32_t line_bit(int view, int line) {
    return line >= 0 && line < SIZE ? 1u << (view * SIZE + line) : 0;
}

/* Bring `cross` up to date after the placement `tiles` ((row, col, tile) n times, already on `grid`):
 * a new tile changes only the cross word of the empty squares at the ends of its runs, in its column
 * the squares just above and below (view 0), in its row those just left and right (view 1), and makes
 * its empty neighbours anchors. Returns the lines (bit view * SIZE + line) whose tiles, cross-checks or
 * anchors it may have changed: every other line is as it was. */
uint32_t cross_update(Kernel *k, const int8_t *grid, Cross *cross, const int32_t *tiles, int n) {
    const Search *s = board_search(k, grid);
    uint64_t done[(2 * SQUARES + 63) / 64] = {0};
    uint32_t touched = 0;
    for (int i = 0; i < n; i++) {
        int row = tiles[3 * i], col = tiles[3 * i + 1];
        /* the tile's row and column, their neighbours (anchors), the runs' ends (cross-checks) */
        touched |= line_bit(0, row - 1) | line_bit(0, row) | line_bit(0, row + 1);
        touched |= line_bit(1, col - 1) | line_bit(1, col) | line_bit(1, col + 1);
        for (int view = 0; view < 2; view++) {
            cross->allowed[view * SQUARES + row * SIZE + col] = 0;
            cross->sum[view * SQUARES + row * SIZE + col] = -1;
        }
        /* the square is no anchor now; its empty neighbours are */
        set_anchor(cross, row, col, 0);
        static const int steps[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
        for (int d = 0; d < 4; d++) {
            int r = row + steps[d][0], c = col + steps[d][1];
            if (r >= 0 && r < SIZE && c >= 0 && c < SIZE && grid[r * SIZE + c] == EMPTY) {
                set_anchor(cross, r, c, 1);
            }
        }
        int top, bottom, left, right;
        run_ends(grid, row, col, &top, &bottom, &left, &right);
        touched |= line_bit(0, top - 1) | line_bit(0, bottom + 1) | line_bit(1, left - 1) | line_bit(1, right + 1);
        if (top > 0) {
            check_square_once(s, cross, done, 0, top - 1, col);
        }
        if (bottom < SIZE - 1) {
            check_square_once(s, cross, done, 0, bottom + 1, col);
        }
        if (left > 0) {
            check_square_once(s, cross, done, 1, row, left - 1);
        }
        if (right < SIZE - 1) {
            check_square_once(s, cross, done, 1, row, right + 1);
        }
    }
    return touched;
}
