"""Board layouts: the 15x15 grid of premium squares and the start square.

The standard layout is read from ``data/standard-board.txt``; random boards come from the API's
``board/<id>/`` grid of codes 0..4 (plain, DL, TL, DW, TW), rows first (``grid[y][x]``).

>>> std = BoardLayout.standard()
>>> std.premium_counts()
{'DL': 24, 'TL': 20, 'DW': 12, 'TW': 8}
>>> std.letter_multiplier(0, 0), std.word_multiplier(0, 4)
(3, 3)
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources

from engine.errors import LayoutError

SIZE = 15
CENTRE = (7, 7)

PLAIN, DL, TL, DW, TW = range(5)
_NAMES = {DL: "DL", TL: "TL", DW: "DW", TW: "TW"}
_LETTER_MULT = {PLAIN: 1, DL: 2, TL: 3, DW: 1, TW: 1}
_WORD_MULT = {PLAIN: 1, DL: 1, TL: 1, DW: 2, TW: 3}


@dataclass(frozen=True)
class BoardLayout:
    """Premium squares of a board as API codes, ``codes[row][col]``, plus the start square."""

    codes: tuple[tuple[int, ...], ...]
    start: tuple[int, int] = CENTRE

    def __post_init__(self) -> None:
        if len(self.codes) != SIZE or any(len(row) != SIZE for row in self.codes):
            raise LayoutError(f"a board layout must be {SIZE}x{SIZE} squares")
        for r, row in enumerate(self.codes):
            for c, code in enumerate(row):
                if code not in _LETTER_MULT:
                    raise LayoutError(f"square code {code!r} at row {r}, column {c} is not one of 0..4")

    @classmethod
    def from_api_grid(cls, grid: Sequence[Sequence[int]]) -> BoardLayout:
        """A layout from the API's ``board`` field: 15 rows of 15 codes (0 plain .. 4 TW)."""
        try:
            codes = tuple(tuple(operator.index(v) for v in row) for row in grid)
        except (TypeError, ValueError) as exc:
            raise LayoutError(f"board grid must be 15 lists of 15 integers: {exc}") from None
        return cls(codes)

    @classmethod
    def standard(cls) -> BoardLayout:
        """The standard Wordfeud board (API board id 0)."""
        return _standard()

    def letter_multiplier(self, row: int, col: int) -> int:
        """1, 2 (DL) or 3 (TL)."""
        return _LETTER_MULT[self.codes[row][col]]

    def word_multiplier(self, row: int, col: int) -> int:
        """1, 2 (DW) or 3 (TW)."""
        return _WORD_MULT[self.codes[row][col]]

    def letter_multipliers(self) -> tuple[tuple[int, ...], ...]:
        """All letter multipliers, ``[row][col]``."""
        return tuple(tuple(_LETTER_MULT[v] for v in row) for row in self.codes)

    def word_multipliers(self) -> tuple[tuple[int, ...], ...]:
        """All word multipliers, ``[row][col]``."""
        return tuple(tuple(_WORD_MULT[v] for v in row) for row in self.codes)

    def transposed(self) -> BoardLayout:
        """The layout mirrored on the main diagonal (columns become rows)."""
        return BoardLayout(tuple(zip(*self.codes, strict=True)), (self.start[1], self.start[0]))

    def premium_counts(self) -> dict[str, int]:
        """How many squares of each premium kind the layout has."""
        counts = dict.fromkeys(_NAMES.values(), 0)
        for row in self.codes:
            for code in row:
                if code in _NAMES:
                    counts[_NAMES[code]] += 1
        return counts

    def to_api_grid(self) -> list[list[int]]:
        """The API's form of the layout: 15 rows of 15 codes."""
        return [list(row) for row in self.codes]


@cache
def _standard() -> BoardLayout:
    text = resources.files("engine.data").joinpath("standard-board.txt").read_text(encoding="utf-8")
    rows = [line.split() for line in text.splitlines() if line.strip() and not line.startswith("#")]
    return BoardLayout.from_api_grid([[int(v) for v in row] for row in rows])
