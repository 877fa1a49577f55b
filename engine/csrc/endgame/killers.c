/*
 * The endgame's killer moves: the last few moves going out that cut off the search at a node of the
 * same depth, tried at the next node of that depth (when the table knows no move for it) before its
 * moves are generated. Nearly every node of the whole-depth search that generates its moves ends at the
 * first move it tries, most often the reply that goes out, and a sibling's reply that goes out often
 * still does: replayed, it cuts the node off without a generation. Only moves going out are replayed:
 * they are valued where they are tried, with no search below them (a killer that did not go out, tried
 * before the ordered moves, made the searches visit many more nodes). It changes which nodes are
 * visited, not the value.
 *
 * A move found on another board may not be a move on this one: `replayed` checks it as the generator
 * would have made it (its tiles on the rack and on empty squares of one line, the word along the line
 * through them in the lexicon with no gap, every new tile allowed by the cross-check of its square, the
 * move touching the board) and works its score out again as the generator does. With `check_lines` set
 * every killer is compared with a fresh generation at every node (`check_replay`): the move must be
 * among the generated ones, with the same score, exactly when `replayed` takes it.
 */

#include "solver.h"

/* The cross-check of square `index` (view * SQUARES + square) on the board as it is: worked out here
 * when a move put on the board since the last generation marked it to do (bring_up_to_date would work
 * out every such square: a node cut off by its killer never needs the others). */
static uint32_t cross_now(Solver *sv, int index, int *sum) {
    for (int i = sv->ncomputed; i < sv->nsaved; i++) {
        if (sv->saved[i].index == index) {
            return cached_cross_check(sv, index / SQUARES, index % SQUARES / SIZE, index % SIZE, sum);
        }
    }
    *sum = sv->cross_sum[index];
    return sv->cross_allowed[index];
}

/* Whether the mover's rack holds the tiles of `move` (no more than it has, of letters of the alphabet). */
static int rack_holds(const Solver *sv, const ERack *mover, const EMove *move) {
    int n = move->n;
    if (n == 0 || n > mover->size || n > MOVE_TILES) {
        return 0;
    }
    int8_t need[RACK_SLOTS] = {0};
    for (int k = 0; k < n; k++) {
        int t = move->tile[k];
        int slot = (t & BLANK_FLAG) ? MAX_LETTERS : (t & LETTER_MASK);
        if ((slot < MAX_LETTERS && slot >= sv->letters) || ++need[slot] > mover->counts[slot]) {
            return 0;
        }
    }
    return 1;
}

/* The line (view * SIZE + line) of `move` (of at least one tile), or -1 when it names none. */
static int line_of(const EMove *move) {
    int view = move->view, sq = move->square[0];
    if (view > 1 || sq >= SQUARES) {
        return -1;
    }
    return view * SIZE + (view == 0 ? sq / SIZE : sq % SIZE);
}

/* Whether `move` (of 1 to MOVE_TILES tiles), made by the generator on another board, lies on the board as it
 * is as the generator would make it, the rack aside (see above); when it does, its score there goes to
 * move->score. It reads nothing but the tiles and cross-checks of the move's line. */
static int on_board(Solver *sv, EMove *move) {
    int n = move->n, view = move->view;
    if (view > 1) {
        return 0;
    }
    const int8_t *grid = sv->gen.grid;
    int line = view == 0 ? move->square[0] / SIZE : move->square[0] % SIZE;
    int pos[MOVE_TILES];
    for (int k = 0; k < n; k++) {
        int sq = move->square[k];
        if (sq >= SQUARES || grid[sq] != EMPTY || (view == 0 ? sq / SIZE : sq % SIZE) != line) {
            return 0;
        }
        pos[k] = view == 0 ? sq % SIZE : sq / SIZE;
        if (k > 0 && pos[k] <= pos[k - 1]) {
            return 0;
        }
    }
    int start = pos[0], end = pos[n - 1];
    while (start > 0 && grid[line_square(view, line, start - 1)] != EMPTY) {
        start--;
    }
    while (end < SIZE - 1 && grid[line_square(view, line, end + 1)] != EMPTY) {
        end++;
    }
    if (start == end) {
        return 0;  /* a lone tile's word along this line is one letter: the generator makes it the other way */
    }
    const Search *s = &sv->gen;
    const uint8_t *lm = sv->rules->lm[view] + line * SIZE, *wm = sv->rules->wm[view] + line * SIZE;
    uint32_t node = 0;
    int k = 0, main = 0, wmul = 1, cross = 0, hooked = 0;
    for (int p = start; p <= end; p++) {
        int sq = line_square(view, line, p);
        int fresh = k < n && pos[k] == p;
        int t = fresh ? move->tile[k] : grid[sq];
        if (t == EMPTY) {
            return 0;  /* a gap between the new tiles */
        }
        int l = t & LETTER_MASK;
        uint32_t m = s->mask[node], bit = 1u << l;
        if (!(m & bit) || (p == end && !(s->ends[node] & bit))) {
            return 0;
        }
        if (p < end) {
            node = s->child[node + POPCOUNT(m & (bit - 1))];
        }
        int points = (t & BLANK_FLAG) ? 0 : sv->points[l];
        if (!fresh) {
            main += points;
            hooked = 1;
            continue;
        }
        int sum;
        if (!(cross_now(sv, view * SQUARES + sq, &sum) & bit)) {
            return 0;
        }
        int tp = points * lm[p];
        main += tp;
        wmul *= wm[p];
        if (sum >= 0) {
            cross += (sum + tp) * wm[p];
            hooked = 1;
        }
        k++;
    }
    if (!hooked) {
        return 0;
    }
    move->score = (int16_t)(main * wmul + cross + (n == s->rack_size ? s->bingo : 0));
    return 1;
}

