/*
 * The search: Appel-Jacobson over the DAWG, one line of one view at a time (see module.c).
 */

#include "movegen.h"

static int buffer_reserve(IntBuffer *buffer, size_t more) {
    int32_t *grown = GROWN_ARRAY(buffer->data, buffer->cap, buffer->len + more, 4096);
    if (grown == NULL) {
        return -1;
    }
    buffer->data = grown;
    return 0;
}

/* One move out: the tiles placed, with `blank_set` (bit i: new tile i is a blank) and its score. */
static inline void put_move(Search *s, uint32_t blank_set, int score) {
    if (s->out_only == 1) {
        if (score > s->best_out) {
            s->best_out = score;
        }
        return;
    }
    if (s->top != NULL) {
        offer(s, blank_set, score);
        return;
    }
    if (s->sink != NULL) {
        s->sink(s, blank_set, score);
        return;
    }
    if (buffer_reserve(&s->out, 3 + 3 * (size_t)s->placed) < 0) {
        s->failed = 1;
        return;
    }
    int32_t *at = s->out.data + s->out.len;
    *at++ = s->placed;
    *at++ = s->view;
    *at++ = score;
    for (int i = 0; i < s->placed; i++) {
        int p = s->pos[i];
        int row = s->view == 0 ? s->line : p;
        int col = s->view == 0 ? p : s->line;
        *at++ = row;
        *at++ = col;
        *at++ = s->letter[i] | ((blank_set >> i) & 1 ? BLANK_FLAG : 0);
    }
    s->out.len += 3 + 3 * (size_t)s->placed;
}

/* A complete word: one move per way to put the rack's blanks on its new tiles (a rack tile of a
 * letter is not needed where a blank stands for it; each letter must have enough real tiles). */
static void emit(Search *s, int total, int wmul) {
    if (s->left_k) {  /* listed_left_parts's left part: the squares left of the anchor */
        int first = s->pos[s->left_k] - s->left_k;
        for (int q = 0; q < s->left_k; q++) {
            s->pos[q] = first + q;
        }
    }
    if (s->blanks0 == 0) {
        put_move(s, 0, total);
        return;
    }
    int n = s->placed;
    int used[MAX_LETTERS];
    for (int i = 0; i < n; i++) {
        used[s->letter[i]] = 0;
    }
    for (int i = 0; i < n; i++) {
        used[s->letter[i]]++;
    }
    int loss[MAX_RACK], short_of = -1;  /* a letter of which the word uses more tiles than the rack holds */
    for (int i = 0; i < n; i++) {
        int p = s->pos[i];
        int cross_mult = s->xsum[p] >= 0 ? s->wm[p] : 0;
        loss[i] = s->points[s->letter[i]] * s->lm[p] * (wmul + cross_mult);
        short_of = used[s->letter[i]] > s->counts0[s->letter[i]] ? s->letter[i] : short_of;
    }
    if (s->blanks0 == 1) {
        /* one blank: on no tile, then on each (the order below), but on a tile of short_of if there is one */
        for (int i = -1; i < n; i++) {
            if (short_of < 0 || (i >= 0 && s->letter[i] == short_of)) {
                put_move(s, i < 0 ? 0 : 1u << i, i < 0 ? total : total - loss[i]);
            }
        }
        return;
    }
    /* the sets of new tiles on blanks in increasing order */
    for (uint32_t set = 0; set < (1u << n); set++) {
        if (POPCOUNT(set) > s->blanks0) {
            continue;
        }
        int ok = 1;
        int value = total;
        /* real tiles of each letter: used minus those on blanks, at most what the rack held */
        int on_blank[MAX_LETTERS];
        for (int i = 0; i < n; i++) {
            on_blank[s->letter[i]] = 0;
        }
        for (int i = 0; i < n; i++) {
            if ((set >> i) & 1) {
                on_blank[s->letter[i]]++;
                value -= loss[i];
            }
        }
        for (int i = 0; i < n && ok; i++) {
            int l = s->letter[i];
            if (used[l] - on_blank[l] > s->counts0[l]) {
                ok = 0;
            }
        }
        if (ok) {
            put_move(s, set, value);
        }
    }
}

