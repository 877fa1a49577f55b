/*
 * The move generator's interface (movegen/): the search (search.c) on one board for one rack, its left
 * parts walked once per rack (leftparts.c), its arguments read from Python (searchargs.c), and its equity
 * mode: the top-k list of moves valued with their leaves and the learned leave model (equity.c).
 */

#ifndef ENGINE_MOVEGEN_H
#define ENGINE_MOVEGEN_H

#include "../lexicon/lexicon.h"
#include "../base/growth.h"

#define COPIES 3  /* copies of one tile with a leave feature of their own */

typedef struct {
    int32_t *data;
    size_t len, cap;
} IntBuffer;

struct TopK;

typedef struct Search {
    /* inputs */
    const uint32_t *child, *mask, *ends;
    const DawgEdge *edges;
    const int *points;
    int letters;
    uint32_t all_letters;
    int rack_size, bingo;
    int8_t grid[SQUARES];  /* row-major: -1 or a tile code (blank flag included) */
    /* the rack: counts change while searching */
    int counts[MAX_LETTERS];
    int counts0[MAX_LETTERS];
    int blanks0, blanks_left, rack_len;
    uint32_t rmask;  /* letters the rack still has a tile of */
    /* the line being searched (in the current view) */
    int view, line;
    int8_t cells[SIZE];       /* the line's tiles */
    uint32_t allowed[SIZE + 1];  /* letters allowed by the cross word (all if none); [SIZE]: none, past the end */
    int xsum[SIZE];           /* points of the cross word's board tiles, -1 if none */
    const uint8_t *lm, *wm;   /* the line's multipliers */
    int next_empty[SIZE];     /* for an empty square p: the first empty square after the tiles that follow p */
    int run_points[SIZE];     /* points of the board tiles right after p */
    int8_t room[SIZE];        /* the empty squares from p to the line's end */
    /* the move being built: positions and letters along the line */
    int placed;
    int pos[MAX_RACK];
    int letter[MAX_RACK];
    int left_letters[MAX_RACK];
    /* listed_left_parts's left part of left_k tiles: their squares, before s->pos[left_k] (the anchor's), are put
     * in s->pos only when a move is emitted (most left parts extended make none); 0 elsewhere */
    int left_k;
    /* output: per move n, view, score, then (row, col, tile) n times */
    /* when set (the endgame keeps them up to date), the cross-checks of every square, read instead of
     * worked out: [view * SQUARES + row * SIZE + col] */
    const uint32_t *cross_allowed;
    const int *cross_sum;
    /* when set, only moves that use the whole rack count: 1 (the static endgame's out-plays, reply.c):
     * instead of being written out the highest score of them is kept in best_out (-1: none); 2 (wholerack.c):
     * they are offered to `top` */
    int out_only;
    int best_out;
    /* when set (the playout kernel's replies, reply.c): the rack's left parts, walked once and read by
     * every anchor instead of walking the DAWG again (leftparts.c) */
    struct LeftParts *lefts;
    /* when set (the endgame's line cache, linecache.c): each move is handed to it (with sink_data) instead of
     * being written to `out` */
    void (*sink)(struct Search *s, uint32_t blank_set, int score);
    void *sink_data;
    IntBuffer out;
    int failed;
    /* equity mode (top_equity): moves go to a top-k list instead of `out` */
    struct TopK *top;
} Search;

/* Take a tile for letter l from the rack (a blank when none of l is left); returns 1 for a blank. Without
 * branches: which way it goes depends on the rack, and a processor guesses it wrong often. */
static inline int take_tile(Search *s, int l) {
    int count = s->counts[l];
    int blank = count == 0;
    s->counts[l] = count - 1 + blank;
    s->blanks_left -= blank;
    s->rmask &= ~((uint32_t)(count == 1) << l);  /* its last tile: l is no longer on the rack */
    return blank;
}

/* Whether a blank is left once take_tile(s, l) has taken a tile for l (it takes a blank when no l is left). */
static inline int blank_after(const Search *s, int l) {
    return s->blanks_left - (s->counts[l] == 0) > 0;
}

/* The rack's letters once take_tile(s, l) has taken a tile for l (rmask without l when its last went). */
static inline uint32_t rmask_after(const Search *s, int l) {
    return s->rmask & ~((uint32_t)(s->counts[l] == 1) << l);
}

/* The letters a tile left on the rack can stand for once take_tile(s, l) has taken one for l, read without
 * taking it (most letters placed go no further, and their tile need not be taken). */
