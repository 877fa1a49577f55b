"""The simulation's playouts in C: a batch of draws for every candidate in one call.

``Simulator._play_out`` (``engine/lookahead/simulation.py``) is the readable reference;
``engine/csrc/playout/playout.c`` plays the same three moves with the same static player (``Equity`` with the
learned leave model) on the same draws and returns the same values. Python keeps drawing (so the draws come from
the injected ``random.Random`` as before), the statistics, the pruning and the budget.

``NativePlayouts.for_situation`` returns None when the kernel cannot stand in for the reference: the
C extension is not in use, or the leave model is not a learned table (the hand-made model exists only
in Python).
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine import native
from engine.board.move import Move, Placement, Swap
from engine.board.rack import Rack
from engine.equity import native as leavenative
from engine.equity.leavetable import LearnedLeave
from engine.equity.strategy import Equity, Situation
from engine.errors import EngineError
from engine.movegen.generate import check

#: One draw: the opponent's rack, the bag in drawing order, the draw's weight.
Draw = tuple[Rack, list[int], float]

_PLACE, _SWAP, _PASS = 0, 1, 2


def encode_moves(moves: Sequence[Move]) -> array[int]:
    """The candidates in the kernel's flat form: per move kind, tile count, score, then (row, col, tile)
    per tile of a placement or the bag tiles (``BLANK`` for a blank) of a swap."""
    flat = array("i")
    for move in moves:
        if isinstance(move, Placement):
            flat.extend((_PLACE, len(move.tiles), move.score or 0))
            for square in move.tiles:
                flat.extend(square)
        elif isinstance(move, Swap):
            flat.extend((_SWAP, len(move.tiles), 0, *move.tiles))
        else:
            flat.extend((_PASS, 0, 0))
    return flat


@dataclass(frozen=True)
class NativePlayouts:
    """The kernel's fixed arguments for one situation and static player."""

    situation: Situation
    player: Equity
    leave: Any  # the C side's LeaveTable

    @classmethod
    def for_situation(cls, situation: Situation, player: Equity) -> NativePlayouts | None:
        """The kernel for this situation, or None when only the Python reference can play it out."""
        if native.GENERATOR != "native":
            return None
        model = player.leave_model(situation.rules)
        if not isinstance(model, LearnedLeave):
            return None
        check(situation.board, situation.rack, situation.lexicon, situation.rules)
        return cls(situation, player, leavenative.leave_table(model))

    def run(
        self, moves: Sequence[Move], draws: Sequence[Draw], plies: int = 2, to_end: bool = False
    ) -> list[list[float]]:
        """The value of each move (columns) in each draw (rows) with ``plies`` replies (``to_end``: and on to the
        game's end once the bag is empty), as ``Simulator._play_out`` gives it."""
        if not draws:
            return []
        held = len(draws[0][0])
        bag = len(draws[0][1])
        flat = flat_draws(draws, held, bag)
        situation = self.situation
        rules = situation.rules
        result = native.extension().playouts(
            lexicon=native.lexicon(situation.lexicon), rules=native.rules(rules), leave=self.leave,
            grid=situation.board.grid, counts=list(situation.rack.counts), blanks=situation.rack.blanks,
            candidates=encode_moves(moves), ncandidates=len(moves), draws=flat, held=held, bag=bag,
            swap_cost=self.player.swap_cost, swap_min_bag=rules.swap_min_bag,
            endgame_width=self.player.endgame_width, plies=plies, to_end=int(to_end),
        )
        return value_rows(result, len(draws), len(moves))

    def session(
        self, moves: Sequence[Move], held: int, bag: int, plies: int = 2, to_end: bool = False
    ) -> NativeSession:
        """The kernel set up once for ``moves`` and draws of ``held`` tiles for the opponent and ``bag`` in the
        bag: each ``NativeSession.run`` plays draws for some of the moves, as ``run`` would for them, on the
        board and rack as they are now (the session keeps a copy)."""
        situation = self.situation
        rules = situation.rules
        made = native.extension().playout_session(
            lexicon=native.lexicon(situation.lexicon), rules=native.rules(rules), leave=self.leave,
            grid=situation.board.grid, counts=list(situation.rack.counts), blanks=situation.rack.blanks,
            candidates=encode_moves(moves), ncandidates=len(moves), held=held, bag=bag,
            swap_cost=self.player.swap_cost, swap_min_bag=rules.swap_min_bag,
            endgame_width=self.player.endgame_width, plies=plies, to_end=int(to_end),
        )
        return NativeSession(made, held, bag)


def flat_draws(draws: Sequence[Draw], held: int, bag: int) -> array[int]:
    """The draws in the kernel's flat form (per draw the opponent's tiles, then the bag's), each of ``held``
    and ``bag`` tiles (EngineError otherwise)."""
    flat = array("i")
    for theirs, tiles, _ in draws:
        if len(theirs) != held or len(tiles) != bag:
            raise EngineError("every draw of a batch must give the opponent and the bag the same number of tiles")
        flat.extend(theirs.bag_tiles())
        flat.extend(tiles)
    return flat


def value_rows(result: bytes, draws: int, width: int) -> list[list[float]]:
    """The kernel's doubles (``width`` a draw, draw after draw) as one row of values per draw."""
    unpacked = array("d")
    unpacked.frombytes(result)
    values = unpacked.tolist()
    return [values[i * width : (i + 1) * width] for i in range(draws)]


@dataclass(frozen=True)
class NativeSession:
    """The kernel of one position and its candidates kept between calls (``NativePlayouts.session``): a
    simulation under a time budget plays one draw a call, and the set-up is made once."""

    made: Any  # the C side's PlayoutSession
    held: int
    bag: int

    def run(self, draws: Sequence[Draw], playing: Sequence[int]) -> list[list[float]]:
        """The value of each candidate of ``playing`` (indices into the session's moves; columns) in each draw
        (rows), as ``NativePlayouts.run`` gives them for those moves."""
        if not draws:
            return []
        result = self.made.run(flat_draws(draws, self.held, self.bag), array("i", playing))
        return value_rows(result, len(draws), len(playing))


__all__ = ["Draw", "NativePlayouts", "NativeSession", "encode_moves", "flat_draws"]