/* What extend reads of square p of the prepared line, the same for every word that reaches it. */
typedef struct {
    int p;
    int np;            /* the first empty square after p and the board tiles right of it */
    int has_run;       /* whether board tiles follow p */
    int lm, wm, x, run_points;  /* its multipliers, its cross word's board points (-1: none), the run's */
    uint32_t allowed;  /* the letters its cross word allows */
    uint32_t after;    /* those of square np (none past the line's end) */
} Square;

/* Empty square p's (np is then at most SIZE, where allowed holds none). */
static inline __attribute__((always_inline)) Square square_at(const Search *s, int p) {
    int np = s->next_empty[p];
    return (Square){.p = p, .np = np, .has_run = np != p + 1, .lm = s->lm[p], .wm = s->wm[p], .x = s->xsum[p],
                    .run_points = s->run_points[p], .allowed = s->allowed[p], .after = s->allowed[np]};
}

/* extend's body on square `sq` (square_at's), for a search that writes out moves (out_only 0) or keeps only
 * the moves going out (1, 2): the flag is a constant in each of the two functions made from it. */
static inline __attribute__((always_inline)) void extend_square(Search *s, const Square sq, const DawgEdge *at,
                                                                 int main, int wmul, int cross, int ntiles,
                                                                 int can_end, const int out_only) {
    const int p = sq.p;
    if (out_only && s->room[p] < s->rack_len - ntiles) {
        return;  /* too few empty squares left on the line for the rest of the rack: no move going out */
    }
    uint32_t node = at->child, nm = at->mask;
    uint32_t m = nm & sq.allowed;
    if (s->blanks_left == 0) {
        m &= s->rmask;
    }
    if (!m) {
        return;
    }
    int np = sq.np;
    int has_run = sq.has_run;
    uint32_t next_allowed = ntiles + 1 < s->rack_len ? sq.after : 0;  /* np may be SIZE: none */
    uint32_t e = can_end ? at->ends : 0;
    if (!has_run && !next_allowed) {
        m &= e;  /* the word cannot go on past p: only letters that end it here */
        if (!m) {
            return;
        }
    }
    int wm = sq.wm;
    int wmul2 = wmul * wm;
    int x = sq.x;
    int run_points = sq.run_points;
    while (m) {
        int l = LOWEST(m);
        uint32_t bit = 1u << l;
        m &= m - 1;
        const DawgEdge *n2 = &s->edges[node + POPCOUNT(nm & (bit - 1))];
        uint32_t fin;
        if (!has_run) {
            fin = e & bit;
        } else {
            fin = 0;
            for (int q = p + 1; q < np && n2 != NULL; q++) {
                uint32_t tb = 1u << (s->cells[q] & LETTER_MASK);
                if (!(n2->mask & tb)) {
                    n2 = NULL;
                    break;
                }
                fin = n2->ends & tb;
                n2 = &s->edges[n2->child + POPCOUNT(n2->mask & (tb - 1))];
            }
            if (n2 == NULL) {
                continue;
            }
            if (!can_end) {
                fin = 0;
            }
        }
        uint32_t deeper = n2->mask & next_allowed;
        /* no word ends here and no tile of the rack (with l still on it) can go on: nothing to place */
        if (!fin && !(s->blanks_left > 0 ? deeper : deeper & s->rmask)) {
            continue;
        }
        int tp = s->points[l] * sq.lm;
        int main2 = main + tp + run_points;
        int cross2 = x < 0 ? cross : cross + (x + tp) * wm;
        s->pos[s->placed] = p;
        s->letter[s->placed] = l;
        s->placed++;
        if (fin && (!out_only || ntiles + 1 == s->rack_len)) {  /* (emit reads the rack as it was: counts0) */
            int total = main2 * wmul2 + cross2 + (ntiles + 1 == s->rack_size ? s->bingo : 0);
            if (!below_top(s, total, s->rack_len - s->placed)) {
                emit(s, total, wmul2);
            }
        }
        if (goes_on(s, l, deeper)) {  /* the tile for l is taken off the rack only to go on */
            int on_blank = take_tile(s, l);
            if (out_only) {
                extend_out(s, np, n2, main2, wmul2, cross2, ntiles + 1, 1);
            } else {
                extend_all(s, np, n2, main2, wmul2, cross2, ntiles + 1, 1);
            }
            return_tile(s, l, on_blank);
        }
        s->placed--;
        if (s->failed) {
            return;
        }
    }
}