static inline uint32_t usable_after(const Search *s, int l) {
    return blank_after(s, l) ? s->all_letters : rmask_after(s, l);
}

/* Whether `next` & usable_after(s, l) is not empty, in the form the search's inner loop runs fastest. */
static inline int goes_on(const Search *s, int l, uint32_t next) {
    return next && (blank_after(s, l) || (next & rmask_after(s, l)));
}

/* Put back what take_tile took. */
static inline void return_tile(Search *s, int l, int on_blank) {
    s->blanks_left += on_blank;
    s->counts[l] += 1 - on_blank;
    s->rmask |= (uint32_t)(1 - on_blank) << l;  /* l is on the rack (again) unless a blank stood for it */
}

/* Put the left part spelled in s->left_letters on anchor - k .. anchor - 1 (s->pos, s->letter, s->placed);
 * its letters' points under their squares' letter premiums go to *main and the product of their squares'
 * word premiums to *wmul, for the extension right of the anchor. */
static inline void put_left_part(Search *s, int anchor, int k, int *main, int *wmul) {
    int points = 0, product = 1;
    for (int i = 0; i < k; i++) {
        int p = anchor - k + i;
        s->pos[i] = p;
        s->letter[i] = s->left_letters[i];
        points += s->points[s->left_letters[i]] * s->lm[p];
        product *= s->wm[p];
    }
    s->placed = k;
    *main = points;
    *wmul = product;
}

/* The ends of the runs of tiles through (row, col) on `grid`: its column from *top to *bottom, its row
 * from *left to *right (the square itself when it stands alone). */
static inline void run_ends(const int8_t *grid, int row, int col, int *top, int *bottom, int *left, int *right) {
    int t = row, b = row, l = col, r = col;
    while (t > 0 && grid[(t - 1) * SIZE + col] != EMPTY) {
        t--;
    }
    while (b < SIZE - 1 && grid[(b + 1) * SIZE + col] != EMPTY) {
        b++;
    }
    while (l > 0 && grid[row * SIZE + l - 1] != EMPTY) {
        l--;
    }
    while (r < SIZE - 1 && grid[row * SIZE + r + 1] != EMPTY) {
        r++;
    }
    *top = t, *bottom = b, *left = l, *right = r;
}

static inline int tile_points(const Search *s, int tile) {
    return (tile & BLANK_FLAG) ? 0 : s->points[tile & LETTER_MASK];
}

/* The DAWG edge reached by the run of board tiles left of `anchor` (the square before it holds a tile),
 * or NULL when no word starts so; *points: the run's tile points. */
static inline const DawgEdge *board_left_edge(const Search *s, int anchor, int *points) {
    int first = anchor - 1;
    while (first > 0 && s->cells[first - 1] != EMPTY) {
        first--;
    }
    uint32_t bit = 1u << (s->cells[first] & LETTER_MASK);
    *points = tile_points(s, s->cells[first]);
    /* the root's edge of the first tile's letter, then along the DawgEdges of the others' */
    const DawgEdge *at = s->mask[0] & bit ? &s->edges[POPCOUNT(s->mask[0] & (bit - 1))] : NULL;
    for (int q = first + 1; q < anchor && at != NULL; q++) {
        bit = 1u << (s->cells[q] & LETTER_MASK);
        *points += tile_points(s, s->cells[q]);
        at = at->mask & bit ? &s->edges[at->child + POPCOUNT(at->mask & (bit - 1))] : NULL;
    }
    return at;
}

static inline int cell(const Search *s, int view, int line, int pos) {
    return s->grid[line_square(view, line, pos)];
}

static inline uint32_t follow(const Search *s, uint32_t node, int letter) {
    /* the node after `letter` from `node`, or UINT32_MAX if there is no such edge */
    uint32_t m = s->mask[node];
    uint32_t bit = 1u << letter;
    if (!(m & bit)) {
        return UINT32_MAX;
    }
    return s->child[node + POPCOUNT(m & (bit - 1))];
}

typedef struct {
    double equity;
    int n;
    int32_t tiles[3 * MAX_RACK];  /* row, col, tile in reading order */
    int view;
    int score;
} Candidate;

