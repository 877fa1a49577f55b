/*
 * The endgame's nodes one ply above the leaves (depth 1), valued without copying or sorting their moves.
 *
 * At depth 1 a move's value needs no search: going out, its points and twice the other's rack;
 * otherwise its points less the leaf's guess for the reply (the left rack's points less the other's);
 * the pass, the other's rack points less the mover's. value_of's loop tries the moves in their order
 * until one reaches beta, counting a node for each reply that is a leaf. The scan goes over the line
 * cache's moves as they are and finds what that loop would: the first move in order that reaches beta,
 * or when none does, the best one (the first in order among equals), with the same count of nodes, so
 * the search visits the same nodes and stops at the same budget (the tests compare the two).
 */

#include "solver.h"

/* Whether move a (of order oa) comes before move b (of order ob): the higher order first, then the
 * tiles in reading order, as moves.c's `before`. */
static int precedes(int oa, const EMove *a, int ob, const EMove *b) {
    if (oa != ob) {
        return oa > ob;
    }
    int n = a->n < b->n ? a->n : b->n;
    for (int i = 0; i < n; i++) {
        if (a->square[i] != b->square[i]) {
            return a->square[i] < b->square[i];
        }
        if (a->tile[i] != b->tile[i]) {
            return a->tile[i] < b->tile[i];
        }
    }
    return a->n < b->n;
}

typedef struct {
    const ERack *mover;
    uint32_t rmask;
    int blanks;
    int bonus;       /* going out: twice the other's rack */
    int base;        /* the other's rack points less the mover's */
    const EMove *first;  /* the move tried before the others (a placement), or NULL */
} Scan;

/* Whether the mover can play cached move c (always, when `whole`: its slot's rack is the mover's) and it is
 * not the one tried first; its order and value. */
static inline int take(const Scan *scan, int whole, const CMove *c, int *order, int *value) {
    if (!whole && ((c->letters & ~scan->rmask) != 0 || c->blanks > scan->blanks ||
                   (c->repeats && !holds(scan->mover, &c->move)))) {
        return 0;
    }
    if (scan->first != NULL && same_move(&c->move, scan->first)) {
        return 0;
    }
    int out = c->move.n == scan->mover->size;
    *order = c->order + (out ? scan->bonus : 0);
    *value = out ? c->move.score + scan->bonus : c->move.score + c->move.played + scan->base;
    return 1;
}

/* A move of the scan that does not go out (its reply is a leaf), with its order. */
struct Leaf {
    int order;
    const EMove *move;
};

/* Room for `count` leaves in sv->leaves; -1 (the failure recorded) when memory ran out. */
static int leaves_room(Solver *sv, size_t count) {
    size_t cap = sv->leaves_cap;
    struct Leaf *grown = GROWN_ARRAY(sv->leaves, cap, count, 256);
    if (grown == NULL) {
        failed_memory(sv);
        return -1;
    }
    sv->leaves = grown;
    sv->leaves_cap = cap;
    return 0;
}

/* Free the leaves' room (with the solver). */
void leaf_scan_free(Solver *sv) {
    PyMem_RawFree(sv->leaves);
}

/* The moves of a depth-1 node after the move tried first (`first`, or NULL; *best_value and *best hold
 * its value and it, or -INFINITE_VALUE): *best_value and *best become what value_of's loop would
 * leave, and the leaves it would visit are counted (sv->stop set when the budget runs out among them).
 * -1 (the failure recorded) when memory ran out. */
int leaf_scan(Solver *sv, const ERack *mover, const ERack *other, int scoreless, int beta, const EMove *first,
              int *best_value, EMove *best) {
    const LineSlot *taken[LINES];
    sv->generations++;
    bring_up_to_date(sv);
    if (lines_ready(sv, mover, taken) < 0) {
        return -1;
    }
    EMove tried;
    Scan scan = {mover, mover->letters, mover->counts[MAX_LETTERS], 2 * other->points, other->points - mover->points,
                 NULL};
    if (first != NULL && first->n > 0) {
        tried = *first;
        scan.first = &tried;
    }
    size_t total = 0;
    for (int index = 0; index < LINES; index++) {
        total += taken[index]->len;
    }
    if (leaves_room(sv, total) < 0) {
        return -1;
    }
    /* the moves whose replies are leaves, kept with their orders: those before the hit in order are counted */
    struct Leaf *leaf = sv->leaves;
    long leaves = 0;
    const EMove *top = NULL, *hit = NULL;
    int top_value = -INFINITE_VALUE, top_order = 0, hit_value = 0, hit_order = 0;
    for (int index = 0; index < LINES; index++) {
        int whole = taken[index]->size == mover->size;
        for (size_t i = 0; i < taken[index]->len; i++) {
            const CMove *c = &taken[index]->moves[i];
            int order, value;
            if (!take(&scan, whole, c, &order, &value)) {
                continue;
            }
            if (c->move.n != mover->size) {
                leaf[leaves].order = order;
                leaf[leaves++].move = &c->move;
            }
            if (top == NULL || value > top_value || (value == top_value && precedes(order, &c->move, top_order, top))) {
                top = &c->move, top_value = value, top_order = order;
            }
            if (value >= beta && (hit == NULL || precedes(order, &c->move, hit_order, hit))) {
                hit = &c->move, hit_value = value, hit_order = order;
            }
        }
    }
    long count;
    EMove pass;
    memset(&pass, 0, sizeof(EMove));
    if (hit != NULL) {
        /* the loop stops at the hit: the leaves before it in order, and its own */
        count = hit->n != mover->size;
        for (long i = 0; i < leaves; i++) {
            count += precedes(leaf[i].order, leaf[i].move, hit_order, hit);
        }
        top = hit, top_value = hit_value;
    } else {
        count = leaves;
        if (first == NULL || first->n > 0) {
            /* the pass, last in order */
            count += scoreless + 1 < sv->scoreless_to_end;
            int value = other->points - mover->points;
            if (top == NULL || value > top_value) {
                top = &pass, top_value = value;
            }
        }
    }
    if (top != NULL && top_value > *best_value) {
        *best_value = top_value;
        *best = *top;
    }
    if (count > 0) {
        sv->cut = 1;
    }
    for (long k = 0; k < count; k++) {
        sv->nodes++;
        if (out_of_budget(sv)) {
            return 0;
        }
    }
    return 0;
}
