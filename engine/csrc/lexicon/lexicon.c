/*
 * The Lexicon and Rules types: what the search reads, copied from Python and checked once.
 */

#include "lexicon.h"

/* ------------------------------------------------------------------------------------------------
 * Lexicon: the DAWG's three arrays, copied and checked once.
 */

static void lexicon_dealloc(LexiconObject *self) {
    anagrams_free(self);
    PyMem_RawFree(self->edges);
    PyMem_RawFree(self->child);
    PyMem_RawFree(self->mask);
    PyMem_RawFree(self->ends);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Room for the edges of a lexicon of `nedges` edges (NULL with MemoryError). */
static DawgEdge *edges_alloc(Py_ssize_t nedges) {
    DawgEdge *edges = PyMem_RawMalloc((size_t)(nedges > 0 ? nedges : 1) * sizeof(DawgEdge));
    if (edges == NULL) {
        PyErr_NoMemory();
    }
    return edges;
}

/* The edges with their nodes' letters and word ends (DawgEdge) into `edges` (from edges_alloc), made from
 * the three arrays (checked: every edge leads to a node), in place of the lexicon's. */
static void edges_fill(LexiconObject *self, DawgEdge *edges) {
    for (Py_ssize_t e = 0; e < self->nedges; e++) {
        uint32_t node = self->child[e];
        edges[e] = (DawgEdge){node, self->mask[node], self->ends[node]};
    }
    PyMem_RawFree(self->edges);
    self->edges = edges;
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
    copy = PyMem_RawMalloc((size_t)(count > 0 ? count : 1) * sizeof(uint32_t));
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

/* What the Python side's _path_problem checks, in the same order: from the root, no word ends on a letter
 * without its edge and no path comes back to a node on it (a cycle). Every node is entered once. Sets a
 * ValueError and returns -1 on a problem (or on no memory). The arrays' bounds are checked before. */
static int check_paths(LexiconObject *self) {
    Py_ssize_t nodes = self->nnodes;
    unsigned char *state = PyMem_RawCalloc((size_t)nodes, 1); /* 0 not reached, 1 on the path, 2 done */
    Py_ssize_t *path = PyMem_RawMalloc((size_t)nodes * sizeof(Py_ssize_t));
    Py_ssize_t *next = PyMem_RawMalloc((size_t)nodes * sizeof(Py_ssize_t));
    int result = -1;
    if (state == NULL || path == NULL || next == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    const uint32_t *child = self->child, *mask = self->mask, *ends = self->ends;
    if (ends[0] & ~mask[0]) {
        PyErr_Format(PyExc_ValueError, "node 0 ends a word on a letter it has no edge for");
        goto done;
    }
    Py_ssize_t depth = 1;
    path[0] = 0;
    next[0] = 0;
    state[0] = 1;
    while (depth) {
        Py_ssize_t node = path[depth - 1], edge = next[depth - 1];
        if (edge == node + POPCOUNT(mask[node])) {
            state[node] = 2;
            depth--;
            continue;
        }
        next[depth - 1] = edge + 1;
        uint32_t target = child[edge];
        if (state[target] == 2) continue;
        if (state[target] == 1) {
            PyErr_Format(PyExc_ValueError, "edge %zd leads back to node %u on its own path: the lexicon has a cycle",
                         edge, target);
            goto done;
        }
        if (ends[target] & ~mask[target]) {
            PyErr_Format(PyExc_ValueError, "node %u ends a word on a letter it has no edge for", target);
            goto done;
        }
        if (!mask[target]) {
            state[target] = 2;
            continue;
        }
        state[target] = 1; /* a node is on the path at most once, so depth stays below nodes */
        path[depth] = target;
        next[depth] = target;
        depth++;
    }
    result = 0;
done:
    PyMem_RawFree(state);
    PyMem_RawFree(path);
    PyMem_RawFree(next);
    return result;
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
    if (check_paths(self) < 0) goto fail;
    DawgEdge *edges = edges_alloc(self->nedges);
    if (edges == NULL) goto fail;
    edges_fill(self, edges);
    return (PyObject *)self;
fail:
    Py_DECREF(self);
    return NULL;
}

/* A read-only view of an array('I') without copying it; 0, or -1 with an exception set. */
static int view_u32(PyObject *source, const char *name, Py_buffer *view) {
    if (!PyObject_CheckBuffer(source)) {
        PyErr_Format(PyExc_TypeError, "lexicon array %s must be an array('I'), not %.100s", name,
                     Py_TYPE(source)->tp_name);
        return -1;
    }
    if (PyObject_GetBuffer(source, view, PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0) {
        return -1;
    }
    if (view->itemsize != 4 || view->format == NULL || (strcmp(view->format, "I") != 0 && strcmp(view->format, "=I") != 0
                                                        && strcmp(view->format, "<I") != 0)) {
        PyErr_Format(PyExc_TypeError, "lexicon array %s must hold unsigned 32-bit ints (array('I'))", name);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* Lexicon.patch(child, mask, ends, first, changed): the Python arrays after words were added or removed in
 * place (engine/overlay.py): entries from `first` on are taken (the arrays grew; the trailing node moved),
 * and so are the entries at the indices of `changed` (an array('I'), each below `first`), read from the
 * arrays where they are (no copy of the rest). The taken entries are checked as the constructor checks
 * all of them (the others were checked before); on a problem nothing changes. */
static PyObject *lexicon_patch(LexiconObject *self, PyObject *args) {
    PyObject *objects[4];
    Py_ssize_t first;
    if (!PyArg_ParseTuple(args, "OOOnO:patch", &objects[0], &objects[1], &objects[2], &first, &objects[3])) {
        return NULL;
    }
    if (self->busy > 0) {
        PyErr_Format(PyExc_RuntimeError, "patch: the lexicon is read by %ld search(es) running in other threads; "
                     "patch it from the thread that searches, between searches", self->busy);
        return NULL;
    }
    static const char *names[4] = {"child", "mask", "ends", "changed"};
    Py_buffer views[4];
    int held = 0;
    PyObject *result = NULL;
    for (; held < 4; held++) {
        if (view_u32(objects[held], names[held], &views[held]) < 0) goto done;
    }
    const uint32_t *child = views[0].buf, *mask = views[1].buf, *ends = views[2].buf, *changed = views[3].buf;
    Py_ssize_t nedges = views[0].len / 4, nnodes = views[1].len / 4, nchanged = views[3].len / 4;
    if (views[2].len / 4 != nnodes) {
        PyErr_Format(PyExc_ValueError, "lexicon array ends has %zd entries, expected %zd", views[2].len / 4, nnodes);
        goto done;
    }
    if (first < 0 || first > self->nedges || nedges < self->nedges || nnodes < self->nnodes || nnodes <= first
        || nedges >= (Py_ssize_t)UINT32_MAX) {
        PyErr_Format(PyExc_ValueError, "patch: first %zd does not fit the arrays (%zd edges, %zd nodes)", first,
                     nedges, nnodes);
        goto done;
    }
    uint32_t allowed = self->letters == 32 ? 0xFFFFFFFFu : ((1u << self->letters) - 1);
    for (Py_ssize_t k = 0; k < nchanged + (nnodes - first); k++) {
        Py_ssize_t i = k < nchanged ? (Py_ssize_t)changed[k] : first + (k - nchanged);
        if (k < nchanged && i >= first) {
            PyErr_Format(PyExc_ValueError, "patch: changed index %zd is not below first %zd", i, first);
            goto done;
        }
        if ((mask[i] & ~allowed) || (ends[i] & ~allowed)) {
            PyErr_Format(PyExc_ValueError, "lexicon node %zd has a letter outside the alphabet of %d letters", i,
                         self->letters);
            goto done;
        }
        if (mask[i] && i + POPCOUNT(mask[i]) > nedges) {
            PyErr_Format(PyExc_ValueError, "lexicon node %zd has edges past the end of the arrays", i);
            goto done;
        }
        if (i < nedges && (Py_ssize_t)child[i] >= nnodes) {
            PyErr_Format(PyExc_ValueError, "lexicon edge %zd points outside the arrays", i);
            goto done;
        }
    }
    DawgEdge *edges = edges_alloc(nedges);  /* first: once the arrays' entries change, nothing can fail */
    if (edges == NULL) goto done;
    uint32_t *c2 = PyMem_RawRealloc(self->child, (size_t)(nedges > 0 ? nedges : 1) * sizeof(uint32_t));
    if (c2 == NULL) { PyErr_NoMemory(); PyMem_RawFree(edges); goto done; }
    self->child = c2;
    uint32_t *m2 = PyMem_RawRealloc(self->mask, (size_t)nnodes * sizeof(uint32_t));
    if (m2 == NULL) { PyErr_NoMemory(); PyMem_RawFree(edges); goto done; }
    self->mask = m2;
    uint32_t *e2 = PyMem_RawRealloc(self->ends, (size_t)nnodes * sizeof(uint32_t));
    if (e2 == NULL) { PyErr_NoMemory(); PyMem_RawFree(edges); goto done; }
    self->ends = e2;
    for (Py_ssize_t k = 0; k < nchanged; k++) {
        Py_ssize_t i = changed[k];
        if (i < nedges) self->child[i] = child[i];
        self->mask[i] = mask[i];
        self->ends[i] = ends[i];
    }
    if (nedges > first) memcpy(self->child + first, child + first, (size_t)(nedges - first) * sizeof(uint32_t));
    memcpy(self->mask + first, mask + first, (size_t)(nnodes - first) * sizeof(uint32_t));
    memcpy(self->ends + first, ends + first, (size_t)(nnodes - first) * sizeof(uint32_t));
    self->nedges = nedges;
    self->nnodes = nnodes;
    edges_fill(self, edges);
    anagrams_free(self);  /* the words changed */
    self->patches++;
    result = Py_None;
    Py_INCREF(result);
done:
    for (int i = 0; i < held; i++) PyBuffer_Release(&views[i]);
    return result;
}

static PyMethodDef lexicon_methods[] = {
    {"patch", (PyCFunction)lexicon_patch, METH_VARARGS,
     "patch(child, mask, ends, first, changed): take the arrays' entries from first on and at the changed "
     "indices (after words were added or removed in place)."},
    {NULL},
};

static PyObject *lexicon_edges(LexiconObject *self, void *closure) {
    (void)closure;
    return PyLong_FromSsize_t(self->nedges);
}

static PyObject *lexicon_multisets(LexiconObject *self, void *closure) {
    (void)closure;
    if (self->anagrams == NULL) {
        Py_RETURN_NONE;
    }
    return PyLong_FromSize_t(self->anagrams->count);
}

static PyGetSetDef lexicon_getset[] = {
    {"edges", (getter)lexicon_edges, NULL, "number of edges", NULL},
    {"multisets", (getter)lexicon_multisets, NULL,
     "the distinct multisets of letters of the words of a rack's size or longer that the playouts' anchor "
     "bounds hold (None: not made since the lexicon was made or last patched)", NULL},
    {NULL},
};

PyTypeObject LexiconType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "engine._native.Lexicon",
    .tp_basicsize = sizeof(LexiconObject),
    .tp_dealloc = (destructor)lexicon_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Lexicon(child, mask, ends, letters): a DAWG's arrays (array('I')), checked and copied.",
    .tp_new = lexicon_new,
    .tp_getset = lexicon_getset,
    .tp_methods = lexicon_methods,
};

/* ------------------------------------------------------------------------------------------------
 * Rules: letter points, the premium layout (both views), the start square, rack size and bingo.
 */

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

PyTypeObject RulesType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "engine._native.Rules",
    .tp_basicsize = sizeof(RulesObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Rules(points, letter_multipliers, word_multipliers, start, rack_size, bingo): bytes per letter, "
              "bytes per square (row-major), the start square's index.",
    .tp_new = rules_new,
};
