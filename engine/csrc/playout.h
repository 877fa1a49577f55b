/*
 * The playout kernel's shared declarations (engine._native.playouts: playout.c; the static replies:
 * reply.c).
 */

#ifndef ENGINE_PLAYOUT_H
#define ENGINE_PLAYOUT_H

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

/* Every square's cross-checks in both views, as Search.cross_allowed and cross_sum read them
 * ([view * SQUARES + row * SIZE + col]), and the anchors (empty squares next to a tile) of each line;
 * crossboard.c keeps them up to date. */
typedef struct {
    uint32_t allowed[2 * SQUARES];
    int sum[2 * SQUARES];
    uint16_t anchors[2][SIZE];  /* [view][line]: bit p for the line's square p */
} Cross;

/* What one rack can keep: the value of each kept multiset (kept_layout's index) and the most a leave of
 * each size is worth (keptvalues.c). */
typedef struct {
    Hand rack;
    int filled;
    double max_kept[MAX_RACK + 1];
    double *kept;
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
    const Cross *cross;  /* the cross-checks of the board a reply is searched on (NULL: worked out) */
    Cross *work;         /* the playout's board's cross-checks (scratch) */
    Cross *after;        /* the cross-checks after a move tried in the static endgame (scratch) */
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

/* anchorbound.c */
double anchor_bound(const Search *s, int anchor, int previous, const int *desc_points, const double *max_kept,
                    double weight);

/* crossboard.c */
void cross_fill(Kernel *k, const int8_t *grid, Cross *cross);
void cross_update(Kernel *k, const int8_t *grid, Cross *cross, const int32_t *tiles, int n);

/* keptvalues.c */
const KeptValues *kept_values(Kernel *k, const Hand *hand, const int *distinct, const int *multiplicity, int ndistinct,
                              Py_ssize_t nkept);

/* reply.c */
void best_move(Kernel *k, int8_t *grid, int ntiles, const Hand *hand, const Hand *other, int bag, Play *play);

#endif
