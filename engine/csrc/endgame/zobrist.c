/*
 * The exact endgame's Zobrist keys (negamax.c): one for each tile on each square, one for each count of
 * each rack slot as the mover and as the other, one for each count of scoreless turns in a row. A node's
 * key is the XOR of those of its board, its two racks and its scoreless count; the keys are drawn once
 * from a fixed seed, so a search's memory, never its result, depends on them.
 */

#include "solver.h"

uint64_t square_keys[SQUARES][TILE_CODES];
uint64_t rack_keys[2][RACK_SLOTS][MAX_RACK + 1];
uint64_t scoreless_keys[64];
static int keys_ready = 0;

static uint64_t splitmix(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void make_keys(void) {
    if (keys_ready) {
        return;
    }
    uint64_t state = 20261126;  /* fixed: the hash is part of no result, only of the search's memory */
    for (int sq = 0; sq < SQUARES; sq++) {
        for (int t = 0; t < TILE_CODES; t++) {
            square_keys[sq][t] = splitmix(&state);
        }
    }
    for (int side = 0; side < 2; side++) {
        for (int slot = 0; slot < RACK_SLOTS; slot++) {
            rack_keys[side][slot][0] = 0;
            for (int c = 1; c <= MAX_RACK; c++) {
                rack_keys[side][slot][c] = splitmix(&state);
            }
        }
    }
    for (int i = 0; i < 64; i++) {
        scoreless_keys[i] = splitmix(&state);
    }
    keys_ready = 1;
}

/* The rack's hashes and letters, from its counts. */
void rack_rehash(ERack *rack) {
    rack->hash[0] = rack->hash[1] = 0;
    rack->letters = 0;
    for (int slot = 0; slot < RACK_SLOTS; slot++) {
        rack->hash[0] ^= rack_keys[0][slot][rack->counts[slot]];
        rack->hash[1] ^= rack_keys[1][slot][rack->counts[slot]];
        if (slot < MAX_LETTERS && rack->counts[slot] > 0) {
            rack->letters |= 1u << slot;
        }
    }
}

/* Each side's byte of ERack.held per letter it holds at the root, and the two racks' held. At most 8 letters
 * (MOVE_TILES): the counts of a side's rack, a sub-multiset of its rack at the root, fit one 64-bit word. */
void racks_packed(Solver *sv, ERack *mine, ERack *theirs) {
    ERack *racks[2] = {mine, theirs};
    for (int side = 0; side < 2; side++) {
        ERack *rack = racks[side];
        int byte = 0;
        rack->held = 0;
        for (int slot = 0; slot < RACK_SLOTS; slot++) {
            sv->held_byte[side][slot] = 0xFF;
            if (rack->counts[slot] > 0 && byte < 8) {
                sv->held_byte[side][slot] = (uint8_t)byte;
                rack->held |= (uint64_t)(uint8_t)rack->counts[slot] << (8 * byte);
                byte++;
            }
        }
    }
}
