"""Strategy against strategy on ``engine.game``, with mirrored deals, and the figures that compare them.

A *pair* is one shuffled bag played twice with the seats swapped: A moves first in the first game
and second in the other, each time with the racks the other strategy had. Luck of the draw
cancels much better than in independent games, so fewer games tell strategies apart. The
confidence interval is computed over pairs (the two games of a pair are not independent).

>>> from engine.lexicon.dawg import Dawg
>>> rules = Ruleset.for_id(5)
>>> words = ["AA", "AB", "AD", "BA", "DA", "BAD", "DAB"]
>>> lexicon = Dawg.build([rules.alphabet.parse_word(w) for w in words], rules.alphabet)
>>> first, second = play_pair(Greedy(), Greedy(), rules, lexicon, seed=1)
>>> first.seat_of_a, second.seat_of_a, first.scores == second.scores, first.margin == -second.margin
(0, 1, True, True)

(Equal players on mirrored deals play the same game twice, so Greedy vs Greedy is exactly even.)
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from engine.board.move import Placement, Swap
from engine.equity.strategy import Greedy, Situation, Strategy
from engine.game import Game
from engine.lexicon.dawg import Dawg
from engine.rules.ruleset import Ruleset

__all__ = [
    "ArenaSummary",
    "GameRecord",
    "Greedy",
    "Interval",
    "PairedDifference",
    "Watcher",
    "compare_pairs",
    "complete_pairs",
    "pair_seed",
    "play_game",
    "play_pair",
    "summarize",
]


@dataclass(frozen=True)
class GameRecord:
    """One finished game seen from strategy A (``seat_of_a``) and B: final scores by seat and counts by seat."""

    seed: int
    seat_of_a: int
    scores: tuple[int, int]
    bingos: tuple[int, int]
    swaps: tuple[int, int]
    moves: tuple[int, int]
    seconds: tuple[float, float]  # thinking time (move generation + ranking) by seat

    def a(self, values: tuple[float, float] | tuple[int, int]) -> float:
        return values[self.seat_of_a]

    def b(self, values: tuple[float, float] | tuple[int, int]) -> float:
        return values[1 - self.seat_of_a]

    @property
    def margin(self) -> int:
        """A's score minus B's."""
        return self.scores[self.seat_of_a] - self.scores[1 - self.seat_of_a]


@runtime_checkable
class Watcher(Protocol):
    """A player the arena shows the whole game (both racks, the bag) before each of its decisions: only an
    instrument that measures what hidden information is worth (``offline.arena.clairvoyance``), no player of the
    bot's."""

    def watch(self, game: Game) -> None:
        """See ``game`` as it stands, the watcher to move."""
        ...


def pair_seed(seed: int, pair: int) -> int:
    """The bag seed of pair ``pair`` of a match seeded ``seed`` (independent of how pairs are split up)."""
    return random.Random(f"{seed}:{pair}").randrange(2**63)


def play_game(players: Sequence[Strategy], rules: Ruleset, lexicon: Dawg, seed: int, seat_of_a: int) -> GameRecord:
    """Play one game: ``players[0]`` is A; A sits in ``seat_of_a``; seat 0 moves first."""
    game = Game(rules, lexicon, random.Random(seed))
    by_seat = (players[0], players[1]) if seat_of_a == 0 else (players[1], players[0])
    bingos, swaps, moves = [0, 0], [0, 0], [0, 0]
    seconds = [0.0, 0.0]
    while not game.is_over:
        seat = game.current
        player = by_seat[seat]
        if isinstance(player, Watcher):
            player.watch(game)
        started = time.perf_counter()
        choice = player.best(Situation.of(game), 1)[0]
        seconds[seat] += time.perf_counter() - started
        moves[seat] += 1
        bingos[seat] += isinstance(choice, Placement) and len(choice.tiles) == rules.rack_size
        swaps[seat] += isinstance(choice, Swap)
        game.play(choice)
    return GameRecord(
        seed,
        seat_of_a,
        (game.scores[0], game.scores[1]),
        (bingos[0], bingos[1]),
        (swaps[0], swaps[1]),
        (moves[0], moves[1]),
        (seconds[0], seconds[1]),
    )


