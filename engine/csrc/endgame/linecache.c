/*
 * The endgame's line cache: a node's moves without generating them all again.
 *
 * The generator (search.c) works one line of one view at a time, and what it finds on a line depends
 * only on that line's tiles, the cross-checks of its empty squares (letters allowed, points of the
 * cross word) and the rack. The moves of a smaller rack are those of a larger one whose tiles it holds,
 * in the same order (the generator walks the same paths; the rack only prunes them). So the solver
 * keeps, per side and per line, the moves generated for a rack on the line as it was, named by the
 * line's stamp: a move put on the board gives a new stamp to the lines it changes (the rows and columns
 * of its tiles, and those whose cross-checks it changes: beyond the ends of each tile's runs), and
 * taking it back restores the old ones. A node takes the moves of every line whose stamp is unchanged
 * and whose rack held the mover's tiles, keeps those the mover's rack can play, and generates only the
 * other lines again. The lines are taken in the generator's order, so a node gets the very moves of
 * a fresh generation in the very same order (`check_lines` compares them at every node).
 */

#include "solver.h"

/* The mover's rack as the generator's. */
void load_rack(Search *s, const ERack *mover, int letters) {
    s->out.len = 0;
    s->failed = 0;
    s->placed = 0;
    s->rmask = mover->letters;
    for (int l = 0; l < letters; l++) {
        s->counts[l] = s->counts0[l] = mover->counts[l];
    }
    s->blanks0 = s->blanks_left = mover->counts[MAX_LETTERS];
    s->rack_len = mover->size;
}

/* Every line's first stamp, and which squares hold tiles, from the starting board. */
void lines_start(Solver *sv) {
    for (int i = 0; i < LINES; i++) {
        sv->line_stamp[i] = 1;
    }
    sv->next_stamp = 2;
    sv->nstamps = 0;
    sv->dirty = 0;
    memset(sv->occupied, 0, sizeof(sv->occupied));
    for (int sq = 0; sq < SQUARES; sq++) {
        if (sv->gen.grid[sq] != EMPTY) {
            sv->occupied[0][sq / SIZE] |= (uint16_t)(1u << (sq % SIZE));
            sv->occupied[1][sq % SIZE] |= (uint16_t)(1u << (sq / SIZE));
        }
    }
}

/* New stamps for the lines in sv->dirty (put_on_board collected them), the old ones saved. */
void lines_stamp(Solver *sv) {
    uint32_t dirty = sv->dirty;
    sv->ply_dirty[sv->ply] = dirty;
    while (dirty) {
        int line = LOWEST(dirty);
        dirty &= dirty - 1;
        sv->stamp_saved[sv->nstamps].line = line;
        sv->stamp_saved[sv->nstamps].stamp = sv->line_stamp[line];
        sv->nstamps++;
        sv->line_stamp[line] = sv->next_stamp++;
    }
    sv->dirty = 0;
}

/* Undo lines_stamp and the move's squares in `occupied` (its tiles are taken off the board). */
void lines_restore(Solver *sv, const EMove *move, int stamps) {
    while (sv->nstamps > stamps) {
        sv->nstamps--;
        sv->line_stamp[sv->stamp_saved[sv->nstamps].line] = sv->stamp_saved[sv->nstamps].stamp;
    }
    for (int k = 0; k < move->n; k++) {
        int row = move->square[k] / SIZE, col = move->square[k] % SIZE;
        sv->occupied[0][row] &= (uint16_t)~(1u << col);
        sv->occupied[1][col] &= (uint16_t)~(1u << row);
    }
}

/* line_key's hashes of the line of squares `first`, `first + stride`, ..: inlined once per view with its
 * stride fixed, so that the compiler lays the 15 squares out with fixed offsets. */
