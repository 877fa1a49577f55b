/*
 * The simulation's playouts in C (engine._native.playouts; see engine/simulation.py).
 *
 * One call plays a batch of iterations for every candidate with common random numbers: iteration i's
 * draw (the opponent's rack, then the bag in order) is the same for every candidate. A playout is the
 * reference's Simulator._play_out step by step: the candidate on a copy of the board, then `plies`
 * static replies (2 by default: the opponent's best static reply, our best static reply from what we
 * kept plus what we drew), and the value of the moves' points plus the tiles each side's last reply
 * kept before its draw (the learned leave model, LeaveTable, weighted by the bag the reply was played
 * with; going out counts the other rack twice). A static reply
 * is Equity.best's first move: with tiles in the bag the best placement by equity (ranked inside the
 * search as top_equity ranks it) or the best swap, a placement winning a tie; with the bag empty the
 * static endgame (going out first, twice the points kept, the opponent's out-play after the most
 * promising moves; reply.c). The draws come from Python, so both sides see the same luck; the result
 * is one double per (iteration, candidate), and Python keeps the statistics. Within an iteration the
 * opponent's reply with tiles in the bag is searched line by line, shared between the candidates: a
 * line a candidate left as it was is searched once (reply/share.c).
 *
 * Everything from Python is checked first (the board and rack as the generator checks them, every
 * candidate's squares and tiles, every drawn tile); bad input raises ValueError or TypeError.
 */

#include "playouts.h"

static void draw(Hand *h, Bag *bag, int n) {
    for (int i = 0; i < n && bag->front < bag->len; i++) {
        hand_add(h, bag->tiles[bag->front++]);
    }
}

static int bag_left(const Bag *bag) {
    return (int)(bag->len - bag->front);
}

/* Play `play` for `hand`: tiles off the rack (and onto the board), the refill from the bag, a swap's
 * tiles to the bag's end; `kept` (when not NULL) gets the tiles the play kept, before the refill.
 * Returns the tiles it put on the board. */
static int apply(int8_t *grid, Hand *hand, Bag *bag, const Play *play, Hand *kept) {
    int placed = 0;
    if (play->kind == KIND_PLACE) {
        for (int i = 0; i < play->n; i++) {
            int tile = play->tiles[3 * i + 2];
            hand_take(hand, tile);
            grid[play->tiles[3 * i] * SIZE + play->tiles[3 * i + 1]] = (int8_t)tile;
        }
        placed = play->n;
    } else if (play->kind == KIND_SWAP) {
        for (int i = 0; i < play->n; i++) {
            hand_take(hand, play->tiles[i]);
        }
    }
    if (kept != NULL) {
        *kept = *hand;
    }
    if (play->kind != KIND_PASS) {
        draw(hand, bag, play->n);
    }
    if (play->kind == KIND_SWAP) {
        for (int i = 0; i < play->n; i++) {
            bag->tiles[bag->len++] = play->tiles[i];
        }
    }
    return placed;
}

static double hand_leave(const Kernel *k, const Hand *h) {
    return leave_value(k->table, h->counts, h->blanks);
}

/* One playout: the candidate (already on `grid`, its rack `mine` before the refill; the board's
 * cross-checks in k->work, which each reply brings up to date), then k->plies static replies, the
 * opponent's first. With k->to_end, when the bag is empty after them and nobody went out, replies go on
 * (at most TO_END_REPLIES more) until one goes out or both sides pass in turn (the passes would go on
 * until the scoreless turns end the game: each side loses what it holds); at that cap, the same. */
