/*
 * The C endgame's Python entry, engine._native.solve_endgame (the search is in negamax.c): the
 * arguments read and checked (hostile input raises, never crashes), the iterations of deepening run
 * within the budgets, the best move handed back.
 */

#include "endgame.h"
#include "solver.h"

#include <stdarg.h>
#include <time.h>  /* (after Python.h, whose feature macros make clock_gettime's clocks seen) */

void failed_memory(Solver *sv) {
    sv->failure = FAILED_MEMORY;
}

void failed_check(Solver *sv, const char *format, ...) {
    va_list args;
    va_start(args, format);
    vsnprintf(sv->failure_text, sizeof sv->failure_text, format, args);
    va_end(args);
    sv->failure = FAILED_CHECK;
}

/* The failure recorded raised, unless an exception (of the clock, called with the lock) is set already. */
static void raise_failure(const Solver *sv) {
    if (PyErr_Occurred()) {
        return;
    }
    if (sv->failure == FAILED_CHECK) {
        PyErr_SetString(PyExc_AssertionError, sv->failure_text);
    } else {
        PyErr_NoMemory();  /* (FAILED_MEMORY: the only other way a search fails) */
    }
}

/* Which C clock `clock` is (C_CLOCK_MONOTONIC, C_CLOCK_PROCESS), or 0 when it is another callable: Python's
 * own time.monotonic, time.perf_counter (CLOCK_MONOTONIC on Linux, as monotonic) and time.process_time
 * (CLOCK_PROCESS_CPUTIME_ID) are known by their C function's name and module, which a stand-in (a test's
 * clock) cannot have. Elsewhere than on Linux, none: the clock is called, with the lock. */
#define C_CLOCK_MONOTONIC 1
#define C_CLOCK_PROCESS 2
static int c_clock_of(PyObject *clock) {
#if defined(__linux__) && defined(CLOCK_MONOTONIC) && defined(CLOCK_PROCESS_CPUTIME_ID)
    if (clock == Py_None || !PyCFunction_Check(clock) || PyCFunction_GET_SELF(clock) == NULL ||
        !PyModule_Check(PyCFunction_GET_SELF(clock))) {
        return 0;
    }
    const char *module = PyModule_GetName(PyCFunction_GET_SELF(clock));
    const char *name = ((PyCFunctionObject *)clock)->m_ml->ml_name;
    if (module == NULL) {
        PyErr_Clear();
        return 0;
    }
    if (strcmp(module, "time") != 0) {
        return 0;
    }
    if (strcmp(name, "monotonic") == 0 || strcmp(name, "perf_counter") == 0) {
        return C_CLOCK_MONOTONIC;
    }
    if (strcmp(name, "process_time") == 0) {
        return C_CLOCK_PROCESS;
    }
#else
    (void)clock;
#endif
    return 0;
}

double c_clock_now(int c_clock) {
#if defined(__linux__) && defined(CLOCK_MONOTONIC) && defined(CLOCK_PROCESS_CPUTIME_ID)
    struct timespec ts;
    if (clock_gettime(c_clock == C_CLOCK_PROCESS ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC, &ts) != 0) {
        return 0.0;  /* (it cannot fail with these clocks) */
    }
    int64_t ns = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
    /* as Python makes its float of the clock's nanoseconds (_PyTime_AsSecondsDouble) */
    return ns % 1000000000 == 0 ? (double)(ns / 1000000000) : (double)ns / 1e9;
#else
    (void)c_clock;
    return 0.0;
#endif
}

