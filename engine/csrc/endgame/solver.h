/*
 * The endgame's internals (endgame/): the solver's state (Solver) and the functions its files call of each
 * other. Only endgame/ includes it; the module calls the group through endgame.h.
 */

#ifndef ENGINE_SOLVER_H
#define ENGINE_SOLVER_H

#include "../movegen/movegen.h"
#include "../base/bigmem.h"

#define WHOLE 0xFFFF        /* depth of an entry whose subtree was searched to its end (above MAX_DEPTH) */
#define FLAG_EXACT 0
#define FLAG_LOWER 1
#define FLAG_UPPER 2
#define INFINITE_VALUE 1000000000
#define NODES_EVERY 64     /* the node budget is looked at every 64 nodes, as in the reference */
#define CLOCK_EVERY 64     /* and the clock (a move generation with two blanks can take milliseconds) */
#define MAX_DEPTH 256
#define RACK_SLOTS (MAX_LETTERS + 1)  /* the letters, then the blank */
#define TABLE_BITS_MAX 24
#define TABLE_GROWTHS 4  /* the table starts 2^4 times smaller than its full size (at least 16 entries) and grows as it fills */
#define ORDER_BIAS (1 << 30)
/* move order: points, twice the other's rack when going out, and per tile played and per point of
 * tile played (emptying the rack ends the game; a heavy tile kept costs its points at the end) */
#ifndef ASPIRATION
#define ASPIRATION 10  /* half the width of the root's window around the last iteration's value */
#endif
#ifndef SHALLOW_STEP
#define SHALLOW_STEP 2  /* the iterations of deepening before the whole depth: 2 (solve.c) */
#endif
#ifndef SHALLOW_LAST
#define SHALLOW_LAST 2
#endif
#ifndef LEAF_SCAN
#define LEAF_SCAN 1  /* depth-1 nodes valued in the line cache (leaves.c) */
#endif
#ifndef ORDER_TILES
#define ORDER_TILES 2
#endif
#ifndef ORDER_POINTS
#define ORDER_POINTS 7  /* 5 to 8 take about as many nodes on the real endgames, 2 half as many again */
#endif

#ifndef KILLERS
#define KILLERS 16       /* moves going out kept per depth (killers.c): the replies of outreplies.c */
#endif
#ifndef KILLERS_TRIED
#define KILLERS_TRIED 4  /* of which the latest are tried first at a node (killers.c) */
#endif

#define MOVE_TILES 8  /* the endgame takes racks of up to 8 tiles (no ruleset has more than 7) */

typedef struct {
    uint8_t n;                 /* tiles placed; 0 for a pass */
    uint8_t view;
    int16_t score;
    int16_t played;            /* the points of its tiles that are not blanks (what it takes off the rack's) */
    uint8_t square[MOVE_TILES]; /* row * SIZE + col */
    uint8_t tile[MOVE_TILES];
} EMove;

/* A transposition table entry: 32 bytes, two to a cache line of the processor (an EMove in it made 40, and
 * half the entries lay across two lines). Its best move is packed (negamax.c's packed and unpacked): its
 * tiles lie on one line of its view, so each square is its place along that line, 4 bits; the points of
 * its tiles are worked out again. */
typedef struct {
    uint64_t key;
    int32_t value;
    int16_t score;     /* the best move's */
    uint16_t depth;    /* WHOLE when the subtree was searched to its end */
    uint8_t flag;
    uint8_t used;
    uint8_t n;         /* the best move's tiles; 0 for a pass */
    uint8_t where;     /* its line, and its view times 16 */
    uint8_t place[MOVE_TILES / 2];  /* tile k's place along the line in the low (k even) or high 4 bits */
    uint8_t tile[MOVE_TILES];
} Entry;
_Static_assert(sizeof(Entry) == 32, "a table entry is 32 bytes");

typedef struct {
    int8_t counts[RACK_SLOTS];
    int size;
    int points;
    uint32_t letters;  /* the letters of which it holds a tile (not the blanks) */
    int side;          /* 0: the root's mover, 1: the other (the line cache is kept per side) */
    uint64_t hash[2];  /* as the mover, as the other */
    uint64_t held;     /* the counts packed, a byte each (racks_packed): those of the side's letters and blank */
} ERack;

