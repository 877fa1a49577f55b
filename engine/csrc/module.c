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
 *
 * The long calls run without the interpreter's lock, so that the service's other threads (its status
 * page, its signal handlers) go on while the bot thinks: the search of generate, generate_flat and
 * top_equity (search_unlocked: racks with a blank or many tiles), the playouts' draws (playout.c,
 * session.c) and the endgame's search (solve.c). What they read is C memory made under the lock: the
 * board and racks copied into the search, the draws copied out of their array, the lexicon held
 * (lexicon_hold: Lexicon.patch refuses meanwhile); their own memory is PyMem_Raw*'s, which needs no lock;
 * moves are collected into C buffers and made Python objects once the lock is back, and errors are
 * recorded and raised then.
 */

#include "movegen/movegen.h"
#include "playout/playout.h"
#include "endgame/endgame.h"
#include "selfplay/selfplay.h"

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
    Search *s = PyMem_RawMalloc(sizeof(Search));
    if (s == NULL) {
        return PyErr_NoMemory();
    }
    PyObject *result = NULL;
    if (run_search(s, lex, rules, grid, counts, blanks) == 0) {
        result = PyBytes_FromStringAndSize((const char *)s->out.data, (Py_ssize_t)(s->out.len * sizeof(int32_t)));
    }
    PyMem_RawFree(s->out.data);
    PyMem_RawFree(s);
    return result;
}

/* A Placement of n tiles (row, col, tile triples in `tiles`), made of the shared square tuples. */
static PyObject *make_placement(int n, int view, int score, const int32_t *tiles) {
    PyTypeObject *type = (PyTypeObject *)placement_type;
    PyObject *squares = PyTuple_New(n);
    if (squares == NULL) {
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        int row = tiles[3 * i], col = tiles[3 * i + 1], tile = tiles[3 * i + 2];
        PyObject *square = PyTuple_GET_ITEM(square_tiles, (row * SIZE + col) * TILE_CODES + tile);
        Py_INCREF(square);
        PyTuple_SET_ITEM(squares, i, square);
    }
    PyObject *points = PyLong_FromLong(score);
    PyObject *placement = points ? type->tp_alloc(type, 3) : NULL;
    if (placement == NULL) {
        Py_DECREF(squares);
        Py_XDECREF(points);
        return NULL;
    }
    PyObject *direction = directions[view];
    Py_INCREF(direction);
    PyTuple_SET_ITEM(placement, 0, squares);
    PyTuple_SET_ITEM(placement, 1, direction);
    PyTuple_SET_ITEM(placement, 2, points);
    return placement;
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
    Search *s = PyMem_RawMalloc(sizeof(Search));
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
    size_t at = 0;
    while (at < s->out.len) {
        const int32_t *move = s->out.data + at;
        int n = move[0];
        PyObject *placement = make_placement(n, move[1], move[2], move + 3);
        if (placement == NULL) {
            Py_CLEAR(result);
            goto done;
        }
        int appended = PyList_Append(result, placement);
        Py_DECREF(placement);
        if (appended < 0) {
            Py_CLEAR(result);
            goto done;
        }
        at += 3 + 3 * (size_t)n;
    }
done:
    PyMem_RawFree(s->out.data);
    PyMem_RawFree(s);
    return result;
}

