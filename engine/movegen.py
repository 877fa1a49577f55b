"""Appel-Jacobson move generation over the DAWG; every move comes out scored.

Rows only: the down moves are the across moves of the transposed board. For each row we find the
anchors (empty squares next to a tile, or the start square on an empty board), the cross-checks
(allowed letters as bitmasks, and the points of each cross word), then for every anchor build
left parts -- from the tiles already left of it, or from the rack over the empty non-anchor squares
before it -- and extend each one rightwards through the anchor. Scores are summed on the way
(main word, word multipliers, cross words, bingo), so recording a move costs one tuple.

Blanks: the search walks each word's letters once, using the rack's own tile for a letter while
there is one and a blank otherwise. When a word is complete, every way to put the rack's blanks on
its new tiles (at least the ones the rack could not cover) is a separate move; a blank on a tile
takes its points out of the main word and of its cross word, which is a fixed amount per tile.

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

import gc
from array import array
from collections.abc import Callable, Sequence
from functools import cache
from itertools import combinations

from engine import native
from engine.board import EMPTY, Board, Square, scored_runs
from engine.crosschecks import NO_CROSS, WalkedRun, cross_checks
from engine.dawg import Dawg
from engine.errors import PositionError
from engine.layout import SIZE, BoardLayout
from engine.move import Direction, Placement
from engine.rack import Rack
from engine.rules import Ruleset
from engine.tiles import BLANK_FLAG

ACROSS = Direction.ACROSS
DOWN = Direction.DOWN

_SquareTable = tuple[tuple[tuple[Square, ...], ...], ...]
_Tables = tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...], tuple[int, int], _SquareTable]
#: What the search needs about one square of the row: allowed letters, cross-word points (or -1),
#: letter and word multiplier, square-tile table, the board tiles right after it (one bit per
#: letter, and their points) or None, the next empty square, and the allowed letters there.
_SquareInfo = tuple[int, int, int, int, tuple[Square, ...], tuple[int, ...] | None, int, int, int]

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


def generate(
    board: Board, rack: Rack, lexicon: Dawg, rules: Ruleset, *, generator: str | None = None
) -> list[Placement]:
    """Every legal placement of rack tiles on the board, each with its score.

    ``generator`` picks ``"native"`` (the C extension, the default when it is built) or ``"python"``
    (this module's search, the reference); both give the same moves with the same scores."""
    check(board, rack, lexicon, rules)
    search = native.generate if (generator or native.GENERATOR) == "native" else _generate
    if not gc.isenabled():
        return search(board, rack, lexicon, rules)
    # The search allocates tens of thousands of small tuples that live on (the moves) or die at
    # once: the cyclic garbage collector's passes over them find nothing to free and took 6-24%
    # of the time on the benchmark positions. It is paused while the search runs.
    gc.disable()
    try:
        return search(board, rack, lexicon, rules)
    finally:
        gc.enable()


def generate_flat(board: Board, rack: Rack, lexicon: Dawg, rules: Ruleset) -> array[int]:
    """The moves of ``generate`` as one flat array of ints, for callers that need only a few of them:
    per move ``n, direction, score``, then ``row, col, tile`` for each of its n tiles."""
    check(board, rack, lexicon, rules)
    if native.GENERATOR == "native":
        return native.generate_flat(board, rack, lexicon, rules)
    flat = array("i")
    for move in generate(board, rack, lexicon, rules, generator="python"):
        flat.extend((len(move.tiles), int(move.direction), move.score or 0))
        for square in move.tiles:
            flat.extend(square)
    return flat


def check(board: Board, rack: Rack, lexicon: Dawg, rules: Ruleset) -> None:
    """Refuse a position no generator should search: mixed alphabets, a rack no game can have."""
    alphabet = rules.alphabet
    if lexicon.alphabet != alphabet or board.alphabet != alphabet or rack.alphabet != alphabet:
        raise ValueError("board, rack, lexicon and ruleset must share one alphabet")
    # the search's cost grows with the rack's subsets and steeply with its blanks: refuse what no game has
    if len(rack) > rules.rack_size:
        raise PositionError(f"a rack of {len(rack)} tiles; ruleset {rules.id} racks hold {rules.rack_size}")
    if rack.blanks > alphabet.blanks:
        raise PositionError(f"a rack with {rack.blanks} blanks; ruleset {rules.id} has {alphabet.blanks}")


def _generate(board: Board, rack: Rack, lexicon: Dawg, rules: Ruleset) -> list[Placement]:
    alphabet = rules.alphabet
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

    # The rack, changed in place while searching and restored on the way back. A letter the rack
    # has no tile left for goes on a blank: its index among the new tiles is pushed on ``short``.
    counts = list(rack.counts)
    blanks = rack.blanks
    short: list[int] = []
    nshort = 0
    last_tile = len(rack) - 1  # with this many new tiles down, one is left to place
    rmask = 0
    for code, n in enumerate(counts):
        if n:
            rmask |= 1 << code
    rack_letters = rmask

    # The row being searched; rebound for every row, read by the closures below.
    info: list[_SquareInfo] = []
    lm: tuple[int, ...] = ()
    wm: tuple[int, ...] = ()
    xs: list[int] = []
    cwm: list[int] = []  # per square: word multiplier of its cross word (0 if none), racks with blanks only
    sq: tuple[tuple[Square, ...], ...] = ()
    direction = ACROSS
    down = False
    axis = 1  # index in a (row, col, tile) square of the position along the row
    placed: list[Square] = []

    def emit(total: int, wmul: int) -> None:
        # The rack holds blanks: one move per way to put them on the new tiles, covering ``short``.
        for i in short:
            if rack_letters >> placed[i][2] & 1:
                # the rack had this letter too, so another new tile shows it and is no blank:
                # which of those tiles are blanks is a choice (rare)
                emit_choices(total, wmul)
                return
        tiles = list(placed)
        for i in short:
            tiles[i], loss = as_blank(i, wmul)
            total -= loss
        # the usual case: the tiles of ``short`` are blanks, and any blanks left over go on any
        # other new tiles, each way a separate move
        append(newp(Placement, (tuple(tiles), direction, total)))
        free = blanks - nshort
        if not free:
            return
        others = []  # (index, blank square-tile, loss): as_blank inlined, it runs for most new tiles
        for i, (_, _, letter) in enumerate(placed):
            if i not in short:
                p = placed[i][axis]
                others.append((i, sq[p][letter | BLANK_FLAG], pts[letter] * lm[p] * (wmul + cwm[p])))
        for i, blank, loss in others:
            tiles[i] = blank
            append(newp(Placement, (tuple(tiles), direction, total - loss)))
            tiles[i] = placed[i]
        if free < 2:
            return
        for a, (i, blank, loss) in enumerate(others):
            tiles[i] = blank
            for j, blank2, loss2 in others[a + 1 :]:
                tiles[j] = blank2
                append(newp(Placement, (tuple(tiles), direction, total - loss - loss2)))
                tiles[j] = placed[j]
            tiles[i] = placed[i]
        for size in range(3, min(free, len(others)) + 1):  # no ruleset has more than two blanks
            for chosen in combinations(others, size):
                value = total
                for i, blank, loss in chosen:
                    tiles[i] = blank
                    value -= loss
                append(newp(Placement, (tuple(tiles), direction, value)))
                for i, _, _ in chosen:
                    tiles[i] = placed[i]

    def emit_choices(total: int, wmul: int) -> None:
        # every set of at most ``blanks`` new tiles whose letters include all those of ``short``
        lacked = [placed[i][2] for i in short]
        for size in range(nshort, min(blanks, len(placed)) + 1):
            for chosen in combinations(range(len(placed)), size):
                missing = list(lacked)
                for i in chosen:
                    if placed[i][2] in missing:
                        missing.remove(placed[i][2])
                if missing:
                    continue
                tiles = list(placed)
                value = total
                for i in chosen:
                    tiles[i], loss = as_blank(i, wmul)
                    value -= loss
                append(newp(Placement, (tuple(tiles), direction, value)))

    def as_blank(i: int, wmul: int) -> tuple[Square, int]:
        # new tile i on a blank: its square-tile, and the points that takes off the move
        _, _, letter = tile = placed[i]
        p = tile[axis]
        return sq[p][letter | BLANK_FLAG], pts[letter] * lm[p] * (wmul + cwm[p])

    def extend(pos: int, node: int, main: int, wmul: int, cross: int, ntiles: int, can_end: bool) -> None:
        # ``pos`` is an empty square; ``node`` the DAWG state of the word up to pos - 1; ``can_end``
        # false if the word may not end at pos (a one-letter word, or a lone tile the across pass makes)
        nonlocal rmask, nshort
        allowed, x, lmul, wmu, sqpos, run, run_pts, np, ccn = info[pos]
        nm = mask[node]
        m = nm & allowed
        if nshort >= blanks:
            m &= rmask
        if not m:
            return
        if ntiles >= last_tile:
            ccn = 0
        e = ends[node] if can_end else 0
        if run is None and not ccn:
            # the word cannot go on past pos: only letters that end it here
            m &= e
            if not m:
                return
        wmul2 = wmul * wmu
        ntiles2 = ntiles + 1
        bonus = bingo if ntiles2 == rack_size else 0
        while m:
            low = m & -m
            m ^= low
            letter = low.bit_length() - 1
            n2 = child[node + (nm & (low - 1)).bit_count()]
            if run is None:
                fin = e & low
            else:
                # follow the board tiles after pos
                fin = 0
                for bit in run:
                    bm = mask[n2]
                    if not bm & bit:
                        n2 = -1
                        break
                    fin = ends[n2] & bit
                    n2 = child[n2 + (bm & (bit - 1)).bit_count()]
                if n2 < 0:
                    continue
                if not can_end:
                    fin = 0
            deeper = mask[n2] & ccn
            if not (fin or deeper):
                continue
            tp = pts[letter] * lmul
            placed.append(sqpos[letter])
            main2 = main + tp + run_pts
            cross2 = cross if x < 0 else cross + (x + tp) * wmu
            have = counts[letter]
            if have:
                counts[letter] = have - 1
                if have == 1:
                    rmask ^= low
            else:
                short.append(ntiles)
                nshort += 1
            if fin:
                if blanks:
                    emit(main2 * wmul2 + cross2 + bonus, wmul2)
                else:
                    append(newp(Placement, (tuple(placed), direction, main2 * wmul2 + cross2 + bonus)))
            if deeper and (nshort < blanks or deeper & rmask):
                extend(np, n2, main2, wmul2, cross2, ntiles2, True)
            if have:
                counts[letter] = have
                if have == 1:
                    rmask |= low
            else:
                short.pop()
                nshort -= 1
            placed.pop()

    def extend_plain(pos: int, node: int, main: int, wmul: int, cross: int, ntiles: int, can_end: bool) -> None:
        # ``extend`` for a rack without blanks, most racks: every letter comes from the rack, so the
        # blank bookkeeping goes and a letter leads deeper only if the rack still fits the next square.
        # Kept as a second copy on purpose: it runs 7.8% fewer instructions on the stress set's
        # no-blank racks and 4.4% fewer on the natural set's (callgrind); the oracle tests cover both.
        nonlocal rmask
        allowed, x, lmul, wmu, sqpos, run, run_pts, np, ccn = info[pos]
        nm = mask[node]
        m = nm & allowed & rmask
        if not m:
            return
        if ntiles >= last_tile:
            ccn = 0
        e = ends[node] if can_end else 0
        if run is None and not ccn:
            m &= e
            if not m:
                return
        wmul2 = wmul * wmu
        ntiles2 = ntiles + 1
        bonus = bingo if ntiles2 == rack_size else 0
        while m:
            low = m & -m
            m ^= low
            letter = low.bit_length() - 1
            n2 = child[node + (nm & (low - 1)).bit_count()]
            if run is None:
                fin = e & low
            else:
                fin = 0
                for bit in run:
                    bm = mask[n2]
                    if not bm & bit:
                        n2 = -1
                        break
                    fin = ends[n2] & bit
                    n2 = child[n2 + (bm & (bit - 1)).bit_count()]
                if n2 < 0:
                    continue
                if not can_end:
                    fin = 0
            have = counts[letter]
            deeper = mask[n2] & ccn & (rmask if have > 1 else rmask ^ low)
            if not (fin or deeper):
                continue
            tp = pts[letter] * lmul
            placed.append(sqpos[letter])
            main2 = main + tp + run_pts
            cross2 = cross if x < 0 else cross + (x + tp) * wmu
            if fin:
                append(newp(Placement, (tuple(placed), direction, main2 * wmul2 + cross2 + bonus)))
            if deeper:
                counts[letter] = have - 1
                if have == 1:
                    rmask ^= low
                extend_plain(np, n2, main2, wmul2, cross2, ntiles2, True)
                counts[letter] = have
                if have == 1:
                    rmask |= low
            placed.pop()

    search = extend if blanks else extend_plain
    empty = board.is_empty()
    max_left = min(rack_size, len(rack)) - 1
    # Left parts from the rack depend on the rack only: enumerate them once, by length.
    lefts = _left_parts(mask, child, root, counts, blanks, max_left) if max_left > 0 else [[]]
    fitting_lefts: dict[tuple[int, int, int, int], list[_LeftPart]] = {}
    transposed = board.transposed_grid()
    if not empty:
        across_anchors, down_anchors = _anchors(board.grid)
        # the runs of tiles of every row and column: the rows' runs are what an across move
        # follows and what the down pass's cross words are made of, and the other way round
        row_runs = _walked_runs(board.grid, pts, lexicon)
        column_runs = _walked_runs(transposed, pts, lexicon)
    all_letters = alphabet.all_mask
    for direction, (lms, wms, start_square, squares) in zip((ACROSS, DOWN), _layout_tables(rules.layout), strict=True):
        down = direction is DOWN
        axis = 0 if down else 1
        g = transposed if down else board.grid
        if empty:
            masks = [[all_letters] * SIZE for _ in range(SIZE)]
            sums = [[NO_CROSS] * SIZE for _ in range(SIZE)]
            anchor_rows = {start_square[0]: [start_square[1]]}
            line_runs: list[list[WalkedRun]] = [[] for _ in range(SIZE)]
        else:
            line_runs, cross_runs = (column_runs, row_runs) if down else (row_runs, column_runs)
            masks, sums = cross_checks(cross_runs, lexicon, -1 if blanks else rmask)
            anchor_rows = across_anchors if not down else down_anchors
        for r, anchors in anchor_rows.items():
            line = g[r]
            cc = masks[r]
            xs = sums[r]
            lm = lms[r]
            wm = wms[r]
            sq = squares[r]
            info = []  # built when the first anchor of the row that a rack tile fits needs it
            previous_anchor = -1
            for anchor in anchors:
                cca = cc[anchor]
                if not (cca if blanks else cca & rmask):
                    # no rack tile fits here: no move covers this anchor
                    previous_anchor = anchor
                    continue
                if not info:
                    info = _row_info(line_runs[r], cc, xs, lm, wm, sq)
                    if blanks:
                        cwm = [w if x >= 0 else 0 for w, x in zip(wm, xs, strict=True)]
                _, x, _, _, _, run, _, _, ccn = info[anchor]
                # a lone tile with a word across is produced by the across pass only
                lone = not down or x < 0
                if anchor > 0 and line[anchor - 1] != EMPTY:
                    # the left part is the run of board tiles directly left of the anchor
                    for _, end, _, points, node in line_runs[r]:
                        if end == anchor:
                            if node >= 0:
                                search(anchor, node, points, 1, 0, 0, lone)
                            break
                else:
                    # no left part, then left parts from the rack over the empty, non-anchor squares
                    # (a word may end on its first tile only if board tiles follow it: no one-letter words)
                    search(anchor, root, 0, 1, 0, 0, lone and run is not None)
                    full = counts, short, nshort, rmask
                    # a left part is worth extending only if a letter at the anchor can end the
                    # word there or lead on: into the board tiles after it, or into the next square
                    if run is not None:
                        lead_on, ends_here = run[0], 0
                    else:
                        lead_on, ends_here = ccn, -1
                    for k in range(1, min(anchor - previous_anchor - 1, max_left) + 1):
                        # the left parts that fit depend only on these masks, which many anchors share
                        key = (k, cca, lead_on, ends_here)
                        fitting = fitting_lefts.get(key)
                        if fitting is None:
                            fitting = fitting_lefts[key] = [
                                left
                                for left in lefts[k]
                                if (m := left[0] & cca)
                                and (ends[left[1]] & m & ends_here or _leads_on(m, left[1], child, mask, lead_on))
                            ]
                        if not fitting:
                            continue
                        base = anchor - k
                        lms_k = lm[base:anchor]
                        word_k = 1
                        for p in range(base, anchor):
                            word_k *= wm[p]
                        squares_k = sq[base:anchor]
                        for _, node, letters, left_counts, left_short, left_rmask in fitting:
                            counts, short, rmask = left_counts, left_short, left_rmask
                            nshort = len(short)
                            main = 0
                            for i in range(k):
                                letter = letters[i]
                                main += pts[letter] * lms_k[i]
                                placed.append(squares_k[i][letter])
                            search(anchor, node, main, word_k, 0, k, True)
                            del placed[:]
                    counts, short, nshort, rmask = full
                previous_anchor = anchor
    return out


def _leads_on(m: int, node: int, child: Sequence[int], mask: Sequence[int], wanted: int) -> bool:
    """True if one of the letters ``m`` (edges of ``node``) leads to a node with a ``wanted`` letter."""
    nm = mask[node]
    while m:
        low = m & -m
        m ^= low
        if mask[child[node + (nm & (low - 1)).bit_count()]] & wanted:
            return True
    return False


#: A left part: the letters that may follow it (its node's edges the rack after it can play), its
#: DAWG node, its letters, and the rack after it (counts, indices of the letters on blanks, letter
#: mask).
_LeftPart = tuple[int, int, tuple[int, ...], list[int], list[int], int]


def _left_parts(
    mask: Sequence[int], child: Sequence[int], root: int, counts: list[int], blanks: int, max_len: int
) -> list[list[_LeftPart]]:
    """Every DAWG prefix of 1..max_len letters the rack can spell (blanks as any letter), by length.

    Prefixes after which the rack can play no letter are left out (and so are their extensions).
    """
    lefts: list[list[_LeftPart]] = [[] for _ in range(max_len + 1)]
    letters: list[int] = []
    short: list[int] = []
    have = list(counts)
    rack_mask = 0
    for code, n in enumerate(have):
        if n:
            rack_mask |= 1 << code

    def visit(node: int, rmask: int) -> None:
        nm = mask[node]
        m = nm if len(short) < blanks else nm & rmask
        depth = len(letters) + 1
        while m:
            low = m & -m
            m ^= low
            letter = low.bit_length() - 1
            nxt = child[node + (nm & (low - 1)).bit_count()]
            n = have[letter]
            if n:
                have[letter] = n - 1
                rmask2 = rmask ^ low if n == 1 else rmask
            else:
                short.append(depth - 1)
                rmask2 = rmask
            letters.append(letter)
            nexts = mask[nxt] if len(short) < blanks else mask[nxt] & rmask2
            if nexts:
                lefts[depth].append((nexts, nxt, tuple(letters), list(have), list(short), rmask2))
                if depth < max_len:
                    visit(nxt, rmask2)
            letters.pop()
            if n:
                have[letter] = n
            else:
                short.pop()

    visit(root, rack_mask)
    return lefts


def _walked_runs(lines: list[list[int]], pts: tuple[int, ...], lexicon: Dawg) -> list[list[WalkedRun]]:
    """The runs of tiles of each line, each with the DAWG node its letters lead to (-1 if none).

    A run's node serves twice: as the left part of the anchor after it, and in the cross-check of
    the square after it in the other pass; a run that ends at the edge has no such square (-1).
    """
    walk, root = lexicon.walk, lexicon.root
    return [
        [
            (first, end, letters, points, walk(root, letters) if end < SIZE else -1)
            for first, end, letters, points in scored_runs(line, pts)
        ]
        for line in lines
    ]


def _row_info(
    runs: list[WalkedRun],
    cc: list[int],
    xs: list[int],
    lm: tuple[int, ...],
    wm: tuple[int, ...],
    sq: tuple[tuple[Square, ...], ...],
) -> list[_SquareInfo]:
    """What the search needs about each square of a row, one tuple per square (see _SquareInfo)."""
    allowed_next = cc[1:]
    allowed_next.append(0)
    if not runs:
        # no tiles in the row itself (its anchors touch tiles above or below): nothing to follow
        return list(zip(cc, xs, lm, wm, sq, _NO_RUNS, _NO_RUN_POINTS, _NEXT_SQUARES, allowed_next, strict=True))
    follow: list[tuple[int, ...] | None] = list(_NO_RUNS)
    run_pts = list(_NO_RUN_POINTS)
    nexts = list(_NEXT_SQUARES)
    for first, end, letters, points, _ in runs:
        if first:
            # the square before the run: a word through it goes on over these tiles
            follow[first - 1] = tuple([1 << letter for letter in letters])
            run_pts[first - 1] = points
            nexts[first - 1] = end
            allowed_next[first - 1] = cc[end] if end < SIZE else 0
    return list(zip(cc, xs, lm, wm, sq, follow, run_pts, nexts, allowed_next, strict=True))


#: A row without tiles: no runs to follow, and each square's next square is the one after it.
_NO_RUNS: tuple[None, ...] = (None,) * SIZE
_NO_RUN_POINTS = (0,) * SIZE
_NEXT_SQUARES = tuple(range(1, SIZE + 1))


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
                left != EMPTY or (c < SIZE - 1 and row[c + 1] != EMPTY) or above[c] != EMPTY or below[c] != EMPTY
            ):
                across.setdefault(r, []).append(c)
                down.setdefault(c, []).append(r)
            left = here
    return across, dict(sorted(down.items()))