/* A move of the line cache, with what it needs from the rack (in this order 32 bytes, not 36: two to a
 * cache line of the processor). */
typedef struct {
    int order;         /* its place in the move order but for going out (see pushed_moves) */
    uint32_t letters;  /* the letters of its tiles that are not blanks */
    EMove move;
    uint8_t blanks;    /* its tiles on blanks */
    uint8_t repeats;   /* whether a letter comes twice among the tiles that are not blanks */
} CMove;
_Static_assert(sizeof(CMove) == 32, "a line cache move is 32 bytes");

#define OWN_MOVES UINT64_MAX  /* LineSlot.start of moves that are not in the line memo's ring */

/* The moves of one line of one view for one side, as generated for a rack (see linecache.c): where the line
 * memo keeps them in its ring (not copied), else in the way's own array (LineWays.own). */
typedef struct {
    uint64_t held;     /* the rack's counts packed (ERack.held) */
    int size;          /* the rack's tiles: a mover whose rack the slot's holds has the same counts when as many */
    const CMove *moves;
    size_t len;
    uint64_t start;    /* where the ring's moves were written (memo_intact), or OWN_MOVES */
} LineSlot;
_Static_assert(sizeof(LineSlot) <= 64, "a line slot fits a cache line of the processor");

#ifndef LINE_WAYS
#define LINE_WAYS 7  /* states kept per line and side: the least recently taken one makes room (on the real
                      * endgames 7 runs 1.3% fewer instructions than 8, 6 about as few, 12 more: each look-up
                      * scans the ways) */
#endif

/* The states of one line kept for one side: what names each way's state apart from its moves, so that a
 * look-up reads a cache line or two of the processor, not one per way. */
typedef struct {
    uint64_t stamp[LINE_WAYS];  /* the line's stamp when the way was last taken (0: never generated) */
    long long used[LINE_WAYS];  /* the solver's generation count when last taken */
    uint64_t key[LINE_WAYS];    /* the line's state when generated (line_key; 0 when not worked out) */
    uint64_t check[LINE_WAYS];
    uint64_t fill[LINE_WAYS];   /* which filling of the way's slot (Solver.fills: they only grow) it holds */
    uint64_t newest;            /* the highest stamp a way was given (a line's new stamp is above all before) */
    LineSlot slot[LINE_WAYS];
    CMove *own[LINE_WAYS];      /* each way's own array of moves (those the ring does not keep), of cap moves */
    uint32_t cap[LINE_WAYS];
} LineWays;

#define LINES (2 * SIZE)  /* view * SIZE + line */

/* What a node's look-up of the lines found (linecache.c), kept per ply: each line's way, and the fillings
 * made by then (a way whose LineWays.fill is at most `fills` was not filled again since). */
typedef struct {
    long long serial;      /* the node that looked up (Solver.path_serial); 0: none */
    uint64_t fills;        /* Solver.fills after the look-up */
    int8_t way[LINES];
} LineSeen;

/* A line state's moves kept in the line memo (linestore.c). */
typedef struct {
    uint64_t key, check;       /* the state's two hashes (linecache.c's line_key) with the rack's; 0: none */
    uint64_t start;            /* where its moves were written in the ring (counted from the first write) */
    uint32_t len;
} MemoEntry;

#define MEMO_BITS 18  /* line states kept by default (linestore.c), 8 MB, and twice as many moves, 16.8 MB */
#define MEMO_BITS_MAX 22
#define RING_MARGIN 8192  /* the most moves a node may write into the memo's ring (memo_guard), 256 kB */
#ifndef CROSS_WAYS
#define CROSS_WAYS 8      /* cross-checks kept per square and view (crosscache.c; on the real endgames 4 missed 18%
                           * of the look-ups, each a cross_check of about 600 instructions; 12 ran 0.1% fewer
                           * instructions than 8 in a table half as large again) */
#endif

