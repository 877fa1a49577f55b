"""Alphabets: tile symbols <-> small integer codes, with points and bag counts.

Words, racks and boards are sequences of tile codes, never characters, so multi-letter tiles
(Spanish CH, LL, RR) and Nordic letters need no special cases anywhere else.

>>> from engine.rules.ruleset import Ruleset
>>> es = Ruleset.for_id(6).alphabet
>>> es.format_word(es.parse_word("CHURRO"))
'CHURRO'
>>> len(es.parse_word("CHURRO"))
4
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from engine.errors import TileError

#: A blank tile on the board carries this flag on top of the letter code it stands for.
BLANK_FLAG = 64
#: Mask that removes the blank flag from a board tile, leaving the letter code.
LETTER_MASK = BLANK_FLAG - 1
#: The rack symbol of a blank tile in text forms.
BLANK_SYMBOL = "?"
#: The largest alphabet the engine supports (letter codes must fit below BLANK_FLAG and in a bitmask).
MAX_LETTERS = 32
#: A blank in the bag, in a swap and among the unseen tiles, where it stands for no letter yet.
BLANK = -1


def bag_tile(tile: int) -> int:
    """A board tile (a letter code, ``| BLANK_FLAG`` for a blank) as the bag holds it: ``BLANK`` for a blank.

    >>> bag_tile(3), bag_tile(3 | BLANK_FLAG), bag_tile(BLANK)
    (3, -1, -1)
    """
    return BLANK if tile & BLANK_FLAG else tile & LETTER_MASK


def board_tile(tile: int) -> int:
    """A bag tile (``BLANK`` for a blank) as ``Rack.leave`` takes it: a blank is ``BLANK_FLAG``.

    >>> board_tile(3), board_tile(BLANK)
    (3, 64)
    """
    return BLANK_FLAG if tile == BLANK else tile


@dataclass(frozen=True)
class Alphabet:
    """The letters of one ruleset: symbol, points and count of each, plus the blank count.

    Codes are 0..len-1 in the order of ``symbols``. A blank is not a letter code; on the board a
    blank standing for letter ``c`` is written ``c | BLANK_FLAG`` and scores 0.
    """

    symbols: tuple[str, ...]
    points: tuple[int, ...]
    counts: tuple[int, ...]
    blanks: int = 2
    _codes: dict[str, int] = field(init=False, repr=False, compare=False)
    _longest: int = field(init=False, repr=False, compare=False)
    _plain: bool = field(init=False, repr=False, compare=False)  # one character a symbol, none of them "["

    def __post_init__(self) -> None:
        if not self.symbols:
            raise TileError("an alphabet needs at least one letter")
        if len(self.symbols) > MAX_LETTERS:
            raise TileError(f"an alphabet may have at most {MAX_LETTERS} letters, got {len(self.symbols)}")
        if not len(self.symbols) == len(self.points) == len(self.counts):
            raise TileError("symbols, points and counts must have the same length")
        codes: dict[str, int] = {}
        for code, symbol in enumerate(self.symbols):
            if not symbol or symbol != symbol.upper() or symbol in codes or BLANK_SYMBOL in symbol:
                raise TileError(f"bad or repeated tile symbol {symbol!r}")
            codes[symbol] = code
        object.__setattr__(self, "_codes", codes)
        object.__setattr__(self, "_longest", max(len(s) for s in self.symbols))
        object.__setattr__(self, "_plain", self._longest == 1 and "[" not in codes)

    def __len__(self) -> int:
        return len(self.symbols)

    @property
    def all_mask(self) -> int:
        """Bitmask with one bit per letter code."""
        return (1 << len(self.symbols)) - 1

    @property
    def total_tiles(self) -> int:
        """Tiles in a full bag, blanks included."""
        return sum(self.counts) + self.blanks

    def code(self, symbol: str) -> int:
        """The code of one letter symbol (case-insensitive)."""
        try:
            return self._codes[symbol.upper()]
        except KeyError:
            raise TileError(f"{symbol!r} is not a letter of this alphabet ({''.join(self.symbols)})") from None

    def symbol(self, code: int) -> str:
        """The symbol of a letter code (blank flag ignored)."""
        return self.symbols[code & LETTER_MASK]

    def tile_points(self, tile: int) -> int:
        """Points of a board tile: 0 for a blank, the letter's points otherwise."""
        return 0 if tile & BLANK_FLAG else self.points[tile]

    def _tokens(self, text: str) -> Iterable[tuple[str, bool]]:
        """Split text into tile symbols: ``[CH]`` brackets, else the longest symbol that matches.

        Yields (symbol as written, is_bracketed).
        """
        i = 0
        n = len(text)
        while i < n:
            ch = text[i]
            if ch == "[":
                end = text.find("]", i)
                if end < 0:
                    raise TileError(f"unclosed '[' in {text!r}")
                yield text[i + 1 : end], True
                i = end + 1
                continue
            if ch == BLANK_SYMBOL:
                yield ch, False
                i += 1
                continue
            for size in range(min(self._longest, n - i), 0, -1):
                chunk = text[i : i + size]
                if chunk.upper() in self._codes and (size == 1 or chunk.isupper() or chunk.islower()):
                    yield chunk, False
                    i += size
                    break
            else:
                raise TileError(f"{ch!r} in {text!r} is not a letter of this alphabet ({''.join(self.symbols)})")

    def parse_word(self, text: str) -> tuple[int, ...]:
        """Letter codes of a word; case is ignored. Raises TileError naming the bad character."""
        if self._plain:  # the common case, a word of upper-case letters only: a character is a symbol
            try:
                return tuple([self._codes[char] for char in text])
            except KeyError:
                pass  # lower case, a blank or no letter: read token by token, as below
        codes = []
        for token, _ in self._tokens(text):
            if token == BLANK_SYMBOL:
                raise TileError(f"a word cannot contain a blank: {text!r}")
            codes.append(self.code(token))
        return tuple(codes)

    def parse_tiles(self, text: str) -> tuple[int, ...]:
        """Board tiles of a word: upper case = tile, lower case = blank standing for that letter."""
        tiles = []
        for token, _ in self._tokens(text):
            if token == BLANK_SYMBOL:
                raise TileError(f"a placed blank must name its letter (lower case), not '?': {text!r}")
            code = self.code(token)
            tiles.append(code | BLANK_FLAG if token.islower() else code)
        return tuple(tiles)

    def format_word(self, codes: Sequence[int]) -> str:
        """Upper-case text of letter codes (blank flags ignored)."""
        return "".join(self.symbols[c & LETTER_MASK] for c in codes)

    def format_tile(self, tile: int, *, bracket: bool = False) -> str:
        """One board tile as text: upper case, or lower case for a blank; ``[CH]`` if bracket."""
        symbol = self.symbols[tile & LETTER_MASK]
        if tile & BLANK_FLAG:
            symbol = symbol.lower()
        if bracket and len(symbol) > 1:
            return f"[{symbol}]"
        return symbol

    def format_tiles(self, tiles: Sequence[int]) -> str:
        """Board tiles as text (lower case for blanks)."""
        return "".join(self.format_tile(t) for t in tiles)

    def format_text(self, tiles: Sequence[int]) -> str:
        """Board tiles as text that ``parse_tiles`` reads back to the very same tiles.

        Like ``format_tiles``, but a multi-letter symbol is bracketed (``[CH]``), and so is a
        single letter that would otherwise run together with the next one into a multi-letter
        symbol: Spanish C then H is ``[C]H`` and two L tiles are ``[L]L`` (``CH``/``LL`` would
        read back as one tile).
        """
        if self._longest == 1:
            return self.format_tiles(tiles)
        out = ""
        for tile in reversed(tiles):
            text = self.format_tile(tile, bracket=True)
            if not text.startswith("[") and next(iter(self._tokens(text + out)))[0] != text:
                text = f"[{text}]"
            out = text + out
        return out
