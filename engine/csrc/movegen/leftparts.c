/*
 * The left parts of a rack, walked once (search.c, reply.c).
 *
 * search_anchor puts every left part the rack can spell along the DAWG (up to the squares free left of
 * the anchor) before the anchor and extends each whose node goes on with a tile the anchor allows. The
 * walk depends only on the rack, not on the anchor, and a reply searches tens of anchors with one rack,
 * so the playout kernel walks it once into a list (node, letters that can follow, depth, the index
 * after the longer left parts) and each anchor reads the list (search.c's listed_left_parts): the same
 * left parts in the same order, the rack's tiles taken only for those that are extended.
 */

#include "movegen.h"

void left_parts_init(LeftParts *lp) {
    memset(lp, 0, sizeof *lp);
    lp->depth = -1;
    lp->blanks = -1;  /* no rack */
}

void left_parts_free(LeftParts *lp) {
    PyMem_RawFree(lp->items);
    lp->items = NULL;
    lp->len = lp->cap = 0;
    PyMem_RawFree(lp->spare);
    lp->spare = NULL;
    lp->spare_cap = 0;
    if (lp->without_blanks != NULL) {
        left_parts_free(lp->without_blanks);
        PyMem_RawFree(lp->without_blanks);
        lp->without_blanks = NULL;
    }
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
    if (lp->without_blanks != NULL) {
        left_parts_reset(lp->without_blanks, counts, 0, letters);
    }
}

/* The list of the left parts of lp's rack without its blanks (walked when first read), NULL when it
 * cannot be made (out of memory: the search walks the DAWG itself). */
LeftParts *left_parts_without_blanks(LeftParts *lp, int letters) {
    if (lp->without_blanks == NULL) {
        LeftParts *list = PyMem_RawMalloc(sizeof(LeftParts));
        if (list == NULL) {
            return NULL;
        }
        left_parts_init(list);
        left_parts_reset(list, lp->counts, 0, letters);
        lp->without_blanks = list;
    }
    return lp->without_blanks;
}

/* The left parts after `node` (its letters `nm`; `depth` tiles so far worth `points`, at most `limit`), from
 * the rack as s holds it. */
static void walk(Search *s, LeftParts *lp, uint32_t node, uint32_t nm, int depth, int points, int limit) {
    uint32_t m = s->blanks_left == 0 ? nm & s->rmask : nm;
    while (m && !lp->failed) {
        int l = LOWEST(m);
        uint32_t bit = 1u << l;
        m &= m - 1;
        const DawgEdge *edge = &s->edges[node + POPCOUNT(nm & (bit - 1))];
        uint32_t fits = edge->mask & usable_after(s, l);  /* the tile for l is taken only to walk on */
        if (!fits) {
            continue;  /* no tile of the rack can follow it: no anchor extends it, and no longer left part starts with it */
        }
        LeftPart *grown = GROWN_ARRAY(lp->items, lp->cap, lp->len + 1, 1024);
        if (grown == NULL) {
            lp->failed = 1;
            return;
        }
        lp->items = grown;
        size_t at = lp->len++;
        LeftPart *item = &lp->items[at];
        item->node = *edge;
        item->fits = fits;
        item->depth = (int8_t)(depth + 1);
        item->letter = (int8_t)l;
        item->points = (int16_t)(points + s->points[l]);
        if (depth + 1 < limit) {
            int on_blank = take_tile(s, l);
            walk(s, lp, edge->child, edge->mask, depth + 1, points + s->points[l], limit);
            return_tile(s, l, on_blank);
        }
        lp->items[at].skip = (uint32_t)lp->len;  /* the walk may have moved the list */
    }
}

/* The list walked `depth` tiles deep made `limit` deep (into lp->spare, then swapped with lp->items): the
 * items copied in their order, each of `depth` tiles followed by the walk after it (the rack's tiles of an
 * item's letters taken as the list is read), each item's skip set once the items after it are no longer
 * longer ones that start with it. The same list as a walk `limit` deep from the root. */
static void walk_deeper(Search *s, LeftParts *lp, int depth, int limit) {
    LeftPart *old = lp->items;
    size_t n = lp->len, old_cap = lp->cap;
    lp->items = lp->spare;
    lp->cap = lp->spare_cap;
    lp->spare = old;
    lp->spare_cap = old_cap;
    lp->len = 0;
    int letters[MAX_RACK], on_blank[MAX_RACK], taken = 0;
    size_t open[MAX_RACK];  /* the items whose longer left parts are still being copied, by depth - 1 */
    for (size_t i = 0; i < n && !lp->failed; i++) {
        const LeftPart *item = &old[i];
        int k = item->depth;
        while (taken >= k) {  /* the items of depth k and more before it are done */
            taken--;
            lp->items[open[taken]].skip = (uint32_t)lp->len;
            return_tile(s, letters[taken], on_blank[taken]);
        }
        LeftPart *grown = GROWN_ARRAY(lp->items, lp->cap, lp->len + 1, 1024);
        if (grown == NULL) {
            lp->failed = 1;
            break;
        }
        lp->items = grown;
        open[taken] = lp->len;
        lp->items[lp->len++] = *item;
        letters[taken] = item->letter;
        on_blank[taken] = take_tile(s, item->letter);
        taken++;
        if (k == depth) {
            walk(s, lp, item->node.child, item->node.mask, k, item->points, limit);
        }
    }
    while (taken > 0) {
        taken--;
        if (!lp->failed) {
            lp->items[open[taken]].skip = (uint32_t)lp->len;
        }
        return_tile(s, letters[taken], on_blank[taken]);
    }
}

/* Walk the left parts of s's rack (whole, as search_anchor starts with it) up to `limit` tiles if not
 * yet walked that far (a longer walk when an anchor needs one: a rack with blanks has many long left
 * parts, and most anchors have a few free squares on their left): 0 when the list can be read, -1 when
 * it could not be made (out of memory: the search walks the DAWG itself). */
int left_parts_ready(Search *s, LeftParts *lp, int limit) {
    if (lp->failed) {
        return -1;
    }
    if (lp->depth >= limit) {
        return 0;
    }
    if (lp->depth > 0) {
        walk_deeper(s, lp, lp->depth, limit);
    } else {
        lp->len = 0;
        walk(s, lp, 0, s->mask[0], 0, 0, limit);
    }
    if (lp->failed) {
        lp->len = 0;
        return -1;
    }
    lp->depth = limit;
    return 0;
}
