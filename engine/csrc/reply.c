/*
 * The static replies inside a playout (see playout.c): Equity.best's first move for a rack on a board,
 * with tiles in the bag (the best placement by equity, searched anchor by anchor best first under an
 * upper bound, or the best swap) and with the bag empty (the static endgame).
 */

#include "playout.h"

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
    if (k->cross != NULL) {
        s->cross_allowed = k->cross->allowed;
        s->cross_sum = k->cross->sum;
    }
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
                           double weight, double *table) {
    if (table != NULL) {
        for (int i = 0; i < SPAN * SPAN; i++) {
            table[i] = -1e300;
        }
    }
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
            if (table != NULL) {
                table[k * SPAN + j] = equity;
            }
            if (equity > best) {
                best = equity;
            }
        }
    }
    return best;
}

/* One anchor's bounds by span (anchor_bound's table) and their running maxima (see Search.span_bound). */
typedef struct {
    double bound[SPAN * SPAN];
    double reach[SPAN * SPAN];
    double left[SPAN + 1];
} Spans;

static void span_reach(Spans *span) {
    for (int k = 0; k < SPAN; k++) {
        double most = -1e300;
        for (int j = SPAN - 1; j >= 0; j--) {
            if (span->bound[k * SPAN + j] > most) {
                most = span->bound[k * SPAN + j];
            }
            span->reach[k * SPAN + j] = most;
        }
    }
    span->left[SPAN] = -1e300;
    for (int k = SPAN - 1; k >= 0; k--) {
        double here = span->reach[k * SPAN + 1];
        span->left[k] = here > span->left[k + 1] ? here : span->left[k + 1];
    }
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
                    entry->bound = anchor_bound(s, found[a], previous, desc_points, max_kept, weight, NULL);
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
        Spans span;
        for (int a = 0; a < nanchors; a++) {
            const Anchor *entry = &k->anchors[a];
            if (top.count && entry->bound < item.equity) {
                break;  /* no move of this anchor or of the ones after it reaches the best */
            }
            if (entry->line != current) {
                memcpy((char *)s + LINE_FIRST, k->lines + (size_t)entry->line * LINE_BYTES, LINE_BYTES);
                current = entry->line;
            }
            if (top.count) {
                /* its bounds by span stop the branches that cannot reach the best found */
                anchor_bound(s, entry->anchor, entry->previous, desc_points, max_kept, weight, span.bound);
                span_reach(&span);
                s->span_bound = span.bound;
                s->span_reach = span.reach;
                s->left_reach = span.left;
            } else {
                s->span_bound = NULL;
            }
            search_anchor(s, entry->anchor, entry->previous);
        }
        s->span_bound = NULL;
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
    s->cross_allowed = NULL;  /* a move was put on the board for this search: its cross-checks are worked out */
    s->cross_sum = NULL;
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

void best_move(Kernel *k, int8_t *grid, int ntiles, const Hand *hand, const Hand *other, int bag, Play *play) {
    if (hand->size == 0) {
        play->kind = KIND_PASS;
        play->n = play->score = 0;
    } else if (bag == 0) {
        best_endgame(k, grid, ntiles, hand, other, play);
    } else {
        best_with_bag(k, grid, ntiles, hand, bag, play);
    }
}
