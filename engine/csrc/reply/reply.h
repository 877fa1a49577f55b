/*
 * The playout kernel's shared declarations (engine._native.playouts: playout.c; the static replies:
 * reply.c).
 */

#ifndef ENGINE_PLAYOUT_H
#define ENGINE_PLAYOUT_H

#include "../movegen/movegen.h"

#define KIND_PLACE 0
#define KIND_SWAP 1
#define KIND_PASS 2
#define MAX_WIDTH 1024  /* unseen tiles per draw */
#define MAX_PLIES 8     /* static replies a playout plays after its candidate */
#define TO_END_REPLIES 16  /* with to_end, the most replies played on once the bag is empty (playout.c) */

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

/* The heap's tag of the position's board's line l (Kernel.share's): POSITION_TAG + l; lower tags are
 * lines prepared for the search at hand. */
#define POSITION_TAG (2 * SIZE)

/* A line's prepared state (prepare_line's output), kept while the anchors are searched best first. */
#define LINE_FIRST offsetof(Search, view)
#define LINE_BYTES (offsetof(Search, placed) - offsetof(Search, view))

/* The bounds kept per anchor, by the rack tiles k of a move's left part (anchor_bound's spans of each
 * k): a searched anchor's moves whose left part has k tiles are skipped when the bound of k is below
 * the best found. Left parts of KBOUNDS tiles or more are never skipped. */
#define KBOUNDS 8
typedef double DepthBounds[KBOUNDS];

/* A span of a one-blank rack's anchor that takes the whole rack, or all but one tile and a board tile,
 * searched apart from the anchor's other moves (wholerack.c): the moves of those lengths are few, but
 * their bounds (the bingo, the best leave of one tile) kept most anchors' bounds above the best move. */
typedef struct {
    double bound;
    uint64_t code;    /* the letters of the span's word but the blank's (Anagrams codes) */
    int score;        /* the most a move of it scores (bound less the leave's part) */
    int16_t line;     /* as Anchor's */
    int8_t anchor;
    int8_t previous;
    int8_t k;         /* its rack tiles left of the anchor */
    int8_t tiles;     /* its rack tiles: the whole rack, or all but one and a board tile */
    int16_t kept;     /* a shared line's (replyshare.c): 1 + its index among the line's kept spans (0: none) */
    int8_t searched;  /* a shared line's kept span: searched in full, its moves in the line's best */
} WholeSpan;

/* What whole_spans_search asks of the owner of the shared lines (replyshare.c) for a span they keep: the top
 * list its moves go to (the line's best, `own`), and once it is searched, to take that list back (`complete`:
 * searched in full, never again) into the reply's. */
typedef struct {
    void *context;
    struct TopK *(*line_top)(void *context, const WholeSpan *span, const struct TopK *reply, struct TopK *own);
    void (*line_done)(void *context, const WholeSpan *span, int complete, const struct TopK *own, struct TopK *reply);
} WholeLines;

/* An anchor's WholeSpans at most: two per left part length (a rack of fewer than KBOUNDS tiles, splits). */
#define ANCHOR_WHOLES (2 * KBOUNDS)

#define SPELLED_SLOTS 256  /* Kernel.spelled_code's, a power of 2 */

/* An anchor queued by its bound, in 16 bytes (the heaps move them about). */
typedef struct {
    double bound;
    int16_t line;     /* index into the saved lines (a tag below 2 x POSITION_TAG) */
    int8_t anchor;
    int8_t previous;  /* -1: none */
    uint32_t done;    /* the left part lengths already searched (bit k: k rack tiles) */
} Anchor;

/* Every square's cross-checks in both views, as Search.cross_allowed and cross_sum read them
 * ([view * SQUARES + row * SIZE + col]), and the anchors (empty squares next to a tile) of each line;
 * crossboard.c keeps them up to date. */
typedef struct {
    uint32_t allowed[2 * SQUARES];
    int sum[2 * SQUARES];
    uint16_t anchors[2][SIZE];  /* [view][line]: bit p for the line's square p */
} Cross;

/* The learned leave model's weights for the tiles of one rack (keptvalues.c): each distinct tile's
 * copies, each pair of distinct tiles, whether it is a vowel. */
typedef struct {
    int ndistinct;
    int multiplicity[MAX_RACK];
    double single[MAX_RACK][COPIES];
    double pair[MAX_RACK][MAX_RACK];
    int vowel[MAX_RACK];
    const double *shape;  /* the weights of a leave's (size, vowels) */
    int max_size;
} RackWeights;

