"""Cross-checks: for every empty square, which letters may go there and what the cross word is worth.

Computed for the across pass (the cross word runs down the column); the down pass swaps the grid
and its transpose. A square with no perpendicular neighbour allows every letter and has no cross
word (sum ``NO_CROSS``). Only empty squares are meaningful.
"""

from __future__ import annotations

from engine.board import EMPTY
from engine.dawg import Dawg
from engine.layout import SIZE
from engine.tiles import BLANK_FLAG, LETTER_MASK

NO_CROSS = -1


def cross_checks(
    columns: list[list[int]], lexicon: Dawg, points: tuple[int, ...], wanted: int = -1
) -> tuple[list[list[int]], list[list[int]]]:
    """Per square ``[row][col]``: (allowed-letter bitmask, points of the cross word's tiles or -1).

    ``columns`` is the transposed grid (``columns[col][row]``): the cross words of an across move
    run down the columns. Only the letters in ``wanted`` are tried (the rack's letters, when it
    has no blank); the others are left out of a constrained square's mask.
    """
    all_mask = lexicon.alphabet.all_mask
    mask, ends, child = lexicon.mask, lexicon.ends, lexicon.child
    masks = [[all_mask] * SIZE for _ in range(SIZE)]
    sums = [[NO_CROSS] * SIZE for _ in range(SIZE)]
    for c, col in enumerate(columns):
        occupied = [r for r in range(SIZE) if col[r] != EMPTY]
        if not occupied:
            continue
        targets = {r - 1 for r in occupied if r > 0} | {r + 1 for r in occupied if r < SIZE - 1}
        for r in targets:
            if col[r] != EMPTY:
                continue
            i = r
            while i > 0 and col[i - 1] != EMPTY:
                i -= 1
            prefix = col[i:r]
            j = r + 1
            while j < SIZE and col[j] != EMPTY:
                j += 1
            suffix = col[r + 1 : j]
            total = 0
            for t in prefix:
                if t < BLANK_FLAG:
                    total += points[t]
            for t in suffix:
                if t < BLANK_FLAG:
                    total += points[t]
            sums[r][c] = total
            node = lexicon.root
            for t in prefix:
                nm = mask[node]
                bit = 1 << (t & LETTER_MASK)
                if not nm & bit:
                    node = -1
                    break
                node = child[node + (nm & (bit - 1)).bit_count()]
            allowed = 0
            if node >= 0:
                edges = mask[node]
                if not suffix:
                    allowed = edges & wanted & ends[node]
                else:
                    last = 1 << (suffix[-1] & LETTER_MASK)
                    middle = [1 << (t & LETTER_MASK) for t in suffix[:-1]]
                    m = edges & wanted
                    while m:
                        low = m & -m
                        m ^= low
                        n = child[node + (edges & (low - 1)).bit_count()]
                        for bit in middle:
                            nm = mask[n]
                            if not nm & bit:
                                n = -1
                                break
                            n = child[n + (nm & (bit - 1)).bit_count()]
                        if n >= 0 and ends[n] & last:
                            allowed |= low
            masks[r][c] = allowed
    return masks, sums
