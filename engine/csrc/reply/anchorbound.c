/*
 * The upper bound on the equity of a move from one anchor (reply.c searches the anchors best first by
 * it and stops at the first whose bound is below the best move found).
 */

#include "reply_internal.h"

/* Put `v` in its place in coef[0..n) (highest first), keeping *dot = the sum of coef[q] * desc[q] (each
 * coefficient moved on takes the next tile value); returns n + 1. The tile values from desc[head] on are
 * all the same, so only coef[0..head) is kept in order: a coefficient below it adds the same to the sum
 * wherever it stands (coef[head] is the last one put there, the others are not kept). */
static inline int insert_desc(int *coef, int n, int v, const int *desc, int head, int *dot) {
    int b = n < head ? n : head, sum = *dot;
    while (b > 0 && coef[b - 1] < v) {
        sum += coef[b - 1] * (desc[b] - desc[b - 1]);
        coef[b] = coef[b - 1];
        b--;
    }
    coef[b] = v;
    *dot = sum + v * desc[b];
    return n + 1;
}

/* Whether a word of the lexicon has the letters of `code` (the rack's real tiles' and a span's board
 * tiles'), with a letter more for the rack's blank if it has one. */
static inline int spelled(const Search *s, const Anagrams *anagrams, uint64_t code) {
    if (s->blanks0 == 0) {
        return anagram_known(anagrams, code);
    }
    for (int l = 0; l < s->letters; l++) {
        if (anagram_known(anagrams, code + anagrams->code[l])) {
            return 1;
        }
    }
    return 0;
}

/* Whether a word of the lexicon has the letters of `code` (a rack without a blank and a span's board
 * tiles) less one of the rack's letters (r->by_points: each once). */
static int spelled_but_one(const Anagrams *anagrams, uint64_t code, const Reply *r) {
    for (int i = 0; i < r->nby_points; i++) {
        if (anagram_known(anagrams, code - anagrams->code[r->by_points[i]])) {
            return 1;
        }
    }
    return 0;
}

/* A span's equity bound: its score bound (the points that do not depend on the tiles, `fixed`, plus the
 * lower of the sorted tile values on its coefficients, `dot`, and each square's best tile alone, `alone`)
 * with the most a leave of its n tiles' rack is worth. */
static inline int span_score(int fixed, int dot, int alone) {
    return fixed + dot < fixed + alone ? fixed + dot : fixed + alone;
}

static inline double span_equity(int fixed, int dot, int alone, double leave) {
    return (double)span_score(fixed, dot, alone) + leave;
}

/* One left part length's spans done: the short span's word checked, the length's bound kept in depth_bound
 * (its first KBOUNDS lengths), and the anchor's best so far returned. */
static inline double left_part_done(const Reply *r, int k, double most, double short_one, uint64_t short_code,
                                    double best, double *depth_bound) {
    if (short_one > most && spelled_but_one(r->anagrams, short_code, r)) {
        most = short_one;
    }
    if (k < KBOUNDS) {
        depth_bound[k] = most;
    }
    return most > best ? most : best;
}

/* The rack's side of anchor_bound for one k (left part length), its spans (j squares from the anchor) taken
 * in order: a span of n >= rack_size - 1 tiles, with its word's letters `word_code` (with anagrams), goes
 * to *most unless no word has its letters, or to *short_one (checked by the caller only when it would be the
 * bound), or, searched apart (Reply.split), to whole. `fixed` without the bingo, `alone` the part of the
 * best tiles alone that is not in `fixed`. */
static inline void long_span(const Search *s, const Reply *r, int k, int n, int fixed, int dot, int alone,
                             uint64_t word_code, double *most, double *short_one, uint64_t *short_code,
                             WholeSpan *whole, int *nwhole, int rack_size, int bingo, int split_on, int short_check) {
    const uint64_t rack_code = r->rack_code;
    int split = split_on && (n == rack_size || (n == rack_size - 1 && word_code != rack_code));
    if (n == rack_size && r->anagrams != NULL && !split && !spelled(s, r->anagrams, word_code)) {
        return;  /* no word has the rack's letters and this span's board tiles: no move plays it */
    }
    fixed += n == rack_size ? bingo : 0;
    int score = span_score(fixed, dot, alone);
    double equity = (double)score + r->leave_after[n];
    if (split) {  /* searched apart: its words are checked when it is reached */
        whole[*nwhole] = (WholeSpan){.bound = equity, .code = word_code, .score = score, .k = (int8_t)k, .tiles = (int8_t)n};
        ++*nwhole;
        return;
    }
    if (n == rack_size - 1 && short_check && word_code != rack_code) {
        *short_one = equity;  /* checked by the caller, only if it would be this k's bound */
        *short_code = word_code;
    } else if (equity > *most) {
        *most = equity;
    }
}