static double play_out(Kernel *k, int8_t *grid, int ntiles, const Play *candidate, Hand mine, Hand theirs, Bag *bag) {
    int spread = candidate->score;
    if (candidate->kind == KIND_PLACE) {
        draw(&mine, bag, candidate->n);
        ntiles += candidate->n;
    } else if (candidate->kind == KIND_SWAP) {
        draw(&mine, bag, candidate->n);
        for (int i = 0; i < candidate->n; i++) {
            bag->tiles[bag->len++] = candidate->tiles[i];
        }
    }
    if (mine.size == 0 && bag_left(bag) == 0) {
        return (double)(spread + 2 * hand_points(k, &theirs));
    }
    Hand *racks[2] = {&mine, &theirs};       /* ours, theirs */
    double kept_values[2] = {0.0, 0.0};      /* the tiles each side's last reply kept, valued */
    /* the lines that may differ from the position's board: at first the candidate's */
    uint32_t all = (1u << 2 * SIZE) - 1, changed = k->share != NULL ? k->changed : all;
    int passed = 0;  /* with to_end: the reply before passed */
    for (int ply = 0;; ply++) {
        if (ply >= k->plies && !(k->to_end && bag_left(bag) == 0)) {
            break;
        }
        if (ply >= k->plies + TO_END_REPLIES) {  /* the cap: the game counted as over, by passes */
            return (double)(spread - hand_points(k, &mine) + hand_points(k, &theirs));
        }
        int side = 1 - ply % 2;  /* the opponent replies first */
        Hand *hand = racks[side], *other = racks[1 - side];
        Play reply;
        /* a reply found before on the same board with the same racks and bag is played as found then
         * (replymemo.c) */
        ReplyKey key;
        int recalled = 0;
        if (hand->size > 0) {
            reply_key(&key, grid, hand, other, bag_left(bag));
            recalled = reply_recall(k->replies, &key, &reply);
        }
        if (!recalled) {
            if (ply == 0 && k->share != NULL && hand->size > 0 && bag_left(bag) > 0) {
                shared_reply(k, k->share, grid, hand, bag_left(bag), k->changed, &reply);
            } else if (ply == 1 && k->ours_on && hand->size > 0 && bag_left(bag) > 0) {
                /* the same rack as the other candidates of its group: the lines no move changed are shared */
                shared_our_reply(k, k->ours, grid, hand, bag_left(bag), changed, &reply);
            } else {
                best_move(k, grid, ntiles, hand, other, bag_left(bag), all & ~changed, &reply);
            }
            if (hand->size > 0 && !k->failed) {
                reply_keep(k->replies, &key, &reply);
            }
        }
        double weight = leave_weight(bag_left(bag));
        int last = ply + 2 >= k->plies;  /* this side's last reply: the horizon values what it keeps */
        Hand kept;
        ntiles += apply(grid, hand, bag, &reply, last ? &kept : NULL);
        spread += side == 0 ? reply.score : -reply.score;
        if (hand->size == 0 && bag_left(bag) == 0) {  /* this reply went out: the game ends */
            int twice = 2 * hand_points(k, other);
            return (double)(side == 0 ? spread + twice : spread - twice);
        }
        if (last) {
            kept_values[side] = weight * hand_leave(k, &kept);
        }
        if (k->to_end && bag_left(bag) == 0) {
            if (reply.kind == KIND_PASS && passed) {  /* both pass: the game ends, each loses what it holds */
                return (double)(spread - hand_points(k, &mine) + hand_points(k, &theirs));
            }
            passed = reply.kind == KIND_PASS;
        }
        int more = ply + 1 < k->plies || (k->to_end && bag_left(bag) == 0);
        if (more && reply.kind == KIND_PLACE) {  /* the next reply is searched on this board */
            uint32_t touched = cross_update(k, grid, k->work, reply.tiles, reply.n);
            changed |= touched;
            k->shape_lines &= ~touched;  /* no longer the candidate's board's */
        }
    }
    return (double)spread + kept_values[0] - kept_values[1];
}

/* ------------------------------------------------------------------------------------------------
 * Reading the arguments.
 */

