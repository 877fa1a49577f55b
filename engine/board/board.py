"""The one mutable object of the engine: tiles on the 15x15 squares, with place and undo.

Text form (also used by the benchmark position files): 15 lines of 15 squares, ``.`` empty,
upper case a tile, lower case a blank standing for that letter; multi-letter tiles in brackets.

>>> from engine.rules.ruleset import Ruleset
>>> board = Board(Ruleset.for_id(5).alphabet)
>>> board.place([(7, 7, 0), (7, 8, 1 | 64)])
>>> board.text().splitlines()[7]
'.......Ab......'
>>> board.undo()
((7, 7, 0), (7, 8, 65))
>>> board.is_empty()
True
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from engine.errors import BoardError, TileError
from engine.rules.layout import SIZE
from engine.rules.tiles import BLANK_FLAG, LETTER_MASK, Alphabet

EMPTY = -1

#: One placed tile: (row, col, tile) where tile is a letter code, ``| BLANK_FLAG`` for a blank.
Square = tuple[int, int, int]


class Board:
    """Tiles on the board, ``grid[row][col]``: ``EMPTY`` or a tile code (blank flag included)."""

    __slots__ = ("_count", "_history", "alphabet", "grid")

    def __init__(self, alphabet: Alphabet) -> None:
        self.alphabet = alphabet
        self.grid: list[list[int]] = [[EMPTY] * SIZE for _ in range(SIZE)]
        self._history: list[tuple[Square, ...]] = []
        self._count = 0

    def __getitem__(self, square: tuple[int, int]) -> int:
        row, col = square
        return self.grid[row][col]

    def __len__(self) -> int:
        """Number of tiles on the board."""
        return self._count

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self.alphabet == other.alphabet and self.grid == other.grid

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return f"Board({self._count} tiles)"

    def is_empty(self) -> bool:
        """True before the first move."""
        return self._count == 0

    def copy(self) -> Board:
        """An independent board with the same tiles (history not copied)."""
        other = Board(self.alphabet)
        other.grid = [row[:] for row in self.grid]
        other._count = self._count
        return other

    def tiles(self) -> Iterator[Square]:
        """Every tile on the board as (row, col, tile), in reading order."""
        for r, row in enumerate(self.grid):
            for c, tile in enumerate(row):
                if tile != EMPTY:
                    yield (r, c, tile)

    def place(self, tiles: Iterable[Square]) -> None:
        """Put tiles on empty squares; ``undo`` takes them off again. All or nothing."""
        batch = tuple(tiles)
        seen = set()
        for r, c, tile in batch:
            if not (0 <= r < SIZE and 0 <= c < SIZE):
                raise BoardError(f"square ({r}, {c}) is off the board")
            if self.grid[r][c] != EMPTY or (r, c) in seen:
                raise BoardError(f"square ({r}, {c}) is already occupied")
            if not 0 <= (tile & 63) < len(self.alphabet) or tile < 0 or tile >= 128:
                raise BoardError(f"tile code {tile!r} is not in the alphabet")
            seen.add((r, c))
        for r, c, tile in batch:
            self.grid[r][c] = tile
        self._history.append(batch)
        self._count += len(batch)

    def undo(self) -> tuple[Square, ...]:
        """Take the last placed batch of tiles off the board and return it."""
        if not self._history:
            raise BoardError("nothing to undo")
        batch = self._history.pop()
        for r, c, _ in batch:
            self.grid[r][c] = EMPTY
        self._count -= len(batch)
        return batch

    def transposed_grid(self) -> list[list[int]]:
        """The grid mirrored on the main diagonal: column ``c`` becomes row ``c``."""
        return [list(col) for col in zip(*self.grid, strict=True)]

    def has_neighbour(self, row: int, col: int) -> bool:
        """True if an orthogonally adjacent square holds a tile."""
        g = self.grid
        return (
            (row > 0 and g[row - 1][col] != EMPTY)
            or (row < SIZE - 1 and g[row + 1][col] != EMPTY)
            or (col > 0 and g[row][col - 1] != EMPTY)
            or (col < SIZE - 1 and g[row][col + 1] != EMPTY)
        )

    def text(self) -> str:
        """The text form: 15 lines, ``.`` empty, upper case tile, lower case blank."""
        fmt = self.alphabet.format_tile
        return "\n".join(
            "".join("." if t == EMPTY else fmt(t, bracket=True) for t in row) for row in self.grid
        )

    @classmethod
    def from_text(cls, text: str, alphabet: Alphabet) -> Board:
        """Read the text form back; raises BoardError naming the bad line."""
        lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
        if len(lines) != SIZE:
            raise BoardError(f"a board text needs {SIZE} rows, got {len(lines)}")
        board = cls(alphabet)
        tiles: list[Square] = []
        for r, line in enumerate(lines):
            squares = _split_row(line, alphabet, r)
            for c, tile in enumerate(squares):
                if tile != EMPTY:
                    tiles.append((r, c, tile))
        if tiles:
            board.place(tiles)
            board._history.clear()
        return board


#: A run of tiles along a line: first square, the square after the last, the tiles' letter codes
#: (blank flags dropped) and the points of its tiles that are no blanks.
Run = tuple[int, int, list[int], int]


def scored_runs(line: Sequence[int], points: Sequence[int]) -> list[Run]:
    """The runs of tiles along one row or column, with their letters and points.

    >>> scored_runs([EMPTY, 3, 4 | BLANK_FLAG, EMPTY, 5] + [EMPTY] * 10, range(10, 40))
    [(1, 3, [3, 4], 13), (4, 5, [5], 15)]
    """
    runs: list[Run] = []
    if max(line) == EMPTY:
        return runs
    letters: list[int] = []
    total = first = 0
    for p, t in enumerate(line):
        if t == EMPTY:
            if letters:
                runs.append((first, p, letters, total))
                letters = []
        else:
            if not letters:
                first = p
                total = 0
            if t < BLANK_FLAG:
                letters.append(t)
                total += points[t]
            else:
                letters.append(t & LETTER_MASK)
    if letters:
        runs.append((first, len(line), letters, total))
    return runs


def _split_row(line: str, alphabet: Alphabet, row: int) -> list[int]:
    squares: list[int] = []
    rest = line
    while rest:
        if rest[0] == ".":
            squares.append(EMPTY)
            rest = rest[1:]
            continue
        end = rest.find("]") + 1 if rest[0] == "[" else 1
        if end <= 0:
            raise BoardError(f"row {row + 1}: unclosed '[' in {line!r}")
        try:
            (tile,) = alphabet.parse_tiles(rest[:end])
        except (TileError, ValueError) as exc:
            raise BoardError(f"row {row + 1}: {exc}") from None
        squares.append(tile)
        rest = rest[end:]
    if len(squares) != SIZE:
        raise BoardError(f"row {row + 1} has {len(squares)} squares, expected {SIZE}: {line!r}")
    return squares