/* The most any move from `anchor` can score (its letters unknown): for every span of squares it can
 * cover, the board tiles of its main word and cross words, the rack's highest tile values on the
 * squares that multiply most, and the bingo when it uses a full rack; plus the most a leave of the
 * tiles left can be worth. No move from the anchor has a higher equity. The spans of one left part
 * are taken square by square to the right, their sums and sorted multipliers carried along. With
 * r->anagrams (a rack of rack_size tiles without a blank, r->rack_code its letters' code), a span that
 * takes the whole rack is left out when no word of the lexicon has the letters of its main word, and
 * (a rack without a blank) one that takes all of it but one tile and a board tile, when that span
 * would be the bound of its left part length and no word has its letters with any one rack letter
 * fewer (the set holds the words of rack_size letters or more). The
 * bound of the spans with k rack tiles left of the anchor goes to depth_bound[k] (k < KBOUNDS; -1e300
 * for a k without a span). In the second search of a rack with blanks (plays_blank, a constant in each of
 * anchor_bound's two copies) every move plays a blank: on a span's lowest coefficient, in place of the
 * lowest of the n highest tile values. */
static inline __attribute__((always_inline)) double bound_body(const Search *s, int anchor, int previous,
                                                                const Reply *r, double *depth_bound, WholeSpan *whole,
                                                                int *nwhole, const int plays_blank) {
    for (int q = 0; q < KBOUNDS; q++) {
        depth_bound[q] = -1e300;
    }
    const int *desc_points = r->desc_points;
    const int head = r->desc_head;
    const double *leave_after = r->leave_after;
    const Anagrams *anagrams = r->anagrams;
    uint64_t rack_code = r->rack_code;
    int left_lm[SIZE], nleft = 0, left_points = 0;
    int left_wm[SIZE];
    uint64_t left_code = rack_code;  /* with `anagrams`: the letters of a whole-rack move's word so far */
    if (anchor > 0 && s->cells[anchor - 1] != EMPTY) {
        for (int q = anchor - 1; q >= 0 && s->cells[q] != EMPTY; q--) {
            left_points += tile_points(s, s->cells[q]);
            left_code += anagrams != NULL ? anagrams->code[s->cells[q] & LETTER_MASK] : 0;
        }
    } else {
        int max_left = (s->rack_len < s->rack_size ? s->rack_len : s->rack_size) - 1;
        int limit = anchor - previous - 1;
        if (limit > max_left) {
            limit = max_left;
        }
        for (int k = 1; k <= limit; k++) {
            left_lm[nleft] = s->lm[anchor - k];
            left_wm[nleft++] = s->wm[anchor - k];
        }
    }
    /* the squares from the anchor on: letter and word multiplier, the cross word's multiplier on the
     * tile (0 without one) and its board points, the board tiles after it, its best tile value */
    int lm[MAX_RACK], wm[MAX_RACK], cx[MAX_RACK], cross_points[MAX_RACK], run[MAX_RACK], best_points[MAX_RACK];
    uint64_t run_code[MAX_RACK];  /* with `anagrams`: the letters of the board tiles after the square */
    int nright = 0;
    uint32_t usable = s->blanks0 ? s->all_letters : s->rmask;
    for (int p = anchor; p < SIZE && nright < s->rack_len; p = s->next_empty[p]) {
        if (!(s->allowed[p] & usable)) {
            break;  /* no tile of the rack fits here: no move covers this square */
        }
        int most = 0;  /* a blank scores 0; else the rack's letter worth most that the square allows */
        for (int i = 0; i < r->nby_points; i++) {
            if (s->allowed[p] >> r->by_points[i] & 1) {
                most = s->points[r->by_points[i]];
                break;
            }
        }
        lm[nright] = s->lm[p];
        wm[nright] = s->wm[p];
        cx[nright] = s->xsum[p] >= 0 ? s->lm[p] * s->wm[p] : 0;
        cross_points[nright] = s->xsum[p] >= 0 ? s->xsum[p] * s->wm[p] : 0;
        run[nright] = s->run_points[p];
        if (anagrams != NULL) {
            run_code[nright] = 0;
            for (int q = p + 1; q < s->next_empty[p]; q++) {
                run_code[nright] += anagrams->code[s->cells[q] & LETTER_MASK];
            }
        }
        best_points[nright++] = most;  /* an empty square: prepare_line set where the next one is */
    }
    if (!nright) {
        return -1e300;
    }
    /* the right side's sums over its first j squares, the same for every left part length */
    int r_board[MAX_RACK + 1], r_cross[MAX_RACK + 1], r_main[MAX_RACK + 1], r_xalone[MAX_RACK + 1];
    uint64_t r_code[MAX_RACK + 1];
    r_board[0] = r_cross[0] = r_main[0] = r_xalone[0] = 0;
    r_code[0] = 0;
    for (int i = 0; i < nright; i++) {
        r_board[i + 1] = r_board[i] + run[i];
        r_cross[i + 1] = r_cross[i] + cross_points[i];
        r_main[i + 1] = r_main[i] + lm[i] * best_points[i];
        r_xalone[i + 1] = r_xalone[i] + cx[i] * best_points[i];
        r_code[i + 1] = r_code[i] + (anagrams != NULL ? run_code[i] : 0);
    }
    /* in locals: the stores to `whole` (int8_t fields) could otherwise alias them, read again each span */
    const int rack_len = s->rack_len, rack_size = s->rack_size, bingo = s->bingo, split_on = r->split;
    const int short_check = anagrams != NULL && s->blanks0 == 0;
    double best = -1e300;
    int left_lm_sum = 0, left_wmul = 1;
    for (int k = 0; k <= nleft && k < rack_len; k++) {
        if (k > 0) {
            left_lm_sum += left_lm[k - 1];
            left_wmul *= left_wm[k - 1];
        }
        int wmul = left_wmul;
        int left_alone = left_lm_sum * desc_points[0];
        double most = -1e300;   /* the spans' bound for this k, but the one that leaves one tile (`short_one`) */
        double short_one = -1e300;
        uint64_t short_code = 0;
        int coef[MAX_RACK], n = 0, dot = 0;  /* dot: the coefficients times the tile values, highest together */
        for (int q = 0; q < k; q++) {  /* the left part's squares (the sorted sum is the same in any order) */
            n = insert_desc(coef, n, left_lm[q] * wmul, desc_points, head, &dot);
        }
        int last = nright < rack_len - k ? nright : rack_len - k;
        for (int j = 1; j <= last; j++) {
            int i = j - 1;
            if (wm[i] == 1) {
                n = insert_desc(coef, n, lm[i] * wmul + cx[i], desc_points, head, &dot);  /* the others' multipliers stay */
            } else {
                wmul *= wm[i];
                n = dot = 0;
                for (int q = 0; q < k; q++) {
                    n = insert_desc(coef, n, left_lm[q] * wmul, desc_points, head, &dot);
                }
                for (int q = 0; q < j; q++) {
                    n = insert_desc(coef, n, lm[q] * wmul + cx[q], desc_points, head, &dot);
                }
            }
            int fixed = (left_points + r_board[j]) * wmul + r_cross[j];
            /* each square's best tile alone (a tile the cross word allows there) is a second bound */
            int alone = wmul * (left_alone + r_main[j]) + r_xalone[j];
            /* a blank played: on the lowest coefficient (all n sorted when n <= head), in place of its tile value */
            int played = plays_blank && n <= head ? dot - coef[n - 1] * desc_points[n - 1] : dot;
            if (n < rack_size - 1) {  /* most spans: no bingo, no word check, not searched apart */
                double equity = span_equity(fixed, played, alone, leave_after[n]);
                if (equity > most) {
                    most = equity;
                }
                continue;
            }
            long_span(s, r, k, n, fixed, played, alone, left_code + r_code[j], &most, &short_one, &short_code, whole,
                      nwhole, rack_size, bingo, split_on, short_check);
        }
        best = left_part_done(r, k, most, short_one, short_code, best, depth_bound);
    }
    return best;
}

