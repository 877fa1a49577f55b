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

>>> from engine.board.board import Board
>>> from engine.lexicon.dawg import Dawg
>>> from engine.board.rack import Rack
>>> from engine.rules.ruleset import Ruleset
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
from functools import cache, lru_cache

from engine import native
from engine.board.board import EMPTY, Board, Square, scored_runs
from engine.board.move import Direction, Placement
from engine.board.rack import Rack
from engine.errors import PositionError
from engine.lexicon.dawg import Dawg
from engine.movegen.crosschecks import NO_CROSS, WalkedRun, cross_checks
from engine.movegen.wordsearch import LeftPart, Search, left_parts, search_row
from engine.rules.layout import SIZE, BoardLayout
from engine.rules.ruleset import Ruleset
from engine.rules.tiles import BLANK_FLAG

ACROSS = Direction.ACROSS
DOWN = Direction.DOWN

_SquareTable = tuple[tuple[tuple[Square, ...], ...], ...]
_Tables = tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...], tuple[int, int], _SquareTable]


#: Layouts whose tables are kept: every random board is another layout, so only the most recently used.
LAYOUTS_CACHED = 64


@lru_cache(maxsize=LAYOUTS_CACHED)
def _layout_tables(layout: BoardLayout) -> tuple[_Tables, _Tables]:
    """Per direction: letter and word multipliers, start square and square-tile table, rows first.

    The down pass works on the transposed board, so its tables are transposed too. Cached per layout
    (the last ``LAYOUTS_CACHED``).
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
    """The pure-Python search (the readable reference of the C one): every row of both directions."""
    if len(rack) == 0:
        return []
    s = Search(rack, lexicon, rules)
    empty = board.is_empty()
    max_left = min(rules.rack_size, len(rack)) - 1
    # Left parts from the rack depend on the rack only: enumerate them once, by length.
    lefts = left_parts(s.mask, s.child, s.root, s.counts, s.blanks, max_left) if max_left > 0 else [[]]
    fitting: dict[tuple[int, int, int, int], list[LeftPart]] = {}
    transposed = board.transposed_grid()
    if not empty:
        across_anchors, down_anchors = _anchors(board.grid)
        # the runs of tiles of every row and column: the rows' runs are what an across move
        # follows and what the down pass's cross words are made of, and the other way round
        row_runs = _walked_runs(board.grid, s.pts, lexicon)
        column_runs = _walked_runs(transposed, s.pts, lexicon)
    all_letters = rules.alphabet.all_mask
    for direction, (lms, wms, start_square, squares) in zip((ACROSS, DOWN), _layout_tables(rules.layout), strict=True):
        down = direction is DOWN
        s.direction = direction
        s.axis = 0 if down else 1  # index in a (row, col, tile) square of the position along the row
        lines = transposed if down else board.grid
        if empty:
            masks = [[all_letters] * SIZE for _ in range(SIZE)]
            sums = [[NO_CROSS] * SIZE for _ in range(SIZE)]
            anchor_rows = {start_square[0]: [start_square[1]]}
            line_runs: list[list[WalkedRun]] = [[] for _ in range(SIZE)]
        else:
            line_runs, cross_runs = (column_runs, row_runs) if down else (row_runs, column_runs)
            masks, sums = cross_checks(cross_runs, lexicon, -1 if s.blanks else s.rmask)
            anchor_rows = across_anchors if not down else down_anchors
        for r, anchors in anchor_rows.items():
            s.xs, s.lm, s.wm, s.sq = sums[r], lms[r], wms[r], squares[r]
            search_row(s, anchors, lines[r], line_runs[r], masks[r], lefts, fitting, max_left)
    return s.out


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
