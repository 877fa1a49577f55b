"""Cross-checks: for every empty square, which letters may go there and what the cross word is worth.

Computed for the across pass (the cross word runs down the column); the down pass passes the runs
of the rows instead of the columns. A square with no perpendicular neighbour allows every letter
and has no cross word (sum ``NO_CROSS``). Only empty squares are meaningful.
"""

from __future__ import annotations

from engine.lexicon.dawg import Dawg
from engine.rules.layout import SIZE

NO_CROSS = -1

#: A run of tiles along a line (``board.Run``) and the DAWG node its letters lead to (-1 if none).
WalkedRun = tuple[int, int, list[int], int, int]


def cross_checks(
    lines: list[list[WalkedRun]], lexicon: Dawg, wanted: int = -1
) -> tuple[list[list[int]], list[list[int]]]:
    """Per square ``[row][col]``: (allowed-letter bitmask, points of the cross word's tiles or -1).

    ``lines[col]`` are the runs of tiles of column ``col``, walked in the lexicon: the cross words
    of an across move run down the columns. Only the letters in ``wanted`` are tried (the rack's
    letters, when it has no blank); the others are left out of a constrained square's mask.
    """
    all_mask = lexicon.alphabet.all_mask
    mask, ends, root = lexicon.mask, lexicon.ends, lexicon.root
    masks = [[all_mask] * SIZE for _ in range(SIZE)]
    sums = [[NO_CROSS] * SIZE for _ in range(SIZE)]
    for c, runs in enumerate(lines):
        previous_end = -2
        for i, (first, end, letters, run_points, node) in enumerate(runs):
            if first > 0 and first - 1 != previous_end:
                # the square above the run, with nothing just above it
                sums[first - 1][c] = run_points
                masks[first - 1][c] = _fitting(root, letters, lexicon, wanted)
            if end < SIZE:
                # the square below the run; it may also sit just above the next run
                below = runs[i + 1] if i + 1 < len(runs) and runs[i + 1][0] == end + 1 else None
                if below is None:
                    sums[end][c] = run_points
                    masks[end][c] = mask[node] & ends[node] & wanted if node >= 0 else 0
                else:
                    sums[end][c] = run_points + below[3]
                    masks[end][c] = _fitting(node, below[2], lexicon, wanted) if node >= 0 else 0
            previous_end = end
    return masks, sums


def _fitting(node: int, suffix: list[int], lexicon: Dawg, wanted: int) -> int:
    """The ``wanted`` letters that, after ``node``, are followed by the letters ``suffix`` to end a word."""
    mask, ends, child = lexicon.mask, lexicon.ends, lexicon.child
    allowed = 0
    last = 1 << suffix[-1]
    middle = [1 << t for t in suffix[:-1]]
    edges = mask[node]
    m = edges & wanted
    while m:
        low = m & -m
        m ^= low
        # Dawg.walk inlined: this loop runs for every candidate letter of every constrained square
        n = child[node + (edges & (low - 1)).bit_count()]
        for bit in middle:
            nm = mask[n]
            if not nm & bit:
                break
            n = child[n + (nm & (bit - 1)).bit_count()]
        else:
            if ends[n] & last:
                allowed |= low
    return allowed
