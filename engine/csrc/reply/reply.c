/*
 * The static replies inside a playout (see playout.c): Equity.best's first move for a rack on a board,
 * with tiles in the bag (the best placement by equity, searched anchor by anchor best first under an
 * upper bound, or the best swap); with the bag empty, staticend.c.
 */

#include "reply_internal.h"

/* search_setup without the rack's left parts (s->lefts NULL). */
static void setup_rack(Kernel *k, const int8_t *grid, const Hand *hand, struct TopK *top) {
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

void search_setup(Kernel *k, const int8_t *grid, const Hand *hand, struct TopK *top) {
    Search *s = k->search;
    setup_rack(k, grid, hand, top);
    /* the rack's left parts: kept for the last two racks, walked when first read */
    int use = 1 - k->lefts_recent;
    if (left_parts_match(&k->lefts[k->lefts_recent], hand->counts, hand->blanks, s->letters)) {
        use = k->lefts_recent;
    } else if (!left_parts_match(&k->lefts[use], hand->counts, hand->blanks, s->letters)) {
        left_parts_reset(&k->lefts[use], hand->counts, hand->blanks, s->letters);
    }
    k->lefts_recent = use;
    s->lefts = &k->lefts[use];
}


/* The anchors of a line (as line_anchors finds them), from the kept-up-to-date board when there is one;
 * when the cross-checks are known, a line none of whose anchors takes a tile of the rack has none. */
int board_anchors(const Kernel *k, const Search *s, int view, int line, int ntiles, int *found) {
    if (k->cross == NULL || ntiles == 0) {
        return line_anchors(s, k->rules, view, line, ntiles == 0, found);
    }
    uint32_t usable = s->blanks0 ? s->all_letters : s->rmask, fits = 0;
    int count = 0;
    for (uint32_t bits = k->cross->anchors[view][line]; bits; bits &= bits - 1) {
        int p = LOWEST(bits);
        found[count++] = p;
        fits |= k->cross->allowed[view * SQUARES + line_square(view, line, p)] & usable;
    }
    return fits ? count : 0;
}

/* Set up the search of a reply with tiles in the bag (`bag` tiles to draw): the rack on `grid`, its
 * kept values, its tile values highest first, the weight of the leave. */
void reply_begin(Kernel *k, const int8_t *grid, const Hand *hand, int bag, Reply *r) {
    r->weight = leave_weight(bag);
    r->split = 0;
    r->plays_blank = 0;
    r->top = (struct TopK){.k = 1, .count = 0, .items = &r->item, .weight = r->weight};
    search_setup(k, grid, hand, &r->top);
    Search *s = k->search;
    r->nkept = kept_layout(s, &r->top, r->distinct, r->multiplicity, &r->ndistinct);
    r->values = kept_values(k, hand, r->distinct, r->multiplicity, r->ndistinct, r->nkept);
    reply_rack(k, r);
}

/* The rest of reply_begin once r->values are known: the bounds' view of the rack in k->search. */
void reply_rack(Kernel *k, Reply *r) {
    Search *s = k->search;
    r->top.kept_value = r->values->kept;
    r->top.kept_memo = r->values;
    r->top.max_kept = r->values->max_kept;
    int size = s->rack_len + r->top.hidden;  /* the leave's tiles before the move, the hidden ones with them */
    for (int n = 0; n <= s->rack_len; n++) {
        r->leave_after[n] = r->weight * r->values->max_kept[size - n];
    }
    r->usable = s->blanks0 ? s->all_letters : s->rmask;
    r->anagrams = s->blanks0 <= 1 && s->rack_len == s->rack_size ? k->anagrams : NULL;
    r->rack_code = 0;
    for (int i = 0; r->anagrams != NULL && i < s->letters; i++) {
        r->rack_code += (uint64_t)s->counts0[i] * r->anagrams->code[i];
    }
    int n = 0;
    for (int i = 0; i < s->letters; i++) {
        for (int c = 0; c < s->counts0[i]; c++) {
            r->desc_points[n++] = s->points[i];
        }
    }
    for (int b = 0; b < s->blanks0; b++) {
        r->desc_points[n++] = 0;
    }
    r->nby_points = 0;
    for (int i = 0; i < s->letters; i++) {
        if (s->counts0[i]) {
            int b = r->nby_points++;
            while (b > 0 && s->points[r->by_points[b - 1]] < s->points[i]) {
                r->by_points[b] = r->by_points[b - 1];
                b--;
            }
            r->by_points[b] = i;
        }
    }
    for (int a = 1; a < n; a++) {
        int v = r->desc_points[a], b = a;
        while (b > 0 && r->desc_points[b - 1] < v) {
            r->desc_points[b] = r->desc_points[b - 1];
            b--;
        }
        r->desc_points[b] = v;
    }
    r->nsteps = 0;
    for (int a = 0; a + 1 < n; a++) {
        if (r->desc_points[a] > r->desc_points[a + 1]) {
            r->step_at[r->nsteps] = a;
            r->step_by[r->nsteps++] = r->desc_points[a] - r->desc_points[a + 1];
        }
    }
    r->desc_head = n > 0 ? n - 1 : 0;
    while (r->desc_head > 0 && r->desc_points[r->desc_head - 1] == r->desc_points[n - 1]) {
        r->desc_head--;
    }
}

/* The anchors `found` (count of them) of the line prepared in k->search that take a tile of the rack,
 * with their bounds, into `out` (each tagged `tag`) and their bounds by left part length into
 * depth_bounds[anchor]; returns how many. When the line is line `line` (view * SIZE + line) of k->shapes'
 * board `board` (-1: none) and `found` all its anchors, their bounds are worked out from their shapes if
 * kept. */
int reply_anchors(Kernel *k, const Reply *r, const int *found, int count, int tag, Anchor *out,
                  DepthBounds *depth_bounds, int board, int line) {
    const Search *s = k->search;
    const int *pool = NULL;
    const AnchorShape *shapes =
        board >= 0 && s->rack_len <= s->rack_size ? shapes_of_line(k->shapes, board, line, &pool) : NULL;
    int previous = -1, n = 0;
    for (int a = 0; a < count; a++) {
        if (!(s->allowed[found[a]] & r->usable)) {
            /* no tile of the rack fits on it: no move from it, but the left parts of the next anchor
             * still stop short of it */
            previous = found[a];
            continue;
        }
        Anchor *entry = &out[n++];
        int first = k->nwholes;
        entry->bound = shapes != NULL ? anchor_bound_shaped(s, &shapes[a], pool, r, depth_bounds[found[a]], k->wholes,
                                                            &k->nwholes)
                                      : anchor_bound(s, found[a], previous, r, depth_bounds[found[a]], k->wholes,
                                                     &k->nwholes);
        for (int w = first; w < k->nwholes; w++) {
            k->wholes[w].line = (int16_t)tag;
            k->wholes[w].anchor = (int8_t)found[a];
            k->wholes[w].previous = (int8_t)previous;
        }
        entry->line = (int16_t)tag;
        entry->anchor = (int8_t)found[a];
        entry->previous = (int8_t)previous;
        entry->done = 0;
        previous = found[a];
    }
    return n;
}

/* The reply once the placements are searched (r->item, if r->top.count): Equity.best(situation, 1)[0]
 * with tiles in the bag, the best placement or the best swap (allowed from swap_min_bag tiles), a
 * placement first on equal equity; else a pass. */
void reply_finish(Kernel *k, int bag, Reply *r, Play *play) {
    const Search *s = k->search;
    Candidate swap;
    struct TopK swaps = {.k = 1, .count = 0, .items = &swap};
    const Candidate *item = &r->item;
    /* a swap is worth what it keeps less swap_cost, and can be chosen only above the placement: the
     * kept values' bounds tell first whether one can be (most values are never worked out) */
    double swap_bound = -HUGE_VAL;
    for (int size = 0; size < s->rack_len; size++) {
        swap_bound = r->values->max_kept[size] > swap_bound ? r->values->max_kept[size] : swap_bound;
    }
    if (bag >= k->swap_min_bag && (!r->top.count || swap_bound - k->swap_cost > item->equity)) {
        kept_all(r->values);
        /* the best swap's equity first: only swaps of that equity can be chosen, and none when the
         * placement reaches it */
        double most = -HUGE_VAL;
        int any = 0;
        for (Py_ssize_t index = 0; index < r->nkept; index++) {
            double equity = r->values->kept[index] - k->swap_cost;
            if (index != r->top.full && (!any || equity > most)) {
                most = equity;
                any = 1;
            }
        }
        int counts[MAX_LETTERS];
        for (Py_ssize_t index = 0; any && (!r->top.count || most > item->equity) && index < r->nkept; index++) {
            if (index == r->top.full || r->values->kept[index] - k->swap_cost != most) {
                continue;
            }
            int blanks = kept_counts((int)index, r->distinct, r->multiplicity, r->ndistinct, s->letters, counts);
            Candidate c;
            memset(&c, 0, sizeof c);
            c.equity = r->values->kept[index] - k->swap_cost;
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
    if (r->top.count && (!swaps.count || item->equity >= swap.equity)) {
        play->kind = KIND_PLACE;
        play->n = item->n;
        play->score = item->score;
        memcpy(play->tiles, item->tiles, sizeof(int32_t) * 3 * (size_t)item->n);
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

/* Line `line` of `view` on the reply's board, when an anchor of it takes a rack tile: its prepared state
 * kept as line *nlines of k->lines and its anchors with their bounds into `out`; returns how many. */
int queue_line(Kernel *k, const Reply *r, int view, int line, int ntiles, int *nlines, Anchor *out) {
    Search *s = k->search;
    int found[SIZE];
    int count = board_anchors(k, s, view, line, ntiles, found);
    if (!count) {
        return 0;
    }
    int l = view * SIZE + line;  /* the candidate's board's line, unchanged since, when in shape_lines */
    int board = k->cross != NULL && ntiles > 0 && (k->shape_lines >> l & 1) ? k->shape_board : -1;
    const char *kept = board >= 0 ? shapes_prepared(k->shapes, board, l) : NULL;
    if (kept != NULL) {
        memcpy((char *)s + LINE_FIRST, kept, LINE_BYTES);
    } else {
        prepare_line(s, k->rules, view, line);
    }
    memcpy(k->lines + (size_t)*nlines * LINE_BYTES, (char *)s + LINE_FIRST, LINE_BYTES);
    count = reply_anchors(k, r, found, count, *nlines, out, k->depth_bounds + (size_t)*nlines * SIZE, board, l);
    ++*nlines;
    return count;
}

/* The position's board's line l (k->share's) on the reply's board, where it is the same: its anchors with
 * their bounds into `out`, tagged POSITION_TAG + l; returns how many. */
static int queue_position_line(Kernel *k, const Reply *r, int l, Anchor *out) {
    const int *found;
    int count;
    const char *prepared = share_line(k->share, l, &found, &count);
    if (!count) {
        return 0;
    }
    memcpy((char *)k->search + LINE_FIRST, prepared, LINE_BYTES);
    int tag = POSITION_TAG + l;
    return reply_anchors(k, r, found, count, tag, out, k->depth_bounds + (size_t)tag * SIZE, 0, l);
}

/* The placements of the reply set up in k->search and r into r->top (with what it holds already), on the
 * board of `ntiles` tiles: the anchors are searched in the order of their bounds, and the search stops at
 * the first anchor whose bound is below the best equity found, so r->top gets the same move as from the
 * whole search. The lines in `same` (bit view * SIZE + line) are the position's board's (k->share's),
 * prepared once. */
void search_reply(Kernel *k, Reply *r, int ntiles, uint32_t same) {
    Search *s = k->search;
    if (s->rack_len == 0 || k->lex->nedges == 0) {
        return;
    }
    int nanchors = 0, nlines = 0;
    k->nwholes = 0;
    for (int view = 0; view < 2; view++) {
        for (int line = 0; line < SIZE; line++) {
            int l = view * SIZE + line;
            nanchors += same >> l & 1 ? queue_position_line(k, r, l, k->anchors + nanchors)
                                      : queue_line(k, r, view, line, ntiles, &nlines, k->anchors + nanchors);
        }
    }
    if (r->split) {
        whole_spans_search(k, r, k->share, NULL);
    }
    nanchors = anchor_heap_above(k->anchors, nanchors, r->top.count ? r->item.equity : -HUGE_VAL);
    int current = -1;
    while (nanchors > 0) {
        Anchor next = anchor_take(k->anchors, &nanchors);
        if (r->top.count && next.bound < r->item.equity) {
            break;  /* no move of this anchor or of the ones after it reaches the best */
        }
        if (next.line != current) {
            const int *found;
            int count;
            const char *prepared = next.line >= POSITION_TAG
                                       ? share_line(k->share, next.line - POSITION_TAG, &found, &count)
                                       : k->lines + (size_t)next.line * LINE_BYTES;
            memcpy((char *)s + LINE_FIRST, prepared, LINE_BYTES);
            current = next.line;
        }
        const double *depth_bound = k->depth_bounds[(size_t)next.line * SIZE + next.anchor];
        if (search_part(s, &next, depth_bound, part_cut(r, k->anchors, nanchors))) {
            anchor_push(k->anchors, &nanchors, &next);
        }
    }
}

/* A rack with blanks (`hand`, set up by reply_begin in k->search and r) has many more moves than one
 * without, and a blank is worth much kept: its moves that play no blank are searched first, set up here
 * as the reply `first` (the rack's other tiles alone in k->search, the blanks hidden: every such move
 * keeps them, its value the rack's); blanks_end then takes their best into r. */
void blanks_begin(Kernel *k, const int8_t *grid, const Hand *hand, const Reply *r, Reply *first) {
    Hand tiles = *hand;
    tiles.size -= tiles.blanks;
    tiles.blanks = 0;
    *first = *r;
    first->top.items = &first->item;
    first->top.count = 0;
    first->top.hidden = hand->blanks;
    LeftParts *lefts = k->search->lefts;  /* the whole rack's list (search_setup's) */
    setup_rack(k, grid, &tiles, &first->top);
    k->search->lefts = left_parts_without_blanks(lefts, k->rules->letters);
    reply_rack(k, first);
}

/* After the search of blanks_begin's `first`: its best in r->top, k->search set up for the whole rack
 * again, and r's bounds those of the moves that play a blank: their leaves keep fewer blanks than the
 * rack (values->max_used), so that most of the rack's moves with a blank are not searched when a blank
 * is worth more kept, and the words found are offered under the same bound. The best of the two searches
 * is the whole search's best. */
void blanks_end(Kernel *k, const int8_t *grid, const Hand *hand, const Reply *first, Reply *r) {
    search_setup(k, grid, hand, &r->top);
    if (first->top.count) {
        top_insert(&r->top, &first->item);
    }
    int size = k->search->rack_len;
    for (int n = 0; n <= size; n++) {
        r->leave_after[n] = r->weight * r->values->max_used[size - n];
    }
    /* a word found is offered on the same terms (below_top): with a blank on it, its leave keeps fewer
     * blanks than the rack; without one, the first search had it already */
    r->top.max_kept = r->values->max_used;
    r->plays_blank = 1;
}

/* Whether the second search of a blank rack (blanks_end's r) searches its whole-rack spans apart: a full
 * rack of fewer than KBOUNDS tiles with one blank (its spans fit Kernel.wholes), the anagrams known. */
int reply_splits(const Kernel *k, const Hand *hand, const Reply *r) {
    return hand->blanks == 1 && r->anagrams != NULL && k->rules->rack_size < KBOUNDS && k->wholes != NULL;
}

/* Equity.best(situation, 1)[0] with tiles in the bag: search_reply's best placement (with blanks on the
 * rack, blanks_begin's moves first), or the best swap. */
static void best_with_bag(Kernel *k, const int8_t *grid, int ntiles, const Hand *hand, int bag, uint32_t same,
                          Play *play) {
    Reply r;
    reply_begin(k, grid, hand, bag, &r);
    if (hand->blanks > 0) {
        Reply first;
        blanks_begin(k, grid, hand, &r, &first);
        search_reply(k, &first, ntiles, same);
        blanks_end(k, grid, hand, &first, &r);
        r.split = reply_splits(k, hand, &r);
    }
    search_reply(k, &r, ntiles, same);
    reply_finish(k, bag, &r, play);
}

/* `same`: the lines of `grid` known to be the position's board's (see best_with_bag), 0 when none. */
void best_move(Kernel *k, int8_t *grid, int ntiles, const Hand *hand, const Hand *other, int bag, uint32_t same,
               Play *play) {
    if (hand->size == 0) {
        play->kind = KIND_PASS;
        play->n = play->score = 0;
    } else if (bag == 0) {
        best_endgame(k, grid, ntiles, hand, other, play);
    } else {
        best_with_bag(k, grid, ntiles, hand, bag, same, play);
    }
}
