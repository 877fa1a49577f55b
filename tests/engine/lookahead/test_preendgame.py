"""One tile in the bag solved exactly (``engine.lookahead.preendgame``) and ``sim``'s re-ranking by it: the values
against the endgame search asked split by split, the weights of repeated tiles, the budget on an
injected clock, and the option's names."""

from __future__ import annotations

import copy
import itertools
import math
from functools import cache

import pytest

from engine.board.move import Placement, kept
from engine.board.rack import Rack
from engine.endgame.native import solve_endgame
from engine.equity.strategy import Equity, Situation
from engine.lookahead.preendgame import ExactValue, bag_splits, exact_values
from engine.lookahead.simulation import Sim, SimSettings
from engine.players.registry import strategy_named
from tests.engine.lookahead.test_simulation import EN, played, seen_by_mover

NODES = 20_000  # each search's budget here: small, so the tests stay quick (the same count on both sides)


@cache
def one_in_bag(seed: int) -> Situation:
    """The first position of a seeded equity game in which the player to move sees one tile in the bag."""
    game = played(seed, lambda game: len(game.bag) <= 1 or game.is_over)
    assert len(game.bag) == 1, f"seed {seed} does not reach one tile in the bag"
    return seen_by_mover(game)


def placements(situation: Situation, count: int) -> list[Placement]:
    return [move for move in Equity().best(situation, count) if isinstance(move, Placement)]


@pytest.mark.parametrize("seed", [1, 16])
def test_each_value_is_the_endgame_search_over_every_copy_of_every_unseen_tile(seed: int) -> None:
    situation = one_in_bag(seed)
    moves = placements(situation, 4)
    spread = situation.scores[0] - situation.scores[1]
    finished = 0
    for move, value in zip(moves, exact_values(situation, moves, nodes=NODES), strict=True):
        leads, complete = [], True
        for index in range(len(situation.unseen)):  # each copy on its own: a repeated tile counts once per copy
            in_bag = situation.unseen[index]
            theirs = Rack.from_bag_tiles(EN.alphabet, situation.unseen[:index] + situation.unseen[index + 1 :])
            ours = kept(situation.rack, move).drawn([in_bag])
            situation.board.place(move.tiles)
            found = solve_endgame(
                situation.board, theirs, ours, situation.lexicon, EN, seconds=math.inf, max_nodes=NODES
            )
            situation.board.undo()
            leads.append(spread + (move.score or 0) - found.value)
            complete = complete and found.complete
        assert value.move == move and value.complete == complete
        if not complete:  # unknown, not guessed from an unfinished search
            assert math.isnan(value.mean) and math.isnan(value.wins)
            continue
        finished += 1
        assert value.mean == pytest.approx(sum(leads) / len(leads))
        assert value.wins == pytest.approx(sum(1.0 if x > 0 else 0.5 if x == 0 else 0.0 for x in leads) / len(leads))
    assert finished >= 2


def test_a_search_that_does_not_finish_leaves_the_move_unknown_and_its_other_tiles_unsearched() -> None:
    situation = one_in_bag(1)
    (value,) = exact_values(situation, placements(situation, 1), nodes=1)
    assert not value.complete and math.isnan(value.mean) and math.isnan(value.wins)
    assert value.nodes <= 64  # one search (the budget is read every 64 nodes), not one a tile


def test_a_repeated_unseen_tile_is_one_split_counted_by_its_copies() -> None:
    situation = one_in_bag(1)
    splits = bag_splits(situation.unseen, EN.alphabet)
    assert len(splits) < len(situation.unseen)  # this position has a repeated unseen tile
    assert sum(ways for *_, ways in splits) == len(situation.unseen)
    assert len({tile for tile, *_ in splits}) == len(splits) == len(set(situation.unseen))
    for tile, theirs, ways in splits:
        assert ways == situation.unseen.count(tile)
        assert sorted([*theirs.bag_tiles(), tile]) == sorted(situation.unseen)


