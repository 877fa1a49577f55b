/*
 * The static endgame inside a playout (reply.c's best_move with the bag empty): Equity._static_endgame's
 * first move. Every move is valued (the score, + 2x the opponent's rack and 1000 for a move going out,
 * else - 2x the points kept); the first endgame_width by value are checked against the opponent's best
 * move going out after them, which lowers the value; the best after the check is played.
 *
 * The check only lowers a value, so the moves are taken best first and the first whose value before
 * the check cannot beat the best value after it ends the checks. And they are generated only as far as
 * needed: the anchors are searched best first by their bounds (anchorbound.c, with the values of what
 * the rack keeps standing for the leave's), and a move found is taken only when its value is above the
 * bound of every anchor not yet searched. Most endgames take the first move or two, from a few anchors.
 */

#include "reply_internal.h"

/* A move found: its value and where it is in the moves written out (search_all's form). */
typedef struct {
    long value;
    size_t at;
} Ranked;

static int tiles_order(const int32_t *a, const int32_t *b) {
    int n = a[0] < b[0] ? a[0] : b[0];
    for (int i = 0; i < 3 * n; i++) {
        if (a[3 + i] != b[3 + i]) {
            return a[3 + i] < b[3 + i] ? -1 : 1;
        }
    }
    return a[0] == b[0] ? 0 : (a[0] < b[0] ? -1 : 1);
}

/* Whether a comes before b in Equity._static_endgame's order: the higher value first, then by the tiles
 * (then, for the same tiles twice, in the order found). */
static inline int ranked_before(const int32_t *moves, const Ranked *a, const Ranked *b) {
    if (a->value != b->value) {
        return a->value > b->value;
    }
    int order = tiles_order(moves + a->at, moves + b->at);
    return order != 0 ? order < 0 : a->at < b->at;
}

/* The moves found and not yet taken, as a heap: the first in ranked_before's order on top. */
typedef struct {
    Ranked *items;
    size_t len, cap;
} Pool;

static void pool_sift_down(const int32_t *moves, Pool *pool, size_t i) {
    Ranked item = pool->items[i];
    size_t n = pool->len;
    for (;;) {
        size_t child = 2 * i + 1;
        if (child >= n) {
            break;
        }
        if (child + 1 < n && ranked_before(moves, &pool->items[child + 1], &pool->items[child])) {
            child++;
        }
        if (!ranked_before(moves, &pool->items[child], &item)) {
            break;
        }
        pool->items[i] = pool->items[child];
        i = child;
    }
    pool->items[i] = item;
}

