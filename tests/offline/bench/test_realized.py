"""Two strategies' one-in-bag choices played out: a play-out is the game the real bag would have given,
the game is left as it was, equal strategies never differ, and bad options of this command and of
``offline.bench.oneinbag`` name the option."""

from __future__ import annotations

import copy
from collections.abc import Callable

import pytest

from engine.board.move import Move, Placement
from engine.board.rack import Rack
from engine.equity.strategy import Situation
from engine.lookahead.preendgame import bag_splits
from engine.players.registry import strategy_named
from offline.bench.oneinbag import games_at_one_in_bag
from offline.bench.oneinbag import main as oneinbag_main
from offline.bench.realized import compare, main, play_out, realized, summary_lines
from tests.engine.lookahead.test_simulation import EN


def test_a_play_out_on_the_tile_really_in_the_bag_is_the_game_itself() -> None:
    equity, greedy = strategy_named("equity"), strategy_named("greedy")
    checked = 0
    for game in games_at_one_in_bag(5, 3, 8):
        checked += 1
        side = game.current
        before = (copy.deepcopy(game.board.grid), list(game.bag), list(game.racks), list(game.scores))
        move = greedy.best(Situation.of(game), 1)[0]
        result = play_out(game, move, game.bag[0], game.racks[1 - side], greedy, equity)
        assert (game.board.grid, game.bag, game.racks, game.scores) == before
        game.play(move)  # the real game, on to its end
        while not game.is_over:
            game.play((greedy if game.current == side else equity).best(Situation.of(game), 1)[0])
        assert result == game.scores[side] - game.scores[1 - side]
    assert checked >= 2


class Recording:
    """Equity, remembering the racks it was asked to play."""

    def __init__(self) -> None:
        self.racks: list[Rack] = []
        self.equity = strategy_named("equity")

    def best(self, situation: Situation, k: int) -> list[Move]:
        self.racks.append(situation.rack)
        return self.equity.best(situation, k)


def test_a_play_out_deals_the_tile_to_us_and_the_rest_to_the_opponent() -> None:
    game = next(games_at_one_in_bag(5, 3, 8))
    move = strategy_named("equity").best(Situation.of(game), 1)[0]
    assert isinstance(move, Placement)
    real = game.bag[0]
    tile, theirs, _ = next(split for split in bag_splits(game.unseen(game.current), EN.alphabet) if split[0] != real)
    ours, opponent = Recording(), Recording()
    play_out(game, move, tile, theirs, ours, opponent)  # type: ignore[arg-type]
    assert opponent.racks[0] == theirs
    assert ours.racks[0] == game.rack.leave([t for _, _, t in move.tiles]).drawn([tile])


def test_equal_strategies_never_differ_and_different_ones_are_measured_on_every_tile() -> None:
    found, count = compare("equity", "equity", "equity", games=16, ruleset=5, seed=3)
    assert count > 1 and found == []
    found, count = compare("greedy", "equity", "equity", games=16, ruleset=5, seed=3)
    assert len(found) == 1
    game = next(
        g
        for g in games_at_one_in_bag(5, 3, 16)
        if strategy_named("greedy").best(Situation.of(g), 1) != strategy_named("equity").best(Situation.of(g), 1)
    )
    greedy, equity = strategy_named("greedy"), strategy_named("equity")
    margin_a, wins_a = realized(game, greedy.best(Situation.of(game), 1)[0], greedy, equity)
    margin_b, wins_b = realized(game, equity.best(Situation.of(game), 1)[0], equity, equity)
    assert (found[0].margin, found[0].wins) == pytest.approx((margin_a - margin_b, wins_a - wins_b))
    lines = list(summary_lines(found, count))
    assert lines[0] == f"positions {count}, choices differ at 1" and lines[1].startswith("margin a game, A minus B: ")


@pytest.mark.parametrize(
    ("command", "argv", "named"),
    [
        (main, ["--games", "0"], "--games 0"),
        (main, ["--a", "sim"], "--a: strategy 'sim' has a time limit"),
        (main, ["--opponent", "nobody"], "--opponent: unknown strategy 'nobody'"),
        (main, ["--ruleset", "99"], "--ruleset 99"),
        (oneinbag_main, ["--games", "0"], "--games 0"),
        (oneinbag_main, ["--nodes", "0"], "--nodes 0"),
        (oneinbag_main, ["--strategy", "sim"], "--strategy: strategy 'sim' has a time limit"),
        (oneinbag_main, ["--ruleset", "99"], "--ruleset 99"),
    ],
)
def test_bad_options_of_both_commands_name_the_option(
    command: Callable[[list[str]], int], argv: list[str], named: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        command(argv)
    assert stopped.value.code == 2
    assert named in capsys.readouterr().err
