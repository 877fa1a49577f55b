/*
 * A self-play game of `equity` in C (selfplay.h): the same turns as engine/equity/leavesamples.py's
 * sample_game plays with a learned (factorised) leave table, up to the turn the bag runs out (no sample
 * follows it). Each turn ranks the best `width` moves as Equity.best does (placements and swaps by
 * equity, placements first on a tie, then by their tiles; a pass last), explores one of them at random
 * as sample_game's _pick does, and plays it as engine.game.Game does (draws from the bag's end, a swap's
 * tiles put back and the bag shuffled). Both random streams are Python's (pyrandom.c), from their states.
 */

#include "selfplay.h"
#include "pyrandom.h"

#define MAX_BAG 1024

typedef struct {
    int kind;  /* 0 placement, 1 swap, 2 pass */
    const Candidate *move;
} Ranked;

/* The game's state after Python's set-up, and what the turns need. */
typedef struct {
    LexiconObject *lex;
    RulesObject *rules;
    LeaveTableObject *table;
    int8_t grid[SQUARES];
    Hand rack[2];
    int32_t bag[MAX_BAG + MAX_RACK];
    int bag_len, current, scoreless;
    PyRandom game, choose;
    double explore, swap_cost;
    int width, swap_min_bag, scoreless_to_end, swap_scoreless;
} SelfPlay;

static int ranked_order(const Ranked *a, const Ranked *b) {
    if (a->kind == 2 || b->kind == 2) {
        return (a->kind == 2) - (b->kind == 2);
    }
    if (a->move->equity != b->move->equity) {
        return a->move->equity > b->move->equity ? -1 : 1;
    }
    if (a->kind != b->kind) {
        return a->kind < b->kind ? -1 : 1;
    }
    return candidate_order(a->move, b->move);
}

/* The best `width` moves of the side to move into `out` (placements in `places`, swaps in `swaps`);
 * returns how many (a pass always among them when fewer than width), -1 when out of memory. */
static int rank_moves(SelfPlay *g, Search *s, int width, double *kept_value, Candidate *places, Candidate *swaps,
                      Ranked *out) {
    const Hand *rack = &g->rack[g->current];
    double weight = leave_weight(g->bag_len);
    double max_kept[MAX_RACK + 1];
    struct TopK top = {.k = width, .count = 0, .items = places, .weight = weight, .max_kept = max_kept};
    int tiles;
    load_search(s, g->lex, g->rules, g->grid, rack->counts, rack->blanks, &top, &tiles);
    int distinct[MAX_LETTERS + 1], multiplicity[MAX_LETTERS + 1], ndistinct;
    Py_ssize_t nkept = kept_layout(s, &top, distinct, multiplicity, &ndistinct);
    int kept[MAX_LETTERS];
    for (int size = 0; size <= MAX_RACK; size++) {
        max_kept[size] = -1e300;
    }
    for (Py_ssize_t index = 0; index < nkept; index++) {
        int kept_blanks = kept_counts((int)index, distinct, multiplicity, ndistinct, s->letters, kept);
        kept_value[index] = leave_value(g->table, kept, kept_blanks);
        int size = kept_blanks;
        for (int i = 0; i < s->letters; i++) {
            size += kept[i];
        }
        if (kept_value[index] > max_kept[size]) {
            max_kept[size] = kept_value[index];  /* the search skips a word that cannot enter the list with it */
        }
    }
    top.kept_value = kept_value;
    int failed = search_all(s, g->lex, g->rules, tiles) < 0;
    PyMem_RawFree(s->out.data);
    s->out.data = NULL;
    if (failed) {
        return -1;
    }
    struct TopK list = {.k = g->bag_len >= g->swap_min_bag ? width : 0, .count = 0, .items = swaps};
    swaps_top(s, &top, kept_value, nkept, distinct, multiplicity, ndistinct, g->swap_cost, &list);
    int n = 0;
    for (int i = 0; i < top.count; i++) {
        out[n++] = (Ranked){0, &places[i]};
    }
    for (int i = 0; i < list.count; i++) {
        out[n++] = (Ranked){1, &swaps[i]};
    }
    out[n++] = (Ranked){2, NULL};
    for (int i = 1; i < n; i++) {  /* insertion sort: stable, as Python's sort */
        Ranked r = out[i];
        int j = i;
        while (j > 0 && ranked_order(&r, &out[j - 1]) < 0) {
            out[j] = out[j - 1];
            j--;
        }
        out[j] = r;
    }
    return n < width ? n : width;
}

