"""Our reply shared between the candidates of a draw that keep the same tiles (``engine/csrc/playout/playout.c``,
``replyshare.c``), and the reply search's other shortcuts (the rack's left parts walked once,
``leftparts.c``; a word offered only when its score with the best leave of its size can enter the list,
``search.c``).

Candidates that keep the same tiles draw the same tiles, so our reply is searched from the same rack on
each of their boards; the lines neither the candidate nor the opponent's reply changed are searched
once for all of them. Every value must still be the reference's (``Simulator._play_out``): groups of
placements that use the same tiles on different squares (some of them blocking or changing each other's
best reply), a swap of the same tiles as a placement, a pass beside candidates that keep every tile,
racks with blanks, and positions whose bag is nearly empty (a leave weight below 1, the static endgame
reached after the opponent's reply)."""

from __future__ import annotations

import random
from collections import defaultdict
from functools import cache

import pytest

from engine import native
from engine.board.move import Move, Pass, Placement, Swap
from engine.board.rack import Rack
from engine.equity.strategy import Equity, Situation
from engine.lookahead.playout import NativePlayouts
from engine.lookahead.simulation import SimSettings, Simulator
from engine.movegen.generate import generate
from tests.engine.playout_cases import english, positions

pytestmark = pytest.mark.skipif(native.NATIVE is None, reason=f"the C generator is not in use: {native.describe()}")

DRAWS = 2


@cache
def situations() -> list[Situation]:
    """Positions of seeded games other than the other playout tests', the last ones before the bag is empty
    included."""
    return positions(english(), range(320, 326), every=6)


def kept(situation: Situation, move: Placement) -> Rack:
    return situation.rack.leave([tile for _, _, tile in move.tiles])


def same_leaves(situation: Situation) -> list[list[Placement]]:
    """Up to three groups of up to three placements that keep the same tiles (two or more each), the
    groups of the highest-scoring placements first."""
    moves = generate(situation.board, situation.rack, situation.lexicon, situation.rules)
    moves.sort(key=lambda m: (-(m.score or 0), m.tiles))
    groups: dict[Rack, list[Placement]] = defaultdict(list)
    for move in moves:
        if isinstance(move, Placement):
            groups[kept(situation, move)].append(move)
    shared = [members[:3] for members in groups.values() if len(members) >= 2]
    return shared[:3]


def swap_like(situation: Situation, move: Placement) -> list[Move]:
    """A swap of the tiles the placement plays (the same leave), when the bag allows swaps."""
    if situation.bag_count < situation.rules.swap_min_bag:
        return []
    tiles = tuple(-1 if tile & 64 else tile for _, _, tile in move.tiles)
    return [Swap(tuple(sorted(tiles)))]


def test_candidates_that_keep_the_same_tiles_give_the_reference_values() -> None:
    playouts = grouped = swap_groups = blank_racks = short_bags = 0
    for index, situation in enumerate(situations()):
        groups = same_leaves(situation)
        if not groups:
            continue
        equity = Equity()
        kernel = NativePlayouts.for_situation(situation, equity)
        assert kernel is not None
        simulator = Simulator(equity, SimSettings(), rng=random.Random(2000 + index))
        model = equity.leave_model(situation.rules)
        # the groups interleaved with the static best, so that a group's members are not next to each other
        candidates: list[Move] = [*equity.best(situation, 2)]
        for members in groups:
            candidates.extend(members)
        candidates.extend(swap_like(situation, groups[0][0]))
        candidates.append(Pass())
        candidates.append(groups[0][0])  # the same move twice: one group, one rack
        for _ in range(DRAWS):
            theirs, bag, weight = simulator._deal(situation)
            row = kernel.run(candidates, [(theirs, bag, weight)])[0]
            expected = [simulator._play_out(situation, move, theirs, list(bag), model) for move in candidates]
            assert row == expected, (index, situation.bag_count, situation.rack.text(), candidates)
            playouts += len(row)
        grouped += len(groups)
        swap_groups += any(isinstance(move, Swap) for move in candidates)
        blank_racks += situation.rack.blanks > 0
        short_bags += situation.bag_count < 7
    counts = (playouts, grouped, swap_groups, blank_racks, short_bags)
    assert all(count >= least for count, least in zip(counts, (400, 60, 10, 2, 3), strict=True)), counts