def play_pair(a: Strategy, b: Strategy, rules: Ruleset, lexicon: Dawg, seed: int) -> tuple[GameRecord, GameRecord]:
    """The two games of a mirrored pair: the same bag, A first then B first."""
    return play_game((a, b), rules, lexicon, seed, 0), play_game((a, b), rules, lexicon, seed, 1)


@dataclass(frozen=True)
class ArenaSummary:
    """The figures of a match, from A's side."""

    games: int
    wins: int
    draws: int
    losses: int
    win_rate: float
    low: float  # 95% confidence interval of the win rate, over pairs
    high: float
    mean_a: float
    mean_b: float
    margin: float
    margin_sd: float
    margin_low: float  # 95% confidence interval of the margin, over pairs
    margin_high: float
    bingos_a: float
    bingos_b: float
    swaps_a: float
    swaps_b: float
    ms_per_move_a: float
    ms_per_move_b: float

    def lines(self, name_a: str, name_b: str) -> list[str]:
        """The summary as printable lines."""
        return [
            f"{name_a} vs {name_b}: {self.games} games ({self.games // 2} mirrored pairs)",
            f"  {name_a}: {self.wins} wins, {self.draws} draws, {self.losses} losses; "
            f"win rate {self.win_rate:.1%} (95% CI {self.low:.1%} .. {self.high:.1%})",
            f"  mean score {name_a} {self.mean_a:.1f}, {name_b} {self.mean_b:.1f}; "
            f"margin {self.margin:+.1f} per game (95% CI {self.margin_low:+.1f} .. {self.margin_high:+.1f} over "
            f"pairs; sd {self.margin_sd:.1f})",
            f"  bingos per game {name_a} {self.bingos_a:.2f}, {name_b} {self.bingos_b:.2f}; "
            f"swaps per game {name_a} {self.swaps_a:.2f}, {name_b} {self.swaps_b:.2f}",
            f"  time per move {name_a} {self.ms_per_move_a:.1f} ms, {name_b} {self.ms_per_move_b:.1f} ms",
        ]


def summarize(records: Sequence[GameRecord]) -> ArenaSummary:
    """Figures over finished games (mirrored pairs are the consecutive records of one seed)."""
    if not records:
        raise ValueError("no games to summarize")
    n = len(records)
    wins = sum(1 for r in records if r.margin > 0)
    draws = sum(1 for r in records if r.margin == 0)
    points = [_point(r) for r in records]
    rate = sum(points) / n
    pairs = _by_seed(records).values()
    half = _half_width([_pair_mean(games, _point) for games in pairs])
    margins = [float(r.margin) for r in records]
    margin = sum(margins) / n
    margin_half = _half_width([_pair_mean(games, _margin) for games in pairs])
    moves_a = sum(r.a(r.moves) for r in records) or 1
    moves_b = sum(r.b(r.moves) for r in records) or 1
    return ArenaSummary(
        games=n,
        wins=wins,
        draws=draws,
        losses=n - wins - draws,
        win_rate=rate,
        low=max(0.0, rate - half),
        high=min(1.0, rate + half),
        mean_a=sum(r.a(r.scores) for r in records) / n,
        mean_b=sum(r.b(r.scores) for r in records) / n,
        margin=margin,
        margin_sd=statistics.stdev(margins) if n > 1 else 0.0,
        margin_low=margin - margin_half,
        margin_high=margin + margin_half,
        bingos_a=sum(r.a(r.bingos) for r in records) / n,
        bingos_b=sum(r.b(r.bingos) for r in records) / n,
        swaps_a=sum(r.a(r.swaps) for r in records) / n,
        swaps_b=sum(r.b(r.swaps) for r in records) / n,
        ms_per_move_a=1000 * sum(r.a(r.seconds) for r in records) / moves_a,
        ms_per_move_b=1000 * sum(r.b(r.seconds) for r in records) / moves_b,
    )


@dataclass(frozen=True)
class Interval:
    """A mean with its 95% confidence interval."""

    mean: float
    low: float
    high: float

    @classmethod
    def over(cls, values: Sequence[float]) -> Interval:
        """The mean of independent ``values`` and its interval (a point for fewer than two)."""
        mean = statistics.fmean(values)
        half = _half_width(values)
        return cls(mean, mean - half, mean + half)


