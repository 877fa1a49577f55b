/*
 * The exact endgame in C (engine._native.solve_endgame): the search of engine/endgame.py, which stays
 * the readable reference and the tests' oracle.
 *
 * With the bag empty both racks are known. Negamax with alpha-beta finds the play that maximises the
 * mover's final spread: the points of every turn to the end, plus the end of the game (a player who
 * empties the rack gains twice the other's rack points; the `scoreless_to_end`-th scoreless turn in a
 * row ends it with each player losing their own rack points). A shallow iteration (depth 2) fills the
 * table's best moves, then one search goes to the end of the tree (solve.c: the iterations
 * between cost more nodes than their order saves); a node at depth 0 is guessed (whose rack weighs
 * more) and marks the iteration as cut off.
 * The transposition table is a fixed array of entries keyed by a Zobrist hash of the board, both racks
 * (as mover and as other) and the scoreless count; an entry whose subtree was never cut off holds for
 * any depth; it loses no entry until it is 3/4 full. Moves come from the move generator of search.c
 * on the solver's own board, ordered by the remembered best move (tried before the others are
 * generated: when it cuts off they never are; when the table knows none, a move going out that cut off
 * the last node of the same depth is tried so, killers.c), then by immediate value (going out counts the other's
 * rack twice) plus ORDER_TILES per tile and ORDER_POINTS per point of tile played, then by the
 * tiles, the pass last. Moves after the first are searched with a null window (principal variation
 * search), and again with the whole window when they prove better: the value is the reference's (both
 * are exact), the nodes visited are not.
 * The cross-checks of every square are kept up to date as moves are placed and taken back, and the
 * generator reads them instead of working them out for each line. A node's moves come from the line
 * cache (linecache.c: only the lines a move changed are generated again) and are ordered in
 * moves.c. A leaf (depth 0) with no pass on its path is not looked up in the table (which
 * almost never knows it), and a move whose reply is such a leaf is valued where it is tried (at a
 * node of depth 1 by one scan of the line cache, leaves.c). A move that leaves the other a reply going
 * out (a killer of the child's depth) which keeps it at most alpha is not searched (outreplies.c).
 *
 * Budgets: `max_nodes` (a count: the same result on every machine) and, optionally, a deadline on a
 * clock handed in from Python (time.monotonic and its kin read in C, solve.c); both are looked at every
 * 64 nodes, as in the reference. When a budget
 * runs out in the middle of an iteration, the best move of the deepest finished one is returned, or a
 * root move the unfinished one proved better than that (the move it tried first).
 */

#include "solver.h"

/* The rack without the move's tiles (a blank for a blank-flagged tile). */
static void rack_leave(const Solver *sv, const ERack *rack, const EMove *move, ERack *left) {
    *left = *rack;
    for (int i = 0; i < move->n; i++) {
        int t = move->tile[i];
        int slot = (t & BLANK_FLAG) ? MAX_LETTERS : (t & LETTER_MASK);
        int c = left->counts[slot];
        left->hash[0] ^= rack_keys[0][slot][c] ^ rack_keys[0][slot][c - 1];
        left->hash[1] ^= rack_keys[1][slot][c] ^ rack_keys[1][slot][c - 1];
        left->counts[slot] = (int8_t)(c - 1);
        int byte = sv->held_byte[rack->side][slot];
        left->held -= byte < 8 ? (uint64_t)1 << (8 * byte) : 0;
        if (!(t & BLANK_FLAG)) {
            left->points -= sv->points[slot];
            if (c == 1) {
                left->letters &= ~(1u << slot);
            }
        }
        left->size--;
    }
}


/* Mark the cross-check of empty square (row, col) in `view` to be worked out again (its old value
 * saved): `bring_up_to_date` does it before the next generation, so that a node cut off by the table
 * never pays for it. */
static void recheck(Solver *sv, int view, int row, int col) {
    int index = view * SQUARES + row * SIZE + col;
    sv->dirty |= 1u << (view * SIZE + (view == 0 ? row : col));
    sv->saved[sv->nsaved].index = (uint16_t)index;
    sv->saved[sv->nsaved].row = (uint8_t)row;
    sv->saved[sv->nsaved].col = (uint8_t)col;
    sv->saved[sv->nsaved].allowed = sv->cross_allowed[index];
    sv->saved[sv->nsaved].sum = sv->cross_sum[index];
    sv->nsaved++;
}

