"""The opponent's reply shared between the candidates of a draw (``engine/csrc/reply/share.c``): the
kernel searches each line of the position's board once per draw and leave weight, and each candidate
only the lines its tiles changed. Every value must still be the reference's (``Simulator._play_out``),
also for candidates that block the opponent's best move on the position's board (a tile on one of its
squares) or change its line next to it, for swaps among the candidates, and for candidates after which
different numbers of tiles are left in the bag (a different leave weight for the same opponent rack).
With the bag empty the static endgame's out-plays are shared the same way between the moves it tries
(only the lines a move changed are searched again); candidates that empty the bag reach it."""

from __future__ import annotations

import random
from functools import cache

import pytest

from engine import native
from engine.board.move import Move, Pass, Placement, Swap
from engine.equity.strategy import Equity, Situation
from engine.lookahead.playout import NativePlayouts
from engine.lookahead.simulation import SimSettings, Simulator
from engine.movegen.generate import generate
from tests.engine.playout_cases import english, positions

pytestmark = pytest.mark.skipif(native.NATIVE is None, reason=f"the C generator is not in use: {native.describe()}")

DRAWS = 3


@cache
def situations() -> list[Situation]:
    """Positions of seeded games other than test_playout.py's, the last ones before the bag is empty included."""
    return positions(english(), range(300, 308), every=7)


def squares(move: Move) -> set[tuple[int, int]]:
    return {(row, col) for row, col, _ in move.tiles} if isinstance(move, Placement) else set()


def around(cells: set[tuple[int, int]]) -> set[tuple[int, int]]:
    return {(r + dr, c + dc) for r, c in cells for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))} - cells


def near_the_reply(situation: Situation, reply: Move) -> list[Placement]:
    """Up to three of our placements on a square of ``reply`` (blocking it) and three next to it
    (changing its line's cross-checks and anchors), the highest scores first."""
    taken = squares(reply)
    if not taken:
        return []
    ours = generate(situation.board, situation.rack, situation.lexicon, situation.rules)
    ours.sort(key=lambda m: -(m.score or 0))
    blocking = [m for m in ours if squares(m) & taken][:3]
    beside = [m for m in ours if not squares(m) & taken and squares(m) & around(taken)][:3]
    return [*blocking, *beside]


def swaps(situation: Situation) -> list[Move]:
    if situation.bag_count < situation.rules.swap_min_bag:
        return []
    tiles = situation.rack.bag_tiles()
    return [Swap(tuple(tiles[:1])), Swap(tuple(tiles[: max(1, len(tiles) - 1)]))]


def left_after(situation: Situation, move: Move) -> int:
    return max(0, situation.bag_count - len(move.tiles)) if isinstance(move, Placement) else situation.bag_count


def test_shared_replies_give_the_reference_values() -> None:
    playouts = blocked = changed_reply = weights_mixed = swapped = emptied = 0
    for index, situation in enumerate(situations()):
        equity = Equity()
        kernel = NativePlayouts.for_situation(situation, equity)
        assert kernel is not None
        simulator = Simulator(equity, SimSettings(), rng=random.Random(1000 + index))
        model = equity.leave_model(situation.rules)
        for _ in range(DRAWS):
            theirs, bag, weight = simulator._deal(situation)
            base_reply = simulator._best(situation.board, theirs, situation.rack, list(bag), situation)
            near = near_the_reply(situation, base_reply)
            candidates = [*equity.best(situation, 4), *near, *swaps(situation), Pass()]
            row = kernel.run(candidates, [(theirs, bag, weight)])[0]
            expected = [simulator._play_out(situation, move, theirs, list(bag), model) for move in candidates]
            assert row == expected, (index, situation.bag_count, situation.rack.text(), candidates)
            playouts += len(row)
            swapped += sum(isinstance(move, Swap) for move in candidates) >= 2
            lefts = {left_after(situation, move) for move in candidates if isinstance(move, Placement)}
            weights_mixed += len({min(left, 7) for left in lefts if left > 0}) >= 2
            emptied += 0 in lefts
            for move in near:
                blocked += bool(squares(move) & squares(base_reply))
                board = situation.board.copy()
                board.place(move.tiles)
                mine = situation.rack.leave([tile for _, _, tile in move.tiles])
                after = simulator._best(board, theirs, mine, list(bag)[len(move.tiles) :], situation)
                changed_reply += after != base_reply
    counts = (playouts, blocked, changed_reply, weights_mixed, swapped, emptied)
    assert all(count >= least for count, least in zip(counts, (1000, 50, 50, 10, 20, 10), strict=True)), counts
