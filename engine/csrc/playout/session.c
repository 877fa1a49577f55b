/*
 * A simulation's playouts over many calls (engine._native.playout_session, engine.playout.NativeSession).
 *
 * engine._native.playouts sets up what does not depend on the draws at every call: the position's
 * cross-checks, each candidate's board and the lines it changed, the shared lines. Under a time budget a
 * simulation calls the kernel once per draw, so that set-up was paid hundreds of times a decision for the
 * same position and candidates. A session makes it once (playouts_open, with the same checks) and each
 * run plays a batch of draws for the candidates still in the running: the same values as playouts with
 * those candidates, in the order given.
 *
 * The session holds its lexicon, ruleset and leave table; a lexicon patched after the session was made
 * (its DAWG moved) is refused, as is every bad draw or candidate index.
 */

#include "playouts.h"

typedef struct {
    PyObject_HEAD
    Playouts p;
    int open;           /* whether p holds a state (0 after it failed: out of memory) */
    LexiconObject *lex;  /* held, with the rules and the table */
    RulesObject *rules;
    LeaveTableObject *table;
    long patches;  /* lex->patches when the session was made */
    int running;   /* a run is playing (without the interpreter's lock): another thread's run is refused */
} SessionObject;

int32_t *copied_ints(const Py_buffer *view) {
    size_t n = (size_t)(view->len / 4);
    int32_t *copy = PyMem_RawMalloc(sizeof(int32_t) * (n > 0 ? n : 1));
    if (copy == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    memcpy(copy, view->buf, sizeof(int32_t) * n);
    return copy;
}

int playouts_play_unlocked(Playouts *p, const int32_t *draws, Py_ssize_t iterations, const int *playing,
                           int nplaying, double *values) {
    int failed;
    lexicon_hold(p->k.lex);
    Py_BEGIN_ALLOW_THREADS
    failed = playouts_play(p, draws, iterations, playing, nplaying, values);
    Py_END_ALLOW_THREADS
    lexicon_let_go(p->k.lex);
    return failed;
}

static void session_dealloc(SessionObject *self) {
    if (self->open) {
        playouts_close(&self->p);
    }
    Py_XDECREF(self->lex);
    Py_XDECREF(self->rules);
    Py_XDECREF(self->table);
    PyObject_Free(self);
}

/* PlayoutSession.run(draws, playing) -> bytes of doubles: the value of candidate playing[j] in draw it at
 * it * len(playing) + j. */
static PyObject *session_run(SessionObject *self, PyObject *args) {
    PyObject *draws_obj, *playing_obj;
    if (!PyArg_ParseTuple(args, "OO:run", &draws_obj, &playing_obj)) {
        return NULL;
    }
    if (!self->open) {
        PyErr_SetString(PyExc_ValueError, "the session failed before (out of memory) and is closed");
        return NULL;
    }
    if (self->lex->patches != self->patches) {
        PyErr_SetString(PyExc_ValueError, "the lexicon was patched after the session was made");
        return NULL;
    }
    if (self->running) {
        PyErr_SetString(PyExc_RuntimeError, "the session is running in another thread: one run at a time");
        return NULL;
    }
    Py_buffer draws_view, playing_view;
    if (read_ints(draws_obj, &draws_view, "draws") < 0) {
        return NULL;
    }
    if (read_ints(playing_obj, &playing_view, "playing") < 0) {
        PyBuffer_Release(&draws_view);
        return NULL;
    }
    PyObject *result = NULL;
    double *values = NULL;
    char *seen = NULL;
    /* copies: the run reads them without the lock, when another thread could write into the arrays */
    int32_t *draws = copied_ints(&draws_view);
    int32_t *playing = draws != NULL ? copied_ints(&playing_view) : NULL;
    Py_ssize_t nplaying = playing_view.len / 4;
    if (playing == NULL) {
        goto done;
    }
    Py_ssize_t iterations = playouts_draws(&self->p, draws, draws_view.len / 4);
    if (iterations < 0) {
        goto done;
    }
    if (nplaying < 1 || nplaying > self->p.ncand) {
        PyErr_Format(PyExc_ValueError, "%zd candidates playing, of the session's %d", nplaying, self->p.ncand);
        goto done;
    }
    seen = PyMem_RawCalloc((size_t)self->p.ncand, 1);
    values = PyMem_RawMalloc(sizeof(double) * (size_t)(iterations * nplaying + 1));
    if (seen == NULL || values == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t j = 0; j < nplaying; j++) {
        if (playing[j] < 0 || playing[j] >= self->p.ncand || seen[playing[j]]) {
            PyErr_Format(PyExc_ValueError, "candidate %d is not one of the session's %d, or named twice", playing[j],
                         self->p.ncand);
            goto done;
        }
        seen[playing[j]] = 1;
    }
    self->running = 1;
    int failed = playouts_play_unlocked(&self->p, draws, iterations, playing, (int)nplaying, values);
    self->running = 0;
    if (failed < 0) {
        playouts_close(&self->p);  /* its caches may be half made */
        self->open = 0;
        PyErr_NoMemory();
        goto done;
    }
    result = PyBytes_FromStringAndSize((const char *)values,
                                       (Py_ssize_t)(sizeof(double) * (size_t)(iterations * nplaying)));
done:
    PyMem_RawFree(draws);
    PyMem_RawFree(playing);
    PyMem_RawFree(seen);
    PyMem_RawFree(values);
    PyBuffer_Release(&draws_view);
    PyBuffer_Release(&playing_view);
    return result;
}

static PyMethodDef session_methods[] = {
    {"run", (PyCFunction)session_run, METH_VARARGS,
     "run(draws, playing) -> bytes of doubles: the draws (an array('i') of whole draws) played for the "
     "candidates `playing` (an array('i') of distinct indices), one value per (draw, candidate playing)."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject SessionType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "engine._native.PlayoutSession",
    .tp_basicsize = sizeof(SessionObject),
    .tp_dealloc = (destructor)session_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A simulation's playouts of one position and candidates over many calls (playout_session).",
    .tp_methods = session_methods,
};

PyObject *playout_session(PyObject *module, PyObject *args, PyObject *kwargs) {
    (void)module;
    static char *names[] = {"lexicon", "rules", "leave", "grid", "counts", "blanks", "candidates", "ncandidates",
                            "held", "bag", "swap_cost", "swap_min_bag", "endgame_width", "plies", "to_end", NULL};
    LexiconObject *lex;
    RulesObject *rules;
    LeaveTableObject *table;
    PyObject *grid, *counts, *moves_obj;
    int blanks, ncand, held, bag_size, swap_min_bag, endgame_width, plies = 2, to_end = 0;
    double swap_cost;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O!O!O!OOiOiiidii|ii:playout_session", names, &LexiconType, &lex,
                                     &RulesType, &rules, &LeaveTableType, &table, &grid, &counts, &blanks, &moves_obj,
                                     &ncand, &held, &bag_size, &swap_cost, &swap_min_bag, &endgame_width, &plies,
                                     &to_end)) {
        return NULL;
    }
    Py_buffer moves_view;
    if (read_ints(moves_obj, &moves_view, "candidates") < 0) {
        return NULL;
    }
    SessionObject *self = PyObject_New(SessionObject, &SessionType);
    if (self == NULL) {
        PyBuffer_Release(&moves_view);
        return NULL;
    }
    self->open = 0;
    self->running = 0;
    self->lex = NULL;
    self->rules = NULL;
    self->table = NULL;
    if (playouts_open(&self->p, lex, rules, table, grid, counts, blanks, &moves_view, ncand, held, bag_size,
                      swap_cost, swap_min_bag, endgame_width, plies, to_end) < 0) {
        PyBuffer_Release(&moves_view);
        Py_DECREF(self);
        return NULL;
    }
    PyBuffer_Release(&moves_view);
    self->open = 1;
    Py_INCREF(lex);
    Py_INCREF(rules);
    Py_INCREF(table);
    self->lex = lex;
    self->rules = rules;
    self->table = table;
    self->patches = lex->patches;
    return (PyObject *)self;
}
