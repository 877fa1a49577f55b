"""Moves: placements (scored or not), swaps and passes, with a notation that round-trips.

Notation of a placement: the square where the main word starts, then the whole word. The
square is written row-first for an across word (``8D``: row 8, column D) and column-first for a
down word (``D8``), as in Scrabble. The main word of a one-tile move is the longer of the two it
makes (across when they are as long), as Wordfeud writes it. Tiles already on the board are in parentheses; a blank is
lower case. Rows are 1..15 top to bottom, columns A..O left to right.

>>> from engine.board.board import Board
>>> from engine.rules.ruleset import Ruleset
>>> en = Ruleset.for_id(5).alphabet
>>> board = Board(en)
>>> move = parse_move("8G HOuSE", board)
>>> move.tiles[2], move.direction.name
((7, 8, 84), 'ACROSS')
>>> format_move(move, board)
'8G HOuSE'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import IntEnum
from typing import NamedTuple

from engine.board.board import EMPTY, Board, Square
from engine.board.rack import Rack
from engine.errors import InvalidMoveError, TileError
from engine.rules.layout import SIZE
from engine.rules.tiles import LETTER_MASK, board_tile


class Direction(IntEnum):
    """The line a placement's main word runs along."""

    ACROSS = 0
    DOWN = 1


class Placement(NamedTuple):
    """Tiles put on the board in one turn, as (row, col, tile) in reading order.

    A NamedTuple rather than a frozen dataclass: move generation builds one per legal move, and
    tuple construction is several times cheaper. ``score`` is None until the move is scored.
    """

    tiles: tuple[Square, ...]
    direction: Direction
    score: int | None = None

    @property
    def key(self) -> frozenset[Square]:
        """What identifies the move: the set of new (row, col, tile) triples."""
        return frozenset(self.tiles)

    def with_score(self, score: int) -> Placement:
        """The same placement carrying a score."""
        return self._replace(score=score)


@dataclass(frozen=True)
class Swap:
    """Exchange these rack tiles (letter codes; -1 for a blank) with the bag."""

    tiles: tuple[int, ...]
    score: int = 0


@dataclass(frozen=True)
class Pass:
    """Give up the turn."""

    score: int = 0


Move = Placement | Swap | Pass

_COLS = "ABCDEFGHIJKLMNO"
_NOTATION = re.compile(r"^\s*(?:(\d{1,2})([A-Oa-o])|([A-Oa-o])(\d{1,2}))\s+(\S+)\s*$")


def kept(rack: Rack, move: Move) -> Rack:
    """The tiles of ``rack`` that ``move`` keeps, before any draw (a pass keeps them all)."""
    if isinstance(move, Placement):
        return rack.leave([tile for _, _, tile in move.tiles])
    if isinstance(move, Swap):
        return rack.leave([board_tile(tile) for tile in move.tiles])
    return rack


def square_name(row: int, col: int, direction: Direction) -> str:
    """``8H`` for an across word starting at row 7, col 7 (zero-based); ``H8`` for down."""
    if direction is Direction.ACROSS:
        return f"{row + 1}{_COLS[col]}"
    return f"{_COLS[col]}{row + 1}"


def _step(direction: Direction) -> tuple[int, int]:
    return (0, 1) if direction is Direction.ACROSS else (1, 0)


def main_word_span(move: Placement, board: Board) -> tuple[int, int, int]:
    """(start row, start col, length) of the main word the move makes with the board's tiles."""
    dr, dc = _step(move.direction)
    r, c, _ = move.tiles[0]
    new = {(tr, tc) for tr, tc, _ in move.tiles}
    grid = board.grid
    while r - dr >= 0 and c - dc >= 0 and grid[r - dr][c - dc] != EMPTY:
        r, c = r - dr, c - dc
    start = (r, c)
    length = 0
    while r < SIZE and c < SIZE and (grid[r][c] != EMPTY or (r, c) in new):
        r, c = r + dr, c + dc
        length += 1
    return start[0], start[1], length


