/*
 * Equity inside the search (top_equity): the best k moves by score plus the value of the tiles kept.
 *
 * The kept tiles of a move are named by a mixed-radix index over the rack's distinct tiles (each
 * letter it holds, then the blank): the rack itself is `full`, and each new tile takes its tile's
 * stride off it. The value of every kept multiset (at most 2^7 for 7 tiles) is worked out once per
 * call, from a LeaveTable (the factorised learned model) or handed over as a list.
 */

#include "movegen.h"

/* -1 if a ranks before b: higher equity, then the tiles in reading order (shorter first on a tie). */
int candidate_order(const Candidate *a, const Candidate *b) {
    if (a->equity != b->equity) {
        return a->equity > b->equity ? -1 : 1;
    }
    int n = a->n < b->n ? a->n : b->n;
    for (int i = 0; i < 3 * n; i++) {
        if (a->tiles[i] != b->tiles[i]) {
            return a->tiles[i] < b->tiles[i] ? -1 : 1;
        }
    }
    return a->n == b->n ? 0 : (a->n < b->n ? -1 : 1);
}

/* Put a candidate in its place among the best k (dropped if it ranks after all of them). */
void top_insert(struct TopK *top, const Candidate *c) {
    if (top->k <= 0) {
        return;
    }
    if (top->count == top->k && candidate_order(c, &top->items[top->count - 1]) >= 0) {
        return;
    }
    int at = top->count < top->k ? top->count++ : top->count - 1;
    while (at > 0 && candidate_order(c, &top->items[at - 1]) < 0) {
        top->items[at] = top->items[at - 1];
        at--;
    }
    top->items[at] = *c;
}

void offer(Search *s, uint32_t blank_set, int score) {
    struct TopK *top = s->top;
    int index = top->full;
    for (int i = 0; i < s->placed; i++) {
        index -= (blank_set >> i) & 1 ? top->blank_stride : top->stride[s->letter[i]];
    }
    double equity = (double)score + top->weight * top_kept(top, index);
    if (top->count == top->k && top->k > 0 && equity < top->items[top->count - 1].equity) {
        return;  /* below the last of a full list: top_insert would drop it */
    }
    Candidate c;
    c.n = s->placed;
    c.view = s->view;
    c.score = score;
    c.equity = equity;
    for (int i = 0; i < s->placed; i++) {
        int p = s->pos[i];
        c.tiles[3 * i] = s->view == 0 ? s->line : p;
        c.tiles[3 * i + 1] = s->view == 0 ? p : s->line;
        c.tiles[3 * i + 2] = s->letter[i] | ((blank_set >> i) & 1 ? BLANK_FLAG : 0);
    }
    top_insert(top, &c);
}

