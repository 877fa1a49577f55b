"""The C endgame against the pure-Python reference (``engine.endgame.search``): both exact, so the same value,
and the C solver's move achieves it, on the 220 small endgames and on endgames of self-play (the C one
orders its moves differently, so their node counts differ); its budgets (nodes, an injected clock);
the strategies use it when the extension is built and the reference otherwise; hostile input raises
(in a subprocess, so that a crash fails a test instead of killing pytest)."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

import pytest

from engine import native
from engine.board.board import Board
from engine.board.move import Move, Pass
from engine.board.rack import Rack
from engine.endgame import native as nativeendgame
from engine.endgame import search as endgame
from engine.endgame.native import solve_endgame, solve_native
from engine.endgame.search import EndgameResult
from engine.equity.strategy import EndgameBudget, Equity, Situation
from engine.errors import PositionError
from engine.lexicon.dawg import Dawg
from engine.lookahead.simulation import Sim
from engine.rules.ruleset import Ruleset
from offline.bench.endgames import DEFAULT_FILE, Endgame, english, from_self_play, read
from tests.engine.endgame.test_endgame import ENDGAMES, minimax, small_endgames
from tests.engine.freshrun import run_module

pytestmark = pytest.mark.skipif(native.NATIVE is None, reason=f"the C generator is not in use: {native.describe()}")


def figures(result: EndgameResult) -> tuple[object, ...]:
    """Everything but the seconds."""
    return result.move, result.value, result.depth, result.complete, result.nodes


def achieved(board: Board, move: Move, mover: Rack, other: Rack, scoreless: int, lexicon: Dawg, rules: Ruleset) -> int:
    """The mover's final spread after ``move`` and best play from then on, by the reference."""

    def rest(first: Rack, second: Rack, after: int, _points: int) -> int:
        reply = endgame.solve(board, first, second, lexicon, rules, scoreless=after, seconds=math.inf)
        assert reply.complete
        return reply.value

    return endgame.move_value(board, move, mover, other, scoreless, rules, rest)


@cache
def real_endgames() -> tuple[Ruleset, Dawg, tuple[Endgame, ...]]:
    rules, lexicon = english()
    return rules, lexicon, tuple(read(DEFAULT_FILE, rules))


def test_the_native_solver_finds_the_references_value_on_small_endgames() -> None:
    for number, (board, mine, theirs, scoreless, dawg, rules) in enumerate(small_endgames(ENDGAMES)):
        before = [row[:] for row in board.grid]
        reference = endgame.solve(board, mine, theirs, dawg, rules, scoreless=scoreless, seconds=math.inf)
        result = solve_native(board, mine, theirs, dawg, rules, scoreless=scoreless, seconds=math.inf)
        label = f"endgame {number}: {mine.text()} vs {theirs.text()}, scoreless {scoreless}"
        assert result.complete and reference.complete, label
        assert result.value == reference.value, label
        assert board.grid == before, "the board is left as it was"
        if number % 4 == 0:
            assert achieved(board, result.move, mine, theirs, scoreless, dawg, rules) == result.value, label
        if number % 20 == 0:
            assert result.value == minimax(board, mine, theirs, scoreless, dawg, rules), label


@pytest.mark.parametrize("budget", [64, 1024, 4032])
def test_under_a_node_budget_it_stops_at_the_budget_with_the_same_result_each_time(budget: int) -> None:
    """The real 7-tile endgames do not finish within these budgets (looked at every 64 nodes): the search
    stops at that node, and a second run stops at the same place with the same move."""
    rules, lexicon, endgames = real_endgames()
    assert len(endgames) == 20 and all(len(e.mine) == len(e.theirs) == 7 for e in endgames)
    for e in endgames[:: 4 if budget > 1000 else 1]:
        result = solve_native(e.board, e.mine, e.theirs, lexicon, rules, seconds=math.inf, max_nodes=budget)
        again = solve_native(e.board, e.mine, e.theirs, lexicon, rules, seconds=math.inf, max_nodes=budget)
        assert figures(result) == figures(again), e.name
        assert not result.complete and result.nodes == budget


def self_play_endgames(count: int) -> Iterator[Endgame]:
    """Endgames of seeded self-play on a seed the data file was not made from (7 tiles each)."""
    rules, lexicon, _ = real_endgames()
    yield from from_self_play(count, 99, rules, lexicon)


def test_endgames_of_self_play_with_fewer_tiles_get_the_references_exact_value() -> None:
    """Real positions with short racks (tiles taken off the self-play racks) finish: the same exact value,
    and the native solver's move achieves it."""
    rules, lexicon, _ = real_endgames()
    solved = 0
    for number, e in enumerate(self_play_endgames(6)):
        for size in (1, 2, 3):
            mine = Rack.from_codes(rules.alphabet, e.mine.letters()[:size], min(e.mine.blanks, 1))
            theirs = Rack.from_codes(rules.alphabet, e.theirs.letters()[: size + number % 2])
            reference = endgame.solve(e.board, mine, theirs, lexicon, rules, seconds=math.inf, max_nodes=200_000)
            result = solve_native(e.board, mine, theirs, lexicon, rules, seconds=math.inf, max_nodes=200_000)
            label = (e.name, mine.text(), theirs.text())
            assert result.complete == reference.complete, label
            if result.complete:
                assert result.value == reference.value, label
                assert achieved(e.board, result.move, mine, theirs, 0, lexicon, rules) == result.value, label
            solved += result.complete
    assert solved >= 12