static inline __attribute__((always_inline)) uint64_t line_hashed(const Solver *sv, int index, int first, int stride,
                                                                  uint64_t *check) {
    /* the check: the squares' values times a fixed odd constant of their place, summed (products of
     * different places do not wait on one another, as the key's chain does) */
    static const uint64_t place[SIZE] = {
        0xA4093822299F31D1ull, 0x082EFA98EC4E6C89ull, 0x452821E638D01377ull, 0xBE5466CF34E90C6Dull,
        0xC0AC29B7C97C50DDull, 0x3F84D5B5B5470917ull, 0x9216D5D98979FB1Bull, 0xD1310BA698DFB5ADull,
        0xF12C7F9924A19947ull, 0xB8E1AFED6A267E97ull, 0x24A19947B3916CF7ull,
        0x0801F2E2858EFC17ull, 0x636920D871574E69ull, 0xA458FEA3F4933D7Full, 0x0D95748F728EB659ull,
    };
    const uint64_t *state = sv->square_state + first;  /* (kept by negamax.c) */
    /* two hashes of other kinds: both must match for two states to be taken for one (linestore.c) */
    uint64_t h = 0x243F6A8885A308D3ull * (uint64_t)(index + 1), g = 0x13198A2E03707344ull * (uint64_t)(index + 1);
#pragma GCC unroll 15
    for (int p = 0; p < SIZE; p++) {
        uint64_t v = state[p * stride];
        h = (h ^ v) * 0x9E3779B97F4A7C15ull;
        h ^= h >> 31;
        g += v * place[p];
    }
    g = (g ^ (g >> 29)) * 0xD6E8FEB86659FD93ull;
    *check = g ^ (g >> 32);
    return h | 1;
}

/* The state of line `index` (view * SIZE + line) on the board as it is, its cross-checks brought up to
 * date, hashed: its tiles, and each empty square's cross-check and cross word's points (what the
 * generator finds on the line depends on nothing else but the rack; its anchors are the empty squares
 * next to a tile along the line or with a word across, xsum >= 0). Never 0. */
static uint64_t line_key(const Solver *sv, int index, uint64_t *check) {
    int line = index % SIZE;
    return index < SIZE ? line_hashed(sv, index, line * SIZE, 1, check)
                        : line_hashed(sv, index, SQUARES + line, SIZE, check);
}

/* Whether a rack of packed counts `a` (ERack.held) is held by one of packed counts `b` of the same side: each count
 * (0 to 8) of a at most b's (the high bit of each byte of (b | 0x80...) - a staying set where b's is at least a's). */
static inline int within(uint64_t a, uint64_t b) {
    const uint64_t high = 0x8080808080808080ull;
    return (((b | high) - a) & high) == high;
}

/* The anchors of line `index` (view * SIZE + line), in order, as search.c's search_line finds them on the
 * whole board; how many, or 0 when no anchor's cross-check allows a letter in `usable` (the line has no
 * move for the rack). */
static int fitting_anchors(const Solver *sv, int index, uint32_t usable, int *anchors) {
    int view = index / SIZE, line = index % SIZE;
    uint32_t here = sv->occupied[view][line];
    uint32_t near = (here << 1) | (here >> 1) | (line > 0 ? sv->occupied[view][line - 1] : 0u) |
                    (line < SIZE - 1 ? sv->occupied[view][line + 1] : 0u);
    uint32_t bits = near & ~here & ((1u << SIZE) - 1);
    int nanchors = 0;
    uint32_t fits = 0;
    while (bits) {
        int p = LOWEST(bits);
        bits &= bits - 1;
        anchors[nanchors++] = p;
        fits |= sv->cross_allowed[view * SQUARES + line_square(view, line, p)] & usable;
    }
    return fits ? nanchors : 0;
}

/* Room for `len` moves in way w's own array; -1 (the failure recorded) when memory ran out. */
static int own_room(Solver *sv, LineWays *ways, int w, size_t len) {
    if (len > ways->cap[w]) {
        size_t cap = ways->cap[w];
        CMove *grown = len <= UINT32_MAX / 2 ? GROWN_ARRAY(ways->own[w], cap, len, 64) : NULL;
        if (grown == NULL) {
            failed_memory(sv);
            return -1;
        }
        ways->own[w] = grown;
        ways->cap[w] = (uint32_t)cap;
    }
    return 0;
}

