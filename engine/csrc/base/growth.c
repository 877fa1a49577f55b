/*
 * Arrays grown by doubling: one copy of the code for every growing array of the extension (growth.h).
 */

#include <Python.h>
#include <stdint.h>

#include "growth.h"

void *grown_array(void *items, size_t *cap, size_t need, size_t size, size_t first) {
    if (need <= *cap && items != NULL) {
        return items;
    }
    size_t grown_cap = *cap ? *cap : first;
    if (grown_cap == 0) {
        grown_cap = 1;
    }
    while (grown_cap < need) {
        if (grown_cap > SIZE_MAX / 2) {
            return NULL;
        }
        grown_cap *= 2;
    }
    if (size == 0 || grown_cap > SIZE_MAX / size) {
        return NULL;
    }
    void *grown = PyMem_RawRealloc(items, grown_cap * size);
    if (grown == NULL) {
        return NULL;
    }
    *cap = grown_cap;
    return grown;
}
