/*
 * The simulation's playouts in C (engine._native.playouts; see engine/simulation.py).
 *
 * One call plays a batch of iterations for every candidate with common random numbers: iteration i's
 * draw (the opponent's rack, then the bag in order) is the same for every candidate. A playout is the
 * reference's Simulator._play_out step by step: the candidate on a copy of the board, the opponent's
 * best static reply, our best static reply from what we kept plus what we drew, and the value of the
 * three moves' points plus the leaves at the end (the learned leave model, LeaveTable). A static reply
 * is Equity.best's first move: with tiles in the bag the best placement by equity (ranked inside the
 * search as top_equity ranks it) or the best swap, a placement winning a tie; with the bag empty the
 * static endgame (going out first, twice the points kept, the opponent's out-play after the most
 * promising moves). The draws come from Python, so both sides see the same luck; the result is one
 * double per (iteration, candidate), and Python keeps the statistics.
 *
 * Everything from Python is checked first (the board and rack as the generator checks them, every
 * candidate's squares and tiles, every drawn tile); bad input raises ValueError or TypeError.
 */

#include "native.h"

#define KIND_PLACE 0
#define KIND_SWAP 1
#define KIND_PASS 2
#define MAX_WIDTH 1024  /* unseen tiles per draw */

typedef struct {
    int counts[MAX_LETTERS];
    int blanks;
    int size;
} Hand;

typedef struct {
    int kind;
    int n;
    int score;
    int32_t tiles[3 * MAX_RACK];  /* a placement's (row, col, tile); a swap's bag tiles in tiles[0..n) */
} Play;

/* A line's prepared state (prepare_line's output), kept while the anchors are searched best first. */
#define LINE_FIRST offsetof(Search, view)
#define LINE_BYTES (offsetof(Search, placed) - offsetof(Search, view))

typedef struct {
    double bound;
    int line;     /* index into the saved lines */
    int anchor;
    int previous;
} Anchor;

typedef struct {
    LexiconObject *lex;
    RulesObject *rules;
    const LeaveTableObject *table;
    Search base;     /* the lexicon and ruleset fields, copied into every search */
    Search *search;  /* scratch */
    double *kept;    /* the value of each kept multiset of the rack being searched */
    char *lines;     /* the prepared lines of a search (2 x SIZE at most) */
    Anchor *anchors; /* its anchors with their bounds (2 x SIZE x SIZE at most) */
    double swap_cost;
    int swap_min_bag;
    int endgame_width;
    int failed;      /* out of memory */
} Kernel;

typedef struct {
    int32_t *tiles;
    size_t cap, len;
    size_t front;
} Bag;

static int hand_points(const Kernel *k, const Hand *h) {
    int total = 0;
    for (int i = 0; i < k->rules->letters; i++) {
        total += h->counts[i] * k->rules->points[i];
    }
    return total;
}

static void hand_take(Hand *h, int tile) {  /* a board tile (blank flag) or a bag tile (-1 blank) */
    if (tile < 0 || (tile & BLANK_FLAG)) {
        h->blanks--;
    } else {
        h->counts[tile & LETTER_MASK]--;
    }
    h->size--;
}

static void hand_add(Hand *h, int bag_tile) {
    if (bag_tile < 0) {
        h->blanks++;
    } else {
        h->counts[bag_tile]++;
    }
    h->size++;
}

static void draw(Hand *h, Bag *bag, int n) {
    for (int i = 0; i < n && bag->front < bag->len; i++) {
        hand_add(h, bag->tiles[bag->front++]);
    }
}

static int bag_left(const Bag *bag) {
    return (int)(bag->len - bag->front);
}

static void setup(Kernel *k, const int8_t *grid, const Hand *hand, struct TopK *top) {
    Search *s = k->search;
    memcpy(s, &k->base, sizeof(Search));
    memcpy(s->grid, grid, SQUARES);
    s->rmask = 0;
    s->rack_len = hand->blanks;
    for (int i = 0; i < s->letters; i++) {
        s->counts[i] = s->counts0[i] = hand->counts[i];
        s->rack_len += hand->counts[i];
        if (hand->counts[i]) {
            s->rmask |= 1u << i;
        }
    }
    s->blanks0 = s->blanks_left = hand->blanks;
    s->top = top;
    s->failed = 0;
    s->placed = 0;
    s->out.data = NULL;
    s->out.len = s->out.cap = 0;
}