static void leave_table_dealloc(LeaveTableObject *self) {
    PyMem_RawFree(self->weights);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static Py_ssize_t leave_features(int letters, int max_size) {
    Py_ssize_t tiles = letters + 1;
    return tiles * COPIES + tiles * (tiles - 1) / 2 + (Py_ssize_t)max_size * (max_size + 3) / 2;
}

static PyObject *leave_table_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"weights", "letters", "vowels", "max_size", NULL};
    PyObject *weights;
    int letters, max_size;
    unsigned int vowels;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OiIi:LeaveTable", names, &weights, &letters, &vowels,
                                     &max_size)) {
        return NULL;
    }
    if (letters < 1 || letters > MAX_LETTERS || max_size < 1 || max_size > MAX_RACK) {
        PyErr_Format(PyExc_ValueError, "a leave table for %d letters and leaves of up to %d tiles is not supported",
                     letters, max_size);
        return NULL;
    }
    if (letters < 32 && (vowels >> letters)) {
        PyErr_SetString(PyExc_ValueError, "a vowel outside the alphabet");
        return NULL;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(weights, &view, PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0) {
        return NULL;
    }
    Py_ssize_t expected = leave_features(letters, max_size);
    if (view.itemsize != 8 || view.format == NULL || strcmp(view.format, "d") != 0 || view.len / 8 != expected) {
        PyErr_Format(PyExc_ValueError, "leave weights must be %zd doubles (array('d')), got %zd bytes", expected,
                     view.len);
        PyBuffer_Release(&view);
        return NULL;
    }
    LeaveTableObject *self = (LeaveTableObject *)type->tp_alloc(type, 0);
    if (self == NULL) {
        PyBuffer_Release(&view);
        return NULL;
    }
    self->weights = PyMem_RawMalloc((size_t)expected * sizeof(double));
    if (self->weights == NULL) {
        PyBuffer_Release(&view);
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    memcpy(self->weights, view.buf, (size_t)expected * sizeof(double));
    PyBuffer_Release(&view);
    self->size = expected;
    self->letters = letters;
    self->vowels = vowels;
    self->max_size = max_size;
    return (PyObject *)self;
}

/* The value of a leave given as its distinct tiles (`present`, codes ascending with the blank, code
 * letters, last), their `copies`, its `size` and its `vowels`: the features summed one by one in the
 * reference's order (so equal to the last bit). */
double leave_features_value(const LeaveTableObject *table, const int *present, const int *copies, int npresent,
                            int size, int vowels) {
    int tiles = table->letters + 1;
    double value = 0.0;
    const double *w = table->weights;
    for (int i = 0; i < npresent; i++) {
        for (int k = 0; k < copies[i] && k < COPIES; k++) {
            value += w[present[i] * COPIES + k];
        }
    }
    int pair_base = tiles * COPIES;
    for (int i = 0; i < npresent; i++) {
        int a = present[i];
        int row = pair_base + a * tiles - a * (a + 1) / 2;
        for (int j = i + 1; j < npresent; j++) {
            value += w[row + present[j] - a - 1];
        }
    }
    if (size) {
        int shape_base = pair_base + tiles * (tiles - 1) / 2;
        if (size > table->max_size) {
            size = table->max_size;
        }
        value += w[shape_base + (size - 1) * (size + 2) / 2 + (vowels < size ? vowels : size)];
    }
    return value;
}

/* The value of a leave given as counts per letter and blanks. */
double leave_value(const LeaveTableObject *table, const int *counts, int blanks) {
    int present[MAX_LETTERS + 1], copies[MAX_LETTERS + 1], npresent = 0, size = 0, vowels = 0;
    for (int code = 0; code < table->letters; code++) {
        if (counts[code]) {
            present[npresent] = code;
            copies[npresent++] = counts[code];
            size += counts[code];
            if ((table->vowels >> code) & 1) {
                vowels += counts[code];
            }
        }
    }
    if (blanks) {
        present[npresent] = table->letters;
        copies[npresent++] = blanks;
        size += blanks;
    }
    return leave_features_value(table, present, copies, npresent, size, vowels);
}

static PyObject *leave_table_value(LeaveTableObject *self, PyObject *args) {
    PyObject *counts;
    int blanks;
    if (!PyArg_ParseTuple(args, "Oi:value", &counts, &blanks)) {
        return NULL;
    }
    PyObject *seq = PySequence_Fast(counts, "counts must be a sequence of ints");
    if (seq == NULL) {
        return NULL;
    }
    int values[MAX_LETTERS];
    if (PySequence_Fast_GET_SIZE(seq) != self->letters || blanks < 0 || blanks > MAX_RACK) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "a leave needs counts for %d letters and 0 to %d blanks", self->letters,
                     MAX_RACK);
        return NULL;
    }
    for (int i = 0; i < self->letters; i++) {
        /* ints only: an object's __index__ would run Python code that may shrink the list being read */
        PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
        if (!PyLong_Check(item)) {
            Py_DECREF(seq);
            PyErr_Format(PyExc_TypeError, "the leave's count of letter %d is not an int", i);
            return NULL;
        }
        long v = PyLong_AsLong(item);
        if ((v == -1 && PyErr_Occurred()) || v < 0 || v > MAX_RACK) {
            Py_DECREF(seq);
            if (!PyErr_Occurred()) {
                PyErr_Format(PyExc_ValueError, "a leave count of %ld", v);
            }
            return NULL;
        }
        values[i] = (int)v;
    }
    Py_DECREF(seq);
    return PyFloat_FromDouble(leave_value(self, values, blanks));
}