static void draw(SelfPlay *g, Hand *h) {
    while (h->size < g->rules->rack_size && g->bag_len > 0) {
        hand_add(h, g->bag[--g->bag_len]);
    }
}

/* The tiles kept as bytes (each letter's count, then the blanks). */
static PyObject *kept_bytes(const SelfPlay *g, const Hand *t) {
    char counts[MAX_LETTERS + 1];
    for (int i = 0; i < g->rules->letters; i++) {
        counts[i] = (char)t->counts[i];
    }
    counts[g->rules->letters] = (char)t->blanks;
    return PyBytes_FromStringAndSize(counts, g->rules->letters + 1);
}

/* Play the game on; a list of (seat, score, kept) per turn, kept None when no full draw follows. */
static PyObject *play_game(SelfPlay *g) {
    Search *s = PyMem_RawMalloc(sizeof(Search));
    double *kept_value = PyMem_RawMalloc(sizeof(double) << g->rules->rack_size);
    Candidate *places = PyMem_RawCalloc((size_t)g->width, sizeof(Candidate));
    Candidate *swaps = PyMem_RawCalloc((size_t)g->width, sizeof(Candidate));
    Ranked *ranked = PyMem_RawCalloc((size_t)(2 * g->width + 1), sizeof(Ranked));
    PyObject *turns = PyList_New(0);
    if (s == NULL || kept_value == NULL || places == NULL || swaps == NULL || ranked == NULL) {
        PyErr_NoMemory();
        Py_CLEAR(turns);
    }
    while (turns != NULL && g->bag_len > 0) {
        /* the explorer's draw comes first (no ranking reads it): a turn that does not explore needs the best
         * move alone, which the search finds faster than the best few */
        int exploring = g->explore != 0.0 && pyrandom_random(&g->choose) < g->explore;
        int n = rank_moves(g, s, exploring ? g->width : 1, kept_value, places, swaps, ranked);
        if (n < 0) {
            PyErr_NoMemory();
            Py_CLEAR(turns);
            break;
        }
        int pick = 0;
        if (exploring) {
            int options = 0;
            while (options < n && ranked[options].kind != 2) {
                options++;  /* the pass is last: every move before it */
            }
            if (options) {
                pick = (int)pyrandom_below(&g->choose, (uint32_t)options);
            }
        }
        Ranked choice = ranked[pick];
        int seat = g->current;
        Hand *rack = &g->rack[seat];
        int score = 0, recorded = 0;
        if (choice.kind == 0) {
            const Candidate *c = choice.move;
            for (int i = 0; i < c->n; i++) {
                int tile = c->tiles[3 * i + 2];
                g->grid[c->tiles[3 * i] * SIZE + c->tiles[3 * i + 1]] = (int8_t)tile;
                hand_take(rack, tile);
            }
            score = c->score;
            recorded = g->bag_len >= c->n;
            g->scoreless = 0;
        } else if (choice.kind == 1) {
            const Candidate *c = choice.move;
            for (int i = 0; i < c->n; i++) {
                hand_take(rack, c->tiles[3 * i]);
            }
            recorded = 1;
        } else {
            g->scoreless++;
        }
        PyObject *kept = recorded ? kept_bytes(g, rack) : Py_NewRef(Py_None);
        PyObject *turn = kept ? Py_BuildValue("(iiN)", seat, score, kept) : NULL;
        if (turn == NULL || PyList_Append(turns, turn) < 0) {
            Py_XDECREF(turn);
            Py_CLEAR(turns);
            break;
        }
        Py_DECREF(turn);
        draw(g, rack);
        if (choice.kind == 1) {
            const Candidate *c = choice.move;
            for (int i = 0; i < c->n; i++) {
                g->bag[g->bag_len++] = c->tiles[3 * i];
            }
            pyrandom_shuffle(&g->game, g->bag, g->bag_len);
            g->scoreless = g->swap_scoreless ? g->scoreless + 1 : 0;
        }
        if ((g->bag_len == 0 && rack->size == 0) || g->scoreless >= g->scoreless_to_end) {
            break;  /* the game is over */
        }
        g->current = 1 - g->current;
    }
    PyMem_RawFree(s);
    PyMem_RawFree(kept_value);
    PyMem_RawFree(places);
    PyMem_RawFree(swaps);
    PyMem_RawFree(ranked);
    return turns;
}

