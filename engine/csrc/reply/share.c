/*
 * The opponent's reply shared between the candidates of one draw (playout.c).
 *
 * Within a draw every candidate faces the same opponent rack, on boards that differ from the position's
 * board only where the candidate's tiles went. With tiles in the bag, the moves of one line (a row or a
 * column) and their scores depend only on that line's squares (its tiles, the cross-checks and cross
 * words' points of its empty squares, its anchors), and their equity on the rack and on the weight of
 * the leave (the bag left after the candidate). So a line a candidate did not change has the same best
 * move as on the position's board: it is searched once per draw and weight, anchor by anchor as the
 * candidates need it (each line keeps its anchors in the order of their bounds, the best move of those
 * searched, and where the search stopped), and each candidate searches the lines it changed on its own
 * board. The best of all, taken in top_equity's order (equity, then the tiles), is the same move as
 * the search of the whole candidate's board: an anchor is left out only when its bound is below the
 * best found, as in reply.c. A rack with blanks searches its moves that play none first (reply.c's
 * blanks_begin), with shared lines of their own.
 */

#include "reply_internal.h"

#define LINES (2 * SIZE)
#define SLOTS 8         /* by the bag left after the candidate: 1 to 6, and 7 or more (one weight) */

typedef struct {
    int n, next;           /* its anchors that take a tile of the rack, by bound; searched: [0, next) */
    int found;             /* whether best holds a move */
    Anchor anchors[SIZE];
    Candidate best;        /* the best move of the anchors searched */
    DepthBounds depth_bounds[SIZE];  /* by anchor square: its bounds by left part length */
    int nwholes;           /* its whole-rack spans (Reply.split), in SharedLines.wholes */
} SharedLine;

/* Room for one shared line's whole-rack spans: one per anchor and left part length. */
#define LINE_WHOLES (SIZE * ANCHOR_WHOLES)

/* The shared lines of one search of the rack. */
typedef struct {
    long stamp[SLOTS][LINES];    /* the draw each shared line was set up for */
    SharedLine lines[SLOTS][LINES];
    WholeSpan *wholes;           /* [slot][line][LINE_WHOLES], made when first needed (NULL: not yet) */
} SharedLines;

struct Share {
    long draw;                   /* the current draw */
    SharedLines whole;           /* the search of the rack */
    /* a rack with blanks: the search of its moves that play none, first (reply.c's blanks_begin); made
     * when first needed (NULL: not yet, or out of memory, when that search is not shared) */
    SharedLines *without_blanks;
    char prepared[LINES][LINE_BYTES];  /* the position's board's lines, as prepare_line leaves them */
    int count[LINES];                  /* their anchors */
    int anchors[LINES][SIZE];
    uint32_t *changed;                 /* per candidate: bit l when its board's line l is not the position's */
};

Share *share_new(int ncand) {
    Share *share = PyMem_RawMalloc(sizeof(Share));
    if (share == NULL) {
        return NULL;
    }
    share->changed = PyMem_RawCalloc((size_t)ncand, sizeof(uint32_t));
    if (share->changed == NULL) {
        PyMem_RawFree(share);
        return NULL;
    }
    share->draw = 0;
    memset(share->whole.stamp, 0xff, sizeof share->whole.stamp);  /* -1: never set up */
    share->whole.wholes = NULL;
    share->without_blanks = NULL;
    return share;
}

void share_free(Share *share) {
    if (share != NULL) {
        PyMem_RawFree(share->changed);
        PyMem_RawFree(share->whole.wholes);
        PyMem_RawFree(share->without_blanks);
        PyMem_RawFree(share);
    }
}

/* share->without_blanks, made if not yet (NULL: out of memory). */
static SharedLines *lines_without_blanks(Share *share) {
    if (share->without_blanks == NULL) {
        share->without_blanks = PyMem_RawMalloc(sizeof(SharedLines));
        if (share->without_blanks != NULL) {
            memset(share->without_blanks->stamp, 0xff, sizeof share->without_blanks->stamp);
            share->without_blanks->wholes = NULL;  /* (its racks have no blank: never split) */
        }
    }
    return share->without_blanks;
}

void share_next_draw(Share *share) {
    share->draw++;
}

uint32_t share_changed(const Share *share, int candidate) {
    return share->changed[candidate];
}

/* Line l of the position's board as prepare_line leaves it, and its anchors (*anchors, *count). */
const char *share_line(const Share *share, int l, const int **anchors, int *count) {
    *anchors = share->anchors[l];
    *count = share->count[l];
    return share->prepared[l];
}

