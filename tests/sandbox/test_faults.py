"""Fault injection: each kind seen from a plain ``requests`` client; the seed makes it repeatable."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import requests

from sandbox.faults import Faults
from sandbox.server import SandboxServer
from sandbox.state import State
from tests.lexicons import english
from tests.sandbox.helpers import FakeClock, login, post, wire_move


@pytest.fixture
def server() -> Iterator[SandboxServer]:
    state = State(lambda _: english(), FakeClock(), seed=4)
    state.add_user("alice", "alice@example.org", "a")
    state.add_user("bob", "bob@example.org", "b")
    with SandboxServer(state, faults=Faults(slow_seconds=10)) as running:
        yield running


def status(session: requests.Session, server: SandboxServer, timeout: float = 10) -> requests.Response:
    return session.post(server.base_url + "user/status/", json={}, timeout=timeout)


def test_error_statuses_and_bad_bodies(server: SandboxServer) -> None:
    alice = login(server, "alice@example.org", "a")
    server.faults.inject("http_500", "http_502", "http_503", "non_json")
    assert [status(alice, server).status_code for _ in range(3)] == [500, 502, 503]
    odd = status(alice, server)
    assert odd.status_code == 200
    with pytest.raises(ValueError):
        odd.json()
    assert status(alice, server).json()["status"] == "success"  # the next request is normal again


def test_dropped_connection(server: SandboxServer) -> None:
    alice = login(server, "alice@example.org", "a")
    server.faults.inject("drop")
    with pytest.raises(requests.ConnectionError):
        status(alice, server)
    assert status(alice, server).json()["status"] == "success"


def test_slow_answer_outlasts_a_client_timeout(server: SandboxServer) -> None:
    alice = login(server, "alice@example.org", "a")
    server.faults.inject("slow")
    with pytest.raises(requests.Timeout):
        status(alice, server, timeout=0.3)
    server.faults.release()
    assert status(alice, server).json()["status"] == "success"


def test_forced_expiry(server: SandboxServer) -> None:
    alice = login(server, "alice@example.org", "a")
    server.faults.inject("expire")
    assert status(alice, server).json()["content"]["type"] == "login_required"


def test_applied_then_failed_move_is_on_the_board(server: SandboxServer) -> None:
    users = list(server.state.users.values())
    game = server.state.new_game(users[0], users[1], 5)
    alice = login(server, "alice@example.org", "a")
    tiles, points = wire_move(game)
    server.faults.inject("apply_then_fail")
    with pytest.raises(requests.ConnectionError):
        alice.post(server.base_url + f"game/{game.id}/move/", json={"move": tiles, "ruleset": 5}, timeout=10)
    # the move happened: a client that re-reads the game sees it and must not play it again
    detail = post(alice, server, f"game/{game.id}/")["content"]["game"]
    assert detail["move_count"] == 1 and detail["players"][0]["score"] == points
    again = post(alice, server, f"game/{game.id}/move/", {"move": tiles, "ruleset": 5})
    assert again["content"]["type"] == "not_your_turn"


def test_rates_are_deterministic_with_a_seed() -> None:
    def draws(seed: int) -> list[str | None]:
        faults = Faults({"http_503": 0.2, "drop": 0.1}, seed=seed)
        return [faults.next() for _ in range(200)]

    assert draws(7) == draws(7)
    assert draws(7) != draws(8)
    counts = draws(7)
    assert 20 < counts.count("http_503") < 60 and 5 < counts.count("drop") < 40
    with pytest.raises(ValueError, match="unknown fault kinds"):
        Faults({"explode": 1.0})
    with pytest.raises(ValueError, match="unknown fault kind"):
        Faults().inject("explode")
    with pytest.raises(ValueError, match="between 0 and 1"):
        Faults({"drop": 1.5})