/* One int of a sequence item, in [low, high]; -1 with ValueError or TypeError naming `what` otherwise. */
static int read_int(PyObject *item, long low, long high, const char *what, Py_ssize_t at, long *value) {
    if (!PyLong_Check(item)) {
        PyErr_Format(PyExc_TypeError, "%s item %zd is not an int", what, at);
        return -1;
    }
    int overflow;
    long v = PyLong_AsLongAndOverflow(item, &overflow);
    if ((v == -1 && PyErr_Occurred()) || overflow || v < low || v > high) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%s item %zd must be %ld to %ld", what, at, low, high);
        return -1;
    }
    *value = v;
    return 0;
}

/* A random.Random.getstate()[1]: 624 words and the index. */
static int read_state(PyObject *object, const char *what, PyRandom *r) {
    PyObject *seq = PySequence_Fast(object, "a random state must be a sequence of ints");
    if (seq == NULL) {
        return -1;
    }
    int status = 0;
    if (PySequence_Fast_GET_SIZE(seq) != MT_WORDS + 1) {
        PyErr_Format(PyExc_ValueError, "%s must hold %d ints (random.Random.getstate()[1])", what, MT_WORDS + 1);
        status = -1;
    }
    for (Py_ssize_t i = 0; status == 0 && i <= MT_WORDS; i++) {
        long v;
        status = read_int(PySequence_Fast_GET_ITEM(seq, i), 0, i < MT_WORDS ? 0xffffffffL : MT_WORDS, what, i, &v);
        if (status == 0 && i < MT_WORDS) {
            r->mt[i] = (uint32_t)v;
        } else if (status == 0) {
            r->index = (int)v;
        }
    }
    Py_DECREF(seq);
    return status;
}

/* A rack: each letter's count, then the blanks. */
static int read_rack(PyObject *object, const RulesObject *rules, const char *what, Hand *t) {
    PyObject *seq = PySequence_Fast(object, "a rack must be a sequence of ints");
    if (seq == NULL) {
        return -1;
    }
    int status = 0;
    if (PySequence_Fast_GET_SIZE(seq) != rules->letters + 1) {
        PyErr_Format(PyExc_ValueError, "%s must hold %d ints (each letter's count, then the blanks)", what,
                     rules->letters + 1);
        status = -1;
    }
    t->size = 0;
    for (Py_ssize_t i = 0; status == 0 && i <= rules->letters; i++) {
        long v;
        status = read_int(PySequence_Fast_GET_ITEM(seq, i), 0, i < rules->letters ? MAX_RACK : MAX_BLANKS, what, i,
                          &v);
        if (status == 0) {
            if (i < rules->letters) {
                t->counts[i] = (int)v;
            } else {
                t->blanks = (int)v;
            }
            t->size += (int)v;
        }
    }
    Py_DECREF(seq);
    if (status == 0 && t->size > rules->rack_size) {
        PyErr_Format(PyExc_ValueError, "%s holds %d tiles; racks hold %d", what, t->size, rules->rack_size);
        status = -1;
    }
    return status;
}