/* Whether the slot's moves are still there: its own, or the ring's not yet written over (memo_intact). */
static inline int slot_intact(const Solver *sv, const LineSlot *slot) {
    return memo_intact(sv, slot->start);
}

/* The generator's move (search.c's put_move: its tiles along the line being generated, those of bit i of blank_set
 * on blanks) as a line cache move, after the line's others in sv->fresh; s->failed set when memory ran out. */
static void fresh_move(Search *s, uint32_t blank_set, int score) {
    Solver *sv = s->sink_data;
    if (sv->nfresh == sv->fresh_cap) {
        size_t cap = sv->fresh_cap;
        CMove *grown = GROWN_ARRAY(sv->fresh, cap, sv->nfresh + 1, 64);
        if (grown == NULL) {
            s->failed = 1;
            return;
        }
        sv->fresh = grown;
        sv->fresh_cap = cap;
    }
    CMove *c = &sv->fresh[sv->nfresh++];
    EMove *e = &c->move;
    int n = s->placed, played = 0, blanks = 0, repeats = 0;
    uint32_t letters = 0;
    int first = line_square(s->view, s->line, 0), stride = s->view == 0 ? 1 : SIZE;
    e->n = (uint8_t)n;
    e->view = (uint8_t)s->view;
    e->score = (int16_t)score;
    for (int i = 0; i < n; i++) {
        int l = s->letter[i];
        e->square[i] = (uint8_t)(first + s->pos[i] * stride);
        if ((blank_set >> i) & 1) {
            e->tile[i] = (uint8_t)(l | BLANK_FLAG);
            blanks++;
        } else {
            uint32_t bit = 1u << l;
            e->tile[i] = (uint8_t)l;
            played += s->points[l];
            repeats |= (letters & bit) != 0;
            letters |= bit;
        }
    }
    e->played = (int16_t)played;
    c->order = move_order(e);
    c->letters = letters;
    c->blanks = (uint8_t)blanks;
    c->repeats = (uint8_t)repeats;
}

/* Generate line `index` (its `nanchors` anchors found by fitting_anchors) for the rack loaded in the
 * generator into way `way`'s slot, as search.c's search_line does on the whole board (its moves made line cache
 * moves as they are found, fresh_move): into the line memo's ring when `keep` (and kept there for state (key,
 * check) and the mover's rack), else into the way's own array; -1 (the failure recorded) when memory ran out. */
static int generate_line(Solver *sv, const ERack *mover, LineWays *ways, int way, int index, const int *anchors,
                         int nanchors, int keep, uint64_t key, uint64_t check) {
    Search *s = &sv->gen;
    LineSlot *slot = &ways->slot[way];
    int view = index / SIZE, line = index % SIZE;
    sv->nfresh = 0;
    s->sink = fresh_move;
    s->sink_data = sv;
    prepare_line(s, sv->rules, view, line);
    int previous = -1;
    for (int a = 0; a < nanchors && !s->failed; a++) {
        search_anchor(s, anchors[a], previous);
        previous = anchors[a];
    }
    s->sink = NULL;
    if (s->failed) {
        failed_memory(sv);
        return -1;
    }
    size_t count = sv->nfresh;
    uint64_t start = OWN_MOVES;
    CMove *moves = keep ? memo_room(sv, count, &start) : NULL;
    if (moves == NULL) {
        if (own_room(sv, ways, way, count) < 0) {
            return -1;
        }
        moves = ways->own[way];
        start = OWN_MOVES;
    }
    if (count > 0) {
        memcpy(moves, sv->fresh, count * sizeof(CMove));
    }
    if (start != OWN_MOVES) {
        memo_keep(sv, mover, key, check, start, count);
    }
    slot->moves = moves;
    slot->len = count;
    slot->start = count > 0 ? start : OWN_MOVES;
    return 0;
}

/* Whether the rack holds the tiles of a move whose letters it has and which repeats a letter. */
int holds(const ERack *rack, const EMove *move) {
    int8_t need[MAX_LETTERS] = {0};
    for (int k = 0; k < move->n; k++) {
        int t = move->tile[k];
        if (!(t & BLANK_FLAG) && ++need[t & LETTER_MASK] > rack->counts[t & LETTER_MASK]) {
            return 0;
        }
    }
    return 1;
}

