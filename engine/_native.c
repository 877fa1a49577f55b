/*
 * engine._native: the move generator's hot path in C (Appel-Jacobson over the packed DAWG).
 *
 * The same search as engine/movegen.py, which stays the readable reference and the fallback: rows
 * only (down moves are the across moves of the transposed view), anchors, cross-checks as letter
 * bitmasks with the points of each cross word, left parts from the board or the rack, extension to
 * the right through board tiles; every move is scored on the way (premiums under new tiles only,
 * cross words, the bingo bonus). Blanks follow the reference's rule: the search takes a rack tile
 * while it has one and a blank otherwise, and each complete word is then emitted once per way to put
 * the rack's blanks on its new tiles (a blank takes a fixed amount off the main and cross word).
 *
 * Everything that comes from Python is checked before it is used: the lexicon's arrays once (every
 * edge inside the arrays, no letter outside the alphabet), the layout once, the board and the rack on
 * every call. Bad input raises ValueError or TypeError naming the problem; nothing is read out of
 * bounds. Moves come out either as a flat array of ints (``generate_flat``: per move ``n, direction,
 * score`` then ``row, col, tile`` for each of its n tiles) or as Placement objects (``generate``).
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SIZE 15
#define SQUARES (SIZE * SIZE)
#define BLANK_FLAG 64
#define LETTER_MASK 63
#define MAX_LETTERS 32
#define MAX_RACK 15   /* longer racks are refused: no ruleset has more than 7 tiles */
#define MAX_BLANKS 7
#define EMPTY (-1)
#define TILE_CODES (2 * BLANK_FLAG)

#define POPCOUNT(x) __builtin_popcount(x)
#define LOWEST(x) __builtin_ctz(x)

/* ------------------------------------------------------------------------------------------------
 * Lexicon: the DAWG's three arrays, copied and checked once.
 */

typedef struct {
    PyObject_HEAD
    uint32_t *child;   /* nedges entries: the node each edge leads to */
    uint32_t *mask;    /* nnodes entries (a built lexicon has nedges + 1: the last is the final node) */
    uint32_t *ends;    /* nnodes entries */
    Py_ssize_t nedges;
    Py_ssize_t nnodes;
    int letters;
} LexiconObject;

static void lexicon_dealloc(LexiconObject *self) {
    PyMem_Free(self->child);
    PyMem_Free(self->mask);
    PyMem_Free(self->ends);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Copy a buffer of unsigned 32-bit ints (an array('I')); `expected` < 0 means any length. */
static uint32_t *copy_u32(PyObject *source, const char *name, Py_ssize_t expected, Py_ssize_t *length) {
    Py_buffer view;
    if (!PyObject_CheckBuffer(source)) {
        PyErr_Format(PyExc_TypeError, "lexicon array %s must be an array('I'), not %.100s", name,
                     Py_TYPE(source)->tp_name);
        return NULL;
    }
    if (PyObject_GetBuffer(source, &view, PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0) {
        return NULL;
    }
    uint32_t *copy = NULL;
    if (view.itemsize != 4 || view.format == NULL || (strcmp(view.format, "I") != 0 && strcmp(view.format, "=I") != 0
                                                       && strcmp(view.format, "<I") != 0)) {
        PyErr_Format(PyExc_TypeError, "lexicon array %s must hold unsigned 32-bit ints (array('I'))", name);
        goto done;
    }
    Py_ssize_t count = view.len / 4;
    if (expected >= 0 && count != expected) {
        PyErr_Format(PyExc_ValueError, "lexicon array %s has %zd entries, expected %zd", name, count, expected);
        goto done;
    }
    copy = PyMem_Malloc((size_t)(count > 0 ? count : 1) * sizeof(uint32_t));
    if (copy == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    if (count) {
        memcpy(copy, view.buf, (size_t)count * sizeof(uint32_t));
    }
    *length = count;
done:
    PyBuffer_Release(&view);
    return copy;
}

static PyObject *lexicon_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"child", "mask", "ends", "letters", NULL};
    PyObject *child, *mask, *ends;
    int letters;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOOi:Lexicon", names, &child, &mask, &ends, &letters)) {
        return NULL;
    }
    if (letters < 1 || letters > MAX_LETTERS) {
        PyErr_Format(PyExc_ValueError, "a lexicon's alphabet has 1 to %d letters, got %d", MAX_LETTERS, letters);
        return NULL;
    }
    LexiconObject *self = (LexiconObject *)type->tp_alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    Py_ssize_t nedges = 0, n;
    self->letters = letters;
    self->child = copy_u32(child, "child", -1, &nedges);
    if (self->child == NULL) goto fail;
    self->nedges = nedges;
    if (nedges >= (Py_ssize_t)UINT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "the lexicon is too large");
        goto fail;
    }
    self->mask = copy_u32(mask, "mask", -1, &n);
    if (self->mask == NULL) goto fail;
    self->nnodes = n;
    if (n < 1) {
        PyErr_Format(PyExc_ValueError, "lexicon array mask has no entries (a lexicon has at least its root)");
        goto fail;
    }
    self->ends = copy_u32(ends, "ends", n, &n);
    if (self->ends == NULL) goto fail;
    uint32_t allowed = letters == 32 ? 0xFFFFFFFFu : ((1u << letters) - 1);
    for (Py_ssize_t i = 0; i < self->nnodes; i++) {
        uint32_t m = self->mask[i];
        if ((m & ~allowed) || (self->ends[i] & ~allowed)) {
            PyErr_Format(PyExc_ValueError, "lexicon node %zd has a letter outside the alphabet of %d letters", i,
                         letters);
            goto fail;
        }
        if (m && i + POPCOUNT(m) > nedges) {
            PyErr_Format(PyExc_ValueError, "lexicon node %zd has edges past the end of the arrays", i);
            goto fail;
        }
    }
    for (Py_ssize_t e = 0; e < nedges; e++) {
        if ((Py_ssize_t)self->child[e] >= self->nnodes) {
            PyErr_Format(PyExc_ValueError, "lexicon edge %zd points outside the arrays", e);
            goto fail;
        }
    }
    return (PyObject *)self;
