/*
 * The endgame's big tables (the transposition table, the line memo and its ring of moves) in memory of their
 * own: on Linux in huge pages where the kernel gives them (madvise), so that a look-up at a random place in
 * tens of megabytes does not miss the processor's cache of page translations too (a walk of the page tables
 * before the load); elsewhere, and where the mapping fails, from PyMem_RawCalloc. Zeroed either way.
 */

#include <Python.h>

#include "bigmem.h"

#if defined(__linux__)
#include <sys/mman.h>
#endif

/* `size` zeroed bytes (size > 0), or NULL; *mapped: whether they were mapped (hand it to big_free). */
void *big_calloc(size_t size, int *mapped) {
    *mapped = 0;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    /* mapped with a huge page's room more and trimmed to start on a huge page's boundary: a table of a
     * few huge pages mapped anywhere else would lie mostly in small ones */
    const size_t huge = (size_t)2 << 20;
    char *raw = mmap(NULL, size + huge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw != MAP_FAILED) {
        char *p = (char *)(((uintptr_t)raw + huge - 1) & ~(uintptr_t)(huge - 1));
        if (p > raw) {
            munmap(raw, (size_t)(p - raw));
        }
        munmap(p + size, (size_t)(raw + huge - p));  /* (the room past the table: never none, p < raw + huge) */
        (void)madvise(p, size, MADV_HUGEPAGE);  /* a hint: refused, the pages are small ones */
        *mapped = 1;
        return p;
    }
#endif
    return PyMem_RawCalloc(1, size);
}

/* Give back what big_calloc gave (NULL: nothing). */
void big_free(void *p, size_t size, int mapped) {
    if (p == NULL) {
        return;
    }
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (mapped) {
        munmap(p, size);
        return;
    }
#endif
    (void)size;
    (void)mapped;
    PyMem_RawFree(p);
}
