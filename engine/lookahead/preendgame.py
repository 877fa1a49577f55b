"""One tile in the bag, solved exactly: every placement draws the last tile, so both racks are known.

With one tile in the bag the unseen tiles are the opponent's rack and that one tile. A placement of
ours empties the bag (we draw the tile), and what follows is an endgame with both racks known, the
opponent to move, which the exact endgame search values. So a placement's value is exact over the
possible splits of the unseen tiles (which of them is in the bag), each counted by the number of ways
the unseen tiles give it; the simulation's two static replies and the leaves at its horizon only
approximate this. ``Sim`` re-ranks its best placements by it (``SimSettings.exact_candidates``). Some of
these endgames are huge (an opponent's full rack against ours): a search that does not finish within its
nodes leaves the move's value unknown rather than guessed. ``opponent_racks`` lists the racks the opponent
can hold with their weights, for these splits and for the simulation's pre-endgame (1 to 6 tiles in the
bag), which plays each of them out once.

>>> from engine.rules.ruleset import Ruleset
>>> splits = bag_splits((0, 0, 1, 2, 3, 4, 5, 6), Ruleset.for_id(5).alphabet)  # AABCDEFG
>>> [(tile, theirs.text(), ways) for tile, theirs, ways in splits][:2]
[(0, 'ABCDEFG', 2), (1, 'AACDEFG', 1)]
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.board.move import Placement, kept
from engine.board.rack import Rack
from engine.endgame.native import solve_endgame
from engine.equity.strategy import Situation
from engine.rules.tiles import Alphabet


@dataclass(frozen=True)
class ExactValue:
    """A placement's exact one-in-bag value: the share of splits (weighted by their ways) after which we
    finish ahead (a tie counts a half) and the mean final lead, when every search finished (``complete``;
    NaN otherwise), and the nodes searched."""

    move: Placement
    wins: float
    mean: float
    complete: bool
    nodes: int


def opponent_racks(unseen: Sequence[int], held: int, limit: float = math.inf) -> list[tuple[list[int], int]] | None:
    """Every distinct rack of ``held`` of the ``unseen`` tiles with the number of ways the unseen tiles give it
    (a product of binomials), the most copies of the lowest tiles first; None when there are more than ``limit``.

    >>> opponent_racks((0, 0, 1), 2)
    [([0, 0], 1), ([0, 1], 2)]
    """
    pool = Counter(unseen)
    tiles = sorted(pool)
    racks: list[tuple[list[int], int]] = []

    def choose(index: int, left: int, taken: list[int], ways: int) -> None:
        if len(racks) > limit:
            return
        if left == 0:
            racks.append((list(taken), ways))
            return
        if index == len(tiles):
            return
        tile = tiles[index]
        for count in range(min(left, pool[tile]), -1, -1):
            choose(index + 1, left - count, taken + [tile] * count, ways * math.comb(pool[tile], count))

    choose(0, held, [], 1)
    return None if len(racks) > limit else racks


def bag_splits(unseen: Sequence[int], alphabet: Alphabet) -> list[tuple[int, Rack, int]]:
    """Each distinct tile the bag can hold, with the opponent's rack (the other unseen tiles) and the
    number of ways (copies of that tile among the unseen)."""
    pool = Counter(unseen)
    splits = []
    for rack, ways in opponent_racks(unseen, len(unseen) - 1) or []:
        (tile,) = (pool - Counter(rack)).elements()
        splits.append((tile, Rack.from_bag_tiles(alphabet, rack), ways))
    return sorted(splits, key=lambda split: split[0])


def exact_values(
    situation: Situation,
    moves: Sequence[Placement],
    *,
    nodes: int,
    seconds: float = math.inf,
    clock: Callable[[], float] = time.monotonic,
) -> list[ExactValue]:
    """The exact value of each of ``moves`` with one tile in the bag (ValueError otherwise), in their order.
    Each endgame search gets at most ``nodes`` nodes (a count: the same values on every machine) and an
    equal share of what is left of ``seconds`` on ``clock``. A search that does not finish leaves its move's
    value unknown (``complete`` False, ``wins`` and ``mean`` NaN: an unfinished search's shallower value
    leaves the tiles still held out of account) and the move's other tiles are not searched. When the time
    is spent, the moves not yet valued are left out (the first ones are valued first)."""
    if situation.bag_count != 1:
        raise ValueError(f"the exact pre-endgame needs one tile in the bag, not {situation.bag_count}")
    rules = situation.rules
    splits = bag_splits(situation.unseen, rules.alphabet)
    spread = situation.scores[0] - situation.scores[1]
    board = situation.board
    timed = math.isfinite(seconds)
    started = clock()
    left = len(moves) * len(splits)  # the searches still to come, which share the time left
    values = []
    for move in moves:
        if timed and clock() - started >= seconds:
            break
        wins = total = weight = 0.0
        used = 0
        for done, (tile, theirs, ways) in enumerate(splits, 1):
            share = max(0.0, seconds - (clock() - started)) / left if timed else math.inf
            ours = kept(situation.rack, move).drawn([tile])
            board.place(move.tiles)
            try:
                found = solve_endgame(
                    board, theirs, ours, situation.lexicon, rules, seconds=share, clock=clock, max_nodes=nodes
                )
            finally:
                board.undo()
            used += found.nodes
            if not found.complete:
                left -= len(splits) - done + 1
                values.append(ExactValue(move, math.nan, math.nan, False, used))
                break
            left -= 1
            lead = spread + (move.score or 0) - found.value
            wins += ways * (1.0 if lead > 0 else 0.5 if lead == 0 else 0.0)
            total += ways * lead
            weight += ways
        else:
            values.append(ExactValue(move, wins / weight, total / weight, True, used))
    return values


__all__ = ["ExactValue", "bag_splits", "exact_values", "opponent_racks"]