fail:
    Py_DECREF(self);
    return NULL;
}

static PyObject *lexicon_edges(LexiconObject *self, void *closure) {
    (void)closure;
    return PyLong_FromSsize_t(self->nedges);
}

static PyGetSetDef lexicon_getset[] = {
    {"edges", (getter)lexicon_edges, NULL, "number of edges", NULL},
    {NULL},
};

static PyTypeObject LexiconType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "engine._native.Lexicon",
    .tp_basicsize = sizeof(LexiconObject),
    .tp_dealloc = (destructor)lexicon_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Lexicon(child, mask, ends, letters): a DAWG's arrays (array('I')), checked and copied.",
    .tp_new = lexicon_new,
    .tp_getset = lexicon_getset,
};

/* ------------------------------------------------------------------------------------------------
 * Rules: letter points, the premium layout (both views), the start square, rack size and bingo.
 */

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

static int bytes_of(PyObject *source, const char *name, Py_ssize_t expected, const uint8_t **data) {
    if (!PyBytes_Check(source)) {
        PyErr_Format(PyExc_TypeError, "%s must be bytes", name);
        return -1;
    }
    if (PyBytes_GET_SIZE(source) != expected) {
        PyErr_Format(PyExc_ValueError, "%s has %zd entries, expected %zd", name, PyBytes_GET_SIZE(source), expected);
        return -1;
    }
    *data = (const uint8_t *)PyBytes_AS_STRING(source);
    return 0;
}