static int read_endgame_rack(Solver *sv, PyObject *counts, int blanks, int rack_size, const char *whose,
                             ERack *rack) {
    memset(rack, 0, sizeof(ERack));
    PyObject *seq = PySequence_Fast(counts, "the rack's counts must be a sequence of ints");
    if (seq == NULL) {
        return -1;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n != sv->letters) {
        PyErr_Format(PyExc_ValueError, "%s rack has counts for %zd letters, the alphabet %d", whose, n, sv->letters);
        Py_DECREF(seq);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v;
        if (read_rack_count(seq, i, rack_size, whose, &v) < 0) {
            Py_DECREF(seq);
            return -1;
        }
        rack->counts[i] = (int8_t)v;
        rack->size += (int)v;
        rack->points += (int)v * sv->points[i];
    }
    Py_DECREF(seq);
    if (blanks < 0 || blanks > rack_size) {
        PyErr_Format(PyExc_ValueError, "%s rack has %d blanks", whose, blanks);
        return -1;
    }
    rack->counts[MAX_LETTERS] = (int8_t)blanks;
    rack->size += blanks;
    if (rack->size > rack_size) {
        PyErr_Format(PyExc_ValueError, "%s rack has %d tiles; racks hold %d", whose, rack->size, rack_size);
        return -1;
    }
    rack_rehash(rack);
    return 0;
}

static PyObject *move_object(const EMove *move) {
    if (move->n == 0) {
        Py_RETURN_NONE;
    }
    PyObject *tiles = PyTuple_New(move->n);
    if (tiles == NULL) {
        return NULL;
    }
    for (int k = 0; k < move->n; k++) {
        PyObject *square = Py_BuildValue("(iii)", move->square[k] / SIZE, move->square[k] % SIZE, move->tile[k]);
        if (square == NULL) {
            Py_DECREF(tiles);
            return NULL;
        }
        PyTuple_SET_ITEM(tiles, k, square);
    }
    return Py_BuildValue("(Nii)", tiles, (int)move->view, (int)move->score);
}

/* The iterations of deepening: SHALLOW_STEP, 2 * SHALLOW_STEP, .. up to SHALLOW_LAST, then the whole
 * `max_depth` at once. On the real endgames the iterations between cost more than they save: their
 * leaves are guesses, so each searches its tree again, and the order they leave in the table helps the
 * whole search less than it costs (a search of the whole depth right after depth 2 and 4 visits about
 * half the nodes of one deepened a ply at a time; docs/measurements.md). With the bound of outreplies.c
 * the depth-4 iteration costs more than it saves too: the whole search right after depth 2 visits 19%
 * fewer nodes on the 20 real endgames (3,004,271 against 3,718,287) and runs 2 to 14% fewer instructions
 * on the four that took longest. */
static int first_depth(int max_depth) {
    return SHALLOW_STEP < max_depth ? SHALLOW_STEP : max_depth;
}

static int next_depth(int depth, int max_depth) {
    if (depth >= max_depth) {
        return max_depth + 1;
    }
    int next = depth + SHALLOW_STEP;
    return next > SHALLOW_LAST || next > max_depth ? max_depth : next;
}

/* The iterations of deepening within the budgets, from the position read: the best move and its value, the
 * depth of the last iteration finished and whether it was complete; -1 when the search failed (its failure
 * recorded, or the clock's exception set). Calls nothing of Python unless sv->clock is a Python callable:
 * solve_endgame runs it without the interpreter's lock otherwise. */
