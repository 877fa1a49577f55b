"""The 2-ply simulation: common random numbers, pruning, the budget on an injected clock, the same
choice for the same position, the board left as it was, and the ``sim`` strategy's names."""

from __future__ import annotations

import copy
import dataclasses
import math
import random
from collections.abc import Callable
from functools import cache

import pytest

from dictionaries import bundled_path
from engine.board.move import Placement, Swap
from engine.equity.strategy import Equity, Situation
from engine.game import Game
from engine.lexicon.dawg import Dawg
from engine.lookahead.inference import RackInference
from engine.lookahead.simulation import Sim, SimSettings, Simulator
from engine.movegen.generate import generate
from engine.players.registry import SIM_ENDGAME_NODES, strategy_named
from engine.rules.ruleset import Ruleset

EN = Ruleset.for_id(5)


@cache
def english() -> Dawg:
    return Dawg.load(bundled_path("en/enable.dawg"), EN.alphabet)


def seen_by_mover(game: Game, last_play: Placement | None = None) -> Situation:
    """The game as the player to move sees it."""
    seat = game.current
    scores = (game.scores[seat], game.scores[1 - seat])
    unseen = tuple(game.unseen(seat))
    return Situation(game.board, game.rack, EN, english(), unseen, len(game.bag), scores, last_play=last_play)


def played(seed: int, until: Callable[[Game], bool]) -> Game:
    """A seeded game played by equity until ``until(game)`` holds."""
    game = Game(EN, english(), random.Random(seed))
    equity = Equity()
    while not until(game):
        game.play(equity.best(seen_by_mover(game), 1)[0])
    return game


def midgame(seed: int, turns: int = 6) -> Situation:
    """A position after a few equity moves of a seeded game, from the side to move."""
    return seen_by_mover(played(seed, lambda game: len(game.history) >= turns))


def test_identical_candidates_see_identical_luck() -> None:
    situation = midgame(1)
    best = Equity().best(situation, 1)[0]
    simulator = Simulator(Equity(), SimSettings(max_iterations=30, seconds=float("inf"), min_iterations=10**6))
    result = simulator.simulate(situation, [best, best])
    first, second = result.ranked
    assert result.iterations == 30
    assert (first.total, first.squares, first.wins) == (second.total, second.squares, second.wins)


def test_the_board_is_left_as_it_was() -> None:
    situation = midgame(2)
    before = copy.deepcopy(situation.board.grid)
    candidates = Equity().best(situation, 6)
    Simulator(Equity(), SimSettings(max_iterations=20, seconds=float("inf"))).simulate(situation, candidates)
    assert situation.board.grid == before


def test_a_clearly_worse_candidate_is_dropped() -> None:
    situation = midgame(7)
    ranked = Equity().rank(situation, generate(situation.board, situation.rack, situation.lexicon, situation.rules))
    placements = [m for m in ranked if isinstance(m, Placement)]
    best, worst = placements[0], min(placements, key=lambda m: m.score or 0)
    assert (best.score or 0) - (worst.score or 0) >= 20
    settings = SimSettings(max_iterations=200, seconds=float("inf"), min_iterations=10)
    result = Simulator(Equity(), settings).simulate(situation, [worst, best])
    assert result.ranked[0].move == best
    assert not result.ranked[1].alive and result.iterations < 200  # pruned, and the run stopped early


def test_identical_candidates_end_the_simulation_at_the_first_pruning() -> None:
    """Two candidates that play out alike cannot be told apart: the later one is dropped as soon as
    pruning starts, instead of both running to the iteration limit."""
    situation = midgame(1)
    best = Equity().best(situation, 1)[0]
    settings = SimSettings(max_iterations=400, seconds=float("inf"), min_iterations=12)
    result = Simulator(Equity(), settings).simulate(situation, [best, best])
    assert result.iterations == 12 and result.playouts == 24
    assert result.ranked[0].static_rank == 0 and result.ranked[0].alive and not result.ranked[1].alive


def test_the_playout_budget_counts_the_candidates_in_the_running() -> None:
    situation = midgame(4)
    candidates = Equity().best(situation, 4)
    settings = SimSettings(max_iterations=400, max_playouts=41, seconds=float("inf"), min_iterations=10**6)
    result = Simulator(Equity(), settings).simulate(situation, candidates)
    assert (result.iterations, result.playouts) == (11, 44)  # four a time; the eleventh iteration passes 41