/* A cross-check worked out before: the runs of tiles either side of the square, and what they allow. */
typedef struct {
    uint64_t run[2];      /* the tiles of the run before the square, then of the one after, 0 beyond them */
    uint32_t allowed;
    int sum;
    uint8_t shape;        /* 1 + the runs' lengths (before * SIZE + after); 0: no entry */
} CrossEntry;
typedef struct {
    Search gen;        /* the move generator; gen.grid is the solver's board */
    LexiconObject *lex;
    RulesObject *rules;
    int tiles;         /* tiles on the board */
    const int *points;
    int letters;
    int scoreless_to_end;
    EMove *moves;      /* a stack: each node's moves above its parent's */
    uint64_t *keys;    /* a stack beside it: their sort keys */
    long long generations;
    size_t nmoves, cap;
    Entry *table;
    size_t table_bytes;
    int table_mapped, memo_mapped, pool_mapped;  /* how each big table was had (bigmem.c) */
    uint64_t table_mask, table_mask_most;  /* its size less 1, now and grown to the full (negamax.c's table_grown) */
    uint64_t stored, table_limit;  /* entries in use, and how many may be before it grows or entries are overwritten */
    long long nodes, max_nodes;
    PyObject *clock;   /* None or a callable returning seconds, called with the lock (solve.c keeps it) */
    int c_clock;       /* instead of clock: 0 none, else the C clock time.monotonic, perf_counter or process_time
                        * read (CLOCK_MONOTONIC, CLOCK_PROCESS_CPUTIME_ID), which needs no lock */
    double deadline;
    int stop;          /* 1: out of budget; 2: an error (in `failure`, or an exception set by the clock) */
    /* what went wrong in the search, raised by solve.c once the interpreter's lock is back (the search
     * runs without it): 0 nothing, FAILED_MEMORY, FAILED_CHECK (an AssertionError of check_lines with
     * failure_text) */
    int failure;
    char failure_text[200];
    /* the cross-checks of every empty square in both views (the generator reads them), kept up to date
     * as moves are placed and taken back; `saved` holds the values a placement overwrote */
    uint32_t cross_allowed[2 * SQUARES];
    int cross_sum[2 * SQUARES];
    struct {
        uint16_t index;
        uint8_t row, col;  /* the square's (so that no division finds them) */
        uint32_t allowed;
        int sum;
    } saved[MAX_DEPTH * MOVE_TILES * 4];
    int nsaved;
    int ncomputed;     /* saved[0 .. ncomputed) are worked out on the board; the rest are to do */
    int cut;
    /* the line cache (linecache.c): each line's stamp names its state (tiles and cross-checks); a new
     * one is handed out when a move changes it and the old one comes back when the move is taken back */
    int use_lines;     /* 0: every node generates on the whole board, as before the cache */
    int check_lines;   /* 1: every node's cached moves (and killer, see killers.c) are compared with a fresh
                        * generation */
    int use_killers;   /* 1: the move going out that cut off the last node of a depth is tried first at the
                        * next (killers.c) */
    int use_memo;      /* 1: a line the cache lacks takes the moves of the same state from the line memo
                        * (linestore.c) before it is generated again */
    MemoEntry *memo;
    uint64_t memo_mask;
    CMove *pool;         /* a ring of pool_size moves */
    uint64_t pool_size, pool_written;
    uint64_t ring_base, ring_margin, ring_floor;  /* memo_guard's */
    int use_out_bound; /* 1: a move that leaves the other a reply going out worth at least alpha is not
                        * searched (outreplies.c) */
    uint64_t line_stamp[LINES];
    /* [view * SQUARES + square]: what line_key hashes of each square, kept as the board and the cross-checks
     * change (negamax.c): a tile, or an empty square's cross-check and cross word's points */
    uint64_t square_state[2 * SQUARES];
    uint64_t key_stamp[LINES];   /* the stamp at which each line's state was last hashed (linecache.c) */
    uint64_t key_of[LINES], check_of[LINES];
    uint64_t next_stamp;
    struct {
        int line;
        uint64_t stamp;
    } stamp_saved[MAX_DEPTH * LINES];
    int nstamps;
    uint16_t occupied[2][SIZE];  /* [view][line]: bit p when square p of the line holds a tile */
    LineWays lines[2][LINES];    /* [side][view * SIZE + line] */
    /* [side][slot]: the byte of ERack.held that holds the count of a letter (the blank: MAX_LETTERS) of the side's
     * rack at the root, 0xFF for one it has none of (racks_packed): a side's rack only loses tiles */
    uint8_t held_byte[2][RACK_SLOTS];
    struct Leaf *leaves;         /* leaf_scan's leaves (leaves.c), room for leaves_cap */
    size_t leaves_cap;
    CMove *fresh;                /* the moves of the line being generated (linecache.c's fresh_move), nfresh of them */
    size_t nfresh, fresh_cap;
    uint64_t fills;              /* slots filled so far (LineWays.fill) */
    int ply;                     /* moves (passes too) on the path from the root to the node */
    long long serial;            /* nodes entered so far */
    long long path_serial[MAX_DEPTH + 1];  /* [ply]: the serial of the node at that ply of the path */
    LineSeen seen[MAX_DEPTH + 1];          /* [ply]: the last look-up at that ply */
    uint32_t ply_dirty[MAX_DEPTH + 1];     /* [ply]: the lines whose stamps the path's move from that ply changed
                                            * (0: a pass) */
    uint32_t dirty;              /* lines the move being put on the board changes */
    int passes;                  /* passes on the path from the root to the node */
    /* at the root of an iteration: a move proved better than the one tried first (the last iteration's
     * best), its value (exact, or a lower bound when it reached beta); root_better: 0 when none.
     * root_floor: what such a move must beat besides the move tried first (when the root's window
     * failed low, the last iteration's best is only known to be at most its bottom; the search
     * again with the whole window tries another move first) */
    int root_better;
    int root_floor;
    int root_value;
    EMove root_move;
    EMove killers[MAX_DEPTH + 1][KILLERS];  /* [depth]: the last moves going out that cut off a node of that
                                             * depth, the latest first */
    /* [depth][j]: whether killers[depth][j] lay on the board, rack aside (killers.c's on_board), when its line
     * last had `stamp` (0: not yet worked out), and its score there */
    struct {
        uint64_t stamp;
        int score;
        int fits;
    } killer_line[MAX_DEPTH + 1][KILLERS];
    CrossEntry crosses[2 * SQUARES][CROSS_WAYS];  /* [view * SQUARES + square] (crosscache.c) */
    uint8_t cross_next[2 * SQUARES];              /* the way to overwrite next */
} Solver;

