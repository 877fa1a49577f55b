"""The C endgame's iterations (``engine/csrc/endgame/solve.c``): depth 2, then the whole depth at once;
and when a budget runs out inside an iteration, the move returned is the last finished
iteration's, or a root move the unfinished one proved better than it (tried first there), never a move
that is merely searched."""

from __future__ import annotations

import math

import pytest

from engine import native
from engine.board.board import Board
from engine.board.move import Move
from engine.board.rack import Rack
from engine.endgame import search as endgame
from engine.endgame.native import solve_native
from tests.engine.endgame.test_native import real_endgames

pytestmark = pytest.mark.skipif(native.NATIVE is None, reason=f"the C generator is not in use: {native.describe()}")


def exact(board: Board, move: Move, mover: Rack, other: Rack) -> int:
    """The mover's final spread after ``move`` and best play from then on (the C solver to the end)."""
    rules, lexicon, _ = real_endgames()

    def rest(first: Rack, second: Rack, after: int, _points: int) -> int:
        reply = solve_native(board, first, second, lexicon, rules, scoreless=after, seconds=math.inf)
        assert reply.complete
        return reply.value

    return endgame.move_value(board, move, mover, other, 0, rules, rest)


def test_the_iterations_are_depth_2_then_the_whole_depth() -> None:
    rules, lexicon, endgames = real_endgames()
    e = next(e for e in endgames if e.name == "g51")
    whole = solve_native(e.board, e.mine, e.theirs, lexicon, rules, seconds=math.inf)
    assert whole.complete and whole.depth == 64  # the default max_depth, searched at once
    shallow = [
        solve_native(e.board, e.mine, e.theirs, lexicon, rules, seconds=math.inf, max_depth=d) for d in (2, 3, 4)
    ]
    assert [r.depth for r in shallow] == [2, 3, 4] and not any(r.complete for r in shallow)
    # depth 3 is 2 then 3, depth 4 is 2 then 4: both pay the same depth-2 iteration first
    assert shallow[1].nodes > shallow[0].nodes and shallow[2].nodes > shallow[0].nodes
    for budget in range(shallow[0].nodes + 64, whole.nodes, (whole.nodes - shallow[0].nodes) // 5):
        stopped = solve_native(e.board, e.mine, e.theirs, lexicon, rules, seconds=math.inf, max_nodes=budget)
        assert stopped.depth == 2 and not stopped.complete, budget  # no iteration between 2 and the whole


def test_a_budget_spent_in_the_whole_search_returns_a_move_it_proved_better() -> None:
    """On g57 the depth-2 iteration's move is not the best: the whole search proves a better one early,
    and a budget that stops it after that returns it (its exact value at least the value returned)."""
    rules, lexicon, endgames = real_endgames()
    e = next(e for e in endgames if e.name == "g57")
    two = solve_native(e.board, e.mine, e.theirs, lexicon, rules, seconds=math.inf, max_depth=2)
    whole = solve_native(e.board, e.mine, e.theirs, lexicon, rules, seconds=math.inf)
    assert whole.complete and whole.move != two.move
    two_exact = exact(e.board, two.move, e.mine, e.theirs)
    assert two_exact < whole.value
    better = 0
    for budget in range(two.nodes + 64, whole.nodes, (whole.nodes - two.nodes) // 8):
        stopped = solve_native(e.board, e.mine, e.theirs, lexicon, rules, seconds=math.inf, max_nodes=budget)
        assert stopped.depth == 2 and not stopped.complete
        if stopped.move != two.move:
            assert exact(e.board, stopped.move, e.mine, e.theirs) >= stopped.value > two_exact, budget
            better += 1
    assert better >= 4
