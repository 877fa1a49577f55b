"""Cross-checks: for every empty square, which letters may go there and what the cross word is worth.

Computed for the across pass (the cross word runs down the column); the down pass uses the
transposed grid. A square with no perpendicular neighbour allows every letter and has no cross
word (sum ``-1``).
"""

from __future__ import annotations

from engine.board import EMPTY
from engine.dawg import Dawg
from engine.layout import SIZE
from engine.tiles import BLANK_FLAG, LETTER_MASK

NO_CROSS = -1


def cross_checks(grid: list[list[int]], lexicon: Dawg, points: tuple[int, ...]) -> tuple[list[list[int]], list[list[int]]]:
    """Per square ``[row][col]``: (allowed-letter bitmask, points of the cross word's board tiles or -1).

    Occupied squares get mask 0 and sum -1.
    """
    all_mask = lexicon.alphabet.all_mask
    mask, ends, child = lexicon.mask, lexicon.ends, lexicon.child
    masks = [[all_mask] * SIZE for _ in range(SIZE)]
    sums = [[NO_CROSS] * SIZE for _ in range(SIZE)]
    for r in range(SIZE):
        row = grid[r]
        above_row = grid[r - 1] if r else None
        below_row = grid[r + 1] if r < SIZE - 1 else None
        for c in range(SIZE):
            if row[c] != EMPTY:
                masks[r][c] = 0
                continue
            up = above_row is not None and above_row[c] != EMPTY
            down = below_row is not None and below_row[c] != EMPTY
            if not (up or down):
                continue
            prefix: list[int] = []
            i = r - 1
            while i >= 0 and grid[i][c] != EMPTY:
                prefix.append(grid[i][c])
                i -= 1
            prefix.reverse()
            suffix: list[int] = []
            i = r + 1
            while i < SIZE and grid[i][c] != EMPTY:
                suffix.append(grid[i][c])
                i += 1
            total = 0
            for t in prefix:
                if not t & BLANK_FLAG:
                    total += points[t]
            for t in suffix:
                if not t & BLANK_FLAG:
                    total += points[t]
            sums[r][c] = total
            node = lexicon.walk(lexicon.root, [t & LETTER_MASK for t in prefix])
            allowed = 0
            if node >= 0:
                cand = mask[node]
                if not suffix:
                    allowed = cand & ends[node]
                else:
                    last = suffix[-1] & LETTER_MASK
                    middle = [t & LETTER_MASK for t in suffix[:-1]]
                    i = node
                    m = cand
                    while m:
                        low = m & -m
                        n = lexicon.walk(child[i], middle)
                        if n >= 0 and ends[n] >> last & 1:
                            allowed |= low
                        i += 1
                        m ^= low
            masks[r][c] = allowed
    return masks, sums
