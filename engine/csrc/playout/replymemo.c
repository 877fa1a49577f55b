/*
 * The static replies of a kernel's playouts kept by what they depend on (playout.c).
 *
 * A static reply depends only on the board, the rack, the tiles left in the bag (the leave's weight,
 * whether a swap is allowed) and, with the bag empty, the other side's rack. Late in a game few tiles are
 * unseen, and the same reply comes back draw after draw: the opponent's first reply on a candidate's board
 * whenever a draw deals it the same rack (the candidates that swap or pass share the position's board),
 * and the replies after it whenever the racks and the moves before were the same. So each reply is kept
 * by those inputs, and an exact match plays the reply found before. The table is direct-mapped: a reply
 * whose slot another takes is searched again when next needed.
 */

#include "playouts.h"

#define MEMO_SLOT_BITS 10
#define MEMO_SLOTS (1u << MEMO_SLOT_BITS)

typedef struct {
    ReplyKey key;
    Play play;
} MemoSlot;

struct ReplyMemo {
    MemoSlot slots[MEMO_SLOTS];
};

ReplyMemo *reply_memo_new(void) {
    ReplyMemo *memo = PyMem_RawMalloc(sizeof(ReplyMemo));
    if (memo == NULL) {
        return NULL;
    }
    for (size_t i = 0; i < MEMO_SLOTS; i++) {
        memo->slots[i].key.hash = 0;  /* no key hashes to 0 (reply_key) */
    }
    return memo;
}

void reply_memo_free(ReplyMemo *memo) {
    PyMem_RawFree(memo);
}

/* The key of a reply by `hand` on `grid` with `bag` tiles in the bag (and, the bag empty, `other` the
 * other side's rack), its unused bytes zero, and its hash. */
void reply_key(ReplyKey *key, const int8_t *grid, const Hand *hand, const Hand *other, int bag) {
    memset(key, 0, sizeof *key);
    memcpy(key->grid, grid, SQUARES);
    for (int i = 0; i < MAX_LETTERS; i++) {
        key->counts[i] = (uint8_t)hand->counts[i];  /* a rack holds at most MAX_RACK tiles */
        key->other[i] = bag == 0 ? (uint8_t)other->counts[i] : 0;
    }
    key->blanks = (uint8_t)hand->blanks;
    key->other_blanks = bag == 0 ? (uint8_t)other->blanks : 0;
    key->bag = (int16_t)bag;
    uint64_t hash = 0xcbf29ce484222325ull, word;
    const char *bytes = (const char *)key + sizeof key->hash;
    for (size_t at = 0; at + sizeof word <= sizeof *key - sizeof key->hash; at += sizeof word) {
        memcpy(&word, bytes + at, sizeof word);
        hash = (hash ^ word) * 0x100000001b3ull;
        hash ^= hash >> 29;
    }
    key->hash = hash | 1;
}

static MemoSlot *memo_slot(ReplyMemo *memo, const ReplyKey *key) {
    return &memo->slots[(key->hash * 0x9E3779B97F4A7C15ull) >> (64 - MEMO_SLOT_BITS)];
}

/* The reply kept for `key` into *play; 0 when none is kept. */
int reply_recall(ReplyMemo *memo, const ReplyKey *key, Play *play) {
    const MemoSlot *slot = memo_slot(memo, key);
    if (slot->key.hash != key->hash || memcmp(&slot->key, key, sizeof *key) != 0) {
        return 0;
    }
    *play = slot->play;
    return 1;
}

/* Keep `play` as the reply for `key`. */
void reply_keep(ReplyMemo *memo, const ReplyKey *key, const Play *play) {
    MemoSlot *slot = memo_slot(memo, key);
    memcpy(&slot->key, key, sizeof *key);  /* (its padding too, which reply_recall compares) */
    slot->play = *play;
}
