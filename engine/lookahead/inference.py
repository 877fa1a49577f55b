"""What the opponent kept: racks for the simulation, weighted by how well they explain the last play.

The opponent's last placement used some tiles and kept the rest of a full rack; the kept tiles are
among the tiles we cannot see now. A static-equity player holding the played tiles plus kept tiles
``L`` would have preferred the play it made by some margin, or another move: the weight of ``L`` is
``exp(-gap / temperature)``, where ``gap`` is how much equity the play gave up against that player's
best move (0 when it is the best). Racks are drawn uniformly and each iteration of the simulation
counts with its rack's weight (importance weighting, so no draw is thrown away). Weights never go
below ``floor``: an unusual play (a word our lexicon lacks, a blunder) that no rack explains still
leaves every rack possible, and the simulation falls back to plain uniform draws.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import ClassVar, Protocol

from engine.board.board import Board
from engine.board.move import Placement, Swap
from engine.board.rack import Rack
from engine.equity.strategy import Equity, Situation
from engine.rules.tiles import bag_tile, board_tile

#: equity points a play may give up before the kept tiles that explain it so weigh 1/e (chosen by arena, 2026-11-28)
TEMPERATURE = 2.0


class RackSource(Protocol):
    """Deals the opponent's rack and the bag's order for each iteration of a simulation."""

    #: whether the simulation may play every rack the opponent can hold instead, once each (the pre-endgame)
    enumerable: ClassVar[bool]

    def deal(self, rng: random.Random) -> tuple[Rack, list[int], float]:
        """The opponent's rack, the bag (in a random order) and the weight of this draw."""
        ...


@dataclass
class RackInference:
    """Draws the opponent's rack for one situation (``situation.last_play`` is their last placement)."""

    enumerable: ClassVar[bool] = True  # in the pre-endgame every rack is played out, weighted by its ways only

    situation: Situation
    static: Equity
    temperature: float = TEMPERATURE
    floor: float = 0.02
    _before: Board = field(init=False)
    _used: list[int] = field(init=False)
    _weights: dict[tuple[int, ...], float] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        play = self.situation.last_play
        assert play is not None
        gone = set(play.tiles)
        self._before = Board(self.situation.board.alphabet)
        self._before.place([square for square in self.situation.board.tiles() if square not in gone])
        self._used = [bag_tile(tile) for _, _, tile in play.tiles]

    def deal(self, rng: random.Random) -> tuple[Rack, list[int], float]:
        """The opponent's rack, the bag (in a random order) and the weight of this draw."""
        situation = self.situation
        unseen = list(situation.unseen)
        rng.shuffle(unseen)
        held = max(0, len(unseen) - situation.bag_count)
        kept = max(0, min(held, situation.rules.rack_size - len(self._used)))
        return _rack(situation, unseen[:held]), unseen[held:], self.weight(tuple(sorted(unseen[:kept])))

    def weight(self, kept: tuple[int, ...]) -> float:
        """How well keeping ``kept`` explains the last play, in [floor, 1]."""
        found = self._weights.get(kept)
        if found is None:
            found = self._weights[kept] = max(self.floor, self._fit(kept))
        return found

    def _fit(self, kept: tuple[int, ...]) -> float:
        situation = self.situation
        play = situation.last_play
        assert play is not None
        rules = situation.rules
        before = _rack(situation, [*self._used, *kept])
        if len(before) > rules.rack_size:
            return 1.0
        model = self.static.leave_model(rules)
        # as they saw it: a full bag beyond their rack (the leave counts in full)
        seen = Situation(self._before, before, rules, situation.lexicon, (), rules.swap_min_bag + 7)
        best = self.static.best(seen, 1)[0]
        played = (play.score or 0) + model.value(_rack(situation, list(kept)))
        if isinstance(best, Placement):
            top = (best.score or 0) + model.value(before.leave([t for _, _, t in best.tiles]))
        elif isinstance(best, Swap):
            top = model.value(before.leave([board_tile(t) for t in best.tiles]))
        else:
            top = played
        return math.exp(-max(0.0, top - played) / self.temperature)


def _rack(situation: Situation, tiles: list[int]) -> Rack:
    return Rack.from_bag_tiles(situation.rules.alphabet, tiles)


__all__ = ["TEMPERATURE", "RackInference", "RackSource"]
