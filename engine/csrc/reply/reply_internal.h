/*
 * The static replies' internals (reply/): the reply being searched (Reply), the anchors' heap and bounds,
 * the whole-rack spans, and the functions the group's files call of each other. Only reply/ includes it.
 */

#ifndef ENGINE_REPLY_INTERNAL_H
#define ENGINE_REPLY_INTERNAL_H

#include "reply.h"

/* What whole_spans_search asks of the owner of the shared lines (share.c) for a span they keep: the top
 * list its moves go to (the line's best, `own`), and once it is searched, to take that list back (`complete`:
 * searched in full, never again) into the reply's. */
typedef struct {
    void *context;
    struct TopK *(*line_top)(void *context, const WholeSpan *span, const struct TopK *reply, struct TopK *own);
    void (*line_done)(void *context, const WholeSpan *span, int complete, const struct TopK *own, struct TopK *reply);
} WholeLines;

/* Whether anchor a is searched before b: the higher bound first, then by line and square. */
static inline int anchor_before(const Anchor *a, const Anchor *b) {
    if (a->bound != b->bound) {
        return a->bound > b->bound;
    }
    return a->line != b->line ? a->line < b->line : a->anchor < b->anchor;
}

/* The anchors as a heap, the one to search first on top: most replies stop after a third of them, so
 * they are taken off one by one rather than all sorted. */
static inline void anchor_sift_down(Anchor *heap, int n, int i) {
    Anchor item = heap[i];
    for (;;) {
        int child = 2 * i + 1;
        if (child >= n) {
            break;
        }
        if (child + 1 < n && anchor_before(&heap[child + 1], &heap[child])) {
            child++;
        }
        if (!anchor_before(&heap[child], &item)) {
            break;
        }
        heap[i] = heap[child];
        i = child;
    }
    heap[i] = item;
}

static inline void anchor_heapify(Anchor *heap, int n) {
    for (int a = n / 2 - 1; a >= 0; a--) {
        anchor_sift_down(heap, n, a);
    }
}

/* The n anchors less those whose bound is below `best` (none: -HUGE_VAL), heaped; returns how many. The
 * search stops at the first anchor below the best, which only rises, so those are never searched. */
static inline int anchor_heap_above(Anchor *heap, int n, double best) {
    int kept = 0;
    for (int a = 0; a < n; a++) {
        if (!(heap[a].bound < best)) {
            heap[kept++] = heap[a];
        }
    }
    anchor_heapify(heap, kept);
    return kept;
}

static inline Anchor anchor_take(Anchor *heap, int *n) {
    Anchor first = heap[0];
    heap[0] = heap[--*n];
    anchor_sift_down(heap, *n, 0);
    return first;
}

