"""Rulesets: alphabet, layout and the numbers of the game, loaded from ``data/rulesets.toml``.

>>> en = Ruleset.for_id(5)
>>> en.name, en.rack_size, en.bingo_bonus, en.alphabet.total_tiles
('English (international)', 7, 40, 104)
>>> Ruleset.for_id(9).alphabet.total_tiles
102
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources
from typing import Any

from engine.errors import RulesetError
from engine.rules.layout import BoardLayout
from engine.rules.tiles import Alphabet

RULESET_IDS = range(13)


@dataclass(frozen=True)
class Ruleset:
    """Everything that differs between Wordfeud games: letters, board and the fixed numbers."""

    id: int
    code: str
    name: str
    alphabet: Alphabet
    layout: BoardLayout
    rack_size: int = 7
    bingo_bonus: int = 40
    swap_min_bag: int = 7
    scoreless_turns_to_end: int = 3

    @classmethod
    def for_id(cls, ruleset_id: int) -> Ruleset:
        """The ruleset with this API id (0..12), on the standard board."""
        rulesets = _load()
        if ruleset_id not in rulesets:
            raise RulesetError(f"unknown ruleset id {ruleset_id!r}; known ids are 0..{len(rulesets) - 1}")
        return rulesets[ruleset_id]

    @classmethod
    def for_code(cls, code: str) -> Ruleset:
        """The ruleset with this short code (``en``, ``nb``, ``nl`` ...) or numeric id as text."""
        key = code.strip().lower()
        if key.isdecimal():
            return cls.for_id(int(key))
        for ruleset in _load().values():
            if ruleset.code == key:
                return ruleset
        known = ", ".join(f"{r.code} ({r.id})" for r in _load().values())
        raise RulesetError(f"unknown ruleset {code!r}; known: {known}")

    @classmethod
    def all(cls) -> list[Ruleset]:
        """All 13 rulesets in id order."""
        return list(_load().values())

    def with_layout(self, layout: BoardLayout) -> Ruleset:
        """The same ruleset on another board (a random layout)."""
        return replace(self, layout=layout)


def _parse_tiles(ruleset_id: int, text: str) -> tuple[tuple[str, ...], tuple[int, ...], tuple[int, ...]]:
    fields = text.split()
    if len(fields) % 3:
        raise RulesetError(f"ruleset {ruleset_id}: tiles must be 'SYMBOL COUNT POINTS' triples")
    symbols, counts, points = [], [], []
    for i in range(0, len(fields), 3):
        symbol, count, value = fields[i : i + 3]
        symbols.append(symbol)
        counts.append(int(count))
        points.append(int(value))
    return tuple(symbols), tuple(points), tuple(counts)


@cache
def _load() -> dict[int, Ruleset]:
    raw = resources.files("engine.data").joinpath("rulesets.toml").read_bytes()
    data: dict[str, Any] = tomllib.loads(raw.decode("utf-8"))
    common = data["common"]
    layout = BoardLayout.standard()
    result: dict[int, Ruleset] = {}
    for entry in data["ruleset"]:
        rid = int(entry["id"])
        symbols, points, counts = _parse_tiles(rid, entry["tiles"])
        alphabet = Alphabet(symbols, points, counts, blanks=int(common["blanks"]))
        result[rid] = Ruleset(
            id=rid,
            code=str(entry["code"]),
            name=str(entry["name"]),
            alphabet=alphabet,
            layout=layout,
            rack_size=int(common["rack_size"]),
            bingo_bonus=int(common["bingo_bonus"]),
            swap_min_bag=int(common["swap_min_bag"]),
            scoreless_turns_to_end=int(common["scoreless_turns_to_end"]),
        )
    if sorted(result) != list(RULESET_IDS):
        raise RulesetError(f"rulesets.toml must define ids 0..12, found {sorted(result)}")
    return dict(sorted(result.items()))
