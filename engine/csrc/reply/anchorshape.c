/*
 * The parts of an anchor's bound (anchorbound.c) that do not depend on the rack, kept for the anchors of
 * the position's board's lines and of the lines each candidate changed, on its board (share.c's
 * share_prepare makes them once per kernel call).
 *
 * Every reply of a playout is searched on a board where most lines are the position's, and most others the
 * candidate's: the opponent's reply once per draw and candidate, ours for every candidate of every draw,
 * each with a rack of its own. An anchor's bound reads its squares' multipliers, cross words and board
 * tiles and sorts the coefficients of each span (the squares' letter and word multipliers times the tile
 * values, highest together); all of that is the same for every rack, so for these lines it is kept here
 * (with the line as prepare_line leaves it) and anchor_bound_shaped only adds the rack.
 */

#include "reply_internal.h"

#define LINES (2 * SIZE)

struct Shapes {
    int nboards;
    int *first;               /* [board * LINES + line]: the first of the line's anchors' shapes, -1: none kept */
    int *line;                /* [board * LINES + line]: the line as prepare_line leaves it, in `prepared` */
    AnchorShape *anchors;     /* the kept lines' anchors', one line after the other */
    size_t nanchors, cap;
    char *prepared;           /* the kept lines, LINE_BYTES each */
    size_t nlines, lines_cap;
    int *pool;                /* the spans (AnchorShape.span) */
    size_t len, pool_cap;
    int failed;               /* out of memory: no line has shapes */
};

void shapes_free(Shapes *shapes) {
    if (shapes != NULL) {
        PyMem_RawFree(shapes->first);
        PyMem_RawFree(shapes->line);
        PyMem_RawFree(shapes->prepared);
        PyMem_RawFree(shapes->anchors);
        PyMem_RawFree(shapes->pool);
        PyMem_RawFree(shapes);
    }
}

/* Room for the shapes of the lines of `nboards` boards (none kept yet); NULL when out of memory. */
Shapes *shapes_new(int nboards) {
    Shapes *shapes = PyMem_RawMalloc(sizeof(Shapes));
    if (shapes == NULL) {
        return NULL;
    }
    memset(shapes, 0, sizeof *shapes);
    shapes->nboards = nboards;
    shapes->first = PyMem_RawMalloc(sizeof(int) * (size_t)nboards * LINES);
    shapes->line = PyMem_RawMalloc(sizeof(int) * (size_t)nboards * LINES);
    if (shapes->first == NULL || shapes->line == NULL) {
        shapes_free(shapes);
        return NULL;
    }
    memset(shapes->first, 0xff, sizeof(int) * (size_t)nboards * LINES);
    memset(shapes->line, 0xff, sizeof(int) * (size_t)nboards * LINES);
    return shapes;
}

/* The span's coefficients `coef` (n of them) highest first. */
static void sort_desc(int *coef, int n) {
    for (int a = 1; a < n; a++) {
        int v = coef[a], b = a;
        while (b > 0 && coef[b - 1] < v) {
            coef[b] = coef[b - 1];
            b--;
        }
        coef[b] = v;
    }
}

/* The shape of `anchor` (previous: the line's anchor before it, -1 if none) on the line prepared in s,
 * as anchor_bound reads the line for a rack of s->rack_size tiles; its spans appended to the pool.
 * Returns -1 when the memory ran out. */