/* Whether line `line` of view `view` differs between the two boards (tiles, cross-checks, anchors). */
static int line_differs(const int8_t *grid_a, const Cross *a, const int8_t *grid_b, const Cross *b, int view,
                        int line) {
    if (a->anchors[view][line] != b->anchors[view][line]) {
        return 1;
    }
    for (int p = 0; p < SIZE; p++) {
        int square = line_square(view, line, p);
        int index = view * SQUARES + square;
        if (grid_a[square] != grid_b[square] || a->allowed[index] != b->allowed[index] ||
            a->sum[index] != b->sum[index]) {
            return 1;
        }
    }
    return 0;
}

/* The lines among `lines` (bit view * SIZE + line) that differ between the two boards. */
static uint32_t lines_changed_among(const int8_t *grid_a, const Cross *a, const int8_t *grid_b, const Cross *b,
                                    uint32_t lines) {
    uint32_t changed = 0;
    for (; lines; lines &= lines - 1) {
        int l = LOWEST(lines);
        if (line_differs(grid_a, a, grid_b, b, l / SIZE, l % SIZE)) {
            changed |= 1u << l;
        }
    }
    return changed;
}

/* The lines (bit view * SIZE + line) that differ between the two boards. */
uint32_t lines_changed(const int8_t *grid_a, const Cross *a, const int8_t *grid_b, const Cross *b) {
    return lines_changed_among(grid_a, a, grid_b, b, (1u << LINES) - 1);
}

/* The position's board's lines (k->base's grid, its cross-checks `cross`) and, for each of the ncand
 * candidates' boards (grids[c], crosses[c]), the lines that differ from them: only lines in touched[c]
 * can (cross_update's lines of the candidate's tiles); with k->shapes, the shapes of the position's lines'
 * anchors and of those of the lines each candidate changed. */
void share_prepare(Kernel *k, Share *share, const Cross *cross, const int8_t *grids, const Cross *crosses,
                   const uint32_t *touched, int ncand) {
    Search *s = k->search;
    memcpy(s, &k->base, sizeof(Search));
    s->cross_allowed = cross->allowed;
    s->cross_sum = cross->sum;
    for (int l = 0; l < LINES; l++) {
        int view = l / SIZE, line = l % SIZE;
        prepare_line(s, k->rules, view, line);
        memcpy(share->prepared[l], (char *)s + LINE_FIRST, LINE_BYTES);
        int n = 0;
        for (uint32_t bits = cross->anchors[view][line]; bits; bits &= bits - 1) {
            share->anchors[l][n++] = LOWEST(bits);
        }
        share->count[l] = n;
        if (k->shapes != NULL) {
            shapes_line(k->shapes, s, k->anagrams, 0, l, share->anchors[l], n);
        }
    }
    for (int c = 0; c < ncand; c++) {
        share->changed[c] = lines_changed_among(k->base.grid, cross, grids + (size_t)c * SQUARES, &crosses[c],
                                                touched[c]);
    }
    /* the lines each candidate changed, on its board (k->shapes' board c + 1) */
    for (int c = 0; c < ncand && k->shapes != NULL; c++) {
        memcpy(s->grid, grids + (size_t)c * SQUARES, SQUARES);
        s->cross_allowed = crosses[c].allowed;
        s->cross_sum = crosses[c].sum;
        for (uint32_t lines = share->changed[c]; lines; lines &= lines - 1) {
            int l = LOWEST(lines), view = l / SIZE, line = l % SIZE, found[SIZE], n = 0;
            for (uint32_t bits = crosses[c].anchors[view][line]; bits; bits &= bits - 1) {
                found[n++] = LOWEST(bits);
            }
            prepare_line(s, k->rules, view, line);
            shapes_line(k->shapes, s, k->anagrams, c + 1, l, found, n);
        }
    }
}

/* `to` (share_new's, for as many candidates) prepared as share_prepare prepared `from`. */
void share_copy_prepared(Share *to, const Share *from, int ncand) {
    memcpy(to->prepared, from->prepared, sizeof to->prepared);
    memcpy(to->count, from->count, sizeof to->count);
    memcpy(to->anchors, from->anchors, sizeof to->anchors);
    memcpy(to->changed, from->changed, sizeof(uint32_t) * (size_t)ncand);
}

