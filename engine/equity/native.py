"""The equity kernel of the C extension: the best moves by equity, and the leave values it reads.

``top_equity`` ranks as ``Equity.rank`` does without a Python object for the other moves; the leave
model reaches C as a learned table's weights (``leave_table``) or as the value of every kept multiset.
"""

from __future__ import annotations

from array import array
from functools import cache
from typing import TYPE_CHECKING, Any

from engine.board.rack import Rack
from engine.equity.leavetable import LearnedLeave
from engine.native import extension, lexicon, rules

if TYPE_CHECKING:
    from engine.board.board import Board
    from engine.board.move import Placement
    from engine.equity.leave import LeaveModel
    from engine.lexicon.dawg import Dawg
    from engine.rules.ruleset import Ruleset

Ranked = tuple[list[tuple[float, "Placement"]], list[tuple[float, tuple[int, ...]]]]


def top_equity(
    board: Board,
    rack: Rack,
    dawg: Dawg,
    ruleset: Ruleset,
    model: LeaveModel | None,
    *,
    k: int,
    weight: float,
    swaps: int,
    swap_cost: float,
) -> Ranked:
    """The ``k`` best placements by equity (score + ``weight`` x the value of the tiles kept) and the
    ``swaps`` best swaps (value kept - ``swap_cost``), ranked as ``Equity.rank`` ranks them, without
    a Python object for the other moves. ``model`` None: every leave is worth 0."""
    leave = leave_table(model) if isinstance(model, LearnedLeave) else kept_values(rack, model)
    result: Ranked = extension().top_equity(
        lexicon=lexicon(dawg), rules=rules(ruleset), grid=board.grid, counts=rack.counts, blanks=rack.blanks,
        leave=leave, k=k, weight=weight, swaps=swaps, swap_cost=swap_cost,
    )
    return result


@cache
def leave_table(model: LearnedLeave) -> Any:
    """The C side's copy of a learned leave model's weights, made once per model."""
    features = model.features
    vowels = sum(1 << code for code in features.vowels)
    return extension().LeaveTable(array("d", model.weights), len(features.symbols), vowels, features.max_size)


def kept_values(rack: Rack, model: LeaveModel | None) -> list[float]:
    """The value of every multiset of ``rack``'s tiles that a move can keep, in the C side's order:
    mixed radix over the rack's distinct tiles (its letters in code order, then the blank); all 0
    without a model."""
    distinct = [(code, count) for code, count in enumerate(rack.counts) if count]
    if rack.blanks:
        distinct.append((-1, rack.blanks))
    total = 1
    for _, count in distinct:
        total *= count + 1
    if model is None:
        return [0.0] * total
    values = []
    for index in range(total):
        counts = [0] * len(rack.counts)
        blanks = 0
        rest = index
        for code, count in distinct:
            kept = rest % (count + 1)
            rest //= count + 1
            if code < 0:
                blanks = kept
            else:
                counts[code] = kept
        values.append(model.value(Rack(rack.alphabet, tuple(counts), blanks)))
    return values


__all__ = ["Ranked", "kept_values", "leave_table", "top_equity"]