/* bound_body for r's search: one copy for the moves that play a blank (Reply.plays_blank), one for any move. */
double anchor_bound(const Search *s, int anchor, int previous, const Reply *r, double *depth_bound, WholeSpan *whole,
                    int *nwhole) {
    return r->plays_blank ? bound_body(s, anchor, previous, r, depth_bound, whole, nwhole, 1)
                          : bound_body(s, anchor, previous, r, depth_bound, whole, nwhole, 0);
}

/* anchor_bound from the anchor's shape (anchorshape.c: a line of the position's board) for a rack of at most
 * the ruleset's size: the same bound, with only the rack's side worked out here (each square's best tile
 * value, the sorted tile values on each span's sorted coefficients, the leave; plays_blank as bound_body's). */
static inline __attribute__((always_inline)) double shaped_body(const Search *s, const AnchorShape *shape,
                                                                 const int *pool, const Reply *r, double *depth_bound,
                                                                 WholeSpan *whole, int *nwhole, const int plays_blank) {
    for (int q = 0; q < KBOUNDS; q++) {
        depth_bound[q] = -1e300;
    }
    const int *desc_points = r->desc_points, *step_at = r->step_at, *step_by = r->step_by, nsteps = r->nsteps;
    const double *leave_after = r->leave_after;
    const int rack_len = s->rack_len, rack_size = s->rack_size, bingo = s->bingo, split_on = r->split;
    const int short_check = r->anagrams != NULL && s->blanks0 == 0;
    uint32_t usable = s->blanks0 ? s->all_letters : s->rmask;
    /* the right side's sums of each square's best tile value over its first j squares */
    int r_main[MAX_RACK + 1], r_xalone[MAX_RACK + 1], nright = 0;
    r_main[0] = r_xalone[0] = 0;
    int most_right = shape->nright < rack_len ? shape->nright : rack_len;
    for (; nright < most_right && (shape->allowed[nright] & usable); nright++) {
        int most = 0;  /* a blank scores 0; else the rack's letter worth most that the square allows */
        for (int i = 0; i < r->nby_points; i++) {
            if (shape->allowed[nright] >> r->by_points[i] & 1) {
                most = s->points[r->by_points[i]];
                break;
            }
        }
        r_main[nright + 1] = r_main[nright] + shape->lm[nright] * most;
        r_xalone[nright + 1] = r_xalone[nright] + shape->cx[nright] * most;
    }
    if (!nright) {
        return -1e300;
    }
    const uint64_t left_code = r->rack_code + shape->left_code;
    int nleft = shape->nleft < rack_len - 1 ? shape->nleft : rack_len - 1;
    double best = -1e300;
    for (int k = 0; k <= nleft; k++) {
        int left_alone = shape->left_lm_sum[k] * desc_points[0];
        double most = -1e300;  /* as anchor_bound's */
        double short_one = -1e300;
        uint64_t short_code = 0;
        int last = nright < rack_len - k ? nright : rack_len - k;
        const int *span = pool + shape->span[k];
        for (int j = 1; j <= last; j++) {
            int n = k + j, wmul = span[0], fixed = span[1];
            /* the sum of the m highest coefficients times the m highest tile values, from the coefficients'
             * sums (cum) and where the values step down (by parts: the same sum, a term a step); a blank
             * played: on the lowest coefficient, m = n - 1 */
            const int *cum = span + 2;
            int m = n - plays_blank;
            int dot = m > 0 ? cum[m - 1] * desc_points[m - 1] : 0;
            for (int i = 0; i < nsteps && step_at[i] < m - 1; i++) {
                dot += cum[step_at[i]] * step_by[i];
            }
            span += 2 + n;
            int alone = wmul * (left_alone + r_main[j]) + r_xalone[j];
            if (n < rack_size - 1) {
                double equity = span_equity(fixed, dot, alone, leave_after[n]);
                if (equity > most) {
                    most = equity;
                }
                continue;
            }
            long_span(s, r, k, n, fixed, dot, alone, left_code + shape->right_code[j], &most, &short_one, &short_code,
                      whole, nwhole, rack_size, bingo, split_on, short_check);
        }
        best = left_part_done(r, k, most, short_one, short_code, best, depth_bound);
    }
    return best;
}

/* shaped_body for r's search (as anchor_bound). */
double anchor_bound_shaped(const Search *s, const AnchorShape *shape, const int *pool, const Reply *r,
                           double *depth_bound, WholeSpan *whole, int *nwhole) {
    return r->plays_blank ? shaped_body(s, shape, pool, r, depth_bound, whole, nwhole, 1)
                          : shaped_body(s, shape, pool, r, depth_bound, whole, nwhole, 0);
}