static int read_bag(PyObject *object, const RulesObject *rules, SelfPlay *g) {
    PyObject *seq = PySequence_Fast(object, "the bag must be a sequence of ints");
    if (seq == NULL) {
        return -1;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    int status = 0;
    if (n > MAX_BAG) {
        PyErr_Format(PyExc_ValueError, "a bag of %zd tiles; at most %d", n, MAX_BAG);
        status = -1;
    }
    for (Py_ssize_t i = 0; status == 0 && i < n; i++) {
        long v;
        status = read_int(PySequence_Fast_GET_ITEM(seq, i), -1, rules->letters - 1, "the bag", i, &v);
        g->bag[i] = (int32_t)v;
    }
    g->bag_len = (int)n;
    Py_DECREF(seq);
    return status;
}

PyObject *selfplay_game(PyObject *module, PyObject *args, PyObject *kwargs) {
    (void)module;
    static char *names[] = {"lexicon", "rules", "leave", "bag", "racks", "current", "game_state", "choose_state",
                            "explore", "width", "swap_cost", "swap_min_bag", "scoreless_to_end", "swap_scoreless",
                            NULL};
    SelfPlay *g = PyMem_RawCalloc(1, sizeof(SelfPlay));
    if (g == NULL) {
        return PyErr_NoMemory();
    }
    PyObject *bag, *mine, *theirs, *game_state, *choose_state, *result = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O!O!O!O(OO)iOOdidiii:selfplay_game", names, &LexiconType,
                                     &g->lex, &RulesType, &g->rules, &LeaveTableType, &g->table, &bag, &mine, &theirs,
                                     &g->current, &game_state, &choose_state, &g->explore, &g->width, &g->swap_cost,
                                     &g->swap_min_bag, &g->scoreless_to_end, &g->swap_scoreless)) {
        goto done;
    }
    if (g->lex->letters != g->rules->letters || g->table->letters != g->rules->letters) {
        PyErr_Format(PyExc_ValueError, "the lexicon has %d letters, the leave table %d, the ruleset %d",
                     g->lex->letters, g->table->letters, g->rules->letters);
        goto done;
    }
    if (g->current < 0 || g->current > 1) {
        PyErr_Format(PyExc_ValueError, "current=%d: 0 or 1", g->current);
        goto done;
    }
    if (g->width < 1 || g->width > 100) {
        PyErr_Format(PyExc_ValueError, "width=%d: 1 to 100", g->width);
        goto done;
    }
    if (!(g->explore >= 0.0 && g->explore <= 1.0)) {
        char *text = PyOS_double_to_string(g->explore, 'r', 0, 0, NULL);
        PyErr_Format(PyExc_ValueError, "explore=%s: 0 to 1", text ? text : "?");
        PyMem_Free(text);
        goto done;
    }
    if (g->scoreless_to_end < 1 || !(g->swap_cost == g->swap_cost)) {
        PyErr_Format(PyExc_ValueError, "scoreless_to_end=%d (at least 1) or swap_cost not a number",
                     g->scoreless_to_end);
        goto done;
    }
    if (read_bag(bag, g->rules, g) < 0 || read_rack(mine, g->rules, "the first rack", &g->rack[0]) < 0 ||
        read_rack(theirs, g->rules, "the second rack", &g->rack[1]) < 0 ||
        read_state(game_state, "the game's random state", &g->game) < 0 ||
        read_state(choose_state, "the explorer's random state", &g->choose) < 0) {
        goto done;
    }
    for (int sq = 0; sq < SQUARES; sq++) {
        g->grid[sq] = EMPTY;
    }
    result = play_game(g);
done:
    PyMem_RawFree(g);
    return result;
}