/* The other's replies going out that a move may leave playable (outreplies.c): their scores, and per square
 * the replies in whose zone it lies (bit i: reply i). */
typedef struct {
    int count;
    int value[KILLERS];
    uint16_t zones[SQUARES];
} OutReplies;
_Static_assert(KILLERS <= 16, "a reply is a bit of OutReplies.zones");

typedef struct {
    int saved, computed;  /* Solver.nsaved and Solver.ncomputed before a move was put on the board */
    int stamps;           /* Solver.nstamps before */
} Mark;

/* zobrist.c: the Zobrist keys of a square's tile, of a rack slot's count ([side as mover 0, as other 1]),
 * of the scoreless turns in a row */
extern uint64_t square_keys[SQUARES][TILE_CODES];
extern uint64_t rack_keys[2][RACK_SLOTS][MAX_RACK + 1];
extern uint64_t scoreless_keys[64];

/* What line_key hashes of a square holding tile t (EMPTY: none) whose cross-check and cross word's points
 * are allowed and sum. */
static inline uint64_t square_value(int t, uint32_t allowed, int sum) {
    return t != EMPTY ? (uint64_t)(uint8_t)t | 0x100u : ((uint64_t)allowed << 32) | (uint64_t)(uint32_t)(sum + 2) << 9;
}

/* The run of set bits of `bits` (at most 15: a line's Solver.occupied) through bit p, set or not (the runs either
 * side joined through it): its first bit *first and its last *last, p itself when both neighbours are clear. */
static inline void bit_run(uint32_t bits, int p, int *first, int *last) {
    uint32_t below = ~bits & ((1u << p) - 1);
    *first = below == 0 ? 0 : 32 - __builtin_clz(below);  /* above the highest clear bit below p */
    *last = p + LOWEST(~bits >> (p + 1));                 /* (bits past the line's end are clear) */
}

/* The move's place in the order but for going out: its points, ORDER_TILES per tile and ORDER_POINTS
 * per point of tile played (moves.c). */
static inline int move_order(const EMove *move) {
    return move->score + ORDER_TILES * move->n + ORDER_POINTS * move->played;
}