static int anchor_order(const void *pa, const void *pb) {
    const Anchor *a = pa, *b = pb;
    if (a->bound != b->bound) {
        return a->bound > b->bound ? -1 : 1;
    }
    return a->line != b->line ? a->line - b->line : a->anchor - b->anchor;
}

/* The most any move from `anchor` can score (its letters unknown): for every span of squares it can
 * cover, the board tiles of its main word and cross words, the rack's highest tile values on the
 * squares that multiply most, and the bingo when it uses a full rack; plus the most a leave of the
 * tiles left can be worth. No move from the anchor has a higher equity. */
static double anchor_bound(const Search *s, int anchor, int previous, const int *desc_points, const double *max_kept,
                           double weight) {
    int left[SIZE], nleft = 0, left_points = 0;
    if (anchor > 0 && s->cells[anchor - 1] != EMPTY) {
        for (int q = anchor - 1; q >= 0 && s->cells[q] != EMPTY; q--) {
            left_points += tile_points(s, s->cells[q]);
        }
    } else {
        int max_left = (s->rack_len < s->rack_size ? s->rack_len : s->rack_size) - 1;
        int limit = anchor - previous - 1;
        if (limit > max_left) {
            limit = max_left;
        }
        for (int k = 1; k <= limit; k++) {
            left[nleft++] = anchor - k;
        }
    }
    int right[MAX_RACK], nright = 0;
    uint32_t usable = s->blanks0 ? s->all_letters : s->rmask;
    int best_points[MAX_RACK];
    for (int p = anchor; p < SIZE && nright < s->rack_len; p = s->next_empty[p]) {
        uint32_t fits = s->allowed[p] & s->rmask;
        if (!(s->allowed[p] & usable)) {
            break;  /* no tile of the rack fits here: no move covers this square */
        }
        int most = 0;  /* a blank scores 0 */
        while (fits) {
            int l = LOWEST(fits);
            fits &= fits - 1;
            if (s->points[l] > most) {
                most = s->points[l];
            }
        }
        best_points[nright] = most;
        right[nright++] = p;  /* an empty square: prepare_line set where the next one is */
    }
    if (!nright) {
        return -1e300;
    }
    double best = -1e300;
    for (int k = 0; k <= nleft && k < s->rack_len; k++) {
        int wmul = 1;
        for (int i = 0; i < k; i++) {
            wmul *= s->wm[left[i]];
        }
        for (int j = 1; j <= nright && k + j <= s->rack_len; j++) {
            int p = right[j - 1];
            wmul *= s->wm[p];
            int board = left_points, cross = 0, coef[MAX_RACK], n = 0;
            for (int i = 0; i < k; i++) {
                coef[n++] = s->lm[left[i]] * wmul;
            }
            for (int i = 0; i < j; i++) {
                int q = right[i];
                board += s->run_points[q];
                int c = s->lm[q] * wmul;
                if (s->xsum[q] >= 0) {
                    cross += s->xsum[q] * s->wm[q];
                    c += s->lm[q] * s->wm[q];
                }
                coef[n++] = c;
            }
            /* the highest tile values on the highest coefficients */
            for (int a = 1; a < n; a++) {
                int v = coef[a], b = a;
                while (b > 0 && coef[b - 1] < v) {
                    coef[b] = coef[b - 1];
                    b--;
                }
                coef[b] = v;
            }
            int fixed = board * wmul + cross + (n == s->rack_size ? s->bingo : 0);
            /* each square's best tile alone (a tile the cross word allows there) is a second bound */
            int alone = fixed;
            for (int i = 0; i < k; i++) {
                alone += s->lm[left[i]] * wmul * desc_points[0];
            }
            for (int i = 0; i < j; i++) {
                int q = right[i];
                alone += s->lm[q] * (wmul + (s->xsum[q] >= 0 ? s->wm[q] : 0)) * best_points[i];
            }
            int score = fixed;
            for (int i = 0; i < n; i++) {
                score += coef[i] * desc_points[i];
            }
            if (alone < score) {
                score = alone;
            }
            double equity = (double)score + weight * max_kept[s->rack_len - n];
            if (equity > best) {
                best = equity;
            }
        }
    }
    return best;
}