/* The whole-rack spans of shared line l of the slot of `lines` (made by lines_wholes). */
static WholeSpan *line_wholes(SharedLines *lines, int slot, int l) {
    return lines->wholes + ((size_t)slot * LINES + (size_t)l) * LINE_WHOLES;
}

/* lines->wholes, made if not yet (NULL: out of memory, when the whole-rack spans are not searched apart). */
static WholeSpan *lines_wholes(SharedLines *lines) {
    if (lines->wholes == NULL) {
        lines->wholes = PyMem_RawMalloc(sizeof(WholeSpan) * SLOTS * LINES * LINE_WHOLES);
    }
    return lines->wholes;
}

/* Shared line l of the slot of `lines`, set up for this draw: its anchors' bounds for the rack (r), by
 * bound. */
static SharedLine *shared_line(Kernel *k, Share *share, SharedLines *lines, int slot, int l, const Reply *r) {
    SharedLine *shared = &lines->lines[slot][l];
    if (lines->stamp[slot][l] == share->draw) {
        return shared;
    }
    lines->stamp[slot][l] = share->draw;
    memcpy((char *)k->search + LINE_FIRST, share->prepared[l], LINE_BYTES);
    int first = k->nwholes;
    int n = reply_anchors(k, r, share->anchors[l], share->count[l], POSITION_TAG + l, shared->anchors,
                          shared->depth_bounds, 0, l);
    /* its whole-rack spans are kept with it, and each candidate searches them (shared_search) */
    shared->nwholes = k->nwholes - first;
    if (shared->nwholes) {
        WholeSpan *kept = line_wholes(lines, slot, l);
        memcpy(kept, k->wholes + first, sizeof(WholeSpan) * (size_t)shared->nwholes);
        for (int w = 0; w < shared->nwholes; w++) {
            kept[w].kept = (int16_t)(w + 1);
            kept[w].searched = 0;
        }
    }
    k->nwholes = first;
    for (int a = 1; a < n; a++) {  /* by bound, highest first (at most SIZE of them) */
        Anchor item = shared->anchors[a];
        int b = a;
        while (b > 0 && anchor_before(&item, &shared->anchors[b - 1])) {
            shared->anchors[b] = shared->anchors[b - 1];
            b--;
        }
        shared->anchors[b] = item;
    }
    shared->n = n;
    shared->next = 0;
    shared->found = 0;
    return shared;
}

/* The shared lines whose whole-rack spans whole_spans_search searches (WholeLines.context). */
typedef struct {
    SharedLines *lines;
    int slot;
} WholeLinesOf;

/* WholeLines.line_top: a shared line's span offers its moves to the line's best (as its anchors do). */
static struct TopK *shared_span_top(void *context, const WholeSpan *span, const struct TopK *reply, struct TopK *own) {
    const WholeLinesOf *of = context;
    SharedLine *shared = &of->lines->lines[of->slot][span->line - POSITION_TAG];
    *own = *reply;
    own->items = &shared->best;
    own->count = shared->found;
    return own;
}

/* WholeLines.line_done: the line's best goes to the reply's, and a span searched in full is not searched again
 * for the other candidates of the draw. */
static void shared_span_done(void *context, const WholeSpan *span, int complete, const struct TopK *own,
                             struct TopK *reply) {
    const WholeLinesOf *of = context;
    int l = span->line - POSITION_TAG;
    SharedLine *shared = &of->lines->lines[of->slot][l];
    shared->found = own->count;
    if (shared->found) {
        top_insert(reply, &shared->best);
    }
    if (complete) {
        line_wholes(of->lines, of->slot, l)[span->kept - 1].searched = 1;
    }
}

/* The placements of the reply set up in k->search and r into r->top (with what it holds already), on a
 * candidate's board (its cross-checks in k->cross; `changed`: its lines that differ from the position's
 * board): the lines not changed are the shared `lines` of the slot (`slot`: by the bag), searched as far
 * as a candidate needed them; r->top gets the same move as from search_reply. */
