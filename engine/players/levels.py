"""Strength levels that play like people: a vocabulary of everyday words, fewer bingos, now and then a
good move that is not the best, and never a word nobody knows.

A level (``engine/data/levels.toml``) wraps a ranking strategy: placements whose words are not all among
the language's most frequent (the ``wordfreq`` package) or whose main word is too long are left out, the
bingos are seen only with the level's chance, and with the ``slip`` chance one of the next moves is
played instead of the best. The chances are drawn from a generator seeded by the level, the game id and
the position, so the same game replays to the same moves.

>>> level_named("casual").base, level_named("casual").vocabulary
('greedy', 30000)
"""

from __future__ import annotations

import random
import tomllib
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources

from engine.board.move import Move, Placement
from engine.equity.strategy import Situation, Strategy
from engine.errors import TileError
from engine.movegen.score import word_texts
from engine.rules.ruleset import Ruleset

#: Placements a level ranks (the best ones its vocabulary allows): enough for its slips and for the
#: bot's next tries when the server refuses a word.
KEPT = 16


@dataclass(frozen=True)
class Level:
    """One level's settings (see the data file for what each means)."""

    name: str
    base: str
    vocabulary: int
    longest: int
    bingo: float
    slip: float
    spread: int
    floor: float
    description: str


@cache
def _data() -> dict[str, dict[str, object]]:
    text = resources.files("engine.data").joinpath("levels.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


@cache
def levels() -> dict[str, Level]:
    """Every level by name, weakest first."""
    found: dict[str, Level] = {}
    for name, row in _data().items():
        if name == "languages":
            continue
        found[name] = Level(name=name, **row)  # type: ignore[arg-type]
    return found


def level_named(name: str) -> Level:
    """A level by name; ValueError naming the known ones."""
    try:
        return levels()[name]
    except KeyError:
        raise ValueError(f"unknown level {name!r}; known: {', '.join(levels())}") from None


def wordfreq_language(rules: Ruleset) -> str:
    """The wordfreq language whose frequencies stand for the ruleset's language."""
    languages = _data()["languages"]
    assert isinstance(languages, dict)
    return str(languages[rules.code])


@cache
def common_words(rules: Ruleset, size: int) -> frozenset[str]:
    """The ``size`` most frequent words of the ruleset's language (upper case, only those written with its
    tiles). RuntimeError when the wordfreq package is not installed."""
    try:
        from wordfreq import top_n_list  # noqa: PLC0415 - a large package, loaded only by the levels that use it
    except ImportError:  # pragma: no cover - a dependency of the package
        raise RuntimeError("the levels with a vocabulary need the wordfreq package: pip install wordfreq") from None
    words = set()
    alphabet = rules.alphabet
    for word in top_n_list(wordfreq_language(rules), size):
        try:
            words.add(alphabet.format_word(alphabet.parse_word(word)))
        except TileError:  # a character the ruleset has no tile for: not a playable word
            continue
    return frozenset(words)


class LevelStrategy:
    """A level playing on top of its base strategy (``base`` builds it)."""

    def __init__(self, level: Level, base: Strategy, words: Callable[[Ruleset, int], frozenset[str]] = common_words):
        self.level = level
        self.base = base
        self.words = words
        self.name = f"level:{level.name}"

    def budgeted(self, seconds: float) -> Strategy:
        return LevelStrategy(self.level, self.base.budgeted(seconds), self.words)

    def best(self, situation: Situation, k: int) -> list[Move]:
        from engine.movegen.generate import (  # noqa: PLC0415 - the strategy module is imported by movegen's users
            generate,
        )

        placements = generate(situation.board, situation.rack, situation.lexicon, situation.rules)
        return self.rank(situation, placements)[:k]

    def rank(self, situation: Situation, placements: Sequence[Placement]) -> list[Move]:
        level = self.level
        rng = random.Random(self._seed(situation))
        if level.bingo < 1.0 and rng.random() >= level.bingo:
            placements = [m for m in placements if len(m.tiles) < situation.rules.rack_size]
        # the base ranks every move; the words are checked in that order, only until enough are found
        ranked: list[Move] = []
        found = 0
        for move in self.base.rank(situation, placements):
            if isinstance(move, Placement):
                if found >= KEPT or not self._known(situation, move):
                    continue
                found += 1
            ranked.append(move)
        if level.slip <= 0 or len(ranked) < 2 or rng.random() >= level.slip:
            return ranked
        top = max((m.score or 0 for m in ranked if isinstance(m, Placement)), default=0)
        choices = [
            m for m in ranked[1 : level.spread + 1] if isinstance(m, Placement) and (m.score or 0) >= level.floor * top
        ]
        if not choices:
            return ranked
        chosen = rng.choice(choices)
        return [chosen, *(m for m in ranked if m is not chosen)]

    def _known(self, situation: Situation, move: Placement) -> bool:
        """Whether a person of this level would find the move: every word it makes is an everyday word."""
        level = self.level
        if not level.vocabulary and not level.longest:
            return True
        texts = word_texts(situation.board, move)
        if level.longest and len(texts[0]) > level.longest:
            return False
        if not level.vocabulary:
            return True
        known = self.words(situation.rules, level.vocabulary)
        return all(text in known for text in texts)

    def _seed(self, situation: Situation) -> int:
        """The same number for the same level, game and position: a replay plays the same moves."""
        key = f"{self.level.name}|{situation.game_id}|{situation.board.text()}|{situation.rack.text()}"
        return zlib.crc32(key.encode("utf-8"))


def level_strategy(name: str, full: Callable[[], Strategy], named: Callable[[str], Strategy]) -> Strategy:
    """The strategy of level ``name``: ``full()`` for the level that plays the configured strategy, else the
    level over its base strategy (built by ``named``)."""
    level = level_named(name)
    if not level.base:
        return full()
    return LevelStrategy(level, named(level.base))


__all__ = ["Level", "LevelStrategy", "common_words", "level_named", "level_strategy", "levels"]
