"""Invites, random requests, random boards, chat and notifications over HTTP."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import requests

from engine.rules.layout import BoardLayout
from sandbox.server import SandboxServer
from sandbox.state import State
from tests.lexicons import english
from tests.sandbox.helpers import FakeClock, login, post


@pytest.fixture
def server() -> Iterator[SandboxServer]:
    state = State(lambda _: english(), FakeClock(), seed=2)
    state.add_user("alice", "alice@example.org", "a")
    state.add_user("bob", "bob@example.org", "b")
    with SandboxServer(state) as running:
        yield running


def test_invite_accept_and_reject(server: SandboxServer) -> None:
    alice = login(server, "alice@example.org", "a")
    bob = login(server, "bob@example.org", "b")
    sent = post(alice, server, "invite/new/", {"invitee": "bob", "ruleset": 5, "board_type": "normal"})
    assert sent["status"] == "success" and sent["content"]["invitation"]["invitee"] == "bob"
    again = post(alice, server, "invite/new/", {"invitee": "bob", "ruleset": 5, "board_type": "normal"})
    assert again["content"]["type"] == "duplicate_invite"
    errors = [
        ({"invitee": "nobody", "ruleset": 5, "board_type": "normal"}, "user_not_found"),
        ({"invitee": "bob", "ruleset": 13, "board_type": "normal"}, "invalid_ruleset"),
        ({"invitee": "bob", "ruleset": 5, "board_type": "odd"}, "invalid_board_type"),
    ]
    for body, kind in errors:
        assert post(alice, server, "invite/new/", body)["content"]["type"] == kind
    received = post(bob, server, "user/status/")["content"]["invites_received"]
    assert len(received) == 1 and received[0]["inviter"] == "alice" and received[0]["board_type"] == "normal"
    invite_id = received[0]["id"]
    assert post(alice, server, f"invite/{invite_id}/accept/")["content"]["type"] == "access_denied"
    accepted = post(bob, server, f"invite/{invite_id}/accept/")
    game_id = accepted["content"]["id"]
    assert game_id in server.state.games
    assert post(bob, server, f"invite/{invite_id}/accept/")["content"]["type"] == "access_denied"  # used up
    second = post(alice, server, "invite/new/", {"invitee": "bob", "ruleset": 1, "board_type": "random"})
    second_id = second["content"]["invitation"]["id"]
    assert post(bob, server, f"invite/{second_id}/reject/")["status"] == "success"
    assert post(bob, server, "user/status/")["content"]["invites_received"] == []
    kinds = [e["type"] for e in post(bob, server, "user/notifications/")["content"]["entries"]]
    assert kinds == ["invite_received", "new_game", "invite_received"]
    assert post(bob, server, "user/notifications/")["content"] == {"entries": [], "cutoff": False}


def test_random_requests_pair_two_users_on_a_random_board(server: SandboxServer) -> None:
    alice = login(server, "alice@example.org", "a")
    bob = login(server, "bob@example.org", "b")
    first = post(alice, server, "random_request/create/", {"ruleset": 5, "board_type": "random"})["content"]
    assert first["request_status"] == "request_scheduled" and first["request"]["board_type"] == 1
    assert len(post(alice, server, "user/status/")["content"]["random_requests"]) == 1
    post(bob, server, "random_request/create/", {"ruleset": 5, "board_type": "random"})
    games = post(bob, server, "user/games/")["content"]["games"]
    assert len(games) == 1 and games[0]["board"] != 0
    board = post(bob, server, f"board/{games[0]['board']}/")["content"]["board"]
    layout = BoardLayout.from_api_grid(board)
    assert layout != BoardLayout.standard() and layout.codes[7][7] == 0
    assert layout.premium_counts() == {"DL": 24, "TL": 20, "DW": 12, "TW": 8}
    game = server.state.games[games[0]["id"]].game
    assert game.rules.layout == layout  # the game is scored on that board
    assert post(bob, server, "board/424242/")["content"]["type"] == "unknown_board"


def test_random_request_against_the_house_starts_at_once(server: SandboxServer) -> None:
    house = server.state.add_user("house", "house@example.org", "h")
    server.state.house.add(house.id)
    alice = login(server, "alice@example.org", "a")
    post(alice, server, "random_request/create/", {"ruleset": 5, "board_type": "normal"})
    games = post(alice, server, "user/games/")["content"]["games"]
    assert len(games) == 1 and [p["username"] for p in games[0]["players"]] == ["alice", "house"]
    invited = post(alice, server, "invite/new/", {"invitee": "house", "ruleset": 5, "board_type": "normal"})
    assert invited["content"]["invitation"]["game_id"] in server.state.games


def test_chat(server: SandboxServer) -> None:
    alice = login(server, "alice@example.org", "a")
    bob = login(server, "bob@example.org", "b")
    users = list(server.state.users.values())
    game = server.state.new_game(users[0], users[1], 5)
    sent = post(alice, server, f"game/{game.id}/chat/send/", {"message": "  good luck  "})["content"]["sent"]
    messages = requests.get(server.base_url + f"game/{game.id}/chat/", cookies=bob.cookies, timeout=10).json()
    assert messages["content"]["messages"] == [{"message": "good luck", "sender": users[0].id, "sent": sent}]
    assert post(bob, server, f"game/{game.id}/")["content"]["game"]["chat_count"] == 1
    assert post(alice, server, f"game/{game.id}/chat/send/", {"message": ""})["content"]["type"] == "bad_request"
    entries = post(bob, server, "user/notifications/")["content"]["entries"]
    assert entries[-1]["type"] == "chat" and entries[-1]["message"] == "good luck"