static void shared_search(Kernel *k, Share *share, SharedLines *lines, int slot, uint32_t changed, Reply *r) {
    Search *s = k->search;
    if (s->rack_len > 0 && k->lex->nedges > 0) {
        int nanchors = 0, nlines = 0;
        k->nwholes = 0;
        for (int l = 0; l < LINES; l++) {
            int view = l / SIZE, line = l % SIZE;
            if (changed >> l & 1) {
                nanchors += queue_line(k, r, view, line, 1, &nlines, k->anchors + nanchors);
            } else if (share->count[l]) {
                const SharedLine *shared = shared_line(k, share, lines, slot, l, r);
                if (shared->found) {
                    top_insert(&r->top, &shared->best);
                }
                if (shared->next < shared->n) {
                    k->anchors[nanchors++] = shared->anchors[shared->next];
                }
                const WholeSpan *kept = r->split && shared->nwholes ? line_wholes(lines, slot, l) : NULL;
                for (int w = 0; kept != NULL && w < shared->nwholes; w++) {  /* those not searched yet */
                    if (!kept[w].searched) {
                        k->wholes[k->nwholes++] = kept[w];
                    }
                }
            }
        }
        if (r->split) {
            WholeLinesOf of = {lines, slot};
            WholeLines hooks = {&of, shared_span_top, shared_span_done};
            whole_spans_search(k, r, share, &hooks);
        }
        nanchors = anchor_heap_above(k->anchors, nanchors, r->top.count ? r->item.equity : -HUGE_VAL);
        int current = -1;
        while (nanchors > 0) {
            Anchor next = anchor_take(k->anchors, &nanchors);
            if (r->top.count && next.bound < r->item.equity) {
                break;  /* no move of this anchor or of the ones after it reaches the best */
            }
            if (next.line != current) {
                const char *prepared = next.line >= POSITION_TAG ? share->prepared[next.line - POSITION_TAG]
                                                             : k->lines + (size_t)next.line * LINE_BYTES;
                memcpy((char *)s + LINE_FIRST, prepared, LINE_BYTES);
                current = next.line;
            }
            double cut = part_cut(r, NULL, 0);  /* (waiting for the next anchor's bound searched more here) */
            if (next.line < POSITION_TAG) {
                const double *depth_bound = k->depth_bounds[(size_t)next.line * SIZE + next.anchor];
                search_part(s, &next, depth_bound, cut);  /* the rest is below the best for good */
                continue;
            }
            /* a shared line's next anchor: its moves go to the line's best, then to the reply's */
            SharedLine *shared = &lines->lines[slot][next.line - POSITION_TAG];
            struct TopK own = r->top;
            own.items = &shared->best;
            own.count = shared->found;
            s->top = &own;
            Anchor *entry = &shared->anchors[shared->next];
            if (search_part(s, entry, shared->depth_bounds[next.anchor], cut)) {
                /* the rest of the anchor waits in the line's order, for this candidate or the next */
                for (int b = shared->next; b + 1 < shared->n && anchor_before(&entry[1], &entry[0]); b++, entry++) {
                    Anchor swap = entry[0];
                    entry[0] = entry[1];
                    entry[1] = swap;
                }
            } else {
                shared->next++;
            }
            s->top = &r->top;
            shared->found = own.count;
            if (shared->found) {
                top_insert(&r->top, &shared->best);
            }
            if (shared->next < shared->n) {
                anchor_push(k->anchors, &nanchors, &shared->anchors[shared->next]);
            }
        }
    }
}

/* The opponent's reply (rack `hand`, `bag` > 0 tiles left to draw) on a candidate's board `grid`
 * (its cross-checks in k->cross; `changed`: its lines that differ from the position's board): the same
 * move as best_move's. */
void shared_reply(Kernel *k, Share *share, const int8_t *grid, const Hand *hand, int bag, uint32_t changed,
                  Play *play) {
    int slot = bag >= 7 ? 7 : bag;
    Reply r;
    reply_begin(k, grid, hand, bag, &r);
    if (hand->blanks > 0) {
        Reply first;
        blanks_begin(k, grid, hand, &r, &first);
        SharedLines *lines = lines_without_blanks(share);
        if (lines != NULL) {
            shared_search(k, share, lines, slot, changed, &first);
        } else {
            search_reply(k, &first, 1, ~changed & ((1u << LINES) - 1));
        }
        blanks_end(k, grid, hand, &first, &r);
        r.split = reply_splits(k, hand, &r) && lines_wholes(&share->whole) != NULL;
    }
    shared_search(k, share, &share->whole, slot, changed, &r);
    reply_finish(k, bag, &r, play);
}

/* Our reply (rack `hand`) shared between the candidates of a draw that keep the same tiles: shared_reply
 * on their own Share, named apart so that a profile tells the two replies' costs apart. */
void shared_our_reply(Kernel *k, Share *share, const int8_t *grid, const Hand *hand, int bag, uint32_t changed,
                      Play *play) {
    shared_reply(k, share, grid, hand, bag, changed, play);
}
