"""Leave values: what the tiles a player keeps are worth for the next turns, in points.

``HandLeave`` is a hand-made model whose weights and per-language facts (vowels, S-like tiles,
hard letters and their partners) are data (``engine/data/leaves.toml``): blanks and flexible
tiles are good, high-point tiles, duplicates, vowel/consonant imbalance and a hard letter without
its partner are bad.

>>> from engine.rules.ruleset import Ruleset
>>> en = Ruleset.for_id(5)
>>> leave = HandLeave.for_ruleset(en)
>>> [round(leave.value(Rack.from_text(t, en.alphabet)), 1) for t in ["S?", "ERS", "QI", "UUU"]]
[29.8, 8.2, -14.3, -14.4]
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Protocol

from engine.board.rack import Rack
from engine.errors import RulesetError
from engine.rules.ruleset import Ruleset


class LeaveModel(Protocol):
    """Anything that values a leave (the strategy only needs this)."""

    def value(self, leave: Rack) -> float:
        """Points the kept tiles are worth over the coming turns."""
        ...


@dataclass(frozen=True)
class LeaveWeights:
    """The hand model's weights (``[weights]`` of the data file)."""

    blank: float
    flexible: float
    point_penalty: float
    duplicate: float
    duplicate_vowel: float
    balance: float
    hard_alone: float
    per_tile: float


@dataclass(frozen=True)
class HandLeave:
    """The hand-made leave model for one alphabet (letter codes in the fields)."""

    weights: LeaveWeights
    points: tuple[int, ...]
    vowels: frozenset[int]
    flexible: frozenset[int]
    hard: Mapping[int, int | None]  # hard letter -> the partner that rescues it (None: nothing does)

    @classmethod
    def for_ruleset(cls, rules: Ruleset) -> HandLeave:
        """The model for a ruleset's alphabet, from the data file."""
        return _hand_leave(rules.id)

    def value(self, leave: Rack) -> float:
        """The leave's value in points (0 for an empty leave)."""
        size = len(leave)
        if not size:
            return 0.0
        w = self.weights
        total = w.blank * leave.blanks + w.per_tile * size
        vowels = 0
        for code, count in enumerate(leave.counts):
            if not count:
                continue
            if code in self.flexible:
                total += w.flexible * min(count, 2) * (1.0 if count == 1 else 0.6)
            total -= w.point_penalty * (self.points[code] - 1) * count
            if count > 1:
                total -= (w.duplicate + (w.duplicate_vowel if code in self.vowels else 0.0)) * (count - 1)
            if code in self.vowels:
                vowels += count
            if code in self.hard:
                partner = self.hard[code]
                if partner is None or not leave.counts[partner]:
                    total -= w.hard_alone * count
        letters = size - leave.blanks
        ideal = letters * 0.45
        total -= w.balance * max(0.0, abs(vowels - ideal) - 0.5)
        return total


@cache
def _data() -> dict[str, object]:
    text = resources.files("engine.data").joinpath("leaves.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


@cache
def _hand_leave(ruleset_id: int) -> HandLeave:
    rules = Ruleset.for_id(ruleset_id)
    data = _data()
    weights = LeaveWeights(**data["weights"])  # type: ignore[arg-type]
    alphabets: dict[str, dict[str, object]] = data["alphabet"]  # type: ignore[assignment]
    entry = next((v for k, v in alphabets.items() if rules.code in k.split(",")), None)
    if entry is None:
        raise RulesetError(f"leaves.toml has no alphabet entry for ruleset {rules.code!r}")
    alphabet = rules.alphabet
    hard: dict[int, int | None] = {}
    for letter, partner in dict(entry.get("hard", {})).items():  # type: ignore[call-overload]
        hard[alphabet.code(letter)] = alphabet.code(partner) if partner else None
    return HandLeave(
        weights=weights,
        points=alphabet.points,
        vowels=frozenset(alphabet.code(v) for v in str(entry["vowels"])),
        flexible=frozenset(alphabet.code(v) for v in str(entry["flexible"])),
        hard=hard,
    )
