/*
 * The moves of a one-blank rack that play the whole rack, or all of it but one real tile through a board
 * tile, searched apart from the other moves of the rack's second search (reply.c's blanks_end,
 * Reply.split).
 *
 * A whole-rack span carries the bingo, so its bound keeps most anchors above the best move, and a blank
 * lets every letter follow: the anchor's whole search is dear. Apart, a span's moves are few: the word
 * has the span's length and, for each letter the blank can stand for, exactly the letters of the rack's
 * real tiles, that letter and the span's board tiles, which the lexicon's multisets (anagrams.c) check
 * before anything is walked. Each such letter is searched as a rack without a blank that holds one tile
 * more of it (the moves' blank is put back on one of its tiles by emit, as the rack's real tiles are
 * fewer), and only moves that use all its tiles are offered (out_only 2). The anchors' bounds leave these
 * spans out, so fewer anchors reach the best. A span of all tiles but one is searched the same way for each
 * real tile kept (a rack with that tile fewer), under the value of keeping that tile.
 */

#include "reply_internal.h"

/* The moves from `anchor` (the line prepared in s) whose left part has `k` rack tiles taken after
 * `node`, `depth` of them so far (left_letters), that play the whole rack. */
static void whole_left(Search *s, int anchor, uint32_t node, int depth, int k) {
    uint32_t nm = s->mask[node];
    for (uint32_t m = nm & s->rmask; m && !s->failed; m &= m - 1) {
        int l = LOWEST(m);
        const DawgEdge *edge = &s->edges[node + POPCOUNT(nm & ((1u << l) - 1))];
        int on_blank = take_tile(s, l);
        s->left_letters[depth] = l;
        if (depth + 1 < k) {
            whole_left(s, anchor, edge->child, depth + 1, k);
        } else if (edge->mask & s->allowed[anchor] & s->rmask) {
            int main, wmul;
            put_left_part(s, anchor, k, &main, &wmul);
            extend_out(s, anchor, edge, main, wmul, 0, k, 1);
            s->placed = 0;
        }
        return_tile(s, l, on_blank);
    }
}

/* The moves from `anchor` with `k` rack tiles left of it that play the whole rack, s's rack (one blank)
 * searched as a rack without a blank with a tile of `l` more; with `kept` >= 0, a tile of that letter
 * fewer (the moves keep it: the top list's leave has one hidden tile more). */
static void whole_moves(Search *s, int anchor, int k, int l, int kept) {
    uint32_t rmask = s->rmask;
    s->counts[l]++;
    if (kept >= 0) {  /* a move of all tiles but one `kept`: its leave is that tile */
        s->counts[kept]--;
        s->rack_len--;
        s->top->hidden++;
    }
    s->blanks_left = 0;
    s->rmask = 0;
    for (int i = 0; i < s->letters; i++) {
        s->rmask |= (uint32_t)(s->counts[i] > 0) << i;
    }
    s->out_only = 2;
    s->placed = 0;
    if (k > 0) {
        whole_left(s, anchor, 0, 0, k);
    } else if (anchor > 0 && s->cells[anchor - 1] != EMPTY) {
        /* the left part is the run of board tiles left of the anchor */
        int points;
        const DawgEdge *at = board_left_edge(s, anchor, &points);
        if (at != NULL) {
            extend_out(s, anchor, at, points, 1, 0, 0, 1);
        }
    } else {
        DawgEdge root = {0, s->mask[0], s->ends[0]};
        extend_out(s, anchor, &root, 0, 1, 0, 0, 1);
    }
    s->out_only = 0;
    s->rmask = rmask;
    s->blanks_left = 1;
    s->counts[l]--;
    if (kept >= 0) {
        s->counts[kept]++;
        s->rack_len++;
        s->top->hidden--;
    }
}

/* The letters the blank can stand for in a move of `span` (the line prepared in s): each empty square
 * from the anchor on takes a tile, so one whose cross word allows none of the rack's real letters takes
 * the blank, as one of the letters it allows (a superset: the letters are checked again by the walk). */
static uint32_t blank_letters(const Search *s, const WholeSpan *span) {
    uint32_t letters = s->all_letters;
    int blanks = 0;
    int p = span->anchor;
    for (int n = span->k; n < span->tiles && p < SIZE; n++, p = s->next_empty[p]) {
        if (!(s->allowed[p] & s->rmask)) {
            letters &= s->allowed[p];
            blanks++;
        }
    }
    return blanks > 1 ? 0 : letters;  /* two such squares: the one blank cannot cover both */
}

/* The letters l for which a word has the letters of `code` and l (Kernel.spelled_code's, looked up when
 * not known). */