/* Work out the cross-checks marked since the last generation, on the board as it is now. */
void bring_up_to_date(Solver *sv) {
    for (int i = sv->ncomputed; i < sv->nsaved; i++) {
        int index = sv->saved[i].index;
        int view = index >= SQUARES, row = sv->saved[i].row, col = sv->saved[i].col;
        sv->cross_allowed[index] = cached_cross_check(sv, view, row, col, &sv->cross_sum[index]);
        /* (the square may hold a tile by now: its mark is done again when that is taken back) */
        sv->square_state[index] = square_value(sv->gen.grid[row * SIZE + col], sv->cross_allowed[index],
                                               sv->cross_sum[index]);
    }
    sv->ncomputed = sv->nsaved;
}

/* Put the move's tiles on the board and bring the cross-checks it changes up to date: in each tile's
 * column the squares just above and below its run of tiles (view 0), in its row those just left and
 * right (view 1). Returns the mark to hand to `take_back`. */
static Mark put_on_board(Solver *sv, const EMove *move) {
    int8_t *grid = sv->gen.grid;
    Mark mark = {sv->nsaved, sv->ncomputed, sv->nstamps};
    for (int k = 0; k < move->n; k++) {
        int row = move->square[k] / SIZE, col = move->square[k] % SIZE;
        grid[move->square[k]] = (int8_t)move->tile[k];
        sv->square_state[move->square[k]] = sv->square_state[SQUARES + move->square[k]] =
            square_value(move->tile[k], 0, 0);
        sv->occupied[0][row] |= (uint16_t)(1u << col);
        sv->occupied[1][col] |= (uint16_t)(1u << row);
        sv->dirty |= (1u << row) | (1u << (SIZE + col));
    }
    sv->tiles += move->n;
    for (int k = 0; k < move->n; k++) {
        int row = move->square[k] / SIZE, col = move->square[k] % SIZE;
        int top, bottom, left, right;  /* the runs of tiles through the square, from the occupied bits */
        bit_run(sv->occupied[1][col], row, &top, &bottom);
        bit_run(sv->occupied[0][row], col, &left, &right);
        /* the tiles of a move share one run along its line: its ends are worked out once */
        int along = k > 0 ? move->view : -1;
        if (along != 1 && top > 0) {
            recheck(sv, 0, top - 1, col);
        }
        if (along != 1 && bottom < SIZE - 1) {
            recheck(sv, 0, bottom + 1, col);
        }
        if (along != 0 && left > 0) {
            recheck(sv, 1, row, left - 1);
        }
        if (along != 0 && right < SIZE - 1) {
            recheck(sv, 1, row, right + 1);
        }
    }
    lines_stamp(sv);
    return mark;
}

/* Undo put_on_board. */
static void take_back(Solver *sv, const EMove *move, Mark mark) {
    /* the marks worked out below this move were worked out on its board: they are to do again */
    if (sv->ncomputed > mark.computed) {
        sv->ncomputed = mark.computed;
    }
    while (sv->nsaved > mark.saved) {
        sv->nsaved--;
        int index = sv->saved[sv->nsaved].index;
        sv->cross_allowed[index] = sv->saved[sv->nsaved].allowed;
        sv->cross_sum[index] = sv->saved[sv->nsaved].sum;
        /* (the square is empty again: the moves after this one are taken back, and its tiles lie elsewhere) */
        sv->square_state[index] = square_value(EMPTY, sv->cross_allowed[index], sv->cross_sum[index]);
    }
    for (int k = 0; k < move->n; k++) {
        int sq = move->square[k];
        sv->gen.grid[sq] = EMPTY;
        sv->square_state[sq] = square_value(EMPTY, sv->cross_allowed[sq], sv->cross_sum[sq]);
        sv->square_state[SQUARES + sq] =
            square_value(EMPTY, sv->cross_allowed[SQUARES + sq], sv->cross_sum[SQUARES + sq]);
    }
    lines_restore(sv, move, mark.stamps);
    sv->tiles -= move->n;
}

