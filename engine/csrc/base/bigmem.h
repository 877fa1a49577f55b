/*
 * Big zeroed tables in memory of their own, in huge pages where the system gives them (bigmem.c): the
 * endgame's transposition table, its line memo and the memo's ring of moves.
 */

#ifndef ENGINE_BIGMEM_H
#define ENGINE_BIGMEM_H

#include <stddef.h>

void *big_calloc(size_t size, int *mapped);
void big_free(void *p, size_t size, int mapped);

#endif