static uint32_t spelled_letters(Kernel *k, const Anagrams *anagrams, uint64_t code) {
    size_t slot = (size_t)(code * 0x9E3779B97F4A7C15ull >> 56) & (SPELLED_SLOTS - 1);
    if (code != 0 && k->spelled_code[slot] == code) {
        return k->spelled_letters[slot];
    }
    uint32_t letters = 0;
    for (int l = 0; l < k->rules->letters; l++) {
        letters |= (uint32_t)anagram_known(anagrams, code + anagrams->code[l]) << l;
    }
    k->spelled_code[slot] = code;
    k->spelled_letters[slot] = letters;
    return letters;
}

/* Whether span a comes before b: the higher bound first, then by line, anchor and length. */
static int span_before(const WholeSpan *a, const WholeSpan *b) {
    if (a->bound != b->bound) {
        return a->bound > b->bound;
    }
    if (a->line != b->line) {
        return a->line < b->line;
    }
    return a->anchor != b->anchor ? a->anchor < b->anchor : a->k < b->k;
}

/* The spans as a heap, the best bound on top (most searches stop before the last of them). */
static void span_sift_down(WholeSpan *heap, int n, int i) {
    WholeSpan item = heap[i];
    for (;;) {
        int child = 2 * i + 1;
        if (child >= n) {
            break;
        }
        if (child + 1 < n && span_before(&heap[child + 1], &heap[child])) {
            child++;
        }
        if (!span_before(&heap[child], &item)) {
            break;
        }
        heap[i] = heap[child];
        i = child;
    }
    heap[i] = item;
}

/* The whole-rack spans reply_anchors put in k->wholes, best bound first, each searched for the letters
 * the blank can stand for in a word of its letters, until the bound is below the best move found (the
 * position's lines, tagged POSITION_TAG + l, are share's; the moves of a span a shared line keeps go to
 * the top list `lines` gives, NULL: none kept). */
void whole_spans_search(Kernel *k, Reply *r, const Share *share, const WholeLines *lines) {
    Search *s = k->search;
    WholeSpan *spans = k->wholes;
    int n = 0;
    for (int i = 0; i < k->nwholes; i++) {  /* those below the best already are never searched */
        if (!r->top.count || !(k->wholes[i].bound < r->item.equity)) {
            spans[n++] = k->wholes[i];
        }
    }
    for (int a = n / 2 - 1; a >= 0; a--) {
        span_sift_down(spans, n, a);
    }
    int current = -1;
    while (n > 0 && !s->failed) {
        WholeSpan taken = spans[0];  /* the best bound left */
        spans[0] = spans[--n];
        span_sift_down(spans, n, 0);
        const WholeSpan *span = &taken;
        if (r->top.count && span->bound < r->item.equity) {
            break;  /* no move of this span or of the ones after it reaches the best */
        }
        if (span->line != current) {
            const int *found;
            int count;
            const char *prepared = span->line >= POSITION_TAG
                                       ? share_line(share, span->line - POSITION_TAG, &found, &count)
                                       : k->lines + (size_t)span->line * LINE_BYTES;
            memcpy((char *)s + LINE_FIRST, prepared, LINE_BYTES);
            current = span->line;
        }
        struct TopK own;
        struct TopK *top = lines != NULL && span->kept ? lines->line_top(lines->context, span, &r->top, &own) : NULL;
        if (top != NULL) {
            s->top = top;
        }
        int complete = 1;  /* no kept tile left out below the reply's best */
        uint32_t fits = blank_letters(s, span);
        if (span->tiles == s->rack_len) {
            for (uint32_t m = fits ? fits & spelled_letters(k, r->anagrams, span->code) : 0; m; m &= m - 1) {
                whole_moves(s, span->anchor, span->k, LOWEST(m), -1);
            }
        }
        for (int i = 0; span->tiles != s->rack_len && fits && i < r->nby_points; i++) {  /* each real letter kept */
            int kept = r->by_points[i];
            if (r->top.count && (double)span->score + r->weight * top_kept(&r->top, r->top.stride[kept]) < r->item.equity) {
                complete = 0;
                continue;  /* no move that keeps this tile reaches the best */
            }
            uint64_t code = span->code - r->anagrams->code[kept];
            uint32_t letters = fits & spelled_letters(k, r->anagrams, code);
            for (uint32_t m = letters; m; m &= m - 1) {
                whole_moves(s, span->anchor, span->k, LOWEST(m), kept);
            }
        }
        if (top != NULL) {
            s->top = &r->top;
            lines->line_done(lines->context, span, complete && !s->failed, &own, &r->top);
        }
    }
}
