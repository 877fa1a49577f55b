/*
 * The lexicon's long words as multisets of letters (a hash set), for the playout kernel's anchor bounds
 * (anchorbound.c): a move that plays the whole rack on a span of a line makes a main word whose letters
 * are the rack's and the board tiles' of that span, so where no word of the lexicon has those letters no
 * such move exists and the span is left out of the anchor's bound.
 *
 * A multiset's code is the sum (mod 2^64) of a fixed pseudo-random code per letter, so that a span's code
 * is the rack's plus its board tiles'. Two multisets with the same code only keep a span in the bound
 * that could have been left out: the bound stays an upper bound, and the playouts' values do not change.
 * The set is built once per lexicon, when a playout first needs it, from the words of at least `length`
 * letters (the rack's size) and at most SIZE; it is dropped when the lexicon is patched.
 */

#include "lexicon.h"
#include "../base/growth.h"

/* Words and DAWG edges walked at most: past them (a hostile or huge lexicon) there is no set, and the
 * anchor bounds keep every span, as without it. */
#define MOST_WORDS 2000000
#define MOST_STEPS 32000000

static uint64_t mixed(uint64_t x) {  /* splitmix64's finaliser */
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

static uint64_t stored_form(uint64_t code) {  /* 0 marks an empty slot */
    return code ? code : 1;
}

static void insert(Anagrams *a, uint64_t code) {
    *anagram_filter_word(a, code) |= anagram_filter_bits(code);
    size_t at = (size_t)(stored_form(code) * 0x9E3779B97F4A7C15ull >> 20) & a->mask;
    while (a->slots[at] != 0 && a->slots[at] != stored_form(code)) {
        at = (at + 1) & a->mask;
    }
    a->count += a->slots[at] == 0;
    a->slots[at] = stored_form(code);
}

int anagram_in_set(const Anagrams *a, uint64_t code) {
    size_t at = (size_t)(stored_form(code) * 0x9E3779B97F4A7C15ull >> 20) & a->mask;
    while (a->slots[at] != 0) {
        if (a->slots[at] == stored_form(code)) {
            return 1;
        }
        at = (at + 1) & a->mask;
    }
    return 0;
}

/* The codes of the words of `length` to SIZE letters, walked depth first into *codes (grown as needed,
 * *cap its room); how many, or -1 past MOST_WORDS words or MOST_STEPS edges or when memory ran out. */
static long word_codes(const LexiconObject *lex, const Anagrams *a, int length, uint64_t **codes, size_t *cap) {
    uint32_t node[SIZE + 1], left[SIZE + 1];
    uint64_t code[SIZE + 1];
    long words = 0, steps = 0;
    int depth = 0;
    node[0] = 0;
    left[0] = lex->mask[0];
    code[0] = 0;
    while (depth >= 0) {
        if (left[depth] == 0) {
            depth--;
            continue;
        }
        int l = LOWEST(left[depth]);
        uint32_t bit = 1u << l;
        left[depth] &= left[depth] - 1;
        uint32_t here = node[depth];
        if (++steps > MOST_STEPS) {
            return -1;
        }
        uint64_t next = code[depth] + a->code[l];
        if (depth + 1 >= length && (lex->ends[here] & bit)) {
            if (words == MOST_WORDS) {
                return -1;
            }
            uint64_t *grown = GROWN_ARRAY(*codes, *cap, (size_t)words + 1, 4096);
            if (grown == NULL) {
                return -1;
            }
            *codes = grown;
            (*codes)[words++] = next;
        }
        uint32_t child = lex->child[here + POPCOUNT(lex->mask[here] & (bit - 1))];
        depth++;
        node[depth] = child;
        left[depth] = depth < SIZE ? lex->mask[child] : 0;  /* no word is longer than a line */
        code[depth] = next;
    }
    return words;
}

void anagrams_free(LexiconObject *lex) {
    if (lex->anagrams != NULL) {
        PyMem_RawFree(lex->anagrams->slots);
        PyMem_RawFree(lex->anagrams->filter);
        PyMem_RawFree(lex->anagrams);
        lex->anagrams = NULL;
    }
    lex->anagrams_failed = 0;
}

const Anagrams *lexicon_anagrams(LexiconObject *lex, int length) {
    if (lex->anagrams != NULL && lex->anagrams->length == length) {
        return lex->anagrams;
    }
    if (lex->anagrams_failed == length) {
        return NULL;  /* tried before: too many words, or no memory */
    }
    anagrams_free(lex);
    if (lex->nedges == 0 || length < 1) {
        return NULL;
    }
    Anagrams *a = PyMem_RawCalloc(1, sizeof(Anagrams));
    if (a == NULL) {
        lex->anagrams_failed = length;
        return NULL;
    }
    a->length = length;
    for (int l = 0; l < MAX_LETTERS; l++) {
        a->code[l] = mixed((uint64_t)l + 1);
    }
    uint64_t *codes = NULL;
    size_t cap = 0;
    long words = word_codes(lex, a, length, &codes, &cap);
    size_t slots = 64;
    while (words >= 0 && slots < 2 * (size_t)words) {
        slots *= 2;
    }
    /* the filter: a word of 64 bits per 8 multisets (or fewer), at least 64 words */
    int filter_log = 6;
    while (words >= 0 && ((size_t)1 << filter_log) * 8 < (size_t)words && filter_log < 40) {
        filter_log++;
    }
    a->filter_shift = 64 - filter_log;
    a->slots = words >= 0 ? PyMem_RawCalloc(slots, sizeof(uint64_t)) : NULL;
    a->filter = words >= 0 ? PyMem_RawCalloc((size_t)1 << filter_log, sizeof(uint64_t)) : NULL;
    if (a->slots == NULL || a->filter == NULL) {
        PyMem_RawFree(a->slots);
        PyMem_RawFree(a->filter);
        PyMem_RawFree(codes);
        PyMem_RawFree(a);
        lex->anagrams_failed = length;
        return NULL;
    }
    a->mask = slots - 1;
    for (long w = 0; w < words; w++) {
        insert(a, codes[w]);
    }
    PyMem_RawFree(codes);
    lex->anagrams = a;
    return a;
}