/* extend's body on square p. */
static inline __attribute__((always_inline)) void extend_body(Search *s, int p, const DawgEdge *at, int main,
                                                               int wmul, int cross, int ntiles, int can_end,
                                                               const int out_only) {
    extend_square(s, square_at(s, p), at, main, wmul, cross, ntiles, can_end, out_only);
}

void extend_all(Search *s, int p, const DawgEdge *at, int main, int wmul, int cross, int ntiles, int can_end) {
    extend_body(s, p, at, main, wmul, cross, ntiles, can_end, 0);
}

void extend_out(Search *s, int p, const DawgEdge *at, int main, int wmul, int cross, int ntiles, int can_end) {
    extend_body(s, p, at, main, wmul, cross, ntiles, can_end, 1);
}

/* search_anchor's left parts of at most `limit` tiles, read from the list, each extended when a tile
 * left on the rack can go on the anchor after it and its length k has no bit in `skip`. The left part's
 * letters stand in s->letter; the rack's tiles for them are taken as the walk took them, only when a left
 * part is extended, and those of the letters a left part shares with the one extended before it stay
 * taken. It is here beside extend_square, which it takes inline for the first square of a search that
 * writes moves out, the anchor's Square read once (most left parts are extended on the anchor and no
 * further: a call each cost more than the square's work). */
static void listed_left_parts(Search *s, const LeftParts *lp, int anchor, int limit, uint32_t skip) {
    uint32_t allowed = s->allowed[anchor];
    /* the left part's squares' word multiplier, and those that multiply a letter (d squares left of the
     * anchor, the points a letter there has more), nearest first */
    int wmul[MAX_RACK + 1], premium[MAX_RACK], extra[MAX_RACK], npremium = 0;
    wmul[0] = 1;
    for (int q = 1; q <= limit; q++) {
        wmul[q] = wmul[q - 1] * s->wm[anchor - q];
        if (s->lm[anchor - q] != 1) {
            premium[npremium] = q;
            extra[npremium++] = s->lm[anchor - q] - 1;
        }
    }
    int on_blank[MAX_RACK], taken = 0;  /* the tiles of s->letter[0 .. taken) are off the rack */
    const Square square = square_at(s, anchor);  /* the anchor's, read once for every left part */
    const LeftPart *items = lp->items;
    size_t n = lp->len;
    for (size_t i = 0; i < n;) {
        const LeftPart *item = &items[i];
        int k = item->depth;
        while (taken >= k) {  /* the letters from k - 1 on are another left part's */
            taken--;
            return_tile(s, s->letter[taken], on_blank[taken]);
        }
        s->letter[k - 1] = item->letter;
        if ((item->fits & allowed) && !(skip >> k & 1)) {
            /* the left part covers anchor - k .. anchor - 1 */
            for (; taken < k; taken++) {
                on_blank[taken] = take_tile(s, s->letter[taken]);
            }
            int main = item->points;  /* its letters' points, and more on the squares that multiply them */
            for (int q = 0; q < npremium && premium[q] <= k; q++) {
                main += s->points[s->letter[k - premium[q]]] * extra[q];
            }
            s->placed = k;
            s->left_k = k;  /* its squares go to s->pos when a move is emitted */
            if (s->out_only) {
                extend_out(s, anchor, &item->node, main, wmul[k], 0, k, 1);
            } else {
                extend_square(s, square, &item->node, main, wmul[k], 0, k, 1, 0);
            }
            s->left_k = 0;
            s->placed = 0;
            if (s->failed) {  /* (only an extension can fail) */
                break;
            }
        }
        i = k < limit ? i + 1 : item->skip;
    }
    while (taken > 0) {
        taken--;
        return_tile(s, s->letter[taken], on_blank[taken]);
    }
}