def test_the_budget_is_read_from_the_injected_clock() -> None:
    situation = midgame(4)
    ticks = iter(range(10**6))
    settings = SimSettings(max_iterations=10**6, seconds=5.0, min_iterations=10**6)
    simulator = Simulator(Equity(), settings, clock=lambda: float(next(ticks)))
    result = simulator.simulate(situation, Equity().best(situation, 4))
    # one reading at the start, one before each iteration: the sixth reading says 5 s have passed
    assert result.iterations == 5


def test_the_same_position_gets_the_same_choice() -> None:
    situation = midgame(5)
    settings = SimSettings(candidates=5, max_iterations=25, seconds=float("inf"))
    first = Sim(settings=settings).best(situation, 3)
    second = Sim(settings=settings).best(situation, 3)
    assert first == second and len(first) == 3
    assert first[0] in Equity().best(situation, 5)  # the choice is one of the static candidates


def test_with_the_bag_empty_sim_plays_the_endgame() -> None:
    game = played(9, lambda game: not game.bag or game.is_over)
    assert not game.bag and not game.is_over
    situation = seen_by_mover(game)
    sim = Sim()
    assert sim.best(situation, 1) == sim.static.best(situation, 1)


def test_sim_options_in_the_name() -> None:
    sim = strategy_named("sim:candidates=3,iterations=7,seconds=0")
    assert isinstance(sim, Sim)
    assert (sim.settings.candidates, sim.settings.max_iterations, sim.settings.seconds) == (3, 7, float("inf"))
    assert sim.name == "sim:candidates=3,iterations=7,seconds=0"
    assert isinstance(strategy_named("sim"), Sim)
    playouts = strategy_named("sim:playouts=900,seconds=0")
    assert isinstance(playouts, Sim) and playouts.settings.max_playouts == 900
    assert playouts.settings.candidates == SimSettings().candidates  # the other settings keep their defaults
    assert strategy_named("sim:z=2.5,seconds=0").settings.z == 2.5  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="sim option z='0': expected a positive number"):
        strategy_named("sim:z=0")
    with pytest.raises(ValueError, match="is not one of candidates, iterations, playouts, z, seconds"):
        strategy_named("sim:depth=2")
    # the endgame search's node budget: an option, counted alone under fixed work, timed with the move
    fixed = strategy_named("sim:endgame=1234,seconds=0")
    assert isinstance(fixed, Sim) and fixed.static.solver is not None
    assert (fixed.static.solver.nodes, fixed.static.solver.seconds) == (1234, float("inf"))
    timed = strategy_named("sim")
    assert isinstance(timed, Sim) and timed.static.solver is not None
    assert (timed.static.solver.nodes, timed.static.solver.seconds) == (SIM_ENDGAME_NODES, SimSettings().seconds)
    with pytest.raises(ValueError, match=r"endgame='0\.5': expected a whole number"):
        strategy_named("sim:endgame=0.5")
    with pytest.raises(ValueError, match="iterations='many': expected a number"):
        strategy_named("sim:iterations=many")
    with pytest.raises(ValueError, match="candidates='0': expected a whole number"):
        strategy_named("sim:candidates=0")


def test_plies_options_in_the_name() -> None:
    """``plies`` sets the replies of a playout; ``pliesbelow`` plays them only late, 2 before."""
    deep = strategy_named("sim:plies=4,pliesbelow=16,seconds=0")
    assert isinstance(deep, Sim) and (deep.settings.plies, deep.settings.plies_below) == (4, 16)
    assert (SimSettings().plies, SimSettings().plies_below) == (2, None)
    game = played(5, lambda game: len(game.bag) < 16)
    assert deep.settings.phase(seen_by_mover(game).bag_count).plies == 4
    early = played(5, lambda game: len(game.bag) >= 16)
    assert deep.settings.phase(seen_by_mover(early).bag_count).plies == 2
    for bad in ("1", "9"):
        with pytest.raises(ValueError, match=f"plies='{bad}': expected 2 to 8 replies"):
            strategy_named(f"sim:plies={bad}")