/* Line `index`'s moves for the mover in way `way`'s slot (whose stamp the caller sets): none when no anchor takes a
 * tile of the rack, else with `memo` the line memo's (linestore.c, seen where it keeps them) when it has the
 * line's state, else generated (and with `memo` kept in the memo). `usable`: the letters the rack can put
 * down; `loaded`: whether the generator holds the mover's rack (loaded here when it must generate). -1
 * (the failure recorded) when memory ran out. */
static int line_ready(Solver *sv, const ERack *mover, LineWays *ways, int way, int index, uint32_t usable,
                      uint64_t key, uint64_t check, int *loaded) {
    LineSlot *slot = &ways->slot[way];
    int memo = sv->use_memo;
    int anchors[SIZE];
    slot->len = 0;
    slot->start = OWN_MOVES;
    if (memo) {
        /* (kept only when generated: the state's anchors fit the rack's letters: a look-up need not find them) */
        size_t len;
        uint64_t start;
        const CMove *known = memo_find(sv, mover, key, check, &len, &start);
        if (known != NULL) {
            /* the moves are read when the node's moves are gathered: fetched while the other lines are made ready */
            for (size_t i = 0; i < len; i += 2) {
                __builtin_prefetch(&known[i]);
            }
            slot->moves = known;
            slot->len = len;
            slot->start = len > 0 ? start : OWN_MOVES;
            return 0;
        }
    }
    int nanchors = fitting_anchors(sv, index, usable, anchors);
    if (nanchors == 0) {
        return 0;
    }
    if (!*loaded) {
        load_rack(&sv->gen, mover, sv->letters);
        *loaded = 1;
    }
    return generate_line(sv, mover, ways, way, index, anchors, nanchors, memo, key, check);
}

/* The record of the nearest look-up on the path from the root by the mover's side (two plies up, else four...),
 * or NULL: its rack held the mover's (a side's rack only shrinks down a path). *since: the lines whose stamps
 * the path's moves changed since (the others' are as they were: the moves taken back restored them). */
static const LineSeen *ancestor_seen(const Solver *sv, uint32_t *since) {
    uint32_t changed = 0;
    for (int q = sv->ply - 1; q >= 0; q--) {
        changed |= sv->ply_dirty[q];
        if ((sv->ply - q) % 2 == 0 && sv->seen[q].serial == sv->path_serial[q]) {
            *since = changed;
            return &sv->seen[q];
        }
    }
    return NULL;
}

/* Whether way w's moves are still in the ring (slot_intact); when not, the way is forgotten (its stamp and state
 * found again would name moves no longer there). */
static int way_intact(const Solver *sv, LineWays *ways, int w) {
    if (slot_intact(sv, &ways->slot[w])) {
        return 1;
    }
    ways->stamp[w] = 0;
    ways->key[w] = ways->check[w] = 0;
    return 0;
}

/* The way of line `index` that holds its moves for the mover on the board as it is, found by its stamp or
 * by its state's key (worked out once per stamp, into *key and *check), or -1. */
static int way_kept(Solver *sv, const ERack *mover, LineWays *ways, int index, uint64_t *key, uint64_t *check) {
    uint64_t stamp = sv->line_stamp[index];
    int found = -1;
    for (int w = 0; w < LINE_WAYS && stamp <= ways->newest; w++) {
        if (ways->stamp[w] == stamp && within(mover->held, ways->slot[w].held)) {
            found = w;
            break;
        }
    }
    if (found >= 0 && way_intact(sv, ways, found)) {
        return found;
    }
    if (!sv->use_memo) {
        return -1;
    }
    /* the line changed since: a state with the same tiles and cross-checks may be kept all the same */
    if (sv->key_stamp[index] != stamp) {
        /* worked out once per stamp: the other side often looks the line up at the same stamp */
        sv->key_stamp[index] = stamp;
        sv->key_of[index] = line_key(sv, index, &sv->check_of[index]);
    }
    *key = sv->key_of[index];
    *check = sv->check_of[index];
    found = -1;
    for (int w = 0; w < LINE_WAYS; w++) {
        if (ways->key[w] == *key && ways->check[w] == *check && within(mover->held, ways->slot[w].held)) {
            found = w;
            break;
        }
    }
    if (found >= 0 && way_intact(sv, ways, found)) {
        ways->stamp[found] = stamp;
        ways->newest = stamp > ways->newest ? stamp : ways->newest;
        return found;
    }
    return -1;
}

