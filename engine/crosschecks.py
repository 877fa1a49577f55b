"""Cross-checks: for every empty square, which letters may go there and what the cross word is worth.

Computed for the across pass (the cross word runs down the column); the down pass swaps the grid
and its transpose. A square with no perpendicular neighbour allows every letter and has no cross
word (sum ``NO_CROSS``). Only empty squares are meaningful.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.board import EMPTY, tile_runs
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
    masks = [[all_mask] * SIZE for _ in range(SIZE)]
    sums = [[NO_CROSS] * SIZE for _ in range(SIZE)]
    for c, col in enumerate(columns):
        if max(col) == EMPTY:
            continue
        runs = tile_runs(col)
        previous_end = -2
        for i, (first, end) in enumerate(runs):
            if first > 0 and first - 1 != previous_end:
                # the square above the run, with nothing just above it
                _check(masks, sums, first - 1, c, (), col[first:end], lexicon, points, wanted)
            if end < SIZE:
                # the square below the run; it may also sit just above the next run
                after = col[end + 1 : runs[i + 1][1]] if i + 1 < len(runs) and runs[i + 1][0] == end + 1 else ()
                _check(masks, sums, end, c, col[first:end], after, lexicon, points, wanted)
            previous_end = end
    return masks, sums


def _check(
    masks: list[list[int]],
    sums: list[list[int]],
    r: int,
    c: int,
    prefix: Sequence[int],
    suffix: Sequence[int],
    lexicon: Dawg,
    points: tuple[int, ...],
    wanted: int,
) -> None:
    """Fill in square (r, c), which has the board tiles ``prefix`` above it and ``suffix`` below."""
    mask, ends, child = lexicon.mask, lexicon.ends, lexicon.child
    total = 0
    for t in prefix:
        if t < BLANK_FLAG:
            total += points[t]
    for t in suffix:
        if t < BLANK_FLAG:
            total += points[t]
    sums[r][c] = total
    node = lexicon.walk(lexicon.root, [t & LETTER_MASK for t in prefix])
    if node < 0:
        masks[r][c] = 0
        return
    edges = mask[node]
    if not suffix:
        masks[r][c] = edges & wanted & ends[node]
        return
    allowed = 0
    last = 1 << (suffix[-1] & LETTER_MASK)
    middle = [1 << (t & LETTER_MASK) for t in suffix[:-1]]
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
    masks[r][c] = allowed