/* What one rack can keep: the value of each kept multiset (kept_layout's index; NaN until a search
 * needs it, then worked out exactly by kept_exact) and the most a leave of each size is worth, or a
 * little more (keptvalues.c; the bounds' figure); max_used the same over the leaves that keep fewer
 * blanks than the rack holds (those of a move that plays a blank; -1e300 for a size without one). */
typedef struct {
    Hand rack;
    int filled;
    double max_kept[MAX_RACK + 1];
    double max_used[MAX_RACK + 1];
    double *kept;
    Py_ssize_t nkept;
    RackWeights weights;
} KeptValues;

typedef struct {
    LexiconObject *lex;
    RulesObject *rules;
    const LeaveTableObject *table;
    Search base;     /* the lexicon and ruleset fields, copied into every search */
    Search *search;  /* scratch */
    double *kept;    /* the storage of memo's values */
    KeptValues memo[2];  /* the last two racks' */
    int recent;          /* the memo used last */
    char *lines;     /* the prepared lines of a search (2 x SIZE at most) */
    Anchor *anchors; /* its anchors with their bounds (2 x SIZE x SIZE at most) */
    DepthBounds *depth_bounds;  /* their bounds by left part length: [tag * SIZE + anchor], tags < 2 x POSITION_TAG */
    double *endgame_kept;       /* the static endgame's values of what the rack keeps (2^rack_size) */
    const Cross *cross;  /* the cross-checks of the board a reply is searched on (NULL: worked out) */
    Cross *work;         /* the playout's board's cross-checks (scratch) */
    Cross *after;        /* the cross-checks after a move tried in the static endgame (scratch) */
    double swap_cost;
    int swap_min_bag;
    int endgame_width;
    int plies;       /* the static replies of a playout after the candidate, the opponent's first */
    int to_end;      /* 1: with the bag empty after them, replies go on to the game's end (playout.c's play_out) */
    int failed;      /* out of memory */
    struct Share *share;  /* the opponent's replies shared between the candidates of a draw (NULL: none) */
    uint32_t changed;     /* the lines of the current candidate's board that differ from the position's */
    struct Share *ours;   /* our replies shared between the candidates of a draw that keep the same tiles */
    int ours_on;          /* whether the current candidate shares its reply (another keeps the same tiles) */
    Cross *position;      /* the position's board's cross-checks */
    const Anagrams *anagrams;  /* the lexicon's words of a rack's size or longer, as multisets (NULL: none) */
    LeftParts lefts[2];   /* the left parts of the last two racks searched (the opponent's and ours) */
    WholeSpan *wholes;    /* a search's whole-rack spans searched apart (Reply.split; 2 x SQUARES x ANCHOR_WHOLES) */
    int nwholes;
    /* the letters a blank can stand for in a word of a whole-rack span's letters, by the span's code (0:
     * empty): the spans of a line recur for every candidate of a draw, and many spans share their letters */
    uint64_t spelled_code[SPELLED_SLOTS];
    uint32_t spelled_letters[SPELLED_SLOTS];
    int lefts_recent;     /* the one used last */
    struct ReplyMemo *replies;  /* the replies played out so far, by what they depend on (replymemo.c) */
    /* the rack-independent parts of the anchors' bounds (NULL: none) of the position's board's lines (board 0)
     * and of the lines candidate c changed on its board (board c + 1) */
    struct Shapes *shapes;
    int shape_board;        /* the candidate board (c + 1) whose lines `shape_lines` of the board searched are */
    uint32_t shape_lines;
} Kernel;

typedef struct {
    int32_t *tiles;
    size_t cap, len;
    size_t front;
} Bag;

/* What a kernel call keeps that does not depend on the draws (playout.c's playouts_open): the position,
 * each candidate's board, its cross-checks and the rack it keeps, the shared lines. */
typedef struct {
    Kernel k;
    int ncand, held, bag_size, ntiles;
    Hand rack;
    Play *plays;
    Cross *crosses;      /* per candidate: the cross-checks of the board after it */
    int8_t *grids;       /* per candidate: the board after it */
    Hand *mine;          /* per candidate: the rack it keeps */
    uint32_t *touched;   /* per candidate: the lines its tiles may have changed (cross_update's) */
    int *order, *group, *members, *place;  /* playouts_play's: the candidates played by the tiles they keep */
    Bag bag;
} Playouts;

