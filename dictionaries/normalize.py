"""Turning the words of a word list into words of a ruleset's tiles, and saying why others are dropped.

The rules per ruleset are data (``data/normalize.toml``): upper case, accents folded where the
language plays them as the plain letter, Spanish CH/LL/RR as single tiles, 2 to 15 tiles.

>>> from engine.rules.ruleset import Ruleset
>>> es = Normalizer.for_ruleset(Ruleset.for_code("es"))
>>> es.ruleset.alphabet.format_word(es.normalize("Canción", list_has_lower_case=False))
'CANCION'
>>> len(es.normalize("churro", list_has_lower_case=True))  # CH U RR O
4
>>> es.normalize("pingüino", list_has_lower_case=True) == es.normalize("PINGUINO", list_has_lower_case=False)
True
>>> es.normalize("Madrid", list_has_lower_case=True).reason
'capitalised (proper noun or abbreviation)'
>>> es.normalize("año2", list_has_lower_case=True)
Drop(reason='not in the alphabet', detail='2')
"""

from __future__ import annotations

import tomllib
import unicodedata
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from dictionaries.abbreviations import MARKED, Abbreviations
from engine.errors import TileError
from engine.rules.ruleset import Ruleset

MIN_TILES = 2
#: A word must fit on the 15-square board.
MAX_TILES = 15

EMPTY = "empty line"
CAPITALISED = "capitalised (proper noun or abbreviation)"
NOT_IN_ALPHABET = "not in the alphabet"
TOO_SHORT = f"shorter than {MIN_TILES} tiles"
TOO_LONG = f"longer than {MAX_TILES} tiles"


@dataclass(frozen=True)
class Drop:
    """Why a word was left out; ``detail`` names the offending character where there is one."""

    reason: str
    detail: str = ""


@dataclass(frozen=True)
class Normalizer:
    """The normalisation rules of one ruleset."""

    ruleset: Ruleset
    fold_diacritics: bool
    keep_title_case: bool
    mapping: tuple[tuple[str, str], ...]
    abbreviations: Abbreviations
    _letters: frozenset[str] = field(init=False, repr=False, compare=False)
    _map: dict[str, str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # read once, not per word: a list has up to 1.5 million of them
        object.__setattr__(self, "_letters", _single_letters(self.ruleset))
        object.__setattr__(self, "_map", dict(self.mapping))

    @classmethod
    def for_ruleset(cls, ruleset: Ruleset) -> Normalizer:
        """The rules of ``data/normalize.toml`` for this ruleset (defaults where it says nothing)."""
        data = _rules()
        merged: dict[str, Any] = dict(data["default"])
        merged.update(data.get("ruleset", {}).get(ruleset.code, {}))
        return cls(
            ruleset,
            bool(merged["fold_diacritics"]),
            bool(merged["keep_title_case"]),
            tuple(sorted((str(k), str(v)) for k, v in merged["map"].items())),
            Abbreviations.for_ruleset(ruleset),
        )

    def normalize(
        self, word: str, *, list_has_lower_case: bool, abbreviations: bool = False
    ) -> tuple[int, ...] | Drop:
        """The word's tile codes, or why it is dropped.

        ``list_has_lower_case`` tells whether the list writes words in lower case; if it does,
        capitalised words in it are proper nouns or abbreviations. ``abbreviations`` drops the
        words the language's abbreviation rules catch (``dictionaries.abbreviations``), each with
        the rule as its reason and the word as its detail.
        """
        if not word:
            return Drop(EMPTY)
        if abbreviations and word.endswith("."):
            return Drop(MARKED, word)
        if list_has_lower_case and not word.islower() and any(c.isupper() for c in word):
            title = word[0].isupper() and word[1:].islower()
            if not (self.keep_title_case and title):
                return Drop(CAPITALISED)
        text = self._fold(word.upper())
        if isinstance(text, Drop):
            return text
        try:
            codes = self.ruleset.alphabet.parse_word(text)
        except TileError:
            return Drop(NOT_IN_ALPHABET, text)
        if len(codes) < MIN_TILES:
            return Drop(TOO_SHORT)
        if len(codes) > MAX_TILES:
            return Drop(TOO_LONG)
        if abbreviations and (reason := self.abbreviations.reason(text)) is not None:
            return Drop(reason, text)
        return codes

    def _fold(self, text: str) -> str | Drop:
        letters, mapping = self._letters, self._map
        if letters.issuperset(text):  # nothing to fold
            return text
        out = []
        for char in text:
            if char in letters:
                out.append(char)
            elif char in mapping:
                out.append(mapping[char])
            elif self.fold_diacritics and (base := unicodedata.normalize("NFD", char)[0]) in letters:
                out.append(base)
            else:
                return Drop(NOT_IN_ALPHABET, char)
        return "".join(out)


@cache
def _single_letters(ruleset: Ruleset) -> frozenset[str]:
    """Every character that appears in a tile symbol (C and H as well as CH)."""
    return frozenset("".join(ruleset.alphabet.symbols))


@cache
def _rules() -> dict[str, Any]:
    raw = resources.files("dictionaries").joinpath("data", "normalize.toml").read_text(encoding="utf-8")
    return tomllib.loads(raw)
