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
from engine.layout import SIZE
from engine.move import Direction, Placement
from engine.rack import Rack
from engine.rules import Ruleset
from engine.tiles import BLANK_FLAG

ACROSS = Direction.ACROSS
DOWN = Direction.DOWN

_new_placement: Callable[..., Placement] = tuple.__new__  # type: ignore[assignment]


@cache
def _square_tiles() -> tuple[tuple[tuple[Square, ...], ...], ...]:
    """``table[row][col][tile]`` = the tuple (row, col, tile): built once, shared by every move."""
    return tuple(
        tuple(tuple((r, c, t) for t in range(2 * BLANK_FLAG)) for c in range(SIZE)) for r in range(SIZE)
    )


def generate(board: Board, rack: Rack, lexicon: Dawg, rules: Ruleset) -> list[Placement]:
    """Every legal placement of rack tiles on the board, each with its score."""
    if lexicon.alphabet != rules.alphabet or board.alphabet != rules.alphabet:
        raise ValueError("board, rack, lexicon and ruleset must share one alphabet")
    moves: list[Placement] = []
    if len(rack) == 0:
        return moves
    layout = rules.layout
    grid = board.grid
    points = rules.alphabet.points
    empty = board.is_empty()
    table = _square_tiles()
    for direction in (ACROSS, DOWN):
        if direction is ACROSS:
            g = grid
            lay = layout
            squares = table
        else:
            g = board.transposed_grid()
            lay = layout.transposed()
            squares = tuple(tuple(table[c][r] for c in range(SIZE)) for r in range(SIZE))
        if empty:
            masks = [[rules.alphabet.all_mask] * SIZE for _ in range(SIZE)]
            sums = [[NO_CROSS] * SIZE for _ in range(SIZE)]
            anchors = {lay.start[0]: [lay.start[1]]}
        else:
            masks, sums = cross_checks(g, lexicon, points)
            anchors = _anchors(g)
        lms = lay.letter_multipliers()
        wms = lay.word_multipliers()
        for r, cols in anchors.items():
            _generate_row(
                g[r], cols, masks[r], sums[r], lms[r], wms[r], squares[r],
                rack, lexicon, rules, direction, moves,
            )
    return moves


def _anchors(g: list[list[int]]) -> dict[int, list[int]]:
    """Anchor columns per row: empty squares with an orthogonal neighbour."""
    result: dict[int, list[int]] = {}
    for r in range(SIZE):
        row = g[r]
        above = g[r - 1] if r else None
        below = g[r + 1] if r < SIZE - 1 else None
        cols = []
        for c in range(SIZE):
            if row[c] != EMPTY:
                continue
            if (
                (c > 0 and row[c - 1] != EMPTY)
                or (c < SIZE - 1 and row[c + 1] != EMPTY)
                or (above is not None and above[c] != EMPTY)
                or (below is not None and below[c] != EMPTY)
            ):
                cols.append(c)
        if cols:
            result[r] = cols
    return result