/* Left parts from the rack, `depth` letters so far ending at the anchor's left; each is extended. */
static void left_parts(Search *s, int anchor, uint32_t node, int depth, int limit) {
    uint32_t nm = s->mask[node];
    uint32_t m = nm;
    if (s->blanks_left == 0) {
        m &= s->rmask;
    }
    while (m) {
        int l = LOWEST(m);
        uint32_t bit = 1u << l;
        m &= m - 1;
        uint32_t n2 = s->child[node + POPCOUNT(nm & (bit - 1))];
        int on_blank = take_tile(s, l);
        s->left_letters[depth] = l;
        int k = depth + 1;
        /* extended only when a tile left on the rack can go on the anchor after it */
        uint32_t next = s->mask[n2] & s->allowed[anchor];
        if (s->blanks_left == 0) {
            next &= s->rmask;
        }
        if (next) {
            int main, wmul;
            put_left_part(s, anchor, k, &main, &wmul);
            extend(s, anchor, n2, main, wmul, 0, k, 1);
            s->placed = 0;
        }
        if (k < limit && !s->failed) {
            left_parts(s, anchor, n2, k, limit);
        }
        return_tile(s, l, on_blank);
        if (s->failed) {
            return;
        }
    }
}

/* The letters allowed on the empty square `p` of line `line` of view `view` by the word across the line
 * through it (all letters if there is none), and in `xsum` the points of that word's board tiles (-1 if
 * there is none). */
uint32_t cross_check(const Search *s, int view, int line, int p, int *xsum) {
    /* the cross word through p: the tiles before and after it across the line */
    int first = line, last = line;
    while (first > 0 && cell(s, view, first - 1, p) != EMPTY) {
        first--;
    }
    while (last < SIZE - 1 && cell(s, view, last + 1, p) != EMPTY) {
        last++;
    }
    if (first == line && last == line) {
        *xsum = -1;
        return s->all_letters;
    }
    int sum = 0;
    uint32_t node = 0;
    for (int k = first; k < line && node != UINT32_MAX; k++) {
        int t = cell(s, view, k, p);
        sum += tile_points(s, t);
        node = follow(s, node, t & LETTER_MASK);
    }
    for (int k = line + 1; k <= last; k++) {
        sum += tile_points(s, cell(s, view, k, p));
    }
    *xsum = sum;
    uint32_t allowed = 0;
    if (node != UINT32_MAX && last == line) {
        return s->ends[node] & s->mask[node];  /* no tiles after p: the letters that end the word there */
    }
    if (node != UINT32_MAX) {
        int after[SIZE], nafter = 0;  /* the letters of the tiles after p */
        for (int k = line + 1; k <= last; k++) {
            after[nafter++] = cell(s, view, k, p) & LETTER_MASK;
        }
        uint32_t nm = s->mask[node];
        for (uint32_t m = nm; m; m &= m - 1) {
            uint32_t bit = m & (0u - m);
            /* along the tiles after p from the letter's edge (its node's letters and ends at hand); the last
             * tile's letter must have an edge that ends a word */
            const DawgEdge *at = &s->edges[node + POPCOUNT(nm & (bit - 1))];
            int q = 0;
            for (; q < nafter - 1 && (at->mask >> after[q] & 1); q++) {
                at = &s->edges[at->child + POPCOUNT(at->mask & ((1u << after[q]) - 1))];
            }
            if (q == nafter - 1 && ((at->mask & at->ends) >> after[q] & 1)) {
                allowed |= bit;
            }
        }
    }
    return allowed;
}

