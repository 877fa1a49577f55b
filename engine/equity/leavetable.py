"""Learned leave values: a factorised model fitted on self-play, and the table file that holds it.

A leave is described by a few kinds of *features*, each worth a fitted number of points:
each tile kept (``A``), its second and third copy (``A2``, ``A3``: duplicates), each pair of
different tiles kept together (``Q+U``, ``S+?``), and the leave's shape: its size and how many
vowels it has (``3v1``). A leave's value is the sum over its features; the empty leave is worth 0.
About 460 numbers for English instead of the ~920,000 of a full table, so tens of thousands of
games are not needed to fill it.

>>> from engine.rules.ruleset import Ruleset
>>> rules = Ruleset.for_id(5)
>>> features = LeaveFeatures.for_ruleset(rules)
>>> [features.names[i] for i in features.of_rack(Rack.from_text("EES?", rules.alphabet))]
['E', 'E2', 'S', '?', 'E+S', 'E+?', 'S+?', '4v2']
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import resources
from itertools import combinations

from engine.board.rack import Rack
from engine.equity.leave import HandLeave
from engine.errors import LeaveTableError
from engine.lru import LruCache
from engine.rules.ruleset import Ruleset

TABLE_FORMAT = "wordfeud-bot leave table"
TABLE_VERSION = 1
#: Copies of one tile with a feature of their own (a fourth copy counts as the third).
MAX_COPIES = 3
BLANK_NAME = "?"
#: Leave values a ``LearnedLeave`` keeps (least recently used first out): a leave has ~5.4 million
#: possible values in English, and the simulation values the leaves of racks drawn at random, so an unbounded
#: cache grew with every decision of a long-lived bot. Chosen by ``python -m offline.bench.leavecache``
#: (2 games of sim with 100 iterations a move: 33% of values found at 4,096 entries, 1.7 MB; 38% at
#: 32,768, 13.6 MB, and no more unbounded; a value takes about 40 us to compute, 3 us to find).
VALUE_CACHE_SIZE = 4_096


@dataclass(frozen=True)
class LeaveFeatures:
    """The features of one alphabet: tiles are letter codes, then the blank (code ``len(symbols)``)."""

    symbols: tuple[str, ...]
    vowels: frozenset[int]
    max_size: int
    names: tuple[str, ...]

    @classmethod
    def for_ruleset(cls, rules: Ruleset) -> LeaveFeatures:
        """The features of a ruleset (vowels from the hand model's data)."""
        return _features(rules.id)

    @classmethod
    def build(cls, symbols: tuple[str, ...], vowels: frozenset[int], max_size: int) -> LeaveFeatures:
        tiles = [*symbols, BLANK_NAME]
        names = [f"{t}{k}" if k > 1 else t for t in tiles for k in range(1, MAX_COPIES + 1)]
        names += [f"{a}+{b}" for a, b in combinations(tiles, 2)]
        names += [f"{size}v{v}" for size in range(1, max_size + 1) for v in range(size + 1)]
        return cls(symbols, vowels, max_size, tuple(names))

    @property
    def size(self) -> int:
        return len(self.names)

    def of(self, counts: tuple[int, ...], blanks: int) -> list[int]:
        """Indices of the features of a leave given by letter counts and blanks."""
        tiles = len(self.symbols) + 1
        present = [code for code, n in enumerate(counts) if n]
        if blanks:
            present.append(tiles - 1)
        active: list[int] = []
        for code in present:
            n = counts[code] if code < len(counts) else blanks
            active.extend(code * MAX_COPIES + k for k in range(min(n, MAX_COPIES)))
        pair_base = tiles * MAX_COPIES
        for i, a in enumerate(present):
            row = pair_base + a * tiles - a * (a + 1) // 2  # pairs (a, b>a) in combinations order
            for b in present[i + 1 :]:
                active.append(row + b - a - 1)
        size = sum(counts) + blanks
        if size:
            vowels = sum(counts[code] for code in self.vowels)
            shape_base = pair_base + tiles * (tiles - 1) // 2
            size = min(size, self.max_size)
            active.append(shape_base + (size - 1) * (size + 2) // 2 + min(vowels, size))
        return active

    def of_rack(self, leave: Rack) -> list[int]:
        """Indices of the features of a leave."""
        return self.of(leave.counts, leave.blanks)


@cache
def _features(ruleset_id: int) -> LeaveFeatures:
    rules = Ruleset.for_id(ruleset_id)
    vowels = HandLeave.for_ruleset(rules).vowels
    return LeaveFeatures.build(rules.alphabet.symbols, vowels, rules.rack_size - 1)


@dataclass(frozen=True)
class LearnedLeave:
    """A fitted leave model for one ruleset; ``about`` records how it was made (games, samples...)."""

    ruleset: int
    features: LeaveFeatures
    weights: tuple[float, ...]
    baseline: float  # the fitted mean next-turn score after keeping nothing
    about: dict[str, object] = field(default_factory=dict, compare=False)
    # made afresh by every constructor and by dataclasses.replace, so a copy with other weights never
    # answers from the values of the model it was copied from
    _cache: LruCache[tuple[tuple[int, ...], int], float] = field(
        default_factory=lambda: LruCache(VALUE_CACHE_SIZE), init=False, compare=False, repr=False
    )

    def with_cache(self, cache: LruCache[tuple[tuple[int, ...], int], float]) -> LearnedLeave:
        """A copy whose values go through ``cache`` (an empty one: to measure the cache, offline.bench.leavecache)."""
        copy = replace(self)
        object.__setattr__(copy, "_cache", cache)
        return copy

    def value(self, leave: Rack) -> float:
        """Points the leave is worth compared with keeping nothing."""
        key = (leave.counts, leave.blanks)
        found = self._cache.get(key)
        if found is None:
            # added one by one in feature order, not by sum() (compensated from Python 3.12): the
            # C kernel adds the same way, so both give the same value to the last bit
            weights = self.weights
            found = 0.0
            for i in self.features.of(*key):
                found += weights[i]
            self._cache.put(key, found)
        return found

    def weight(self, name: str) -> float:
        """The fitted value of one feature, by name (``"Q"``, ``"E2"``, ``"Q+U"``, ``"3v1"``)."""
        return self.weights[self.features.names.index(name)]

    def to_json(self) -> str:
        """The table file's text: the header, then every non-zero weight by feature name."""
        return json.dumps(self.to_document(), ensure_ascii=False, indent=1) + "\n"

    def to_document(self) -> dict[str, object]:
        """The table file's content before it is written as JSON."""
        return {
            "format": TABLE_FORMAT,
            "version": TABLE_VERSION,
            "ruleset": self.ruleset,
            "alphabet": list(self.features.symbols),
            "baseline": round(self.baseline, 3),
            "about": self.about,
            "weights": {n: round(w, 3) for n, w in zip(self.features.names, self.weights, strict=True) if round(w, 3)},
        }

    @classmethod
    def from_json(cls, text: str, rules: Ruleset, *, source: str = "leave table") -> LearnedLeave:
        """Read a table file's text for this ruleset; LeaveTableError names what is wrong."""
        return cls.from_document(parse_document(text, source), rules, source=source)

    @classmethod
    def from_document(cls, document: object, rules: Ruleset, *, source: str = "leave table") -> LearnedLeave:
        """The model of a table file's parsed JSON; LeaveTableError names what is wrong."""
        if not isinstance(document, dict) or document.get("format") != TABLE_FORMAT:
            raise LeaveTableError(f"{source} is not a {TABLE_FORMAT}")
        if document.get("version") != TABLE_VERSION:
            raise LeaveTableError(
                f"{source} has version {document.get('version')!r}, this program reads {TABLE_VERSION}"
            )
        if document.get("ruleset") != rules.id:
            raise LeaveTableError(f"{source} was made for ruleset {document.get('ruleset')!r}, not ruleset {rules.id}")
        features = LeaveFeatures.for_ruleset(rules)
        if document.get("alphabet") != list(features.symbols):
            raise LeaveTableError(f"{source} has another alphabet than ruleset {rules.id} ({rules.code})")
        index = {name: i for i, name in enumerate(features.names)}
        weights = [0.0] * features.size
        raw = document.get("weights")
        if not isinstance(raw, dict):
            raise LeaveTableError(f"{source} has no weights")
        for name, value in raw.items():
            if name not in index:
                raise LeaveTableError(f"{source} has an unknown feature {name!r}")
            if not isinstance(value, int | float) or isinstance(value, bool):
                raise LeaveTableError(f"{source}: feature {name!r} has a non-numeric value {value!r}")
            weights[index[name]] = float(value)
        baseline = document.get("baseline", 0.0)
        if not isinstance(baseline, int | float):
            raise LeaveTableError(f"{source}: baseline {baseline!r} is not a number")
        about = document.get("about")
        return cls(rules.id, features, tuple(weights), float(baseline), dict(about) if isinstance(about, dict) else {})

    @classmethod
    def shipped(cls, rules: Ruleset) -> LearnedLeave | None:
        """The table shipped with the package for this ruleset (``engine/data/leaves/<id>.json``), if any."""
        return _shipped(rules.id)


@cache
def _shipped(ruleset_id: int) -> LearnedLeave | None:
    path = resources.files("engine.data").joinpath("leaves", f"{ruleset_id}.json")
    if not path.is_file():
        return None
    text = path.read_text(encoding="utf-8")
    return LearnedLeave.from_json(text, Ruleset.for_id(ruleset_id), source=f"shipped leave table {ruleset_id}.json")


def parse_document(text: str, source: str) -> object:
    """A table file's JSON; LeaveTableError naming ``source`` when it is not JSON (a truncated file)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise LeaveTableError(f"{source} is not JSON, so not a leave table ({error})") from None


def read_text(path: str) -> str:
    """A table file's text; LeaveTableError naming the file when it cannot be read."""
    try:
        with open(os.path.expanduser(path), encoding="utf-8") as file:
            return file.read()
    except OSError as error:
        raise LeaveTableError(f"cannot read leave table {path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise LeaveTableError(f"leave table {path} is not UTF-8 text, so not a leave table (one is JSON)") from None


def read_table(path: str, rules: Ruleset) -> LearnedLeave:
    """A leave table file written by ``wordfeud-bot learn-leaves``, for this ruleset."""
    return LearnedLeave.from_json(read_text(path), rules, source=f"leave table {path}")


def learned_leave(rules: Ruleset) -> LearnedLeave:
    """The shipped learned table of a ruleset; LeaveTableError when none ships for it."""
    table = LearnedLeave.shipped(rules)
    if table is None:
        raise LeaveTableError(
            f"no learned leave table ships for ruleset {rules.id} ({rules.code}); see: wordfeud-bot learn-leaves --help"
        )
    return table


def best_leave(rules: Ruleset) -> LearnedLeave | HandLeave:
    """The learned table when one ships for the ruleset, else the hand-made model."""
    return LearnedLeave.shipped(rules) or HandLeave.for_ruleset(rules)