@dataclass(frozen=True)
class PairedDifference:
    """Two matches on the same bags compared pair by pair: the first match's A minus the second's, in win
    share and margin a game, over the pairs both finished."""

    seeds: tuple[int, ...]  # the bag seeds of the pairs both matches finished
    same: int  # pairs whose two games ended with the very same scores in both matches
    win_rate: Interval
    margin: Interval

    @property
    def pairs(self) -> int:
        return len(self.seeds)

    def lines(self, first: str, second: str) -> list[str]:
        """The comparison as printable lines."""
        win, margin = self.win_rate, self.margin
        return [
            f"{first} minus {second}, pair by pair over the {self.pairs} pairs both finished "
            f"({self.same} ended with the same scores in both):",
            f"  win rate {win.mean:+.1%} (95% CI {win.low:+.1%} .. {win.high:+.1%})",
            f"  margin {margin.mean:+.1f} a game (95% CI {margin.low:+.1f} .. {margin.high:+.1f})",
        ]


def compare_pairs(first: Sequence[GameRecord], second: Sequence[GameRecord]) -> PairedDifference:
    """The first match's A minus the second's over the pairs (bag seeds) both finished: on the same bags
    much of the luck of the draw cancels, so a smaller difference shows than between two summaries.

    >>> def game(seed, seat, scores):
    ...     return GameRecord(seed, seat, scores, (0, 0), (0, 0), (9, 9), (0.0, 0.0))
    >>> one = [game(1, 0, (400, 380)), game(1, 1, (390, 400)), game(2, 0, (300, 350)), game(2, 1, (310, 300))]
    >>> two = [game(1, 0, (400, 380)), game(1, 1, (420, 400)), game(2, 0, (320, 350)), game(2, 1, (290, 300))]
    >>> d = compare_pairs(one, two)
    >>> d.pairs, d.same, round(d.margin.mean, 2), round(d.win_rate.mean, 2)
    (2, 0, -2.5, 0.0)
    """
    ones, twos = complete_pairs(first), complete_pairs(second)
    common = sorted(set(ones) & set(twos))
    if not common:
        raise ValueError("the two matches have no finished pair (bag seed) in common")
    wins = [_pair_mean(ones[s], _point) - _pair_mean(twos[s], _point) for s in common]
    margins = [_pair_mean(ones[s], _margin) - _pair_mean(twos[s], _margin) for s in common]
    same = sum(1 for s in common if _results(ones[s]) == _results(twos[s]))
    return PairedDifference(tuple(common), same, Interval.over(wins), Interval.over(margins))


def _point(record: GameRecord) -> float:
    """A's result: 1 for a win, a half for a draw, 0 for a loss."""
    return 1.0 if record.margin > 0 else 0.5 if record.margin == 0 else 0.0


def _margin(record: GameRecord) -> float:
    return float(record.margin)


def _by_seed(records: Sequence[GameRecord]) -> dict[int, list[GameRecord]]:
    by_seed: dict[int, list[GameRecord]] = {}
    for record in records:
        by_seed.setdefault(record.seed, []).append(record)
    return by_seed


def complete_pairs(records: Sequence[GameRecord]) -> dict[int, list[GameRecord]]:
    """The pairs with both games, by bag seed, each in seat order (A first, then B first)."""
    return {
        seed: sorted(games, key=lambda r: r.seat_of_a) for seed, games in _by_seed(records).items() if len(games) == 2
    }


def _results(games: Sequence[GameRecord]) -> list[tuple[float, float]]:
    """A's and B's final scores in each game of a pair."""
    return [(game.a(game.scores), game.b(game.scores)) for game in games]


def _pair_mean(games: Sequence[GameRecord], value: Callable[[GameRecord], float]) -> float:
    return sum(value(g) for g in games) / len(games)


def _half_width(values: Sequence[float]) -> float:
    """Half the 95% confidence interval of the mean of independent ``values`` (0 for fewer than two)."""
    return 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
