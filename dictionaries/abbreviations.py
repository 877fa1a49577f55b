"""Telling abbreviations from words, by rules kept as data per language (``data/abbreviations.toml``).

>>> from engine.rules.ruleset import Ruleset
>>> nl = Abbreviations.for_ruleset(Ruleset.for_code("nl"))
>>> [nl.reason(w) for w in ["PC", "ZN", "NGO", "KM", "MCM", "HUIS"]]  # doctest: +NORMALIZE_WHITESPACE
['abbreviation: no vowel', None, 'abbreviation: listed', 'abbreviation: unit symbol',
 'abbreviation: Roman numeral', None]
>>> pt = Abbreviations.for_ruleset(Ruleset.for_code("pt"))
>>> pt.reason("XIV"), pt.reason("VI")
('abbreviation: Roman numeral', None)
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from engine.rules.ruleset import Ruleset

MARKED = "abbreviation: marked by the source (full stop)"
LISTED = "abbreviation: listed"
UNIT = "abbreviation: unit symbol"
ROMAN = "abbreviation: Roman numeral"
NO_VOWEL = "abbreviation: no vowel"
#: Every reason, in the order the rules are tried.
REASONS = (MARKED, LISTED, UNIT, ROMAN, NO_VOWEL)

_ROMAN = re.compile(r"M{0,4}(CM|CD|D?C{0,3})(XC|XL|L?X{0,3})(IX|IV|V?I{0,3})")


@dataclass(frozen=True)
class Abbreviations:
    """The abbreviation rules of one ruleset's language."""

    vowels: frozenset[str]
    roman: str  # "consonant" | "all"
    units: frozenset[str]
    allow: frozenset[str]
    listed: frozenset[str]

    @classmethod
    def for_ruleset(cls, ruleset: Ruleset) -> Abbreviations:
        """The rules of ``data/abbreviations.toml`` for this ruleset (defaults where it says nothing)."""
        data = _rules()
        base: dict[str, Any] = data["default"]
        own: dict[str, Any] = data.get("ruleset", {}).get(ruleset.code, {})
        roman = str(own.get("roman", base["roman"]))
        if roman not in ("consonant", "all"):
            raise ValueError(f"data/abbreviations.toml: ruleset {ruleset.code}: roman must be consonant or all")
        return cls(
            frozenset(str(own.get("vowels", base["vowels"]))),
            roman,
            frozenset(base["units"]) | frozenset(own.get("units", [])),
            frozenset(base["allow"]) | frozenset(own.get("allow", [])),
            frozenset(base["listed"]) | frozenset(own.get("listed", [])),
        )

    def reason(self, text: str, *, raw: str = "") -> str | None:
        """Why the upper-case word ``text`` is an abbreviation, or None for a word.

        ``raw`` is the entry as the source wrote it (a full stop at its end marks an abbreviation)."""
        if raw.endswith("."):
            return MARKED
        if text in self.allow:
            return None
        if text in self.listed:
            return LISTED
        if text in self.units:
            return UNIT
        if len(text) > 1 and _ROMAN.fullmatch(text) and (self.roman == "all" or "I" not in text):
            return ROMAN
        if not any(char in self.vowels for char in text):
            return NO_VOWEL
        return None


@cache
def _rules() -> dict[str, Any]:
    raw = resources.files("dictionaries").joinpath("data", "abbreviations.toml").read_text(encoding="utf-8")
    return tomllib.loads(raw)
