/*
 * The endgame's line memo: the moves of a line state, kept by what the state is rather than by when it
 * came about.
 *
 * The line cache (linecache.c) knows a line by its stamp, and a move put on the board gives every line
 * it changes a stamp never seen before. But the search puts the same few moves on the board again and
 * again under different siblings: a reply that does not touch the sibling's tiles leaves the lines it
 * changes just as it left them under the sibling before, and only their stamps differ. On the real
 * endgames about 85% of the lines the cache generated again had been generated before with the same
 * tiles, cross-checks and rack (g4: 1,775,566 of 2,131,966). What the generator finds on a line depends
 * on nothing else (see linecache.c's line_key), so the memo keeps the moves of each state generated, by
 * the state's key and the rack's, and a line the cache lacks takes them from there before it is
 * generated again: the very moves of the generation, in the same order.
 *
 * A state is known by two 64-bit hashes of it (line_key), which must both match: two states taken for
 * one would need a 128-bit collision. The entries are small (a table of 2^memo_bits, MEMO_BITS by
 * default), so that the table stays in the processor's cache: a first version that kept every state
 * whole (140 bytes) to compare it byte by byte ran fewer instructions and took longer. A state may lie in
 * either place of the pair its key names (two entries of 32 bytes: one cache line of the processor), a
 * new one taking the place of the older: on the real endgames 1.2% fewer instructions in all than one
 * place per state, as fewer lines are generated again. The moves are in a ring of twice as many moves
 * (the oldest overwritten first; a state whose moves were overwritten is generated again). Both are
 * the solver's, freed with it.
 *
 * The moves are generated straight into the ring, and the line cache's slots see them where they lie: a line
 * the memo has costs no copy (the copies in and out of the ring were 3% of the time, a miss of the processor's
 * cache each). A slot whose moves the ring has written over since is looked up again like a line that
 * changed. So that the moves a node took stay while it reads them, its own writes into the ring are at most
 * ring_margin moves (memo_guard, memo_room): a line that would write more is generated into its way's own
 * array and not kept.
 */

#include "solver.h"

/* Room for a memo of 2^bits states and twice as many moves; -1 (the failure recorded) when memory ran out. */
int memo_start(Solver *sv, int bits) {
    sv->memo_mask = ((uint64_t)1 << bits) - 1;
    sv->pool_size = (uint64_t)2 << bits;
    sv->memo = big_calloc(((size_t)1 << bits) * sizeof(MemoEntry), &sv->memo_mapped);
    sv->pool = big_calloc(sizeof(CMove) * sv->pool_size, &sv->pool_mapped);
    if (sv->memo == NULL || sv->pool == NULL) {
        failed_memory(sv);
        return -1;
    }
    sv->pool_written = sv->ring_base = 0;
    /* the most moves a node may write into the ring (memo_guard): an eighth of it, at most RING_MARGIN */
    sv->ring_margin = sv->pool_size / 8 < RING_MARGIN ? sv->pool_size / 8 : RING_MARGIN;
    return 0;
}

void memo_free(Solver *sv) {
    big_free(sv->memo, (sv->memo_mask + 1) * sizeof(MemoEntry), sv->memo_mapped);
    big_free(sv->pool, sizeof(CMove) * sv->pool_size, sv->pool_mapped);
}

/* Where the move written `at`-th (counted from the first) lies in the ring (pool_size is a power of 2). */
static inline uint64_t ring_place(const Solver *sv, uint64_t at) {
    return at & (sv->pool_size - 1);
}

/* The memo's key of a line state (key, check: line_key's two hashes) with the mover's rack. */
static inline void rack_mixed(const ERack *mover, uint64_t *key, uint64_t *check) {
    *key ^= mover->hash[0];
    *check ^= mover->hash[1];
}

/* Fetch the memo's entry of line state `key` and the mover's rack into the processor's cache. */
void memo_prefetch(const Solver *sv, const ERack *mover, uint64_t key) {
    __builtin_prefetch(&sv->memo[(key ^ mover->hash[0]) & sv->memo_mask]);
}

/* The memo's entry of line state (key, check) with the mover's rack (rack_mixed), or NULL. An entry may lie in
 * either place of the pair its key names (both in one cache line of the processor). */
static MemoEntry *memo_entry(const Solver *sv, uint64_t key, uint64_t check) {
    MemoEntry *pair = &sv->memo[key & sv->memo_mask & ~(uint64_t)1];
    for (int w = 0; w < 2; w++) {
        if (pair[w].key == key && pair[w].check == check) {
            return &pair[w];
        }
    }
    return NULL;
}

/* The moves kept for line state (key, check) and the mover's rack, how many, and where they were written
 * (*start, for memo_intact); NULL when the memo does not have them. */
const CMove *memo_find(const Solver *sv, const ERack *mover, uint64_t key, uint64_t check, size_t *len,
                       uint64_t *start) {
    rack_mixed(mover, &key, &check);
    const MemoEntry *e = memo_entry(sv, key, check);
    if (e == NULL) {
        return NULL;
    }
    if (e->len > 0 && !memo_intact(sv, e->start)) {
        return NULL;
    }
    *len = e->len;
    *start = e->start;
    return sv->pool + ring_place(sv, e->start);
}

/* Room in the ring for the `len` moves about to be generated (written over the oldest), and where it lies
 * (*start); NULL when they are more than memo_guard allows. */
CMove *memo_room(Solver *sv, size_t len, uint64_t *start) {
    uint64_t at = sv->pool_written;
    if (ring_place(sv, at) + len > sv->pool_size) {
        at += sv->pool_size - ring_place(sv, at);  /* the moves of one state lie together: from the ring's start */
    }
    if (at + len > sv->ring_base + sv->ring_margin) {
        return NULL;  /* (more than memo_guard allows: generated again each time) */
    }
    sv->pool_written = at + len;
    *start = at;
    return sv->pool + ring_place(sv, at);
}

/* Keep the `len` moves written at `start` (memo_room) as those of line state (key, check) and the mover's rack. */
void memo_keep(Solver *sv, const ERack *mover, uint64_t key, uint64_t check, uint64_t start, size_t len) {
    rack_mixed(mover, &key, &check);
    MemoEntry *e = memo_entry(sv, key, check);
    if (e == NULL) {
        /* the place of the pair whose moves were written first (or never) makes room */
        MemoEntry *pair = &sv->memo[key & sv->memo_mask & ~(uint64_t)1];
        e = pair[1].key == 0 || (pair[0].key != 0 && pair[1].start < pair[0].start) ? &pair[1] : &pair[0];
    }
    e->key = key;
    e->check = check;
    e->start = start;
    e->len = (uint32_t)len;
}
