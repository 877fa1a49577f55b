/*
 * The lexicon's interface (lexicon/): the DAWG (lexicon.c's LexiconType), a ruleset's letters, points and
 * premiums (RulesType), and the multisets of the lexicon's long words (anagrams.c).
 */

#ifndef ENGINE_LEXICON_H
#define ENGINE_LEXICON_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../base/board.h"

/* The multisets of letters of a lexicon's words of `length` to SIZE letters (anagrams.c). */
typedef struct Anagrams {
    uint64_t code[MAX_LETTERS];  /* each letter's code: a multiset's code is the sum of its letters' */
    uint64_t *slots;             /* open addressing, 0: empty */
    size_t mask;
    size_t count;                /* multisets held */
    int length;
    /* A filter in front of the slots, small enough to stay in the caches: two bits of one word set per
     * multiset held, so a code with either bit clear is not held (most look-ups fail, here). */
    uint64_t *filter;
    int filter_shift;            /* 64 less log2 of the filter's words */
} Anagrams;

/* An edge of the DAWG with what the search reads of the node it leads to: the node's letters and word ends
 * beside the node (child[e], mask[child[e]], ends[child[e]]), so that following a letter and testing what
 * can come after it read one place instead of three (most of these reads miss the first level cache). */
typedef struct {
    uint32_t child, mask, ends;
} DawgEdge;

typedef struct {
    PyObject_HEAD
    DawgEdge *edges;   /* nedges entries, made from the three arrays below */
    uint32_t *child;   /* nedges entries: the node each edge leads to */
    uint32_t *mask;    /* nnodes entries (a built lexicon has nedges + 1: the last is the final node) */
    uint32_t *ends;    /* nnodes entries */
    Py_ssize_t nedges;
    Py_ssize_t nnodes;
    int letters;
    Anagrams *anagrams;   /* built when a playout first needs it (NULL: not yet) */
    int anagrams_failed;  /* the length for which it could not be built (0: none) */
    long patches;         /* how many times it was patched (a PlayoutSession refuses a patched lexicon) */
    long busy;            /* searches reading it without the interpreter's lock: patch refuses while any runs */
} LexiconObject;

/* Before a search that reads `lex` without the interpreter's lock (with the lock held): a reference, and the
 * count that makes Lexicon.patch refuse (RuntimeError) until lexicon_let_go. The bot patches a lexicon only
 * from the thread that plays, between searches (engine/lexicon/overlay.py): the guard turns a patch from
 * another thread while a search runs into an error instead of arrays freed under the search. */
static inline void lexicon_hold(LexiconObject *lex) {
    Py_INCREF(lex);
    lex->busy++;
}

/* After the search, with the lock held again. */
static inline void lexicon_let_go(LexiconObject *lex) {
    lex->busy--;
    Py_DECREF(lex);
}

/* anagrams.c */
const Anagrams *lexicon_anagrams(LexiconObject *lex, int length);
int anagram_in_set(const Anagrams *a, uint64_t code);

/* The filter's hash of a code: another product than the slots' index. */
static inline uint64_t anagram_filter_hash(uint64_t code) {
    return code * 0xD6E8FEB86659FD93ull;
}

/* The filter's word of a code: the hash's high bits. */
static inline uint64_t *anagram_filter_word(const Anagrams *a, uint64_t code) {
    return &a->filter[anagram_filter_hash(code) >> a->filter_shift];
}

/* The filter's two bits of a code in its word (anagrams.c sets them): two of the hash's middle bits. */
static inline uint64_t anagram_filter_bits(uint64_t code) {
    uint64_t h = anagram_filter_hash(code);
    return (1ull << ((h >> 20) & 63)) | (1ull << ((h >> 26) & 63));
}

/* Whether a multiset with this code is held (or, rarely, one with the same code). */
static inline int anagram_known(const Anagrams *a, uint64_t code) {
    uint64_t bits = anagram_filter_bits(code);
    if ((*anagram_filter_word(a, code) & bits) != bits) {
        return 0;
    }
    return anagram_in_set(a, code);
}
void anagrams_free(LexiconObject *lex);

typedef struct {
    PyObject_HEAD
    int letters;
    int points[MAX_LETTERS];
    uint8_t lm[2][SQUARES];  /* [view][line * SIZE + pos]: view 0 across (rows), 1 down (columns) */
    uint8_t wm[2][SQUARES];
    int start_row, start_col;
    int rack_size;
    int bingo;
} RulesObject;

/* lexicon.c */
extern PyTypeObject LexiconType;
extern PyTypeObject RulesType;

#endif
