/*
 * Arrays grown by doubling (growth.c): the left parts' list, the endgame's move stack and its cached
 * lines, the search's output buffer.
 */

#ifndef ENGINE_GROWTH_H
#define ENGINE_GROWTH_H

#include <stddef.h>

/* `items` (a PyMem_Raw block, which needs no interpreter's lock, with room for *cap items of `size` bytes, or
 * NULL with *cap 0) with room for `need` items: `items` itself when it has the room, else the block reallocated to the capacity doubled
 * from *cap (from `first` when *cap is 0) until `need` fits, *cap set to it. NULL when the memory ran
 * out or the size would overflow: `items` and *cap are then unchanged and still valid (no error set). */
void *grown_array(void *items, size_t *cap, size_t need, size_t size, size_t first);

/* grown_array with the common case (room enough) inline: the left parts' walk grows its list item by item. */
static inline void *grown_array_inline(void *items, size_t *cap, size_t need, size_t size, size_t first) {
    return need <= *cap && items != NULL ? items : grown_array(items, cap, need, size, first);
}

/* grown_array for a typed pointer `items` and a size_t lvalue `cap`: the item's size from its type. */
#define GROWN_ARRAY(items, cap, need, first) grown_array_inline((items), &(cap), (need), sizeof *(items), (first))

#endif