/* The cross-checks of every empty square, worked out once at the start. */
void check_all(Solver *sv) {
    for (int view = 0; view < 2; view++) {
        for (int sq = 0; sq < SQUARES; sq++) {
            int row = sq / SIZE, col = sq % SIZE;
            int line = view == 0 ? row : col, p = view == 0 ? col : row;
            int index = view * SQUARES + sq;
            if (sv->gen.grid[sq] == EMPTY) {
                sv->cross_allowed[index] = cross_check(&sv->gen, view, line, p, &sv->cross_sum[index]);
            } else {
                sv->cross_allowed[index] = 0;
                sv->cross_sum[index] = -1;
            }
            sv->square_state[index] = square_value(sv->gen.grid[sq], sv->cross_allowed[index], sv->cross_sum[index]);
        }
    }
    sv->gen.cross_allowed = sv->cross_allowed;
    sv->gen.cross_sum = sv->cross_sum;
}

/* The table's entry of `key`, or NULL. Open addressing with linear probing. */
static Entry *lookup(const Solver *sv, uint64_t key) {
    uint64_t i = key & sv->table_mask;
    while (sv->table[i].used) {
        if (sv->table[i].key == key) {
            return &sv->table[i];
        }
        i = (i + 1) & sv->table_mask;
    }
    return NULL;
}

/* The first free place of `table` (mask + 1 entries) from the home of `key` on (linear probing). */
static inline uint64_t free_place(const Entry *table, uint64_t mask, uint64_t key) {
    uint64_t i = key & mask;
    while (table[i].used) {
        i = (i + 1) & mask;
    }
    return i;
}

/* `table` (mask + 1 entries, `mapped` as big_calloc said) becomes the solver's, the one before given back. */
static void table_taken(Solver *sv, Entry *table, uint64_t mask, int mapped) {
    big_free(sv->table, sv->table_bytes, sv->table_mapped);
    sv->table = table;
    sv->table_bytes = (size_t)(mask + 1) * sizeof(Entry);
    sv->table_mapped = mapped;
    sv->table_mask = mask;
    sv->table_limit = (mask + 1) / 4 * 3;
}

/* The table of a solve: 2^table_bits entries at most, 2^TABLE_GROWTHS times fewer at first (at least 16); -1
 * (the failure recorded) when memory ran out. It grows as it fills (table_grown), so that a small search touches
 * (and the kernel zeroes) a table of its own size rather than the whole. */
int table_start(Solver *sv, int table_bits) {
    int first = table_bits - TABLE_GROWTHS < 4 ? 4 : table_bits - TABLE_GROWTHS;
    uint64_t mask = ((uint64_t)1 << first) - 1;
    int mapped;
    Entry *table = big_calloc((size_t)(mask + 1) * sizeof(Entry), &mapped);
    if (table == NULL) {
        failed_memory(sv);
        return -1;
    }
    sv->table_mask_most = ((uint64_t)1 << table_bits) - 1;
    table_taken(sv, table, mask, mapped);
    return 0;
}

/* The table at four times its size (at most its full size), its entries moved into it; 0, or -1 when memory
 * ran out (it stays as it was). An entry's place changes, not what a look-up finds. (Four times rather than
 * twice: fewer entries moved and fewer pages zeroed on the way to the full size.) */
static int table_grown(Solver *sv) {
    uint64_t mask = sv->table_mask * 4 + 3;
    mask = mask < sv->table_mask_most ? mask : sv->table_mask_most;
    int mapped;
    Entry *table = big_calloc((size_t)(mask + 1) * sizeof(Entry), &mapped);
    if (table == NULL) {
        return -1;
    }
    for (uint64_t j = 0; j <= sv->table_mask; j++) {
        if (sv->table[j].used) {
            table[free_place(table, mask, sv->table[j].key)] = sv->table[j];
        }
    }
    table_taken(sv, table, mask, mapped);
    return 0;
}

/* The entry to store `key` in: its own, else a free one while the table is less than 3/4 full (so that
 * no entry is lost, as in the reference's dict; grown to its full size first), else one in use, overwritten. */
static Entry *slot_for(Solver *sv, uint64_t key) {
    uint64_t i = key & sv->table_mask;
    while (sv->table[i].used) {
        if (sv->table[i].key == key) {
            return &sv->table[i];
        }
        i = (i + 1) & sv->table_mask;
    }
    if (sv->stored >= sv->table_limit && sv->table_mask < sv->table_mask_most && table_grown(sv) == 0) {
        i = free_place(sv->table, sv->table_mask, key);  /* (it is not in the table) */
    }
    if (sv->stored >= sv->table_limit) {
        /* full: overwrite the first entry in use from the home slot on (no slot is taken into use, so
         * that free slots remain and every probe ends) */
        i = key & sv->table_mask;
        while (!sv->table[i].used) {
            i = (i + 1) & sv->table_mask;
        }
    } else {
        sv->stored++;
    }
    sv->table[i].used = 1;
    sv->table[i].key = key;
    return &sv->table[i];
}