/* The least recently taken way of a line, made ready to be filled for the line's state (key, check). */
static int way_emptied(LineWays *ways, uint64_t key, uint64_t check) {
    int way = 0;
    for (int w = 1; w < LINE_WAYS; w++) {
        if (ways->used[w] < ways->used[way]) {
            way = w;
        }
    }
    ways->stamp[way] = 0;
    ways->key[way] = key;
    ways->check[way] = check;
    return way;
}

/* Every line's moves for the mover in `taken` (each slot's rack holds the mover's; the moves the
 * mover's rack cannot play are still among them), the lines that changed generated again. -1 (MemoryError
 * recorded) when memory ran out. */
int lines_ready(Solver *sv, const ERack *mover, const LineSlot **taken) {
    int loaded = 0;
    uint32_t usable = 0;  /* worked out at the first line to generate */
    int missing[LINES], nmissing = 0;
    LineSeen *seen = &sv->seen[sv->ply];
    seen->serial = 0;
    LineWays *lines = sv->lines[mover->side];
    memo_guard(sv);  /* the moves in the ring taken below stay there until the node has done with them */
    /* a line whose stamp has not changed since the look-up of an ancestor of the same side takes the way that
     * look-up took, while that way's slot was not filled again (its rack held the ancestor's, which holds
     * the mover's): only the lines the moves since changed are looked for among the ways */
    uint32_t since = 0;
    const LineSeen *up = ancestor_seen(sv, &since);
    uint32_t look = (1u << LINES) - 1;  /* the lines to look for among the ways */
    if (up != NULL) {
        memcpy(seen->way, up->way, sizeof(seen->way));
        for (int index = 0; index < LINES; index++) {
            LineWays *ways = &lines[index];
            int way = up->way[index];
            if (!((since >> index) & 1) && ways->fill[way] <= up->fills && slot_intact(sv, &ways->slot[way])) {
                look &= ~(1u << index);
                ways->used[way] = sv->generations;
                taken[index] = &ways->slot[way];
            }
        }
    }
    /* the lines the cache has first; the others' slots are chosen, their memo entries fetched (a miss of
     * the processor's cache each, waited for together) and taken or generated after */
    while (look) {
        int index = LOWEST(look);
        look &= look - 1;
        LineWays *ways = &lines[index];
        uint64_t key = 0, check = 0;
        int way = way_kept(sv, mover, ways, index, &key, &check);
        if (way < 0) {
            way = way_emptied(ways, key, check);
            missing[nmissing++] = index;
            if (sv->use_memo) {
                memo_prefetch(sv, mover, key);
            }
        }
        ways->used[way] = sv->generations;
        taken[index] = &ways->slot[way];
        seen->way[index] = (int8_t)way;
    }
    for (int i = 0; i < nmissing; i++) {
        int index = missing[i];
        LineWays *ways = &lines[index];
        LineSlot *slot = (LineSlot *)taken[index];
        int way = (int)(slot - ways->slot);
        if (usable == 0) {
            usable = mover->counts[MAX_LETTERS] > 0 ? sv->gen.all_letters : mover->letters;
        }
        if (line_ready(sv, mover, ways, way, index, usable, ways->key[way], ways->check[way], &loaded) < 0) {
            return -1;
        }
        ways->stamp[way] = sv->line_stamp[index];
        ways->newest = ways->stamp[way] > ways->newest ? ways->stamp[way] : ways->newest;
        ways->fill[way] = ++sv->fills;
        slot->held = mover->held;
        slot->size = mover->size;
    }
    seen->fills = sv->fills;
    seen->serial = sv->path_serial[sv->ply];
    return 0;
}

