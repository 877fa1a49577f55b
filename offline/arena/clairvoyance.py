"""``see:rack:SPEC`` and ``see:kept:SPEC``: a ``sim`` that sees what the game hides, to measure what that is worth.

The arena shows these players the whole game before each of their decisions (``engine.players.arena.Watcher``), and
their simulation deals the opponent's racks from what they saw instead of inferring them:

- ``see:rack:SPEC`` deals the opponent's true rack in every playout; only the bag's order is left to chance.
- ``see:kept:SPEC`` deals the tiles the opponent kept at its last move (its rack less the tiles it drew then)
  plus a random draw from the other unseen tiles: what a perfect inference from that move could know.

SPEC is any ``sim`` strategy (``sim``, ``sim:OPTIONS``). In the pre-endgame the seen racks replace the
enumeration of every rack the opponent can hold. These players cheat: the bot never plays them, and they
play in the arena on the wall clock only (a strategy server process has no game to show them).

>>> seeing_strategy("see:kept:sim:candidates=4,seconds=0").sight
'kept'
"""

from __future__ import annotations

import random
from collections import Counter
from typing import ClassVar

from engine.board.rack import Rack
from engine.equity.strategy import Equity, Situation
from engine.game import Game
from engine.lookahead.simulation import Sim
from engine.players.registry import strategy_named
from engine.rules.tiles import board_tile
from offline.errors import ClairvoyanceError

#: A seeing player's name starts so: ``see:SIGHT:SPEC``.
SEE_PREFIX = "see:"
#: What a seeing player may see of the opponent's rack.
SIGHTS = ("rack", "kept")


class SeenTiles:
    """Deals the tiles of the opponent's rack that were seen plus a random draw of the rest of its rack from the
    other unseen tiles, which go to the bag in a random order (the whole rack seen: only the bag's order varies)."""

    enumerable: ClassVar[bool] = False

    def __init__(self, situation: Situation, seen: Rack) -> None:
        self.alphabet = situation.rules.alphabet
        self.seen = seen.bag_tiles()
        self.rest = _less(situation.unseen, self.seen)
        held = len(situation.unseen) - situation.bag_count
        self.drawn = held - len(self.seen)  # the rack's tiles not seen
        if self.drawn < 0:
            raise ClairvoyanceError(f"{len(self.seen)} of the opponent's tiles were seen but it holds {held}")

    def deal(self, rng: random.Random) -> tuple[Rack, list[int], float]:
        rest = list(self.rest)
        rng.shuffle(rest)
        rack = Rack.from_bag_tiles(self.alphabet, [*self.seen, *rest[: self.drawn]])
        return rack, rest[self.drawn :], 1.0


class Clairvoyant(Sim):
    """A ``sim`` whose simulation deals the opponent's racks from what the arena showed it (``sight``)."""

    def __init__(self, sim: Sim, sight: str, name: str) -> None:
        super().__init__(sim.static, sim.settings, name=name, clock=sim.clock, native=sim.native)
        self.sight = sight
        self._seen: Rack | None = None  # what the sight showed of the opponent's rack before this decision

    def watch(self, game: Game) -> None:
        """Take note of the opponent's rack, or (``kept``) of what it kept at its last move: its rack less the
        tiles that move drew (before its first move, nothing: all it holds was drawn)."""
        other = 1 - game.current
        rack = game.racks[other]
        if self.sight == "rack":
            self._seen = rack
            return
        last = game.history[-1] if game.history and game.history[-1].player == other else None
        drawn = rack.bag_tiles() if last is None else list(last.drawn)
        self._seen = rack.leave([board_tile(tile) for tile in drawn])

    def rack_source(self, situation: Situation, player: Equity) -> SeenTiles:
        if self._seen is None:
            raise ClairvoyanceError(f"{self.name} was asked to move without being shown the game (arenas only)")
        return SeenTiles(situation, self._seen)

    def budgeted(self, seconds: float) -> Clairvoyant:
        budgeted = Sim.budgeted(self, seconds)
        if budgeted is self:
            return self
        seeing = Clairvoyant(budgeted, self.sight, self.name)
        seeing._seen = self._seen
        return seeing


def is_seeing(name: str) -> bool:
    """Whether ``name`` asks for a seeing player (``see:SIGHT:SPEC``)."""
    return name.startswith(SEE_PREFIX)


def seeing_strategy(name: str, clock: str = "wall") -> Clairvoyant:
    """The seeing player ``see:SIGHT:SPEC``; ClairvoyanceError names what is wrong with the name."""
    if clock != "wall":
        raise ClairvoyanceError(f"{name}: a seeing player plays on the wall clock only (a server sees no game)")
    sight, _, spec = name[len(SEE_PREFIX) :].partition(":")
    if sight not in SIGHTS:
        raise ClairvoyanceError(f"{name}: expected see:SIGHT:SPEC with SIGHT one of {', '.join(SIGHTS)}, not {sight!r}")
    try:
        sim = strategy_named(spec)
    except ValueError as error:
        raise ClairvoyanceError(f"{name}: {error}") from None
    if not isinstance(sim, Sim):
        raise ClairvoyanceError(f"{name}: SPEC must be a sim strategy (sim or sim:OPTIONS), not {spec!r}")
    return Clairvoyant(sim, sight, name)


def _less(unseen: tuple[int, ...], tiles: list[int]) -> list[int]:
    """The unseen tiles less ``tiles``, sorted; ClairvoyanceError if some of those are not unseen."""
    pool = Counter(unseen)
    missing = Counter(tiles) - pool
    if missing:
        raise ClairvoyanceError(f"the opponent's tiles seen are not all unseen: {sorted(missing.elements())}")
    return sorted((pool - Counter(tiles)).elements())


__all__ = ["SEE_PREFIX", "SIGHTS", "Clairvoyant", "SeenTiles", "is_seeing", "seeing_strategy"]