def test_the_time_budget_reads_the_injected_clock() -> None:
    rules, lexicon, endgames = real_endgames()
    e = endgames[0]
    readings: list[float] = []

    def clock() -> float:  # every reading is one second later
        readings.append(float(len(readings)))
        return readings[-1]

    result = solve_native(e.board, e.mine, e.theirs, lexicon, rules, seconds=3, clock=clock)
    # read at the start, every 64 nodes until 3 s have passed, and at the end
    assert len(readings) == 5 and result.nodes == 3 * 64
    assert not result.complete and result.seconds == 4.0
    unbounded = solve_native(e.board, e.mine, e.theirs, lexicon, rules, seconds=math.inf, max_nodes=3 * 64)
    assert figures(unbounded) == figures(result)  # the same search, stopped at the same node


def test_a_node_budget_gives_the_same_result_under_a_fast_and_a_slow_clock() -> None:
    rules, lexicon, endgames = real_endgames()
    e = endgames[3]
    ticks = iter(range(10**9))
    fast = solve_native(e.board, e.mine, e.theirs, lexicon, rules, seconds=100.0, max_nodes=5000, clock=lambda: 0.0)
    slow = solve_native(e.board, e.mine, e.theirs, lexicon, rules, seconds=10**9, max_nodes=5000,
                        clock=lambda: float(next(ticks)) * 1000)  # fmt: skip
    assert figures(fast) == figures(slow) and fast.nodes == 5056  # the first multiple of 64 from 5,000


def test_racks_and_counts_no_game_has_are_refused() -> None:
    rules, lexicon, endgames = real_endgames()
    e = endgames[0]
    with pytest.raises(PositionError, match="cannot occur"):
        solve_native(e.board, Rack.from_codes(rules.alphabet, [0] * 8), e.theirs, lexicon, rules)
    with pytest.raises(PositionError, match="-1 scoreless turns"):
        solve_native(e.board, e.mine, e.theirs, lexicon, rules, scoreless=-1)


def test_a_scoreless_count_past_the_end_means_the_next_pass_ends_the_game_as_in_the_reference() -> None:
    for board, mine, theirs, _, dawg, rules in list(small_endgames(40))[::4]:
        reference = endgame.solve(board, mine, theirs, dawg, rules, scoreless=5, seconds=math.inf)
        result = solve_native(board, mine, theirs, dawg, rules, scoreless=5, seconds=math.inf)
        assert result.complete and result.value == reference.value


def test_solve_endgame_takes_the_native_solver_when_built_and_the_reference_otherwise(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    board, mine, theirs, scoreless, dawg, rules = next(small_endgames(1))
    calls: list[str] = []

    def counted(name: str, solver: Callable[..., EndgameResult]) -> Callable[..., EndgameResult]:
        def call(*args: Any, **kwargs: Any) -> EndgameResult:
            calls.append(name)
            return solver(*args, **kwargs)

        return call

    monkeypatch.setattr(nativeendgame, "solve_native", counted("native", solve_native))
    monkeypatch.setattr(endgame, "solve", counted("python", endgame.solve))
    built = solve_endgame(board, mine, theirs, dawg, rules, scoreless=scoreless)
    monkeypatch.setattr(native, "NATIVE", None)  # as without the extension: Python generator and solver
    monkeypatch.setattr(native, "GENERATOR", "python")
    fallback = solve_endgame(board, mine, theirs, dawg, rules, scoreless=scoreless)
    assert calls == ["native", "python"]
    assert built.complete and fallback.complete and built.value == fallback.value


def test_the_strategies_play_the_native_solvers_move() -> None:
    """``equity+endgame`` and ``sim`` with the bag empty play what the C solver finds."""
    rules, lexicon, endgames = real_endgames()
    strategy = Equity(name="equity+endgame", solver=EndgameBudget(seconds=math.inf, nodes=3000))
    simulating = Sim(Equity(solver=EndgameBudget(seconds=math.inf, nodes=3000)))
    for e in endgames[:5]:
        unseen = tuple(sorted([*e.theirs.letters(), *[-1] * e.theirs.blanks]))
        situation = Situation(e.board, e.mine, rules, lexicon, unseen, 0, (0, 0), e.scoreless)
        chosen = strategy.best(situation, 1)[0]
        searched = solve_native(e.board, e.mine, e.theirs, lexicon, rules, seconds=math.inf, max_nodes=3000)
        assert chosen == searched.move and not isinstance(chosen, Pass)
        assert simulating.best(situation, 1)[0] == chosen


def run(*arguments: str) -> dict[str, Any]:
    """``python -m tests.engine.endgame_cases ARGUMENTS`` in a fresh interpreter: its closing JSON line."""
    return run_module("tests.engine.endgame_cases", *arguments, timeout=600)


def test_every_hostile_input_to_the_endgame_raises_a_named_error() -> None:
    result = run("cases")
    assert result["cases"] >= 30
    assert result["failures"] == []


def test_random_boards_and_racks_are_solved_without_a_crash() -> None:
    seen = run("fuzz", "--seed", "3", "--rounds", "60")
    assert seen["pass"] + seen["placement"] == 60
    assert seen["placement"] > 10 and seen["complete"] > 5 and seen["cut"] > 5, seen