static PyObject *rules_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"points", "letter_multipliers", "word_multipliers", "start", "rack_size", "bingo", NULL};
    PyObject *points, *lms, *wms;
    int start, rack_size, bingo;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOOiii:Rules", names, &points, &lms, &wms, &start, &rack_size,
                                     &bingo)) {
        return NULL;
    }
    if (!PyBytes_Check(points) || PyBytes_GET_SIZE(points) < 1 || PyBytes_GET_SIZE(points) > MAX_LETTERS) {
        PyErr_Format(PyExc_ValueError, "points must be bytes with one entry per letter (1 to %d)", MAX_LETTERS);
        return NULL;
    }
    const uint8_t *lm, *wm;
    if (bytes_of(lms, "letter_multipliers", SQUARES, &lm) < 0 || bytes_of(wms, "word_multipliers", SQUARES, &wm) < 0) {
        return NULL;
    }
    if (start < 0 || start >= SQUARES) {
        PyErr_Format(PyExc_ValueError, "the start square %d is off the board", start);
        return NULL;
    }
    if (rack_size < 1 || rack_size > MAX_RACK) {
        PyErr_Format(PyExc_ValueError, "a rack size of %d is not supported (1 to %d)", rack_size, MAX_RACK);
        return NULL;
    }
    if (bingo < 0 || bingo > 1000) {
        PyErr_Format(PyExc_ValueError, "a bingo bonus of %d is not supported", bingo);
        return NULL;
    }
    for (int i = 0; i < SQUARES; i++) {
        if (lm[i] < 1 || lm[i] > 3 || wm[i] < 1 || wm[i] > 3) {
            PyErr_Format(PyExc_ValueError, "square %d has multipliers %d/%d (each must be 1 to 3)", i, lm[i], wm[i]);
            return NULL;
        }
    }
    /* Scores are C ints: refuse rules whose best move could overflow one. A move's main word has at
     * most SIZE tiles of at most 3 * top points, times at most 3 per new tile; each new tile's cross
     * word at most SIZE tiles of 3 * top points, times 3; then the bingo. */
    int top = 0;
    for (Py_ssize_t i = 0; i < PyBytes_GET_SIZE(points); i++) {
        int p = ((const uint8_t *)PyBytes_AS_STRING(points))[i];
        top = p > top ? p : top;
    }
    long long word_factor = 1;
    for (int i = 0; i < rack_size; i++) {
        word_factor *= 3;
    }
    long long best = SIZE * 3LL * top * word_factor + rack_size * (SIZE * 3LL * top * 3) + bingo;
    if (best > INT32_MAX) {
        PyErr_Format(PyExc_ValueError,
                     "letters worth up to %d points with racks of %d tiles could score more than a 32-bit int holds",
                     top, rack_size);
        return NULL;
    }
    RulesObject *self = (RulesObject *)type->tp_alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    self->letters = (int)PyBytes_GET_SIZE(points);
    for (int i = 0; i < self->letters; i++) {
        self->points[i] = ((const uint8_t *)PyBytes_AS_STRING(points))[i];
    }
    for (int r = 0; r < SIZE; r++) {
        for (int c = 0; c < SIZE; c++) {
            self->lm[0][r * SIZE + c] = lm[r * SIZE + c];
            self->wm[0][r * SIZE + c] = wm[r * SIZE + c];
            self->lm[1][c * SIZE + r] = lm[r * SIZE + c];
            self->wm[1][c * SIZE + r] = wm[r * SIZE + c];
        }
    }
    self->start_row = start / SIZE;
    self->start_col = start % SIZE;
    self->rack_size = rack_size;
    self->bingo = bingo;
    return (PyObject *)self;
}

static PyTypeObject RulesType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "engine._native.Rules",
    .tp_basicsize = sizeof(RulesObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Rules(points, letter_multipliers, word_multipliers, start, rack_size, bingo): bytes per letter, "
              "bytes per square (row-major), the start square's index.",
    .tp_new = rules_new,
};

/* ------------------------------------------------------------------------------------------------
 * The search.
 */

typedef struct {
    int32_t *data;
    size_t len, cap;
} IntBuffer;

static int buffer_reserve(IntBuffer *buffer, size_t more) {
    if (buffer->len + more <= buffer->cap) {
        return 0;
    }
    size_t cap = buffer->cap ? buffer->cap : 4096;
    while (cap < buffer->len + more) {
        cap *= 2;
    }
    int32_t *grown = PyMem_Realloc(buffer->data, cap * sizeof(int32_t));
    if (grown == NULL) {
        return -1;
    }
    buffer->data = grown;
    buffer->cap = cap;
    return 0;
}

typedef struct {
    /* inputs */
    const uint32_t *child, *mask, *ends;
    const int *points;
    int letters;
    uint32_t all_letters;
    int rack_size, bingo;
    int8_t grid[SQUARES];  /* row-major: -1 or a tile code (blank flag included) */
    /* the rack: counts change while searching */
    int counts[MAX_LETTERS];
    int counts0[MAX_LETTERS];
    int blanks0, blanks_left, rack_len;
    uint32_t rmask;  /* letters the rack still has a tile of */
    /* the line being searched (in the current view) */
    int view, line;
    int8_t cells[SIZE];       /* the line's tiles */
    uint32_t allowed[SIZE];   /* letters allowed by the cross word (all if none) */
    int xsum[SIZE];           /* points of the cross word's board tiles, -1 if none */
    const uint8_t *lm, *wm;   /* the line's multipliers */
    int next_empty[SIZE];     /* for an empty square p: the first empty square after the tiles that follow p */
    int run_points[SIZE];     /* points of the board tiles right after p */
    /* the move being built: positions and letters along the line */
    int placed;
    int pos[MAX_RACK];
    int letter[MAX_RACK];
    int left_letters[MAX_RACK];
    /* output: per move n, view, score, then (row, col, tile) n times */
    IntBuffer out;
    int failed;
} Search;