/* Keep `move` as the entry's best move. */
static void packed(Entry *e, const EMove *move) {
    int view = move->view & 1;
    int line = move->n == 0 ? 0 : view == 0 ? move->square[0] / SIZE : move->square[0] % SIZE;
    e->n = move->n;
    e->where = (uint8_t)(line | view << 4);
    e->score = move->score;
    memset(e->place, 0, sizeof(e->place));
    for (int k = 0; k < move->n; k++) {
        int place = view == 0 ? move->square[k] % SIZE : move->square[k] / SIZE;
        e->place[k / 2] |= (uint8_t)(place << (4 * (k % 2)));
        e->tile[k] = move->tile[k];
    }
}

/* The entry's best move, as packed kept it. */
static void unpacked(const Solver *sv, const Entry *e, EMove *move) {
    memset(move, 0, sizeof(EMove));
    int view = e->where >> 4, line = e->where & 15, played = 0;
    move->n = e->n;
    move->view = (uint8_t)view;
    move->score = e->score;
    for (int k = 0; k < e->n && k < MOVE_TILES; k++) {
        int place = (e->place[k / 2] >> (4 * (k % 2))) & 15;
        move->square[k] = (uint8_t)(view == 0 ? line * SIZE + place : place * SIZE + line);
        move->tile[k] = e->tile[k];
        played += (e->tile[k] & BLANK_FLAG) ? 0 : sv->points[e->tile[k]];
    }
    move->played = (int16_t)played;
}

/* Whether the budget is spent (sets sv->stop); reads the clock every CLOCK_EVERY nodes. */
int out_of_budget(Solver *sv) {
    if (sv->nodes % NODES_EVERY != 0) {
        return 0;
    }
    if (sv->max_nodes >= 0 && sv->nodes >= sv->max_nodes) {
        sv->stop = 1;
        return 1;
    }
    if (sv->c_clock && sv->nodes % CLOCK_EVERY == 0) {
        if (c_clock_now(sv->c_clock) >= sv->deadline) {
            sv->stop = 1;
            return 1;
        }
    } else if (sv->clock != Py_None && sv->nodes % CLOCK_EVERY == 0) {
        PyObject *now = PyObject_CallNoArgs(sv->clock);
        if (now == NULL) {
            sv->stop = 2;
            return 1;
        }
        double t = PyFloat_AsDouble(now);
        Py_DECREF(now);
        if (t == -1.0 && PyErr_Occurred()) {
            sv->stop = 2;
            return 1;
        }
        if (t >= sv->deadline) {
            sv->stop = 1;
            return 1;
        }
    }
    return 0;
}

/* Whether a remembered move can be played here: its squares empty, its tiles on the mover's rack. The
 * table's entry is this position's (a 64-bit key), so it always can; the check keeps a collision of
 * keys from corrupting the board or the rack. */
static int playable(const Solver *sv, const ERack *mover, const EMove *move) {
    int8_t need[RACK_SLOTS] = {0};
    for (int k = 0; k < move->n; k++) {
        int t = move->tile[k];
        int slot = (t & BLANK_FLAG) ? MAX_LETTERS : (t & LETTER_MASK);
        if (move->square[k] >= SQUARES || sv->gen.grid[move->square[k]] != EMPTY || slot >= RACK_SLOTS ||
            (slot < MAX_LETTERS && slot >= sv->letters) || ++need[slot] > mover->counts[slot]) {
            return 0;
        }
    }
    return 1;
}

/* The mover's value of playing `move`: its points, then the opponent's best reply negated. */
/* The value of a move whose reply is a leaf (depth 1) with no pass on its path: worked out here, the
 * leaf counted as a node and marking the iteration as cut off, as value_of at depth 0 would. */
static int before_leaf(Solver *sv, const EMove *move, const ERack *mover, const ERack *other, int scoreless) {
    if (move->n == mover->size && move->n > 0) {
        return move->score + 2 * other->points;  /* out: the game ends */
    }
    if (move->n == 0 && scoreless + 1 >= sv->scoreless_to_end) {
        return other->points - mover->points;
    }
    sv->nodes++;
    if (out_of_budget(sv)) {
        return 0;
    }
    sv->cut = 1;
    int played = move->played;
    /* the leaf's guess for the reply: the left rack's points less the other's */
    return move->score - (mover->points - played - other->points);
}

