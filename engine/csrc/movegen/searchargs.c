/*
 * The search's arguments from Python (search.c, module.c, playout.c): the board and the rack, checked.
 */

#include "movegen.h"

int read_grid(Search *s, PyObject *grid, int letters, int *tiles) {
    /* grid: a list of SIZE lists of SIZE ints (-1 or a tile code with the blank flag) */
    if (!PyList_Check(grid) || PyList_GET_SIZE(grid) != SIZE) {
        PyErr_Format(PyExc_ValueError, "the board must be a list of %d rows", SIZE);
        return -1;
    }
    *tiles = 0;
    for (int r = 0; r < SIZE; r++) {
        PyObject *row = PyList_GET_ITEM(grid, r);
        if (!PyList_Check(row) || PyList_GET_SIZE(row) != SIZE) {
            PyErr_Format(PyExc_ValueError, "board row %d must be a list of %d squares", r, SIZE);
            return -1;
        }
        for (int c = 0; c < SIZE; c++) {
            PyObject *item = PyList_GET_ITEM(row, c);
            if (!PyLong_Check(item)) {
                PyErr_Format(PyExc_TypeError, "board square (%d, %d) is not an int", r, c);
                return -1;
            }
            long t = PyLong_AsLong(item);
            if (t == -1 && PyErr_Occurred()) {
                return -1;
            }
            if (t != EMPTY && (t < 0 || (t & ~(long)(BLANK_FLAG | LETTER_MASK)) || (t & LETTER_MASK) >= letters)) {
                PyErr_Format(PyExc_ValueError, "board square (%d, %d) holds %ld, not a tile of this alphabet", r, c,
                             t);
                return -1;
            }
            s->grid[r * SIZE + c] = (int8_t)t;
            *tiles += t != EMPTY;
        }
    }
    return 0;
}

int read_rack_count(PyObject *seq, Py_ssize_t i, long most, const char *whose, long *count) {
    /* ints only: an object's __index__ would run Python code that may shrink the list being read */
    PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
    if (!PyLong_Check(item)) {
        PyErr_Format(PyExc_TypeError, "%s rack's count of letter %zd is not an int", whose, i);
        return -1;
    }
    long v = PyLong_AsLong(item);
    if (v == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (v < 0 || v > most) {
        PyErr_Format(PyExc_ValueError, "%s rack holds %ld of letter %zd", whose, v, i);
        return -1;
    }
    *count = v;
    return 0;
}

static int read_rack(Search *s, PyObject *counts, int blanks, int letters, int rack_size) {
    PyObject *seq = PySequence_Fast(counts, "the rack's counts must be a sequence of ints");
    if (seq == NULL) {
        return -1;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n != letters) {
        PyErr_Format(PyExc_ValueError, "the rack has counts for %zd letters, the alphabet %d", n, letters);
        Py_DECREF(seq);
        return -1;
    }
    int total = 0;
    s->rmask = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        long v;
        if (read_rack_count(seq, i, MAX_RACK, "the", &v) < 0) {
            Py_DECREF(seq);
            return -1;
        }
        s->counts[i] = s->counts0[i] = (int)v;
        total += (int)v;
        if (v) {
            s->rmask |= 1u << i;
        }
    }
    Py_DECREF(seq);
    if (blanks < 0 || blanks > MAX_BLANKS) {
        PyErr_Format(PyExc_ValueError, "a rack with %d blanks", blanks);
        return -1;
    }
    total += blanks;
    if (total > rack_size) {
        PyErr_Format(PyExc_ValueError, "a rack of %d tiles; racks hold %d", total, rack_size);
        return -1;
    }
    s->blanks0 = s->blanks_left = blanks;
    s->rack_len = total;
    return 0;
}

/* Point `s` at the lexicon's arrays and take the ruleset's numbers. */
void bind_search(Search *s, const LexiconObject *lex, const RulesObject *rules) {
    s->child = lex->child;
    s->edges = lex->edges;
    s->mask = lex->mask;
    s->ends = lex->ends;
    s->points = rules->points;
    s->letters = rules->letters;
    s->all_letters = rules->letters == 32 ? 0xFFFFFFFFu : ((1u << rules->letters) - 1);
    s->rack_size = rules->rack_size;
    s->bingo = rules->bingo;
    s->left_k = 0;
}

/* Read the position into `s` (moves go to `top` when given, else to s->out); -1 with an exception set
 * on bad input. */
int prepare_search(Search *s, LexiconObject *lex, RulesObject *rules, PyObject *grid, PyObject *counts,
                          int blanks, struct TopK *top, int *tiles) {
    /* the output buffer first: the callers free it whatever this returns */
    memset(s, 0, offsetof(Search, out));
    s->out.data = NULL;
    s->out.len = s->out.cap = 0;
    s->failed = 0;
    s->top = NULL;
    if (lex->letters != rules->letters) {
        PyErr_Format(PyExc_ValueError, "the lexicon has %d letters, the ruleset %d", lex->letters, rules->letters);
        return -1;
    }
    bind_search(s, lex, rules);
    s->top = top;
    if (read_grid(s, grid, rules->letters, tiles) < 0 || read_rack(s, counts, blanks, rules->letters,
                                                                   rules->rack_size) < 0) {
        return -1;
    }
    return 0;
}

void load_search(Search *s, const LexiconObject *lex, const RulesObject *rules, const int8_t *grid,
                 const int *counts, int blanks, struct TopK *top, int *tiles) {
    memset(s, 0, offsetof(Search, out));
    s->out.data = NULL;
    s->out.len = s->out.cap = 0;
    s->failed = 0;
    bind_search(s, lex, rules);
    s->top = top;
    *tiles = 0;
    for (int sq = 0; sq < SQUARES; sq++) {
        s->grid[sq] = grid[sq];
        *tiles += grid[sq] != EMPTY;
    }
    int total = 0;
    s->rmask = 0;
    for (int i = 0; i < rules->letters; i++) {
        s->counts[i] = s->counts0[i] = counts[i];
        total += counts[i];
        if (counts[i]) {
            s->rmask |= 1u << i;
        }
    }
    s->blanks0 = s->blanks_left = blanks;
    s->rack_len = total + blanks;
}