/* Equity.best(situation, 1)[0] with tiles in the bag: the best placement (top_equity's order) or the
 * best swap (allowed from swap_min_bag tiles), a placement first on equal equity; else a pass. The
 * anchors are searched in the order of their bounds, and the search stops at the first anchor whose
 * bound is below the best equity found: the same move as the whole search. */
static void best_with_bag(Kernel *k, const int8_t *grid, int ntiles, const Hand *hand, int bag, Play *play) {
    Candidate item;
    double weight = bag >= 7 ? 1.0 : bag / 7.0;
    struct TopK top = {.k = 1, .count = 0, .items = &item, .weight = weight};
    setup(k, grid, hand, &top);
    Search *s = k->search;
    int distinct[MAX_LETTERS + 1], multiplicity[MAX_LETTERS + 1], ndistinct;
    Py_ssize_t nkept = kept_layout(s, &top, distinct, multiplicity, &ndistinct);
    int kept[MAX_LETTERS];
    double max_kept[MAX_RACK + 1];
    for (int i = 0; i <= MAX_RACK; i++) {
        max_kept[i] = -1e300;
    }
    for (Py_ssize_t index = 0; index < nkept; index++) {
        int kept_blanks = kept_counts((int)index, distinct, multiplicity, ndistinct, s->letters, kept);
        double value = leave_value(k->table, kept, kept_blanks);
        k->kept[index] = value;
        int size = kept_blanks;
        for (int i = 0; i < s->letters; i++) {
            size += kept[i];
        }
        if (value > max_kept[size]) {
            max_kept[size] = value;
        }
    }
    top.kept_value = k->kept;
    if (s->rack_len > 0 && k->lex->nedges > 0) {
        int desc_points[MAX_RACK], n = 0;
        for (int i = 0; i < s->letters; i++) {
            for (int c = 0; c < s->counts0[i]; c++) {
                desc_points[n++] = s->points[i];
            }
        }
        for (int b = 0; b < s->blanks0; b++) {
            desc_points[n++] = 0;
        }
        for (int a = 1; a < n; a++) {
            int v = desc_points[a], b = a;
            while (b > 0 && desc_points[b - 1] < v) {
                desc_points[b] = desc_points[b - 1];
                b--;
            }
            desc_points[b] = v;
        }
        int nanchors = 0, nlines = 0;
        for (int view = 0; view < 2; view++) {
            for (int line = 0; line < SIZE; line++) {
                int found[SIZE];
                int count = line_anchors(s, k->rules, view, line, ntiles == 0, found);
                if (!count) {
                    continue;
                }
                prepare_line(s, k->rules, view, line);
                memcpy(k->lines + (size_t)nlines * LINE_BYTES, (char *)s + LINE_FIRST, LINE_BYTES);
                int previous = -1;
                for (int a = 0; a < count; a++) {
                    Anchor *entry = &k->anchors[nanchors++];
                    entry->bound = anchor_bound(s, found[a], previous, desc_points, max_kept, weight);
                    entry->line = nlines;
                    entry->anchor = found[a];
                    entry->previous = previous;
                    previous = found[a];
                }
                nlines++;
            }
        }
        qsort(k->anchors, (size_t)nanchors, sizeof(Anchor), anchor_order);
        int current = -1;
        for (int a = 0; a < nanchors; a++) {
            const Anchor *entry = &k->anchors[a];
            if (top.count && entry->bound < item.equity) {
                break;  /* no move of this anchor or of the ones after it reaches the best */
            }
            if (entry->line != current) {
                memcpy((char *)s + LINE_FIRST, k->lines + (size_t)entry->line * LINE_BYTES, LINE_BYTES);
                current = entry->line;
            }
            search_anchor(s, entry->anchor, entry->previous);
        }
    }
    Candidate swap;
    struct TopK swaps = {.k = 1, .count = 0, .items = &swap};
    if (bag >= k->swap_min_bag) {
        int counts[MAX_LETTERS];
        for (Py_ssize_t index = 0; index < nkept; index++) {
            if (index == top.full) {
                continue;
            }
            int blanks = kept_counts((int)index, distinct, multiplicity, ndistinct, s->letters, counts);
            Candidate c;
            memset(&c, 0, sizeof c);
            c.equity = k->kept[index] - k->swap_cost;
            for (int b = blanks; b < s->blanks0; b++) {
                c.tiles[3 * c.n++] = -1;
            }
            for (int code = 0; code < s->letters; code++) {
                for (int g = counts[code]; g < s->counts0[code]; g++) {
                    c.tiles[3 * c.n++] = code;
                }
            }
            top_insert(&swaps, &c);
        }
    }
    if (top.count && (!swaps.count || item.equity >= swap.equity)) {
        play->kind = KIND_PLACE;
        play->n = item.n;
        play->score = item.score;
        memcpy(play->tiles, item.tiles, sizeof(int32_t) * 3 * (size_t)item.n);
    } else if (swaps.count) {
        play->kind = KIND_SWAP;
        play->n = swap.n;
        play->score = 0;
        for (int i = 0; i < swap.n; i++) {
            play->tiles[i] = swap.tiles[3 * i];
        }
    } else {
        play->kind = KIND_PASS;
        play->n = play->score = 0;
    }
}

