"""Racks: a multiset of letter codes plus blanks, with text form and leaves.

>>> from engine.rules.ruleset import Ruleset
>>> en = Ruleset.for_id(5).alphabet
>>> rack = Rack.from_text("RETAINS?", en)
Traceback (most recent call last):
...
engine.errors.TileError: a rack holds at most 7 tiles, got 8 in 'RETAINS?'
>>> rack = Rack.from_text("etai?ns", en)
>>> rack.text(), len(rack), rack.blanks
('AEINST?', 7, 1)
>>> rack.leave([en.code("A"), 64 | en.code("Z")]).text()
'EINST'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.errors import IllegalMoveError, TileError
from engine.rules.tiles import BLANK, BLANK_FLAG, BLANK_SYMBOL, LETTER_MASK, Alphabet

MAX_RACK = 7


@dataclass(frozen=True)
class Rack:
    """Counts of each letter code (``counts[code]``) and of blanks."""

    alphabet: Alphabet
    counts: tuple[int, ...]
    blanks: int = 0

    def __post_init__(self) -> None:
        if len(self.counts) != len(self.alphabet) or min(self.counts, default=0) < 0 or self.blanks < 0:
            raise TileError(f"bad rack counts {self.counts!r} / blanks {self.blanks!r}")

    @classmethod
    def from_codes(cls, alphabet: Alphabet, letters: Iterable[int], blanks: int = 0) -> Rack:
        """A rack from letter codes and a blank count."""
        counts = [0] * len(alphabet)
        for code in letters:
            counts[code] += 1
        return cls(alphabet, tuple(counts), blanks)

    @classmethod
    def from_bag_tiles(cls, alphabet: Alphabet, tiles: Sequence[int]) -> Rack:
        """A rack from bag tiles: letter codes, ``BLANK`` for a blank."""
        return cls.from_codes(alphabet, [t for t in tiles if t != BLANK], blanks=tiles.count(BLANK))

    @classmethod
    def from_text(cls, text: str, alphabet: Alphabet, *, max_size: int = MAX_RACK) -> Rack:
        """A rack from text such as ``AEINST?`` (``?`` = blank; case ignored)."""
        letters: list[int] = []
        blanks = 0
        for token, _ in alphabet._tokens(text.strip()):
            if token == BLANK_SYMBOL:
                blanks += 1
            else:
                letters.append(alphabet.code(token))
        if len(letters) + blanks > max_size:
            raise TileError(f"a rack holds at most {max_size} tiles, got {len(letters) + blanks} in {text!r}")
        return cls.from_codes(alphabet, letters, blanks)

    def __len__(self) -> int:
        return sum(self.counts) + self.blanks

    def letters(self) -> list[int]:
        """Letter codes in the rack, sorted, each as often as it occurs (blanks excluded)."""
        return [code for code, n in enumerate(self.counts) for _ in range(n)]

    def text(self) -> str:
        """Sorted letters, then one ``?`` per blank; ``from_text`` reads it back to the same rack."""
        return self.alphabet.format_text(self.letters()) + BLANK_SYMBOL * self.blanks

    def __str__(self) -> str:
        return self.text()

    def leave(self, tiles: Sequence[int]) -> Rack:
        """The rack after playing these board tiles (a blank-flagged tile uses a blank).

        Raises IllegalMoveError naming the tile the rack does not hold.
        """
        counts = list(self.counts)
        blanks = self.blanks
        for tile in tiles:
            if tile & BLANK_FLAG:
                if blanks == 0:
                    raise IllegalMoveError(f"no blank left in rack {self.text()}")
                blanks -= 1
            else:
                code = tile & LETTER_MASK
                if counts[code] == 0:
                    symbol = self.alphabet.symbol(code)
                    raise IllegalMoveError(f"tile {symbol} is not in rack {self.text()}")
                counts[code] -= 1
        return Rack(self.alphabet, tuple(counts), blanks)

    def add(self, letters: Iterable[int], blanks: int = 0) -> Rack:
        """The rack with more tiles drawn."""
        counts = list(self.counts)
        for code in letters:
            counts[code] += 1
        return Rack(self.alphabet, tuple(counts), self.blanks + blanks)

    def bag_tiles(self) -> list[int]:
        """The rack's tiles as the bag holds them: letter codes, then ``BLANK`` for each blank."""
        return self.letters() + [BLANK] * self.blanks

    def drawn(self, tiles: Sequence[int]) -> Rack:
        """The rack with these bag tiles (letter codes, ``BLANK`` for a blank) added."""
        return self.add([t for t in tiles if t != BLANK], blanks=tiles.count(BLANK))

    def points(self) -> int:
        """Sum of the points of the tiles on the rack (blanks 0): the end-of-game penalty."""
        return sum(n * p for n, p in zip(self.counts, self.alphabet.points, strict=True))