struct TopK {
    int k, count;
    Candidate *items;  /* sorted best first */
    double weight;     /* of the leave value: 1, or less when few tiles are left to draw */
    const double *kept_value;
    int stride[MAX_LETTERS];
    int blank_stride;
    int full;
    /* when set (the playout kernel's replies): the most a leave of each size is worth, so that a word
     * found is offered only when its score with the best leave of its size can enter the list (in the
     * second search of a rack with blanks, reply.c's blanks_end: the most a leave that keeps fewer blanks
     * than the rack is worth) */
    const double *max_kept;
    /* when set (the playout kernel's replies): kept_value holds NaN for a value not yet worked out, which
     * kept_exact(kept_memo, index) works out (keptvalues.c) */
    void *kept_memo;
    /* tiles of the rack that the search does not see and every move keeps (reply.c: the blanks, while
     * the moves that play none are searched first): a move's leave has that many tiles more */
    int hidden;
};

/* The exact value of leave `index` of a kept-values memo (TopK.kept_memo): reply/keptvalues.c, the one
 * call of this group into a caller's (the playout kernel fills its kept values as the search needs them). */
double kept_exact(void *memo, int index);

/* The value of keeping the leave at `index` of top's kept values (worked out by kept_exact when the
 * values are filled in as needed and this one is not yet). */
static inline double top_kept(const struct TopK *top, int index) {
    double kept = top->kept_value[index];
    if (kept != kept && top->kept_memo != NULL) {
        kept = kept_exact(top->kept_memo, index);
    }
    return kept;
}

/* Whether no move of `score` points keeping `kept` tiles of the search's rack can enter s->top (a full
 * list whose last is above the score with the most a leave of that size is worth): offer would drop
 * every way of putting the blanks on the word, each scoring at most `score`. */
static inline int below_top(const Search *s, int score, int kept) {
    const struct TopK *top = s->top;
    return top != NULL && top->max_kept != NULL && top->k > 0 && top->count == top->k &&
           (double)score + top->weight * top->max_kept[kept + top->hidden] < top->items[top->count - 1].equity;
}

/* The learned leave model, factorised: a value per tile copy, per pair of tiles, per (size, vowels). */
typedef struct {
    PyObject_HEAD
    double *weights;
    Py_ssize_t size;
    int letters;       /* tiles are the letters, then the blank (code `letters`) */
    uint32_t vowels;   /* letter codes that count as vowels */
    int max_size;      /* leaves longer than this share its shape values */
} LeaveTableObject;

/* equity.c */
extern PyTypeObject LeaveTableType;

/* searchargs.c */
/* The lexicon's arrays and the ruleset's numbers a search reads, set in `s`. */
void bind_search(Search *s, const LexiconObject *lex, const RulesObject *rules);
int prepare_search(Search *s, LexiconObject *lex, RulesObject *rules, PyObject *grid, PyObject *counts, int blanks,
                   struct TopK *top, int *tiles);
/* The board from Python (a list of SIZE lists of SIZE ints, -1 or a tile code), checked: -1 with an exception. */
int read_grid(Search *s, PyObject *grid, int letters, int *tiles);
/* Item i of a rack's counts (a PySequence_Fast), an int of 0 to `most`, into *count; -1 with an exception
 * that names `whose` rack ("the", "our"...) otherwise. */
int read_rack_count(PyObject *seq, Py_ssize_t i, long most, const char *whose, long *count);

/* The position of C memory (a board of SQUARES tiles, a rack's counts and blanks, all valid) read into `s`,
 * as prepare_search reads one from Python (selfplay/'s games). */
void load_search(Search *s, const LexiconObject *lex, const RulesObject *rules, const int8_t *grid,
                 const int *counts, int blanks, struct TopK *top, int *tiles);

/* search.c */
/* search_all calls nothing of Python (-1: out of memory, no exception set); search_unlocked runs it
 * without the interpreter's lock when the rack holds a blank or UNLOCKED_TILES tiles or more (the searches
 * that take milliseconds; a short one would pay more for the lock handed over than it gives) and raises
 * nothing either. run_search: prepare_search then search_unlocked, MemoryError set on -1. */
#define UNLOCKED_TILES 6
int search_all(Search *s, LexiconObject *lex, RulesObject *rules, int tiles);
int search_unlocked(Search *s, LexiconObject *lex, RulesObject *rules, int tiles);
int run_search(Search *s, LexiconObject *lex, RulesObject *rules, PyObject *grid, PyObject *counts, int blanks);
void prepare_line(Search *s, const RulesObject *rules, int view, int line);
int line_anchors(const Search *s, const RulesObject *rules, int view, int line, int empty_board, int *anchors);
void search_anchor(Search *s, int anchor, int previous);
/* search_anchor without the moves whose left part has k rack tiles for each bit k of `skip` (k = 0: the
 * moves that start on the anchor or after the board tiles left of it) */