def _generate_row(
    line: list[int],
    anchors: list[int],
    cc: list[int],
    xs: list[int],
    lm: tuple[int, ...],
    wm: tuple[int, ...],
    sq: tuple[tuple[Square, ...], ...],
    rack: Rack,
    lexicon: Dawg,
    rules: Ruleset,
    direction: Direction,
    out: list[Placement],
) -> None:
    """All moves whose main word lies in this row and whose leftmost anchor is in ``anchors``."""
    mask = lexicon.mask
    ends = lexicon.ends
    child = lexicon.child
    pts = rules.alphabet.points
    rack_size = rules.rack_size
    bingo = rules.bingo_bonus
    counts = list(rack.counts)
    blanks = rack.blanks
    rack_left = len(rack)
    rmask = 0
    for code, n in enumerate(counts):
        if n:
            rmask |= 1 << code
    placed: list[Square] = []
    down = direction is DOWN
    append = out.append
    newp = _new_placement
    blank_flag = BLANK_FLAG

    # For each occupied square: the run of board tiles from it (letters, points, index after run).
    runs: list[tuple[tuple[int, ...], int, int] | None] = [None] * (SIZE + 1)
    p = SIZE - 1
    while p >= 0:
        if line[p] != EMPTY:
            q = p
            letters = []
            total = 0
            while q < SIZE and line[q] != EMPTY:
                t = line[q]
                letters.append(t & 63)
                if not t & blank_flag:
                    total += pts[t]
                q += 1
            runs[p] = (tuple(letters), total, q)
        p -= 1

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
        run = runs[nxt] if nxt < SIZE else None
        sqpos = sq[pos]
        wmul2 = wmul * wmu
        ntiles2 = ntiles + 1
        solo_ok = ntiles2 > 1 or not down or x < 0
        bonus = bingo if ntiles2 == rack_size else 0
        while m:
            low = m & -m
            m ^= low
            letter = low.bit_length() - 1
            cnode = child[node + (nm & (low - 1)).bit_count()]
            for variant in (0, 1):
                if variant == 0:
                    if not counts[letter]:
                        continue
                    counts[letter] -= 1
                    if not counts[letter]:
                        rmask ^= low
                    tp = pts[letter] * lmul
                    tile = letter
                else:
                    if not blanks:
                        break
                    blanks -= 1
                    tp = 0
                    tile = letter | blank_flag
                rack_left -= 1
                placed.append(sqpos[tile])
                main2 = main + tp
                cross2 = cross if x < 0 else cross + (x + tp) * wmu
                if run is None:
                    if e & low and solo_ok and pos > start:
                        append(newp(Placement, (tuple(placed), direction, main2 * wmul2 + cross2 + bonus)))
                    if rack_left and nxt < SIZE:
                        extend(nxt, cnode, main2, wmul2, cross2, ntiles2, start)
                else:
                    # follow the board tiles after pos
                    letters, run_pts, after = run
                    n = cnode
                    ok = True
                    last = len(letters) - 1
                    for i, lt in enumerate(letters):
                        bm = mask[n]
                        bit = 1 << lt
                        if not bm & bit:
                            ok = False
                            break
                        if i == last and ends[n] & bit and solo_ok:
                            append(
                                newp(
                                    Placement,
                                    (tuple(placed), direction, (main2 + run_pts) * wmul2 + cross2 + bonus),
                                )
                            )
                        n = child[n + (bm & (bit - 1)).bit_count()]
                    if ok and rack_left and after < SIZE:
                        extend(after, n, main2 + run_pts, wmul2, cross2, ntiles2, start)
                placed.pop()
                rack_left += 1
                if variant == 0:
                    if not counts[letter]:
                        rmask |= low
                    counts[letter] += 1
                else:
                    blanks += 1

    def left_part(node: int, prefix: list[int], limit: int, anchor: int) -> None:
        # Try the current prefix (placed just left of the anchor), then grow it by one tile.
        nonlocal blanks, rack_left, rmask
        k = len(prefix)
        if k:
            base = anchor - k
            main = 0
            wmul = 1
            for i, tile in enumerate(prefix):
                p = base + i
                if not tile & blank_flag:
                    main += pts[tile] * lm[p]
                wmul *= wm[p]
                placed.append(sq[p][tile])
            extend(anchor, node, main, wmul, 0, k, base)
            del placed[-k:]
        else:
            extend(anchor, node, 0, 1, 0, 0, anchor)
        if k >= limit or not rack_left:
            return
        nm = mask[node]
        m = nm if blanks else nm & rmask
        while m:
            low = m & -m
            m ^= low
            letter = low.bit_length() - 1
            cnode = child[node + (nm & (low - 1)).bit_count()]
            if not mask[cnode]:
                continue
            if counts[letter]:
                counts[letter] -= 1
                if not counts[letter]:
                    rmask ^= low
                rack_left -= 1
                prefix.append(letter)
                left_part(cnode, prefix, limit, anchor)
                prefix.pop()
                rack_left += 1
                if not counts[letter]:
                    rmask |= low
                counts[letter] += 1
            if blanks:
                blanks -= 1
                rack_left -= 1
                prefix.append(letter | blank_flag)
                left_part(cnode, prefix, limit, anchor)
                prefix.pop()
                rack_left += 1
                blanks += 1

    root = lexicon.root
    anchor_set = set(anchors)
    for anchor in anchors:
        if anchor > 0 and line[anchor - 1] != EMPTY:
            # left part from the board: the tiles directly left of the anchor
            start = anchor - 1
            while start > 0 and line[start - 1] != EMPTY:
                start -= 1
            node = root
            total = 0
            for p in range(start, anchor):
                t = line[p]
                lt = t & 63
                bm = mask[node]
                bit = 1 << lt
                if not bm & bit:
                    node = -1
                    break
                node = child[node + (bm & (bit - 1)).bit_count()]
                if not t & blank_flag:
                    total += pts[t]
            if node >= 0:
                extend(anchor, node, total, 1, 0, 0, start)
        else:
            limit = 0
            p = anchor - 1
            while p >= 0 and line[p] == EMPTY and p not in anchor_set and limit < rack_size - 1:
                limit += 1
                p -= 1
            left_part(root, [], min(limit, rack_left - 1), anchor)