/* playout.c */
int playouts_open(Playouts *p, LexiconObject *lex, RulesObject *rules, LeaveTableObject *table, PyObject *grid,
                  PyObject *counts, int blanks, const Py_buffer *moves_view, int ncand, int held, int bag_size,
                  double swap_cost, int swap_min_bag, int endgame_width, int plies, int to_end);
Py_ssize_t playouts_draws(const Playouts *p, const int32_t *draws, Py_ssize_t n);
int playouts_play(Playouts *p, const int32_t *draws, Py_ssize_t iterations, const int *playing, int nplaying,
                  double *values);
void playouts_close(Playouts *p);
int read_ints(PyObject *object, Py_buffer *view, const char *what);

/* What a leave counts for in a move played with `bag` tiles in the bag (engine.strategy.leave_weight). */
static inline double leave_weight(int bag) {
    return bag >= 7 ? 1.0 : bag / 7.0;
}

static inline int hand_points(const Kernel *k, const Hand *h) {
    int total = 0;
    for (int i = 0; i < k->rules->letters; i++) {
        total += h->counts[i] * k->rules->points[i];
    }
    return total;
}

static inline void hand_take(Hand *h, int tile) {  /* a board tile (blank flag) or a bag tile (-1 blank) */
    if (tile < 0 || (tile & BLANK_FLAG)) {
        h->blanks--;
    } else {
        h->counts[tile & LETTER_MASK]--;
    }
    h->size--;
}

static inline void hand_add(Hand *h, int bag_tile) {
    if (bag_tile < 0) {
        h->blanks++;
    } else {
        h->counts[bag_tile]++;
    }
    h->size++;
}


/* crossboard.c */
void cross_fill(Kernel *k, const int8_t *grid, Cross *cross);
uint32_t cross_update(Kernel *k, const int8_t *grid, Cross *cross, const int32_t *tiles, int n);

/* keptvalues.c */
KeptValues *kept_values(Kernel *k, const Hand *hand, const int *distinct, const int *multiplicity, int ndistinct,
                        Py_ssize_t nkept);
void kept_all(KeptValues *values);

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
typedef struct Shapes Shapes;
Shapes *shapes_new(int nboards);
void shapes_free(Shapes *shapes);
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

/* replymemo.c: what a static reply depends on (the bag empty: the other side's rack too), hashed */
typedef struct {
    uint64_t hash;
    int8_t grid[SQUARES];
    uint8_t counts[MAX_LETTERS], other[MAX_LETTERS];
    uint8_t blanks, other_blanks;
    int16_t bag;
} ReplyKey;
typedef struct ReplyMemo ReplyMemo;
ReplyMemo *reply_memo_new(void);
void reply_memo_free(ReplyMemo *memo);
void reply_key(ReplyKey *key, const int8_t *grid, const Hand *hand, const Hand *other, int bag);
int reply_recall(ReplyMemo *memo, const ReplyKey *key, Play *play);
void reply_keep(ReplyMemo *memo, const ReplyKey *key, const Play *play);

/* replyshare.c */
typedef struct Share Share;
Share *share_new(int ncand);
void share_free(Share *share);
void share_prepare(Kernel *k, Share *share, const Cross *cross, const int8_t *grids, const Cross *crosses,
                   const uint32_t *touched, int ncand);
void share_copy_prepared(Share *to, const Share *from, int ncand);
void share_next_draw(Share *share);
uint32_t share_changed(const Share *share, int candidate);
const char *share_line(const Share *share, int l, const int **anchors, int *count);
uint32_t lines_changed(const int8_t *grid_a, const Cross *a, const int8_t *grid_b, const Cross *b);
void shared_reply(Kernel *k, Share *share, const int8_t *grid, const Hand *hand, int bag, uint32_t changed,
                  Play *play);
void shared_our_reply(Kernel *k, Share *share, const int8_t *grid, const Hand *hand, int bag, uint32_t changed,
                      Play *play);

/* reply.c */
void search_setup(Kernel *k, const int8_t *grid, const Hand *hand, struct TopK *top);
void reply_rack(Kernel *k, Reply *r);
void best_move(Kernel *k, int8_t *grid, int ntiles, const Hand *hand, const Hand *other, int bag, uint32_t same,
               Play *play);
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