static int shape_anchor(Shapes *shapes, const Search *s, const Anagrams *anagrams, int anchor, int previous,
                        AnchorShape *a) {
    const int rack_size = s->rack_size;
    int left_lm[SIZE], left_wm[SIZE], nleft = 0;
    a->anchor = (int8_t)anchor;
    a->left_points = 0;
    a->left_code = 0;
    if (anchor > 0 && s->cells[anchor - 1] != EMPTY) {
        for (int q = anchor - 1; q >= 0 && s->cells[q] != EMPTY; q--) {
            a->left_points += tile_points(s, s->cells[q]);
            a->left_code += anagrams != NULL ? anagrams->code[s->cells[q] & LETTER_MASK] : 0;
        }
    } else {
        int limit = anchor - previous - 1;
        if (limit > rack_size - 1) {
            limit = rack_size - 1;
        }
        for (int k = 1; k <= limit; k++) {
            left_lm[nleft] = s->lm[anchor - k];
            left_wm[nleft++] = s->wm[anchor - k];
        }
    }
    a->nleft = (int8_t)nleft;
    a->left_lm_sum[0] = 0;
    for (int k = 1; k <= nleft; k++) {
        a->left_lm_sum[k] = a->left_lm_sum[k - 1] + left_lm[k - 1];
    }
    /* the squares from the anchor on (a square no letter fits ends them: no move covers it) */
    int wm[MAX_RACK], board[MAX_RACK + 1], cross[MAX_RACK + 1], nright = 0;
    board[0] = cross[0] = 0;
    a->right_code[0] = 0;
    for (int p = anchor; p < SIZE && nright < rack_size && s->allowed[p]; p = s->next_empty[p]) {
        int i = nright++;
        a->allowed[i] = s->allowed[p];
        a->lm[i] = s->lm[p];
        wm[i] = s->wm[p];
        a->cx[i] = s->xsum[p] >= 0 ? s->lm[p] * s->wm[p] : 0;
        board[i + 1] = board[i] + s->run_points[p];
        cross[i + 1] = cross[i] + (s->xsum[p] >= 0 ? s->xsum[p] * s->wm[p] : 0);
        uint64_t code = 0;
        for (int q = p + 1; anagrams != NULL && q < s->next_empty[p]; q++) {
            code += anagrams->code[s->cells[q] & LETTER_MASK];
        }
        a->right_code[i + 1] = a->right_code[i] + code;
    }
    a->nright = (int8_t)nright;
    /* the spans: k rack tiles left of the anchor, j squares from it on */
    int left_wmul = 1;
    for (int k = 0; k <= nleft; k++) {
        if (k > 0) {
            left_wmul *= left_wm[k - 1];
        }
        int last = nright < rack_size - k ? nright : rack_size - k;
        size_t need = shapes->len;
        for (int j = 1; j <= last; j++) {
            need += 2 + (size_t)(k + j);
        }
        int *grown = GROWN_ARRAY(shapes->pool, shapes->pool_cap, need, 4096);
        if (grown == NULL) {
            return -1;
        }
        shapes->pool = grown;
        a->span[k] = (int)shapes->len;
        int wmul = left_wmul;
        for (int j = 1; j <= last; j++) {
            wmul *= wm[j - 1];
            int *span = shapes->pool + shapes->len;
            span[0] = wmul;
            span[1] = (a->left_points + board[j]) * wmul + cross[j];
            int *coef = span + 2, n = 0;
            for (int q = 0; q < k; q++) {
                coef[n++] = left_lm[q] * wmul;
            }
            for (int i = 0; i < j; i++) {
                coef[n++] = a->lm[i] * wmul + a->cx[i];
            }
            sort_desc(coef, n);
            for (int q = 1; q < n; q++) {
                coef[q] += coef[q - 1];
            }
            shapes->len += 2 + (size_t)n;
        }
    }
    return 0;
}

/* Keep line l of board `board` (< nboards) as prepared in s, and the shapes of its anchors (count of them, in
 * order); each line of a board once. */
void shapes_line(Shapes *shapes, const Search *s, const Anagrams *anagrams, int board, int l, const int *anchors,
                 int count) {
    AnchorShape *grown = GROWN_ARRAY(shapes->anchors, shapes->cap, shapes->nanchors + (size_t)count, 64);
    char *lines = GROWN_ARRAY(shapes->prepared, shapes->lines_cap, (shapes->nlines + 1) * LINE_BYTES, 16 * LINE_BYTES);
    if (grown != NULL) {
        shapes->anchors = grown;
    }
    if (lines != NULL) {
        shapes->prepared = lines;
    }
    if (grown == NULL || lines == NULL) {
        shapes->failed = 1;
        return;
    }
    memcpy(shapes->prepared + shapes->nlines * LINE_BYTES, (const char *)s + LINE_FIRST, LINE_BYTES);
    shapes->line[board * LINES + l] = (int)shapes->nlines++;
    size_t at = shapes->nanchors;
    for (int a = 0; a < count && !shapes->failed; a++) {
        if (shape_anchor(shapes, s, anagrams, anchors[a], a > 0 ? anchors[a - 1] : -1, &shapes->anchors[at + a]) < 0) {
            shapes->failed = 1;
        }
    }
    shapes->nanchors += (size_t)count;
    shapes->first[board * LINES + l] = (int)at;
}

/* Line l of board `board`'s anchors' shapes, in the order shapes_line had them, and the pool their spans are
 * in; NULL when they are not kept (or the memory ran out). */
const AnchorShape *shapes_of_line(const Shapes *shapes, int board, int l, const int **pool) {
    if (shapes == NULL || shapes->failed || board < 0 || board >= shapes->nboards ||
        shapes->first[board * LINES + l] < 0) {
        return NULL;
    }
    *pool = shapes->pool;
    return &shapes->anchors[shapes->first[board * LINES + l]];
}

/* Line l of board `board` as prepare_line left it (LINE_BYTES from Search's LINE_FIRST), NULL when not kept. */
const char *shapes_prepared(const Shapes *shapes, int board, int l) {
    if (shapes == NULL || shapes->failed || board < 0 || board >= shapes->nboards || shapes->line[board * LINES + l] < 0) {
        return NULL;
    }
    return shapes->prepared + (size_t)shapes->line[board * LINES + l] * LINE_BYTES;
}
