/*
 * The static replies' interface (reply/): the kernel that finds a side's best reply on a board for a rack,
 * with its data types (Kernel and what it holds), as the playouts (playout/) set it up and call it:
 * best_move, the replies shared between the candidates of a draw (share.c), the cross-checks of a board
 * (crossboard.c), the anchors' shapes kept per line (anchorshape.c). The group's internals are in
 * reply_internal.h.
 */

#ifndef ENGINE_REPLY_H
#define ENGINE_REPLY_H

#include "../movegen/movegen.h"

#define KIND_PLACE 0
#define KIND_SWAP 1
#define KIND_PASS 2

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
    int16_t kept;     /* a shared line's (share.c): 1 + its index among the line's kept spans (0: none) */
    int8_t searched;  /* a shared line's kept span: searched in full, its moves in the line's best */
} WholeSpan;

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

/* anchorshape.c */
typedef struct Shapes Shapes;
Shapes *shapes_new(int nboards);
void shapes_free(Shapes *shapes);

/* reply.c */
void best_move(Kernel *k, int8_t *grid, int ntiles, const Hand *hand, const Hand *other, int bag, uint32_t same,
               Play *play);

/* share.c */
typedef struct Share Share;
Share *share_new(int ncand);
void share_free(Share *share);
void share_prepare(Kernel *k, Share *share, const Cross *cross, const int8_t *grids, const Cross *crosses,
                   const uint32_t *touched, int ncand);
void share_copy_prepared(Share *to, const Share *from, int ncand);
void share_next_draw(Share *share);
uint32_t share_changed(const Share *share, int candidate);
void shared_reply(Kernel *k, Share *share, const int8_t *grid, const Hand *hand, int bag, uint32_t changed,
                  Play *play);
void shared_our_reply(Kernel *k, Share *share, const int8_t *grid, const Hand *hand, int bag, uint32_t changed,
                      Play *play);

#endif