static inline int tile_points(const Search *s, int tile) {
    return (tile & BLANK_FLAG) ? 0 : s->points[tile & LETTER_MASK];
}

static inline int cell(const Search *s, int view, int line, int pos) {
    return view == 0 ? s->grid[line * SIZE + pos] : s->grid[pos * SIZE + line];
}

static inline uint32_t follow(const Search *s, uint32_t node, int letter) {
    /* the node after `letter` from `node`, or UINT32_MAX if there is no such edge */
    uint32_t m = s->mask[node];
    uint32_t bit = 1u << letter;
    if (!(m & bit)) {
        return UINT32_MAX;
    }
    return s->child[node + POPCOUNT(m & (bit - 1))];
}

/* One move out: the tiles placed, with `blank_set` (bit i: new tile i is a blank) and its score. */
static void put_move(Search *s, uint32_t blank_set, int score) {
    if (buffer_reserve(&s->out, 3 + 3 * (size_t)s->placed) < 0) {
        s->failed = 1;
        return;
    }
    int32_t *at = s->out.data + s->out.len;
    *at++ = s->placed;
    *at++ = s->view;
    *at++ = score;
    for (int i = 0; i < s->placed; i++) {
        int p = s->pos[i];
        int row = s->view == 0 ? s->line : p;
        int col = s->view == 0 ? p : s->line;
        *at++ = row;
        *at++ = col;
        *at++ = s->letter[i] | ((blank_set >> i) & 1 ? BLANK_FLAG : 0);
    }
    s->out.len += 3 + 3 * (size_t)s->placed;
}

/* A complete word: one move per way to put the rack's blanks on its new tiles (a rack tile of a
 * letter is not needed where a blank stands for it; each letter must have enough real tiles). */
static void emit(Search *s, int total, int wmul) {
    if (s->blanks0 == 0) {
        put_move(s, 0, total);
        return;
    }
    int n = s->placed;
    int used[MAX_LETTERS];
    for (int i = 0; i < n; i++) {
        used[s->letter[i]] = 0;
    }
    for (int i = 0; i < n; i++) {
        used[s->letter[i]]++;
    }
    int loss[MAX_RACK];
    for (int i = 0; i < n; i++) {
        int p = s->pos[i];
        int cross_mult = s->xsum[p] >= 0 ? s->wm[p] : 0;
        loss[i] = s->points[s->letter[i]] * s->lm[p] * (wmul + cross_mult);
    }
    for (uint32_t set = 0; set < (1u << n); set++) {
        if (POPCOUNT(set) > s->blanks0) {
            continue;
        }
        int ok = 1;
        int value = total;
        /* real tiles of each letter: used minus those on blanks, at most what the rack held */
        int on_blank[MAX_LETTERS];
        for (int i = 0; i < n; i++) {
            on_blank[s->letter[i]] = 0;
        }
        for (int i = 0; i < n; i++) {
            if ((set >> i) & 1) {
                on_blank[s->letter[i]]++;
                value -= loss[i];
            }
        }
        for (int i = 0; i < n && ok; i++) {
            int l = s->letter[i];
            if (used[l] - on_blank[l] > s->counts0[l]) {
                ok = 0;
            }
        }
        if (ok) {
            put_move(s, set, value);
        }
    }
}