static int after(Solver *sv, const EMove *move, int depth, int alpha, int beta, const ERack *mover,
                 const ERack *other, int scoreless, uint64_t board_key) {
    if (depth == 1 && sv->passes == 0) {
        return before_leaf(sv, move, mover, other, scoreless);
    }
    if (move->n > 0) {
        ERack left;
        rack_leave(sv, mover, move, &left);
        if (left.size == 0) {
            return move->score + 2 * other->points;
        }
        uint64_t next_key = board_key;
        for (int k = 0; k < move->n; k++) {
            next_key ^= square_keys[move->square[k]][move->tile[k]];
        }
        /* the move's value is its points minus the reply: the reply's window is shifted by them */
        if (depth == 1) {
            /* a leaf the table may know: its moves are not generated, the board need not change */
            return move->score - value_of(sv, 0, move->score - beta, move->score - alpha, other, &left, 0, next_key,
                                          NULL);
        }
        /* the reply's table entry is fetched while the move goes on the board */
        __builtin_prefetch(&sv->table[(next_key ^ other->hash[0] ^ left.hash[1] ^ scoreless_keys[0]) & sv->table_mask]);
        Mark mark = put_on_board(sv, move);
        sv->ply++;
        int reply = value_of(sv, depth - 1, move->score - beta, move->score - alpha, other, &left, 0, next_key, NULL);
        sv->ply--;
        take_back(sv, move, mark);
        return move->score - reply;
    }
    if (scoreless + 1 >= sv->scoreless_to_end) {
        return other->points - mover->points;
    }
    sv->passes++;
    sv->ply_dirty[sv->ply] = 0;
    sv->ply++;
    int value = -value_of(sv, depth - 1, -beta, -alpha, other, mover, scoreless + 1, board_key, NULL);
    sv->ply--;
    sv->passes--;
    return value;
}

/* Negamax value of the position for the player to move (holding `mover`); the best move goes to
 * `best_out` when given. On a spent budget or an error, sv->stop is set and the value is meaningless. */