void search_anchor_depths(Search *s, int anchor, int previous, uint32_t skip);
uint32_t cross_check(const Search *s, int view, int line, int p, int *xsum);

/* The left parts of one rack (leftparts.c): every way to take up to `depth` tiles of the rack along the
 * DAWG from its root that a tile left on the rack can follow (the others are never extended and start
 * no longer one), in the order search.c's own walk meets them (a left part, then the longer ones that
 * start with it). */
typedef struct {
    DawgEdge node;  /* the DAWG node after the left part, its letters and word ends */
    uint32_t fits;  /* the letters that can follow it: the node's edges for which a rack tile is left */
    uint32_t skip;  /* the index after the longer left parts that start with it */
    int16_t points; /* its letters' points (the squares' multipliers left out) */
    int8_t depth;   /* its tiles */
    int8_t letter;  /* its last tile's letter */
} LeftPart;

typedef struct LeftParts {
    int counts[MAX_LETTERS];  /* the rack walked */
    int blanks;
    int depth;                /* the longest left part walked; -1: none walked yet */
    int failed;               /* out of memory: the search walks the DAWG itself */
    LeftPart *items;
    size_t len, cap;
    /* a rack with blanks: the left parts of its other tiles, for reply.c's blanks_begin (NULL: none yet) */
    struct LeftParts *without_blanks;
    LeftPart *spare;          /* the list walked deeper is made here, then the two swap */
    size_t spare_cap;
} LeftParts;

/* search.c: the words through square p from DAWG node `node`, for a search that writes moves out or
 * keeps the best going out (extend_body) */
void extend_all(Search *s, int p, const DawgEdge *at, int main, int wmul, int cross, int ntiles, int can_end);
void extend_out(Search *s, int p, const DawgEdge *at, int main, int wmul, int cross, int ntiles, int can_end);

/* The words through square p from the node `at` leads to (extend_all or extend_out). */
static inline void extend_edge(Search *s, int p, const DawgEdge *at, int main, int wmul, int cross, int ntiles,
                               int can_end) {
    if (s->out_only) {
        extend_out(s, p, at, main, wmul, cross, ntiles, can_end);
    } else {
        extend_all(s, p, at, main, wmul, cross, ntiles, can_end);
    }
}

/* The words through square p from DAWG node `node`. */
static inline void extend(Search *s, int p, uint32_t node, int main, int wmul, int cross, int ntiles, int can_end) {
    DawgEdge at = {node, s->mask[node], s->ends[node]};
    extend_edge(s, p, &at, main, wmul, cross, ntiles, can_end);
}

/* leftparts.c */
void left_parts_init(LeftParts *lp);
void left_parts_free(LeftParts *lp);
int left_parts_match(const LeftParts *lp, const int *counts, int blanks, int letters);
void left_parts_reset(LeftParts *lp, const int *counts, int blanks, int letters);
LeftParts *left_parts_without_blanks(LeftParts *lp, int letters);
int left_parts_ready(Search *s, LeftParts *lp, int limit);

/* equity.c */
void offer(Search *s, uint32_t blank_set, int score);
void top_insert(struct TopK *top, const Candidate *c);
/* -1 if a ranks before b in a top-k list: higher equity, then the tiles in reading order (shorter first). */
int candidate_order(const Candidate *a, const Candidate *b);
double leave_value(const LeaveTableObject *table, const int *counts, int blanks);
double leave_features_value(const LeaveTableObject *table, const int *present, const int *copies, int npresent,
                            int size, int vowels);
Py_ssize_t kept_layout(const Search *s, struct TopK *top, int *distinct, int *multiplicity, int *ndistinct);
int kept_counts(int index, const int *distinct, const int *multiplicity, int ndistinct, int letters, int *counts);
/* The best swaps into `list` (its k and items set; count 0): every non-empty set of rack tiles given back,
 * worth what is kept minus swap_cost; a swap's tiles in tiles[3 * j] (blanks -1 first, then letters). */
void swaps_top(const Search *s, const struct TopK *top, const double *kept_value, Py_ssize_t nkept,
               const int *distinct, const int *multiplicity, int ndistinct, double swap_cost, struct TopK *list);
PyObject *best_swaps(const Search *s, const struct TopK *top, const double *kept_value, Py_ssize_t nkept,
                     const int *distinct, const int *multiplicity, int ndistinct, int k, double swap_cost);

#endif