def test_to_end_option_in_the_name() -> None:
    """``toend=1`` plays a playout on to the game's end once the bag is empty; off by default."""
    sim = strategy_named("sim:toend=1,seconds=0")
    assert isinstance(sim, Sim) and sim.settings.to_end is True
    assert SimSettings().to_end is False
    assert strategy_named("sim:toend=0").settings.to_end is False  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="toend='2': expected 0 or 1"):
        strategy_named("sim:toend=2")


def test_inference_weights_racks_that_explain_the_last_play() -> None:
    """After a greedy-looking play, racks whose best move was that play weigh more than racks that
    had something much better; an unexplainable play still gets racks (it falls back to uniform)."""
    def kept_some(game: Game) -> bool:  # four moves in, the last a placement that kept at least two tiles
        action = game.history[-1].action if game.history else None
        return len(game.history) >= 4 and isinstance(action, Placement) and len(action.tiles) <= 5

    game = played(21, kept_some)
    last = game.history[-1].action
    assert isinstance(last, Placement)
    seat = game.current
    situation = seen_by_mover(game, last)
    inference = RackInference(situation, Equity())
    # the tiles the opponent really kept (their rack now, minus what they drew) explain their play
    held = [*game.racks[1 - seat].letters(), *[-1] * game.racks[1 - seat].blanks]
    for tile in game.history[-1].drawn:
        held.remove(tile)
    truly_kept = tuple(sorted(held))
    assert inference.weight(truly_kept) == 1.0  # an equity player's own choice: nothing better
    rng = random.Random(3)
    size = 7 - len(last.tiles)
    weights = [inference.weight(tuple(sorted(rng.sample(situation.unseen, size)))) for _ in range(40)]
    assert all(0.02 <= w <= 1.0 for w in weights)  # never below the floor: no rack is ruled out
    assert min(weights) == 0.02 and len(set(weights)) > 10  # most racks explain it far worse, unequally
    rack, bag, weight = inference.deal(random.Random(5))
    assert len(rack) == len(situation.unseen) - situation.bag_count and len(bag) == situation.bag_count
    assert sorted([*rack.letters(), *[-1] * rack.blanks, *bag]) == sorted(situation.unseen)
    assert 0.02 <= weight <= 1.0
    # a higher temperature: the same racks, none lighter, the ones that explain the play worse heavier
    soft = RackInference(situation, Equity(), temperature=6.0)
    again = random.Random(3)
    pairs = [tuple(sorted(again.sample(situation.unseen, size))) for _ in range(40)]
    assert all(soft.weight(kept) >= inference.weight(kept) for kept in pairs)
    assert any(soft.weight(kept) > inference.weight(kept) for kept in pairs)
    assert soft.weight(truly_kept) == 1.0


def test_inference_temperature_is_an_option() -> None:
    sim = strategy_named("sim:infer=2.5,seconds=0")
    assert isinstance(sim, Sim) and sim.settings.inference_temperature == 2.5
    assert SimSettings().inference_temperature == RackInference.temperature == 2.0
    for bad in ("0", "-1", "inf"):
        with pytest.raises(ValueError, match=f"infer='{bad}': expected a positive temperature"):
            strategy_named(f"sim:infer={bad}")


def test_in_the_pre_endgame_every_opponent_rack_is_played_out_once() -> None:
    game = played(31, lambda game: len(game.bag) <= 3 or game.is_over)
    assert 1 <= len(game.bag) <= 3 and not game.is_over
    situation = seen_by_mover(game)
    simulator = Simulator(Equity(), SimSettings(max_iterations=5000, seconds=float("inf"), min_iterations=10**6))
    draws = simulator._every_rack(situation)
    assert draws is not None
    unseen = sorted(situation.unseen)
    held = len(unseen) - situation.bag_count
    racks = {tuple(sorted([*rack.letters(), *[-1] * rack.blanks])) for rack, _, _ in draws}
    assert len(racks) == len(draws)  # each distinct rack once
    assert sum(ways for _, _, ways in draws) == math.comb(len(unseen), held)  # every way to hold them
    for rack, bag, _ in draws:
        assert sorted([*rack.letters(), *[-1] * rack.blanks, *bag]) == unseen
    result = simulator.simulate(situation, Equity().best(situation, 3))
    assert result.iterations == len(draws) and result.by_wins


