/*
 * The endgame's moves at a node (engine._native.solve_endgame; the search is in negamax.c): generated
 * (from the line cache of linecache.c, or on the whole board) onto the solver's move stack, each with a
 * sort key, and taken in order: the remembered best move first, then by immediate value (going out
 * counts the other's rack twice) plus ORDER_TILES per tile and ORDER_POINTS per point of tile played,
 * ties in reading order of the tiles, the pass last.
 */

#include "solver.h"

int same_move(const EMove *a, const EMove *b) {
    if (a->n != b->n) {
        return 0;
    }
    for (int i = 0; i < a->n; i++) {
        if (a->square[i] != b->square[i] || a->tile[i] != b->tile[i]) {
            return 0;
        }
    }
    return 1;
}

/* Room for `need` moves and keys on the stacks; -1 (the failure recorded) when memory ran out. */
int grow_stack(Solver *sv, size_t need) {
    size_t cap = sv->cap;
    EMove *moves = GROWN_ARRAY(sv->moves, cap, need, 4096);
    if (moves == NULL) {
        failed_memory(sv);
        return -1;
    }
    sv->moves = moves;
    size_t keys_cap = sv->cap;  /* the keys have the moves' room */
    uint64_t *keys = GROWN_ARRAY(sv->keys, keys_cap, need, 4096);
    if (keys == NULL) {
        failed_memory(sv);
        return -1;
    }
    sv->keys = keys;
    sv->cap = cap;
    return 0;
}

/* A move of the generator's output (n, view, score, then row, col, tile n times) as an EMove. */
void emove_from(const Solver *sv, const int32_t *m, EMove *e) {
    e->n = (uint8_t)m[0];
    e->view = (uint8_t)m[1];
    e->score = (int16_t)m[2];
    int played = 0;
    for (int k = 0; k < e->n; k++) {
        e->square[k] = (uint8_t)(m[3 + 3 * k] * SIZE + m[4 + 3 * k]);
        e->tile[k] = (uint8_t)m[5 + 3 * k];
        played += (e->tile[k] & BLANK_FLAG) ? 0 : sv->points[e->tile[k]];
    }
    e->played = (int16_t)played;
}

/* The mover's moves pushed on the move stack in the generator's order (from the line cache unless it is
 * off or the board empty), the pass last, each with a sort
 * key on the key stack: the remembered best move (`first`) before all, then by immediate value (going
 * out counts the other's rack twice), ties in the generator's order (from the line cache unless it is
 * off or the board empty), the pass after all. `pick` takes
 * them in that order. Returns how many, or -1 (the failure recorded). */
long pushed_moves(Solver *sv, const ERack *mover, const ERack *other, const EMove *first) {
    Search *s = &sv->gen;
    sv->generations++;
    bring_up_to_date(sv);
    size_t count = 0;
    EMove *moves;
    uint64_t *keys;
    int bonus = 2 * other->points;
    if (sv->use_lines && sv->tiles > 0) {
        long n = line_moves(sv, mover, bonus);
        if (n < 0 || (sv->check_lines && check_line_moves(sv, mover, n) < 0)) {
            return -1;
        }
        count = (size_t)n;
        moves = sv->moves + sv->nmoves;
        keys = sv->keys + sv->nmoves;
    } else {
        load_rack(s, mover, sv->letters);
        if (search_all(s, sv->lex, sv->rules, sv->tiles) < 0) {
            failed_memory(sv);
            return -1;
        }
        for (size_t at = 0; at < s->out.len; at += 3 + 3 * (size_t)s->out.data[at]) {
            count++;
        }
        if (grow_stack(sv, sv->nmoves + count + 1) < 0) {
            return -1;
        }
        moves = sv->moves + sv->nmoves;
        keys = sv->keys + sv->nmoves;
        size_t i = 0;
        for (size_t at = 0; at < s->out.len; i++) {
            emove_from(sv, s->out.data + at, &moves[i]);
            int order = move_order(&moves[i]) + (moves[i].n == mover->size ? bonus : 0);
            keys[i] = ((uint64_t)(uint32_t)(ORDER_BIAS - order) << 32) | (uint64_t)i;
            at += 3 + 3 * (size_t)s->out.data[at];
        }
    }
    memset(&moves[count], 0, sizeof(EMove));  /* the pass */
    keys[count] = ((uint64_t)UINT32_MAX << 32) | (uint64_t)count;
    if (first != NULL) {
        for (size_t k = 0; k <= count; k++) {
            if (same_move(&moves[k], first)) {
                keys[k] = (uint64_t)k;  /* before every other key */
                break;
            }
        }
    }
    return (long)count + 1;
}