static int pool_push(const int32_t *moves, Pool *pool, Ranked item) {
    Ranked *grown = GROWN_ARRAY(pool->items, pool->cap, pool->len + 1, 256);
    if (grown == NULL) {
        return -1;
    }
    pool->items = grown;
    size_t i = pool->len++;
    while (i > 0 && ranked_before(moves, &item, &pool->items[(i - 1) / 2])) {
        pool->items[i] = pool->items[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    pool->items[i] = item;
    return 0;
}

static Ranked pool_take(const int32_t *moves, Pool *pool) {
    Ranked first = pool->items[0];
    pool->items[0] = pool->items[--pool->len];
    if (pool->len > 0) {
        pool_sift_down(moves, pool, 0);
    }
    return first;
}

/* The highest score of a move by `hand` that uses all of its tiles on each line l of `grid` in `lines`
 * (bit l: view * SIZE + line) into best[l] (-1: none), its cross-checks in k->cross. */
static void out_lines(Kernel *k, const int8_t *grid, const Hand *hand, uint32_t lines, int *best) {
    search_setup(k, grid, hand, NULL);
    Search *s = k->search;
    s->out_only = 1;  /* nothing is written out: the search keeps the best score of the moves going out */
    for (int l = 0; l < 2 * SIZE; l++) {
        if (!(lines >> l & 1)) {
            continue;
        }
        best[l] = -1;
        int found[SIZE];
        int count = s->rack_len > 0 && k->lex->nedges > 0 ? board_anchors(k, s, l / SIZE, l % SIZE, 1, found) : 0;
        if (!count) {
            continue;
        }
        prepare_line(s, k->rules, l / SIZE, l % SIZE);
        s->best_out = -1;
        int previous = -1;
        for (int a = 0; a < count; a++) {
            search_anchor(s, found[a], previous);
            previous = found[a];
        }
        best[l] = s->best_out;
    }
    s->out_only = 0;
}

/* The out-plays of the opponent's rack after the moves of one static endgame: on each line the move
 * left as it was, the best on the board before the move (searched once, when first needed). */
typedef struct {
    const int8_t *grid;  /* the board before the moves */
    int best[2 * SIZE];
    uint32_t known;
} OutLines;

/* The highest score of a move by `hand` that uses all of its tiles (-1 if none), on `grid`, which is
 * shared->grid (k->cross its cross-checks) with the move `tiles` ((row, col, tile) n times) on it: the
 * lines the move changed are searched, the others' best taken from `shared`. */
static int out_play(Kernel *k, const int8_t *grid, const Hand *hand, const int32_t *tiles, int n, OutLines *shared) {
    const Cross *before = k->cross;
    *k->after = *before;
    cross_update(k, grid, k->after, tiles, n);
    uint32_t changed = lines_changed(shared->grid, before, grid, k->after);
    uint32_t missing = ((1u << 2 * SIZE) - 1) & ~changed & ~shared->known;
    if (missing) {
        out_lines(k, shared->grid, hand, missing, shared->best);
        shared->known |= missing;
    }
    int after[2 * SIZE];
    k->cross = k->after;
    out_lines(k, grid, hand, changed, after);
    k->cross = before;
    int best = -1;
    for (int l = 0; l < 2 * SIZE; l++) {
        int value = changed >> l & 1 ? after[l] : shared->best[l];
        if (value > best) {
            best = value;
        }
    }
    return best;
}

/* out_play without the board's cross-checks (k->cross NULL) or on an empty board: the whole search. */
static int out_play_whole(Kernel *k, const int8_t *grid, int ntiles, const Hand *hand) {
    search_setup(k, grid, hand, NULL);
    Search *s = k->search;
    s->out_only = 1;
    s->best_out = -1;
    search_all(s, k->lex, k->rules, ntiles);
    s->out_only = 0;
    return s->best_out;
}

/* Set up the search of our rack's moves (k->search, r): the values of what the rack keeps are the
 * endgame's (2x the opponent's rack `other_points` and 1000 when nothing is kept, else - 2x the points
 * kept), and the moves are written out (no top list). */
static void endgame_begin(Kernel *k, const int8_t *grid, const Hand *hand, int other_points, Reply *r,
                          KeptValues *values) {
    r->weight = 1.0;
    r->split = 0;
    r->plays_blank = 0;
    r->top = (struct TopK){.k = 1, .count = 0, .items = &r->item, .weight = 1.0};
    search_setup(k, grid, hand, &r->top);
    Search *s = k->search;
    r->nkept = kept_layout(s, &r->top, r->distinct, r->multiplicity, &r->ndistinct);
    values->kept = k->endgame_kept;
    for (int i = 0; i <= MAX_RACK; i++) {
        values->max_kept[i] = -1e300;
    }
    for (Py_ssize_t index = 0; index < r->nkept; index++) {
        int points = 0, size = 0;
        Py_ssize_t rest = index;
        for (int i = 0; i < r->ndistinct; i++) {
            int kept = (int)(rest % (r->multiplicity[i] + 1));
            rest /= r->multiplicity[i] + 1;
            points += r->distinct[i] < 0 ? 0 : kept * s->points[r->distinct[i]];
            size += kept;
        }
        double value = index == 0 ? 2.0 * other_points + 1000 : -2.0 * points;
        values->kept[index] = value;
        if (value > values->max_kept[size]) {
            values->max_kept[size] = value;
        }
    }
    r->values = values;
    reply_rack(k, r);
    s->top = NULL;
}

/* The points of the tiles of move m (search_all's form) that are not blanks. */
static int move_used(const Search *s, const int32_t *m) {
    int used = 0;
    for (int t = 0; t < m[0]; t++) {
        used += tile_points(s, m[3 + 3 * t + 2]);
    }
    return used;
}

/* The value of move m (search_all's form) before the out-play check. */
static long endgame_value(const Search *s, const int32_t *m, const Hand *hand, int rack_points, int other_points) {
    if (m[0] == hand->size) {
        return (long)m[2] + 2L * other_points + 1000;
    }
    return (long)m[2] - 2L * (rack_points - move_used(s, m));
}

/* Equity.best with the bag empty (Equity._static_endgame's first move): `other` is the opponent's rack. */
void best_endgame(Kernel *k, int8_t *grid, int ntiles, const Hand *hand, const Hand *other, Play *play) {
    play->kind = KIND_PASS;
    play->n = play->score = 0;
    int rack_points = hand_points(k, hand), other_points = hand_points(k, other);
    Reply r;
    KeptValues values;
    endgame_begin(k, grid, hand, other_points, &r, &values);
    Search *s = k->search;
    if (s->rack_len == 0 || k->lex->nedges == 0) {
        return;
    }
    int nanchors = 0, nlines = 0;
    for (int view = 0; view < 2; view++) {
        for (int line = 0; line < SIZE; line++) {
            nanchors += queue_line(k, &r, view, line, ntiles, &nlines, k->anchors + nanchors);
        }
    }
    anchor_heapify(k->anchors, nanchors);
    IntBuffer moves = {NULL, 0, 0};  /* the moves found, written out by the search */
    Pool pool = {NULL, 0, 0};
    int8_t before[SQUARES];
    memcpy(before, grid, SQUARES);
    OutLines shared = {.grid = before, .known = 0};
    Ranked best = {0, 0};
    int have = 0, current = -1, ours = 1;  /* ours: k->search is set up for our rack */
    size_t taken = 0;
    while (taken < (size_t)k->endgame_width && !k->failed) {
        double bound = nanchors > 0 ? k->anchors[0].bound : -HUGE_VAL;  /* of every move not found yet */
        if (have && (double)best.value > bound &&
            (pool.len == 0 || !ranked_before(moves.data, &pool.items[0], &best))) {
            break;  /* no move left comes before the best */
        }
        if (pool.len == 0 || !((double)pool.items[0].value > bound)) {
            if (nanchors == 0) {
                break;  /* every move taken */
            }
            /* a move not found yet may come first: search the next anchor */
            Anchor next = anchor_take(k->anchors, &nanchors);
            if (!ours) {
                search_setup(k, grid, hand, NULL);  /* the out-plays searched the opponent's rack */
                ours = 1;
                current = -1;
            }
            if (next.line != current) {
                memcpy((char *)s + LINE_FIRST, k->lines + (size_t)next.line * LINE_BYTES, LINE_BYTES);
                current = next.line;
            }
            size_t found = moves.len;
            s->out = moves;
            /* its left part lengths whose bounds are below the next anchor's wait in the heap */
            double cut = nanchors > 0 ? k->anchors[0].bound : -HUGE_VAL;
            if (search_part(s, &next, k->depth_bounds[(size_t)next.line * SIZE + next.anchor], cut)) {
                anchor_push(k->anchors, &nanchors, &next);
            }
            moves = s->out;
            s->out.data = NULL;
            s->out.len = s->out.cap = 0;
            if (s->failed) {
                k->failed = 1;
                break;
            }
            for (size_t at = found; at < moves.len; at += 3 + 3 * (size_t)moves.data[at]) {
                Ranked item = {endgame_value(s, moves.data + at, hand, rack_points, other_points), at};
                if (pool_push(moves.data, &pool, item) < 0) {
                    k->failed = 1;
                    break;
                }
            }
            continue;
        }
        Ranked next = pool_take(moves.data, &pool);
        if (have && !ranked_before(moves.data, &next, &best)) {
            break;  /* neither this move nor those after it can come first */
        }
        taken++;
        if (next.value < 1000) {
            const int32_t *m = moves.data + next.at;
            int used = move_used(s, m);
            for (int t = 0; t < m[0]; t++) {
                grid[m[3 + 3 * t] * SIZE + m[3 + 3 * t + 1]] = (int8_t)m[3 + 3 * t + 2];
            }
            int out = k->cross != NULL && ntiles > 0 ? out_play(k, grid, other, m + 3, m[0], &shared)
                                                     : out_play_whole(k, grid, ntiles + m[0], other);
            ours = 0;
            for (int t = 0; t < m[0]; t++) {
                grid[m[3 + 3 * t] * SIZE + m[3 + 3 * t + 1]] = EMPTY;
            }
            if (out >= 0) {
                next.value -= out + 2L * (rack_points - used);
            }
        }
        if (!have || ranked_before(moves.data, &next, &best)) {
            best = next;
            have = 1;
        }
    }
    if (have && !k->failed) {
        const int32_t *m = moves.data + best.at;
        play->kind = KIND_PLACE;
        play->n = m[0];
        play->score = m[2];
        memcpy(play->tiles, m + 3, sizeof(int32_t) * 3 * (size_t)m[0]);
    }
    PyMem_RawFree(pool.items);
    PyMem_RawFree(moves.data);
}