static PyObject *top_equity(PyObject *module, PyObject *args, PyObject *kwargs) {
    (void)module;
    static char *names[] = {"lexicon", "rules", "grid", "counts", "blanks", "leave", "k", "weight", "swaps",
                            "swap_cost", NULL};
    LexiconObject *lex;
    RulesObject *rules;
    PyObject *grid, *counts, *leave;
    int blanks, k, swaps;
    double weight, swap_cost;
    if (placement_type == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "engine._native.set_types was not called");
        return NULL;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O!O!OOiOidid:top_equity", names, &LexiconType, &lex, &RulesType,
                                     &rules, &grid, &counts, &blanks, &leave, &k, &weight, &swaps, &swap_cost)) {
        return NULL;
    }
    if (k < 0 || k > 100000 || swaps < 0 || swaps > 100000) {
        PyErr_Format(PyExc_ValueError, "k=%d and swaps=%d must be 0 to 100000", k, swaps);
        return NULL;
    }
    Search *s = PyMem_RawMalloc(sizeof(Search));
    if (s != NULL) {
        s->out.data = NULL;  /* freed at the end whatever happens */
    }
    Candidate *items = PyMem_RawCalloc((size_t)(k > 0 ? k : 1), sizeof(Candidate));
    double *kept_value = NULL;
    PyObject *result = NULL, *placements = NULL, *best = NULL;
    struct TopK top = {.k = k, .count = 0, .items = items, .weight = weight};
    if (s == NULL || items == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    int tiles;
    if (prepare_search(s, lex, rules, grid, counts, blanks, &top, &tiles) < 0) {
        goto done;
    }
    int distinct[MAX_LETTERS + 1], multiplicity[MAX_LETTERS + 1], ndistinct;
    Py_ssize_t nkept = kept_layout(s, &top, distinct, multiplicity, &ndistinct);
    kept_value = PyMem_RawMalloc((size_t)nkept * sizeof(double));
    if (kept_value == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    if (PyObject_TypeCheck(leave, &LeaveTableType)) {
        LeaveTableObject *table = (LeaveTableObject *)leave;
        if (table->letters != s->letters) {
            PyErr_Format(PyExc_ValueError, "the leave table has %d letters, the ruleset %d", table->letters,
                         s->letters);
            goto done;
        }
        int kept[MAX_LETTERS];
        for (Py_ssize_t index = 0; index < nkept; index++) {
            int kept_blanks = kept_counts((int)index, distinct, multiplicity, ndistinct, s->letters, kept);
            kept_value[index] = leave_value(table, kept, kept_blanks);
        }
    } else {
        /* a tuple copy: converting an item may run Python code, which must not change what is read */
        PyObject *seq = PySequence_Check(leave) ? PySequence_Tuple(leave) : NULL;
        if (seq == NULL) {
            if (!PyErr_Occurred() || PyErr_ExceptionMatches(PyExc_TypeError)) {
                PyErr_Clear();
                PyErr_SetString(PyExc_TypeError, "leave must be a LeaveTable or a sequence of kept-leave values");
            }
            goto done;
        }
        if (PyTuple_GET_SIZE(seq) != nkept) {
            PyErr_Format(PyExc_ValueError, "%zd kept-leave values for a rack with %zd kept multisets",
                         PyTuple_GET_SIZE(seq), nkept);
            Py_DECREF(seq);
            goto done;
        }
        for (Py_ssize_t index = 0; index < nkept; index++) {
            kept_value[index] = PyFloat_AsDouble(PyTuple_GET_ITEM(seq, index));
            if (kept_value[index] == -1.0 && PyErr_Occurred()) {
                Py_DECREF(seq);
                goto done;
            }
        }
        Py_DECREF(seq);
    }
    top.kept_value = kept_value;
    if (search_unlocked(s, lex, rules, tiles) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    placements = PyList_New(top.count);
    for (int i = 0; placements != NULL && i < top.count; i++) {
        const Candidate *c = &top.items[i];
        PyObject *placement = make_placement(c->n, c->view, c->score, c->tiles);
        PyObject *equity = PyFloat_FromDouble(c->equity);
        PyObject *item = (placement && equity) ? PyTuple_New(2) : NULL;
        if (item == NULL) {
            Py_XDECREF(placement);
            Py_XDECREF(equity);
            Py_CLEAR(placements);
            break;
        }
        PyTuple_SET_ITEM(item, 0, equity);
        PyTuple_SET_ITEM(item, 1, placement);
        PyList_SET_ITEM(placements, i, item);
    }
    if (placements == NULL) {
        goto done;
    }
    best = best_swaps(s, &top, kept_value, nkept, distinct, multiplicity, ndistinct, swaps, swap_cost);
    if (best == NULL) {
        goto done;
    }
    result = PyTuple_Pack(2, placements, best);
done:
    Py_XDECREF(placements);
    Py_XDECREF(best);
    if (s != NULL) {
        PyMem_RawFree(s->out.data);
    }
    PyMem_RawFree(s);
    PyMem_RawFree(items);
    PyMem_RawFree(kept_value);
    return result;
}

static PyMethodDef methods[] = {
    {"top_equity", (PyCFunction)(void (*)(void))top_equity, METH_VARARGS | METH_KEYWORDS,
     "top_equity(lexicon, rules, grid, counts, blanks, leave, k, weight, swaps, swap_cost) -> "
     "(placements, swaps): the k best placements by equity (score + weight x value of the tiles kept) as "
     "(equity, Placement), and the `swaps` best swaps (value kept - swap_cost) as (equity, tiles given back); "
     "`leave` is a LeaveTable or the values of the rack's kept multisets in mixed-radix order."},
    {"generate", generate, METH_VARARGS,
     "generate(lexicon, rules, grid, counts, blanks) -> list of Placement: every legal, scored placement."},
    {"generate_flat", generate_flat, METH_VARARGS,
     "generate_flat(lexicon, rules, grid, counts, blanks) -> bytes of int32: per move n, direction, score, "
     "then row, col, tile for each of its n tiles."},
    {"playouts", (PyCFunction)(void (*)(void))playouts, METH_VARARGS | METH_KEYWORDS,
     "playouts(lexicon, rules, leave, grid, counts, blanks, candidates, ncandidates, draws, held, bag, swap_cost, "
     "swap_min_bag, endgame_width, plies=2, to_end=0) -> bytes of doubles: the simulation's playouts (see "
     "engine/csrc/playout.c) with `plies` replies after each candidate (to_end=1: and on to the game's end once "
     "the bag is empty), one value per (draw, candidate)."},
    {"playout_session", (PyCFunction)(void (*)(void))playout_session, METH_VARARGS | METH_KEYWORDS,
     "playout_session(lexicon, rules, leave, grid, counts, blanks, candidates, ncandidates, held, bag, swap_cost, "
     "swap_min_bag, endgame_width, plies=2, to_end=0) -> PlayoutSession: playouts' set-up made once; its run(draws, "
     "playing) plays draws for the candidates playing (see engine/csrc/playout/session.c)."},
    {"solve_endgame", (PyCFunction)(void (*)(void))solve_endgame, METH_VARARGS | METH_KEYWORDS,
     "solve_endgame(lexicon, rules, grid, mine, mine_blanks, theirs, theirs_blanks, scoreless, scoreless_to_end, "
     "max_depth, max_nodes, clock, deadline, table_bits) -> (move, value, depth, complete, nodes): the exact "
     "endgame (see endgame/negamax.c); move is None for a pass, else (tiles, direction, score)."},
    {"selfplay_game", (PyCFunction)(void (*)(void))selfplay_game, METH_VARARGS | METH_KEYWORDS,
     "selfplay_game(lexicon, rules, leave, bag, racks, current, game_state, choose_state, explore, width, swap_cost, "
     "swap_min_bag, scoreless_to_end, swap_scoreless) -> list of (seat, score, kept): a game of equity with the "
     "LeaveTable `leave` played on from a fresh board to the turn its bag runs out (see selfplay/selfplay.c); kept "
     "is bytes (each letter's count, then the blanks) or None when no full draw follows the move."},
    {"set_types", set_types, METH_VARARGS,
     "set_types(Placement, ACROSS, DOWN, squares): the Python types generate builds its moves from."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "engine._native", "The move generator's hot path in C (see engine/movegen.py).", -1,
    methods,
};

/* The digest of the sources this was built from (setup.py; engine/sourcedigest.py). */
#ifndef WFB_SOURCE_DIGEST
#define WFB_SOURCE_DIGEST "unknown"
#endif

PyMODINIT_FUNC PyInit__native(void) {
    if (PyType_Ready(&LexiconType) < 0 || PyType_Ready(&RulesType) < 0 || PyType_Ready(&LeaveTableType) < 0 ||
        PyType_Ready(&SessionType) < 0) {
        return NULL;
    }
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) {
        return NULL;
    }
    Py_INCREF(&LexiconType);
    Py_INCREF(&RulesType);
    Py_INCREF(&LeaveTableType);
    if (PyModule_AddObject(m, "Lexicon", (PyObject *)&LexiconType) < 0 ||
        PyModule_AddObject(m, "Rules", (PyObject *)&RulesType) < 0 ||
        PyModule_AddObject(m, "LeaveTable", (PyObject *)&LeaveTableType) < 0 ||
        PyModule_AddStringConstant(m, "SOURCE_DIGEST", WFB_SOURCE_DIGEST) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