def oriented(move: Placement, board: Board) -> Placement:
    """The placement with the direction its notation is written in: a one-tile move runs along the
    longer of the two words it makes (across when they are as long), as Wordfeud writes it, whichever
    side played it and whichever direction it came with; a longer move runs along its tiles.

    ``board`` may hold the move's tiles already or not (the lengths are the same either way)."""
    if len(move.tiles) != 1:
        return move
    r, c, _ = move.tiles[0]
    grid = board.grid

    def run(dr: int, dc: int) -> int:
        length, rr, cc = 0, r + dr, c + dc
        while 0 <= rr < SIZE and 0 <= cc < SIZE and grid[rr][cc] != EMPTY:
            length, rr, cc = length + 1, rr + dr, cc + dc
        return length

    across, down = run(0, -1) + run(0, 1), run(-1, 0) + run(1, 0)
    direction = Direction.DOWN if down > across else Direction.ACROSS
    return move if move.direction is direction else move._replace(direction=direction)


def format_move(move: Move, board: Board) -> str:
    """The notation of a move in the position *before* it is played (the one function that writes a
    move, the bot's or the opponent's; a one-tile move is ``oriented`` first)."""
    alphabet = board.alphabet
    if isinstance(move, Pass):
        return "PASS"
    if isinstance(move, Swap):
        return "SWAP " + "".join("?" if t < 0 else alphabet.symbol(t) for t in move.tiles)
    move = oriented(move, board)
    new = {(r, c): t for r, c, t in move.tiles}
    r0, c0, length = main_word_span(move, board)
    dr, dc = _step(move.direction)
    # runs of new tiles and of board tiles (the latter in parentheses), each formatted as a whole
    # so that Spanish C then H is not written "CH", which would read back as the CH tile
    runs: list[tuple[bool, list[int]]] = []
    for i in range(length):
        r, c = r0 + dr * i, c0 + dc * i
        on_board = (r, c) not in new
        tile = board.grid[r][c] if on_board else new[(r, c)]
        if runs and runs[-1][0] == on_board:
            runs[-1][1].append(tile)
        else:
            runs.append((on_board, [tile]))
    word = "".join(
        f"({alphabet.format_text(tiles)})" if on_board else alphabet.format_text(tiles) for on_board, tiles in runs
    )
    return f"{square_name(r0, c0, move.direction)} {word}"


def parse_move(text: str, board: Board) -> Placement:
    """Read a placement in notation; raises InvalidMoveError naming what is malformed.

    Letters in parentheses must match the tiles on the board; the others must fall on empty
    squares. Whether the move is legal is ``score.validate``'s business, not this function's.
    """
    m = _NOTATION.match(text)
    if not m:
        raise InvalidMoveError(f"cannot read move {text!r}: expected e.g. '8H WORD' (across) or 'H8 WORD' (down)")
    if m.group(1):
        row, col, direction = int(m.group(1)) - 1, _COLS.index(m.group(2).upper()), Direction.ACROSS
    else:
        row, col, direction = int(m.group(4)) - 1, _COLS.index(m.group(3).upper()), Direction.DOWN
    if not 0 <= row < SIZE:
        raise InvalidMoveError(f"row {row + 1} in {text!r} is off the board (1..{SIZE})")
    word = m.group(5)
    dr, dc = _step(direction)
    tiles: list[Square] = []
    pos = 0
    inside = False
    chunks = re.split(r"([()])", word)
    for chunk in chunks:
        if chunk == "(":
            if inside:
                raise InvalidMoveError(f"nested '(' in {text!r}")
            inside = True
            continue
        if chunk == ")":
            if not inside:
                raise InvalidMoveError(f"unbalanced ')' in {text!r}")
            inside = False
            continue
        try:
            codes = board.alphabet.parse_tiles(chunk)
        except TileError as exc:
            raise InvalidMoveError(f"in move {text!r}: {exc}") from None
        for tile in codes:
            r, c = row + dr * pos, col + dc * pos
            if r >= SIZE or c >= SIZE:
                raise InvalidMoveError(f"move {text!r} runs off the board")
            on_board = board.grid[r][c]
            if inside:
                if on_board == EMPTY or (on_board & LETTER_MASK) != (tile & LETTER_MASK):
                    raise InvalidMoveError(
                        f"move {text!r} says {board.alphabet.format_tile(tile)} is on the board at "
                        f"{square_name(r, c, Direction.ACROSS)}, but it is not"
                    )
            else:
                if on_board != EMPTY:
                    raise InvalidMoveError(
                        f"move {text!r} puts a tile on {square_name(r, c, Direction.ACROSS)}, which is "
                        "occupied; write board tiles in parentheses"
                    )
                tiles.append((r, c, tile))
            pos += 1
    if inside:
        raise InvalidMoveError(f"unclosed '(' in {text!r}")
    if not tiles:
        raise InvalidMoveError(f"move {text!r} places no tile")
    return Placement(tuple(tiles), direction)