/* Whether the move of key a comes before that of key b: by the key's value part, then by the tiles in
 * reading order (row, column, tile; a shorter move first when one is the start of the other), as the
 * reference sorts them. */
static inline int before(const EMove *moves, uint64_t a, uint64_t b) {
    if ((a >> 32) != (b >> 32)) {
        return a < b;
    }
    const EMove *x = &moves[a & 0xFFFFFFFFu], *y = &moves[b & 0xFFFFFFFFu];
    int n = x->n < y->n ? x->n : y->n;
    for (int i = 0; i < n; i++) {
        if (x->square[i] != y->square[i]) {
            return x->square[i] < y->square[i];  /* row * SIZE + col: reading order */
        }
        if (x->tile[i] != y->tile[i]) {
            return x->tile[i] < y->tile[i];
        }
    }
    return x->n < y->n;
}

/* Sort keys into move order (a quicksort, insertion sort for short runs). */
static void sort_keys(const EMove *moves, uint64_t *keys, long n) {
    while (n > 16) {
        uint64_t a = keys[0], b = keys[n / 2], c = keys[n - 1];
        uint64_t pivot = before(moves, a, b) ? (before(moves, b, c) ? b : (before(moves, a, c) ? c : a))
                                             : (before(moves, a, c) ? a : (before(moves, b, c) ? c : b));
        long i = 0, j = n - 1;
        while (i <= j) {
            while (before(moves, keys[i], pivot)) {
                i++;
            }
            while (before(moves, pivot, keys[j])) {
                j--;
            }
            if (i <= j) {
                uint64_t t = keys[i];
                keys[i++] = keys[j];
                keys[j--] = t;
            }
        }
        if (j + 1 < n - i) {
            sort_keys(moves, keys, j + 1);
            keys += i;
            n -= i;
        } else {
            sort_keys(moves, keys + i, n - i);
            n = j + 1;
        }
    }
    for (long i = 1; i < n; i++) {
        uint64_t k = keys[i];
        long j = i - 1;
        while (j >= 0 && before(moves, k, keys[j])) {
            keys[j + 1] = keys[j];
            j--;
        }
        keys[j + 1] = k;
    }
}

#define PICKS 6  /* moves taken by selection before the rest is sorted: most cutoffs come before */

/* Keys from..from + m - 1 become the m first in move order of keys[from .. count), in order (the others left
 * after them in any order), found in one pass: each key is compared with the m-th best so far, most only once. */
static void best_first(const EMove *moves, uint64_t *keys, long from, long count, int m) {
    uint64_t best[PICKS];
    long at[PICKS];
    int n = 0;
    if (m < 1 || m > PICKS) {
        return;
    }
    for (long k = from; k < count; k++) {
        uint64_t key = keys[k];
        if (n == m && !before(moves, key, best[n - 1])) {
            continue;
        }
        int j = n < m ? n++ : m - 1;
        for (; j > 0 && before(moves, key, best[j - 1]); j--) {
            best[j] = best[j - 1];
            at[j] = at[j - 1];
        }
        best[j] = key;
        at[j] = k;
    }
    for (int j = 0; j < n; j++) {
        long source = at[j], target = from + j;
        uint64_t t = keys[target];
        keys[target] = keys[source];
        keys[source] = t;
        for (int q = j + 1; q < n; q++) {
            at[q] = at[q] == target ? source : at[q];  /* the key that stood at the target went to the source */
        }
    }
}

/* The index (from the node's base) of the i-th move in order (i taken 0, 1, 2.. with the keys not changed
 * between, but for those from 1 on after the 0th): the 0th by selection (the keys otherwise as they were:
 * out_pruned reads them in their order), the next PICKS - 1 found together at the 1st, then the rest sorted
 * once. (before is a total order of the moves: whatever the keys' order, the moves come in the same.) */
size_t pick(const EMove *moves, uint64_t *keys, long count, long i) {
    if (i == 0) {
        long best = 0;
        for (long k = 1; k < count; k++) {
            if (before(moves, keys[k], keys[best])) {
                best = k;
            }
        }
        uint64_t t = keys[0];
        keys[0] = keys[best];
        keys[best] = t;
    } else if (i == 1) {
        best_first(moves, keys, 1, count, count - 1 < PICKS - 1 ? (int)(count - 1) : PICKS - 1);
    } else if (i == PICKS) {
        sort_keys(moves, keys + i, count - i);
    }
    return (size_t)(keys[i] & 0xFFFFFFFFu);
}