/* solve.c: an error of the search recorded, to be raised when the lock is back (a later one replaces it, as a
 * later exception would) */
#define FAILED_MEMORY 1
#define FAILED_CHECK 2
void failed_memory(Solver *sv);
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void failed_check(Solver *sv, const char *format, ...);
/* solve.c: the C clock sv->c_clock's seconds, as Python's time module gives them */
double c_clock_now(int c_clock);

/* zobrist.c */
void make_keys(void);
void rack_rehash(ERack *rack);
void racks_packed(Solver *sv, ERack *mine, ERack *theirs);
/* negamax.c, moves.c */
int table_start(Solver *sv, int table_bits);
void check_all(Solver *sv);
void bring_up_to_date(Solver *sv);
long pushed_moves(Solver *sv, const ERack *mover, const ERack *other, const EMove *first);
int grow_stack(Solver *sv, size_t need);
int same_move(const EMove *a, const EMove *b);
int out_of_budget(Solver *sv);
void emove_from(const Solver *sv, const int32_t *m, EMove *e);
size_t pick(const EMove *moves, uint64_t *keys, long count, long i);
int value_of(Solver *sv, int depth, int alpha, int beta, const ERack *mover, const ERack *other, int scoreless,
             uint64_t board_key, EMove *best_out);

/* linecache.c */
void load_rack(Search *s, const ERack *mover, int letters);
void lines_start(Solver *sv);
void lines_stamp(Solver *sv);
void lines_restore(Solver *sv, const EMove *move, int stamps);
int lines_ready(Solver *sv, const ERack *mover, const LineSlot **taken);
int holds(const ERack *rack, const EMove *move);
long line_moves(Solver *sv, const ERack *mover, int bonus);
int check_line_moves(Solver *sv, const ERack *mover, long count);
void lines_free(Solver *sv);
/* linestore.c */
int memo_start(Solver *sv, int bits);
void memo_free(Solver *sv);
void memo_prefetch(const Solver *sv, const ERack *mover, uint64_t key);
const CMove *memo_find(const Solver *sv, const ERack *mover, uint64_t key, uint64_t check, size_t *len,
                       uint64_t *start);
CMove *memo_room(Solver *sv, size_t len, uint64_t *start);
void memo_keep(Solver *sv, const ERack *mover, uint64_t key, uint64_t check, uint64_t start, size_t len);
/* From now on until the next call, the moves of the line memo's ring that memo_intact finds there are not
 * written over: the moves written meanwhile (memo_room) are at most ring_margin, so those written from
 * ring_floor on stay. */
static inline void memo_guard(Solver *sv) {
    sv->ring_base = sv->pool_written;
    uint64_t end = sv->ring_base + sv->ring_margin;
    sv->ring_floor = end > sv->pool_size ? end - sv->pool_size : 0;
}
/* Whether the moves written `start`-th on into the ring (counted from the first; OWN_MOVES: none) stay there
 * until the next memo_guard. */
static inline int memo_intact(const Solver *sv, uint64_t start) {
    return start >= sv->ring_floor;
}
/* crosscache.c */
uint32_t cached_cross_check(Solver *sv, int view, int row, int col, int *sum);
/* killers.c */
int replayed(Solver *sv, const ERack *mover, EMove *move);
int killer_replayed(Solver *sv, int depth, int j, const ERack *mover, EMove *move);
int killer_move(Solver *sv, int depth, const ERack *mover, EMove *move);
void killer_keep(Solver *sv, int depth, const ERack *mover, const EMove *move);
int check_replay(Solver *sv, int depth, const ERack *mover, const ERack *other);
/* outreplies.c */
int out_replies(Solver *sv, int depth, const ERack *other, OutReplies *out);
int out_bounded(const Solver *sv, const OutReplies *r, const EMove *move, const ERack *mover, int scoreless, int alpha,
                int *bound);
long out_pruned(const Solver *sv, const OutReplies *r, const EMove *moves, uint64_t *keys, long start, long count,
                const ERack *mover, int scoreless, int alpha, int *pruned, size_t *pruned_index);
/* leaves.c */
int leaf_scan(Solver *sv, const ERack *mover, const ERack *other, int scoreless, int beta, const EMove *first,
              int *best_value, EMove *best);
void leaf_scan_free(Solver *sv);

#endif
