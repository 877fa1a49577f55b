/*
 * The left parts of a rack, walked once (search.c, reply.c).
 *
 * search_anchor puts every left part the rack can spell along the DAWG (up to the squares free left of
 * the anchor) before the anchor and extends each whose node goes on with a tile the anchor allows. The
 * walk depends only on the rack, not on the anchor, and a reply searches tens of anchors with one rack,
 * so the playout kernel walks it once into a list (node, letters that can follow, depth, the index
 * after the longer left parts) and each anchor reads the list: the same left parts in the same order,
 * the rack's tiles taken only for those that are extended.
 */

#include "native.h"

void left_parts_init(LeftParts *lp) {
    memset(lp, 0, sizeof *lp);
    lp->depth = -1;
    lp->blanks = -1;  /* no rack */
}

void left_parts_free(LeftParts *lp) {
    PyMem_Free(lp->items);
    lp->items = NULL;
    lp->len = lp->cap = 0;
}

/* Whether the list is (or will be, when first read) the walk of this rack. */
int left_parts_match(const LeftParts *lp, const int *counts, int blanks, int letters) {
    return lp->blanks == blanks && memcmp(lp->counts, counts, sizeof(int) * (size_t)letters) == 0;
}

/* Make the list the walk of this rack, walked when first read. */
void left_parts_reset(LeftParts *lp, const int *counts, int blanks, int letters) {
    memset(lp->counts, 0, sizeof lp->counts);
    memcpy(lp->counts, counts, sizeof(int) * (size_t)letters);
    lp->blanks = blanks;
    lp->depth = -1;
    lp->failed = 0;
    lp->len = 0;
}

/* The left parts after `node` (`depth` tiles so far, at most `limit`), from the rack as s holds it. */
static void walk(Search *s, LeftParts *lp, uint32_t node, int depth, int limit) {
    uint32_t nm = s->mask[node];
    uint32_t m = s->blanks_left == 0 ? nm & s->rmask : nm;
    while (m && !lp->failed) {
        int l = LOWEST(m);
        uint32_t bit = 1u << l;
        m &= m - 1;
        uint32_t n2 = s->child[node + POPCOUNT(nm & (bit - 1))];
        if (lp->len == lp->cap) {
            size_t cap = lp->cap ? 2 * lp->cap : 1024;
            LeftPart *grown = PyMem_Realloc(lp->items, cap * sizeof(LeftPart));
            if (grown == NULL) {
                lp->failed = 1;
                return;
            }
            lp->items = grown;
            lp->cap = cap;
        }
        int on_blank = take_tile(s, l);
        size_t at = lp->len++;
        LeftPart *item = &lp->items[at];
        item->node = n2;
        item->fits = s->mask[n2] & (s->blanks_left > 0 ? s->all_letters : s->rmask);
        item->depth = (int8_t)(depth + 1);
        item->letter = (int8_t)l;
        if (depth + 1 < limit) {
            walk(s, lp, n2, depth + 1, limit);
        }
        lp->items[at].skip = (uint32_t)lp->len;  /* the walk may have moved the list */
        return_tile(s, l, on_blank);
    }
}

/* Walk the left parts of s's rack (whole, as search_anchor starts with it) if not yet walked: 0 when the
 * list can be read, -1 when it could not be made (out of memory: the search walks the DAWG itself). */
int left_parts_ready(Search *s, LeftParts *lp) {
    if (lp->failed) {
        return -1;
    }
    int max_left = (s->rack_len < s->rack_size ? s->rack_len : s->rack_size) - 1;
    if (lp->depth >= max_left) {
        return 0;
    }
    lp->len = 0;
    if (max_left > 0) {
        walk(s, lp, 0, 0, max_left);
    }
    if (lp->failed) {
        lp->len = 0;
        return -1;
    }
    lp->depth = max_left;
    return 0;
}

/* search_anchor's left parts of at most `limit` tiles, read from the list, each extended when a tile
 * left on the rack can go on the anchor after it. */
void listed_left_parts(Search *s, const LeftParts *lp, int anchor, int limit) {
    uint32_t allowed = s->allowed[anchor];
    const LeftPart *items = lp->items;
    size_t n = lp->len;
    for (size_t i = 0; i < n;) {
        const LeftPart *item = &items[i];
        int k = item->depth;
        s->left_letters[k - 1] = item->letter;
        if (item->fits & allowed) {
            /* the left part covers anchor - k .. anchor - 1; its tiles taken off the rack as the walk took them */
            int on_blank[MAX_RACK];
            int main = 0, wmul = 1;
            for (int q = 0; q < k; q++) {
                int p = anchor - k + q, l = s->left_letters[q];
                on_blank[q] = take_tile(s, l);
                s->pos[q] = p;
                s->letter[q] = l;
                main += s->points[l] * s->lm[p];
                wmul *= s->wm[p];
            }
            s->placed = k;
            extend(s, anchor, item->node, main, wmul, 0, k, 1);
            s->placed = 0;
            for (int q = k - 1; q >= 0; q--) {
                return_tile(s, s->left_letters[q], on_blank[q]);
            }
            if (s->failed) {
                return;
            }
        }
        i = k < limit ? i + 1 : item->skip;
    }
}