int read_ints(PyObject *object, Py_buffer *view, const char *what) {
    if (PyObject_GetBuffer(object, view, PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0) {
        return -1;
    }
    if (view->itemsize != 4 || view->format == NULL || strcmp(view->format, "i") != 0) {
        PyErr_Format(PyExc_TypeError, "%s must be an array('i')", what);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

static int valid_bag_tile(int tile, int letters) {
    return tile == -1 || (tile >= 0 && tile < letters);
}

/* The candidates from their flat form (per move: kind, n, score, then 3n ints for a placement or n
 * bag tiles for a swap), each checked against the board and the rack; -1 with an exception set. */
static int read_candidates(const int32_t *flat, Py_ssize_t len, const Search *s, const Hand *rack, Play *plays,
                           int ncand) {
    Py_ssize_t at = 0;
    for (int c = 0; c < ncand; c++) {
        if (at + 3 > len) {
            PyErr_Format(PyExc_ValueError, "candidate %d is cut short", c);
            return -1;
        }
        Play *p = &plays[c];
        p->kind = flat[at];
        p->n = flat[at + 1];
        p->score = flat[at + 2];
        at += 3;
        if (p->kind < KIND_PLACE || p->kind > KIND_PASS || p->n < 0 || p->n > rack->size ||
            (p->kind == KIND_PASS) != (p->n == 0) || p->score < 0 || p->score > 100000 ||
            (p->kind != KIND_PLACE && p->score != 0)) {
            PyErr_Format(PyExc_ValueError, "candidate %d: kind %d with %d tiles and score %d is not a move of this rack",
                         c, p->kind, p->n, p->score);
            return -1;
        }
        int per = p->kind == KIND_PLACE ? 3 : 1;
        if (at + (Py_ssize_t)per * p->n > len) {
            PyErr_Format(PyExc_ValueError, "candidate %d is cut short", c);
            return -1;
        }
        Hand left = *rack;
        int8_t seen[SQUARES];
        memset(seen, 0, sizeof seen);
        for (int i = 0; i < p->n; i++) {
            int tile;
            if (p->kind == KIND_PLACE) {
                int row = flat[at + 3 * i], col = flat[at + 3 * i + 1];
                tile = flat[at + 3 * i + 2];
                if (row < 0 || row >= SIZE || col < 0 || col >= SIZE || s->grid[row * SIZE + col] != EMPTY ||
                    seen[row * SIZE + col]) {
                    PyErr_Format(PyExc_ValueError, "candidate %d puts a tile on square (%d, %d), off the board or taken",
                                 c, row, col);
                    return -1;
                }
                if (tile < 0 || (tile & ~(BLANK_FLAG | LETTER_MASK)) || (tile & LETTER_MASK) >= s->letters) {
                    PyErr_Format(PyExc_ValueError, "candidate %d: tile %d is not a tile of this alphabet", c, tile);
                    return -1;
                }
                seen[row * SIZE + col] = 1;
                p->tiles[3 * i] = row;
                p->tiles[3 * i + 1] = col;
                p->tiles[3 * i + 2] = tile;
            } else {
                tile = flat[at + i];
                if (!valid_bag_tile(tile, s->letters)) {
                    PyErr_Format(PyExc_ValueError, "candidate %d swaps tile %d, not a tile of this alphabet", c, tile);
                    return -1;
                }
                p->tiles[i] = tile;
            }
            int blank = tile < 0 || (tile & BLANK_FLAG);
            if (blank ? left.blanks == 0 : left.counts[tile & LETTER_MASK] == 0) {
                PyErr_Format(PyExc_ValueError, "candidate %d uses tile %d, which the rack does not hold", c, tile);
                return -1;
            }
            hand_take(&left, tile);
        }
        at += (Py_ssize_t)per * p->n;
    }
    if (at != len) {
        PyErr_Format(PyExc_ValueError, "%zd ints after the %d candidates", len - at, ncand);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------------------------------------
 * A call's state: what does not depend on the draws (playouts_open), the draws played (playouts_play),
 * freed (playouts_close). engine._native.playouts makes it for one call; a PlayoutSession keeps it
 * for the calls of one simulation (session.c).
 */

void playouts_close(Playouts *p) {
    Kernel *k = &p->k;
    PyMem_RawFree(p->plays);
    PyMem_RawFree(p->crosses);
    PyMem_RawFree(p->grids);
    PyMem_RawFree(p->mine);
    PyMem_RawFree(p->touched);
    PyMem_RawFree(p->order);
    PyMem_RawFree(p->group);
    PyMem_RawFree(p->place);
    PyMem_RawFree(p->members);
    PyMem_RawFree(p->bag.tiles);
    PyMem_RawFree(k->work);
    PyMem_RawFree(k->after);
    PyMem_RawFree(k->position);
    PyMem_RawFree(k->search);
    PyMem_RawFree(k->kept);
    PyMem_RawFree(k->lines);
    PyMem_RawFree(k->anchors);
    PyMem_RawFree(k->wholes);
    PyMem_RawFree(k->depth_bounds);
    PyMem_RawFree(k->endgame_kept);
    reply_memo_free(k->replies);
    share_free(k->share);
    share_free(k->ours);
    shapes_free(k->shapes);
    left_parts_free(&k->lefts[0]);
    left_parts_free(&k->lefts[1]);
    memset(p, 0, sizeof *p);
}

int playouts_open(Playouts *p, LexiconObject *lex, RulesObject *rules, LeaveTableObject *table, PyObject *grid,
                  PyObject *counts, int blanks, const Py_buffer *moves_view, int ncand, int held, int bag_size,
                  double swap_cost, int swap_min_bag, int endgame_width, int plies, int to_end) {
    memset(p, 0, sizeof *p);
    if (to_end != 0 && to_end != 1) {
        PyErr_Format(PyExc_ValueError, "to_end is %d: 0 or 1", to_end);
        return -1;
    }
    if (plies < 2 || plies > MAX_PLIES) {
        PyErr_Format(PyExc_ValueError, "%d plies: a playout plays 2 to %d replies", plies, MAX_PLIES);
        return -1;
    }
    if (ncand < 1 || ncand > 1000 || swap_min_bag < 0 || endgame_width < 1 || endgame_width > 100000) {
        PyErr_Format(PyExc_ValueError, "%d candidates (1 to 1000), swap_min_bag %d, endgame_width %d", ncand,
                     swap_min_bag, endgame_width);
        return -1;
    }
    if (table->letters != rules->letters || table->letters != lex->letters) {
        PyErr_Format(PyExc_ValueError, "the leave table has %d letters, the ruleset %d, the lexicon %d",
                     table->letters, rules->letters, lex->letters);
        return -1;
    }
    if (held < 0 || held > rules->rack_size || bag_size < 0 || bag_size > MAX_WIDTH) {
        PyErr_Format(PyExc_ValueError, "the opponent holds %d tiles (racks hold %d) and the bag %d (at most %d)", held,
                     rules->rack_size, bag_size, MAX_WIDTH);
        return -1;
    }
    if (swap_cost != swap_cost) {
        PyErr_SetString(PyExc_ValueError, "swap_cost is not a number");
        return -1;
    }
    Kernel *k = &p->k;
    k->lex = lex;
    k->rules = rules;
    k->table = table;
    k->swap_cost = swap_cost;
    k->swap_min_bag = swap_min_bag;
    k->endgame_width = endgame_width;
    k->plies = plies;
    k->to_end = to_end;
    p->ncand = ncand;
    p->held = held;
    p->bag_size = bag_size;
    k->search = PyMem_RawMalloc(sizeof(Search));
    k->kept = PyMem_RawMalloc(sizeof(double) * ((size_t)2 << rules->rack_size));
    k->lines = PyMem_RawMalloc(LINE_BYTES * 2 * SIZE);
    k->anchors = PyMem_RawMalloc(sizeof(Anchor) * 2 * SQUARES);
    k->wholes = PyMem_RawMalloc(sizeof(WholeSpan) * 2 * SQUARES * ANCHOR_WHOLES);
    k->depth_bounds = PyMem_RawMalloc(sizeof(DepthBounds) * 2 * POSITION_TAG * SIZE);
    k->endgame_kept = PyMem_RawMalloc(sizeof(double) * ((size_t)1 << rules->rack_size));
    k->work = PyMem_RawMalloc(sizeof(Cross));
    k->position = PyMem_RawMalloc(sizeof(Cross));
    k->after = PyMem_RawMalloc(sizeof(Cross));
    k->replies = reply_memo_new();
    left_parts_init(&k->lefts[0]);
    left_parts_init(&k->lefts[1]);
    if (k->search == NULL || k->kept == NULL || k->lines == NULL || k->anchors == NULL || k->wholes == NULL ||
        k->depth_bounds == NULL || k->replies == NULL ||
        k->endgame_kept == NULL || k->work == NULL || k->after == NULL || k->position == NULL) {
        PyErr_NoMemory();
        goto failed;
    }
    k->search->out.data = NULL;
    k->memo[0].kept = k->kept;
    k->memo[1].kept = k->kept + ((size_t)1 << rules->rack_size);
    if (prepare_search(k->search, lex, rules, grid, counts, blanks, NULL, &p->ntiles) < 0) {
        goto failed;
    }
    memcpy(&k->base, k->search, sizeof(Search));
    k->anagrams = lexicon_anagrams(lex, rules->rack_size);
    for (int i = 0; i < rules->letters; i++) {
        p->rack.counts[i] = k->base.counts0[i];
    }
    p->rack.blanks = k->base.blanks0;
    p->rack.size = k->base.rack_len;
    p->plays = PyMem_RawCalloc((size_t)ncand, sizeof(Play));
    p->crosses = PyMem_RawMalloc((size_t)ncand * sizeof(Cross));
    p->grids = PyMem_RawMalloc((size_t)ncand * SQUARES);
    p->mine = PyMem_RawCalloc((size_t)ncand, sizeof(Hand));
    p->touched = PyMem_RawCalloc((size_t)ncand, sizeof(uint32_t));
    p->order = PyMem_RawCalloc((size_t)ncand, sizeof(int));
    p->group = PyMem_RawCalloc((size_t)ncand, sizeof(int));
    p->place = PyMem_RawCalloc((size_t)ncand, sizeof(int));
    p->members = PyMem_RawCalloc((size_t)ncand, sizeof(int));
    p->bag.cap = (size_t)bag_size + (size_t)(plies + 1) * MAX_RACK;  /* the bag grows by one playout's swaps at most */
    p->bag.tiles = PyMem_RawMalloc(sizeof(int32_t) * p->bag.cap);
    if (p->plays == NULL || p->crosses == NULL || p->grids == NULL || p->mine == NULL || p->touched == NULL ||
        p->order == NULL || p->group == NULL || p->place == NULL || p->members == NULL || p->bag.tiles == NULL) {
        PyErr_NoMemory();
        goto failed;
    }
    if (read_candidates(moves_view->buf, moves_view->len / 4, &k->base, &p->rack, p->plays, ncand) < 0) {
        goto failed;
    }
    cross_fill(k, k->base.grid, k->work);
    *k->position = *k->work;
    for (int c = 0; c < ncand; c++) {
        const Play *play = &p->plays[c];
        int8_t *board = p->grids + (size_t)c * SQUARES;
        memcpy(board, k->base.grid, SQUARES);
        p->mine[c] = p->rack;
        for (int i = 0; i < play->n; i++) {
            int tile = play->kind == KIND_PLACE ? play->tiles[3 * i + 2] : play->tiles[i];
            hand_take(&p->mine[c], tile);
            if (play->kind == KIND_PLACE) {
                board[play->tiles[3 * i] * SIZE + play->tiles[3 * i + 1]] = (int8_t)tile;
            }
        }
        p->crosses[c] = *k->work;
        if (play->kind == KIND_PLACE) {
            p->touched[c] = cross_update(k, board, &p->crosses[c], play->tiles, play->n);
        }
    }
    if (p->ntiles > 0 && bag_size > 0) {
        /* with tiles on the board, the opponent's replies are shared between the candidates of a draw */
        k->share = share_new(ncand);
        k->ours = share_new(ncand);
        k->shapes = shapes_new(ncand + 1);
        if (k->share == NULL || k->ours == NULL || k->shapes == NULL) {
            PyErr_NoMemory();
            goto failed;
        }
        share_prepare(k, k->share, k->work, p->grids, p->crosses, p->touched, ncand);
        share_copy_prepared(k->ours, k->share, ncand);  /* the same position and candidates */
    }
    k->cross = k->work;
    return 0;
failed:
    playouts_close(p);
    return -1;
}

/* The number of whole draws in `draws` (n tiles), each checked; -1 with an exception set. */
Py_ssize_t playouts_draws(const Playouts *p, const int32_t *draws, Py_ssize_t n) {
    int letters = p->k.rules->letters;
    Py_ssize_t width = (Py_ssize_t)p->held + p->bag_size;
    if (width == 0 ? n != 0 : n % width != 0) {
        PyErr_Format(PyExc_ValueError, "%zd drawn tiles are not whole draws of %zd tiles", n, width);
        return -1;
    }
    Py_ssize_t iterations = width ? n / width : 0;
    for (Py_ssize_t it = 0; it < iterations; it++) {
        int drawn_blanks = 0;
        for (Py_ssize_t i = it * width; i < (it + 1) * width; i++) {
            if (!valid_bag_tile(draws[i], letters)) {
                PyErr_Format(PyExc_ValueError, "draw %zd holds tile %d, not a tile of this alphabet", it, draws[i]);
                return -1;
            }
            drawn_blanks += draws[i] == -1;
        }
        /* no rack of the playout can then hold more blanks than a rack the generator accepts */
        if (drawn_blanks + p->rack.blanks > MAX_BLANKS) {
            PyErr_Format(PyExc_ValueError, "draw %zd holds %d blanks besides the rack's %d (at most %d in all)", it,
                         drawn_blanks, p->rack.blanks, MAX_BLANKS);
            return -1;
        }
    }
    return iterations;
}

/* Play the `iterations` draws (checked by playouts_draws) for the candidates `playing` (nplaying distinct
 * indices, checked): values[it * nplaying + j] is candidate playing[j]'s value in draw it. Returns -1
 * (no exception set) when memory ran out. */
int playouts_play(Playouts *p, const int32_t *draws, Py_ssize_t iterations, const int *playing, int nplaying,
                  double *values) {
    Kernel *k = &p->k;
    /* the candidates that keep the same tiles (so the same rack for our reply on every draw) one after
     * the other: group[c] the first of them playing, members[group[c]] how many; place[c] c's column */
    for (int j = 0; j < nplaying; j++) {
        int c = playing[j];
        p->place[c] = j;
        p->group[c] = c;
        p->members[c] = 0;
        for (int i = 0; i < j; i++) {
            int d = playing[i];
            if (p->mine[d].blanks == p->mine[c].blanks && p->mine[d].size == p->mine[c].size &&
                memcmp(p->mine[d].counts, p->mine[c].counts, sizeof p->mine[c].counts) == 0) {
                p->group[c] = p->group[d];
                break;
            }
        }
        p->members[p->group[c]]++;
    }
    int placed = 0;
    for (int j = 0; j < nplaying; j++) {
        for (int i = j; p->group[playing[j]] == playing[j] && i < nplaying; i++) {
            if (p->group[playing[i]] == playing[j]) {
                p->order[placed++] = playing[i];
            }
        }
    }
    Py_ssize_t width = (Py_ssize_t)p->held + p->bag_size;
    int8_t grid_now[SQUARES];
    k->failed = 0;
    for (Py_ssize_t it = 0; it < iterations && !k->failed; it++) {
        const int32_t *d = draws + it * width;
        Hand theirs;
        memset(&theirs, 0, sizeof theirs);
        for (int i = 0; i < p->held; i++) {
            hand_add(&theirs, d[i]);
        }
        if (k->share != NULL) {
            share_next_draw(k->share);
        }
        for (int at = 0; at < nplaying && !k->failed; at++) {
            int c = p->order[at];  /* each playout stands alone: the order changes no value */
            k->changed = k->share != NULL ? share_changed(k->share, c) : 0;
            k->shape_board = c + 1;  /* its board's lines it changed (k->shapes) */
            k->shape_lines = k->changed;
            k->ours_on = k->ours != NULL && p->members[p->group[c]] > 1;
            if (k->ours_on && p->group[c] == c) {
                share_next_draw(k->ours);  /* a new rack for our reply */
            }
            memcpy(p->bag.tiles, d + p->held, sizeof(int32_t) * (size_t)p->bag_size);
            p->bag.len = (size_t)p->bag_size;
            p->bag.front = 0;
            memcpy(grid_now, p->grids + (size_t)c * SQUARES, SQUARES);
            *k->work = p->crosses[c];
            values[it * nplaying + p->place[c]] =
                play_out(k, grid_now, p->ntiles, &p->plays[c], p->mine[c], theirs, &p->bag);
        }
    }
    return k->failed ? -1 : 0;
}

PyObject *playouts(PyObject *module, PyObject *args, PyObject *kwargs) {
    (void)module;
    static char *names[] = {"lexicon", "rules", "leave", "grid", "counts", "blanks", "candidates", "ncandidates",
                            "draws", "held", "bag", "swap_cost", "swap_min_bag", "endgame_width", "plies", "to_end",
                            NULL};
    LexiconObject *lex;
    RulesObject *rules;
    LeaveTableObject *table;
    PyObject *grid, *counts, *moves_obj, *draws_obj;
    int blanks, ncand, held, bag_size, swap_min_bag, endgame_width, plies = 2, to_end = 0;
    double swap_cost;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O!O!O!OOiOiOiidii|ii:playouts", names, &LexiconType, &lex,
                                     &RulesType, &rules, &LeaveTableType, &table, &grid, &counts, &blanks, &moves_obj,
                                     &ncand, &draws_obj, &held, &bag_size, &swap_cost, &swap_min_bag,
                                     &endgame_width, &plies, &to_end)) {
        return NULL;
    }
    Py_buffer moves_view, draws_view;
    if (read_ints(moves_obj, &moves_view, "candidates") < 0) {
        return NULL;
    }
    if (read_ints(draws_obj, &draws_view, "draws") < 0) {
        PyBuffer_Release(&moves_view);
        return NULL;
    }
    PyObject *result = NULL;
    double *values = NULL;
    int *playing = NULL;
    int32_t *draws = copied_ints(&draws_view);  /* read without the lock: no other thread may change them */
    Playouts p;
    if (draws == NULL) {
        goto released;
    }
    if (playouts_open(&p, lex, rules, table, grid, counts, blanks, &moves_view, ncand, held, bag_size, swap_cost,
                      swap_min_bag, endgame_width, plies, to_end) < 0) {
        goto released;
    }
    Py_ssize_t iterations = playouts_draws(&p, draws, draws_view.len / 4);
    if (iterations < 0) {
        goto done;
    }
    values = PyMem_RawMalloc(sizeof(double) * (size_t)(iterations * ncand + 1));
    playing = PyMem_RawMalloc(sizeof(int) * (size_t)ncand);
    if (values == NULL || playing == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (int c = 0; c < ncand; c++) {
        playing[c] = c;
    }
    if (playouts_play_unlocked(&p, draws, iterations, playing, ncand, values) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    result = PyBytes_FromStringAndSize((const char *)values, (Py_ssize_t)(sizeof(double) * (size_t)(iterations * ncand)));
done:
    playouts_close(&p);
released:
    PyMem_RawFree(draws);
    PyMem_RawFree(values);
    PyMem_RawFree(playing);
    PyBuffer_Release(&moves_view);
    PyBuffer_Release(&draws_view);
    return result;
}