static void extend(Search *s, int p, uint32_t node, int main, int wmul, int cross, int ntiles, int can_end) {
    uint32_t nm = s->mask[node];
    uint32_t m = nm & s->allowed[p];
    if (s->blanks_left == 0) {
        m &= s->rmask;
    }
    if (!m) {
        return;
    }
    int np = s->next_empty[p];
    int has_run = np != p + 1;
    uint32_t next_allowed = (ntiles + 1 < s->rack_len && np < SIZE) ? s->allowed[np] : 0;
    uint32_t e = can_end ? s->ends[node] : 0;
    if (!has_run && !next_allowed) {
        m &= e;  /* the word cannot go on past p: only letters that end it here */
        if (!m) {
            return;
        }
    }
    int wm = s->wm[p];
    int wmul2 = wmul * wm;
    int bonus = ntiles + 1 == s->rack_size ? s->bingo : 0;
    int x = s->xsum[p];
    int run_points = s->run_points[p];
    while (m) {
        int l = LOWEST(m);
        uint32_t bit = 1u << l;
        m &= m - 1;
        uint32_t n2 = s->child[node + POPCOUNT(nm & (bit - 1))];
        uint32_t fin;
        if (!has_run) {
            fin = e & bit;
        } else {
            fin = 0;
            for (int q = p + 1; q < np; q++) {
                int t = s->cells[q] & LETTER_MASK;
                uint32_t bm = s->mask[n2];
                uint32_t tb = 1u << t;
                if (!(bm & tb)) {
                    n2 = UINT32_MAX;
                    break;
                }
                fin = s->ends[n2] & tb;
                n2 = s->child[n2 + POPCOUNT(bm & (tb - 1))];
            }
            if (n2 == UINT32_MAX) {
                continue;
            }
            if (!can_end) {
                fin = 0;
            }
        }
        uint32_t deeper = next_allowed ? (s->mask[n2] & next_allowed) : 0;
        if (!fin && !deeper) {
            continue;
        }
        int tp = s->points[l] * s->lm[p];
        int main2 = main + tp + run_points;
        int cross2 = x < 0 ? cross : cross + (x + tp) * wm;
        int on_blank = s->counts[l] == 0;
        if (on_blank) {
            s->blanks_left--;
        } else if (--s->counts[l] == 0) {
            s->rmask &= ~bit;
        }
        s->pos[s->placed] = p;
        s->letter[s->placed] = l;
        s->placed++;
        if (fin) {
            emit(s, main2 * wmul2 + cross2 + bonus, wmul2);
        }
        if (deeper && (s->blanks_left > 0 || (deeper & s->rmask))) {
            extend(s, np, n2, main2, wmul2, cross2, ntiles + 1, 1);
        }
        s->placed--;
        if (on_blank) {
            s->blanks_left++;
        } else if (s->counts[l]++ == 0) {
            s->rmask |= bit;
        }
        if (s->failed) {
            return;
        }
    }
}

/* Left parts from the rack, `depth` letters so far ending at the anchor's left; each is extended. */
static void left_parts(Search *s, int anchor, uint32_t node, int depth, int limit) {
    uint32_t nm = s->mask[node];
    uint32_t m = nm;
    if (s->blanks_left == 0) {
        m &= s->rmask;
    }
    while (m) {
        int l = LOWEST(m);
        uint32_t bit = 1u << l;
        m &= m - 1;
        uint32_t n2 = s->child[node + POPCOUNT(nm & (bit - 1))];
        int on_blank = s->counts[l] == 0;
        if (on_blank) {
            s->blanks_left--;
        } else if (--s->counts[l] == 0) {
            s->rmask &= ~bit;
        }
        s->left_letters[depth] = l;
        int k = depth + 1;
        /* the left part covers anchor - k .. anchor - 1 */
        int main = 0, wmul = 1;
        for (int i = 0; i < k; i++) {
            int p = anchor - k + i;
            s->pos[i] = p;
            s->letter[i] = s->left_letters[i];
            main += s->points[s->left_letters[i]] * s->lm[p];
            wmul *= s->wm[p];
        }
        s->placed = k;
        if (s->mask[n2] & s->allowed[anchor]) {
            extend(s, anchor, n2, main, wmul, 0, k, 1);
        }
        s->placed = 0;
        if (k < limit && !s->failed) {
            left_parts(s, anchor, n2, k, limit);
        }
        if (on_blank) {
            s->blanks_left++;
        } else if (s->counts[l]++ == 0) {
            s->rmask |= bit;
        }
        if (s->failed) {
            return;
        }
    }
}