/* The mover's moves on the move stack from sv->nmoves on (room for the pass after them), in the
 * generator's order, with their sort keys on the key stack (`bonus` added to the order of a move that
 * goes out); returns how many, or -1 (the failure recorded). The board has tiles (an empty board is
 * generated whole). */
long line_moves(Solver *sv, const ERack *mover, int bonus) {
    const LineSlot *taken[LINES];
    if (lines_ready(sv, mover, taken) < 0) {
        return -1;
    }
    size_t most = 0;
    for (int index = 0; index < LINES; index++) {
        most += taken[index]->len;
    }
    if (grow_stack(sv, sv->nmoves + most + 1) < 0) {  /* (and the pass) */
        return -1;
    }
    EMove *out = sv->moves + sv->nmoves;
    uint64_t *keys = sv->keys + sv->nmoves;
    uint32_t rmask = mover->letters;
    int blanks = mover->counts[MAX_LETTERS];
    long count = 0;
    for (int index = 0; index < LINES; index++) {
        const LineSlot *slot = taken[index];
        /* (the slot's rack holds the mover's: as many tiles, the same) */
        if (slot->size == mover->size) {
            for (size_t i = 0; i < slot->len; i++) {
                const CMove *c = &slot->moves[i];
                int order = c->order + (c->move.n == mover->size ? bonus : 0);
                keys[count] = ((uint64_t)(uint32_t)(ORDER_BIAS - order) << 32) | (uint64_t)count;
                out[count++] = c->move;
            }
            continue;
        }
        for (size_t i = 0; i < slot->len; i++) {
            const CMove *c = &slot->moves[i];
            if ((c->letters & ~rmask) == 0 && c->blanks <= blanks && (!c->repeats || holds(mover, &c->move))) {
                int order = c->order + (c->move.n == mover->size ? bonus : 0);
                keys[count] = ((uint64_t)(uint32_t)(ORDER_BIAS - order) << 32) | (uint64_t)count;
                out[count++] = c->move;
            }
        }
    }
    return count;
}

/* Compare the `count` moves line_moves put on the stack with a fresh generation on the whole board
 * (its cross-checks worked out from the board):
 * -1 with the AssertionError recorded when they differ in any move or in their order. */
int check_line_moves(Solver *sv, const ERack *mover, long count) {
    Search *s = &sv->gen;
    load_rack(s, mover, sv->letters);
    /* the cross-checks too are worked out afresh from the board, not read from the solver's */
    s->cross_allowed = NULL;
    s->cross_sum = NULL;
    int failed = search_all(s, sv->lex, sv->rules, sv->tiles);
    s->cross_allowed = sv->cross_allowed;
    s->cross_sum = sv->cross_sum;
    if (failed < 0) {
        failed_memory(sv);
        return -1;
    }
    const EMove *moves = sv->moves + sv->nmoves;
    long i = 0;
    for (size_t at = 0; at < s->out.len; at += 3 + 3 * (size_t)s->out.data[at], i++) {
        EMove fresh;
        emove_from(sv, s->out.data + at, &fresh);
        if (i >= count || fresh.n != moves[i].n || fresh.view != moves[i].view || fresh.score != moves[i].score ||
            memcmp(fresh.square, moves[i].square, fresh.n) != 0 || memcmp(fresh.tile, moves[i].tile, fresh.n) != 0) {
            failed_check(sv, "the line cache's move %ld of %ld differs from the generator's",
                         i, count);
            return -1;
        }
    }
    if (i != count) {
        failed_check(sv, "the line cache gave %ld moves, the generator %ld", count, i);
        return -1;
    }
    return 0;
}

void lines_free(Solver *sv) {
    PyMem_RawFree(sv->fresh);
    for (int side = 0; side < 2; side++) {
        for (int i = 0; i < LINES; i++) {
            for (int w = 0; w < LINE_WAYS; w++) {
                PyMem_RawFree(sv->lines[side][i].own[w]);
            }
        }
    }
}
