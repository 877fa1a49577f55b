"""House players: a client playing over HTTP gets replies and can finish a game; the command starts a server."""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Iterator

import pytest
import requests

from engine.board.board import Board
from engine.board.move import Placement, Swap
from engine.game import Game
from engine.lexicon.dawg import Dawg
from engine.movegen.generate import generate
from engine.movegen.score import score
from engine.rules.ruleset import Ruleset
from sandbox.server import SandboxServer
from sandbox.state import State
from tests.lexicons import english
from tests.sandbox.helpers import FakeClock, api_hash, post, sandbox_command

NB = Ruleset.for_id(1)


def norwegian() -> Dawg:
    rng = random.Random(3)
    letters = "AEIORSTNLKDGÆØÅ"
    words = {"".join(rng.choice(letters) for _ in range(rng.choice((2, 3, 3, 4, 5)))) for _ in range(4000)}
    return Dawg.build([NB.alphabet.parse_word(w) for w in words], NB.alphabet)


@pytest.fixture(params=[5, 1])
def setup(request: pytest.FixtureRequest) -> Iterator[tuple[SandboxServer, int]]:
    ruleset_id: int = request.param
    lexicon = english() if ruleset_id == 5 else norwegian()
    state = State(lambda _: lexicon, FakeClock(), seed=ruleset_id)
    me = state.add_user("me", "me@example.org", "pw")
    house = state.add_user("house", "house@example.org", "pw2")
    state.house.add(house.id)
    game = state.new_game(me, house, ruleset_id)
    with SandboxServer(state) as server:
        yield server, game.id


def test_client_plays_a_whole_game_against_the_house(setup: tuple[SandboxServer, int]) -> None:
    server, game_id = setup
    session = requests.Session()
    assert (
        post(session, server, "user/login/email/", {"email": "me@example.org", "password": api_hash("pw")})["status"]
        == "success"
    )
    sgame = server.state.games[game_id]
    game = sgame.game
    full = sorted(game.all_tiles())
    for _ in range(200):
        detail = post(session, server, f"game/{game_id}/")["content"]["game"]
        if not detail["is_running"]:
            break
        assert detail["players"][detail["current_player"]]["is_local"]  # the house has replied
        moves = generate(game.board, game.rack, game.lexicon, game.rules)
        if moves:
            best = max(moves, key=lambda m: (m.score or 0, sorted(m.tiles)))
            expected = score(game.board, best, game.rules)
            symbol = game.rules.alphabet.symbol
            wire = [[c, r, symbol(t & 63), bool(t & 64)] for r, c, t in best.tiles]
            answer = post(session, server, f"game/{game_id}/move/", {"move": wire, "ruleset": game.rules.id})
            assert answer["status"] == "success", answer
            assert answer["content"]["points"] == expected == best.score
        elif detail["bag_count"] >= 7:
            assert (
                post(session, server, f"game/{game_id}/swap/", {"tiles": detail["players"][0]["rack"]})["status"]
                == "success"
            )
        else:
            assert post(session, server, f"game/{game_id}/pass/")["status"] == "success"
        # invariants after every exchange: every tile is somewhere, scores add up
        assert sorted(game.all_tiles()) == full
        for player in (0, 1):
            points = sum(t.points for t in game.history if t.player == player)
            assert game.scores[player] == points + game.end_adjustments[player]
    final = post(session, server, f"game/{game_id}/")["content"]["game"]
    assert final["is_running"] is False and final["end_game"] == 1
    assert [p["score"] for p in final["players"]] == game.scores
    assert len(game.history) > 6
    assert any(t.player == 1 for t in game.history)  # the house played
    # replayed on a fresh board, every placement scores what the server recorded
    board = Board(game.rules.alphabet)
    for turn in game.history:
        if isinstance(turn.action, Placement):
            assert score(board, turn.action, game.rules) == turn.points
            board.place(turn.action.tiles)
    assert board == game.board


def test_sandbox_command_prints_its_accounts() -> None:
    with sandbox_command() as (lines, session, url):  # the player's account logs in
        assert lines[0].startswith("sandbox serving http://127.0.0.1:")
        assert "password player-password" in lines[1]
        games = session.get(url + "user/games/", timeout=10).json()["content"]["games"]
        assert len(games) == 1 and games[0]["ruleset"] == 5


@pytest.mark.parametrize("spec", ["explode=0.1", "drop=2", "drop=x"])
def test_sandbox_command_refuses_bad_faults(spec: str) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "sandbox", "--port", "0", "--fault", spec],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 2
    assert "--fault" in result.stderr


@pytest.mark.parametrize("ruleset_id", [5, 1])
def test_two_house_players_finish_a_game(ruleset_id: int) -> None:
    """Two house players play a whole game at once; replaying it move by move from its seed
    checks tile conservation, the scores and every move's points after each move."""
    lexicon = english() if ruleset_id == 5 else norwegian()
    state = State(lambda _: lexicon, FakeClock(), seed=ruleset_id + 10)
    first = state.add_user("h1", "h1@example.org", "x")
    second = state.add_user("h2", "h2@example.org", "y")
    state.house |= {first.id, second.id}
    sgame = state.new_game(first, second, ruleset_id)
    played = sgame.game
    assert played.is_over and played.end_reason in {"out", "scoreless"}
    replay = Game(played.rules, lexicon, random.Random(sgame.seed))
    full = replay.all_tiles()
    for turn in played.history:
        action = turn.action
        if isinstance(action, Placement):
            assert score(replay.board, action, replay.rules) == turn.points
            assert replay.place(action).points == turn.points
        elif isinstance(action, Swap):
            replay.swap(action.tiles)
        else:
            replay.pass_turn()
        assert replay.all_tiles() == full
        for player in (0, 1):
            points = sum(t.points for t in replay.history if t.player == player)
            assert replay.scores[player] == points + replay.end_adjustments[player]
    assert replay.scores == played.scores and replay.board == played.board and replay.is_over
    assert len(played.history) > 10