static int iterations(Solver *sv, int table_bits, int memo_bits, ERack *mine, ERack *theirs, int scoreless,
                      int max_depth, EMove *best, int *best_value, int *finished, int *complete) {
    Search *s = &sv->gen;
    if (table_start(sv, table_bits) < 0 || (sv->use_memo && memo_start(sv, memo_bits) < 0)) {
        return -1;
    }
    check_all(sv);
    lines_start(sv);
    uint64_t key = 0;
    for (int sq = 0; sq < SQUARES; sq++) {
        if (s->grid[sq] != EMPTY) {
            key ^= square_keys[sq][(uint8_t)s->grid[sq]];
        }
    }
    int have_best = 0;
    *best_value = *finished = *complete = 0;
    for (int depth = first_depth(max_depth); depth <= max_depth; depth = next_depth(depth, max_depth)) {
        /* an aspiration window around the last iteration's value; searched again with the whole window
         * when the value falls outside it */
        int low = have_best ? *best_value - ASPIRATION : -INFINITE_VALUE;
        int high = have_best ? *best_value + ASPIRATION : INFINITE_VALUE;
        sv->cut = 0;
        memset(sv->killers, 0, sizeof(sv->killers));  /* the depths of the last iteration were other plies */
        memset(sv->killer_line, 0, sizeof(sv->killer_line));
        EMove move;
        sv->root_better = 0;
        sv->root_floor = -INFINITE_VALUE;
        int value = value_of(sv, depth, low, high, mine, theirs, scoreless, key, &move);
        if (!sv->stop && (value <= low || value >= high) && have_best) {
            sv->cut = 0;
            sv->root_floor = value <= low ? low : -INFINITE_VALUE;
            value = value_of(sv, depth, -INFINITE_VALUE, INFINITE_VALUE, mine, theirs, scoreless, key, &move);
        }
        if (sv->stop) {
            if (sv->stop == 1 && have_best && sv->root_better) {
                /* out of budget inside the iteration: a root move it proved better than the last
                 * iteration's best (tried first) is the better answer */
                *best = sv->root_move;
                *best_value = sv->root_value;
            }
            break;
        }
        *best_value = value;
        *best = move;
        *finished = depth;
        *complete = !sv->cut;
        have_best = 1;
        if (*complete) {
            break;
        }
    }
    if (sv->stop == 2) {
        return -1;
    }
    if (!have_best) {
        /* not even depth 1 finished: the first move of the ordering */
        sv->nmoves = 0;
        long count = pushed_moves(sv, mine, theirs, NULL);
        if (count < 0) {
            return -1;
        }
        *best = sv->moves[pick(sv->moves, sv->keys, count, 0)];
        *best_value = 0;
    }
    return 0;
}

