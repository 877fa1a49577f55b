"""The C self-play loop: the same turns as the Python loop, game for game, and hostile input refused.

The hostile cases run in a fresh interpreter (``tests/engine/selfplay_cases.py``), so that a crash fails a
test instead of killing pytest; the memory checker runs them too (``tests/engine/memcheck.py``).
"""

from __future__ import annotations

import random

import pytest

from engine import native
from engine.equity.leavesamples import played_turns, sample_game
from engine.equity.leavetable import learned_leave
from engine.equity.nativesamples import native_sample_game, native_turns, plays_natively
from engine.equity.strategy import Equity, Greedy
from engine.players.registry import strategy_named
from engine.rules.ruleset import Ruleset
from tests.engine.freshrun import run_module
from tests.engine.playout_cases import english

pytestmark = pytest.mark.skipif(native.NATIVE is None, reason=f"the C generator is not in use: {native.describe()}")

EN = Ruleset.for_id(5)


@pytest.mark.parametrize("explore", [0.0, 0.1, 1.0])
def test_the_c_loop_plays_the_python_loops_turns(explore: float) -> None:
    player = Equity()
    for seed in range(6):
        assert native_turns(player, EN, english(), seed, explore=explore) == played_turns(
            player, EN, english(), seed, explore=explore
        ), f"game {seed}"


def test_the_games_compared_swap_and_reshuffle_the_bag() -> None:
    """The comparison covers swaps (the bag put back and shuffled by Python's stream in C): a swap is a
    scoreless turn that keeps tiles."""
    player = Equity(swap_cost=-15.0)  # swaps often: the bag is reshuffled many times
    swaps = 0
    for seed in range(3):
        turns = played_turns(player, EN, english(), seed, explore=0.2)
        assert native_turns(player, EN, english(), seed, explore=0.2) == turns, f"game {seed}"
        swaps += sum(1 for _, score, kept in turns if score == 0 and kept is not None)
    assert swaps >= 5


def test_the_samples_are_the_python_loops() -> None:
    player = strategy_named("equity")
    assert native_sample_game(player, EN, english(), 11, explore=0.1) == sample_game(
        player, EN, english(), 11, explore=0.1
    )


def test_python_random_streams_in_c_match_pythons() -> None:
    """Every game here starts from another random state; one mismatch of shuffle, random() or _randbelow in
    C would change a game's turns (checked above on other seeds): here 20 states far into their streams."""
    player = Equity()
    rng = random.Random(5)
    for _ in range(20):
        seed = rng.getrandbits(62)
        assert native_turns(player, EN, english(), seed, explore=0.3) == played_turns(
            player, EN, english(), seed, explore=0.3
        )


def test_only_equity_with_a_learned_table_plays_in_c() -> None:
    assert plays_natively(Equity(), EN)
    assert plays_natively(Equity(learned_leave(EN)), EN)
    assert not plays_natively(Greedy(), EN)
    assert not plays_natively(strategy_named("equity-hand"), EN)
    assert native_turns(Greedy(), EN, english(), 1) is None


def test_hostile_input_raises_a_named_error() -> None:
    result = run_module("tests.engine.selfplay_cases", "cases")
    assert result["cases"] >= 25
    assert result["failures"] == []


def test_the_workload_runs_in_a_fresh_interpreter() -> None:
    result = run_module("tests.engine.selfplay_cases", "workload")
    assert result["turns"] > 60 and result["mismatches"] == []
