/*
 * The playouts' internals (playout/): a kernel call's state (Playouts: the position, the candidates, the
 * bag), set up by playout.c and driven by it or by a PlayoutSession (session.c), and the memo of the static
 * replies played (replymemo.c).
 */

#ifndef ENGINE_PLAYOUTS_H
#define ENGINE_PLAYOUTS_H

#include "../reply/reply.h"
#include "playout.h"

#define MAX_WIDTH 1024  /* unseen tiles per draw */
#define MAX_PLIES 8     /* static replies a playout plays after its candidate */
#define TO_END_REPLIES 16  /* with to_end, the most replies played on once the bag is empty (playout.c) */

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
/* session.c: the ints of an array('i') read by read_ints, copied (PyMem_RawFree it; NULL with MemoryError):
 * a kernel that runs without the interpreter's lock reads the copy, which no other thread can write to */
int32_t *copied_ints(const Py_buffer *view);
/* session.c: playouts_play without the interpreter's lock (its lexicon held meanwhile, lexicon.h); the
 * draws and `playing` must be C memory of the caller's (copied_ints) */
int playouts_play_unlocked(Playouts *p, const int32_t *draws, Py_ssize_t iterations, const int *playing,
                           int nplaying, double *values);

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

#endif