static inline void anchor_push(Anchor *heap, int *n, const Anchor *item) {
    int i = (*n)++;
    while (i > 0 && anchor_before(item, &heap[(i - 1) / 2])) {
        heap[i] = heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    heap[i] = *item;
}

/* A reply's search with tiles in the bag, between reply_begin and reply_finish (reply.c). */
typedef struct {
    Candidate item;     /* the best placement found, when top.count is 1 */
    struct TopK top;
    double weight;      /* of the leave */
    int distinct[MAX_LETTERS + 1], multiplicity[MAX_LETTERS + 1], ndistinct;
    Py_ssize_t nkept;
    KeptValues *values;
    int desc_points[MAX_RACK];  /* the rack's tile values, highest first */
    int desc_head;              /* the first of them from which on all are the same (0 for no tile) */
    /* where the values step down: desc_points[step_at[i]] - desc_points[step_at[i] + 1] = step_by[i] > 0,
     * in order (a span's tile values from its cumulative coefficients: anchor_bound_shaped) */
    int step_at[MAX_RACK], step_by[MAX_RACK], nsteps;
    uint32_t usable;            /* letters a tile of the rack can stand for */
    const Anagrams *anagrams;   /* a whole rack without a blank: the lexicon's long words' letters (else NULL) */
    uint64_t rack_code;         /* then the rack's letters' code */
    int by_points[MAX_RACK];    /* the rack's letters (a blank's aside), each once, highest points first */
    int nby_points;
    double leave_after[MAX_RACK + 1];  /* weight x the most a leave is worth after a move of n tiles */
    /* the second search of a full rack of fewer than KBOUNDS tiles with one blank (anagrams set): its
     * whole-rack spans go to Kernel.wholes instead of the anchors' bounds, and their moves are searched
     * first (wholerack.c; reply_splits) */
    int split;
    /* the second search of a rack with blanks (blanks_end): every move it needs plays a blank (those that
     * play none were the first search's), so a span's tile values are the rack's highest but one, and a blank */
    int plays_blank;
} Reply;

/* The parts of an anchor's bound that do not depend on the rack (anchorshape.c), for an anchor of a kept
 * line (the position's board's, or one a candidate changed, on its board), as anchor_bound reads the line
 * for a rack of the ruleset's size. */
typedef struct {
    int8_t anchor;
    int8_t nleft;            /* the free squares left of it that a left part can take (0 after board tiles) */
    int8_t nright;           /* the squares from it on that a letter fits (at most a rack's) */
    int left_points;         /* the board tiles' points left of it */
    uint64_t left_code;      /* their letters (Anagrams codes; 0 without the set) */
    uint64_t right_code[MAX_RACK + 1];  /* the board tiles' letters after its first j squares from it on */
    int left_lm_sum[MAX_RACK];          /* the letter multipliers of the k squares left of it */
    uint32_t allowed[MAX_RACK];         /* the squares from it on: the letters allowed, */
    int lm[MAX_RACK], cx[MAX_RACK];     /* the letter multiplier, the cross word's multiplier on the tile */
    /* the spans of k rack tiles left of it, j = 1, 2... squares from it on, one after the other in the pool
     * from span[k]: the word multiplier, the points that do not depend on the tiles (the board tiles' times
     * it and the cross words'), then the k + j coefficients of the tile values sorted highest first, each
     * summed with those before it (the sum of the first q + 1 at q) */
    int span[MAX_RACK];
} AnchorShape;

/* anchorshape.c */
void shapes_line(Shapes *shapes, const Search *s, const Anagrams *anagrams, int board, int l, const int *anchors,
                 int count);
const AnchorShape *shapes_of_line(const Shapes *shapes, int board, int l, const int **pool);
const char *shapes_prepared(const Shapes *shapes, int board, int l);

/* anchorbound.c */
double anchor_bound(const Search *s, int anchor, int previous, const Reply *r, double *depth_bound, WholeSpan *whole,
                    int *nwhole);
double anchor_bound_shaped(const Search *s, const AnchorShape *shape, const int *pool, const Reply *r,
                           double *depth_bound, WholeSpan *whole, int *nwhole);

/* wholerack.c */
struct Share;
void whole_spans_search(Kernel *k, Reply *r, const struct Share *share, const WholeLines *lines);

/* Search the left part lengths of anchor entry `a` (its line prepared in s; depth_bound its bounds by
 * length) not yet searched whose bounds reach `cut`, the others' left for later: they are marked done,
 * and a->bound becomes the highest bound of the rest. Returns whether a rest is left. */
static inline int search_part(Search *s, Anchor *a, const double *depth_bound, double cut) {
    uint32_t skip = a->done;
    double rest = -HUGE_VAL;
    for (int q = 0; q < KBOUNDS; q++) {
        if (!(a->done >> q & 1) && depth_bound[q] < cut) {
            skip |= 1u << q;
            if (depth_bound[q] > -1e299 && depth_bound[q] > rest) {
                rest = depth_bound[q];  /* else no move has a left part of q tiles */
            }
        }
    }
    search_anchor_depths(s, a->anchor, a->previous, skip);
    a->done |= ~skip;
    a->bound = rest;
    return rest > -HUGE_VAL;
}

/* The bound below which a popped anchor's left part lengths wait (in the heap `heap` of n anchors, for
 * a second pass): the best found, or before anything is found the next anchor's bound, so that the
 * first moves found come from the best spans (n 0: none waits then). (The next anchor's bound once
 * something is found searched more: the second passes over the left parts cost more than they saved.) */
static inline double part_cut(const Reply *r, const Anchor *heap, int n) {
    return r->top.count ? r->item.equity : n > 0 ? heap[0].bound : -HUGE_VAL;
}

/* keptvalues.c */
KeptValues *kept_values(Kernel *k, const Hand *hand, const int *distinct, const int *multiplicity, int ndistinct,
                        Py_ssize_t nkept);
void kept_all(KeptValues *values);

/* share.c */
const char *share_line(const Share *share, int l, const int **anchors, int *count);
uint32_t lines_changed(const int8_t *grid_a, const Cross *a, const int8_t *grid_b, const Cross *b);

/* reply.c */
void search_setup(Kernel *k, const int8_t *grid, const Hand *hand, struct TopK *top);
void reply_rack(Kernel *k, Reply *r);
int board_anchors(const Kernel *k, const Search *s, int view, int line, int ntiles, int *found);
void reply_begin(Kernel *k, const int8_t *grid, const Hand *hand, int bag, Reply *r);
int reply_anchors(Kernel *k, const Reply *r, const int *found, int count, int tag, Anchor *out,
                  DepthBounds *depth_bounds, int board, int line);
int queue_line(Kernel *k, const Reply *r, int view, int line, int ntiles, int *nlines, Anchor *out);
void reply_finish(Kernel *k, int bag, Reply *r, Play *play);
void search_reply(Kernel *k, Reply *r, int ntiles, uint32_t same);
void blanks_begin(Kernel *k, const int8_t *grid, const Hand *hand, const Reply *r, Reply *first);
void blanks_end(Kernel *k, const int8_t *grid, const Hand *hand, const Reply *first, Reply *r);
int reply_splits(const Kernel *k, const Hand *hand, const Reply *r);

/* staticend.c */
void best_endgame(Kernel *k, int8_t *grid, int ntiles, const Hand *hand, const Hand *other, Play *play);

#endif
