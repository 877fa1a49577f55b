"""The daemon logs one line when a game ends: result, final score, opponent, game id."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.api.models import Game, LastMove, Player
from bot.play.turn import game_over_line
from tests.bot.conftest import Sandbox


def ended(mine: int, theirs: int, end_game: int = 1, resigner: int | None = None) -> Game:
    players = [
        Player(id=1, username="bot", position=0, score=mine),
        Player(id=2, username="ann", position=1, score=theirs),
    ]
    last = LastMove(move_type="resign", user_id=resigner) if resigner is not None else None
    return Game(
        id=9,
        ruleset=5,
        players=players,
        current_player=1,
        is_running=False,
        end_game=end_game,
        move_count=24,
        updated=1,
        last_move=last,
    )


@pytest.mark.parametrize(
    ("mine", "theirs", "end_game", "resigner", "line"),
    [
        (412, 380, 1, None, "game 9 over: won 412-380 against ann (ruleset 5, 24 moves)"),
        (300, 301, 1, None, "game 9 over: lost 300-301 against ann (ruleset 5, 24 moves)"),
        (250, 250, 1, None, "game 9 over: drawn 250-250 against ann (ruleset 5, 24 moves)"),
        # the resigner loses, whatever the score
        (10, 90, 2, 2, "game 9 over: won 10-90 against ann (ruleset 5, 24 moves; ann resigned)"),
        (90, 10, 2, 1, "game 9 over: lost 90-10 against ann (ruleset 5, 24 moves; the bot resigned)"),
        (90, 10, 3, 1, "game 9 over: lost 90-10 against ann (ruleset 5, 24 moves; the bot ran out of time)"),
        (0, 10, 3, None, "game 9 over: lost 0-10 against ann (ruleset 5, 24 moves; by resignation on time)"),
    ],
)
def test_the_line_says_result_score_opponent_and_game(
    mine: int, theirs: int, end_game: int, resigner: int | None, line: str
) -> None:
    assert game_over_line(ended(mine, theirs, end_game, resigner), 1) == line


def over_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if " over: " in r.getMessage()]


def test_the_pass_that_sees_a_game_end_logs_it_once(
    sandbox: Sandbox, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    sgame = sandbox.game(5)
    wiring = sandbox.wire(tmp_path / "s.db")
    with caplog.at_level(logging.INFO, logger="bot"):
        wiring.bot.run_pass()  # the bot plays its first move; the house answers
        assert over_lines(caplog) == []
        sgame.game.resign(sgame.players.index(sandbox.house.id))
        sgame.updated = sandbox.state.clock()
        wiring.bot.run_pass()
        sgame.updated = sandbox.state.clock()  # seen again (changed): not a second line
        wiring.bot.run_pass()
    game = wiring.client.game(sgame.id)
    mine, theirs = game.me(sandbox.me.id).score, game.opponent(sandbox.me.id).score
    expected = (
        f"game {sgame.id} over: won {mine}-{theirs} against house (ruleset 5, {game.move_count} moves; house resigned)"
    )
    assert over_lines(caplog) == [expected]
    assert mine > 0  # the bot did play a move before the house resigned


def test_a_game_first_seen_over_is_not_announced(
    sandbox: Sandbox, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A new state file sees the account's old finished games: no burst of lines for games ended long ago."""
    sgame = sandbox.game(5)
    sgame.game.resign(sgame.players.index(sandbox.me.id))
    sgame.updated = sandbox.state.clock()
    with caplog.at_level(logging.INFO, logger="bot"):
        sandbox.wire(tmp_path / "s.db").bot.run_pass()
    assert over_lines(caplog) == []