/* Cross-checks and row tables of line `line` of view `view`. */
static void prepare_line(Search *s, const RulesObject *rules, int view, int line) {
    s->view = view;
    s->line = line;
    s->lm = rules->lm[view] + line * SIZE;
    s->wm = rules->wm[view] + line * SIZE;
    for (int p = 0; p < SIZE; p++) {
        s->cells[p] = (int8_t)cell(s, view, line, p);
    }
    for (int p = 0; p < SIZE; p++) {
        if (s->cells[p] != EMPTY) {
            s->allowed[p] = 0;
            s->xsum[p] = -1;
            continue;
        }
        int q = p + 1, points = 0;
        while (q < SIZE && s->cells[q] != EMPTY) {
            points += tile_points(s, s->cells[q]);
            q++;
        }
        s->next_empty[p] = q;
        s->run_points[p] = points;
        /* the cross word through p: the tiles before and after it across the line */
        int first = line, last = line;
        while (first > 0 && cell(s, view, first - 1, p) != EMPTY) {
            first--;
        }
        while (last < SIZE - 1 && cell(s, view, last + 1, p) != EMPTY) {
            last++;
        }
        if (first == line && last == line) {
            s->allowed[p] = s->all_letters;
            s->xsum[p] = -1;
            continue;
        }
        int sum = 0;
        uint32_t node = 0;
        for (int k = first; k < line && node != UINT32_MAX; k++) {
            int t = cell(s, view, k, p);
            sum += tile_points(s, t);
            node = follow(s, node, t & LETTER_MASK);
        }
        for (int k = line + 1; k <= last; k++) {
            sum += tile_points(s, cell(s, view, k, p));
        }
        s->xsum[p] = sum;
        uint32_t allowed = 0;
        if (node != UINT32_MAX) {
            uint32_t nm = s->mask[node];
            uint32_t m = nm;
            while (m) {
                int l = LOWEST(m);
                uint32_t bit = 1u << l;
                m &= m - 1;
                if (last == line) {
                    if (s->ends[node] & bit) {
                        allowed |= bit;
                    }
                    continue;
                }
                uint32_t n2 = s->child[node + POPCOUNT(nm & (bit - 1))];
                uint32_t fin = 0;
                for (int k = line + 1; k <= last && n2 != UINT32_MAX; k++) {
                    int t = cell(s, view, k, p) & LETTER_MASK;
                    fin = (k == last) ? (s->ends[n2] >> t) & 1 : 0;
                    n2 = follow(s, n2, t);
                }
                if (n2 != UINT32_MAX && fin) {
                    allowed |= bit;
                }
            }
        }
        s->allowed[p] = allowed;
    }
}

static int is_anchor(const Search *s, int row, int col) {
    if (s->grid[row * SIZE + col] != EMPTY) {
        return 0;
    }
    return (row > 0 && s->grid[(row - 1) * SIZE + col] != EMPTY) ||
           (row < SIZE - 1 && s->grid[(row + 1) * SIZE + col] != EMPTY) ||
           (col > 0 && s->grid[row * SIZE + col - 1] != EMPTY) ||
           (col < SIZE - 1 && s->grid[row * SIZE + col + 1] != EMPTY);
}

static void search_line(Search *s, const RulesObject *rules, int view, int line, int empty_board) {
    int anchors[SIZE], nanchors = 0;
    for (int p = 0; p < SIZE; p++) {
        int row = view == 0 ? line : p, col = view == 0 ? p : line;
        if (empty_board ? (row == rules->start_row && col == rules->start_col) : is_anchor(s, row, col)) {
            anchors[nanchors++] = p;
        }
    }
    if (!nanchors) {
        return;
    }
    prepare_line(s, rules, view, line);
    int max_left = (s->rack_len < s->rack_size ? s->rack_len : s->rack_size) - 1;
    int previous = -1;
    for (int a = 0; a < nanchors && !s->failed; a++) {
        int anchor = anchors[a];
        uint32_t fits = s->allowed[anchor];
        if (s->blanks_left == 0) {
            fits &= s->rmask;
        }
        if (!fits) {
            previous = anchor;
            continue;
        }
        /* a lone tile that makes a word across is produced by the across pass only */
        int lone = view == 0 || s->xsum[anchor] < 0;
        s->placed = 0;
        if (anchor > 0 && s->cells[anchor - 1] != EMPTY) {
            /* the left part is the run of board tiles left of the anchor */
            int first = anchor - 1, points = 0;
            while (first > 0 && s->cells[first - 1] != EMPTY) {
                first--;
            }
            uint32_t node = 0;
            for (int q = first; q < anchor && node != UINT32_MAX; q++) {
                points += tile_points(s, s->cells[q]);
                node = follow(s, node, s->cells[q] & LETTER_MASK);
            }
            if (node != UINT32_MAX) {
                extend(s, anchor, node, points, 1, 0, 0, lone);
            }
        } else {
            int has_run = s->next_empty[anchor] != anchor + 1;
            extend(s, anchor, 0, 0, 1, 0, 0, lone && has_run);
            int limit = anchor - previous - 1;
            if (limit > max_left) {
                limit = max_left;
            }
            if (limit > 0 && !s->failed) {
                left_parts(s, anchor, 0, 0, limit);
            }
        }
        previous = anchor;
    }
}

