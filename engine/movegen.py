"""Appel-Jacobson move generation over the DAWG; every move comes out scored.

Rows only: the down moves are the across moves of the transposed board. For each row we find the
anchors (empty squares next to a tile, or the start square on an empty board), the cross-checks
(allowed letters as bitmasks, and the points of each cross word), then for every anchor build
left parts -- from the tiles already left of it, or from the rack over the empty non-anchor squares
before it -- and extend each one rightwards through the anchor. Scores are summed on the way
(main word, word multipliers, cross words, bingo), so recording a move costs one tuple.

Counting convention: a move is the set of new (square, tile) pairs. A one-tile move that makes
words both ways is produced once (by the across pass); each letter a blank stands for is its
own move.

>>> from engine.board import Board
>>> from engine.dawg import Dawg
>>> from engine.rack import Rack
>>> from engine.rules import Ruleset
>>> rules = Ruleset.for_id(5)
>>> en = rules.alphabet
>>> lex = Dawg.build([en.parse_word(w) for w in ["AT", "TA", "CAT"]], en)
>>> moves = generate(Board(en), Rack.from_text("ACT", en), lex, rules)
>>> len(moves), sorted({m.score for m in moves})
(14, [2, 6])
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from engine.board import EMPTY, Board, Square
from engine.crosschecks import NO_CROSS, cross_checks
from engine.dawg import Dawg
from engine.layout import SIZE, BoardLayout
from engine.move import Direction, Placement
from engine.rack import Rack
from engine.rules import Ruleset
from engine.tiles import BLANK_FLAG, LETTER_MASK

ACROSS = Direction.ACROSS
DOWN = Direction.DOWN

_SquareTable = tuple[tuple[tuple[Square, ...], ...], ...]
_Tables = tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...], tuple[int, int], _SquareTable]

_new_placement: Callable[..., Placement] = tuple.__new__


@cache
def _layout_tables(layout: BoardLayout) -> tuple[_Tables, _Tables]:
    """Per direction: letter and word multipliers, start square and square-tile table, rows first.

    The down pass works on the transposed board, so its tables are transposed too. Cached per layout.
    """
    table = _square_tiles()
    transposed_table = tuple(tuple(table[c][r] for c in range(SIZE)) for r in range(SIZE))
    flipped = layout.transposed()
    return (
        (layout.letter_multipliers(), layout.word_multipliers(), layout.start, table),
        (flipped.letter_multipliers(), flipped.word_multipliers(), flipped.start, transposed_table),
    )


@cache
def _square_tiles() -> _SquareTable:
    """``table[row][col][tile]`` = the tuple (row, col, tile): built once, shared by every move."""
    return tuple(
        tuple(tuple((r, c, t) for t in range(2 * BLANK_FLAG)) for c in range(SIZE)) for r in range(SIZE)
    )


def generate(board: Board, rack: Rack, lexicon: Dawg, rules: Ruleset) -> list[Placement]:
    """Every legal placement of rack tiles on the board, each with its score."""
    alphabet = rules.alphabet
    if lexicon.alphabet != alphabet or board.alphabet != alphabet:
        raise ValueError("board, rack, lexicon and ruleset must share one alphabet")
    out: list[Placement] = []
    if len(rack) == 0:
        return out
    append = out.append
    newp = _new_placement
    mask = lexicon.mask
    ends = lexicon.ends
    child = lexicon.child
    root = lexicon.root
    pts = alphabet.points
    rack_size = rules.rack_size
    bingo = rules.bingo_bonus
    blank_flag = BLANK_FLAG

    # The rack, changed in place while searching and restored on the way back.
    counts = list(rack.counts)
    blanks = rack.blanks
    rack_left = len(rack)
    rmask = 0
    for code, n in enumerate(counts):
        if n:
            rmask |= 1 << code

    # The row being searched; rebound for every row, read by the closures below.
    cc: list[int] = []
    xs: list[int] = []
    lm: tuple[int, ...] = ()
    wm: tuple[int, ...] = ()
    sq: tuple[tuple[Square, ...], ...] = ()
    runs: list[tuple[tuple[int, ...], int, int] | None] = []
    direction = ACROSS
    down = False
    placed: list[Square] = []
    prefix: list[int] = []

    def extend(pos: int, node: int, main: int, wmul: int, cross: int, ntiles: int, start: int) -> None:
        # ``pos`` is an empty square; ``node`` the DAWG state of the word up to pos - 1.
        nonlocal blanks, rack_left, rmask
        nm = mask[node]
        m = nm & cc[pos]
        if not blanks:
            m &= rmask
        if not m:
            return
        e = ends[node]
        lmul = lm[pos]
        wmu = wm[pos]
        x = xs[pos]
        nxt = pos + 1
        run = runs[nxt]
        sqpos = sq[pos]
        wmul2 = wmul * wmu
        ntiles2 = ntiles + 1
        # a lone tile with a word across is produced by the across pass only
        solo_ok = ntiles or not down or x < 0
        can_end = solo_ok and (pos > start or run is not None)
        bonus = bingo if ntiles2 == rack_size else 0
        more = rack_left > 1
        if run is not None:
            run_letters, run_pts, after = run
            go_on = more and after < SIZE
            np = after
        else:
            go_on = more and nxt < SIZE
            np = nxt
        ccn = cc[np] if go_on else 0
        while m:
            low = m & -m
            m ^= low
            letter = low.bit_length() - 1
            cnode = child[node + (nm & (low - 1)).bit_count()]
            # follow the board tiles after pos (if any) once for both tile variants
            if run is None:
                fin = e & low
                n2 = cnode
                extra = 0
            else:
                n2 = cnode
                fin = 0
                for lt in run_letters:
                    bm = mask[n2]
                    bit = 1 << lt
                    if not bm & bit:
                        n2 = -1
                        break
                    fin = ends[n2] & bit
                    n2 = child[n2 + (bm & (bit - 1)).bit_count()]
                if n2 < 0:
                    continue
                extra = run_pts
            fin = fin and can_end
            deeper = mask[n2] & ccn
            if not (fin or deeper):
                continue
            if counts[letter]:
                counts[letter] -= 1
                if not counts[letter]:
                    rmask ^= low
                rack_left -= 1
                tp = pts[letter] * lmul
                placed.append(sqpos[letter])
                main2 = main + tp + extra
                cross2 = cross if x < 0 else cross + (x + tp) * wmu
                if fin:
                    append(newp(Placement, (tuple(placed), direction, main2 * wmul2 + cross2 + bonus)))
                if deeper and (blanks or deeper & rmask):
                    extend(np, n2, main2, wmul2, cross2, ntiles2, start)
                placed.pop()
                rack_left += 1
                if not counts[letter]:
                    rmask |= low
                counts[letter] += 1
            if blanks:
                blanks -= 1
                rack_left -= 1
                placed.append(sqpos[letter | blank_flag])
                main2 = main + extra
                cross2 = cross if x < 0 else cross + x * wmu
                if fin:
                    append(newp(Placement, (tuple(placed), direction, main2 * wmul2 + cross2 + bonus)))
                if deeper and (blanks or deeper & rmask):
                    extend(np, n2, main2, wmul2, cross2, ntiles2, start)
                placed.pop()
                rack_left += 1
                blanks += 1

    def left_part(node: int, limit: int, anchor: int, cca: int) -> None:
        # Extend the current prefix (placed just left of the anchor), then grow it by one tile.
        nonlocal blanks, rack_left, rmask
        k = len(prefix)
        if mask[node] & cca & (rmask if not blanks else -1):
            if k:
                base = anchor - k
                main = 0
                wmul = 1
                p = base
                for tile in prefix:
                    if tile < blank_flag:
                        main += pts[tile] * lm[p]
                    wmul *= wm[p]
                    placed.append(sq[p][tile])
                    p += 1
                extend(anchor, node, main, wmul, 0, k, base)
                del placed[-k:]
            else:
                extend(anchor, node, 0, 1, 0, 0, anchor)
        if k >= limit:
            return
        last = k + 1 == limit
        nm = mask[node]
        m = nm if blanks else nm & rmask
        while m:
            low = m & -m
            m ^= low
            letter = low.bit_length() - 1
            cnode = child[node + (nm & (low - 1)).bit_count()]
            cm = mask[cnode]
            if not cm or (last and not cm & cca):
                continue
            if counts[letter]:
                counts[letter] -= 1
                if not counts[letter]:
                    rmask ^= low
                rack_left -= 1
                prefix.append(letter)
                left_part(cnode, limit, anchor, cca)
                prefix.pop()
                rack_left += 1
                if not counts[letter]:
                    rmask |= low
                counts[letter] += 1
            if blanks:
                blanks -= 1
                rack_left -= 1
                prefix.append(letter | blank_flag)
                left_part(cnode, limit, anchor, cca)
                prefix.pop()
                rack_left += 1
                blanks += 1

    empty = board.is_empty()
    max_left = min(rack_size, rack_left) - 1
    transposed = board.transposed_grid()
    if not empty:
        across_anchors, down_anchors = _anchors(board.grid)
    for direction, (lms, wms, start_square, squares) in zip((ACROSS, DOWN), _layout_tables(rules.layout), strict=True):
        down = direction is DOWN
        g, gt = (transposed, board.grid) if down else (board.grid, transposed)
        if empty:
            all_letters = alphabet.all_mask
            masks = [[all_letters] * SIZE for _ in range(SIZE)]
            sums = [[NO_CROSS] * SIZE for _ in range(SIZE)]
            anchor_rows = {start_square[0]: [start_square[1]]}
        else:
            masks, sums = cross_checks(gt, lexicon, pts)
            anchor_rows = across_anchors if not down else down_anchors
        for r, anchors in anchor_rows.items():
            line = g[r]
            cc = masks[r]
            xs = sums[r]
            lm = lms[r]
            wm = wms[r]
            sq = squares[r]
            runs = _runs(line, pts)
            previous_anchor = -1
            for anchor in anchors:
                cca = cc[anchor]
                if not (cca if blanks else cca & rmask):
                    # no rack tile fits here: no move covers this anchor
                    previous_anchor = anchor
                    continue
                if anchor > 0 and line[anchor - 1] != EMPTY:
                    # the left part is the run of board tiles directly left of the anchor
                    start = anchor - 1
                    while start > 0 and line[start - 1] != EMPTY:
                        start -= 1
                    node = root
                    total = 0
                    for p in range(start, anchor):
                        t = line[p]
                        bm = mask[node]
                        bit = 1 << (t & 63)
                        if not bm & bit:
                            node = -1
                            break
                        node = child[node + (bm & (bit - 1)).bit_count()]
                        if t < blank_flag:
                            total += pts[t]
                    if node >= 0:
                        extend(anchor, node, total, 1, 0, 0, start)
                else:
                    # left parts from the rack over the empty, non-anchor squares before the anchor
                    limit = min(anchor - previous_anchor - 1, max_left)
                    left_part(root, limit, anchor, cca)
                previous_anchor = anchor
    return out


def _runs(line: list[int], pts: tuple[int, ...]) -> list[tuple[tuple[int, ...], int, int] | None]:
    """For each square (and one past the end): the board tiles from it as (letters, points, end)."""
    runs: list[tuple[tuple[int, ...], int, int] | None] = [None] * (SIZE + 1)
    p = 0
    while p < SIZE:
        if line[p] == EMPTY:
            p += 1
            continue
        q = p
        letters = []
        total = 0
        while q < SIZE and line[q] != EMPTY:
            t = line[q]
            letters.append(t & LETTER_MASK)
            if not t & BLANK_FLAG:
                total += pts[t]
            q += 1
        runs[p] = (tuple(letters), total, q)
        p = q
    return runs


def _anchors(g: list[list[int]]) -> tuple[dict[int, list[int]], dict[int, list[int]]]:
    """Anchors (empty squares with an orthogonal neighbour): columns per row, and rows per column."""
    across: dict[int, list[int]] = {}
    down: dict[int, list[int]] = {}
    empty_row = [EMPTY] * SIZE
    for r in range(SIZE):
        row = g[r]
        above = g[r - 1] if r else empty_row
        below = g[r + 1] if r < SIZE - 1 else empty_row
        left = EMPTY
        for c in range(SIZE):
            here = row[c]
            if here == EMPTY and (
                left != EMPTY
                or (c < SIZE - 1 and row[c + 1] != EMPTY)
                or above[c] != EMPTY
                or below[c] != EMPTY
            ):
                across.setdefault(r, []).append(c)
                down.setdefault(c, []).append(r)
            left = here
    return across, dict(sorted(down.items()))
