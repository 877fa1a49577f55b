"""A full leave table: a value of its own for every leave seen often enough, the factorised model elsewhere.

The factorised model (``engine.equity.leavetable``) sums a few hundred feature weights; a leave seen
``n >= min_count`` times in the samples gets the mean of its own target instead, pulled towards the
factorised value by ``shrink`` pseudo-samples:

    value = (n * (mean target - baseline) + shrink * factorised value) / (n + shrink)

where the target is, as in the factorised fit, the next turn's score plus the value of the leave kept
then (by this model itself, refitted ``rounds`` times) and ``baseline`` the factorised fit's mean
next score after keeping nothing. Any other leave, and every leave of a ruleset the samples never
saw, is worth its factorised value; the empty leave is worth 0.

>>> from engine.rules.ruleset import Ruleset
>>> rules = Ruleset.for_id(5)
>>> base = LearnedLeave(5, LeaveFeatures.for_ruleset(rules), (0.0,) * LeaveFeatures.for_ruleset(rules).size, 40.0)
>>> stats = {"S": LeaveStats(100, 100 * 46.0, {})}
>>> table = fit_full(stats, base, rules, min_count=50, shrink=100.0, rounds=1)
>>> table.value(Rack.from_text("S", rules.alphabet)), table.value(Rack.from_text("Q", rules.alphabet))
(3.0, 0.0)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field

from engine.board.rack import Rack
from engine.equity.leave import LeaveModel
from engine.equity.leavetable import LearnedLeave, LeaveFeatures, parse_document, read_text
from engine.errors import LeaveTableError
from engine.rules.ruleset import Ruleset

FULL_FORMAT = "wordfeud-bot full leave table"
FULL_VERSION = 1

Key = tuple[tuple[int, ...], int]  # a leave's letter counts and blanks


@dataclass(frozen=True)
class LeaveStats:
    """The samples of one leave: how many, the sum of their next scores, and the leaves kept next
    (text -> how many times; the samples with no full draw after them are not among them)."""

    count: int
    score_sum: float
    afters: Mapping[str, int]


@dataclass(frozen=True)
class FullLeave:
    """Own values for the leaves in ``values`` (by letter counts and blanks), ``base`` for the others."""

    base: LearnedLeave
    values: Mapping[Key, float]
    min_count: int
    shrink: float
    about: dict[str, object] = field(default_factory=dict, compare=False)

    @property
    def ruleset(self) -> int:
        return self.base.ruleset

    def value(self, leave: Rack) -> float:
        """Points the leave is worth compared with keeping nothing."""
        found = self.values.get((leave.counts, leave.blanks))
        return self.base.value(leave) if found is None else found

    def to_json(self, rules: Ruleset) -> str:
        """The table file's text: the header, the factorised model, then every own value by leave."""
        alphabet = rules.alphabet
        leaves = {
            Rack(alphabet, counts, blanks).text(): round(value, 3) for (counts, blanks), value in self.values.items()
        }
        document = {
            "format": FULL_FORMAT,
            "version": FULL_VERSION,
            "ruleset": self.ruleset,
            "alphabet": list(self.base.features.symbols),
            "min_count": self.min_count,
            "shrink": self.shrink,
            "about": self.about,
            "base": self.base.to_document(),
            "leaves": dict(sorted(leaves.items())),
        }
        return json.dumps(document, ensure_ascii=False, indent=0) + "\n"

    @classmethod
    def from_document(cls, document: object, rules: Ruleset, *, source: str) -> FullLeave:
        """The model of a full table file's parsed JSON; LeaveTableError names what is wrong."""
        if not isinstance(document, dict) or document.get("format") != FULL_FORMAT:
            raise LeaveTableError(f"{source} is not a {FULL_FORMAT}")
        if document.get("version") != FULL_VERSION:
            raise LeaveTableError(
                f"{source} has version {document.get('version')!r}, this program reads {FULL_VERSION}"
            )
        if document.get("ruleset") != rules.id:
            raise LeaveTableError(f"{source} was made for ruleset {document.get('ruleset')!r}, not ruleset {rules.id}")
        base = LearnedLeave.from_document(document.get("base"), rules, source=f"{source} (its factorised model)")
        raw = document.get("leaves")
        if not isinstance(raw, dict):
            raise LeaveTableError(f"{source} has no leaves")
        values: dict[Key, float] = {}
        for text, value in raw.items():
            try:
                leave = Rack.from_text(text, rules.alphabet)
            except ValueError as error:
                raise LeaveTableError(
                    f"{source}: leave {text!r} is not a leave of ruleset {rules.id}: {error}"
                ) from None
            if not 0 < len(leave) < rules.rack_size:
                raise LeaveTableError(
                    f"{source}: leave {text!r} has {len(leave)} tiles, not 1 to {rules.rack_size - 1}"
                )
            if not isinstance(value, int | float) or isinstance(value, bool):
                raise LeaveTableError(f"{source}: leave {text!r} has a non-numeric value {value!r}")
            values[(leave.counts, leave.blanks)] = float(value)
        settings = (document.get("min_count"), document.get("shrink"))
        if not isinstance(settings[0], int) or not isinstance(settings[1], int | float):
            raise LeaveTableError(f"{source}: min_count and shrink must be numbers, not {settings!r}")
        about = document.get("about")
        return cls(base, values, settings[0], float(settings[1]), dict(about) if isinstance(about, dict) else {})


def fit_full(
    stats: Mapping[str, LeaveStats],
    base: LearnedLeave,
    rules: Ruleset,
    *,
    min_count: int,
    shrink: float,
    rounds: int,
    about: dict[str, object] | None = None,
) -> FullLeave:
    """Own values for the leaves of ``stats`` seen at least ``min_count`` times, shrunk towards ``base``
    by ``shrink`` pseudo-samples; each of ``rounds`` rounds values the next leaves by the round before
    (the first by ``base``)."""
    if min_count < 1:
        raise ValueError(f"min_count {min_count} must be at least 1")
    alphabet = rules.alphabet
    keys: dict[str, Key] = {}

    def key_of(text: str) -> Key:
        found = keys.get(text)
        if found is None:
            leave = Rack.from_text(text, alphabet)
            found = keys[text] = (leave.counts, leave.blanks)
        return found

    owned = [text for text, s in stats.items() if text and s.count >= min_count]
    prior = {text: base.value(Rack.from_text(text, alphabet)) for text in owned}
    model = FullLeave(base, {}, min_count, shrink, dict(about or {}))
    for _ in range(rounds):
        values: dict[Key, float] = {}
        for text in owned:
            s = stats[text]
            later = sum(n * model.value(Rack(alphabet, *key_of(after))) for after, n in s.afters.items() if after)
            mean = (s.score_sum + later) / s.count - base.baseline
            values[key_of(text)] = (s.count * mean + shrink * prior[text]) / (s.count + shrink)
        model = FullLeave(base, values, min_count, shrink, model.about)
    return model


def read_leave_model(path: str, rules: Ruleset) -> LeaveModel:
    """A leave table file of either kind (``learn-leaves``' factorised table or a full table) for this ruleset."""
    source = f"leave table {path}"
    document = parse_document(read_text(path), source)
    if isinstance(document, dict) and document.get("format") == FULL_FORMAT:
        return FullLeave.from_document(document, rules, source=source)
    return LearnedLeave.from_document(document, rules, source=source)


__all__ = ["FULL_FORMAT", "FullLeave", "LeaveFeatures", "LeaveStats", "fit_full", "read_leave_model"]