/* Cross-checks and row tables of line `line` of view `view`. */
void prepare_line(Search *s, const RulesObject *rules, int view, int line) {
    s->view = view;
    s->line = line;
    s->lm = rules->lm[view] + line * SIZE;
    s->wm = rules->wm[view] + line * SIZE;
    /* one pass from the end of the line: each empty square's next empty square and the points of the
     * tiles between */
    int room = 0, next = SIZE, points = 0;
    int first = line_square(view, line, 0), stride = view == 0 ? 1 : SIZE;
    s->allowed[SIZE] = 0;
    for (int p = SIZE - 1; p >= 0; p--) {
        int square = first + p * stride;
        int t = s->grid[square];
        s->cells[p] = (int8_t)t;
        if (t != EMPTY) {
            points += tile_points(s, t);
            s->allowed[p] = 0;
            s->xsum[p] = -1;
        } else {
            room++;
            s->next_empty[p] = next;
            s->run_points[p] = points;
            next = p;
            points = 0;
            if (s->cross_allowed != NULL) {
                s->allowed[p] = s->cross_allowed[view * SQUARES + square];
                s->xsum[p] = s->cross_sum[view * SQUARES + square];
            }
        }
        s->room[p] = (int8_t)room;
    }
    if (s->cross_allowed == NULL) {
        for (int p = 0; p < SIZE; p++) {
            if (s->cells[p] == EMPTY) {
                s->allowed[p] = cross_check(s, view, line, p, &s->xsum[p]);
            }
        }
    }
}

static int is_anchor(const Search *s, int row, int col) {
    if (s->grid[row * SIZE + col] != EMPTY) {
        return 0;
    }
    return (row > 0 && s->grid[(row - 1) * SIZE + col] != EMPTY) ||
           (row < SIZE - 1 && s->grid[(row + 1) * SIZE + col] != EMPTY) ||
           (col > 0 && s->grid[row * SIZE + col - 1] != EMPTY) ||
           (col < SIZE - 1 && s->grid[row * SIZE + col + 1] != EMPTY);
}

/* The anchors of line `line` of view `view`, in order; returns how many. */
int line_anchors(const Search *s, const RulesObject *rules, int view, int line, int empty_board, int *anchors) {
    int nanchors = 0;
    for (int p = 0; p < SIZE; p++) {
        int row = view == 0 ? line : p, col = view == 0 ? p : line;
        if (empty_board ? (row == rules->start_row && col == rules->start_col) : is_anchor(s, row, col)) {
            anchors[nanchors++] = p;
        }
    }
    return nanchors;
}

/* The moves of one anchor of the line prepare_line prepared (`previous`: the line's anchor before it,
 * -1 if none; left parts from the rack stop short of it). */
void search_anchor(Search *s, int anchor, int previous) {
    search_anchor_depths(s, anchor, previous, 0);
}

void search_anchor_depths(Search *s, int anchor, int previous, uint32_t skip) {
    uint32_t fits = s->allowed[anchor];
    if (s->blanks_left == 0) {
        fits &= s->rmask;
    }
    if (!fits) {
        return;
    }
    int max_left = (s->rack_len < s->rack_size ? s->rack_len : s->rack_size) - 1;
    /* a lone tile that makes a word across is produced by the across pass only */
    int lone = s->view == 0 || s->xsum[anchor] < 0;
    s->placed = 0;
    if (anchor > 0 && s->cells[anchor - 1] != EMPTY) {
        /* the left part is the run of board tiles left of the anchor */
        int points;
        const DawgEdge *at = board_left_edge(s, anchor, &points);
        if (at != NULL && !(skip & 1)) {
            extend_edge(s, anchor, at, points, 1, 0, 0, lone);
        }
    } else {
        int has_run = s->next_empty[anchor] != anchor + 1;
        if (!(skip & 1)) {
            extend(s, anchor, 0, 0, 1, 0, 0, lone && has_run);
        }
        int limit = anchor - previous - 1;
        if (limit > max_left) {
            limit = max_left;
        }
        while (limit > 0 && limit < 32 && (skip >> limit & 1)) {
            limit--;  /* the longest left parts are all skipped */
        }
        if (limit > 0 && !s->failed) {
            if (s->lefts != NULL && left_parts_ready(s, s->lefts, limit) == 0) {
                listed_left_parts(s, s->lefts, anchor, limit, skip);  /* the rack's left parts, walked once */
            } else {
                left_parts(s, anchor, 0, 0, limit);
            }
        }
    }
}