static PyMethodDef leave_table_methods[] = {
    {"value", (PyCFunction)leave_table_value, METH_VARARGS, "value(counts, blanks): the leave's value."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject LeaveTableType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "engine._native.LeaveTable",
    .tp_basicsize = sizeof(LeaveTableObject),
    .tp_dealloc = (destructor)leave_table_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "LeaveTable(weights, letters, vowels, max_size): the learned leave model's weights (array('d')) "
              "in the order of engine.leavetable.LeaveFeatures, the vowels as a letter bitmask.",
    .tp_new = leave_table_new,
    .tp_methods = leave_table_methods,
};


/* The rack's distinct tiles (letters in code order, then the blank) and the stride of each in the
 * mixed-radix index of a kept multiset; returns how many kept multisets there are. */
Py_ssize_t kept_layout(const Search *s, struct TopK *top, int *distinct, int *multiplicity, int *ndistinct) {
    Py_ssize_t stride = 1;
    *ndistinct = 0;
    top->full = 0;
    for (int code = 0; code < s->letters; code++) {
        top->stride[code] = 0;
        if (s->counts0[code]) {
            distinct[*ndistinct] = code;
            multiplicity[(*ndistinct)++] = s->counts0[code];
            top->stride[code] = (int)stride;
            top->full += s->counts0[code] * (int)stride;
            stride *= s->counts0[code] + 1;
        }
    }
    top->blank_stride = 0;
    if (s->blanks0) {
        distinct[*ndistinct] = -1;
        multiplicity[(*ndistinct)++] = s->blanks0;
        top->blank_stride = (int)stride;
        top->full += s->blanks0 * (int)stride;
        stride *= s->blanks0 + 1;
    }
    return stride;
}

/* The kept counts of kept-multiset `index` (letters in `counts`, the blanks returned). */
int kept_counts(int index, const int *distinct, const int *multiplicity, int ndistinct, int letters,
                       int *counts) {
    int blanks = 0;
    for (int code = 0; code < letters; code++) {
        counts[code] = 0;
    }
    for (int i = 0; i < ndistinct; i++) {
        int k = index % (multiplicity[i] + 1);
        index /= multiplicity[i] + 1;
        if (distinct[i] < 0) {
            blanks = k;
        } else {
            counts[distinct[i]] = k;
        }
    }
    return blanks;
}

void swaps_top(const Search *s, const struct TopK *top, const double *kept_value, Py_ssize_t nkept,
               const int *distinct, const int *multiplicity, int ndistinct, double swap_cost, struct TopK *list) {
    int counts[MAX_LETTERS];
    for (Py_ssize_t index = 0; index < nkept; index++) {
        if (index == top->full) {
            continue;  /* nothing given back: not a swap */
        }
        int blanks = kept_counts((int)index, distinct, multiplicity, ndistinct, s->letters, counts);
        Candidate c;
        c.equity = kept_value[index] - swap_cost;
        c.n = 0;
        /* the swapped tiles, sorted: blanks (-1) first, then letters; stored one per "tile" slot */
        for (int b = blanks; b < s->blanks0; b++) {
            c.tiles[3 * c.n] = -1;
            c.tiles[3 * c.n + 1] = c.tiles[3 * c.n + 2] = 0;
            c.n++;
        }
        for (int code = 0; code < s->letters; code++) {
            for (int g = counts[code]; g < s->counts0[code]; g++) {
                c.tiles[3 * c.n] = code;
                c.tiles[3 * c.n + 1] = c.tiles[3 * c.n + 2] = 0;
                c.n++;
            }
        }
        top_insert(list, &c);
    }
}

/* (equity, swapped tiles) of the best swaps (swaps_top's), as Python objects. */
PyObject *best_swaps(const Search *s, const struct TopK *top, const double *kept_value, Py_ssize_t nkept,
                            const int *distinct, const int *multiplicity, int ndistinct, int k, double swap_cost) {
    Candidate *best = PyMem_RawCalloc((size_t)(k > 0 ? k : 1), sizeof(Candidate));
    if (best == NULL) {
        return PyErr_NoMemory();
    }
    struct TopK list = {.k = k, .count = 0, .items = best};
    swaps_top(s, top, kept_value, nkept, distinct, multiplicity, ndistinct, swap_cost, &list);
    PyObject *result = PyList_New(list.count);
    for (int i = 0; result != NULL && i < list.count; i++) {
        PyObject *tiles = PyTuple_New(list.items[i].n);
        PyObject *equity = PyFloat_FromDouble(list.items[i].equity);
        PyObject *item = (tiles && equity) ? PyTuple_New(2) : NULL;
        if (item == NULL) {
            Py_XDECREF(tiles);
            Py_XDECREF(equity);
            Py_CLEAR(result);
            break;
        }
        for (int j = 0; j < list.items[i].n; j++) {
            PyTuple_SET_ITEM(tiles, j, PyLong_FromLong(list.items[i].tiles[3 * j]));  /* small ints: cached */
        }
        PyTuple_SET_ITEM(item, 0, equity);
        PyTuple_SET_ITEM(item, 1, tiles);
        PyList_SET_ITEM(result, i, item);
    }
    PyMem_RawFree(best);
    return result;
}
