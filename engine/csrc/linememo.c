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
 */

#include "endgame.h"

/* Room for a memo of 2^bits states and twice as many moves; -1 (MemoryError set) when memory ran out. */
int memo_start(Solver *sv, int bits) {
    sv->memo_mask = ((uint64_t)1 << bits) - 1;
    sv->pool_size = (uint64_t)2 << bits;
    sv->memo = big_calloc(((size_t)1 << bits) * sizeof(MemoEntry), &sv->memo_mapped);
    sv->pool = big_calloc(sizeof(CMove) * sv->pool_size, &sv->pool_mapped);
    if (sv->memo == NULL || sv->pool == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    sv->pool_written = 0;
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

/* The moves kept for line state (key, check) and the mover's rack, and how many; NULL when the memo does
 * not have them. */
const CMove *memo_find(const Solver *sv, const ERack *mover, uint64_t key, uint64_t check, size_t *len) {
    rack_mixed(mover, &key, &check);
    const MemoEntry *e = memo_entry(sv, key, check);
    if (e == NULL) {
        return NULL;
    }
    /* its moves are in the ring while fewer than pool_size moves were written after its first */
    if (e->len > 0 && sv->pool_written > e->start + sv->pool_size) {
        return NULL;
    }
    *len = e->len;
    return sv->pool + ring_place(sv, e->start);
}

/* Keep the `len` moves generated for line state (key, check) and the mover's rack. */
void memo_keep(Solver *sv, const ERack *mover, uint64_t key, uint64_t check, const CMove *moves, size_t len) {
    if (len > sv->pool_size / 2) {
        return;  /* (a line with as many moves as half the ring is generated again each time) */
    }
    rack_mixed(mover, &key, &check);
    uint64_t at = sv->pool_written;
    if (ring_place(sv, at) + len > sv->pool_size) {
        at += sv->pool_size - ring_place(sv, at);  /* the moves of one state lie together: from the ring's start */
    }
    if (len > 0) {
        memcpy(sv->pool + ring_place(sv, at), moves, len * sizeof(CMove));
    }
    sv->pool_written = at + len;
    MemoEntry *e = memo_entry(sv, key, check);
    if (e == NULL) {
        /* the place of the pair whose moves were written first (or never) makes room */
        MemoEntry *pair = &sv->memo[key & sv->memo_mask & ~(uint64_t)1];
        e = pair[1].key == 0 || (pair[0].key != 0 && pair[1].start < pair[0].start) ? &pair[1] : &pair[0];
    }
    e->key = key;
    e->check = check;
    e->start = at;
    e->len = (uint32_t)len;
}
