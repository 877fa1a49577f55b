"""The one-in-bag study: a player of the exactly best move loses nothing, a greedy one loses, every
position has one tile in the bag, and the command prints its figures (its bad options: test_realized.py)."""

from __future__ import annotations

import pytest

from engine.board.move import Move, Placement
from engine.equity.strategy import Equity, Situation
from engine.lookahead.preendgame import exact_values
from engine.players.registry import strategy_named
from offline.bench.oneinbag import main, measure, positions, summary_lines

NODES = 2_000


class ExactBest:
    """Plays the best of equity's best three placements by their exact one-in-bag value (of those whose
    searches finish; the first when none does)."""

    def best(self, situation: Situation, k: int) -> list[Move]:
        moves = [move for move in Equity().best(situation, 3) if isinstance(move, Placement)]
        values = [value for value in exact_values(situation, moves, nodes=NODES) if value.complete]
        chosen: list[Move] = [max(values, key=lambda value: (value.wins, value.mean)).move if values else moves[0]]
        return chosen[:k]


def test_every_position_has_one_tile_in_the_bag_and_the_games_differ() -> None:
    found = list(positions(5, 11, 12))
    assert 1 < len(found) < 12
    assert all(situation.bag_count == 1 and len(situation.unseen) == 8 for situation in found)
    assert len({tuple(sorted(situation.board.tiles())) for situation in found}) == len(found)


def test_the_exactly_best_loses_nothing_and_greedy_loses() -> None:
    found = list(positions(5, 11, 12))
    exact = [m for m in (measure(ExactBest(), s, 3, NODES) for s in found) if m is not None]  # type: ignore[arg-type]
    assert len(exact) > 1 and all(m.agreed and m.loss == 0 and m.win_loss == 0 for m in exact)
    greedy = [m for m in (measure(strategy_named("greedy"), s, 10, NODES) for s in found) if m is not None]
    assert len(greedy) > 1 and all(m.win_loss >= 0 for m in greedy)
    assert sum(m.loss for m in greedy) > 0 and not all(m.agreed for m in greedy)
    lines = list(summary_lines(greedy, 3))
    assert lines[0] == f"decisions {len(greedy)} (not measured: 3, passes or unfinished searches)"
    assert lines[2].startswith("loss (points) +")


def test_the_command_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["--strategy", "greedy", "--games", "6", "--seed", "11", "--nodes", str(NODES), "--candidates", "3"]) == 0
    )
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("greedy with one tile in the bag")
    assert out[1].startswith("decisions ") and out[-1].startswith(
        "ruleset 5, seed 11, 6 games, 3 candidates, 2,000 nodes"
    )