/* Whether `move`, made by the generator on another board, is a move of the mover on the board as it is
 * (see above); when it is, its score there goes to move->score. */
int replayed(Solver *sv, const ERack *mover, EMove *move) {
    return rack_holds(sv, mover, move) && on_board(sv, move);
}

/* replayed for killers[depth][j] (copied to *move), on_board's answer kept with its line's stamp: the killers
 * of a depth are tried at node after node, and most moves between leave their lines as they were (a stamp
 * names one state of its line's tiles and cross-checks). */
int killer_replayed(Solver *sv, int depth, int j, const ERack *mover, EMove *move) {
    *move = sv->killers[depth][j];
    int index;
    if (!rack_holds(sv, mover, move) || (index = line_of(move)) < 0) {
        return 0;
    }
    uint64_t stamp = sv->line_stamp[index];
    if (sv->killer_line[depth][j].stamp != stamp) {
        sv->killer_line[depth][j].fits = on_board(sv, move);
        sv->killer_line[depth][j].score = move->score;
        sv->killer_line[depth][j].stamp = stamp;
    }
    if (!sv->killer_line[depth][j].fits) {
        return 0;
    }
    move->score = (int16_t)sv->killer_line[depth][j].score;
    return 1;
}

/* A move going out kept for this depth, as a move of this node in *move (its score worked out here), or
 * 0; the latest first. */
int killer_move(Solver *sv, int depth, const ERack *mover, EMove *move) {
    if (!sv->use_killers || depth > MAX_DEPTH) {
        return 0;
    }
    for (int j = 0; j < KILLERS_TRIED && j < KILLERS; j++) {
        /* only a move that goes out: it is valued where it is tried, with no search below it */
        if (sv->killers[depth][j].n == mover->size && killer_replayed(sv, depth, j, mover, move)) {
            return 1;
        }
    }
    return 0;
}

/* Remember a move going out that cut off a node of `depth` (the last KILLERS distinct ones are kept). */
void killer_keep(Solver *sv, int depth, const ERack *mover, const EMove *move) {
    if (sv->use_killers && depth <= MAX_DEPTH && move->n > 0 && move->n == mover->size) {
        EMove *kept = sv->killers[depth];
        int j = 0;
        while (j < KILLERS - 1 && !same_move(&kept[j], move)) {
            j++;
        }
        for (; j > 0; j--) {
            kept[j] = kept[j - 1];  /* the move goes first, the others after it in their order */
            sv->killer_line[depth][j] = sv->killer_line[depth][j - 1];
        }
        kept[0] = *move;
        sv->killer_line[depth][0].stamp = 0;
    }
}

/* `kept` against the fresh generation of the node's moves at sv->moves[base ..][.. count]: -1 with
 * AssertionError recorded when `replayed` takes it and the generation has no such move with the same score,
 * or refuses it and the generation has it along the same line. */
static int check_kept(Solver *sv, const ERack *mover, const EMove *kept, size_t base, long count) {
    if (kept->n == 0) {
        return 0;
    }
    EMove move = *kept;
    int taken = replayed(sv, mover, &move);
    int found = 0, score = 0, view = 0;
    for (long i = 0; i < count; i++) {
        if (same_move(&sv->moves[base + (size_t)i], &move)) {
            found = 1;
            score = sv->moves[base + (size_t)i].score;
            view = sv->moves[base + (size_t)i].view;
            break;
        }
    }
    /* (a lone tile is generated along one line only: refused along the other, it is the same move) */
    if ((taken && (!found || score != move.score)) || (!taken && found && view == move.view)) {
        failed_check(sv,
                     "a killer of %d tiles %s replayed (score %d) and %s generated (score %d)", move.n,
                     taken ? "was" : "was not", move.score, found ? "was" : "was not", score);
        return -1;
    }
    return 0;
}

/* For check_lines: the moves kept for this depth against a fresh generation of the node's moves (the
 * line cache's moves are compared with one by pushed_moves): each must be among the moves, with the
 * same score, exactly when `replayed` takes it, and `killer_replayed` (its answer kept with the line's
 * stamp) must agree with `replayed`. -1 with the AssertionError (or MemoryError) recorded when not. */
int check_replay(Solver *sv, int depth, const ERack *mover, const ERack *other) {
    if (!sv->use_killers || depth > MAX_DEPTH) {
        return 0;
    }
    size_t base = sv->nmoves;
    long count = pushed_moves(sv, mover, other, NULL);
    if (count < 0) {
        return -1;
    }
    int failed = 0;
    for (int j = 0; j < KILLERS && !failed; j++) {
        failed = check_kept(sv, mover, &sv->killers[depth][j], base, count) < 0;
        if (!failed && sv->killers[depth][j].n > 0) {
            /* the answer kept with the line's stamp (killer_replayed) is the one worked out afresh */
            EMove fresh = sv->killers[depth][j], kept;
            int taken = replayed(sv, mover, &fresh), recalled = killer_replayed(sv, depth, j, mover, &kept);
            if (taken != recalled || (taken && fresh.score != kept.score)) {
                failed_check(sv,
                             "a killer of %d tiles %s replayed afresh (score %d) and %s from its line's stamp (score %d)",
                             fresh.n, taken ? "was" : "was not", fresh.score, recalled ? "was" : "was not", kept.score);
                failed = 1;
            }
        }
    }
    sv->nmoves = base;
    return failed ? -1 : 0;
}
