"""Strategy against strategy on ``engine.game``, with mirrored deals, and the figures that compare them.

A *pair* is one shuffled bag played twice with the seats swapped: A moves first in the first game
and second in the other, each time with the racks the other strategy had. Luck of the draw
cancels much better than in independent games, so fewer games tell strategies apart. The
confidence interval is computed over pairs (the two games of a pair are not independent).

>>> from engine.dawg import Dawg
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
from collections.abc import Sequence
from dataclasses import dataclass

from engine.dawg import Dawg
from engine.game import Game
from engine.move import Placement, Swap
from engine.rules import Ruleset
from engine.strategy import Greedy, Situation, Strategy

__all__ = ["ArenaSummary", "GameRecord", "Greedy", "pair_seed", "play_game", "play_pair", "summarize"]


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
        started = time.perf_counter()
        unseen = tuple(game.unseen(seat))
        scores = (game.scores[seat], game.scores[1 - seat])
        bag = len(game.bag)
        last = game.history[-1].action if game.history and game.history[-1].player != seat else None
        theirs = last if isinstance(last, Placement) else None
        situation = Situation(game.board, game.rack, rules, lexicon, unseen, bag, scores, game.scoreless_turns, theirs)
        choice = by_seat[seat].best(situation, 1)[0]
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
            f"margin {self.margin:+.1f} per game (sd {self.margin_sd:.1f})",
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
    points = [1.0 if r.margin > 0 else 0.5 if r.margin == 0 else 0.0 for r in records]
    by_seed: dict[int, list[float]] = {}
    for record, point in zip(records, points, strict=True):
        by_seed.setdefault(record.seed, []).append(point)
    pair_rates = [sum(p) / len(p) for p in by_seed.values()]
    rate = sum(points) / n
    spread = statistics.stdev(pair_rates) if len(pair_rates) > 1 else 0.0
    half = 1.96 * spread / math.sqrt(len(pair_rates))
    margins = [float(r.margin) for r in records]
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
        margin=sum(margins) / n,
        margin_sd=statistics.stdev(margins) if n > 1 else 0.0,
        bingos_a=sum(r.a(r.bingos) for r in records) / n,
        bingos_b=sum(r.b(r.bingos) for r in records) / n,
        swaps_a=sum(r.a(r.swaps) for r in records) / n,
        swaps_b=sum(r.b(r.swaps) for r in records) / n,
        ms_per_move_a=1000 * sum(r.a(r.seconds) for r in records) / moves_a,
        ms_per_move_b=1000 * sum(r.b(r.seconds) for r in records) / moves_b,
    )