int value_of(Solver *sv, int depth, int alpha, int beta, const ERack *mover, const ERack *other,
             int scoreless, uint64_t board_key, EMove *best_out) {
    sv->nodes++;
    if (out_of_budget(sv)) {
        return 0;
    }
    if (depth == 0 && sv->passes == 0) {
        /* a leaf with no pass on its path: the table knows it only when the same tiles were put down
         * in fewer, longer moves (a few leaves in a million on the real endgames), so it is not looked
         * up; after a pass it is, as the reference does (the best move among equals stays its) */
        sv->cut = 1;
        return other->points - mover->points;
    }
    uint64_t key = board_key ^ mover->hash[0] ^ other->hash[1] ^ scoreless_keys[scoreless & 63];
    Entry *entry = lookup(sv, key);
    int hit = entry != NULL;
    if (hit && entry->depth >= depth &&
        (entry->flag == FLAG_EXACT || (entry->flag == FLAG_LOWER && entry->value >= beta) ||
         (entry->flag == FLAG_UPPER && entry->value <= alpha))) {
        if (entry->depth != WHOLE) {
            sv->cut = 1;
        }
        if (best_out != NULL) {
            unpacked(sv, entry, best_out);
        }
        return entry->value;
    }
    if (depth == 0) {
        sv->cut = 1;
        return other->points - mover->points;
    }
    /* a node that searches its moves: the look-ups of the nodes at this ply before are no ancestor's of those
     * below (linecache.c) */
    sv->path_serial[sv->ply] = ++sv->serial;
    int cut_before = sv->cut;
    sv->cut = 0;
    int original_alpha = alpha;
    int best_value = -INFINITE_VALUE;
    EMove best;
    memset(&best, 0, sizeof(EMove));
    /* the remembered best move, else the killer of this depth (not at the root), is tried before the
     * moves are generated: when it cuts off, they never are */
    if (sv->check_lines && best_out == NULL && check_replay(sv, depth, mover, other) < 0) {
        sv->stop = 2;
        return 0;
    }
    int tried_first = 0;
    if (hit) {
        unpacked(sv, entry, &best);
        tried_first = playable(sv, mover, &best);
        if (!tried_first) {
            memset(&best, 0, sizeof(EMove));
        }
    }
    if (!tried_first && best_out == NULL && killer_move(sv, depth, mover, &best)) {
        tried_first = 1;
    }
    if (tried_first) {
        best_value = after(sv, &best, depth, alpha, beta, mover, other, scoreless, board_key);
        if (sv->stop) {
            return 0;
        }
        if (best_value > alpha) {
            alpha = best_value;
        }
        if (alpha >= beta) {
            killer_keep(sv, depth, mover, &best);
        }
    }
    if (LEAF_SCAN && alpha < beta && depth == 1 && sv->passes == 0 && sv->use_lines && sv->tiles > 0 && !sv->check_lines) {
        /* one ply above the leaves: the moves are valued where they lie in the line cache */
        if (leaf_scan(sv, mover, other, scoreless, beta, tried_first ? &best : NULL, &best_value, &best) < 0) {
            sv->stop = 2;
        }
        if (sv->stop) {
            return 0;
        }
        if (best_value >= beta) {
            killer_keep(sv, depth, mover, &best);  /* the move the loop below would have cut off with */
        }
    } else if (alpha < beta) {
        size_t base = sv->nmoves;
        long count = pushed_moves(sv, mover, other, tried_first ? &best : NULL);
        if (count < 0) {
            sv->stop = 2;
            return 0;
        }
        sv->nmoves += (size_t)count;
        OutReplies replies;
        int nreplies = depth >= 2 ? out_replies(sv, depth - 1, other, &replies) : 0;
        long start = 0;
        if (tried_first) {
            /* the move tried comes first in the order (its key's value part is 0): skip it */
            pick(sv->moves + base, sv->keys + base, count, 0);
            start = (sv->keys[base] >> 32) == 0;
        }
        if (nreplies > 0) {
            /* the moves the bound of outreplies.c keeps at most alpha are taken out before they are sorted
             * (alpha only rises: the loop would find each of them so); the best bound counts as their value */
            int pruned = -INFINITE_VALUE;
            size_t pruned_index = 0;
            count = out_pruned(sv, &replies, sv->moves + base, sv->keys + base, start, count, mover, scoreless, alpha,
                               &pruned, &pruned_index);
            if (pruned > best_value) {
                best_value = pruned;
                best = sv->moves[base + pruned_index];
            }
        }
        for (long i = start; i < count; i++) {
            size_t index = base + pick(sv->moves + base, sv->keys + base, count, i);
            EMove move = sv->moves[index];  /* a copy: the stack may move when it grows */
            int value;
            if (nreplies > 0 && out_bounded(sv, &replies, &move, mover, scoreless, alpha, &value)) {
                /* a reply going out that the move leaves playable keeps it at most alpha (outreplies.c) */
            } else if (best_value == -INFINITE_VALUE || alpha + 1 >= beta || (depth == 1 && sv->passes == 0)) {
                /* (a leaf's reply is worked out exactly: no null window) */
                value = after(sv, &move, depth, alpha, beta, mover, other, scoreless, board_key);
            } else {
                /* principal variation search: a later move only has to be shown no better than alpha
                 * (a null window); when it is better, it is searched again with the whole window */
                value = after(sv, &move, depth, alpha, alpha + 1, mover, other, scoreless, board_key);
                if (!sv->stop && value > alpha && value < beta) {
                    value = after(sv, &move, depth, alpha, beta, mover, other, scoreless, board_key);
                }
            }
            if (sv->stop) {
                sv->nmoves = base;
                return 0;
            }
            if (value > best_value) {
                best_value = value;
                best = move;
            }
            if (best_out != NULL && tried_first && value > alpha && value > sv->root_floor) {
                /* the root (the only call with best_out): this move is proved better than the one
                 * tried first, which is at most alpha, and than the last iteration's best (see
                 * root_floor) */
                sv->root_better = 1;
                sv->root_value = value;
                sv->root_move = move;
            }
            if (value > alpha) {
                alpha = value;
            }
            if (alpha >= beta) {
                killer_keep(sv, depth, mover, &move);
                break;
            }
        }
        sv->nmoves = base;
    }
    entry = slot_for(sv, key);  /* found again: the table may have changed below */
    entry->value = best_value;
    entry->depth = sv->cut ? depth : WHOLE;
    entry->flag = best_value <= original_alpha ? FLAG_UPPER : (best_value >= beta ? FLAG_LOWER : FLAG_EXACT);
    packed(entry, &best);
    sv->cut = sv->cut || cut_before;
    if (best_out != NULL) {
        *best_out = best;
    }
    return best_value;
}