/* `occupied[view][line]`: bit p set when square p of that line holds a tile (see search_all). */
static void search_line(Search *s, const RulesObject *rules, int view, int line, int empty_board,
                        const uint16_t occupied[2][SIZE]) {
    int anchors[SIZE];
    int nanchors = 0;
    if (empty_board) {
        nanchors = line_anchors(s, rules, view, line, empty_board, anchors);
    } else {
        /* the anchors: empty squares next to a tile along the line or in the lines either side */
        uint32_t here = occupied[view][line];
        uint32_t near = (here << 1) | (here >> 1) | (line > 0 ? occupied[view][line - 1] : 0) |
                        (line < SIZE - 1 ? occupied[view][line + 1] : 0);
        uint32_t bits = near & ~here & ((1u << SIZE) - 1);
        while (bits) {
            anchors[nanchors++] = LOWEST(bits);
            bits &= bits - 1;
        }
    }
    if (!nanchors) {
        return;
    }
    if (s->cross_allowed != NULL) {
        /* the cross-checks are known before the line is prepared: skip it when no anchor takes a rack tile */
        uint32_t usable = s->blanks_left > 0 ? s->all_letters : s->rmask;
        uint32_t fits = 0;
        for (int a = 0; a < nanchors; a++) {
            int square = line_square(view, line, anchors[a]);
            fits |= s->cross_allowed[view * SQUARES + square] & usable;
        }
        if (!fits) {
            return;
        }
    }
    prepare_line(s, rules, view, line);
    int previous = -1;
    for (int a = 0; a < nanchors && !s->failed; a++) {
        search_anchor(s, anchors[a], previous);
        previous = anchors[a];
    }
}

/* Search both views of the board read by prepare_search; -1 if the output ran out of memory, with no
 * exception set: it calls nothing of Python and may run without the interpreter's lock (the callers raise). */
int search_all(Search *s, LexiconObject *lex, RulesObject *rules, int tiles) {
    if (s->rack_len == 0 || lex->nedges == 0) {
        return 0;
    }
    uint16_t occupied[2][SIZE] = {{0}};
    for (int sq = 0; sq < SQUARES; sq++) {
        if (s->grid[sq] != EMPTY) {
            occupied[0][sq / SIZE] |= (uint16_t)(1u << (sq % SIZE));
            occupied[1][sq % SIZE] |= (uint16_t)(1u << (sq / SIZE));
        }
    }
    for (int view = 0; view < 2 && !s->failed; view++) {
        for (int line = 0; line < SIZE && !s->failed; line++) {
            search_line(s, rules, view, line, tiles == 0, occupied);
        }
    }
    if (s->failed) {
        PyMem_RawFree(s->out.data);
        s->out.data = NULL;
        return -1;
    }
    return 0;
}

int run_search(Search *s, LexiconObject *lex, RulesObject *rules, PyObject *grid, PyObject *counts,
                      int blanks) {
    int tiles;
    if (prepare_search(s, lex, rules, grid, counts, blanks, NULL, &tiles) < 0) {
        return -1;
    }
    if (search_unlocked(s, lex, rules, tiles) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* search_all without the interpreter's lock when the search may be long (see movegen.h). */
int search_unlocked(Search *s, LexiconObject *lex, RulesObject *rules, int tiles) {
    if (s->blanks0 == 0 && s->rack_len < UNLOCKED_TILES) {
        return search_all(s, lex, rules, tiles);
    }
    int failed;
    lexicon_hold(lex);
    Py_BEGIN_ALLOW_THREADS
    failed = search_all(s, lex, rules, tiles);
    Py_END_ALLOW_THREADS
    lexicon_let_go(lex);
    return failed;
}
