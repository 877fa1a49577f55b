/*
 * The other's replies going out: a bound that spares a move its search.
 *
 * Most nodes that try all their moves (none reaches beta) spend one child node on each: the other
 * replies by going out (often the killer of the child's depth, killers.c) and the move falls below alpha.
 * Such a reply P, a move of the other on the board as it is, stays a move, with the same score, after
 * any move of the mover that puts no tile in P's zone: P's squares, the squares of the runs of tiles
 * through them along both lines, and the square just beyond each end of those runs (a word changes
 * only when a tile goes on a square of its run or at one of its ends; the premium squares stay). After
 * such a move M the other can go out with P, which ends the game, so the value of M for the mover is at
 * most score(M) - score(P) - 2 * (the mover's rack points less those of M's tiles); a pass leaves the
 * board as it is. When that is at most alpha, M cannot raise alpha, and the bound is what a search
 * of M would show (a value no higher than alpha, the node's own value an upper bound as before): M is
 * not searched. A search cut off at any depth values P exactly (the game ends), so the bound holds in
 * the shallow iterations too, as long as the reply is not a leaf (depth 2 and up).
 *
 * The replies are the child depth's killers that the other can play on the board as it is
 * (`replayed`): they are what the child nodes would try first.
 */

#include "solver.h"

/* Add reply `bit` (1 << its index) to OutReplies.zones on P's zone (see above) on the board as it is (P's
 * squares empty). */
static void zone_of(const Solver *sv, const EMove *p, uint16_t bit, uint16_t *zones) {
    for (int k = 0; k < p->n; k++) {
        int row = p->square[k] / SIZE, col = p->square[k] % SIZE;
        int top, bottom, left, right;
        run_ends(sv->gen.grid, row, col, &top, &bottom, &left, &right);
        for (int r = top > 0 ? top - 1 : 0; r <= (bottom < SIZE - 1 ? bottom + 1 : bottom); r++) {
            zones[r * SIZE + col] |= bit;
        }
        for (int c = left > 0 ? left - 1 : 0; c <= (right < SIZE - 1 ? right + 1 : right); c++) {
            zones[row * SIZE + c] |= bit;
        }
    }
}

/* The other's moves going out among the killers of `depth` (the child's), as moves on the board as it
 * is, with their zones; how many. */
int out_replies(Solver *sv, int depth, const ERack *other, OutReplies *out) {
    out->count = 0;
    if (!sv->use_out_bound || !sv->use_killers || depth < 1 || depth > MAX_DEPTH || other->size == 0) {
        return 0;
    }
    EMove found[KILLERS];
    for (int j = 0; j < KILLERS; j++) {
        EMove p;
        if (sv->killers[depth][j].n != other->size || !killer_replayed(sv, depth, j, other, &p)) {
            continue;
        }
        /* kept in decreasing order of score (after those of the same): the first a move leaves playable is
         * the best */
        int i = out->count++;
        while (i > 0 && out->value[i - 1] < p.score) {
            out->value[i] = out->value[i - 1];
            found[i] = found[i - 1];
            i--;
        }
        out->value[i] = p.score;  /* twice the mover's rack is counted per move (out_bound) */
        found[i] = p;
    }
    if (out->count > 0) {
        memset(out->zones, 0, sizeof(out->zones));
        for (int i = 0; i < out->count; i++) {
            zone_of(sv, &found[i], (uint16_t)(1u << i), out->zones);
        }
    }
    return out->count;
}

/* Whether `move` (not going out) of the mover is proved no better than alpha by a reply going out that
 * it leaves playable; its bound goes to *bound. The first reply in order whose zone the move's tiles miss
 * is the best of them: when it keeps the move at most alpha it is the one taken, else none does (the
 * later ones score less). */
static inline int out_bound(const OutReplies *r, const EMove *move, const ERack *mover, int alpha, int *bound) {
    unsigned touched = 0;
    for (int k = 0; k < move->n; k++) {
        touched |= r->zones[move->square[k]];
    }
    unsigned clear = ~touched & ((1u << r->count) - 1);
    if (clear == 0) {
        return 0;
    }
    int value = move->score - 2 * (mover->points - move->played) - r->value[LOWEST(clear)];
    if (value > alpha) {
        return 0;
    }
    *bound = value;
    return 1;
}

/* Whether `move` may take the bound (it does not go out, and a pass does not end the game by scoreless
 * turns, so the other replies) and that bound keeps it at most alpha; the bound to *bound. */
static inline int bounded(const Solver *sv, const OutReplies *r, const EMove *move, const ERack *mover, int scoreless,
                          int alpha, int *bound) {
    return move->n < mover->size && (move->n > 0 || scoreless + 1 < sv->scoreless_to_end) &&
           out_bound(r, move, mover, alpha, bound);
}

/* bounded for negamax.c (its moves tried one at a time); out_pruned's loop has it inlined, which the compiler
 * does not do with this function itself */
int out_bounded(const Solver *sv, const OutReplies *r, const EMove *move, const ERack *mover, int scoreless, int alpha,
                int *bound) {
    return bounded(sv, r, move, mover, scoreless, alpha, bound);
}

/* The node's keys from `start` on less those of the moves the bound keeps at most alpha (the others kept in
 * their order); how many keys are left. The best such bound goes to *pruned (left as it is when none beats
 * it) and the index of its move (the first among equals in the keys' order) to *pruned_index. */
long out_pruned(const Solver *sv, const OutReplies *r, const EMove *moves, uint64_t *keys, long start, long count,
                const ERack *mover, int scoreless, int alpha, int *pruned, size_t *pruned_index) {
    long kept = start;
    for (long i = start; i < count; i++) {
        uint64_t key = keys[i];
        const EMove *move = &moves[key & 0xFFFFFFFFu];
        int bound;
        if (bounded(sv, r, move, mover, scoreless, alpha, &bound)) {
            if (bound > *pruned) {
                *pruned = bound;
                *pruned_index = key & 0xFFFFFFFFu;
            }
        } else {
            keys[kept++] = key;
        }
    }
    return kept;
}