/* ------------------------------------------------------------------------------------------------
 * Reading the arguments.
 */

static int read_grid(Search *s, PyObject *grid, int letters, int *tiles) {
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
        /* ints only: an object's __index__ would run Python code that may shrink the list being read */
        PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
        if (!PyLong_Check(item)) {
            PyErr_Format(PyExc_TypeError, "the rack's count of letter %zd is not an int", i);
            Py_DECREF(seq);
            return -1;
        }
        long v = PyLong_AsLong(item);
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        if (v < 0 || v > MAX_RACK) {
            PyErr_Format(PyExc_ValueError, "the rack holds %ld of letter %zd", v, i);
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

/* Run the whole search; moves land in s->out. Returns -1 with an exception set on bad input. */
static int run_search(Search *s, LexiconObject *lex, RulesObject *rules, PyObject *grid, PyObject *counts,
                      int blanks) {
    /* the output buffer first: the callers free it whatever this returns */
    memset(s, 0, offsetof(Search, out));
    s->out.data = NULL;
    s->out.len = s->out.cap = 0;
    s->failed = 0;
    if (lex->letters != rules->letters) {
        PyErr_Format(PyExc_ValueError, "the lexicon has %d letters, the ruleset %d", lex->letters, rules->letters);
        return -1;
    }
    s->child = lex->child;
    s->mask = lex->mask;
    s->ends = lex->ends;
    s->points = rules->points;
    s->letters = rules->letters;
    s->all_letters = rules->letters == 32 ? 0xFFFFFFFFu : ((1u << rules->letters) - 1);
    s->rack_size = rules->rack_size;
    s->bingo = rules->bingo;
    int tiles;
    if (read_grid(s, grid, rules->letters, &tiles) < 0 || read_rack(s, counts, blanks, rules->letters,
                                                                    rules->rack_size) < 0) {
        return -1;
    }
    if (s->rack_len == 0 || lex->nedges == 0) {
        return 0;
    }
    for (int view = 0; view < 2 && !s->failed; view++) {
        for (int line = 0; line < SIZE && !s->failed; line++) {
            search_line(s, rules, view, line, tiles == 0);
        }
    }
    if (s->failed) {
        PyMem_Free(s->out.data);
        s->out.data = NULL;
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------------------------------------
 * Module functions.
 */

static PyObject *placement_type = NULL;  /* engine.move.Placement */
static PyObject *directions[2] = {NULL, NULL};  /* Direction.ACROSS, Direction.DOWN */
static PyObject *square_tiles = NULL;  /* tuple: (row, col, tile) at (row * SIZE + col) * TILE_CODES + tile */

static PyObject *set_types(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *placement, *across, *down, *squares;
    if (!PyArg_ParseTuple(args, "OOOO:set_types", &placement, &across, &down, &squares)) {
        return NULL;
    }
    if (!PyType_Check(placement) || !PyType_IsSubtype((PyTypeObject *)placement, &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError, "Placement must be a tuple subclass");
        return NULL;
    }
    if (!PyTuple_Check(squares) || PyTuple_GET_SIZE(squares) != SQUARES * TILE_CODES) {
        PyErr_Format(PyExc_ValueError, "the square-tile table must be a tuple of %d entries", SQUARES * TILE_CODES);
        return NULL;
    }
    Py_INCREF(placement);
    Py_INCREF(across);
    Py_INCREF(down);
    Py_INCREF(squares);
    Py_XSETREF(placement_type, placement);
    Py_XSETREF(directions[0], across);
    Py_XSETREF(directions[1], down);
    Py_XSETREF(square_tiles, squares);
    Py_RETURN_NONE;
}

static int parse_call(PyObject *args, LexiconObject **lex, RulesObject **rules, PyObject **grid, PyObject **counts,
                      int *blanks, const char *format) {
    return PyArg_ParseTuple(args, format, &LexiconType, lex, &RulesType, rules, grid, counts, blanks);
}

static PyObject *generate_flat(PyObject *module, PyObject *args) {
    (void)module;
    LexiconObject *lex;
    RulesObject *rules;
    PyObject *grid, *counts;
    int blanks;
    if (!parse_call(args, &lex, &rules, &grid, &counts, &blanks, "O!O!OOi:generate_flat")) {
        return NULL;
    }
    Search *s = PyMem_Malloc(sizeof(Search));
    if (s == NULL) {
        return PyErr_NoMemory();
    }
    PyObject *result = NULL;
    if (run_search(s, lex, rules, grid, counts, blanks) == 0) {
        result = PyBytes_FromStringAndSize((const char *)s->out.data, (Py_ssize_t)(s->out.len * sizeof(int32_t)));
    }
    PyMem_Free(s->out.data);
    PyMem_Free(s);
    return result;
}

static PyObject *generate(PyObject *module, PyObject *args) {
    (void)module;
    LexiconObject *lex;
    RulesObject *rules;
    PyObject *grid, *counts;
    int blanks;
    if (placement_type == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "engine._native.set_types was not called");
        return NULL;
    }
    if (!parse_call(args, &lex, &rules, &grid, &counts, &blanks, "O!O!OOi:generate")) {
        return NULL;
    }
    Search *s = PyMem_Malloc(sizeof(Search));
    if (s == NULL) {
        return PyErr_NoMemory();
    }
    PyObject *result = NULL;
    if (run_search(s, lex, rules, grid, counts, blanks) < 0) {
        goto done;
    }
    result = PyList_New(0);
    if (result == NULL) {
        goto done;
    }
    PyTypeObject *type = (PyTypeObject *)placement_type;
    size_t at = 0;
    while (at < s->out.len) {
        const int32_t *move = s->out.data + at;
        int n = move[0];
        PyObject *tiles = PyTuple_New(n);
        if (tiles == NULL) {
            Py_CLEAR(result);
            goto done;
        }
        for (int i = 0; i < n; i++) {
            int row = move[3 + 3 * i], col = move[4 + 3 * i], tile = move[5 + 3 * i];
            PyObject *square = PyTuple_GET_ITEM(square_tiles, (row * SIZE + col) * TILE_CODES + tile);
            Py_INCREF(square);
            PyTuple_SET_ITEM(tiles, i, square);
        }
        PyObject *score = PyLong_FromLong(move[2]);
        PyObject *placement = score ? type->tp_alloc(type, 3) : NULL;
        if (placement == NULL) {
            Py_DECREF(tiles);
            Py_XDECREF(score);
            Py_CLEAR(result);
            goto done;
        }
        PyObject *direction = directions[move[1]];
        Py_INCREF(direction);
        PyTuple_SET_ITEM(placement, 0, tiles);
        PyTuple_SET_ITEM(placement, 1, direction);
        PyTuple_SET_ITEM(placement, 2, score);
        int appended = PyList_Append(result, placement);
        Py_DECREF(placement);
        if (appended < 0) {
            Py_CLEAR(result);
            goto done;
        }
        at += 3 + 3 * (size_t)n;
    }
done:
    PyMem_Free(s->out.data);
    PyMem_Free(s);
    return result;
}

static PyMethodDef methods[] = {
    {"generate", generate, METH_VARARGS,
     "generate(lexicon, rules, grid, counts, blanks) -> list of Placement: every legal, scored placement."},
    {"generate_flat", generate_flat, METH_VARARGS,
     "generate_flat(lexicon, rules, grid, counts, blanks) -> bytes of int32: per move n, direction, score, "
     "then row, col, tile for each of its n tiles."},
    {"set_types", set_types, METH_VARARGS,
     "set_types(Placement, ACROSS, DOWN, squares): the Python types generate builds its moves from."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "engine._native", "The move generator's hot path in C (see engine/movegen.py).", -1,
    methods,
};

PyMODINIT_FUNC PyInit__native(void) {
    if (PyType_Ready(&LexiconType) < 0 || PyType_Ready(&RulesType) < 0) {
        return NULL;
    }
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) {
        return NULL;
    }
    Py_INCREF(&LexiconType);
    Py_INCREF(&RulesType);
    if (PyModule_AddObject(m, "Lexicon", (PyObject *)&LexiconType) < 0 ||
        PyModule_AddObject(m, "Rules", (PyObject *)&RulesType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