PyObject *solve_endgame(PyObject *module, PyObject *args, PyObject *kwargs) {
    (void)module;
    static char *names[] = {"lexicon", "rules", "grid", "mine", "mine_blanks", "theirs", "theirs_blanks",
                            "scoreless", "scoreless_to_end", "max_depth", "max_nodes", "clock", "deadline",
                            "table_bits", "line_cache", "check_lines", "killers", "out_bound", "line_memo", "memo_bits", NULL};
    LexiconObject *lex;
    RulesObject *rules;
    PyObject *grid, *mine_counts, *theirs_counts, *clock;
    int mine_blanks, theirs_blanks, scoreless, scoreless_to_end, max_depth, table_bits;
    int line_cache = 1, check_lines = 0, killers = 1, out_bound = 1, line_memo = 1, memo_bits = MEMO_BITS;
    long long max_nodes;
    double deadline;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O!O!OOiOiiiiLOdi|pppppi:solve_endgame", names, &LexiconType, &lex,
                                     &RulesType, &rules, &grid, &mine_counts, &mine_blanks, &theirs_counts,
                                     &theirs_blanks, &scoreless, &scoreless_to_end, &max_depth, &max_nodes, &clock,
                                     &deadline, &table_bits, &line_cache, &check_lines, &killers,
                                     &out_bound, &line_memo, &memo_bits)) {
        return NULL;
    }
    if (lex->letters != rules->letters) {
        PyErr_Format(PyExc_ValueError, "the lexicon has %d letters, the ruleset %d", lex->letters, rules->letters);
        return NULL;
    }
    if (scoreless_to_end < 1 || scoreless_to_end > 32 || scoreless < 0 || scoreless >= scoreless_to_end) {
        PyErr_Format(PyExc_ValueError, "scoreless=%d with a game that ends after %d scoreless turns", scoreless,
                     scoreless_to_end);
        return NULL;
    }
    if (max_depth < 1 || max_depth > MAX_DEPTH) {
        PyErr_Format(PyExc_ValueError, "max_depth=%d must be 1 to %d", max_depth, MAX_DEPTH);
        return NULL;
    }
    if (table_bits < 4 || table_bits > TABLE_BITS_MAX) {
        PyErr_Format(PyExc_ValueError, "table_bits=%d must be 4 to %d", table_bits, TABLE_BITS_MAX);
        return NULL;
    }
    if (memo_bits < 4 || memo_bits > MEMO_BITS_MAX) {
        PyErr_Format(PyExc_ValueError, "memo_bits=%d must be 4 to %d", memo_bits, MEMO_BITS_MAX);
        return NULL;
    }
    if (clock != Py_None && !PyCallable_Check(clock)) {
        PyErr_SetString(PyExc_TypeError, "clock must be None or a callable returning seconds");
        return NULL;
    }
    if (rules->rack_size > MOVE_TILES) {
        PyErr_Format(PyExc_ValueError, "racks of %d tiles are not supported", rules->rack_size);
        return NULL;
    }
    make_keys();
    Solver *sv = PyMem_RawCalloc(1, sizeof(Solver));
    if (sv == NULL) {
        return PyErr_NoMemory();
    }
    PyObject *result = NULL;
    sv->points = rules->points;
    sv->letters = rules->letters;
    sv->lex = lex;
    sv->rules = rules;
    sv->scoreless_to_end = scoreless_to_end;
    sv->max_nodes = max_nodes < 0 ? -1 : max_nodes;
    sv->clock = clock;
    sv->deadline = deadline;
    sv->use_lines = line_cache;
    sv->check_lines = check_lines;
    sv->use_killers = killers;
    sv->use_out_bound = out_bound;
    sv->use_memo = line_cache && line_memo;
    Search *s = &sv->gen;
    bind_search(s, lex, rules);
    s->top = NULL;
    ERack mine, theirs;
    if (read_grid(&sv->gen, grid, sv->letters, &sv->tiles) < 0 ||
        read_endgame_rack(sv, mine_counts, mine_blanks, rules->rack_size, "my", &mine) < 0 ||
        read_endgame_rack(sv, theirs_counts, theirs_blanks, rules->rack_size, "their", &theirs) < 0) {
        goto done;
    }
    mine.side = 0;
    theirs.side = 1;
    racks_packed(sv, &mine, &theirs);
    /* without the interpreter's lock unless the clock is a Python callable (which it calls every CLOCK_EVERY
     * nodes); the lexicon held meanwhile, the rest is the solver's own memory */
    sv->c_clock = c_clock_of(clock);
    EMove best_move;
    memset(&best_move, 0, sizeof(EMove));
    int best_value, finished, complete, searched;
    if (clock == Py_None || sv->c_clock) {
        lexicon_hold(lex);
        Py_BEGIN_ALLOW_THREADS
        searched = iterations(sv, table_bits, memo_bits, &mine, &theirs, scoreless, max_depth, &best_move,
                              &best_value, &finished, &complete);
        Py_END_ALLOW_THREADS
        lexicon_let_go(lex);
    } else {
        searched = iterations(sv, table_bits, memo_bits, &mine, &theirs, scoreless, max_depth, &best_move,
                              &best_value, &finished, &complete);
    }
    if (searched < 0) {
        raise_failure(sv);
        goto done;
    }
    PyObject *move_obj = move_object(&best_move);
    if (move_obj != NULL) {
        result = Py_BuildValue("(NiiOLL)", move_obj, best_value, finished, complete ? Py_True : Py_False,
                               sv->nodes, sv->generations);
    }
done:
    PyMem_RawFree(sv->gen.out.data);
    PyMem_RawFree(sv->moves);
    PyMem_RawFree(sv->keys);
    big_free(sv->table, sv->table_bytes, sv->table_mapped);
    lines_free(sv);
    leaf_scan_free(sv);
    memo_free(sv);
    PyMem_RawFree(sv);
    return result;
}