def test_in_the_pre_endgame_the_racks_come_in_a_random_order() -> None:
    """The pruning judges the racks played so far: in the order they are enumerated the first ones all
    hold the lowest tiles (an unfair sample that dropped candidates better over all racks)."""
    game = played(13, lambda game: len(game.bag) <= 5 or game.is_over)
    situation = seen_by_mover(game)
    assert situation.bag_count == 5
    simulator = Simulator(Equity(), SimSettings(max_iterations=5000, seconds=float("inf")))
    draws = simulator._every_rack(situation)
    assert draws is not None and len(draws) > 100

    racks = [tuple(sorted(rack.bag_tiles())) for rack, _, _ in draws]
    assert racks != sorted(racks) and racks != sorted(racks, reverse=True)
    lowest = min(situation.unseen)
    first = sum(lowest in rack for rack in racks[:24]) / 24
    overall = sum(lowest in rack for rack in racks) / len(racks)
    assert abs(first - overall) < 0.25, (first, overall)


class Clock:
    """An injected clock that advances ``step`` seconds at every reading."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def fixed_work(name: str, clock: Clock) -> Sim:
    """The strategy ``name`` with every clock it reads (the simulation's and the endgame's) injected."""
    sim = strategy_named(name)
    assert isinstance(sim, Sim) and sim.static.solver is not None
    sim.clock = clock
    sim.static.solver = dataclasses.replace(sim.static.solver, clock=clock)
    return sim


@pytest.mark.parametrize("phase", ["midgame", "pre-endgame", "endgame"])
def test_fixed_work_gives_the_same_move_under_a_fast_and_a_slow_clock(phase: str) -> None:
    """With ``seconds=0`` every budget is a count: a clock that hardly moves and one that jumps an hour
    at every reading give the same move, in the simulation and in the endgame search."""
    if phase == "midgame":
        situation = midgame(11, turns=8)
    else:
        bag_left = 0 if phase == "endgame" else 3
        game = played(13, lambda game: len(game.bag) <= bag_left or game.is_over)
        assert not game.is_over and len(game.bag) <= bag_left
        situation = seen_by_mover(game)
    name = "sim:candidates=4,iterations=12,playouts=40,seconds=0"
    fast_sim, slow_sim = fixed_work(name, Clock(1e-6)), fixed_work(name, Clock(3600.0))
    fast = fast_sim.best(situation, 1)
    slow = slow_sim.best(situation, 1)
    assert fast == slow
    if phase == "midgame":  # the playout budget ended both, at the same count
        assert fast_sim.last is not None and slow_sim.last is not None
        assert fast_sim.last.iterations == slow_sim.last.iterations < 12
        assert fast_sim.last.playouts == slow_sim.last.playouts >= 40
    if phase == "endgame":
        # the endgame search really ran to its node budget: a seconds budget would have cut it short
        nodes = fixed_work(name, Clock(3600.0))
        assert nodes.static.solver is not None and nodes.static.solver.seconds == math.inf


def test_a_budget_as_long_as_the_simulation_s_still_caps_the_endgame_search() -> None:
    """The bot's 2 s a move with the default ``sim`` (2 s of simulation, 10 s of endgame search): the
    endgame search gets 2 s too; a budget above both changes nothing."""
    sim = Sim()
    assert sim.settings.seconds == 2.0 and sim.static.solver is not None and sim.static.solver.seconds == 10.0
    budgeted = sim.budgeted(2.0)
    assert budgeted.settings.seconds == 2.0
    assert budgeted.static.solver is not None and budgeted.static.solver.seconds == 2.0
    assert sim.budgeted(30.0) is sim


def test_the_best_swap_is_simulated_when_no_static_candidate_is_a_swap() -> None:
    situation = midgame(5)
    static = Equity().best(situation, 3)
    assert not any(isinstance(move, Swap) for move in static) and situation.bag_count >= EN.swap_min_bag
    best_swap = next(move for move in Equity().rank(situation, []) if isinstance(move, Swap))
    settings = SimSettings(candidates=3, max_iterations=20, seconds=float("inf"))
    sim = Sim(settings=settings)
    sim.best(situation, 1)
    assert sim.last is not None
    assert {entry.move for entry in sim.last.ranked} == {*static, best_swap}
    without = Sim(settings=dataclasses.replace(settings, swaps=0))
    without.best(situation, 1)
    assert without.last is not None and {entry.move for entry in without.last.ranked} == set(static)
