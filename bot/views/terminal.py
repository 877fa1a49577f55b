"""The board as text for a terminal: column letters and row numbers around it, and colour on a TTY.

With colour, empty premium squares get their premium's colour (DL light blue, TL blue, DW orange,
TW red) and the tiles of the last move a yellow background; without colour (a pipe, a file,
``NO_COLOR`` set) the text is the plain board, so logs and tests read the same letters.

>>> from engine.rules.ruleset import Ruleset
>>> board = Board(Ruleset.for_id(5).alphabet)
>>> board.place([(7, 7, 0), (7, 8, 1 | 64)])
>>> board_picture(board).splitlines()[8]
' 8  . . . . . . . A b . . . . . .'
"""

from __future__ import annotations

import os
from collections.abc import Set
from typing import TextIO

from engine.board.board import EMPTY, Board
from engine.rules.layout import DL, DW, SIZE, TL, TW, BoardLayout

COLUMNS = "ABCDEFGHIJKLMNO"
_RESET = "\x1b[0m"
#: Background colours (256-colour codes) of empty premium squares, and the last move's style.
_PREMIUM_COLOUR = {DL: "\x1b[48;5;117m", TL: "\x1b[48;5;26m", DW: "\x1b[48;5;215m", TW: "\x1b[48;5;160m"}
_LAST = "\x1b[1;30;48;5;220m"
_TILE = "\x1b[1m"


def wants_colour(stream: TextIO) -> bool:
    """Colour only on a terminal, and never when ``NO_COLOR`` is set (https://no-color.org)."""
    if os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def board_picture(
    board: Board,
    layout: BoardLayout | None = None,
    last: Set[tuple[int, int]] = frozenset(),
    *,
    colour: bool = False,
) -> str:
    """The board with coordinates; with ``colour`` (and a layout for the premiums) ANSI colours too."""
    lines = ["    " + " ".join(COLUMNS)]
    for row in range(SIZE):
        cells = []
        for col in range(SIZE):
            tile = board.grid[row][col]
            text = "." if tile == EMPTY else board.alphabet.format_tile(tile)
            text = text[:1]  # one column per square (a multi-letter tile shows its first letter)
            if colour:
                if tile != EMPTY:
                    text = f"{_LAST if (row, col) in last else _TILE}{text}{_RESET}"
                elif layout is not None and layout.codes[row][col] in _PREMIUM_COLOUR:
                    text = f"{_PREMIUM_COLOUR[layout.codes[row][col]]}{text}{_RESET}"
            cells.append(text)
        lines.append(f"{row + 1:>2}  " + " ".join(cells))
    return "\n".join(lines)
