/*
 * The C endgame's Python entry, engine._native.solve_endgame (the search is in negamax.c): the
 * arguments read and checked (hostile input raises, never crashes), the iterations of deepening run
 * within the budgets, the best move handed back.
 */

#include "endgame.h"
#include "solver.h"

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
    Solver *sv = PyMem_Calloc(1, sizeof(Solver));
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
    if (table_start(sv, table_bits) < 0 || (sv->use_memo && memo_start(sv, memo_bits) < 0)) {
        goto done;
    }
    check_all(sv);
    lines_start(sv);
    uint64_t key = 0;
    for (int sq = 0; sq < SQUARES; sq++) {
        if (s->grid[sq] != EMPTY) {
            key ^= square_keys[sq][(uint8_t)s->grid[sq]];
        }
    }
    EMove best_move;
    memset(&best_move, 0, sizeof(EMove));
    int best_value = 0, finished = 0, complete = 0, have_best = 0;
    for (int depth = first_depth(max_depth); depth <= max_depth; depth = next_depth(depth, max_depth)) {
        /* an aspiration window around the last iteration's value; searched again with the whole window
         * when the value falls outside it */
        int low = have_best ? best_value - ASPIRATION : -INFINITE_VALUE;
        int high = have_best ? best_value + ASPIRATION : INFINITE_VALUE;
        sv->cut = 0;
        memset(sv->killers, 0, sizeof(sv->killers));  /* the depths of the last iteration were other plies */
        memset(sv->killer_line, 0, sizeof(sv->killer_line));
        EMove move;
        sv->root_better = 0;
        sv->root_floor = -INFINITE_VALUE;
        int value = value_of(sv, depth, low, high, &mine, &theirs, scoreless, key, &move);
        if (!sv->stop && (value <= low || value >= high) && have_best) {
            sv->cut = 0;
            sv->root_floor = value <= low ? low : -INFINITE_VALUE;
            value = value_of(sv, depth, -INFINITE_VALUE, INFINITE_VALUE, &mine, &theirs, scoreless, key, &move);
        }
        if (sv->stop) {
            if (sv->stop == 1 && have_best && sv->root_better) {
                /* out of budget inside the iteration: a root move it proved better than the last
                 * iteration's best (tried first) is the better answer */
                best_move = sv->root_move;
                best_value = sv->root_value;
            }
            break;
        }
        best_value = value;
        best_move = move;
        finished = depth;
        complete = !sv->cut;
        have_best = 1;
        if (complete) {
            break;
        }
    }
    if (sv->stop == 2) {
        goto done;
    }
    if (!have_best) {
        /* not even depth 1 finished: the first move of the ordering */
        sv->nmoves = 0;
        long count = pushed_moves(sv, &mine, &theirs, NULL);
        if (count < 0) {
            goto done;
        }
        best_move = sv->moves[pick(sv->moves, sv->keys, count, 0)];
        best_value = 0;
    }
    PyObject *move_obj = move_object(&best_move);
    if (move_obj != NULL) {
        result = Py_BuildValue("(NiiOLL)", move_obj, best_value, finished, complete ? Py_True : Py_False,
                               sv->nodes, sv->generations);
    }
done:
    PyMem_Free(sv->gen.out.data);
    PyMem_Free(sv->moves);
    PyMem_Free(sv->keys);
    big_free(sv->table, sv->table_bytes, sv->table_mapped);
    lines_free(sv);
    leaf_scan_free(sv);
    memo_free(sv);
    PyMem_Free(sv);
    return result;
}