typedef struct {
    long value;
    const int32_t *move;  /* n, view, score, then (row, col, tile) n times */
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

static int ranked_order(const void *pa, const void *pb) {
    const Ranked *a = pa, *b = pb;
    if (a->value != b->value) {
        return a->value > b->value ? -1 : 1;
    }
    return tiles_order(a->move, b->move);
}

/* The highest score of a move by `hand` that uses all of its tiles (-1 if none). */
static int out_play(Kernel *k, const int8_t *grid, int ntiles, const Hand *hand) {
    setup(k, grid, hand, NULL);
    Search *s = k->search;
    if (search_all(s, k->lex, k->rules, ntiles) < 0) {
        k->failed = 1;
        return -1;
    }
    int best = -1;
    for (size_t at = 0; at < s->out.len; at += 3 + 3 * (size_t)s->out.data[at]) {
        if (s->out.data[at] == hand->size && s->out.data[at + 2] > best) {
            best = s->out.data[at + 2];
        }
    }
    PyMem_Free(s->out.data);
    s->out.data = NULL;
    return best;
}

/* Equity.best with the bag empty (Equity._static_endgame's first move): `other` is the opponent's rack. */
static void best_endgame(Kernel *k, int8_t *grid, int ntiles, const Hand *hand, const Hand *other, Play *play) {
    play->kind = KIND_PASS;
    play->n = play->score = 0;
    setup(k, grid, hand, NULL);
    Search *s = k->search;
    if (search_all(s, k->lex, k->rules, ntiles) < 0) {
        k->failed = 1;
        return;
    }
    IntBuffer moves = s->out;  /* owned here from now on */
    s->out.data = NULL;
    size_t count = 0;
    for (size_t at = 0; at < moves.len; at += 3 + 3 * (size_t)moves.data[at]) {
        count++;
    }
    Ranked *ranked = count ? PyMem_Malloc(count * sizeof(Ranked)) : NULL;
    if (count && ranked == NULL) {
        k->failed = 1;
        PyMem_Free(moves.data);
        return;
    }
    int rack_points = hand_points(k, hand), other_points = hand_points(k, other);
    size_t i = 0;
    for (size_t at = 0; at < moves.len; at += 3 + 3 * (size_t)moves.data[at]) {
        const int32_t *m = moves.data + at;
        int used = 0;
        for (int t = 0; t < m[0]; t++) {
            int tile = m[3 + 3 * t + 2];
            used += (tile & BLANK_FLAG) ? 0 : k->rules->points[tile];
        }
        ranked[i].move = m;
        ranked[i].value = m[0] == hand->size ? (long)m[2] + 2L * other_points + 1000 : (long)m[2] - 2L * (rack_points - used);
        i++;
    }
    if (count) {
        qsort(ranked, count, sizeof(Ranked), ranked_order);
        size_t width = count < (size_t)k->endgame_width ? count : (size_t)k->endgame_width;
        for (i = 0; i < width && !k->failed; i++) {
            if (ranked[i].value >= 1000) {
                continue;
            }
            const int32_t *m = ranked[i].move;
            int used = 0;
            for (int t = 0; t < m[0]; t++) {
                int tile = m[3 + 3 * t + 2];
                used += (tile & BLANK_FLAG) ? 0 : k->rules->points[tile];
                grid[m[3 + 3 * t] * SIZE + m[3 + 3 * t + 1]] = (int8_t)tile;
            }
            int out = out_play(k, grid, ntiles + m[0], other);
            for (int t = 0; t < m[0]; t++) {
                grid[m[3 + 3 * t] * SIZE + m[3 + 3 * t + 1]] = EMPTY;
            }
            if (out >= 0) {
                ranked[i].value -= out + 2L * (rack_points - used);
            }
        }
        qsort(ranked, width, sizeof(Ranked), ranked_order);
        const int32_t *m = ranked[0].move;
        play->kind = KIND_PLACE;
        play->n = m[0];
        play->score = m[2];
        memcpy(play->tiles, m + 3, sizeof(int32_t) * 3 * (size_t)m[0]);
    }
    PyMem_Free(ranked);
    PyMem_Free(moves.data);
}

static void best_move(Kernel *k, int8_t *grid, int ntiles, const Hand *hand, const Hand *other, int bag, Play *play) {
    if (hand->size == 0) {
        play->kind = KIND_PASS;
        play->n = play->score = 0;
    } else if (bag == 0) {
        best_endgame(k, grid, ntiles, hand, other, play);
    } else {
        best_with_bag(k, grid, ntiles, hand, bag, play);
    }
}

/* Play `play` for `hand`: tiles off the rack (and onto the board), the refill from the bag, a swap's
 * tiles to the bag's end; returns the tiles it put on the board. */
static int apply(int8_t *grid, Hand *hand, Bag *bag, const Play *play) {
    if (play->kind == KIND_PLACE) {
        for (int i = 0; i < play->n; i++) {
            int tile = play->tiles[3 * i + 2];
            hand_take(hand, tile);
            grid[play->tiles[3 * i] * SIZE + play->tiles[3 * i + 1]] = (int8_t)tile;
        }
        draw(hand, bag, play->n);
        return play->n;
    }
    if (play->kind == KIND_SWAP) {
        for (int i = 0; i < play->n; i++) {
            hand_take(hand, play->tiles[i]);
        }
        draw(hand, bag, play->n);
        for (int i = 0; i < play->n; i++) {
            bag->tiles[bag->len++] = play->tiles[i];
        }
    }
    return 0;
}

static double hand_leave(const Kernel *k, const Hand *h) {
    return leave_value(k->table, h->counts, h->blanks);
}

/* One playout: the candidate (already on `grid`, its rack `mine` before the refill). */
static double play_out(Kernel *k, int8_t *grid, int ntiles, const Play *candidate, Hand mine, Hand theirs, Bag *bag) {
    int points = candidate->score;
    if (candidate->kind == KIND_PLACE) {
        draw(&mine, bag, candidate->n);
        ntiles += candidate->n;
    } else if (candidate->kind == KIND_SWAP) {
        draw(&mine, bag, candidate->n);
        for (int i = 0; i < candidate->n; i++) {
            bag->tiles[bag->len++] = candidate->tiles[i];
        }
    }
    if (mine.size == 0 && bag_left(bag) == 0) {
        return (double)(points + 2 * hand_points(k, &theirs));
    }
    Play reply, ours;
    best_move(k, grid, ntiles, &theirs, &mine, bag_left(bag), &reply);
    int their_points = reply.score;
    ntiles += apply(grid, &theirs, bag, &reply);
    if (theirs.size == 0 && bag_left(bag) == 0) {
        return (double)(points - their_points - 2 * hand_points(k, &mine));
    }
    best_move(k, grid, ntiles, &mine, &theirs, bag_left(bag), &ours);
    int our_points = ours.score;
    apply(grid, &mine, bag, &ours);
    int left = bag_left(bag);
    double weight = left >= 7 ? 1.0 : left / 7.0;
    double kept = hand_leave(k, &mine) - hand_leave(k, &theirs);
    return (double)(points - their_points + our_points) + weight * kept;
}

/* ------------------------------------------------------------------------------------------------
 * Reading the arguments.
 */

static int read_ints(PyObject *object, Py_buffer *view, const char *what) {
    if (PyObject_GetBuffer(object, view, PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0) {
        return -1;
    }
    if (view->itemsize != 4 || view->format == NULL || strcmp(view->format, "i") != 0) {
        PyErr_Format(PyExc_TypeError, "%s must be an array('i')", what);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

static int valid_bag_tile(int tile, int letters) {
    return tile == -1 || (tile >= 0 && tile < letters);
}

/* The candidates from their flat form (per move: kind, n, score, then 3n ints for a placement or n
 * bag tiles for a swap), each checked against the board and the rack; -1 with an exception set. */
static int read_candidates(const int32_t *flat, Py_ssize_t len, const Search *s, const Hand *rack, Play *plays,
                           int ncand) {
    Py_ssize_t at = 0;
    for (int c = 0; c < ncand; c++) {
        if (at + 3 > len) {
            PyErr_Format(PyExc_ValueError, "candidate %d is cut short", c);
            return -1;
        }
        Play *p = &plays[c];
        p->kind = flat[at];
        p->n = flat[at + 1];
        p->score = flat[at + 2];
        at += 3;
        if (p->kind < KIND_PLACE || p->kind > KIND_PASS || p->n < 0 || p->n > rack->size ||
            (p->kind == KIND_PASS) != (p->n == 0) || p->score < 0 || p->score > 100000 ||
            (p->kind != KIND_PLACE && p->score != 0)) {
            PyErr_Format(PyExc_ValueError, "candidate %d: kind %d with %d tiles and score %d is not a move of this rack",
                         c, p->kind, p->n, p->score);
            return -1;
        }
        int per = p->kind == KIND_PLACE ? 3 : 1;
        if (at + (Py_ssize_t)per * p->n > len) {
            PyErr_Format(PyExc_ValueError, "candidate %d is cut short", c);
            return -1;
        }
        Hand left = *rack;
        int8_t seen[SQUARES];
        memset(seen, 0, sizeof seen);
        for (int i = 0; i < p->n; i++) {
            int tile;
            if (p->kind == KIND_PLACE) {
                int row = flat[at + 3 * i], col = flat[at + 3 * i + 1];
                tile = flat[at + 3 * i + 2];
                if (row < 0 || row >= SIZE || col < 0 || col >= SIZE || s->grid[row * SIZE + col] != EMPTY ||
                    seen[row * SIZE + col]) {
                    PyErr_Format(PyExc_ValueError, "candidate %d puts a tile on square (%d, %d), off the board or taken",
                                 c, row, col);
                    return -1;
                }
                if (tile < 0 || (tile & ~(BLANK_FLAG | LETTER_MASK)) || (tile & LETTER_MASK) >= s->letters) {
                    PyErr_Format(PyExc_ValueError, "candidate %d: tile %d is not a tile of this alphabet", c, tile);
                    return -1;
                }
                seen[row * SIZE + col] = 1;
                p->tiles[3 * i] = row;
                p->tiles[3 * i + 1] = col;
                p->tiles[3 * i + 2] = tile;
            } else {
                tile = flat[at + i];
                if (!valid_bag_tile(tile, s->letters)) {
                    PyErr_Format(PyExc_ValueError, "candidate %d swaps tile %d, not a tile of this alphabet", c, tile);
                    return -1;
                }
                p->tiles[i] = tile;
            }
            int blank = tile < 0 || (tile & BLANK_FLAG);
            if (blank ? left.blanks == 0 : left.counts[tile & LETTER_MASK] == 0) {
                PyErr_Format(PyExc_ValueError, "candidate %d uses tile %d, which the rack does not hold", c, tile);
                return -1;
            }
            hand_take(&left, tile);
        }
        at += (Py_ssize_t)per * p->n;
    }
    if (at != len) {
        PyErr_Format(PyExc_ValueError, "%zd ints after the %d candidates", len - at, ncand);
        return -1;
    }
    return 0;
}

PyObject *playouts(PyObject *module, PyObject *args, PyObject *kwargs) {
    (void)module;
    static char *names[] = {"lexicon", "rules", "leave", "grid", "counts", "blanks", "candidates", "ncandidates",
                            "draws", "held", "bag", "swap_cost", "swap_min_bag", "endgame_width", NULL};
    LexiconObject *lex;
    RulesObject *rules;
    LeaveTableObject *table;
    PyObject *grid, *counts, *moves_obj, *draws_obj;
    int blanks, ncand, held, bag_size, swap_min_bag, endgame_width;
    double swap_cost;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O!O!O!OOiOiOiidii:playouts", names, &LexiconType, &lex,
                                     &RulesType, &rules, &LeaveTableType, &table, &grid, &counts, &blanks, &moves_obj,
                                     &ncand, &draws_obj, &held, &bag_size, &swap_cost, &swap_min_bag,
                                     &endgame_width)) {
        return NULL;
    }
    if (ncand < 1 || ncand > 1000 || swap_min_bag < 0 || endgame_width < 1 || endgame_width > 100000) {
        PyErr_Format(PyExc_ValueError, "%d candidates (1 to 1000), swap_min_bag %d, endgame_width %d", ncand,
                     swap_min_bag, endgame_width);
        return NULL;
    }
    if (table->letters != rules->letters || table->letters != lex->letters) {
        PyErr_Format(PyExc_ValueError, "the leave table has %d letters, the ruleset %d, the lexicon %d",
                     table->letters, rules->letters, lex->letters);
        return NULL;
    }
    if (held < 0 || held > rules->rack_size || bag_size < 0 || bag_size > MAX_WIDTH) {
        PyErr_Format(PyExc_ValueError, "the opponent holds %d tiles (racks hold %d) and the bag %d (at most %d)", held,
                     rules->rack_size, bag_size, MAX_WIDTH);
        return NULL;
    }
    if (swap_cost != swap_cost) {
        PyErr_SetString(PyExc_ValueError, "swap_cost is not a number");
        return NULL;
    }
    Kernel k;
    memset(&k, 0, sizeof k);
    k.lex = lex;
    k.rules = rules;
    k.table = table;
    k.swap_cost = swap_cost;
    k.swap_min_bag = swap_min_bag;
    k.endgame_width = endgame_width;
    Py_buffer moves_view, draws_view;
    if (read_ints(moves_obj, &moves_view, "candidates") < 0) {
        return NULL;
    }
    if (read_ints(draws_obj, &draws_view, "draws") < 0) {
        PyBuffer_Release(&moves_view);
        return NULL;
    }
    PyObject *result = NULL;
    Play *plays = NULL;
    int8_t *grids = NULL;
    Hand *mine = NULL;
    double *values = NULL;
    Bag bag = {NULL, 0, 0, 0};
    k.search = PyMem_Malloc(sizeof(Search));
    k.kept = PyMem_Malloc(sizeof(double) * ((size_t)1 << rules->rack_size));
    k.lines = PyMem_Malloc(LINE_BYTES * 2 * SIZE);
    k.anchors = PyMem_Malloc(sizeof(Anchor) * 2 * SQUARES);
    if (k.search == NULL || k.kept == NULL || k.lines == NULL || k.anchors == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    k.search->out.data = NULL;
    int ntiles;
    if (prepare_search(k.search, lex, rules, grid, counts, blanks, NULL, &ntiles) < 0) {
        goto done;
    }
    memcpy(&k.base, k.search, sizeof(Search));
    Hand rack;
    memset(&rack, 0, sizeof rack);
    for (int i = 0; i < rules->letters; i++) {
        rack.counts[i] = k.base.counts0[i];
    }
    rack.blanks = k.base.blanks0;
    rack.size = k.base.rack_len;
    const int32_t *draws = draws_view.buf;
    Py_ssize_t ndraws = draws_view.len / 4;
    Py_ssize_t width = (Py_ssize_t)held + bag_size;
    if (width == 0 ? ndraws != 0 : ndraws % width != 0) {
        PyErr_Format(PyExc_ValueError, "%zd drawn tiles are not whole draws of %zd tiles", ndraws, width);
        goto done;
    }
    Py_ssize_t iterations = width ? ndraws / width : 0;
    for (Py_ssize_t it = 0; it < iterations; it++) {
        int drawn_blanks = 0;
        for (Py_ssize_t i = it * width; i < (it + 1) * width; i++) {
            if (!valid_bag_tile(draws[i], rules->letters)) {
                PyErr_Format(PyExc_ValueError, "draw %zd holds tile %d, not a tile of this alphabet", it, draws[i]);
                goto done;
            }
            drawn_blanks += draws[i] == -1;
        }
        /* no rack of the playout can then hold more blanks than a rack the generator accepts */
        if (drawn_blanks + rack.blanks > MAX_BLANKS) {
            PyErr_Format(PyExc_ValueError, "draw %zd holds %d blanks besides the rack's %d (at most %d in all)", it,
                         drawn_blanks, rack.blanks, MAX_BLANKS);
            goto done;
        }
    }
    plays = PyMem_Calloc((size_t)ncand, sizeof(Play));
    grids = PyMem_Malloc((size_t)ncand * SQUARES);
    mine = PyMem_Calloc((size_t)ncand, sizeof(Hand));
    values = PyMem_Malloc(sizeof(double) * (size_t)(iterations * ncand + 1));
    bag.cap = (size_t)bag_size + 3 * MAX_RACK;  /* the bag grows by the swaps of one playout at most */
    bag.tiles = PyMem_Malloc(sizeof(int32_t) * bag.cap);
    if (plays == NULL || grids == NULL || mine == NULL || values == NULL || bag.tiles == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    if (read_candidates(moves_view.buf, moves_view.len / 4, &k.base, &rack, plays, ncand) < 0) {
        goto done;
    }
    for (int c = 0; c < ncand; c++) {
        memcpy(grids + (size_t)c * SQUARES, k.base.grid, SQUARES);
        mine[c] = rack;
        for (int i = 0; i < plays[c].n; i++) {
            int tile = plays[c].kind == KIND_PLACE ? plays[c].tiles[3 * i + 2] : plays[c].tiles[i];
            hand_take(&mine[c], tile);
            if (plays[c].kind == KIND_PLACE) {
                grids[(size_t)c * SQUARES + plays[c].tiles[3 * i] * SIZE + plays[c].tiles[3 * i + 1]] = (int8_t)tile;
            }
        }
    }
    int8_t grid_now[SQUARES];
    for (Py_ssize_t it = 0; it < iterations && !k.failed; it++) {
        const int32_t *d = draws + it * width;
        Hand theirs;
        memset(&theirs, 0, sizeof theirs);
        for (int i = 0; i < held; i++) {
            hand_add(&theirs, d[i]);
        }
        for (int c = 0; c < ncand && !k.failed; c++) {
            memcpy(bag.tiles, d + held, sizeof(int32_t) * (size_t)bag_size);
            bag.len = (size_t)bag_size;
            bag.front = 0;
            memcpy(grid_now, grids + (size_t)c * SQUARES, SQUARES);
            values[it * ncand + c] = play_out(&k, grid_now, ntiles, &plays[c], mine[c], theirs, &bag);
        }
    }
    if (k.failed) {
        PyErr_NoMemory();
        goto done;
    }
    result = PyBytes_FromStringAndSize((const char *)values, (Py_ssize_t)(sizeof(double) * (size_t)(iterations * ncand)));
done:
    PyMem_Free(values);
    PyMem_Free(plays);
    PyMem_Free(grids);
    PyMem_Free(mine);
    PyMem_Free(bag.tiles);
    PyMem_Free(k.search);
    PyMem_Free(k.kept);
    PyMem_Free(k.lines);
    PyMem_Free(k.anchors);
    PyBuffer_Release(&moves_view);
    PyBuffer_Release(&draws_view);
    return result;
}