def test_the_board_is_left_as_it_was() -> None:
    situation = one_in_bag(1)
    before = copy.deepcopy(situation.board.grid)
    exact_values(situation, placements(situation, 2), nodes=NODES)
    assert situation.board.grid == before


def test_only_one_tile_in_the_bag_is_solved_so() -> None:
    situation = seen_by_mover(played(3, lambda game: len(game.history) >= 4))
    with pytest.raises(ValueError, match=f"not {situation.bag_count}$"):
        exact_values(situation, placements(situation, 2), nodes=NODES)


def test_moves_not_valued_in_time_are_left_out() -> None:
    situation = one_in_bag(1)
    moves = placements(situation, 4)
    ticks = itertools.count()
    values = exact_values(situation, moves, nodes=NODES, seconds=9.5, clock=lambda: float(next(ticks)))
    assert 0 < len(values) < len(moves)
    assert [value.move for value in values] == moves[: len(values)]


def fixed(exact: int) -> Sim:
    settings = SimSettings(candidates=6, max_iterations=40, seconds=math.inf, exact_candidates=exact, exact_nodes=NODES)
    return Sim(settings=settings)


@pytest.mark.parametrize("seed", [1, 16])
def test_sim_plays_the_placement_of_its_best_that_is_best_valued_exactly(seed: int) -> None:
    situation = one_in_bag(seed)
    plain, exact = fixed(0), fixed(4)
    ranked = plain.best(situation, 10)
    assert plain.last is not None and plain.last.exact == []
    chosen = exact.best(situation, 10)
    assert exact.last is not None
    values = exact.last.exact
    top = [move for move in ranked if isinstance(move, Placement)][:4]
    assert [value.move for value in values] == top  # valued in the simulation's order
    known = [value for value in values if value.complete]
    assert len(known) >= 2
    places = sorted(ranked.index(value.move) for value in known)
    best_first = sorted(known, key=lambda value: (-value.wins, -value.mean, top.index(value.move)))
    assert [chosen[place] for place in places] == [value.move for value in best_first]
    for value in values:
        if not value.complete:
            assert chosen.index(value.move) == ranked.index(value.move)
    assert sorted(chosen, key=str) == sorted(ranked, key=str)  # re-ranked, nothing lost


def test_sim_exact_options_in_the_name() -> None:
    sim = strategy_named("sim:exact=8,exactnodes=5000")
    assert isinstance(sim, Sim)
    assert (sim.settings.exact_candidates, sim.settings.exact_nodes) == (8, 5000)
    assert strategy_named("sim:exact=0").settings.exact_candidates == 0  # type: ignore[attr-defined]
    for bad in ("exact=-1", "exact=1.5", "exactnodes=0"):
        with pytest.raises(ValueError, match=bad.partition("=")[0]):
            strategy_named(f"sim:{bad}")


def test_sim_ranks_by_the_share_won_then_the_mean_lead_then_its_own_order(monkeypatch: pytest.MonkeyPatch) -> None:
    situation = one_in_bag(1)
    ranked = fixed(0).best(situation, 10)
    top = [move for move in ranked if isinstance(move, Placement)][:5]
    # wins and mean by the simulation's rank; the third's searches did not finish
    made = {0: (0.5, 10.0), 1: (0.75, -5.0), 2: (math.nan, math.nan), 3: (0.75, 0.0), 4: (0.5, 10.0)}

    def valued(situation: Situation, moves: list[Placement], **_: object) -> list[ExactValue]:
        assert moves == top
        return [ExactValue(move, *made[index], index != 2, 0) for index, move in enumerate(moves)]

    monkeypatch.setattr("engine.lookahead.simulation.exact_values", valued)
    chosen = fixed(5).best(situation, 10)
    assert chosen[:5] == [top[3], top[1], top[2], top[0], top[4]]  # the unknown one keeps its place
